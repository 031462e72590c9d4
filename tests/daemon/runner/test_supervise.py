"""supervise.py when hookd's own ends fail under a running hook (its epoll set refused
by the kernel: memory, the epoll watch limit): the hook is killed, reaped, and never
ran; never an exception that leaves it running and its answer read as "allowed"."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import trio

from hookd.daemon.runner import launch, spawn
from hookd.daemon.runner.output import ProcessLimits, output_buffers
from hookd.daemon.runner.supervise import _Watch
from hookd_testing.process_daemon import alive

pytestmark = pytest.mark.skipif(
    launch.LEAN not in launch.USABLE, reason="no pidfd/epoll: the lean launcher cannot run here"
)


async def test_a_hook_whose_watch_fails_is_killed_reaped_and_never_ran(tmp_path: Path) -> None:
    child = spawn.start_child(["sh", "-c", "trap '' TERM; exec sleep 60"], None,
                              dict(os.environ), b"")  # fmt: skip
    out, err = output_buffers(ProcessLimits(timeout_s=60))
    watch = _Watch(child, b"", out, err, None)
    pid = child.pid
    try:
        with open(tmp_path / "not-pollable", "w") as regular:
            # The epoll set's descriptor now names a regular file: the kernel refuses to
            # watch it (EPERM), as it would refuse an epoll set past a limit.
            os.dup2(regular.fileno(), watch.epoll.fileno())
        with trio.fail_after(30):
            await watch.watch()
        assert watch.lost is not None
        assert "never ran" in watch.lost, watch.lost
        assert watch.exited  # killed, and reaped: no zombie
        assert watch.exit_code == -9
        assert not alive(pid)
    finally:
        watch.close()
        if alive(pid):
            os.kill(pid, 9)


async def test_a_lost_watch_is_not_pumped_again(tmp_path: Path) -> None:
    """kill_group after a loss (the cancelled path) must not touch the failed set."""
    child = spawn.start_child(["sleep", "60"], None, dict(os.environ), b"")
    out, err = output_buffers(ProcessLimits(timeout_s=60))
    watch = _Watch(child, b"", out, err, None)
    try:
        with open(tmp_path / "not-pollable", "w") as regular:
            os.dup2(regular.fileno(), watch.epoll.fileno())
        with trio.fail_after(30):
            await watch.watch()
            await watch.kill_group(0.1)
        assert watch.exited
        assert watch.lost is not None
    finally:
        watch.close()
