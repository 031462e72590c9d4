"""Supervise one started hook process on Linux: one task and one epoll set per hook.

The hook's stdout and stderr, the rest of its stdin (a payload too large to write before
it started) and its pidfd sit in a private epoll set that trio waits on as a single file
descriptor, so a hook costs no task per stream and no thread. The rules are those of
``process.py``: output capped, completion at the leader's exit plus a bounded drain, the
group killed (SIGTERM, grace, SIGKILL) on timeout or cancellation, shielded.
"""

from __future__ import annotations

import errno
import os
import select
import signal

import trio

from ..model import ProcessOutcome
from .output import (
    READ_CHUNK,
    CappedBuffer,
    FirstLine,
    FirstLineWatch,
    ProcessLimits,
    finished_outcome,
    ms_since,
    output_buffers,
)
from .spawn import CLOSED, WATCH_ADVICE, HookChild, cannot_watch, signal_group

_BLIND_REAP_S = 5.0


class _Watch:
    """The hook's ends in one epoll set, and what has come out of them so far."""

    def __init__(
        self,
        child: HookChild,
        stdin: bytes,
        out: CappedBuffer,
        err: CappedBuffer,
        first_line: FirstLineWatch | None,
    ) -> None:
        self.child = child
        self.first_line = first_line
        self.epoll = select.epoll()
        self.sinks = {child.stdout: out, child.stderr: err}
        try:
            for fd in (child.stdout, child.stderr, child.exit_fd):
                self.epoll.register(fd, select.EPOLLIN)
            if child.stdin != CLOSED:
                self.epoll.register(child.stdin, select.EPOLLOUT)
        except OSError:
            self.epoll.close()
            raise
        self.pending = memoryview(stdin)
        self.exit_code: int | None = None
        self.exited = False
        self.lost: str | None = None
        self.stdin_broken = False

    @property
    def drained(self) -> bool:
        return not self.sinks

    async def pump(self, done: bool | None = None) -> None:
        """Move bytes until the leader has exited (``done`` None) or every output pipe
        is at its end (``done`` True)."""
        while not (self.drained if done else self.exited):
            await trio.lowlevel.wait_readable(self.epoll.fileno())
            for fd, _events in self.epoll.poll(0):
                if fd in self.sinks:
                    self._read(fd)
                elif fd == self.child.stdin:
                    self._write()
                elif fd == self.child.exit_fd:
                    self._reap()

    def _read(self, fd: int) -> None:
        data = os.read(fd, READ_CHUNK)  # readable: a read never blocks
        if data:
            self.sinks[fd].add(data)
            if self.first_line is not None and fd == self.child.stdout:
                self.first_line.add(data)
            return
        del self.sinks[fd]
        self.epoll.unregister(fd)
        self.child.close_fd(fd)

    def _write(self) -> None:
        try:
            sent = os.write(self.child.stdin, self.pending)
        except BlockingIOError:
            return
        except OSError as exc:  # EPIPE: the hook exited or closed stdin unread
            if exc.errno not in (errno.EPIPE, errno.ECONNRESET):
                raise
            self.stdin_broken = True
            self.pending = self.pending[:0]
        else:
            self.pending = self.pending[sent:]
        if not self.pending:
            self.epoll.unregister(self.child.stdin)
            self.child.close_fd(self.child.stdin)

    def _reap(self) -> None:
        try:
            code = self.child.reap()
        except ChildProcessError:
            code, self.lost = None, "its exit status was taken by another waiter"
        else:
            if code is None:
                return  # not yet (a spurious wake)
        self.exit_code, self.exited = code, True
        self.epoll.unregister(self.child.exit_fd)
        self.child.close_fd(self.child.exit_fd)
        if self.child.stdin != CLOSED:
            self._write()  # once more: EPIPE now says nobody will read the rest

    async def watch(self, done: bool | None = None) -> None:
        """``pump``, except that when hookd's own ends fail under it (its epoll set or a
        pipe: kernel memory, the epoll watch limit) the hook is lost: killed, reaped
        without them, and its answer never counts (``lost``: it never ran)."""
        if self.lost is not None:
            return
        try:
            await self.pump(done)
        except OSError as exc:
            self.lost = (f"hookd lost its hold on it ({exc.strerror or exc}) and killed it; "
                         f"{WATCH_ADVICE}")  # fmt: skip
            signal_group(self.child.pid, signal.SIGKILL)
            await self._reap_blind()

    async def _reap_blind(self) -> None:
        """Wait for the killed leader by polling ``waitpid`` (no pidfd wake-up to trust),
        for a bounded time: a leader that outlasts it is left to custody's sweep."""
        with trio.move_on_after(_BLIND_REAP_S):
            while not self.exited:
                try:
                    code = self.child.reap()
                except ChildProcessError:
                    self.exited = True  # reaped elsewhere: the status is gone anyway
                    return
                if code is not None:
                    self.exit_code, self.exited = code, True
                    return
                await trio.sleep(0.01)

    async def kill_group(self, grace_s: float) -> None:
        """SIGTERM the group, give it ``grace_s`` to exit, then SIGKILL it."""
        if not self.exited:
            signal_group(self.child.pid, signal.SIGTERM)
            with trio.move_on_after(grace_s):
                await self.watch()
        signal_group(self.child.pid, signal.SIGKILL)
        if not self.exited:
            await self.watch()

    def close(self) -> None:
        if self.child.stdin != CLOSED:
            self.stdin_broken = self.stdin_broken or bool(self.pending)
        trio.lowlevel.notify_closing(self.epoll.fileno())
        self.epoll.close()
        self.child.close()


async def supervise(
    child: HookChild,
    stdin: bytes,
    limits: ProcessLimits,
    started: float,
    kill_leftovers: bool,
    first_line: FirstLine | None = None,
) -> ProcessOutcome:
    """Run ``child`` to completion and describe it (``stdin``: its whole payload, of which
    the child still needs what did not go in before its start)."""
    out, err = output_buffers(limits)
    deadline = trio.CancelScope(deadline=trio.current_time() + limits.timeout_s)
    line = None if first_line is None else FirstLineWatch(first_line, deadline)
    try:
        watch = _Watch(child, stdin if child.stdin != CLOSED else b"", out, err, line)
    except OSError as exc:  # no descriptor or epoll room left: it must not run unwatched
        child.abandon()
        return ProcessOutcome(None, b"", b"", ms_since(started), spawn_error=cannot_watch(exc),
                              spawn_errno=exc.errno, never_ran=True)  # fmt: skip
    timed_out = held_open = False
    cancelled = True
    try:
        with deadline:
            await watch.watch()
        if deadline.cancelled_caught:
            timed_out = True
            await watch.kill_group(limits.term_grace_s)
        if not watch.drained and watch.lost is None:  # as a rule both ended with the leader
            with trio.move_on_after(limits.drain_grace_s):
                await watch.watch(done=True)
        held_open = not watch.drained  # a background child still holds the pipes
        cancelled = False
    finally:
        if cancelled:
            with trio.CancelScope(shield=True):
                await watch.kill_group(limits.term_grace_s)
        elif timed_out or kill_leftovers:
            signal_group(child.pid, signal.SIGKILL)  # members that outlived the leader
        watch.close()
    return finished_outcome(
        exit_code=watch.exit_code,
        stdout=out,
        stderr=err,
        started=started,
        timed_out=timed_out,
        stdin_broken=watch.stdin_broken,
        pipes_held_open=held_open,
        lost=watch.lost,
    )
