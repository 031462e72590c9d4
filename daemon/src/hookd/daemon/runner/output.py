"""A hook process's bounds and what it leaves: its limits, its capped output, the watch
on its first line, the outcome.

Shared by both ways hookd supervises a hook process (``supervise.py`` on Linux;
``process_trio.py`` for warm children and where there is no pidfd), so the bounds and
the outcome mean the same everywhere.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import trio

from ..model import ProcessOutcome

READ_CHUNK = 65536
FIRST_LINE_MAX = 1024 * 1024
FirstLine = Callable[[bytes], float | None]
"""Told the first line of a hook's stdout once it holds a ``}``; a number is the hook's
new timeout in seconds, counted from then (it went to the background), None keeps it."""


@dataclass(frozen=True)
class ProcessLimits:
    """The bounds a hook process runs under."""

    timeout_s: float
    output_cap_bytes: int = 1024 * 1024
    json_cap_bytes: int = 16 * 1024 * 1024
    """The cap for a stdout that starts with ``{``: an answer is read whole up to here,
    so a large JSON decision is never cut (and so never flipped) by the text cap."""
    term_grace_s: float = 0.5
    drain_grace_s: float = 0.1


class CappedBuffer:
    """Keeps the first ``cap`` bytes of a stream and counts the rest as truncated."""

    def __init__(self, cap: int, json_cap: int | None = None) -> None:
        self.cap = cap
        self.json_cap = json_cap
        """When set, the cap becomes this once the output turns out to start with ``{``."""
        self.starts_with_brace: bool | None = None
        self.chunks: list[bytes | bytearray] = []
        self.size = 0
        self.truncated = False

    def add(self, data: bytes | bytearray) -> None:
        if self.starts_with_brace is None:
            text = bytes(data).lstrip()
            if text:
                self.starts_with_brace = text.startswith(b"{")
                if self.starts_with_brace and self.json_cap is not None:
                    self.cap = max(self.cap, self.json_cap)
        room = self.cap - self.size
        if room <= 0:
            self.truncated = True
            return
        if len(data) > room:
            data = data[:room]
            self.truncated = True
        self.chunks.append(data)
        self.size += len(data)

    def value(self) -> bytes:
        return b"".join(self.chunks)


class FirstLineWatch:
    """Hands the first line of stdout to a ``FirstLine`` watcher once, as soon as it
    holds a ``}`` (Claude Code's rule); a line that ends without one, or runs past
    ``FIRST_LINE_MAX`` bytes, is never handed on."""

    def __init__(self, watcher: FirstLine, deadline: trio.CancelScope) -> None:
        self.watcher = watcher
        self.deadline = deadline
        self.head = b""
        self.checked = False

    def add(self, chunk: bytes | bytearray) -> None:
        if self.checked:
            return
        self.head += chunk
        line, newline, _ = self.head.partition(b"\n")
        if b"}" not in line:
            self.checked = bool(newline) or len(line) > FIRST_LINE_MAX
            return
        self.checked = True
        timeout = self.watcher(bytes(line))
        if timeout is not None:
            self.deadline.deadline = trio.current_time() + timeout


def output_buffers(limits: ProcessLimits) -> tuple[CappedBuffer, CappedBuffer]:
    """Empty stdout and stderr buffers under ``limits`` (stdout may hold a JSON answer)."""
    return (
        CappedBuffer(limits.output_cap_bytes, limits.json_cap_bytes),
        CappedBuffer(limits.output_cap_bytes),
    )


def finished_outcome(
    *,
    exit_code: int | None,
    stdout: CappedBuffer,
    stderr: CappedBuffer,
    started: float,
    timed_out: bool,
    stdin_broken: bool,
    pipes_held_open: bool,
    lost: str | None = None,
) -> ProcessOutcome:
    """The outcome of a hook process that ran; ``lost`` says why hookd could not read
    its end (it then never ran, as far as a decision goes)."""
    too_big = (
        f"its JSON answer was over {stdout.cap} bytes (json_output_cap_bytes), so hookd "
        "could not read it whole"
        if stdout.truncated and stdout.starts_with_brace
        else None
    )
    problem = lost or too_big
    return ProcessOutcome(
        never_ran=problem is not None,
        spawn_error=problem,
        exit_code=exit_code,
        stdout=stdout.value(),
        stderr=stderr.value(),
        duration_ms=ms_since(started),
        timed_out=timed_out,
        stdout_truncated=stdout.truncated,
        stderr_truncated=stderr.truncated,
        stdin_broken=stdin_broken,
        pipes_held_open=pipes_held_open,
    )


def ms_since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)
