"""The daemon's warm Python interpreters: which hook runs warm, in which zygote, and
when a zygote goes.

A zygote serves one key: the interpreter file (and its inode, size and mtime), its
``argv[0]`` and options, and the environment that fixes its start-up state. When the
interpreter's start-up runs only CPython's own code (no ``sitecustomize``, no ``.pth``
line that imports), that is the variables CPython reads as it starts (``PYTHON*``,
``LC_*``, ``LANG``, ``LANGUAGE``, ``HOME``, ``PATH``, ``TZ``); otherwise it is the whole
environment and the working directory, since such code may read anything.

A ``uv run`` hook is first turned into the Python run uv would start (``uv_envs``:
uv itself is asked once per script environment), then goes the same way.

A hook runs fresh (and ``status`` counts why) when its command is not an exact Python
shape, its key's zygote is still starting, its script's folder shadows a preloaded
module, a folder on the zygote's ``sys.path`` changed, or anything about the zygote is
off. Zygotes go after ``warm_idle_s`` unused, past ``warm_max_rss_mib``, or when more
than ``warm_max_interpreters`` are wanted (the least recently used idle one).
"""

from __future__ import annotations

import fnmatch
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import structlog
import trio

from ...settings import Settings
from ..custody import HOOK_ID_ENV, Custody
from .shapes import PythonRun, UvCommand, recognize
from .shell_env import ShellEnvironments
from .uv_envs import UvEnvironments
from .zygote import WarmProcess, Zygote, ZygoteError, preloaded_shadowed

log = structlog.get_logger("hookd.warm")

START_UP_NAMES = frozenset({"HOME", "PATH", "TZ", "LANG", "LANGUAGE"})
START_UP_PREFIXES = ("PYTHON", "LC_")
_MAX_REASONS = 64
HOUSEKEEPING_S = 5.0


def start_up_environment(env: Sequence[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """The variables CPython itself reads while it starts."""
    return tuple((k, v) for k, v in env if k in START_UP_NAMES or k.startswith(START_UP_PREFIXES))


class WarmPool:
    """Zygotes by key, the fallbacks' reasons, and their housekeeping."""

    def __init__(self, settings: Settings, custody: Custody) -> None:
        self.enabled = settings.warm_python
        self.exclude = tuple(settings.warm_python_exclude)
        self.idle_s = settings.warm_idle_s
        self.max_rss_kib = settings.warm_max_rss_mib * 1024
        self.max_zygotes = settings.warm_max_interpreters
        self.custody = custody
        self.hits = 0
        self.fallbacks: Counter[str] = Counter()
        self._zygotes: dict[tuple[object, ...], Zygote] = {}
        self._pure: dict[tuple[object, ...], bool] = {}
        """Interpreter signature -> whether its start-up runs only CPython's own code."""
        self._shells = ShellEnvironments(custody.helping)
        self.uv = UvEnvironments(custody, self._prestart)
        self._nursery: trio.Nursery | None = None
        self._started = 0

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Host the zygotes and retire the idle and the large ones, until cancelled."""
        async with trio.open_nursery() as nursery:
            await nursery.start(self.uv.run)
            self._nursery = nursery
            task_status.started()
            try:
                while True:
                    await trio.sleep(min(HOUSEKEEPING_S, max(self.idle_s / 4, 0.05)))
                    self.housekeeping()
            finally:
                self._nursery = None

    async def settled(self) -> None:
        """Wait until every probe of uv and every zygote asked for so far has its answer
        (or has started, or failed to)."""
        while True:
            await self.uv.settled()
            starting = [z for z in set(self._zygotes.values()) if not z.ready.is_set()]
            if not starting:
                return
            for zygote in starting:
                await zygote.ready.wait()

    def housekeeping(self) -> None:
        for zygote in set(self._zygotes.values()):
            if zygote.idle_s > self.idle_s:
                self._retire(zygote, "idle")
            elif zygote.ready.is_set() and zygote.rss_kib() > self.max_rss_kib:
                self._retire(zygote, "over warm_max_rss_mib")

    # what the warm layer asks (launcher.py) ---------------------------------------------
    async def open(
        self, argv: Sequence[str], cwd: str | None, env: Mapping[str, str]
    ) -> WarmProcess | None:
        """A warm child for this hook, or None: spawn it fresh (the reason is counted).
        OSError as ``open_process`` raises it for what the hook's own setup gets wrong."""
        if not self.enabled or self._nursery is None:
            return None
        found = recognize(argv, env, cwd)
        if found is None:
            return None
        if isinstance(found, str):
            return self._fallback(found)
        if any(fnmatch.fnmatch(found.file, pattern) for pattern in self.exclude):
            return self._fallback("excluded by warm_python_exclude")
        given = found.env
        if found.shell is not None:
            probed = await self._shells.given(found.shell, env, found.cwd, found.command)
            if probed is None:
                return self._fallback("the wrapper shell's environment could not be read")
            given = probed
        if isinstance(found, UvCommand):
            resolved = self.uv.python_run(found, dict(given), env.get(HOOK_ID_ENV))
            if isinstance(resolved, str):
                return self._fallback(resolved)
            found, given = resolved, resolved.env
        run = found
        key = self._key(run, given)
        if key is None:
            return self._fallback("the interpreter file changed or vanished")
        zygote = self._zygotes.get(key)
        if zygote is None:
            self._start(key, run, given)
            return self._fallback("warming up")
        why = self._unready(zygote, run)
        if why is not None:
            return self._fallback(why)
        forks = run.shell is not None and await self._shells.forks(run.shell)
        try:
            nofile = run.nofile or self.custody.hook_nofile
            child = await zygote.spawn(run, given, shell_forks=forks, nofile=nofile)
        except ZygoteError as exc:
            return self._fallback(str(exc))
        self.hits += 1
        return child

    def _unready(self, zygote: Zygote, run: PythonRun) -> str | None:
        if not zygote.ready.is_set():
            return "warming up"
        if zygote.failure is not None:
            return zygote.failure
        if zygote.retired:
            return "its warm interpreter is retiring"
        if zygote.paths_changed():
            self._retire(zygote, "a folder on sys.path changed")
            return "a folder on the interpreter's sys.path changed"
        if "-I" not in run.flags and "-P" not in run.flags:
            folder = os.path.dirname(os.path.realpath(os.path.join(run.cwd, run.script)))
            shadow = preloaded_shadowed(folder, zygote.hello.get("modules", ()))
            if shadow is not None:
                return f"the script's folder shadows the preloaded module {shadow}"
        return None

    def _prestart(self, run: PythonRun) -> None:
        """Start the zygote ``run`` will want (uv was just asked how it runs)."""
        key = self._key(run, run.env)
        if key is None or self._nursery is None:
            return
        zygote = self._zygotes.get(key)
        if zygote is not None and zygote.ready.is_set() and zygote.paths_changed():
            self._retire(zygote, "a folder on sys.path changed")  # uv synced its environment
            zygote = None
        if zygote is None:
            self._start(key, run, run.env)

    def _fallback(self, why: str) -> WarmProcess | None:
        if why in self.fallbacks or len(self.fallbacks) < _MAX_REASONS:
            self.fallbacks[why] += 1
        else:
            self.fallbacks["other"] += 1
        return None

    # zygotes ----------------------------------------------------------------------------
    def _key(self, run: PythonRun, env: Sequence[tuple[str, str]]) -> tuple[object, ...] | None:
        try:
            real = os.path.realpath(run.executable)
            info = os.stat(real)
        except OSError:
            return None
        signature = (run.executable, real, info.st_ino, info.st_size, info.st_mtime_ns,
                     run.argv0, run.flags)  # fmt: skip
        if self._pure.get(signature):
            return (*signature, start_up_environment(env))
        return (*signature, tuple((k, v) for k, v in env if k != HOOK_ID_ENV), run.cwd)

    def _start(
        self, key: tuple[object, ...], run: PythonRun, env: Sequence[tuple[str, str]]
    ) -> None:
        assert self._nursery is not None
        if len(set(self._zygotes.values())) >= self.max_zygotes:
            idle = [z for z in set(self._zygotes.values()) if not z.busy]
            if not idle:
                return
            self._retire(min(idle, key=lambda z: z.last_used), "warm_max_interpreters")
        self._started += 1
        marker = f"{self.custody.hook_prefix}warm{self._started}"
        zygote_env = {k: v for k, v in env if k != HOOK_ID_ENV}
        zygote_env[HOOK_ID_ENV] = marker
        zygote = Zygote(run, zygote_env, marker)
        self._zygotes[key] = zygote
        self.custody.hold(marker)
        self._nursery.start_soon(self._host, key, zygote)

    async def _host(self, key: tuple[object, ...], zygote: Zygote) -> None:
        try:
            async with trio.open_nursery() as nursery:
                await nursery.start(zygote.serve)
                await zygote.ready.wait()
                if zygote.process is not None:
                    self.custody.held_by(zygote.marker, zygote.process.pid)
                if zygote.failure is None:
                    zygote.stamp_paths()
                    pure = not zygote.hello.get("siteCode", True)
                    signature = key[:7]
                    self._pure[signature] = pure
                    if pure:
                        self._zygotes.setdefault(
                            (*signature, start_up_environment(tuple(zygote.env.items()))), zygote
                        )
                    log.info("zygote_ready", pid=zygote.pid, interpreter=zygote.run.executable)
                else:
                    log.info("zygote_unusable", interpreter=zygote.run.executable,
                             reason=zygote.failure)  # fmt: skip
        finally:
            self.custody.unhold(zygote.marker)
            for name, value in list(self._zygotes.items()):
                if value is zygote and (zygote.failure is None or zygote.retired):
                    del self._zygotes[name]

    def _retire(self, zygote: Zygote, why: str) -> None:
        log.info("zygote_retired", pid=zygote.pid, reason=why)
        zygote.retire()
        for name, value in list(self._zygotes.items()):
            if value is zygote:
                del self._zygotes[name]

    def view(self) -> dict[str, Any]:
        zygotes = []
        for zygote in set(self._zygotes.values()):
            zygotes.append({
                "pid": zygote.pid,
                "interpreter": zygote.run.executable,
                "flags": list(zygote.run.flags),
                "ready": zygote.ready.is_set() and zygote.failure is None,
                "unusable": zygote.failure,
                "hits": zygote.hits,
                "running": zygote.busy,
                "rssKiB": zygote.rss_kib() if zygote.ready.is_set() else 0,
            })  # fmt: skip
        return {
            "enabled": self.enabled,
            "hits": self.hits,
            "fallbacks": dict(self.fallbacks.most_common()),
            "interpreters": sorted(zygotes, key=lambda z: z["pid"] or 0),
            "uvEnvironments": self.uv.view(),
        }
