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
* **Each hook in its own cgroup, where the daemon can make one** (``cgroups.py``: a
  cgroup v2 subtree delegated to it, or writable as root). Nothing a hook starts can
  leave its cgroup, and ``cgroup.kill`` takes all of it: what the leftover policy says
  of a hook's process group, it does of the hook's cgroup. ``status`` says which custody
  is in force (``processes.custody``: ``cgroup``, ``subreaper`` or ``groups``).
* **Escapees are found.** The daemon is a child subreaper (Linux), so a descendant that
  leaves its hook's process group (``setsid``, ``set -m``, a double fork) is re-parented
  to the daemon when its parent exits, instead of to init. The daemon's children are
  checked when a hook ends and every second or so while hooks are in custody. A child
  the daemon did not start itself (its hooks' leaders, the watchdog, warm interpreters,
  its probes) is some hook's escapee: one that names its hook (its cgroup, else its
  ``HOOKD_HOOK_ID``) is killed with its whole tree once that hook is neither running nor
  within its detached time; one that names none (it cleared its environment) once every
  hook that was in custody when it was first seen is done, as none other can have made
  it. A child that is exiting, or exited, is reaped as soon as it can be (a process that
  touched gigabytes takes a while to free them: it is waited for, not forgotten). In a
  process that is not a subreaper (a test's, an embedding program's) no child is touched.
* **Nothing outlives the daemon.** A small watchdog process holds a pipe from the
  daemon and is told each hook's process group as it starts and ends, and each unnamed
  escapee as it is first seen; when the pipe closes (orderly stop, crash or ``kill -9``)
  it kills the groups and escapees still listed, every process in the hooks' cgroups,
  and every process marked with this daemon's id.
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

from ..procfs import children, environment_value, is_exiting, is_zombie, parent_of, start_time
from . import launch
from .cgroups import HookCgroups

log = structlog.get_logger("hookd.custody")

HOOK_ID_ENV = "HOOKD_HOOK_ID"
PR_SET_CHILD_SUBREAPER = 36
SWEEP_EVERY_S = 5.0
SWEEP_BUSY_S = 1.0
"""How often the daemon's children are checked while hooks are in custody: the longest
an unnamed escapee goes unseen by the watchdog (in subreaper custody)."""
CGROUP_DRAIN_S = 5.0
REAP_RETRY_S = 0.05
_WATCHDOG = Path(__file__).with_name("_watchdog.py")


class QueueTimeout(Exception):
    """The hook's timeout passed while it waited for a process slot."""


class Custody:
    """Process slots, hook ids, the subreaper sweep and the watchdog (one per daemon)."""

    def __init__(
        self, max_processes: int = 64, *, leftovers: str = "timeout", cgroups: bool = True
    ) -> None:
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
        self.use_cgroups = cgroups
        self.cgroups: HookCgroups | None = None
        """The hooks' cgroups, when the daemon could make them (``run``)."""
        self.cgroup_note: str | None = None
        """Why the hooks have no cgroups of their own, when they have none."""
        self._in_cgroup: set[str] = set()
        """Hook ids whose cgroup exists (made before the spawn, removed once empty)."""
        self._cgroups_to_remove: set[str] = set()
        self._helpers = 0
        """Processes of the daemon's own (probes) under way: until they end, a child that
        names no hook may be one of them."""
        self._unnamed: dict[tuple[int, int], frozenset[str]] = {}
        """Escapees that name no hook, (pid, start time) -> the hooks in custody when
        each was first seen: it dies once they are all done."""

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
        if not self.use_cgroups:
            self.cgroup_note = "off (hook_cgroups = false)"
        else:
            opened = HookCgroups.open(self.instance)
            if isinstance(opened, str):
                self.cgroup_note = opened
                log.info("hook_cgroups_unavailable", reason=opened)
            else:
                self.cgroups = opened
        try:
            if watchdog:
                root = str(self.cgroups.root) if self.cgroups is not None else None
                self._watchdog = await trio.to_thread.run_sync(_start_watchdog, self.instance, root)
            task_status.started()
            while True:
                changed = self._detached_changed
                soonest = min((d for _g, d in self._detached.values()), default=math.inf)
                with trio.move_on_at(min(soonest, trio.current_time() + self._pause())):
                    await changed.wait()
                self._expire(trio.current_time())
                self.sweep()
                self._reap()
                self._remove_cgroups()
        finally:
            if self.cgroups is not None:
                with suppress(OSError):  # the rest of the shutdown must run anyway
                    self.cgroups.kill()  # every hook's process, wherever it went
            self._expire(math.inf)
            guard, self._watchdog = self._watchdog, None
            if guard is not None:
                if guard.stdin is not None:
                    guard.stdin.close()  # it kills what is left and exits
                with trio.CancelScope(shield=True), trio.move_on_after(10):
                    await trio.to_thread.run_sync(guard.wait)
            self.sweep(everything=True)
            self._reap()
            with trio.CancelScope(shield=True):
                await self._close_cgroups()
            if self.subreaper:
                _set_subreaper(False)

    def _pause(self) -> float:
        """Until the next look at the daemon's children: soon while something is to be
        reaped or removed, every second while hooks are in custody, else now and then."""
        if self._to_reap or self._sweep_again or self._cgroups_to_remove:
            return REAP_RETRY_S
        if self._live or self._detached or self._unnamed:
            return SWEEP_BUSY_S
        return SWEEP_EVERY_S

    async def _close_cgroups(self) -> None:
        """At the end: wait (boundedly) for the hooks' cgroups to empty, reaping what
        dies, then remove them."""
        cgroups = self.cgroups
        if cgroups is None:
            return
        try:
            with trio.move_on_after(CGROUP_DRAIN_S):
                while not cgroups.close():
                    cgroups.kill()
                    await trio.sleep(REAP_RETRY_S)
                    self.sweep(everything=True)
                    self._reap()
                self.cgroups = None
                return
        except OSError as exc:
            log.warning("hook_cgroups_left", cgroup=str(cgroups.root), error=str(exc))
            return
        log.warning("hook_cgroups_left", cgroup=str(cgroups.root))

    @property
    def kind(self) -> str:
        """The custody in force: ``cgroup`` (each hook in a cgroup of its own, the
        subreaper too when alone in its process), ``subreaper`` (process groups and the
        adopted escapees) or ``groups`` (process groups alone)."""
        if self.cgroups is not None:
            return "cgroup"
        return "subreaper" if self.subreaper else "groups"

    def view(self) -> dict[str, Any]:
        return {
            "running": len(self._live),
            "detached": len(self._detached),
            "waiting": self.waiting,
            "max": self.max_processes,
            "escapeesKilled": self.escapees_killed,
            "escapeesHeld": len(self._unnamed),
            "custody": self.kind,
            "cgroup": str(self.cgroups.root) if self.cgroups is not None else None,
            "cgroupUnavailable": self.cgroup_note,
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
        if self.cgroups is not None:
            try:
                self.cgroups.make(self._cgroup_name(hook_id))
                self._in_cgroup.add(hook_id)
            except OSError as exc:
                log.warning("hook_cgroup_failed", step="make", error=str(exc))
        try:
            yield
        finally:
            self._starting.discard(hook_id)
            if hook_id not in self._deadlines:  # never adopted: nothing can be in it
                self._end_cgroup(hook_id, False)
            self._tell_leader_gone()

    @contextmanager
    def helping(self) -> Iterator[None]:
        """Around a process of the daemon's own that is no hook (a probe): while it runs,
        a child of the daemon that names no hook is not taken for an escapee."""
        self._helpers += 1
        try:
            yield
        finally:
            self._helpers -= 1
            if self.subreaper:
                self._sweep_again = True
                self._wake()

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
        if hook_id is None and self.cgroups is not None:
            name = self.cgroups.hook_of(pid)  # it cleared its environment: still in there
            return None if name is None else self.hook_prefix + name
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
        if hook_id in self._in_cgroup:
            assert self.cgroups is not None
            try:
                self.cgroups.place(self._cgroup_name(hook_id), pid)
            except OSError as exc:  # the subreaper custody still holds it
                log.warning("hook_cgroup_failed", step="place", error=str(exc))
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
        left = _group_alive(pid) or self._cgroup_populated(hook_id)
        if (
            hook_id is not None
            and not self.kill_leftovers
            and trio.current_time() < deadline < math.inf
            and left  # nothing left: nothing to keep (or count) until then
        ):
            self._detached[hook_id] = (pid, deadline)
            self._wake()
        else:
            if left:
                with suppress(OSError):
                    os.killpg(pid, signal.SIGKILL)  # the leader is gone: its group is not
            self._tell(f"-{pid}")
            self._depth.pop(hook_id or "", None)
            if hook_id is not None:
                self._end_cgroup(hook_id, left)
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
                self._end_cgroup(hook_id, True)
                self._tell(f"-{pgid}")
                self._sweep_again = self.subreaper  # its named escapees: now

    # cgroups ------------------------------------------------------------------------
    def _cgroup_name(self, hook_id: str) -> str:
        return hook_id[len(self.hook_prefix) :]

    def _cgroup_populated(self, hook_id: str | None) -> bool:
        if hook_id is None or hook_id not in self._in_cgroup or self.cgroups is None:
            return False
        return self.cgroups.populated(self._cgroup_name(hook_id))

    def _end_cgroup(self, hook_id: str, kill: bool) -> None:
        """Hook ``hook_id`` is done: kill what is left in its cgroup (``kill``), remove
        it now or once empty."""
        if hook_id not in self._in_cgroup or self.cgroups is None:
            return
        self._in_cgroup.discard(hook_id)
        name = self._cgroup_name(hook_id)
        try:
            if kill:
                self.cgroups.kill(name)
            if not self.cgroups.remove(name):
                self._cgroups_to_remove.add(name)
                self._wake()
        except OSError as exc:
            log.warning("hook_cgroup_failed", step="end", error=str(exc))

    def _remove_cgroups(self) -> None:
        if self.cgroups is None:
            return
        for name in list(self._cgroups_to_remove):
            try:
                if self.cgroups.remove(name):
                    self._cgroups_to_remove.discard(name)
            except OSError as exc:
                log.warning("hook_cgroup_failed", step="remove", error=str(exc))
                self._cgroups_to_remove.discard(name)

    # escapees -----------------------------------------------------------------------
    def _spawning(self) -> bool:
        """Whether a process of the daemon's own may be its child and not known yet: a
        hook's leader or a warm interpreter being started, a probe running."""
        return bool(self._starting or self._helpers or any(p is None for p in self._held.values()))

    def _named_hook(self, pid: int) -> str | None:
        """The hook (or warm interpreter) of this daemon a process names: its cgroup's,
        else its ``HOOKD_HOOK_ID``'s; None when it names none of ours."""
        if self.cgroups is not None:
            name = self.cgroups.hook_of(pid)
            if name is not None:
                return self.hook_prefix + name
        hook_id = environment_value(pid, HOOK_ID_ENV)
        return hook_id if hook_id is not None and hook_id.startswith(self.hook_prefix) else None

    def sweep(self, *, everything: bool = False) -> int:
        """Kill the trees of the daemon's children that are escapees whose hooks are done
        (``everything``: all of them), mark exited children for reaping. Returns how many
        processes were killed."""
        live_ids = set() if everything else {*self._live.values(), *self._detached, *self._starting}
        killed = 0
        self._sweep_again = False
        if not self.subreaper:
            return 0  # orphans go to init, not to us: nothing of theirs to find here
        own = {*self._live, *self._to_reap, *self._held.values()}
        if self._watchdog is not None:
            own.add(self._watchdog.pid)
        wait = self._spawning() and not everything
        unnamed_seen: set[tuple[int, int]] = set()
        for pid in children(os.getpid()):
            if pid in own:
                continue
            if is_zombie(pid) or is_exiting(pid):
                if wait:
                    # Maybe a leader that exited before it was adopted, or a probe (an
                    # exited process has no environment to tell): its runner must read
                    # its status. Later.
                    self._sweep_again = True
                    continue
                self._to_reap.add(pid)  # exited (or about to): only we can reap it
                continue
            hook_id = self._named_hook(pid)
            if hook_id is not None:
                if hook_id in live_ids:
                    continue  # a running hook's helper: dealt with when that hook ends
                if hook_id in self._held and not everything and self._warm_kept(hook_id, pid):
                    continue
            elif wait:
                self._sweep_again = True  # maybe the daemon's own, not known yet
                continue
            elif not everything and self._unnamed_kept(pid, live_ids, unnamed_seen):
                continue
            killed += _kill_tree(pid)
            self._to_reap.add(pid)
        if not wait:
            for key in set(self._unnamed) - unnamed_seen:
                del self._unnamed[key]
                self._tell(f"-t{key[0]}")
        if killed:
            self.escapees_killed += killed
            log.info("escapees_killed", processes=killed)
        return killed

    def _unnamed_kept(self, pid: int, live_ids: set[str], seen: set[tuple[int, int]]) -> bool:
        """Whether an escapee that names no hook lives on: while a hook that was in
        custody when it was first seen is still there (any of them may have made it)."""
        key = (pid, start_time(pid) or 0)
        suspects = self._unnamed.get(key)
        if suspects is None:
            suspects = frozenset(live_ids)
            if suspects:
                self._unnamed[key] = suspects
                self._tell(f"+t{pid}:{key[1]}")  # the watchdog kills it if the daemon dies
        if suspects & live_ids:
            seen.add(key)
            return True
        return False

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


def _start_watchdog(instance: str, cgroup: str | None) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-I", "-S", str(_WATCHDOG), instance, *([cgroup] if cgroup else [])],
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
