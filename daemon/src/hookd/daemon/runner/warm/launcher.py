"""The warm interpreters as a layer in front of a launcher (``launch.py``).

A hook a zygote takes (``pool.WarmPool.open``) is forked by it; any other goes to the
launcher behind, as it would without warm interpreters. A warm fork is not the daemon's
child (its zygote reaps it and reports the status), so it comes with streams and an exit
event and is watched by trio's supervisor (``process_trio``), whatever the launcher
behind watches its own with.

Only a bare launcher gets the layer: a wrapper (a sandbox, a cgroup) cannot be put
around a process a zygote forks (``launch.py`` says why), so behind a wrapper the layer
steps aside and every hook starts through the wrapper.
"""

from __future__ import annotations

from collections.abc import Coroutine, Mapping, Sequence
from typing import Any, Generic

from ...model import ProcessOutcome
from ..launch import ChildT, Launcher
from ..output import FirstLine, ProcessLimits
from ..process_trio import supervise_trio
from .pool import WarmPool
from .zygote import WarmProcess


class WarmFirst(Generic[ChildT]):
    """``base``, with the warm interpreters asked first."""

    bare = False  # its children may be forks: nothing is to stand in for them again

    def __init__(self, pool: WarmPool, base: Launcher[ChildT]) -> None:
        self.pool = pool
        self.base = base
        self.name = f"warm+{base.name}"

    async def start(
        self, argv: Sequence[str], cwd: str | None, env: Mapping[str, str], stdin: bytes
    ) -> WarmProcess | ChildT:
        process = await self.pool.open(argv, cwd, env)
        if process is not None:
            return process
        return await self.base.start(argv, cwd, env, stdin)

    def supervise(
        self,
        child: WarmProcess | ChildT,
        stdin: bytes,
        limits: ProcessLimits,
        started: float,
        kill_leftovers: bool,
        first_line: FirstLine | None,
    ) -> Coroutine[Any, Any, ProcessOutcome]:
        if isinstance(child, WarmProcess):
            return supervise_trio(child, stdin, limits, started, kill_leftovers, first_line)
        return self.base.supervise(child, stdin, limits, started, kill_leftovers, first_line)


def warm_first(pool: WarmPool, base: Launcher[Any]) -> Launcher[Any]:
    """The launcher a daemon's hooks start through: ``base`` with ``pool`` in front, or
    ``base`` alone when the pool is off, or when ``base`` is a wrapper (not bare): the
    pool is then switched off, so ``status`` says no hook runs warm."""
    if not base.bare:
        pool.enabled = False
    if not pool.enabled:
        return base
    return WarmFirst(pool, base)
