"""``hookd-relay``: a hook entry inside an agent that hands the agent's event to hookd.

    hookd-relay claude      (the entry ``hookd relay install --agent claude`` writes)

It reads the event the agent writes on stdin, fires it with ``relay: true`` (hookd then
runs only the hooks handed to it with ``hookd adopt``: the agent runs its own, so every
hook runs exactly once), and answers as one of the agent's hooks would. The hooks see the
agent's environment: the relay forwards its own, less hookd's service variables.

When no daemon answers, the relay starts one (``hookd serve``, detached; a lock keeps two
relays from starting two; ``HOOKD_NO_SPAWN=1`` turns that off). When hookd still cannot
be reached, ``HOOKD_RELAY_ON_ERROR`` decides: ``continue`` (the default: what the agent
does with a failing hook, exit 1, the action goes on) or ``block`` (exit 2: the action an
event guards is blocked). Either way one line on stderr says what to do.

Standard library and ``hookd.client`` only: it starts on every event, so it stays light.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import socket
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from hookd.protocol import default_socket_path

from ._client import Client
from ._errors import DaemonNotRunning, HookdClientError

AGENTS = ("claude",)
"""The agents whose hook contract the relay answers (more follow with their harnesses)."""
ON_ERROR_ENV = "HOOKD_RELAY_ON_ERROR"
NO_SPAWN_ENV = "HOOKD_NO_SPAWN"
SPAWN_WAIT_S = 10.0
_SERVICE_PREFIXES = ("HOOKD_", "LISTEN_", "NOTIFY_SOCKET", "WATCHDOG_")
"""hookd's and the service manager's own variables: not the agent's world."""


class RelayError(Exception):
    """Why the relay could not hand the event to hookd; ``str()`` says what to do."""


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1 or args[0] not in AGENTS:
        print(f"usage: hookd-relay AGENT   (AGENT: {', '.join(AGENTS)}); the agent runs it as "
              "a hook, with the event on stdin", file=sys.stderr)  # fmt: skip
        return 2
    on_error = os.environ.get(ON_ERROR_ENV, "continue")
    try:
        payload = _read_event(sys.stdin.buffer.read())
        result = relay(args[0], payload, os.environ)
    except (RelayError, HookdClientError) as exc:
        verdict = "blocking" if on_error == "block" else "letting the action go on"
        print(f"hookd-relay: {exc} ({verdict}: {ON_ERROR_ENV}={on_error})", file=sys.stderr)
        return 2 if on_error == "block" else 1
    native = result.get("native") or {}
    if native:
        sys.stdout.write(json.dumps(native))
    return 0


def _read_event(raw: bytes) -> dict[str, Any]:
    try:
        payload = json.loads(raw)
    except ValueError as exc:
        raise RelayError(f"the event on stdin is not JSON ({exc})") from None
    if not isinstance(payload, dict) or not isinstance(payload.get("hook_event_name"), str):
        raise RelayError("the event on stdin has no hook_event_name: is this run by the agent?")
    return payload


def relay(agent: str, payload: dict[str, Any], environ: Mapping[str, str]) -> dict[str, Any]:
    """Fire the agent's event through hookd (starting the daemon when none answers) and
    return the result."""
    env = {k: v for k, v in environ.items() if not k.startswith(_SERVICE_PREFIXES)}
    root = environ.get("CLAUDE_PROJECT_DIR") or payload.get("cwd") or os.getcwd()
    params = {
        "agent": agent,
        "event": payload["hook_event_name"],
        "workspaceRoots": [os.path.abspath(str(root))],
        "payload": payload,
        "env": env,
        "relay": True,
    }
    socket_path = environ.get("HOOKD_SOCKET") or default_socket_path()
    try:
        client = Client(socket_path, timeout_s=30.0)
    except DaemonNotRunning:
        if environ.get(NO_SPAWN_ENV) == "1":
            raise
        start_daemon(socket_path)
        client = Client(socket_path, timeout_s=30.0)
    with client:
        result: dict[str, Any] = client.call("fire", params)
    return result


def start_daemon(socket_path: str) -> None:
    """Start ``hookd serve`` detached on ``socket_path`` and wait for its readiness
    (``READY=1`` on a notify socket, systemd's protocol, which ``hookd serve`` speaks). A
    lock beside the socket makes a second relay wait for the first one's daemon."""
    folder = os.path.dirname(socket_path) or "."
    os.makedirs(folder, mode=0o700, exist_ok=True)
    with open(os.path.join(folder, "spawn.lock"), "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if _answers(socket_path):
            return  # another relay started it while this one waited for the lock
        notify_path = os.path.join(folder, f"ready.{os.getpid()}")
        with contextlib.ExitStack() as stack:
            ready = stack.enter_context(socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM))
            with contextlib.suppress(FileNotFoundError):
                os.unlink(notify_path)
            ready.bind(notify_path)
            stack.callback(os.unlink, notify_path)
            log_path = os.path.join(folder, "hookd.log")
            log = stack.enter_context(open(log_path, "ab"))
            env = {**os.environ, "NOTIFY_SOCKET": notify_path}
            daemon = subprocess.Popen(
                [sys.executable, "-m", "hookd", "--socket", socket_path, "serve"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env,
                start_new_session=True,
            )  # fmt: skip
            _wait_ready(ready, daemon, log_path)


def _wait_ready(ready: socket.socket, daemon: subprocess.Popen[bytes], log_path: str) -> None:
    deadline = time.monotonic() + SPAWN_WAIT_S
    while (remaining := deadline - time.monotonic()) > 0:
        readable, _, _ = select.select([ready], [], [], min(remaining, 0.2))
        if readable and b"READY=1" in ready.recv(4096):
            return
        if daemon.poll() is not None:
            raise RelayError(f"hookd serve exited with code {daemon.returncode} at start "
                             f"(see {log_path})")  # fmt: skip
    raise RelayError(f"hookd did not start within {SPAWN_WAIT_S:g} s (see {log_path}); start "
                     "it yourself with 'hookd serve'")  # fmt: skip


def _answers(socket_path: str) -> bool:
    try:
        with Client(socket_path, timeout_s=2.0):
            return True
    except HookdClientError:
        return False


if __name__ == "__main__":
    raise SystemExit(main())
