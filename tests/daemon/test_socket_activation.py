"""hookd under a service manager (issue 29): the socket passed by socket activation
(``LISTEN_FDS``, through the real ``systemd-socket-activate``) is adopted and answers a
fire; the lock still allows one daemon per socket; the socket file stays the manager's;
``WATCHDOG=1`` reaches a real notify socket while the daemon is healthy."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from hookd_testing import claude_settings, command, write_json
from hookd_testing.activation import HOOKD, activated, needs_activate

EVENT = {"tool_name": "Bash", "tool_input": {"command": "rm -rf build"}}


def daemon_env(home: Path, path: str, **more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOOKD_", "LISTEN_"))}
    return {**env, "HOME": str(home), "HOOKD_SOCKET": path, "PYTHONUNBUFFERED": "1", **more}


def hookd(env: dict[str, str], *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, *args], input=stdin, env=env, capture_output=True,
                          text=True, timeout=120)  # fmt: skip


@needs_activate
def test_a_socket_activated_daemon_answers_a_fire(short_dir: Path, tmp_path: Path) -> None:
    """The first connection starts hookd with the socket on fd 3; it answers the fire,
    its hooks see no activation variables, and after 'hookd shutdown' the socket file is
    still there (the manager's), the lock file names the daemon that held it."""
    path = str(short_dir / "hookd.sock")
    home = tmp_path / "home"
    workspace = tmp_path / "ws"
    write_json(workspace / ".claude" / "settings.json", claude_settings("PreToolUse", command(
        'echo "blocked; listen=${LISTEN_FDS:-none} watchdog=${WATCHDOG_USEC:-none}" >&2; '
        "exit 2")))  # fmt: skip
    env = daemon_env(home, path)

    with activated(path, env, "--home", str(home), "--trust-all") as activator:
        fired = hookd(env, "fire", "PreToolUse", "--agent", "claude", "--no-env",
                      "--workspace", str(workspace), stdin=json.dumps(EVENT))  # fmt: skip
        status = json.loads(hookd(env, "status", "--json").stdout)
        stopped = hookd(env, "shutdown")
        activator.wait(timeout=60)

    assert fired.returncode == 2, fired.stderr
    assert json.loads(fired.stdout)["reason"] == "blocked; listen=none watchdog=none"
    assert status["pid"] == activator.pid  # systemd-socket-activate exec'd into hookd
    assert status["socket"] == path
    assert stopped.returncode == 0, stopped.stderr
    assert activator.returncode == 0
    assert Path(path + ".lock").read_text().strip() == str(activator.pid)


@needs_activate
def test_an_activated_daemon_refuses_beside_a_daemon_holding_the_lock(
    short_dir: Path, tmp_path: Path
) -> None:
    """A daemon started outside the service still serves (its socket file was replaced
    by the socket unit's): the activated one refuses, naming it, instead of running a
    second daemon for the same socket."""
    path = str(short_dir / "hookd.sock")
    env = daemon_env(tmp_path / "home", path)
    outside = subprocess.Popen([*HOOKD, "serve", "--home", str(tmp_path / "home")], env=env,
                               stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert outside.stderr is not None
        while "ready" not in outside.stderr.readline():
            assert outside.poll() is None
        os.unlink(path)  # what systemd does when hookd.socket starts over a stale file
        with activated(path, env) as activator:
            with socket.socket(socket.AF_UNIX) as knock:
                knock.connect(path)  # starts hookd, which must refuse
            assert activator.stderr is not None
            said = activator.stderr.read().decode()
            activator.wait(timeout=60)
        assert activator.returncode == 1
        assert f"another hookd (pid {outside.pid}) is already serving {path}" in said
    finally:
        outside.terminate()
        outside.wait(timeout=60)
        if outside.stderr is not None:
            outside.stderr.close()


def test_the_watchdog_is_fed_on_a_real_notify_socket(short_dir: Path, tmp_path: Path) -> None:
    """With WATCHDOG_USEC (and WATCHDOG_PID naming it), hookd sends READY=1, then
    WATCHDOG=1 every half interval; STOPPING=1 at shutdown."""
    notify_path = str(short_dir / "notify")
    path = str(short_dir / "hookd.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
        notify.bind(notify_path)
        notify.settimeout(60)
        env = daemon_env(tmp_path / "home", path, NOTIFY_SOCKET=notify_path,
                         WATCHDOG_USEC="200000")  # fmt: skip
        daemon = subprocess.Popen([*HOOKD, "serve", "--home", str(tmp_path / "home")], env=env,
                                  stderr=subprocess.DEVNULL)  # fmt: skip
        try:
            said = [notify.recv(4096) for _ in range(4)]
            started = time.monotonic()
            said.append(notify.recv(4096))
            between = time.monotonic() - started
            assert hookd(env, "shutdown").returncode == 0
            while b"STOPPING=1" not in said[-1]:
                said.append(notify.recv(4096))
        finally:
            daemon.wait(timeout=60)
    assert said[0] == b"READY=1"
    assert said[1:5] == [b"WATCHDOG=1"] * 4
    assert between > 0.05  # paced by the interval (0.1 s), not sent in a burst
    assert daemon.returncode == 0


def test_no_watchdog_for_another_process(short_dir: Path, tmp_path: Path) -> None:
    """WATCHDOG_PID names another process (the variables were inherited): no WATCHDOG=1."""
    notify_path = str(short_dir / "notify")
    path = str(short_dir / "hookd.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
        notify.bind(notify_path)
        notify.settimeout(60)
        env = daemon_env(tmp_path / "home", path, NOTIFY_SOCKET=notify_path,
                         WATCHDOG_USEC="20000", WATCHDOG_PID=str(os.getpid()))  # fmt: skip
        daemon = subprocess.Popen([*HOOKD, "serve", "--home", str(tmp_path / "home")], env=env,
                                  stderr=subprocess.DEVNULL)  # fmt: skip
        try:
            assert notify.recv(4096) == b"READY=1"
            status = hookd(env, "status", "--json")  # 5 watchdog intervals at least
            assert status.returncode == 0, status.stderr
            assert hookd(env, "shutdown").returncode == 0
            assert notify.recv(4096) == b"STOPPING=1"
        finally:
            daemon.wait(timeout=60)
    assert sys.platform != "linux" or daemon.returncode == 0
