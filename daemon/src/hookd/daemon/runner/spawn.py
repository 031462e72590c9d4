"""Start one hook process: where a hook's own process comes into being.

``start_child`` is how the ``LEAN`` launcher (``launch.py``) starts a hook's process on
Linux; ``supervise.py`` then watches the :class:`HookChild` it returns: pipes, timeouts,
group kills, exit status.

The process is started on the event loop's own thread: ``subprocess.Popen`` forks with
``vfork`` (the daemon is suspended only until the child has called ``exec``), which costs
less than handing the call to a worker thread and back (two thread wake-ups per hook,
trio's ``open_process``). glibc's ``posix_spawn`` (through ctypes: Python's own cannot
change directory) measured no faster here and leaves glibc's internal signals 32 and 33
ignored in the child: not worth it. A stdin payload that fits a pipe's atomic write is
written before the start, and the pipe closed, so nothing has to feed it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import signal
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

CLOSED = -1
HOOKD_LIMIT_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.EAGAIN, errno.ENOMEM})
"""Failures to start (or watch) a hook that are hookd's own resource limits."""
WATCH_ADVICE = ("it never ran, as far as any decision goes. Raise the open-file limit "
                "(LimitNOFILE / ulimit -n) or fs.epoll.max_user_watches, or lower "
                "max_hook_processes")  # fmt: skip
"""What a person can do when hookd runs out of what it needs to watch hooks."""


class CannotWatch(OSError):
    """The hook's process started, but hookd could not get what it watches it with: it
    was killed at once and never ran (hookd's own limit, never the hook's error)."""


def cannot_watch(exc: OSError) -> str:
    """Why a started hook was stopped before it was watched, and what to do."""
    return f"hookd could not watch it ({exc.strerror or exc}), so it stopped it; {WATCH_ADVICE}"


@dataclass
class HookChild:
    """A started hook process, and the daemon's ends of its pipes (``CLOSED`` once
    closed). Its pid is its process group's id: it leads its own session."""

    pid: int
    stdin: int
    """The write end of its stdin, or ``CLOSED`` when the whole payload was written
    before the start."""
    stdout: int
    stderr: int
    exit_fd: int
    """Readable once the process has exited (a pidfd)."""
    popen: subprocess.Popen[bytes] | None = None

    def reap(self) -> int | None:
        """Its exit code (negative: the signal that ended it) once it has exited, else
        None. ``ChildProcessError`` when it was reaped elsewhere (its status is lost)."""
        pid, status = os.waitpid(self.pid, os.WNOHANG)
        if pid == 0:
            return None
        code = os.waitstatus_to_exitcode(status)
        if self.popen is not None:
            self.popen.returncode = code  # reaped here: Popen must not wait for it again
        return code

    def close_fd(self, fd: int) -> None:
        """Close one of our ends (and forget it)."""
        for name in ("stdin", "stdout", "stderr", "exit_fd"):
            if getattr(self, name) == fd:
                setattr(self, name, CLOSED)
        os.close(fd)

    def abandon(self) -> None:
        """Kill it before it is watched (it cannot be: no descriptor left), reap it if it
        is already gone, close. Never a blocking wait on the event loop: a child killed
        while stuck in the kernel (a hung mount under its program) is reaped later by
        custody's sweep of the daemon's exited children."""
        signal_group(self.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, os.WNOHANG)
        if self.popen is not None:
            self.popen.returncode = -signal.SIGKILL
        self.close()

    def close(self) -> None:
        """Close whatever ends are still open."""
        for fd in (self.stdin, self.stdout, self.stderr, self.exit_fd):
            if fd != CLOSED:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.stdin = self.stdout = self.stderr = self.exit_fd = CLOSED
        if self.popen is not None and self.popen.returncode is None:
            self.popen.returncode = -signal.SIGKILL  # never waited for by Popen's __del__


def start_child(
    argv: Sequence[str], cwd: str | None, env: Mapping[str, str], stdin: bytes
) -> HookChild:
    """Start ``argv`` in its own session with three pipes, ``stdin`` already in the first
    when it fits (``select.PIPE_BUF``: a write that size into a new pipe never blocks).

    Raises:
        OSError: it could not start; the error of ``subprocess.Popen`` (not found, not
            executable, no such working directory, out of descriptors or processes).
    """
    ours: list[int] = []
    theirs: list[int] = []
    try:
        for _ in range(3):
            read_end, write_end = os.pipe()  # both close-on-exec
            ours.append(write_end if not ours else read_end)
            theirs.append(read_end if not theirs else write_end)
        stdin_w = ours[0]
        if len(stdin) <= select.PIPE_BUF:
            if stdin:
                os.write(stdin_w, stdin)
            os.close(stdin_w)
            stdin_w = ours[0] = CLOSED
        else:
            os.set_blocking(stdin_w, False)  # fed as the hook reads (supervise.py)
        popen = subprocess.Popen(
            list(argv),
            stdin=theirs[0],
            stdout=theirs[1],
            stderr=theirs[2],
            cwd=cwd,
            env=env,
            start_new_session=True,
        )
    except BaseException:
        for fd in ours:
            if fd != CLOSED:
                os.close(fd)
        raise
    finally:
        for fd in theirs:
            os.close(fd)
    child = HookChild(popen.pid, stdin_w, ours[1], ours[2], CLOSED, popen)
    try:
        child.exit_fd = os.pidfd_open(popen.pid)
    except OSError as exc:
        child.abandon()  # it cannot be supervised: it must not run
        raise CannotWatch(exc.errno, cannot_watch(exc)) from exc
    return child


def signal_group(pgid: int, sig: signal.Signals) -> None:
    """Signal a hook's whole process group; nothing left in it is no error."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        pass  # nothing left in the group
    except PermissionError:
        pass  # a member changed credentials (setuid); nothing more we may do
