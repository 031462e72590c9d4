"""The launcher seam: how a hook's process is started, and watched to its end, chosen once.

Modelled on trio's ``_subprocess_platform``: what the system can do is found out once, at
import, never per hook. A :class:`Launcher` names everything the runner asks of one:

* ``start(argv, cwd, env, stdin)``: the hook's process, in its own session with three
  pipes (``stdin`` is its whole payload: a launcher may write it before the start), or
  ``OSError`` as ``subprocess.Popen`` raises it (``spawn.CannotWatch``: it started but
  could not be watched, so it was killed and never ran);
* ``supervise(child, stdin, limits, started, kill_leftovers, first_line)``: run what
  ``start`` returned to completion under ``limits`` and describe it (``process.py``'s
  rules: capped output, bounded drain, group kills, shielded cleanup);
* ``name`` (reported: ``lean``, ``trio``, ``warm+lean``...) and ``bare``: whether it
  starts the process as it is, nothing around it. Only then may a warm interpreter's
  fork stand in for a process it would start.

The platform launchers: ``LEAN`` (Linux 5.3 and later, with epoll: ``spawn.start_child``,
``subprocess.Popen`` on the event loop's thread with a pidfd, watched by
``supervise.supervise``, one epoll set per hook) and ``TRIO`` (elsewhere, and kernels
without pidfds: trio's ``open_process``, watched by ``process_trio.supervise_trio``, a
task per stream). ``BASE`` is the one in force. A daemon puts its warm Python
interpreters in front of it at start-up (``warm/launcher.py``: a hook a zygote takes is
forked by it, anything else falls through to ``BASE``) and hands the result down in
``Custody.launcher``; ``process.run_hook_process`` starts every hook through its
custody's launcher, or through ``BASE`` without a custody (tests, an embedding program).

Hooks' cgroups are not a wrapper: custody moves each hook's leader into its cgroup
right after any launcher's ``start`` (``custody.Custody.adopt``, ``cgroups.py``), since a
running process can be moved into a cgroup (not into a namespace), warm forks included.

To add a wrapper (a sandbox, limits): write a ``Launcher`` that holds the launcher it
wraps, does its part around the wrapped ``start`` (and ``supervise``, if it must) and
says ``bare = False``; then make ``BASE`` below that wrapper around ``USABLE[0]``. Every
hook process then starts through it. A wrapper does not wrap warm forks: a zygote's
child inherits the zygote's namespaces, cgroup and limits, set when the zygote started
outside any hook, and a sandbox cannot be put around a process after it started; so the
warm layer steps aside (and ``status`` shows ``warmPython.enabled`` false) whenever
``BASE`` is not bare, and every hook starts fresh through the wrapper.
"""

from __future__ import annotations

import os
import select
import sys
from collections.abc import Coroutine, Mapping, Sequence
from typing import Any, Protocol, TypeVar

import trio

from ..model import ProcessOutcome
from .output import FirstLine, ProcessLimits
from .process_trio import open_hook_process, supervise_trio
from .spawn import HookChild, start_child
from .supervise import supervise as supervise_lean

__all__ = ["BASE", "LEAN", "TRIO", "USABLE", "ChildT", "Launcher", "Started"]


class Started(Protocol):
    """What the runner itself needs of a started hook process (the rest is its
    launcher's): its pid, which is its process group's id (it leads its own session)."""

    @property
    def pid(self) -> int: ...


ChildT = TypeVar("ChildT", bound=Started)


class Launcher(Protocol[ChildT]):
    """How hook processes are started and watched to their end (see the module's doc)."""

    name: str
    bare: bool

    async def start(
        self, argv: Sequence[str], cwd: str | None, env: Mapping[str, str], stdin: bytes
    ) -> ChildT:
        """Start ``argv`` in its own session with three pipes; ``OSError`` if it cannot."""
        ...

    def supervise(
        self,
        child: ChildT,
        stdin: bytes,
        limits: ProcessLimits,
        started: float,
        kill_leftovers: bool,
        first_line: FirstLine | None,
    ) -> Coroutine[Any, Any, ProcessOutcome]:
        """Run ``child`` to completion and describe it (``started``: when the hook was
        asked for, ``perf_counter``; ``kill_leftovers``: kill its group once it exits)."""
        ...


class _Lean:
    """Popen on the event loop's thread, a pidfd, one epoll set (``spawn``, ``supervise``)."""

    name = "lean"
    bare = True

    async def start(
        self, argv: Sequence[str], cwd: str | None, env: Mapping[str, str], stdin: bytes
    ) -> HookChild:
        return start_child(argv, cwd, env, stdin)

    supervise = staticmethod(supervise_lean)


class _Trio:
    """trio's ``open_process`` and a task per stream (``process_trio``)."""

    name = "trio"
    bare = True
    start = staticmethod(open_hook_process)
    supervise = staticmethod(supervise_trio)


def _has_pidfd() -> bool:
    """Whether the kernel gives pidfds (Linux 5.3 and later; Python has the call anyway)
    and the system has epoll: what ``LEAN`` needs."""
    if not (sys.platform.startswith("linux") and hasattr(select, "epoll")):
        return False
    try:
        os.close(os.pidfd_open(os.getpid()))
    except (AttributeError, OSError):  # ENOSYS on older kernels (and under valgrind)
        return False
    return True


LEAN: Launcher[HookChild] = _Lean()
TRIO: Launcher[trio.Process] = _Trio()
USABLE: tuple[Launcher[Any], ...] = (LEAN, TRIO) if _has_pidfd() else (TRIO,)
"""The platform launchers this system can run, the one to use first."""
BASE: Launcher[Any] = USABLE[0]
"""The launcher in force: chosen here, once. A wrapper goes around ``USABLE[0]`` here."""
