"""``hookd-relay``: a hook entry inside an agent that hands the agent's event to hookd.

    hookd-relay claude              (the entries ``hookd relay install`` writes)
    hookd-relay cline "$0"          (a Cline relay file names itself: it stands for its
    hookd-relay cline-sdk "$0"       folder; either runner may run it, told apart by its event)
    hookd-relay augment [MATCHER]   (an Augment relay group names its matcher)

It reads the event the agent writes on stdin, fires it with ``relay: true`` (hookd then
runs only the hooks handed to it with ``hookd adopt`` that this entry stands for: the
agent runs its own, so every hook runs exactly once), and answers as one of the agent's
hooks would: the stdout, stderr and exit code that agent reads (``_AGENTS``). The hooks
see the agent's environment: the relay forwards its own, less hookd's service variables.

When no daemon answers, the relay starts one (``hookd serve``, detached; a lock keeps two
relays from starting two; ``HOOKD_NO_SPAWN=1`` turns that off). When hookd still cannot
be reached, ``HOOKD_RELAY_ON_ERROR`` decides: ``continue`` (the default: what the agent
does with a failing hook, the action goes on) or ``block`` (the action an event guards is
blocked). Either way one line on stderr says what to do. A relay entry with wrong
arguments is such a failure too (exit 2 would be a block, with the usage as its reason);
``--help`` prints the usage and exits 0.

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
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any

    Answer = tuple[str, str, int]
    """What the relay writes: stdout, stderr, exit code."""

ON_ERROR_ENV = "HOOKD_RELAY_ON_ERROR"
NO_SPAWN_ENV = "HOOKD_NO_SPAWN"
SPAWN_WAIT_S = 10.0
SERVICE_PREFIXES = ("HOOKD_", "LISTEN_", "NOTIFY_SOCKET", "WATCHDOG_")
"""hookd's and the service manager's own variables: not the agent's world."""
_NOT_RUNNING = frozenset({2, 111, 20})  # ENOENT, ECONNREFUSED, ENOTDIR


class RelayError(Exception):
    """Why the relay could not hand the event to hookd; ``str()`` says what to do."""


class NotRunning(RelayError):
    """Nothing listens on the socket."""


# -- what each agent sends and reads ------------------------------------------------------


class Agent:
    """One agent's side of the relay: where its event names itself and its workspace,
    what the relay entry's argument means, and how a hook answers it."""

    __slots__ = ("answer", "entry", "event_key", "failing", "roots", "runner")

    def __init__(
        self,
        event_key: str,
        roots: Callable[[dict[str, Any], Mapping[str, str]], list[str]],
        answer: Callable[[dict[str, Any]], Answer],
        failing: Callable[[str, bool], Answer],
        entry: Callable[[str], str] | None = None,
        runner: Callable[[dict[str, Any]], str] | None = None,
    ) -> None:
        self.event_key = event_key
        """The payload field naming the event."""
        self.roots = roots
        self.answer = answer
        """hookd's result -> what the agent reads from one hook."""
        self.failing = failing
        """(message, block?) -> the answer when hookd cannot be reached."""
        self.entry = entry
        """The relay entry's argument -> ``relayEntry`` (None: the entry takes none)."""
        self.runner = runner
        """The event -> the agent that sent it, where one relay entry serves two."""


def _native_json(result: dict[str, Any]) -> Answer:
    """The combined outcome as one hook's JSON answer, exit 0 (an empty answer: nothing)."""
    native = result.get("native") or {}
    return (json.dumps(native) if native else "", "", 0)


def _claude_roots(payload: dict[str, Any], environ: Mapping[str, str]) -> list[str]:
    return [environ.get("CLAUDE_PROJECT_DIR") or _text(payload.get("cwd")) or os.getcwd()]


def _listed_roots(key: str, variable: str | None = None) -> Callable[..., list[str]]:
    """Roots from a payload list (Cline's ``workspaceRoots``, auggie's ``workspace_roots``),
    else the agent's variable, else the payload's ``cwd``, else the working folder."""

    def roots(payload: dict[str, Any], environ: Mapping[str, str]) -> list[str]:
        listed = payload.get(key)
        if isinstance(listed, list):
            found = [r for r in listed if isinstance(r, str) and r]
            if found:
                return found
        fallback = environ.get(variable) if variable else None
        return [fallback or _text(payload.get("cwd")) or os.getcwd()]

    return roots


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _exit_codes(message: str, block: bool) -> Answer:
    """Claude Code and auggie: exit 1 is a failing hook (the action goes on), exit 2
    blocks the action with stderr as the reason."""
    return ("", message, 2 if block else 1)


def _cline_failed(result: dict[str, Any]) -> str | None:
    """A relayed hook that failed as Cline counts it (exit code not 0, killed, timed out,
    could not start): cline 2.18.0 then drops every hook's answer for the event
    (``Promise.all``), the agent's own hooks' too, so the relay fails as well."""
    for hook in result.get("hooks") or ():
        error = hook.get("error") or ""
        code = hook.get("exitCode")
        if hook.get("timedOut") or (code not in (0, None)) or error.startswith("could not"):
            return error or f"{hook.get('source')} exited with code {code}"
    return None


def _cline_answer(result: dict[str, Any]) -> Answer:
    native = result.get("native") or {}
    answered = native.get("cancel") or native.get("contextModification")
    failure = _cline_failed(result)
    if failure and not answered:
        return ("", f"hookd-relay: {failure}", 1)
    return (json.dumps(native), "", 0)


def _cline_failing(message: str, block: bool) -> Answer:
    """A failing Cline hook (exit 1) lets the action go on; only a ``cancel`` blocks."""
    if not block:
        return ("", message, 1)
    answer = {"cancel": True, "contextModification": "", "errorMessage": message}
    return (json.dumps(answer), message, 0)


def _sdk_failing(message: str, block: bool) -> Answer:
    """The SDK reads a hook's stdout whatever its exit code: only a ``cancel`` blocks. It
    shows a hook's exit code and stderr nowhere (not to the model, not in its output or
    log), so a failing hook's line would be lost: letting the action go on, the relay
    answers the line as a context too (on a tool event the model is sent it)."""
    if not block:
        return (json.dumps({"context": message}), message, 1)
    return (json.dumps({"cancel": True, "errorMessage": message}), message, 0)


def _folder(argument: str) -> str:
    """A Cline relay file passes its own path (``"$0"``): it stands for its folder."""
    return os.path.dirname(os.path.abspath(argument))


def _same(argument: str) -> str:
    return argument


SDK_HOOK_NAMES = frozenset({
    "tool_call", "tool_result", "agent_start", "agent_resume", "agent_abort", "agent_end",
    "agent_error", "prompt_submit", "pre_compact", "session_shutdown",
})  # fmt: skip
"""The ``hookName`` values of the Cline SDK's events (the original runner sends the
event's own name, ``PreToolUse``)."""


def _cline_runner(payload: dict[str, Any]) -> str:
    """Both Cline runners read ``.clinerules/hooks``, so both run a relay file there:
    which one sent this event."""
    return "cline-sdk" if payload.get("hookName") in SDK_HOOK_NAMES else "cline"


_AGENTS: dict[str, Agent] = {
    "claude": Agent("hook_event_name", _claude_roots, _native_json, _exit_codes),
    "cline": Agent("hookName", _listed_roots("workspaceRoots"), _cline_answer, _cline_failing,
                   entry=_folder, runner=_cline_runner),
    "cline-sdk": Agent("hookName", _listed_roots("workspaceRoots"), _native_json, _sdk_failing,
                       entry=_folder, runner=_cline_runner),
    "augment": Agent("hook_event_name", _listed_roots("workspace_roots", "AUGMENT_PROJECT_DIR"),
                     _native_json, _exit_codes, entry=_same),
}  # fmt: skip
AGENTS = tuple(_AGENTS)
"""The agents whose hook contract the relay answers."""


# -- the relay ------------------------------------------------------------------------------


USAGE = (
    f"usage: hookd-relay AGENT [ENTRY]   (AGENT: {', '.join(AGENTS)}): the agent runs it as "
    "a hook, with the event on stdin ('hookd relay install' writes it)"
)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    agent = _AGENTS.get(args[0]) if args else None
    policy = "block" if os.environ.get(ON_ERROR_ENV) == "block" else "continue"
    block = policy == "block"
    try:
        if agent is None or len(args) > (2 if agent.entry else 1):
            raise RelayError(_bad_arguments(args, agent))
        entry = agent.entry(args[1]) if agent.entry and len(args) > 1 else None
        payload = _read_event(sys.stdin.buffer.read(), agent.event_key)
        name = agent.runner(payload) if agent.runner else args[0]
        agent = _AGENTS[name]
        result = relay(name, payload, os.environ, entry)
        stdout, stderr, code = agent.answer(result)
    except RelayError as exc:
        verdict = "blocking" if block else "letting the action go on"
        message = f"hookd-relay: {exc} ({verdict}: {ON_ERROR_ENV}={policy})"
        stdout, stderr, code = (agent or _AGENTS["claude"]).failing(message, block)
    if stdout:
        sys.stdout.write(stdout)
    if stderr:
        print(stderr, file=sys.stderr)
    return code


def _bad_arguments(args: list[str], agent: Agent | None) -> str:
    """What is wrong with the relay entry's arguments, and what to do (one line: the agent
    shows it as a failing hook's message, never as a block reason unless asked to)."""
    fix = "fix the entry, or write it again with 'hookd relay install'"
    if not args:
        return f"no agent named (hookd-relay AGENT, AGENT one of {', '.join(AGENTS)}): {fix}"
    if agent is None:
        return f"unknown agent {args[0]!r} (one of {', '.join(AGENTS)}): {fix}"
    return f"too many arguments for {args[0]} ({' '.join(args[1:])!r}): {fix}"


def _read_event(raw: bytes, event_key: str) -> dict[str, Any]:
    try:
        payload = json.loads(raw)
    except ValueError as exc:
        raise RelayError(f"the event on stdin is not JSON ({exc})") from None
    if not isinstance(payload, dict) or not isinstance(payload.get(event_key), str):
        raise RelayError(f"the event on stdin has no {event_key}: is this run by the agent?")
    return payload


def agent_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The caller's environment as its hooks should see it: hookd's and the service
    manager's own variables left out (``hookd fire`` forwards the same)."""
    return {k: v for k, v in environ.items() if not k.startswith(SERVICE_PREFIXES)}


def relay(
    agent: str,
    payload: dict[str, Any],
    environ: Mapping[str, str],
    entry: str | None = None,
) -> dict[str, Any]:
    """Fire the agent's event through hookd (starting the daemon when none answers) and
    return the result."""
    facts = _AGENTS[agent]
    params: dict[str, Any] = {
        "agent": agent,
        "event": payload[facts.event_key],
        "workspaceRoots": [os.path.abspath(root) for root in facts.roots(payload, environ)],
        "payload": payload,
        "env": agent_environment(environ),
        "relay": True,
    }
    if entry is not None:
        params["relayEntry"] = entry
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
