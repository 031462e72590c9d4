"""Run one hook process and always get it back: no hangs, no orphans, bounded memory.

The rules every runner we studied breaks somewhere:

* the hook starts in its own session (``setsid``), so its whole process tree can be
  signalled as one group;
* stdin is written concurrently with reading stdout/stderr and then closed; a hook that
  never reads stdin is fine (EPIPE is recorded, not raised);
* stdout and stderr are capped; what is past the cap is read and discarded, and the
  outcome says so;
* completion is the *main* process's exit plus a bounded drain: a background grandchild
  that keeps the pipes open cannot hold the hook (or the fire) hostage;
* on timeout or cancellation the group gets SIGTERM, a grace period, then SIGKILL, and a
  final SIGKILL for members that outlived the leader. Cleanup is shielded so an outer
  cancellation cannot leave processes behind;
* under a ``Custody`` (the daemon's), the process waits for a slot in a fair queue, is
  marked with its hook id, what it leaves in its group is killed when it exits, and
  escapees that left the group are swept (``custody.py``);
* a ``first_line`` watcher sees the first line of stdout as soon as it holds a ``}``
  (Claude's ``{"async": true}`` reply) and may give the hook a new timeout from then on.

A hook hookd could not start because of its own limits (out of file descriptors,
processes or memory; no process slot before the timeout) is ``never_ran``: the fire
treats that as "never ran", not as "allowed".
"""

from __future__ import annotations

import contextlib
import errno
import math
import os
import resource
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import trio

from ..model import ProcessOutcome
from .custody import HOOK_ID_ENV, Custody, QueueTimeout
from .warm.zygote import WarmProcess

HookProcess = trio.Process | WarmProcess

_READ_CHUNK = 65536
_FIRST_LINE_MAX = 1024 * 1024
HOOKD_LIMIT_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.EAGAIN, errno.ENOMEM})
"""Spawn failures that are hookd's own resource limits, not the hook's fault."""
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


class _CappedBuffer:
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


async def run_hook_process(
    argv: Sequence[str],
    *,
    stdin: bytes,
    cwd: str | None,
    env: Mapping[str, str],
    limits: ProcessLimits,
    custody: Custody | None = None,
    depth: int = 0,
    first_line: FirstLine | None = None,
) -> ProcessOutcome:
    """Run ``argv`` to completion under ``limits`` and describe what happened.

    Never raises for anything the hook does (missing executable, crash, timeout, huge
    output); those are reported in the outcome. Outer cancellation propagates after the
    process group has been killed.
    """
    started = time.perf_counter()
    if custody is None:
        return await _start(argv, stdin, cwd, dict(env), limits, started, None, depth, first_line)
    try:
        async with custody.slot(limits.timeout_s):
            waited = time.perf_counter() - started
            if waited > 0.001:
                limits = replace(limits, timeout_s=max(0.0, limits.timeout_s - waited))
            return await _start(
                argv, stdin, cwd, dict(env), limits, started, custody, depth, first_line
            )
    except QueueTimeout as exc:
        return ProcessOutcome(
            None, b"", b"", _ms_since(started), spawn_error=str(exc), never_ran=True
        )


async def _start(
    argv: Sequence[str],
    stdin: bytes,
    cwd: str | None,
    env: dict[str, str],
    limits: ProcessLimits,
    started: float,
    custody: Custody | None,
    depth: int,
    first_line: FirstLine | None = None,
) -> ProcessOutcome:
    hook_id = None
    if custody is not None:
        hook_id = env[HOOK_ID_ENV] = custody.new_id(depth)
    try:
        with custody.starting(hook_id) if custody and hook_id else contextlib.nullcontext():
            warm = custody.warm if custody is not None else None
            process = (
                warm and await warm.open(argv, cwd, env)
            ) or await trio.lowlevel.open_process(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                env=env,
                start_new_session=True,
            )
            if custody is not None and hook_id is not None:
                custody.adopt(process.pid, hook_id, limits.timeout_s)
    except OSError as exc:
        return ProcessOutcome(
            exit_code=None,
            stdout=b"",
            stderr=b"",
            duration_ms=_ms_since(started),
            spawn_error=_describe_spawn_error(argv, cwd, exc),
            spawn_errno=exc.errno,
            never_ran=exc.errno in HOOKD_LIMIT_ERRNOS,
        )
    if custody is None or hook_id is None:
        return await _supervise(
            process, stdin, limits, started, kill_leftovers=False, first_line=first_line
        )
    if custody.hook_nofile is not None:
        _restore_nofile(process.pid, custody.hook_nofile)
    try:
        return await _supervise(
            process, stdin, limits, started, kill_leftovers=custody.kill_leftovers,
            first_line=first_line,
        )  # fmt: skip
    finally:
        custody.release(process.pid)


async def _supervise(
    process: HookProcess,
    stdin: bytes,
    limits: ProcessLimits,
    started: float,
    *,
    kill_leftovers: bool,
    first_line: FirstLine | None = None,
) -> ProcessOutcome:
    stdout = _CappedBuffer(limits.output_cap_bytes, limits.json_cap_bytes)
    stderr = _CappedBuffer(limits.output_cap_bytes)
    state = {"stdin_broken": False, "timed_out": False, "pipes_held_open": False}
    pgid = process.pid  # session leader: its pid is the group id
    cancelled = True
    deadline = trio.CancelScope(deadline=trio.current_time() + limits.timeout_s)
    watch = None if first_line is None else _FirstLineWatch(first_line, deadline)
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_feed, process, stdin, state)
            readers = {"stdout": trio.CancelScope(), "stderr": trio.CancelScope()}
            done = {"stdout": trio.Event(), "stderr": trio.Event()}
            nursery.start_soon(
                _drain, process.stdout, stdout, readers["stdout"], done["stdout"], watch
            )
            nursery.start_soon(_drain, process.stderr, stderr, readers["stderr"], done["stderr"])
            with deadline:
                await process.wait()
            if deadline.cancelled_caught:
                state["timed_out"] = True
                await _kill_group(process, pgid, limits.term_grace_s)
            with trio.move_on_after(limits.drain_grace_s):
                await done["stdout"].wait()
                await done["stderr"].wait()
            if not (done["stdout"].is_set() and done["stderr"].is_set()):
                # A background child still holds the pipes: stop waiting for EOF.
                state["pipes_held_open"] = True
                for scope in readers.values():
                    scope.cancel()
            nursery.cancel_scope.cancel()  # the stdin feeder, if still blocked
        cancelled = False
    finally:
        if cancelled:
            with trio.CancelScope(shield=True):
                await _kill_group(process, pgid, limits.term_grace_s)
        elif state["timed_out"] or kill_leftovers:
            _signal_group(pgid, signal.SIGKILL)  # members that outlived the leader
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                with trio.CancelScope(shield=True):
                    await stream.aclose()
    too_big = (
        f"its JSON answer was over {stdout.cap} bytes (json_output_cap_bytes), so hookd "
        "could not read it whole"
        if stdout.truncated and stdout.starts_with_brace
        else None
    )
    return ProcessOutcome(
        never_ran=too_big is not None,
        spawn_error=too_big,
        exit_code=process.returncode,
        stdout=stdout.value(),
        stderr=stderr.value(),
        duration_ms=_ms_since(started),
        timed_out=state["timed_out"],
        stdout_truncated=stdout.truncated,
        stderr_truncated=stderr.truncated,
        stdin_broken=state["stdin_broken"],
        pipes_held_open=state["pipes_held_open"],
    )


async def _feed(process: HookProcess, data: bytes, state: dict[str, bool]) -> None:
    assert process.stdin is not None
    try:
        if data:
            await process.stdin.send_all(data)
        await process.stdin.aclose()
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        state["stdin_broken"] = True  # the hook exited or closed stdin without reading


class _FirstLineWatch:
    """Hands the first line of stdout to a ``FirstLine`` watcher once, as soon as it
    holds a ``}`` (Claude Code's rule); a line that ends without one, or runs past
    ``_FIRST_LINE_MAX`` bytes, is never handed on."""

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
            self.checked = bool(newline) or len(line) > _FIRST_LINE_MAX
            return
        self.checked = True
        timeout = self.watcher(bytes(line))
        if timeout is not None:
            self.deadline.deadline = trio.current_time() + timeout


async def _drain(
    stream: trio.abc.ReceiveStream | None,
    sink: _CappedBuffer,
    scope: trio.CancelScope,
    done: trio.Event,
    watch: _FirstLineWatch | None = None,
) -> None:
    if stream is None:
        done.set()
        return
    with scope:
        try:
            while chunk := await stream.receive_some(_READ_CHUNK):
                sink.add(chunk)
                if watch is not None:
                    watch.add(chunk)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        done.set()


async def _kill_group(process: HookProcess, pgid: int, grace_s: float) -> None:
    """SIGTERM the group, give it ``grace_s`` to exit, then SIGKILL it."""
    if process.returncode is None:
        _signal_group(pgid, signal.SIGTERM)
        with trio.move_on_after(grace_s):
            await process.wait()
    _signal_group(pgid, signal.SIGKILL)
    if process.returncode is None:
        await process.wait()


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        pass  # nothing left in the group
    except PermissionError:
        pass  # a member changed credentials (setuid); nothing more we may do


def _restore_nofile(pid: int, limits: tuple[int, int]) -> None:
    """Give the hook the file limit the daemon inherited (the daemon raised its own):
    set right after the spawn, before a program is loaded far enough to size anything
    by it (a race a program checking its limit in its first microseconds could lose)."""
    with contextlib.suppress(OSError, ValueError):  # gone, or not permitted: keeps ours
        resource.prlimit(pid, resource.RLIMIT_NOFILE, limits)


def _ms_since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)


def _describe_spawn_error(argv: Sequence[str], cwd: str | None, exc: OSError) -> str:
    program = argv[0] if argv else "<empty command>"
    if exc.errno == errno.ENOENT:
        if cwd is not None and not os.path.isdir(cwd):
            return f"working directory {cwd} does not exist"
        return f"{program}: not found (check the path, or that it is on PATH)"
    if exc.errno == errno.EACCES:
        return f"{program}: permission denied (is it executable? chmod +x {program})"
    if exc.errno == errno.ENOEXEC:
        return f"{program}: not an executable format (add a shebang line such as #!/bin/sh)"
    return f"{program}: cannot start: {exc.strerror or exc}"


def effective_timeout(seconds: float | None) -> float:
    """Clamp a configured timeout to something trio accepts."""
    if seconds is None or math.isnan(seconds) or seconds <= 0:
        return math.inf
    return seconds
