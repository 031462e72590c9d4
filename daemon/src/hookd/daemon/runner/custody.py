"""Custody of every process a hook starts: a fair cap on how many run at once, and no
process outliving the hook (or the daemon) that started it.

* **A cap with a fair queue.** At most ``max_processes`` hook processes run at once;
  the rest wait in FIFO order (trio's ``Semaphore`` is fair), the wait counted against
  the hook's own timeout. A hook that times out in the queue "never ran", which is not
  "allowed" (see ``fire/pipeline.py``).
* **Marked processes.** Each hook process gets ``HOOKD_HOOK_ID=<daemon>:<n>`` in its
  environment, which every descendant inherits unless it clears its environment.
* **Detached work is bounded.** What a hook leaves running when it exits (``cmd &``,
  ``nohup``: the documented way to start a long task from a hook in Augment's and
  Claude's guides) lives at most until the hook's own timeout, counted from its start,
  then its group is killed (``leftover_processes = "timeout"``, the default; ``"kill"``
  kills it as soon as the hook exits). ``status`` counts it (``processes.detached``).
* **Escapees are found.** The daemon is a child subreaper (Linux), so a descendant that
  leaves its hook's process group (``setsid``, ``set -m``, a double fork) is re-parented
  to the daemon when its parent exits, instead of to init. The daemon's unknown children
  are checked when a hook ends and every few seconds: those marked by a hook that is
  neither running nor within its detached time are killed with their whole tree and
  reaped. Unmarked children are never touched (not a hook's: a test's or an embedding
  program's own processes).
* **Nothing outlives the daemon.** A small watchdog process holds a pipe from the
  daemon and is told each hook's process group as it starts and ends; when the pipe
  closes (orderly stop, crash or ``kill -9``) it kills the groups still listed and every
  process marked with this daemon's id.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import itertools
import math
import os
import secrets
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import structlog
import trio

from ..procfs import children, environment_value, is_zombie, parent_of
from . import launch

log = structlog.get_logger("hookd.custody")

HOOK_ID_ENV = "HOOKD_HOOK_ID"
PR_SET_CHILD_SUBREAPER = 36
SWEEP_EVERY_S = 5.0
REAP_RETRY_S = 0.05
_WATCHDOG = Path(__file__).with_name("_watchdog.py")


class QueueTimeout(Exception):
    """The hook's timeout passed while it waited for a process slot."""


class Custody:
    """Process slots, hook ids, the subreaper sweep and the watchdog (one per daemon)."""

    def __init__(self, max_processes: int = 64, *, leftovers: str = "timeout") -> None:
        self.instance = secrets.token_hex(6)
        self.max_processes = max_processes
        self.kill_leftovers = leftovers == "kill"
        """Kill what a hook left running in its process group as soon as it exits."""
        self._detached: dict[str, tuple[int, float]] = {}  # hook id -> (pgid, deadline)
        self._detached_changed = trio.Event()
        self._slots = trio.Semaphore(max_processes)
        self._ids = itertools.count(1)
        self._live: dict[int, str] = {}  # leader pid -> hook id
        self._deadlines: dict[str, float] = {}  # hook id -> when its leftovers must go
        self._depth: dict[str, int] = {}  # hook id -> nesting depth of its fire
        self.waiting = 0
        self.escapees_killed = 0
        self.subreaper = False
        self._watchdog: subprocess.Popen[bytes] | None = None
        self._to_reap: set[int] = set()
        self._starting: set[str] = set()
        """Hook ids whose leader is being spawned where other tasks may run meanwhile
        (the ``TRIO`` launcher: trio's ``open_process`` forks in a thread, ``launch.py``):
        the leader is our child but not adopted yet."""
        self._leader_gone = trio.Event()
        """Set (and replaced) whenever a leader is released or a spawn ends unadopted."""
        self._sweep_again = False
        self.hook_nofile: tuple[int, int] | None = None
        """The file-descriptor limit hooks get when the daemon raised its own."""
        self.launcher: launch.Launcher[Any] = launch.BASE
        """How its hooks' processes are started and watched (``launch.py``): the one
        in force, with the daemon's warm interpreters put in front at start-up."""
        self._held: dict[str, int | None] = {}
        """Warm interpreters' markers (their ``HOOKD_HOOK_ID``) -> their pids. A warm
        hook's ``/proc/PID/environ`` is its zygote's, so it carries the marker."""

    # lifecycle ----------------------------------------------------------------------
    async def run(
        self,
        *,
        watchdog: bool = True,
        subreaper: bool = True,
        task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Become a subreaper, start the watchdog and sweep now and then, until cancelled.

        Only a process that is the daemon and nothing else may be a subreaper: orphans
        then become its children, and it reaps the ones that exited. In a process that
        also runs children of its own (a test run, an embedding program) reaping could
        take another owner's child's exit status, so ``subreaper=False`` there.
        """
        self.subreaper = subreaper and _set_subreaper(True)
        if watchdog:
            self._watchdog = await trio.to_thread.run_sync(_start_watchdog, self.instance)
        try:
            task_status.started()
            while True:
                changed = self._detached_changed
                soonest = min((d for _g, d in self._detached.values()), default=math.inf)
                pause = REAP_RETRY_S if self._to_reap or self._sweep_again else SWEEP_EVERY_S
                with trio.move_on_at(min(soonest, trio.current_time() + pause)):
                    await changed.wait()
                self._expire(trio.current_time())
                self.sweep()
                self._reap()
        finally:
            self._expire(math.inf)
            guard, self._watchdog = self._watchdog, None
            if guard is not None:
                if guard.stdin is not None:
                    guard.stdin.close()  # it kills what is left and exits
                with trio.CancelScope(shield=True), trio.move_on_after(10):
                    await trio.to_thread.run_sync(guard.wait)
            self.sweep(everything=True)
            self._reap()
            if self.subreaper:
                _set_subreaper(False)

    def view(self) -> dict[str, int]:
        return {
            "running": len(self._live),
            "detached": len(self._detached),
            "waiting": self.waiting,
            "max": self.max_processes,
            "escapeesKilled": self.escapees_killed,
        }

    # one hook process -----------------------------------------------------------------
    def new_id(self, depth: int = 0) -> str:
        """A hook id for a hook of a fire nested ``depth`` deep (0: fired by an agent)."""
        hook_id = f"{self.instance}:{next(self._ids)}"
        self._depth[hook_id] = depth
        return hook_id

    def depth_of(self, hook_id: str | None) -> int | None:
        """How deeply the fire that ran ``hook_id`` was nested, while that hook (or its
        detached work) is in custody."""
        return self._depth.get(hook_id) if hook_id is not None else None

    def leaders(self) -> set[int]:
        """The process groups of running hooks and of finished hooks' detached work."""
        return {*self._live, *(pgid for pgid, _deadline in self._detached.values())}

    @property
    def hook_prefix(self) -> str:
        return self.instance + ":"

    async def take_slot(self, timeout_s: float) -> None:
        """Take one of the process slots (``release_slot`` gives it back); QueueTimeout
        when ``timeout_s`` passes first. A free slot is taken at once (the semaphore is
        fair: a slot is free only when nobody waits)."""
        try:
            self._slots.acquire_nowait()
            return
        except trio.WouldBlock:
            pass
        self.waiting += 1
        try:
            with trio.move_on_after(timeout_s) as waited:
                await self._slots.acquire()
        finally:
            self.waiting -= 1
        if waited.cancelled_caught:
            raise QueueTimeout(
                f"waited {timeout_s:.1f} s for one of hookd's {self.max_processes} process "
                "slots (max_hook_processes); every slot was busy"
            )

    def release_slot(self) -> None:
        self._slots.release()

    @contextmanager
    def starting(self, hook_id: str) -> Iterator[None]:
        """Around the spawn of a hook's leader: until it is adopted, the sweep neither
        kills it (its hook id is not live yet) nor reaps it if it exits at once (the
        exit status is its runner's to read: taking it made a denying hook "exit 0")."""
        self._starting.add(hook_id)
        try:
            yield
        finally:
            self._starting.discard(hook_id)
            self._tell_leader_gone()

    async def ended(self, hook_id: str) -> None:
        """Wait until the leader of hook ``hook_id`` is neither being spawned nor running
        (what it left behind may still be)."""
        while hook_id in self._starting or hook_id in self._live.values():
            await self._leader_gone.wait()

    def _tell_leader_gone(self) -> None:
        self._leader_gone.set()
        self._leader_gone = trio.Event()

    def hold(self, marker: str) -> None:
        """A warm interpreter marked ``marker`` is starting: the sweep leaves it alone."""
        self._held[marker] = None

    def held_by(self, marker: str, pid: int) -> None:
        self._held[marker] = pid

    def unhold(self, marker: str) -> None:
        self._held.pop(marker, None)

    def resolve(self, pid: int, hook_id: str | None) -> str | None:
        """The hook a process runs under: ``hook_id`` from its environment, unless that is
        a warm interpreter's marker (a warm hook, or what it forked without exec): then
        the hook whose leader it descends from."""
        if hook_id not in self._held:
            return hook_id
        for _step in range(64):
            if pid in self._live:
                return self._live[pid]
            parent = parent_of(pid)
            if parent is None or parent <= 1:
                return None
            pid = parent
        return None

    def adopt(self, pid: int, hook_id: str, timeout_s: float) -> None:
        """A hook's leader started (its pid is its process group); what it leaves
        behind may live until ``timeout_s`` from now."""
        self._live[pid] = hook_id
        self._deadlines[hook_id] = trio.current_time() + timeout_s
        self._tell(f"+{pid}")

    def release(self, pid: int) -> None:
        """A hook's leader was reaped: keep its leftovers until its deadline (or kill
        them, per policy), and have escapees of hooks that are done swept at once (by
        ``run``, right after: the fire's answer does not wait for the ``/proc`` scan)."""
        hook_id = self._live.pop(pid, None)
        self._tell_leader_gone()
        deadline = self._deadlines.pop(hook_id, 0.0) if hook_id else 0.0
        if (
            hook_id is not None
            and not self.kill_leftovers
            and trio.current_time() < deadline < math.inf
            and _group_alive(pid)  # nothing left: nothing to keep (or count) until then
        ):
            self._detached[hook_id] = (pid, deadline)
            self._wake()
        else:
            self._tell(f"-{pid}")
            self._depth.pop(hook_id or "", None)
        if self.subreaper:  # else orphans go to init: nothing of theirs to find here
            self._sweep_again = True
            self._wake()

    def _wake(self) -> None:
        self._detached_changed.set()
        self._detached_changed = trio.Event()

    def _expire(self, now: float) -> None:
        """Kill the leftovers of hooks whose time is up."""
        for hook_id, (pgid, deadline) in list(self._detached.items()):
            if deadline <= now:
                del self._detached[hook_id]
                self._depth.pop(hook_id, None)
                with suppress(OSError):
                    os.killpg(pgid, signal.SIGKILL)
                self._tell(f"-{pgid}")

    # escapees -----------------------------------------------------------------------
    def sweep(self, *, everything: bool = False) -> int:
        """Kill the trees of re-parented processes marked by hooks no longer running
        (``everything``: by any hook of this daemon). Returns how many were killed."""
        live_ids = set() if everything else {*self._live.values(), *self._detached, *self._starting}
        killed = 0
        self._sweep_again = False
        if not self.subreaper:
            return 0  # orphans go to init, not to us: nothing of theirs to find here
        watchdog = self._watchdog.pid if self._watchdog is not None else None
        for pid in children(os.getpid()):
            if pid in self._live or pid in self._to_reap or pid == watchdog:
                continue
            if is_zombie(pid):
                if self._starting and not everything:
                    # Maybe a leader that exited before it was adopted (a zombie has no
                    # environment to tell): its runner must read its status. Later.
                    self._sweep_again = True
                    continue
                self._to_reap.add(pid)  # an orphan that exited: only we can reap it
                continue
            hook_id = environment_value(pid, HOOK_ID_ENV)
            if hook_id is None or not hook_id.startswith(self.instance + ":"):
                continue  # not a hook's: never ours to touch
            if hook_id in live_ids:
                continue  # a running hook's helper: dealt with when that hook ends
            if hook_id in self._held and not everything and self._warm_kept(hook_id, pid):
                continue
            killed += _kill_tree(pid)
            self._to_reap.add(pid)
        if killed:
            self.escapees_killed += killed
            log.info("escapees_killed", processes=killed)
        return killed

    def _warm_kept(self, marker: str, pid: int) -> bool:
        """A warm interpreter itself, or a process a warm hook forked without exec (it
        carries the interpreter's marker) still in a running hook's process group."""
        return self._held[marker] in (None, pid) or _group_of(pid) in self.leaders()

    def _reap(self) -> None:
        for pid in list(self._to_reap):
            try:
                done, _status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done = pid  # reaped elsewhere or not our child any more
            if done:
                self._to_reap.discard(pid)

    def _tell(self, line: str) -> None:
        watchdog = self._watchdog
        if watchdog is None or watchdog.stdin is None:
            return
        try:
            os.write(watchdog.stdin.fileno(), line.encode() + b"\n")  # wakes it not
        except OSError as exc:
            log.warning("watchdog_lost", error=str(exc))
            self._watchdog = None


def _group_of(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except OSError:
        return None


def _group_alive(pgid: int) -> bool:
    """Whether any process is left in the process group (signal 0 tests, sends nothing)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _start_watchdog(instance: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-I", "-S", str(_WATCHDOG), instance],
        stdin=subprocess.PIPE,
        start_new_session=True,  # a Ctrl-C in the daemon's terminal must not end it
    )


def _set_subreaper(on: bool) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0) != 0:
        log.warning("subreaper_unavailable", errno=ctypes.get_errno())
        return False
    return on


def _kill_tree(pid: int) -> int:
    """SIGKILL ``pid``, its process group and every descendant; how many were signalled."""
    tree = [pid]
    index = 0
    while index < len(tree):
        tree += children(tree[index])
        index += 1
    own_group = os.getpgrp()
    for member in tree:
        try:
            group = os.getpgid(member)
            if group != own_group:
                os.killpg(group, signal.SIGKILL)
        except OSError:
            pass
        with suppress(OSError):
            os.kill(member, signal.SIGKILL)
    return len(tree)
