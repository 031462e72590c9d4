#!/usr/bin/env python3
"""A stand-in for ``systemctl --user`` where no user manager can run (this container: the
system is not booted with systemd, so ``systemd --user`` refuses to start; CI likewise),
doing what the user manager does with hookd's units and nothing else: it reads the unit
files ``hookd service install`` wrote, holds ``ListenStream=`` with the real
``systemd-socket-activate`` (the socket is passed to hookd as LISTEN_FDS, as systemd
passes it) and runs ``ExecStart=`` on the first connection. Installed as ``systemctl``
on a test's PATH; each call is appended to ``$HOOKD_TEST_MANAGER/calls``.

Verbs: daemon-reload; enable --now / start (hookd.socket, hookd.service); show;
disable --now / stop; try-restart (a running hookd restarts)."""

from __future__ import annotations

import configparser
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

STATE = Path(os.environ["HOOKD_TEST_MANAGER"])
UNITS = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "systemd" / "user"


def unit(name: str) -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(UNITS / name)
    return parser


def socket_path() -> str:
    listen = unit("hookd.socket")["Socket"]["ListenStream"]
    return listen.replace("%t", os.environ["XDG_RUNTIME_DIR"])


def holder() -> int | None:
    try:
        pid = int((STATE / "pid").read_text())
        os.kill(pid, 0)
    except (OSError, ValueError):
        return None
    return pid


def start() -> int:
    if holder() is not None:
        return 0
    path = socket_path()
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    command = shlex.split(unit("hookd.service")["Service"]["ExecStart"].replace("%%", "%"))
    log = open(STATE / "journal", "ab")  # noqa: SIM115 - handed to the child
    child = subprocess.Popen(["systemd-socket-activate", "-l", path, "-E", "HOME", "-E", "PATH",
                              "-E", "XDG_CONFIG_HOME", "-E", "XDG_RUNTIME_DIR", *command],
                             stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                             start_new_session=True)  # fmt: skip
    (STATE / "pid").write_text(str(child.pid))
    deadline = time.monotonic() + 30
    while not os.path.exists(path):  # bound and listening once the file is there
        if time.monotonic() > deadline or child.poll() is not None:
            return 1
        time.sleep(0.01)
    return 0


def stop() -> int:
    pid = holder()
    if pid is not None:
        os.kill(pid, signal.SIGTERM)
        while holder() is not None:
            time.sleep(0.01)
    (STATE / "pid").unlink(missing_ok=True)
    Path(socket_path()).unlink(missing_ok=True)
    return 0


def show() -> int:
    pid = holder()
    serving = pid is not None and not Path(f"/proc/{pid}/comm").read_text().startswith(
        "systemd-socket"
    )
    print(f"Id=hookd.socket\nLoadState=loaded\nActiveState={'active' if pid else 'inactive'}\n"
          f"SubState={'listening' if pid else 'dead'}\nMainPID=0\n\n"
          f"Id=hookd.service\nLoadState=loaded\n"
          f"ActiveState={'active' if serving else 'inactive'}\n"
          f"SubState={'running' if serving else 'dead'}\nMainPID={pid if serving else 0}")  # fmt: skip
    return 0


def main(argv: list[str]) -> int:
    with open(STATE / "calls", "a") as calls:
        calls.write(shlex.join(argv) + "\n")
    if argv[:2] == ["--user", "daemon-reload"]:
        return 0
    if argv[:1] != ["--user"] or not (UNITS / "hookd.socket").exists():
        print("Failed to connect to bus: not hookd's units", file=sys.stderr)
        return 1
    verb = argv[1]
    if verb in ("start", "enable"):
        return start()
    if verb in ("stop", "disable"):
        return stop()
    if verb == "show":
        return show()
    if verb == "try-restart":  # a running service restarts; the socket is held again
        pid = holder()
        running = pid is not None and not Path(f"/proc/{pid}/comm").read_text().startswith(
            "systemd-socket"
        )
        return (stop() or start()) if running else 0
    print(f"unknown verb {verb}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
