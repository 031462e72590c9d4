"""Run one hook process with trio's own process support: the ``TRIO`` launcher
(``launch.py``: where ``supervise.py`` cannot, no pidfd or epoll), and the supervisor of
a hook a warm interpreter forked (``warm/launcher.py``: streams and an exit event with
``trio.Process``'s surface). Same rules, one task per stream: a stdin feeder, two output
readers, and the leader's exit waited for."""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import trio

from ..model import ProcessOutcome
from .output import (
    READ_CHUNK,
    CappedBuffer,
    FirstLine,
    FirstLineWatch,
    ProcessLimits,
    finished_outcome,
    output_buffers,
)
from .spawn import signal_group


class HookProcess(Protocol):
    """What ``supervise_trio`` reads of a started process: ``trio.Process`` has it, and
    so has a warm interpreter's fork (``warm/zygote.WarmProcess``), which this module
    need not know."""

    @property
    def pid(self) -> int: ...
    @property
    def returncode(self) -> int | None: ...
    @property
    def stdin(self) -> trio.abc.SendStream | None: ...
    @property
    def stdout(self) -> trio.abc.ReceiveStream | None: ...
    @property
    def stderr(self) -> trio.abc.ReceiveStream | None: ...
    async def wait(self) -> int: ...


async def open_hook_process(
    argv: Sequence[str], cwd: str | None, env: Mapping[str, str], stdin: bytes
) -> trio.Process:
    """Start ``argv`` in its own session with three pipes (``OSError`` if it cannot).
    ``stdin`` is not written here: ``supervise_trio`` feeds it (the signature is the
    ``Launcher``'s ``start``)."""
    return await trio.lowlevel.open_process(
        list(argv),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=env,
        start_new_session=True,
    )


@dataclass
class _State:
    stdin_broken: bool = False
    timed_out: bool = False
    pipes_held_open: bool = False
    done: dict[str, trio.Event] = field(
        default_factory=lambda: {"stdout": trio.Event(), "stderr": trio.Event()}
    )


async def supervise_trio(
    process: HookProcess,
    stdin: bytes,
    limits: ProcessLimits,
    started: float,
    kill_leftovers: bool,
    first_line: FirstLine | None = None,
) -> ProcessOutcome:
    """Run ``process`` to completion and describe it."""
    out, err = output_buffers(limits)
    state = _State()
    deadline = trio.CancelScope(deadline=trio.current_time() + limits.timeout_s)
    line = None if first_line is None else FirstLineWatch(first_line, deadline)
    pgid = process.pid  # session leader: its pid is the group id
    cancelled = True
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_feed, process, stdin, state)
            readers = {"stdout": trio.CancelScope(), "stderr": trio.CancelScope()}
            nursery.start_soon(
                _drain, process.stdout, out, readers["stdout"], state.done["stdout"], line
            )
            nursery.start_soon(_drain, process.stderr, err, readers["stderr"], state.done["stderr"])
            with deadline:
                await process.wait()
            if deadline.cancelled_caught:
                state.timed_out = True
                await _kill_group(process, pgid, limits.term_grace_s)
            with trio.move_on_after(limits.drain_grace_s):
                for event in state.done.values():
                    await event.wait()
            if not all(event.is_set() for event in state.done.values()):
                # A background child still holds the pipes: stop waiting for EOF.
                state.pipes_held_open = True
                for scope in readers.values():
                    scope.cancel()
            nursery.cancel_scope.cancel()  # the stdin feeder, if still blocked
        cancelled = False
    finally:
        if cancelled:
            with trio.CancelScope(shield=True):
                await _kill_group(process, pgid, limits.term_grace_s)
        elif state.timed_out or kill_leftovers:
            signal_group(pgid, signal.SIGKILL)  # members that outlived the leader
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                with trio.CancelScope(shield=True):
                    await stream.aclose()
    return finished_outcome(
        exit_code=process.returncode,
        stdout=out,
        stderr=err,
        started=started,
        timed_out=state.timed_out,
        stdin_broken=state.stdin_broken,
        pipes_held_open=state.pipes_held_open,
    )


async def _feed(process: HookProcess, data: bytes, state: _State) -> None:
    assert process.stdin is not None
    try:
        if data:
            await process.stdin.send_all(data)
        await process.stdin.aclose()
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        state.stdin_broken = True  # the hook exited or closed stdin without reading


async def _drain(
    stream: trio.abc.ReceiveStream | None,
    sink: CappedBuffer,
    scope: trio.CancelScope,
    done: trio.Event,
    first_line: FirstLineWatch | None = None,
) -> None:
    if stream is None:
        done.set()
        return
    with scope:
        try:
            while chunk := await stream.receive_some(READ_CHUNK):
                sink.add(chunk)
                if first_line is not None:
                    first_line.add(chunk)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        done.set()


async def _kill_group(process: HookProcess, pgid: int, grace_s: float) -> None:
    """SIGTERM the group, give it ``grace_s`` to exit, then SIGKILL it."""
    if process.returncode is None:
        signal_group(pgid, signal.SIGTERM)
        with trio.move_on_after(grace_s):
            await process.wait()
    signal_group(pgid, signal.SIGKILL)
    if process.returncode is None:
        await process.wait()
