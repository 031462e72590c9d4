"""The audit log: one JSON line per fire (who fired, what ran, what was decided, what never
ran and why) and per background hook result, appended to ``<state_dir>/audit.jsonl``.

Writing is cheap and can never hurt a fire: each record is one ``write`` on a file opened
``O_APPEND`` (no ``fsync``: a daemon crash loses nothing the kernel already has), and any
error (a full disk, no descriptor left) drops that record, counted and shown in
``status``, and is retried with the next one. Past ``audit_max_bytes`` the file is
rotated (``audit.jsonl.1`` ... ``.N``, ``audit_keep`` of them). A line cut short (a crash
mid-write, a full disk) is tolerated by the reader and closed with a newline by the
writer, so it never swallows the next record.

Standard library only: ``hookd logs`` reads the file without loading the daemon.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .scrub import scrub

AUDIT_NAME = "audit.jsonl"
MAX_TEXT = 1000
_ENCODER = json.JSONEncoder(ensure_ascii=True, default=str)
"""Made once (``json.dumps`` with options builds one per call)."""
"""Reasons, errors and commands are cut to this many characters in a record (the audit
says what happened; the hook's full output is the agent's)."""


def audit_path(state_dir: str) -> str:
    return os.path.join(state_dir, AUDIT_NAME)


def _cut(text: Any) -> Any:
    if isinstance(text, str) and len(text) > MAX_TEXT:
        return text[:MAX_TEXT] + f"... ({len(text)} characters)"
    return text


def _timestamp() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def never_ran_why(error: str | None) -> str | None:
    """Why a hook did not run, from its report's ``error`` (``never ran: ...`` when hookd
    could not run it, ``not run: ...`` when trust refused it), or None when it ran."""
    if error is None:
        return None
    for prefix in ("never ran: ", "not run: "):
        if error.startswith(prefix):
            return error[len(prefix) :]
    return None


@dataclass(frozen=True, slots=True)
class Peer:
    """Who fired: the connection's peer credentials."""

    pid: int | None
    uid: int | None
    inside_hook: bool = False


class AuditLog:
    """Appends records to the audit file, rotating it by size; never raises."""

    def __init__(self, path: str | None, max_bytes: int, keep: int) -> None:
        self.path = path
        self.max_bytes = max(max_bytes, 4096)
        self.keep = max(keep, 1)
        self.written = 0
        self.dropped = 0
        self.last_error: str | None = None
        self._fd: int | None = None
        self._size = 0
        self._sequence = 0

    # records ----------------------------------------------------------------------------
    def fire(
        self,
        *,
        peer: Peer,
        request_id: Any,
        agent: str,
        event: str,
        roots: Sequence[str],
        depth: int,
        call: Mapping[str, Any] | None = None,
        result: Mapping[str, Any] | None = None,
        outcome: str = "answered",
        duration_ms: float | None = None,
        reason: str | None = None,
    ) -> None:
        """One fire: ``outcome`` is ``answered`` (with its ``result``), ``cancelled``,
        ``failed`` or ``refused`` (nested too deep: ``reason`` says so); ``call``: what
        ``hookd logs`` shows of the call (session, tool, a short command, relay)."""
        record: dict[str, Any] = {
            "type": "fire",
            "peer": {"pid": peer.pid, "uid": peer.uid, "insideHook": peer.inside_hook},
            "requestId": request_id if isinstance(request_id, int | str) else None,
            "agent": agent,
            "event": event,
            "roots": list(roots),
            "depth": depth,
            "outcome": outcome,
            **(call or {}),
        }
        if result is None:
            record["durationMs"] = duration_ms
            if reason is not None:
                record["reason"] = _cut(reason)
        else:
            record.update(
                durationMs=result.get("durationMs"),
                blocked=result.get("blocked"),
                decision=result.get("decision"),
                reason=_cut(result.get("reason")),
                continue_=result.get("continue"),
                hooks=[_hook(hook) for hook in result.get("hooks", ())],
                asyncStarted=len(result.get("asyncStarted", ())),
                warnings=[_cut(w) for w in result.get("warnings", ())],
                systemMessage=_cut(result.get("systemMessage")),
            )
            record["continue"] = record.pop("continue_")
        self.append(record)

    def async_result(
        self, *, peer: Peer, agent: str, event: str, result: Mapping[str, Any]
    ) -> None:
        """A background hook finished (its result goes to the agent as well)."""
        record = {
            "type": "async-hook",
            "peer": {"pid": peer.pid, "uid": peer.uid, "insideHook": peer.inside_hook},
            "agent": agent,
            "event": event,
            "id": result.get("id"),
            "source": result.get("source"),
            "command": _cut(result.get("command")),
            "exitCode": result.get("exitCode"),
            "timedOut": result.get("timedOut"),
            "durationMs": result.get("durationMs"),
            "error": _cut(result.get("error")),
            "neverRan": _cut(never_ran_why(result.get("error"))),
        }
        self.append(record)

    # writing ----------------------------------------------------------------------------
    def append(self, record: dict[str, Any]) -> None:
        if self.path is None:
            return
        self._sequence += 1
        line = {"ts": _timestamp(), "seq": self._sequence, **record}
        data = (_ENCODER.encode(line) + "\n").encode()
        try:
            self._write(data)
        except (OSError, ValueError) as exc:
            self.dropped += 1
            self.last_error = f"{type(exc).__name__}: {exc}"
            self._close()  # opened again (and the tail mended) with the next record
        else:
            self.written += 1
            self.last_error = None

    def _write(self, data: bytes) -> None:
        assert self.path is not None
        if self._fd is not None and self._size + len(data) > self.max_bytes:
            self._rotate()
        if self._fd is None:
            self._open()
        assert self._fd is not None
        done = os.write(self._fd, data)
        self._size += done
        if done < len(data):
            self._size += os.write(self._fd, b"\n")  # a cut line must not swallow the next
            raise OSError(f"short write to {self.path} ({done} of {len(data)} bytes)")

    def _open(self) -> None:
        assert self.path is not None
        os.makedirs(os.path.dirname(self.path), mode=0o700, exist_ok=True)
        flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW
        fd = os.open(self.path, flags, 0o600)
        try:
            size = os.fstat(fd).st_size
            if size and _last_byte(fd, size) != b"\n":
                size += os.write(fd, b"\n")  # a torn line from a crash: close it
        except OSError:
            os.close(fd)
            raise
        self._fd, self._size = fd, size

    def _rotate(self) -> None:
        assert self.path is not None
        self._close()
        for number in range(self.keep - 1, 0, -1):
            older = f"{self.path}.{number}"
            if os.path.exists(older):
                os.replace(older, f"{self.path}.{number + 1}")
        os.replace(self.path, f"{self.path}.1")

    def _close(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            with contextlib.suppress(OSError):
                os.close(fd)

    def close(self) -> None:
        self._close()

    def view(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "written": self.written,
            "dropped": self.dropped,
            "lastError": self.last_error,
        }


COMMAND_CHARS = 120
"""How much of a tool call's command a fire's record keeps."""


def kept_payload(
    payload: Mapping[str, Any], max_bytes: int, secrets: Mapping[str, str]
) -> dict[str, Any]:
    """The event as the audit log keeps it, for ``hookd fire --replay``: ``payload``, its
    JSON text with credentials scrubbed, when it is at most ``max_bytes`` long; else
    ``payloadBytes``, at least how long it was (0: never kept). Its size is bounded before
    it is serialized, so a fire with a huge payload pays for ``max_bytes`` at most."""
    if max_bytes <= 0:
        return {}
    if _larger_than(payload, max_bytes):
        return {"payloadBytes": max_bytes + 1}
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), default=str)
    if len(text) > max_bytes:
        return {"payloadBytes": len(text)}
    return {"payload": scrub(text, secrets) if secrets else text}


def _larger_than(value: Any, budget: int) -> bool:
    """Whether ``value``'s strings and keys alone already exceed ``budget`` characters."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            budget -= len(item)
        elif isinstance(item, Mapping):
            budget -= sum(len(str(key)) for key in item)
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            budget -= len(item)
            stack.extend(item)
        if budget < 0:
            return True
    return False


def call_of(
    payload: Mapping[str, Any],
    session: str | None,
    relay: bool,
    secrets: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """What the audit log keeps of the event a fire is about: the session, the tool and
    the start of its command (whatever the agent calls them, ``secrets`` scrubbed before
    it is cut), and whether it came through the relay."""
    tool, tool_input = None, None
    for holder in (payload, *(v for v in payload.values() if isinstance(v, Mapping))):
        found = holder.get("tool_name", holder.get("toolName"))
        if isinstance(found, str):
            tool = found
            tool_input = holder.get("tool_input", holder.get("toolArgs", holder.get("parameters")))
            break
    command = tool_input.get("command") if isinstance(tool_input, Mapping) else None
    call: dict[str, Any] = {"session": session, "relay": relay}
    if tool is not None:
        call["tool"] = tool
    if isinstance(command, str):
        command = scrub(command, secrets) if secrets else command
        call["command"] = command[:COMMAND_CHARS] + ("..." if len(command) > COMMAND_CHARS else "")
    return call


def _hook(hook: Mapping[str, Any]) -> dict[str, Any]:
    error = hook.get("error")
    return {
        "index": hook.get("index"),
        "dialect": hook.get("dialect"),
        "layer": hook.get("layer"),
        "source": hook.get("source"),
        "command": _cut(hook.get("command")),
        "exitCode": hook.get("exitCode"),
        "durationMs": hook.get("durationMs"),
        "startMs": hook.get("startMs"),
        "queuedMs": hook.get("queuedMs"),
        "timeoutMs": hook.get("timeoutMs"),
        "timedOut": hook.get("timedOut"),
        "blocked": hook.get("blocked"),
        "decision": hook.get("decision"),
        "error": _cut(error),
        "neverRan": _cut(never_ran_why(error)),
        "stdoutTail": hook.get("stdoutTail") or None,
        "stderrTail": hook.get("stderrTail") or None,
    }


def _last_byte(fd: int, size: int) -> bytes:
    return os.pread(fd, 1, size - 1)


# reading ---------------------------------------------------------------------------------


def read_records(path: str) -> Iterator[dict[str, Any]]:
    """Every record of one audit file in order; a line that is not a JSON object (cut
    short by a crash) is skipped."""
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed by the generator's with
    except FileNotFoundError:
        return
    with handle:
        for line in handle:
            record = parse_line(line)
            if record is not None:
                yield record


def parse_line(line: bytes) -> dict[str, Any] | None:
    try:
        record = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    return record if isinstance(record, dict) else None


def rotated_files(path: str, keep: int = 64) -> list[str]:
    """The audit file and its rotated predecessors that exist, oldest first."""
    older = [f"{path}.{n}" for n in range(keep, 0, -1) if os.path.exists(f"{path}.{n}")]
    return [*older, path]


Position = tuple[int, int]
"""Where a reader stopped: the file's inode and the offset after its last whole line."""


def read_whole_lines(path: str) -> tuple[list[dict[str, Any]], Position | None]:
    """The records of ``path`` and where they end (a cut last line is left for later)."""
    try:
        with open(path, "rb") as handle:
            inode = os.fstat(handle.fileno()).st_ino
            data = handle.read()
    except FileNotFoundError:
        return [], None
    end = data.rfind(b"\n") + 1
    return list(_records(data[:end].split(b"\n"))), (inode, end)


def follow(path: str, start: Position | None, poll_s: float = 0.2) -> Iterator[dict[str, Any]]:
    """New records as they are appended (``hookd logs -f``), from ``start`` (where
    ``read_whole_lines`` stopped) or from the beginning of a file created later, across
    rotations: when the file at ``path`` is another one or shrank, the old one is read to
    its end and the new one from its start. Runs until interrupted."""
    handle = None
    inode = -1
    pending = b""
    while True:
        if handle is None:
            try:
                handle = open(path, "rb")  # noqa: SIM115 - kept open while following
            except FileNotFoundError:
                start = None
                time.sleep(poll_s)
                continue
            inode = os.fstat(handle.fileno()).st_ino
            if start is not None and start[0] == inode:
                handle.seek(start[1])
            start = None
        chunk = handle.read()
        if chunk:
            pending += chunk
            *lines, pending = pending.split(b"\n")
            yield from _records(lines)
            continue
        try:
            current: os.stat_result | None = os.stat(path)
        except FileNotFoundError:
            current = None
        if current is None or current.st_ino != inode or current.st_size < handle.tell():
            rest = pending + handle.read()  # what the writer added before it rotated
            handle.close()
            yield from _records(rest.split(b"\n"))
            handle, pending = None, b""
            continue
        time.sleep(poll_s)


def _records(lines: Sequence[bytes]) -> Iterator[dict[str, Any]]:
    for line in lines:
        record = parse_line(line) if line.strip() else None
        if record is not None:
            yield record
