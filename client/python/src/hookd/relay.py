"""``hookd-relay``: a hook entry inside an agent that hands the agent's event to hookd.

    hookd-relay claude              (the entries ``hookd relay install`` writes)
    hookd-relay cline "$0"          (a Cline relay file names itself: it stands for its
    hookd-relay cline-sdk "$0"       folder; either runner may run it)
    hookd-relay augment [MATCHER]   (an Augment relay group names its matcher)

A pipe: it sends what the agent gave it (the entry's arguments, stdin as it came, its
working folder and environment, less hookd's service variables) to the daemon's
``relay`` method, and writes back the stdout, stderr and exit code the daemon computed
with the agent's own rules (``hookd.daemon.fire.relay``: hookd runs only the hooks handed
to it with ``hookd adopt`` that this entry stands for, so every hook runs exactly once).

When no daemon answers, the relay starts one (``hookd serve``, detached; a lock keeps two
relays from starting two; ``HOOKD_NO_SPAWN=1`` turns that off). When hookd still cannot
be reached, ``HOOKD_RELAY_ON_ERROR`` decides: ``continue`` (the default: what the agent
does with a failing hook, the action goes on) or ``block`` (the action an event guards is
blocked). That answer is the only one the relay makes itself, from a table generated from
the agents' packages (``hookd/_relay_table.py``); either way one line on stderr says what
to do. A relay entry with wrong arguments is such a failure too (exit 2 would be a block,
with the usage as its reason); ``--help`` prints the usage and exits 0.

Standard library only, and only ``json``, ``os`` and ``socket`` on the way of an event
(it starts on every event): about the cost of starting Python (``bench/relay.py``).
"""

from __future__ import annotations

import json
import os
import socket
import sys

from hookd._relay_table import AGENTS as TABLE
from hookd._relay_table import EXIT_CODES

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs milliseconds at start-up, on every event
    from collections.abc import Mapping, Sequence
    from typing import Any

    Answer = tuple[str, str, int]
    """What the relay writes: stdout, stderr, exit code."""

ON_ERROR_ENV = "HOOKD_RELAY_ON_ERROR"
NO_SPAWN_ENV = "HOOKD_NO_SPAWN"
SPAWN_WAIT_S = 10.0
SERVICE_PREFIXES = ("HOOKD_", "LISTEN_", "NOTIFY_SOCKET", "WATCHDOG_")
"""hookd's and the service manager's own variables: not the agent's world."""
_NOT_RUNNING = frozenset({2, 111, 20})  # ENOENT, ECONNREFUSED, ENOTDIR
AGENTS = tuple(TABLE)
"""The agents whose relay entries hookd writes."""


class RelayError(Exception):
    """Why the relay could not hand the event to hookd; ``str()`` says what to do."""


class NotRunning(RelayError):
    """Nothing listens on the socket."""


USAGE = (
    f"usage: hookd-relay AGENT [ENTRY]   (AGENT: {', '.join(AGENTS)}): the agent runs it as "
    "a hook, with the event on stdin ('hookd relay install' writes it)"
)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    block = os.environ.get(ON_ERROR_ENV) == "block"
    stdin = sys.stdin.buffer.read()
    try:
        bad = bad_arguments(args)
        if bad:
            raise RelayError(bad)
        stdout, stderr, code = relay(args, stdin, os.environ)
    except RelayError as exc:
        stdout, stderr, code = unreachable_answer(args, stdin, str(exc), block)
    # stderr first, then stdout: the agent may show both as they come (cline 2.18.0
    # streams a hook's output to the user), and this is the order it has always seen.
    if stderr:
        sys.stderr.write(stderr)
        sys.stderr.flush()
    if stdout:
        sys.stdout.write(stdout)
    return code


def failure_message(reason: str, block: bool) -> str:
    """The one line a failing relay says (the daemon says the same when it refuses)."""
    verdict = "blocking" if block else "letting the action go on"
    policy = "block" if block else "continue"
    return f"hookd-relay: {reason} ({verdict}: {ON_ERROR_ENV}={policy})"


FIX = "fix the entry, or write it again with 'hookd relay install'"


def bad_arguments(args: Sequence[str]) -> str | None:
    """What is wrong with the relay entry's arguments, and what to do (one line: the agent
    shows it as a failing hook's message, never as a block reason unless asked to)."""
    if not args:
        return f"no agent named (hookd-relay AGENT, AGENT one of {', '.join(AGENTS)}): {FIX}"
    facts = TABLE.get(args[0])
    if facts is None:
        return unknown_agent(args[0], AGENTS)
    if len(args) - 1 > facts["args"]:
        return too_many_arguments(args[0], args[1:])
    return None


def unknown_agent(agent: str, known: Sequence[str]) -> str:
    return f"unknown agent {agent!r} (one of {', '.join(known)}): {FIX}"


def too_many_arguments(agent: str, extra: Sequence[str]) -> str:
    return f"too many arguments for {agent} ({' '.join(extra)!r}): {FIX}"


def unreachable_answer(args: Sequence[str], stdin: bytes, reason: str, block: bool) -> Answer:
    """The agent's failing (``block``: blocking) hook when hookd cannot answer, from the
    table: the answer of the runner the event names (one Cline relay file serves both
    runners), else of the entry's agent, else of an agent reading exit codes."""
    agent = args[0] if args else ""
    facts = TABLE.get(agent) or EXIT_CODES
    runners = facts["runners"]
    if runners:
        try:
            event = json.loads(stdin).get(facts["event"])
        except (ValueError, AttributeError):
            event = None
        if event in runners:
            facts = TABLE[runners[event]]
    stdout, stderr, code = facts["block" if block else "continue"]
    message = failure_message(reason, block)
    return _fill(stdout, message), _fill(stderr, message), code


def _fill(template: str, message: str) -> str:
    """A table answer with the message in place (``{message_json}``: as a JSON string)."""
    import re

    values = {"{message}": message, "{message_json}": json.dumps(message)}
    return re.sub(r"\{message(?:_json)?\}", lambda m: values[m.group(0)], template)


def agent_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The caller's environment as its hooks should see it: hookd's and the service
    manager's own variables left out (``hookd fire`` forwards the same)."""
    return {k: v for k, v in environ.items() if not k.startswith(SERVICE_PREFIXES)}


def relay(args: Sequence[str], stdin: bytes, environ: Mapping[str, str]) -> Answer:
    """Hand one run of the entry to hookd (starting the daemon when none answers) and
    return what the agent must read."""
    params = {
        "agent": args[0],
        "args": list(args[1:]),
        "stdin": stdin.decode("utf-8", "replace"),
        "cwd": os.getcwd(),
        "env": agent_environment(environ),
        "onError": "block" if environ.get(ON_ERROR_ENV) == "block" else "continue",
    }
    path = socket_path(environ)
    try:
        return call(path, params)
    except NotRunning:
        if environ.get(NO_SPAWN_ENV) == "1":
            raise
    start_daemon(path)
    return call(path, params)


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


def call(path: str, params: dict[str, Any]) -> Answer:
    """One ``relay`` request over the socket (NDJSON framing, which hookd accepts and
    answers in), and the answer it carries."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        try:
            conn.connect(path)
        except OSError as exc:
            if exc.errno in _NOT_RUNNING:
                raise NotRunning(f"hookd is not running (no daemon at {path}: {exc.strerror}); "
                                 "start it with 'hookd serve'") from None  # fmt: skip
            raise RelayError(f"cannot reach hookd at {path}: {exc.strerror}") from None
        request = {"jsonrpc": "2.0", "id": 1, "method": "relay", "params": params}
        conn.sendall(json.dumps(request, separators=(",", ":")).encode() + b"\n")
        reader = conn.makefile("rb")
        for line in reader:
            try:
                message = json.loads(line)
            except ValueError:
                raise RelayError(f"hookd at {path} sent a reply that is not JSON") from None
            if isinstance(message, dict) and message.get("id") == 1:
                return _answer(message)
    raise RelayError(f"hookd at {path} closed the connection before answering")


def _answer(message: dict[str, Any]) -> Answer:
    """The stdout, stderr and exit code in a ``relay`` reply (``RelayError`` otherwise)."""
    if "error" in message:
        error = message["error"] if isinstance(message["error"], dict) else {}
        raise RelayError(f"hookd refused the event: {error.get('message')} "
                         f"({error.get('code')}): {error.get('data')}")  # fmt: skip
    result = message.get("result")
    if isinstance(result, dict):
        stdout, stderr, code = result.get("stdout"), result.get("stderr"), result.get("exitCode")
        if isinstance(stdout, str) and isinstance(stderr, str) and type(code) is int:
            return stdout, stderr, code
    raise RelayError("hookd's reply to the relay is not one it can use (is the daemon of "
                     "another hookd version? restart it: 'hookd shutdown')")  # fmt: skip


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
            started_at = log.seek(0, os.SEEK_END)
            env = {**os.environ, "NOTIFY_SOCKET": notify_path}
            daemon = subprocess.Popen(
                [sys.executable, "-m", "hookd", "--socket", path, "serve"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env,
                start_new_session=True,
            )  # fmt: skip
            _wait_ready(ready, daemon, log_path, started_at)


def _wait_ready(ready: socket.socket, daemon: Any, log_path: str, started_at: int) -> None:
    import select
    import time

    deadline = time.monotonic() + SPAWN_WAIT_S
    while (remaining := deadline - time.monotonic()) > 0:
        readable, _, _ = select.select([ready], [], [], min(remaining, 0.2))
        if readable and b"READY=1" in ready.recv(4096):
            return
        if daemon.poll() is not None:
            said = _start_error(log_path, started_at)
            raise RelayError(f"hookd serve exited with code {daemon.returncode} at start"
                             + (f": {said}" if said else "") + f" (see {log_path})")  # fmt: skip
    raise RelayError(f"hookd did not start within {SPAWN_WAIT_S:g} s (see {log_path}); start "
                     "it yourself with 'hookd serve'")  # fmt: skip


START_ERROR_MAX = 400
"""How much of the daemon's own start-up error the relay's one line repeats."""


def _start_error(log_path: str, offset: int) -> str:
    """The daemon's own start-up error (e.g. a config typo), from what it just wrote to
    the log: its last line saying ``hookd: ...`` or naming an error, else its last line."""
    try:
        with open(log_path, "rb") as log:
            log.seek(offset)
            lines = [line.strip() for line in log.read(1 << 16).decode(errors="replace")
                     .splitlines() if line.strip()]  # fmt: skip
    except OSError:
        return ""
    errors = [line for line in lines if line.startswith("hookd:") or "error" in line.lower()]
    said = (errors or lines or [""])[-1].removeprefix("hookd:").strip()
    return said if len(said) <= START_ERROR_MAX else said[: START_ERROR_MAX - 3] + "..."


def _answers(path: str) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        try:
            conn.connect(path)
        except OSError:
            return False
        return True


if __name__ == "__main__":
    raise SystemExit(main())
