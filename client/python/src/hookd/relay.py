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

Standard library only, and only ``json``, ``os`` and ``socket`` on the way of an event
(it starts on every event): about the cost of starting Python (``bench/relay.py``).
"""

from __future__ import annotations

import json
import os
import socket
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs milliseconds at start-up, on every event
    from collections.abc import Mapping, Sequence
    from typing import Any

AGENTS = ("claude",)
"""The agents whose hook contract the relay answers (more follow with their harnesses)."""
ON_ERROR_ENV = "HOOKD_RELAY_ON_ERROR"
NO_SPAWN_ENV = "HOOKD_NO_SPAWN"
SPAWN_WAIT_S = 10.0
_SERVICE_PREFIXES = ("HOOKD_", "LISTEN_", "NOTIFY_SOCKET", "WATCHDOG_")
"""hookd's and the service manager's own variables: not the agent's world."""
_NOT_RUNNING = frozenset({2, 111, 20})  # ENOENT, ECONNREFUSED, ENOTDIR


class RelayError(Exception):
    """Why the relay could not hand the event to hookd; ``str()`` says what to do."""


class NotRunning(RelayError):
    """Nothing listens on the socket."""


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
    except RelayError as exc:
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
    path = socket_path(environ)
    try:
        return fire(path, params)
    except NotRunning:
        if environ.get(NO_SPAWN_ENV) == "1":
            raise
    start_daemon(path)
    return fire(path, params)


def socket_path(environ: Mapping[str, str]) -> str:
    """``hookd.protocol.default_socket_path``'s rule, without importing the protocol
    package on every event (a drift test holds the two together)."""
    given = environ.get("HOOKD_SOCKET")
    if given:
        return given
    xdg = environ.get("XDG_RUNTIME_DIR")
    if xdg and os.path.isabs(xdg):
        return os.path.join(xdg, "hookd", "hookd.sock")
    tmp = environ.get("TMPDIR") or "/tmp"
    return os.path.join(tmp, f"hookd-{os.getuid()}", "hookd.sock")


def fire(path: str, params: dict[str, Any]) -> dict[str, Any]:
    """One ``fire`` request over the socket (NDJSON framing, which hookd accepts and
    answers in), and its result. No progress is asked for, so the answer is the only
    message that comes back."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        try:
            conn.connect(path)
        except OSError as exc:
            if exc.errno in _NOT_RUNNING:
                raise NotRunning(f"hookd is not running (no daemon at {path}: {exc.strerror}); "
                                 "start it with 'hookd serve'") from None  # fmt: skip
            raise RelayError(f"cannot reach hookd at {path}: {exc.strerror}") from None
        request = {"jsonrpc": "2.0", "id": 1, "method": "fire", "params": params}
        conn.sendall(json.dumps(request, separators=(",", ":")).encode() + b"\n")
        reader = conn.makefile("rb")
        for line in reader:
            message = json.loads(line)
            if isinstance(message, dict) and message.get("id") == 1:
                if "error" in message:
                    error = message["error"]
                    raise RelayError(f"hookd refused the event: {error.get('message')} "
                                     f"({error.get('code')}): {error.get('data')}")  # fmt: skip
                result: dict[str, Any] = message["result"]
                return result
    raise RelayError(f"hookd at {path} closed the connection before answering")


def start_daemon(path: str) -> None:
    """Start ``hookd serve`` detached on ``path`` and wait for its readiness (``READY=1``
    on a notify socket, systemd's protocol, which ``hookd serve`` speaks). A lock beside
    the socket makes a second relay wait for the first one's daemon."""
    import contextlib
    import fcntl
    import subprocess

    folder = os.path.dirname(path) or "."
    os.makedirs(folder, mode=0o700, exist_ok=True)
    with open(os.path.join(folder, "spawn.lock"), "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if _answers(path):
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
                [sys.executable, "-m", "hookd", "--socket", path, "serve"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env,
                start_new_session=True,
            )  # fmt: skip
            _wait_ready(ready, daemon, log_path)


def _wait_ready(ready: socket.socket, daemon: Any, log_path: str) -> None:
    import select
    import time

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


def _answers(path: str) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        try:
            conn.connect(path)
        except OSError:
            return False
        return True


if __name__ == "__main__":
    raise SystemExit(main())
