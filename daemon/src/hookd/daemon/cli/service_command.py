"""``hookd service install|uninstall|status``: run hookd under the platform's service
manager (systemd user units with socket activation; a launchd agent on macOS).

``install`` writes the files with this installation's absolute hookd, then loads and
starts them; a second ``install`` with nothing to change says so and changes nothing.
``--dry-run`` prints exactly the files it would write (``--- write PATH`` and the text)
and the commands it would run (``--- run ...``), and does neither. A daemon outside the
service holding the socket is stopped first (the service's daemon would refuse to start
beside it). ``--files-only`` writes or removes the files and runs no command.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from typing import Any

ACTIONS = (
    ("install", "write and start hookd's service (systemd user units; a launchd agent)"),
    ("uninstall", "stop hookd's service and remove its files"),
    ("status", "say which service manager runs hookd, the unit's state and the socket"),
)
EPILOG = ("With the service installed, hookd-relay never starts a daemon of its own: it "
          "connects to the service's socket, or has the service manager start it.")  # fmt: skip


def add_parser(commands: Any) -> None:
    """``hookd service ...`` in the CLI's parser."""
    service = commands.add_parser(
        "service", help="run hookd as a service (install, uninstall, status)",
        description="Run hookd under this platform's service manager: systemd user units "
        "(hookd.socket holds the socket, hookd.service runs hookd, adopting it) or a "
        "launchd agent on macOS, naming this installation's hookd. " + EPILOG,
    )  # fmt: skip
    actions = service.add_subparsers(dest="service_action", metavar="ACTION", required=True)
    for name, summary in ACTIONS:
        action = actions.add_parser(name, help=summary, description=f"{summary}. {EPILOG}")
        action.add_argument("--manager", choices=("systemd", "launchd"),
                            help="default: this platform's (others: --dry-run only)")  # fmt: skip
        if name == "status":
            action.add_argument("--json", action="store_true", help="print the state as JSON")
            continue
        action.add_argument("--dry-run", action="store_true",
                            help="print the files and commands, write and run nothing")  # fmt: skip
        action.add_argument("--files-only", action="store_true",
                            help="write (remove) the files, run no manager command")  # fmt: skip


def run(args: argparse.Namespace) -> int:
    from ..errors import UserError
    from ..service import MANAGER, MANAGERS, Manager, installation

    manager: Manager | None = MANAGERS[args.manager] if args.manager else MANAGER
    if manager is None:
        raise UserError(f"hookd has no service integration on {sys.platform}: start "
                        "'hookd serve' at login yourself (packaging/README.md)")  # fmt: skip
    foreign = sys.platform != manager.PLATFORM
    if foreign and not getattr(args, "dry_run", False):
        raise UserError(f"{manager.NAME} is not this platform's service manager: on "
                        f"{sys.platform} add --dry-run to see its files")  # fmt: skip
    if args.socket and manager.NAME == "systemd":
        raise UserError("hookd.socket listens on %t/hookd/hookd.sock ($XDG_RUNTIME_DIR), "
                        "where every client looks: --socket does not apply to systemd")  # fmt: skip
    install = installation(socket=args.socket and os.path.abspath(args.socket))
    action = {"install": _install, "uninstall": _uninstall, "status": _status}
    result: int = action[args.service_action](manager, install, args, foreign)
    return result


def _install(manager: Any, install: Any, args: argparse.Namespace, foreign: bool) -> int:
    from ..service import UnitState, reads

    unit = UnitState("not asked", known=False) if foreign else manager.unit_state(install)
    wanted = manager.files(install)
    changed = [f for f in wanted if reads(f.path) != f.text]
    outside = None if foreign or unit.listening else _outside_daemon(install, manager, unit)
    running = unit.main_pid is not None or unit.listening
    commands = (manager.install_commands(install, unit) if changed
                else [] if running else manager.start_commands(install))  # fmt: skip
    if args.dry_run:
        for file in wanted:
            if file in changed:
                print(f"--- write {file.path}\n{file.text}", end="")
            else:
                print(f"--- unchanged {file.path}")
        if outside:
            print(f"--- stop hookd pid {outside} (outside the service) on "
                  f"{manager.socket_path(install)}")  # fmt: skip
        for command in [] if args.files_only else commands:
            print(f"--- run {shlex.join(command)}")
        return 0
    for file in wanted:
        if file in changed:
            _write(file.path, file.text)
            print(f"wrote {file.path}")
        else:
            print(f"unchanged {file.path}")
    if args.files_only or not commands:
        said = "nothing changed" if not changed else "files written"
        rest = (f"; to start it: {' && '.join(shlex.join(c) for c in commands)}"
                if args.files_only and commands else "")  # fmt: skip
        print(f"hookd service: {said} ({manager.NAME}{rest})")
        return 0
    if outside:
        _stop_outside(install, manager, outside)
    if not _run_all(commands):
        return 1
    print(f"hookd service installed: {manager.NAME} runs {shlex.join(install.program)} on "
          f"{manager.socket_path(install)}")  # fmt: skip
    return 0


def _uninstall(manager: Any, install: Any, args: argparse.Namespace, foreign: bool) -> int:
    present = [f for f in manager.files(install) if os.path.lexists(f.path)]
    if not present:
        print(f"hookd service: not installed ({manager.NAME}); nothing to remove")
        return 0
    before = [] if args.files_only else manager.uninstall_commands(install)
    after = [] if args.files_only else manager.after_uninstall_commands(install)
    if args.dry_run:
        for command in before:
            print(f"--- run {shlex.join(command)}")
        for file in present:
            print(f"--- remove {file.path}")
        for command in after:
            print(f"--- run {shlex.join(command)}")
        return 0
    fine = _run_all(before)
    for file in present:
        os.unlink(file.path)
        print(f"removed {file.path}")
    fine = _run_all(after) and fine
    print(f"hookd service: uninstalled ({manager.NAME})" if fine else
          "hookd service: files removed, but the service manager did not do all it was "
          "asked (above)")  # fmt: skip
    return 0 if fine else 1


def _status(manager: Any, install: Any, args: argparse.Namespace, foreign: bool) -> int:
    from ..service import state, who_runs

    found = state(manager=manager, ask_manager=not foreign)
    runs = who_runs(found).said
    if args.json:
        print(json.dumps({**dataclasses.asdict(found), "runsHookd": runs}, indent=2))
    else:
        files = ", ".join(found.files)
        stale = " (not this installation's hookd, or changed: run 'hookd service install')"
        fit = "" if not found.installed else " (this installation's)" if found.current else stale
        print(f"manager     {found.manager}\n"
              f"installed   {'yes' if found.installed else 'no'}: {files}{fit}\n"
              f"unit        {found.unit}\n"
              f"socket      {found.socket}\n"
              f"runs hookd  {runs}")  # fmt: skip
    return 0 if found.installed and found.current and not runs.startswith("outside") else 1


def _outside_daemon(install: Any, manager: Any, unit: Any) -> int | None:
    from ..service import daemon_pid

    pid = daemon_pid(manager.socket_path(install))
    return pid if pid is not None and pid != unit.main_pid else None


def _stop_outside(install: Any, manager: Any, pid: int) -> None:
    from hookd.client import Client, HookdClientError

    path = manager.socket_path(install)
    print(f"stopping hookd pid {pid}, started outside the service, on {path}")
    try:
        with Client(path, timeout_s=30.0) as client:
            client.shutdown()
    except HookdClientError as exc:
        print(f"hookd: could not stop it ({exc}): the service's hookd may refuse to start "
              "beside it", file=sys.stderr)  # fmt: skip
        return
    # 'shutdown' is answered before the daemon has drained and let go of its lock: the
    # service's hookd, started next, would find it held ("already running").
    deadline = time.monotonic() + STOP_WAIT_S
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if _alive(pid):
        print(f"hookd: pid {pid} has not exited after {STOP_WAIT_S:g} s: the service's hookd "
              "may refuse to start beside it", file=sys.stderr)  # fmt: skip


STOP_WAIT_S = 15.0
"""How long install waits for a stopped outside daemon to exit (its own grace is shorter)."""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _run_all(commands: list[tuple[str, ...]]) -> bool:
    """Run the manager's commands in order; stop at the first that fails, saying why."""
    for command in commands:
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=120,
                                  check=False)  # fmt: skip
        except (OSError, subprocess.TimeoutExpired) as exc:
            print(f"hookd: cannot run {shlex.join(command)}: {exc}", file=sys.stderr)
            return False
        if done.returncode != 0:
            said = (done.stderr or done.stdout).strip().replace("\n", "; ")
            print(f"hookd: {shlex.join(command)} failed (exit {done.returncode}): {said}. "
                  "Is your user's service manager running (a login session)? Run the "
                  "command yourself once it is.", file=sys.stderr)  # fmt: skip
            return False
        print(f"ran {shlex.join(command)}")
    return True


def _write(path: str, text: str) -> None:
    """Replace ``path`` with ``text`` at once (0644: a unit or plist is no secret)."""
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=".hookd-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
