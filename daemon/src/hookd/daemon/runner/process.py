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

How the process is started and watched is not decided here: the custody's launcher does
both (``launch.py``: chosen once; the daemon's warm interpreters in front of it).

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
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace

from ..model import ProcessOutcome
from . import launch
from .custody import HOOK_ID_ENV, Custody, QueueTimeout
from .output import FirstLine, ProcessLimits, ms_since
from .spawn import HOOKD_LIMIT_ERRNOS, CannotWatch

__all__ = [
    "HOOKD_LIMIT_ERRNOS",
    "FirstLine",
    "ProcessLimits",
    "effective_timeout",
    "run_hook_process",
]


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
        await custody.take_slot(limits.timeout_s)
    except QueueTimeout as exc:
        return ProcessOutcome(
            None, b"", b"", ms_since(started), spawn_error=str(exc), never_ran=True
        )
    try:
        waited = time.perf_counter() - started
        if waited > 0.001:
            limits = replace(limits, timeout_s=max(0.0, limits.timeout_s - waited))
        return await _start(
            argv, stdin, cwd, dict(env), limits, started, custody, depth, first_line
        )
    finally:
        custody.release_slot()


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
        launcher = custody.launcher
        hook_id = env[HOOK_ID_ENV] = custody.new_id(depth)
    else:
        launcher = launch.BASE
    try:
        with custody.starting(hook_id) if custody and hook_id else contextlib.nullcontext():
            child: launch.Started = await launcher.start(argv, cwd, env, stdin)
            if custody is not None and hook_id is not None:
                custody.adopt(child.pid, hook_id, limits.timeout_s)
    except OSError as exc:
        return ProcessOutcome(
            exit_code=None,
            stdout=b"",
            stderr=b"",
            duration_ms=ms_since(started),
            spawn_error=exc.strerror
            if isinstance(exc, CannotWatch)
            else _describe_spawn_error(argv, cwd, exc),
            spawn_errno=exc.errno,
            never_ran=isinstance(exc, CannotWatch) or exc.errno in HOOKD_LIMIT_ERRNOS,
        )
    if custody is None or hook_id is None:
        return await launcher.supervise(child, stdin, limits, started, False, first_line)
    if custody.hook_nofile is not None:
        _restore_nofile(child.pid, custody.hook_nofile)
    try:
        return await launcher.supervise(
            child, stdin, limits, started, custody.kill_leftovers, first_line
        )
    finally:
        custody.release(child.pid)


def _restore_nofile(pid: int, limits: tuple[int, int]) -> None:
    """Give the hook the file limit the daemon inherited (the daemon raised its own):
    set right after the spawn, before a program is loaded far enough to size anything
    by it (a race a program checking its limit in its first microseconds could lose)."""
    with contextlib.suppress(OSError, ValueError):  # gone, or not permitted: keeps ours
        resource.prlimit(pid, resource.RLIMIT_NOFILE, limits)


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
