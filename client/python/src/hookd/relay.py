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

When no daemon answers and hookd runs as a service (``hookd service install``: its unit
file or launchd agent is there, one ``stat``), the relay never starts a daemon of its own:
it connects to the service's socket, or has the service manager start it (``systemctl
--user start hookd.socket``, ``launchctl kickstart``). Without a service it starts one
(``hookd serve``, detached; a lock keeps two relays from starting two), and says so on
stderr when that daemon's socket is not the default one (``notice``: other clients will
not see it). ``HOOKD_NO_SPAWN=1`` turns both off. When hookd still cannot
be reached, ``HOOKD_RELAY_ON_ERROR`` decides: ``continue`` (the default: what the agent
does with a failing hook, the action goes on) or ``block`` (the action an event guards is
blocked). That answer is the only one the relay makes itself, from a table generated from
the agents' packages (``hookd/_relay_table.py``); either way one line on stderr says what
to do. A relay entry with wrong arguments is such a failure too (exit 2 would be a block,
with the usage as its reason); ``--help`` prints the usage and exits 0.

This is the reference relay and the fallback of the native one (``client/python/native/
relay.c``, built at install where a compiler comes from PyPI): the two behave alike byte
for byte (``tests/client/test_relay_native.py`` runs both on the same inputs), so every
rule here is one the C program can follow exactly: text is written as UTF-8 with a lone
surrogate as its ``\\udcxx`` escape, names are quoted by ``quoted``, and the few words
taken from a reply are its strings and integers only.

Standard library only, and only ``json``, ``os`` and ``socket`` on the way of an event
(it starts on every event): about the cost of starting Python (``bench/relay.py``).
"""

from __future__ import annotations

import errno
import json
import os
import socket
import sys
import time

from hookd._relay_table import AGENTS as TABLE
from hookd._relay_table import EXIT_CODES

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs milliseconds at start-up, on every event
    from collections.abc import Mapping, Sequence
    from typing import Any

    Answer = tuple[str, str, int]
    """What the relay writes: stdout, stderr, exit code."""

VERSION = "0.1.0"
ON_ERROR_ENV = "HOOKD_RELAY_ON_ERROR"
NO_SPAWN_ENV = "HOOKD_NO_SPAWN"
WAIT_ENV = "HOOKD_RELAY_WAIT_S"
WAIT_S = 3600.0
"""How long the relay waits for hookd's answer at most (``HOOKD_RELAY_WAIT_S`` sets it):
longer than any hook hookd runs is given by default (Claude Code's 600 s is the longest),
since the agent enforces the entry's own timeout (``relay install`` writes the slowest
adopted hook's, plus a margin) and kills the relay then. The bound is for an agent that
has none, and a daemon that accepted and hangs: the relay then answers as a failing hook."""
WAIT_MAX_S = 1e6
SPAWN_WAIT_S = 10.0
SERVICE_PREFIXES = ("HOOKD_", "LISTEN_", "NOTIFY_SOCKET", "WATCHDOG_")
"""hookd's and the service manager's own variables: not the agent's world."""
_NOT_RUNNING = frozenset({errno.ENOENT, errno.ECONNREFUSED, errno.ENOTDIR})
SUN_PATH_MAX = 104 if sys.platform == "darwin" else 108
"""The size of ``sockaddr_un.sun_path``: a longer socket path cannot be connected to."""
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
    if args and args[0] in ("-h", "--help", "--version"):
        _write(sys.stdout, (USAGE if args[0] != "--version" else version()) + "\n")
        return 0
    block = os.environ.get(ON_ERROR_ENV) == "block"
    stdin = b""
    try:
        stdin = _read_stdin()
        bad = bad_arguments(args)
        if bad:
            raise RelayError(bad)
        stdout, stderr, code = relay(args, stdin, os.environ)
    except RelayError as exc:
        stdout, stderr, code = unreachable_answer(args, stdin, str(exc), block)
    # stderr first, then stdout: the agent may show both as they come (cline 2.18.0
    # streams a hook's output to the user), and this is the order it has always seen.
    _write(sys.stderr, stderr)
    _write(sys.stdout, stdout)
    return code


def version() -> str:
    return f"hookd-relay {VERSION} (python)"


def _read_stdin() -> bytes:
    if sys.stdin is None:  # no fd 0 at all: an empty event
        return b""
    try:
        return sys.stdin.buffer.read()
    except OSError as exc:
        raise RelayError(f"cannot read the event on stdin: {exc.strerror}") from None


def _write(stream: Any, text: str) -> None:
    """``text`` as UTF-8, a lone surrogate as its ``\\udcxx`` escape (whatever the
    locale); a stream the agent closed is not the relay's failure."""
    if not text or stream is None:
        return
    try:
        stream.flush()
        stream.buffer.write(text.encode("utf-8", "backslashreplace"))
        stream.buffer.flush()
    except (OSError, ValueError):
        pass


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
    return f"unknown agent {quoted(agent)} (one of {', '.join(known)}): {FIX}"


def too_many_arguments(agent: str, extra: Sequence[str]) -> str:
    return f"too many arguments for {agent} ({quoted(' '.join(extra))}): {FIX}"


def quoted(text: str) -> str:
    """``text`` in single quotes, as ``repr`` writes a plain word, with every character
    outside printable ASCII escaped (``\\n``, ``\\xe9``, ``\\u2028``, ``\\udcff``): what
    the agent's user reads is exactly what the entry said, on one line, and the native
    relay writes the same without Python's table of printable characters."""
    out = []
    for char in text:
        point = ord(char)
        if char in "'\\":
            out.append("\\" + char)
        elif 0x20 <= point < 0x7F:
            out.append(char)
        elif char in "\t\n\r":
            out.append({"\t": "\\t", "\n": "\\n", "\r": "\\r"}[char])
        elif point <= 0xFF:
            out.append(f"\\x{point:02x}")
        elif point <= 0xFFFF:
            out.append(f"\\u{point:04x}")
        else:
            out.append(f"\\U{point:08x}")
    return "'" + "".join(out) + "'"


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
        except (ValueError, AttributeError, RecursionError):
            event = None
        if isinstance(event, str) and event in runners:
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
    try:
        cwd = os.getcwd()
    except OSError as exc:
        raise RelayError(f"cannot tell the working folder: {exc.strerror}") from None
    params = {
        "agent": args[0],
        "args": list(args[1:]),
        "stdin": stdin.decode("utf-8", "replace"),
        "cwd": cwd,
        "env": agent_environment(environ),
        "onError": "block" if environ.get(ON_ERROR_ENV) == "block" else "continue",
    }
    path = socket_path(environ)
    if len(os.fsencode(path)) > SUN_PATH_MAX:
        raise RelayError(f"the socket path {path} is too long for a Unix socket ("
                         f"{len(os.fsencode(path))} bytes, at most {SUN_PATH_MAX}): set "
                         "HOOKD_SOCKET (or XDG_RUNTIME_DIR) to a shorter one")  # fmt: skip
    wait = wait_bound(environ)
    try:
        return call(path, params, wait)
    except NotRunning:
        if environ.get(NO_SPAWN_ENV) == "1":
            raise
    service = installed_service(environ)
    if service is not None:
        return through_service(service, path, params, wait, environ)
    start_daemon(path)
    return with_notice(call(path, params, wait), off_default(path, environ))


def with_notice(answer: Answer, notice: str) -> Answer:
    """``notice`` after the answer's stderr, when the answer is a success (exit 0): a
    failing or blocking answer's stderr is its reason, which the notice must not join."""
    stdout, stderr, code = answer
    return (stdout, stderr + notice, code) if notice and code == 0 else answer


def off_default(path: str, environ: Mapping[str, str]) -> str:
    """The line saying the relay started hookd on a socket other clients do not look at
    (``HOOKD_SOCKET`` set to another path, or no ``XDG_RUNTIME_DIR`` on Linux), or ""."""
    default = socket_path({k: v for k, v in environ.items() if k != "HOOKD_SOCKET"})
    if environ.get("HOOKD_SOCKET") and path != default:
        why = "HOOKD_SOCKET is set"
    elif sys.platform == "linux" and not os.path.isabs(environ.get("XDG_RUNTIME_DIR") or ""):
        why = "XDG_RUNTIME_DIR is not set"
    else:
        return ""
    return (f"hookd-relay: started hookd on {path}, not on the default socket ({why}): "
            "clients without that setting, 'hookd status' among them, do not see it; use "
            "one socket everywhere, or run hookd as a service: 'hookd service "
            "install'\n")  # fmt: skip


def installed_service(environ: Mapping[str, str]) -> tuple[str, list[str]] | None:
    """The service's socket and the command that starts it, when ``hookd service
    install`` left its marker file (a ``stat``: the relay runs on every tool call)."""
    home = environ.get("HOME")
    if not home or not os.path.isabs(home):
        return None
    if sys.platform == "darwin":
        marker = os.path.join(home, "Library", "LaunchAgents", "dev.hookd.plist")
        service = socket_path(environ), ["launchctl", "kickstart", f"gui/{os.getuid()}/dev.hookd"]
    elif sys.platform == "linux":
        config = environ.get("XDG_CONFIG_HOME") or ""
        config = config if os.path.isabs(config) else os.path.join(home, ".config")
        marker = os.path.join(config, "systemd", "user", "hookd.socket")
        runtime = service_runtime_dir(environ)
        service = (os.path.join(runtime, "hookd", "hookd.sock"),
                   ["systemctl", "--user", "start", "hookd.socket"])  # fmt: skip
    else:
        return None
    try:
        os.stat(marker)
    except OSError:
        return None
    return service


def service_runtime_dir(environ: Mapping[str, str]) -> str:
    """``%t`` of the user manager: ``$XDG_RUNTIME_DIR``, else ``/run/user/<uid>``."""
    given = environ.get("XDG_RUNTIME_DIR") or ""
    return given if os.path.isabs(given) else f"/run/user/{os.getuid()}"


def through_service(service: tuple[str, list[str]], path: str, params: dict[str, Any],
                    wait: float, environ: Mapping[str, str]) -> Answer:  # fmt: skip
    """The answer of the service's daemon: on its socket when it listens, else once the
    service manager has started it (never a daemon of the relay's own)."""
    socket_at, command = service
    notice = "" if socket_at == path else (
        f"hookd-relay: no hookd on {path} (HOOKD_SOCKET); the service's on {socket_at} "
        "answered: unset HOOKD_SOCKET, or set it to that\n")  # fmt: skip
    if socket_at != path and _answers(socket_at):
        return with_notice(call(socket_at, params, wait), notice)
    start_service(command, socket_at, environ)
    return with_notice(call(socket_at, params, wait), notice)


def start_service(command: list[str], socket_at: str, environ: Mapping[str, str]) -> None:
    """Have the service manager start hookd's service, and wait until its socket
    accepts (the first connection then starts hookd, where the socket is activated)."""
    import subprocess

    env = dict(environ)
    if command[0] == "systemctl":  # its user bus is found through XDG_RUNTIME_DIR
        env["XDG_RUNTIME_DIR"] = service_runtime_dir(environ)
    said = " ".join(command)
    try:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, env=env, timeout=SPAWN_WAIT_S)  # fmt: skip
    except subprocess.TimeoutExpired:
        raise RelayError(f"hookd runs as a service, and '{said}' did not finish within "
                         f"{SPAWN_WAIT_S:g} s: see 'hookd service status'") from None  # fmt: skip
    except OSError as exc:
        raise RelayError(f"hookd runs as a service, and '{said}' cannot run "
                         f"({exc.strerror}): see 'hookd service status'") from None  # fmt: skip
    if done.returncode != 0:
        raise RelayError(f"hookd runs as a service, and '{said}' exited with code "
                         f"{done.returncode}: see 'hookd service status'")  # fmt: skip
    deadline = time.monotonic() + SPAWN_WAIT_S
    while not _answers(socket_at):
        if time.monotonic() >= deadline:
            raise RelayError(f"hookd runs as a service, and nothing listens on {socket_at} "
                             f"{SPAWN_WAIT_S:g} s after '{said}': see 'hookd service "
                             "status'")  # fmt: skip
        time.sleep(0.02)


def wait_bound(environ: Mapping[str, str]) -> float:
    """``HOOKD_RELAY_WAIT_S`` when it is a number of seconds (digits, a point) above 0 and
    at most ``WAIT_MAX_S``, else ``WAIT_S``."""
    given = environ.get(WAIT_ENV, "")
    digits = given.replace(".", "", 1)
    if not (given[:1].isdigit() and given[-1:].isdigit() and digits.isascii()):
        return WAIT_S
    return float(given) if digits.isdigit() and 0 < float(given) <= WAIT_MAX_S else WAIT_S


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


_SO_SNDTIMEO_FORMAT = "ll"
"""``struct timeval`` (a blocking ``connect`` to a full backlog waits that long at most)."""


def call(path: str, params: dict[str, Any], wait: float) -> Answer:
    """One ``relay`` request over the socket (NDJSON framing, which hookd accepts and
    answers in), and the answer it carries, within ``wait`` seconds."""
    deadline = time.monotonic() + wait
    late = RelayError(f"hookd at {path} did not answer within {wait:g} s (the relay's "
                      f"bound, {WAIT_ENV}); see 'hookd status', or restart it: 'hookd "
                      "shutdown'")  # fmt: skip
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        import struct

        whole, part = divmod(wait, 1.0)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO,
                        struct.pack(_SO_SNDTIMEO_FORMAT, int(whole), int(part * 1e6)))  # fmt: skip
        try:
            conn.connect(path)
        except OSError as exc:
            if exc.errno in _NOT_RUNNING:
                raise NotRunning(f"hookd is not running (no daemon at {path}: {exc.strerror}); "
                                 "start it with 'hookd serve'") from None  # fmt: skip
            if exc.errno in (errno.EAGAIN, errno.EWOULDBLOCK, errno.ETIMEDOUT):
                raise late from None
            raise RelayError(f"cannot reach hookd at {path}: {exc.strerror}") from None
        request = {"jsonrpc": "2.0", "id": 1, "method": "relay", "params": params}
        data = json.dumps(request, separators=(",", ":")).encode() + b"\n"
        try:
            conn.settimeout(max(deadline - time.monotonic(), 1e-3))
            conn.sendall(data)
        except TimeoutError:
            raise late from None
        except (BrokenPipeError, ConnectionResetError):
            pass  # hookd stopped reading: what it said before is still to be read
        except OSError as exc:
            raise RelayError(f"lost the connection to hookd at {path}: {exc.strerror}") from None
        pending = bytearray()
        while True:
            try:
                conn.settimeout(max(deadline - time.monotonic(), 1e-3))
                chunk = conn.recv(1 << 16)
            except TimeoutError:
                raise late from None
            except ConnectionResetError:  # closed with what this relay sent unread
                chunk = b""
            except OSError as exc:
                raise RelayError(f"lost the connection to hookd at {path}: "
                                 f"{exc.strerror}") from None  # fmt: skip
            if not chunk:  # the last line may end without a newline
                answer = _reply(path, bytes(pending)) if pending else None
                if answer is not None:
                    return answer
                break
            start = len(pending)
            pending += chunk
            while (end := pending.find(b"\n", start)) >= 0:
                answer = _reply(path, bytes(pending[:end]))
                if answer is not None:
                    return answer
                del pending[: end + 1]
                start = 0
    raise RelayError(f"hookd at {path} closed the connection before answering")


def _reply(path: str, line: bytes) -> Answer | None:
    """The answer in one line of the reply, None for a line that is another message."""
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        raise RelayError(f"hookd at {path} sent a reply that is not JSON") from None
    if isinstance(message, dict) and message.get("id") == 1:
        return _answer(message)
    return None


def _answer(message: dict[str, Any]) -> Answer:
    """The stdout, stderr and exit code in a ``relay`` reply (``RelayError`` otherwise)."""
    if "error" in message:
        error = message["error"] if isinstance(message["error"], dict) else {}
        said, code, data = error.get("message"), error.get("code"), error.get("data")
        raise RelayError("hookd refused the event: "
                         + (said if isinstance(said, str) else "(no message)")
                         + (f" ({code})" if type(code) is int else "")
                         + (f": {data}" if isinstance(data, str) else ""))  # fmt: skip
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
    step = f"cannot create {folder}"
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        lock_path = os.path.join(folder, "spawn.lock")
        step = f"cannot open {lock_path}"
        with open(lock_path, "a+") as lock:
            _lock(lock.fileno(), lock_path, fcntl)  # released when the file closes
            if _answers(path):
                return  # another relay started it while this one waited for the lock
            notify_path = os.path.join(folder, f"ready.{os.getpid()}")
            if len(os.fsencode(notify_path)) > SUN_PATH_MAX:
                raise RelayError(f"cannot start hookd: the readiness socket {notify_path} is "
                                 "too long for a Unix socket: set HOOKD_SOCKET (or "
                                 "XDG_RUNTIME_DIR) to a shorter path")  # fmt: skip
            with contextlib.ExitStack() as stack:
                step = f"cannot listen on {notify_path}"
                ready = stack.enter_context(socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM))
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(notify_path)
                ready.bind(notify_path)
                stack.callback(_unlink, notify_path)
                log_path = os.path.join(folder, "hookd.log")
                step = f"cannot open {log_path}"
                log = stack.enter_context(open(log_path, "ab"))
                started_at = log.seek(0, os.SEEK_END)
                env = {**os.environ, "NOTIFY_SOCKET": notify_path}
                step = f"cannot run {sys.executable}"
                daemon = subprocess.Popen(
                    [sys.executable, "-m", "hookd", "--socket", path, "serve"],
                    stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env,
                    start_new_session=True,
                )  # fmt: skip
                step = f"cannot listen on {notify_path}"
                _wait_ready(ready, daemon, log_path, started_at)
    except OSError as exc:
        raise RelayError(f"cannot start hookd: {step} ({exc.strerror})") from None


def _lock(fd: int, lock_path: str, fcntl: Any) -> None:
    """The start lock, waited for as long as a relay waits for its daemon at most."""
    deadline = time.monotonic() + SPAWN_WAIT_S
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise RelayError(f"another hookd-relay has been starting hookd for "
                                 f"{SPAWN_WAIT_S:g} s (it holds {lock_path}); start it "
                                 "yourself with 'hookd serve'") from None  # fmt: skip
            time.sleep(0.02)


def _unlink(path: str) -> None:
    import contextlib

    with contextlib.suppress(OSError):
        os.unlink(path)


def _wait_ready(ready: socket.socket, daemon: Any, log_path: str, started_at: int) -> None:
    import select

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
    the log: its last line saying ``hookd: ...`` or naming an error, else its last line
    (lines and blanks as bytes, ASCII's: the native relay reads them alike)."""
    try:
        with open(log_path, "rb") as log:
            log.seek(offset)
            lines = [line.strip() for line in log.read(1 << 16).splitlines() if line.strip()]
    except OSError:
        return ""
    errors = [line for line in lines if line.startswith(b"hookd:") or b"error" in line.lower()]
    raw = (errors or lines or [b""])[-1].removeprefix(b"hookd:").strip()
    said = raw.decode("utf-8", "replace")
    return said if len(said) <= START_ERROR_MAX else said[: START_ERROR_MAX - 3] + "..."


ANSWERS_WAIT_S = 1.0
"""How long a probe's connect may wait (a hung daemon's full backlog blocks it)."""


def _answers(path: str) -> bool:
    """Whether something accepts connections at ``path``, within ``ANSWERS_WAIT_S``."""
    import struct

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        whole, part = divmod(ANSWERS_WAIT_S, 1.0)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO,
                        struct.pack(_SO_SNDTIMEO_FORMAT, int(whole), int(part * 1e6)))  # fmt: skip
        try:
            conn.connect(path)
        except OSError:
            return False
        return True


if __name__ == "__main__":
    raise SystemExit(main())
