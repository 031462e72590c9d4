"""Both relays with hookd installed as a service (issue 29): they never start a daemon of
their own. The service's socket, held by the real ``systemd-socket-activate``, starts
hookd on the relay's connection; a socket that is not there is started through the
service manager (``systemctl --user start hookd.socket``: a stand-in, ``user_manager.py``,
since no user manager runs here); a manager that fails is a failing hook's answer. And
without a service, a relay that starts hookd off the default socket says so."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookd_testing import claude_settings, command, write_json
from hookd_testing.activation import activated, fake_systemctl, needs_activate, stop_manager

EVENT = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}
HOOKD = [sys.executable, "-m", "hookd"]
pytestmark = needs_activate


@pytest.fixture
def machine(tmp_path: Path, short_dir: Path) -> dict[str, str]:
    """A user with hookd's service installed (``hookd service install --files-only``) and
    an adopted hook; no daemon running."""
    home = tmp_path / "home"
    runtime = short_dir / "run"
    runtime.mkdir(mode=0o700)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOOKD_", "XDG_"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
               XDG_RUNTIME_DIR=str(runtime))  # fmt: skip
    write_json(home / ".config" / "hookd" / "claude" / "settings.json",
               claude_settings("PreToolUse", command("echo from-the-service >&2; exit 2")))  # fmt: skip
    done = subprocess.run([*HOOKD, "service", "install", "--files-only"], env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return env


def service_socket(env: dict[str, str]) -> str:
    return os.path.join(env["XDG_RUNTIME_DIR"], "hookd", "hookd.sock")


def run_relay(relay: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*relay, "claude"], input=json.dumps(EVENT).encode(), env=env,
                          capture_output=True, timeout=120)  # fmt: skip


def reason(done: subprocess.CompletedProcess[bytes]) -> str:
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    return str(answer["permissionDecisionReason"])


def daemon_pid(path: str, env: dict[str, str]) -> int:
    done = subprocess.run([*HOOKD, "--socket", path, "status", "--json"], env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    return int(json.loads(done.stdout)["pid"])


def nothing_spawned(folder: str) -> None:
    """No trace of a daemon the relay started: its lock, readiness socket or log."""
    assert not [n for n in os.listdir(folder) if n in ("spawn.lock", "hookd.log")
                or n.startswith("ready.")]  # fmt: skip


def test_the_relay_is_answered_by_the_daemon_its_socket_starts(relay, machine) -> None:
    path = service_socket(machine)
    os.makedirs(os.path.dirname(path), mode=0o700)
    with activated(path, machine) as activator:
        done = run_relay(relay, machine)
        pid = daemon_pid(path, machine)
    assert reason(done) == "from-the-service"
    assert done.stderr == b""
    assert pid == activator.pid  # systemd-socket-activate exec'd into this hookd
    nothing_spawned(os.path.dirname(path))


def test_a_hookd_socket_with_no_daemon_gives_way_to_the_service(relay, machine,
                                                                short_dir) -> None:  # fmt: skip
    """HOOKD_SOCKET names a socket nobody serves: the service's answers, and one line
    says so (the relay starts nothing there)."""
    path = service_socket(machine)
    os.makedirs(os.path.dirname(path), mode=0o700)
    elsewhere = str(short_dir / "elsewhere.sock")
    with activated(path, machine) as activator:
        done = run_relay(relay, {**machine, "HOOKD_SOCKET": elsewhere})
        pid = daemon_pid(path, machine)
    assert reason(done) == "from-the-service"
    assert done.stderr.decode() == (
        f"hookd-relay: no hookd on {elsewhere} (HOOKD_SOCKET); the service's on {path} "
        "answered: unset HOOKD_SOCKET, or set it to that\n")  # fmt: skip
    assert pid == activator.pid
    assert not os.path.exists(elsewhere)


def test_no_socket_the_relay_has_the_manager_start_it(relay, machine, tmp_path) -> None:
    manager = fake_systemctl(tmp_path / "m")
    env = {**machine, "HOOKD_TEST_MANAGER": str(manager),
           "PATH": f"{tmp_path / 'm' / 'bin'}:{machine['PATH']}"}  # fmt: skip
    try:
        done = run_relay(relay, env)
        pid = daemon_pid(service_socket(machine), machine)
    finally:
        stop_manager(manager)
    assert reason(done) == "from-the-service"
    assert (manager / "calls").read_text() == "--user start hookd.socket\n"
    assert pid == int((manager / "pid").read_text())
    nothing_spawned(os.path.dirname(service_socket(machine)))


def test_a_manager_that_fails_is_a_failing_hook(relay, machine, tmp_path) -> None:
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "systemctl").write_text("#!/bin/sh\nexit 3\n")
    (tools / "systemctl").chmod(0o755)
    env = {**machine, "PATH": f"{tools}:{machine['PATH']}"}
    done = run_relay(relay, env)
    assert done.returncode == 1
    assert done.stderr.decode() == (
        "hookd-relay: hookd runs as a service, and 'systemctl --user start hookd.socket' "
        "exited with code 3: see 'hookd service status' (letting the action go on: "
        "HOOKD_RELAY_ON_ERROR=continue)\n")  # fmt: skip
    assert not os.path.exists(os.path.dirname(service_socket(machine)))


def test_a_hung_service_socket_is_a_failing_hook_not_a_hang(relay, machine, tmp_path) -> None:
    """The service's socket is held by something that never accepts and its backlog is
    full (a hung activated daemon): a blocking connect there would wait forever; each
    probe gives up within a second, and the relay answers by its policy."""
    import socket as sockets
    import time

    path = service_socket(machine)
    os.makedirs(os.path.dirname(path), mode=0o700)
    hung = sockets.socket(sockets.AF_UNIX)
    hung.bind(path)
    hung.listen(0)
    queued = []
    for _ in range(64):  # fill the backlog: a non-blocking connect then says EAGAIN
        client = sockets.socket(sockets.AF_UNIX)
        client.setblocking(False)
        try:
            client.connect(path)
        except BlockingIOError:
            client.close()
            break
        queued.append(client)
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "systemctl").write_text("#!/bin/sh\nexit 0\n")
    (tools / "systemctl").chmod(0o755)
    env = {**machine, "PATH": f"{tools}:{machine['PATH']}",
           "HOOKD_SOCKET": str(tmp_path / "nobody.sock")}  # fmt: skip
    began = time.monotonic()
    try:
        done = run_relay(relay, env)
    finally:
        for client in queued:
            client.close()
        hung.close()

    assert time.monotonic() - began < 60
    assert done.returncode == 1, done.stderr
    assert f"nothing listens on {path}" in done.stderr.decode()


def test_without_a_service_a_daemon_off_the_default_socket_is_said(relay, tmp_path,
                                                                   short_dir) -> None:  # fmt: skip
    home = tmp_path / "home"
    write_json(home / ".config" / "hookd" / "claude" / "settings.json",
               claude_settings("PreToolUse", command("echo started >&2; exit 2")))  # fmt: skip
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOOKD_", "XDG_"))}
    path = str(short_dir / "own.sock")
    env.update(HOME=str(home), HOOKD_SOCKET=path, XDG_RUNTIME_DIR=str(short_dir))
    try:
        done = run_relay(relay, env)
        again = run_relay(relay, env)
    finally:
        subprocess.run([*HOOKD, "shutdown"], env=env, capture_output=True, timeout=60)
    assert reason(done) == "started"
    assert done.stderr.decode() == (
        f"hookd-relay: started hookd on {path}, not on the default socket (HOOKD_SOCKET is "
        "set): clients without that setting, 'hookd status' among them, do not see it; use "
        "one socket everywhere, or run hookd as a service: 'hookd service install'\n")  # fmt: skip
    assert (reason(again), again.stderr) == ("started", b"")  # said once, when it started
