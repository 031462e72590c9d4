"""The warm registry: every hook source of every known workspace root, always current.

Two mechanisms keep it right:

* the watcher (``watcher.py``) re-reads sources as soon as inotify reports a change, so
  ``hooks/list`` and ``status`` show the current hooks and errors without any fire;
* ``hooks_for`` re-checks the few sources one fire needs with ``stat`` before using them
  (read-your-writes): a fire issued right after a write runs exactly the hooks that exist
  then, even if the watcher has not reported yet. A settings file is re-parsed only when
  its stat signature changed or it was modified within a timestamp tick of our last read
  (two writes inside one tick look identical to ``stat``; git calls these "racy").

It is plain synchronous code on the trio thread: no locks, no I/O besides ``stat`` and
small reads, and nothing per fire that grows with the number of registered hooks.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

import structlog

from ..dialects import relay_entries
from ..dialects.base import DialectModule
from ..dialects.portable import PortableModule, coverage, portable_sources
from ..model import Dialect, FireRequest, HookSpec, Loaded, Source
from ..racy import is_racy
from ..safe_read import HookdLimitReached
from ..settings import Settings
from ..trust.gate import TrustGate

log = structlog.get_logger("hookd.registry")
Signature = tuple[int, int, int, int]
SourceKey = tuple[str, str]
"""(dialect, path): a source's key in the registry's tables."""


@dataclass(frozen=True, slots=True)
class _Plan:
    """What a fire of one (dialect, roots, extra hook dirs) reads, built once: its sources
    in order, each with its key, and the registered hook directories among them (a first
    sight counts them for ``status``). Only names and paths: nothing read from disk."""

    sources: tuple[tuple[Source, SourceKey], ...]
    hookdirs: tuple[tuple[Source, SourceKey], ...]


@dataclass
class SourceState:
    """What we last read from one settings file."""

    source: Source
    signature: Signature | None = None
    loaded: Loaded = field(default_factory=Loaded)
    error: str | None = None
    loads: int = 0
    read_at_ns: int = 0
    hookd_limit: bool = False
    absent: bool = False
    """Not there when last looked at (no hooks, no error): nothing to redo while it
    stays away."""


class Registry:
    """Hooks by dialect, source and event for the workspace roots hookd knows.

    ``dialects`` is the dialect table (``all_dialects.DIALECTS``), handed in by the
    daemon so that the registry reads every dialect's sources without importing them.
    """

    def __init__(
        self,
        settings: Settings,
        dialects: Mapping[Dialect, DialectModule],
        trust: TrustGate | None = None,
        portable: Mapping[Dialect, PortableModule] | None = None,
    ) -> None:
        self.settings = settings
        self.dialects = dialects
        self.portable = portable or {}
        """Each agent's portable mapping (``all_dialects.PORTABLE``): where a portable hook
        runs, for ``listing``."""
        self.trust = trust
        """The fire-time trust check (the daemon always has one; None: every hook runs)."""
        self._roots: dict[str, float] = {}
        """Each known root and when a fire (or ``roots/add``) last named it
        (``time.monotonic()``), to forget the roots nobody uses any more."""
        self.roots_forgotten = 0
        self._states: dict[tuple[str, str], SourceState] = {}
        self._sources_cache: dict[tuple[Dialect, tuple[str, ...]], list[Source]] = {}
        self._plans: dict[tuple[Dialect, tuple[str, ...], tuple[str, ...], bool], _Plan] = {}
        self._dir_counts: dict[tuple[str, str], int] = {}
        self._dir_errors: dict[tuple[str, str], str] = {}
        """The last error of each hook directory (a plugin's broken hooks.json, a
        drop-in, a subagent definition), for ``status`` as settings files' errors are."""
        self._index: dict[str, list[Source]] | None = None
        self._hookdir_index: dict[str, list[Source]] | None = None
        """Hooks per hook directory, kept by ``rescan``/``refresh`` for ``summary``."""

    # roots -------------------------------------------------------------------------
    @property
    def roots(self) -> list[str]:
        return list(self._roots)

    def add_roots(self, roots: Iterable[str]) -> bool:
        """Remember roots (from a fire or ``roots/add``) and when they were named; True
        when the set of roots changed. Past ``max_roots`` the roots named least recently
        are forgotten (not these)."""
        now = time.monotonic()
        named = list(roots)
        new = [root for root in named if root not in self._roots]
        for root in named:
            self._roots[root] = now
        if not new:
            return False
        self._index = None
        limit = self.settings.max_roots
        if len(self._roots) > limit:
            # Down to 90% at once: forgetting costs a pass over every source, so it is
            # paid once per tenth of the cap, not on every new root past it.
            excess = len(self._roots) - max(limit - limit // 10, 1)
            keep = set(named)
            oldest = sorted((t, r) for r, t in self._roots.items() if r not in keep)
            self._forget([root for _t, root in oldest[:excess]], "max_roots")
        return True

    def forget_idle_roots(self, idle_s: float) -> list[str]:
        """Forget the roots no one has named for ``idle_s`` seconds; the forgotten ones.

        Their folders stop being watched and their cached state is dropped; a later fire
        naming one adds it back (and checks its sources at fire time anyway)."""
        cutoff = time.monotonic() - idle_s
        idle = [root for root, named in self._roots.items() if named < cutoff]
        if idle:
            self._forget(idle, "idle")
        return idle

    def _forget(self, roots: list[str], why: str) -> None:
        self.remove_roots(roots)
        self.roots_forgotten += len(roots)
        log.info("roots_forgotten", count=len(roots), why=why, left=len(self._roots))

    def remove_roots(self, roots: Iterable[str]) -> bool:
        removed = [root for root in roots if root in self._roots]
        for root in removed:
            del self._roots[root]
        if removed:
            self._index = None
            keep = {s.path for s in self.all_sources()}
            self._states = {k: v for k, v in self._states.items() if k[1] in keep}
        return bool(removed)

    # sources -----------------------------------------------------------------------
    def sources_for(self, dialect: Dialect, roots: Sequence[str]) -> list[Source]:
        key = (dialect, tuple(roots))
        cached = self._sources_cache.get(key)
        if cached is None:
            module = self.dialects[dialect]
            cached = module.sources(self.settings.home, self.settings.system_root, roots)
            if len(self._sources_cache) > 4096:
                self._sources_cache.clear()
            self._sources_cache[key] = cached
        return cached

    def all_sources(self) -> list[Source]:
        """Every source of every dialect for every known root, without duplicates."""
        seen: dict[tuple[str, str], Source] = {}
        root_sets: list[list[str]] = [[root] for root in self._roots] or [[]]
        for dialect in self.dialects:
            if dialect.value in self.settings.disabled_dialects:
                continue
            for roots in root_sets:
                for source in self.sources_for(dialect, roots):
                    seen.setdefault((dialect.value, source.path), source)
        for roots in root_sets:
            for source in portable_sources(self.settings.home, roots):
                seen.setdefault((source.dialect.value, source.path), source)
        return list(seen.values())

    # reading -----------------------------------------------------------------------
    def current(self, source: Source) -> Loaded:
        """The source's hooks as they are on disk now (settings files are cached)."""
        if source.kind == "hookdir":
            return self._count_dir(source)  # what a fire saw, status shows at once
        return self._fresh(source).loaded

    def _state(self, source: Source, key: SourceKey | None = None) -> SourceState:
        if key is None:
            key = (source.dialect, source.path)  # a StrEnum: the same key as its value's
        state = self._states.get(key)
        if state is None:
            state = self._states[key] = SourceState(source)
        return state

    def _fresh(self, source: Source, key: SourceKey | None = None) -> SourceState:
        state = self._state(source, key)
        signature = _signature(source.path)
        if signature is None:
            if state.absent:
                return state  # still absent (as most sources of a fire are)
        elif signature == state.signature and not is_racy(
            max(signature[0], signature[1]), state.read_at_ns
        ):
            return state
        return self._reload(state, signature)

    def _reload(self, state: SourceState, signature: Signature | None) -> SourceState:
        state.signature = signature
        state.read_at_ns = time.time_ns()
        state.absent = signature is None
        if signature is None:
            state.loaded, state.error = Loaded(), None
            return state
        loaded = _load(self.dialects[state.source.dialect], state.source)
        state.loads += 1
        if loaded.error and loaded.error != state.error:
            log.warning("hook_source_error", source=state.source.path, error=loaded.error)
        state.error = loaded.error
        state.hookd_limit = loaded.hookd_limit
        if loaded.hookd_limit:
            state.signature = None  # not the file's fault: read it again next time
        if loaded.unreadable:
            # Keep the last good hooks of this file (a typo must not switch a policy hook
            # off); the error is shown in status. A dialect may narrow what they keep.
            module = self.dialects[state.source.dialect]
            hooks = module.kept_after_error(state.loaded.hooks)
            state.loaded = replace(state.loaded, hooks=hooks, error=loaded.error, unreadable=True)
        else:
            state.loaded = loaded
        return state

    def refresh(self, changed_paths: Iterable[str]) -> int:
        """Re-read the sources a watcher batch may have touched; returns how many.

        A changed path matters when it is a source or one of its ancestors (a folder
        created, deleted or renamed); one dict lookup each, so a build writing thousands
        of files into a workspace root costs next to nothing.
        """
        index = self._ancestor_index()
        touched: dict[tuple[str, str], Source] = {}
        for changed in changed_paths:
            path = os.path.normpath(changed)
            folder = os.path.dirname(path)
            # The path is a source or an ancestor of one; or it is a file created or
            # deleted inside a hook directory, which changes that directory.
            candidates = [*index.get(path, ()), *self._hookdirs().get(folder, ())]
            for source in candidates:
                touched[(source.dialect.value, source.path)] = source
        for source in touched.values():
            if source.kind == "hookdir":
                self._count_dir(source)
            else:
                self._reload(self._state(source), _signature(source.path))
        return len(touched)

    def _hookdirs(self) -> dict[str, list[Source]]:
        """Hook-directory sources by their own path, for ``refresh``."""
        self._ancestor_index()
        assert self._hookdir_index is not None
        return self._hookdir_index

    def _ancestor_index(self) -> dict[str, list[Source]]:
        """Each source under its own path and every ancestor path, for ``refresh``."""
        if self._index is None:
            index: dict[str, list[Source]] = {}
            hookdirs: dict[str, list[Source]] = {}
            for source in self.all_sources():
                if source.kind == "hookdir":
                    hookdirs.setdefault(source.path, []).append(source)
                path = source.path
                while True:
                    index.setdefault(path, []).append(source)
                    parent = os.path.dirname(path)
                    if parent == path:
                        break
                    path = parent
            self._index, self._hookdir_index = index, hookdirs
        return self._index

    def rescan(self) -> int:
        """Bring every source of every known root up to date; how many settings changed."""
        before = sum(state.loads for state in self._states.values())
        sources = self.all_sources()
        for source in sources:
            if source.kind == "settings":
                self._fresh(source)
            else:
                self._count_dir(source)
        keep = {(s.dialect.value, s.path) for s in sources}
        self._dir_counts = {k: v for k, v in self._dir_counts.items() if k in keep}
        self._dir_errors = {k: v for k, v in self._dir_errors.items() if k in keep}
        return sum(state.loads for state in self._states.values()) - before

    def _count_dir(self, source: Source) -> Loaded:
        """Read a hook directory and keep its hook count for ``summary``."""
        loaded = _load(self.dialects[source.dialect], source)
        self._dir_counts[(source.dialect.value, source.path)] = sum(
            len(specs) for specs in loaded.hooks.values()
        )
        self._note_dir_error(source, loaded)
        return loaded

    def _note_dir_error(self, source: Source, loaded: Loaded, key: SourceKey | None = None) -> None:
        if key is None:
            key = (source.dialect.value, source.path)
        if loaded.error:
            self._dir_errors[key] = loaded.error
        elif key in self._dir_errors:
            del self._dir_errors[key]

    def summary(self) -> dict[str, Any]:
        """Counts for ``status``: from what the watcher keeps current, no disk access.

        ``hooks/list`` reads every source instead; fires always check their own sources.
        """
        by_dialect: dict[str, int] = {}
        for (dialect, _path), state in self._states.items():
            count = sum(len(specs) for specs in state.loaded.hooks.values())
            if count:
                by_dialect[dialect] = by_dialect.get(dialect, 0) + count
        for (dialect, _path), count in self._dir_counts.items():
            if count:
                by_dialect[dialect] = by_dialect.get(dialect, 0) + count
        return {
            "roots": self.roots,
            "hooks": {"total": sum(by_dialect.values()), "byDialect": by_dialect},
            "errors": self.source_errors(),
        }

    def hooks_for(
        self, request: FireRequest, module: DialectModule
    ) -> tuple[list[HookSpec], list[str], list[str]]:
        """The hooks one fire runs, in declaration order, warnings to report, and the
        sources hookd could not read because of its own limits (their hooks never ran)."""
        loaded, warnings, unread = self.loaded_for(request, module)
        specs, warnings = self.select(loaded, request, module, warnings)
        return specs, warnings, unread

    def select(
        self,
        loaded: list[tuple[Source, Loaded]],
        request: FireRequest,
        module: DialectModule,
        warnings: list[str],
    ) -> tuple[list[HookSpec], list[str]]:
        """The hooks of ``loaded`` that ``request`` runs (trust checked), numbered in
        declaration order, and the warnings so far with the selection's own."""
        if self.trust is None:
            specs, selection_warnings = module.select(loaded, request)
        else:
            specs, selection_warnings = self._trusted(loaded, request, module, warnings)
        ordered = [spec if spec.order == index else replace(spec, order=index)
                   for index, spec in enumerate(specs)]  # fmt: skip
        return ordered, warnings + selection_warnings

    def loaded_for(
        self, request: FireRequest, module: DialectModule, *, portable: bool = False
    ) -> tuple[list[tuple[Source, Loaded]], list[str], list[str]]:
        """What each of one fire's sources declares (current, read as the fire reads it),
        the sources' errors as warnings, and those hookd could not read (its own limits):
        what ``hooks_for`` selects from, and what ``hooks/explain`` goes through.
        ``portable``: the portable hook files of the fire's roots instead of the
        dialect's own sources (``request`` then names a shared event)."""
        unread: list[str] = []
        loaded: list[tuple[Source, Loaded]] = []
        warnings: list[str] = []
        plan = self._plan(request, portable)
        for source, key in plan.hookdirs:
            if key not in self._dir_counts:
                self._count_dir(source)  # first sight (a new root): status counts it now
        for source, key in plan.sources:
            if source.kind == "hookdir":
                content = _load_event(module, source, request.event)  # errors: the dialect's select
                self._note_dir_error(source, content, key)
                if content.hookd_limit and content.error:
                    unread.append(content.error)
            else:
                state = self._fresh(source, key)
                content = state.loaded
                if state.error:
                    warnings.append(_error_warning(state))
                if state.hookd_limit and state.error:
                    unread.append(state.error)
            loaded.append((source, content))
        return loaded, warnings, unread

    def _plan(self, request: FireRequest, portable: bool = False) -> _Plan:
        """The fire's sources (the request's extra hook directories first), cached by
        everything they are made of: the dialect, the roots and the extra directories."""
        plan_key = (request.dialect, request.roots, request.extra_hook_dirs, portable)
        plan = self._plans.get(plan_key)
        if plan is None:
            extra = [
                Source(request.dialect, "hooks-dir", path, "hookdir")
                for path in request.extra_hook_dirs
                if not portable
            ]
            if portable:
                registered = portable_sources(self.settings.home, request.roots)
            else:
                registered = self.sources_for(request.dialect, request.roots)
            keyed = tuple((source, _key(source)) for source in extra + registered)
            plan = _Plan(keyed, tuple(pair for pair in keyed[len(extra) :]
                                      if pair[0].kind == "hookdir"))  # fmt: skip
            if len(self._plans) > 4096:
                self._plans.clear()
            self._plans[plan_key] = plan
        return plan

    def _trusted(
        self,
        loaded: list[tuple[Source, Loaded]],
        request: FireRequest,
        module: DialectModule,
        warnings: list[str],
    ) -> tuple[list[HookSpec], list[str]]:
        """The hooks the trust check lets run, then those it refused (marked, so the fire
        reports them as not run), each as the dialect would have selected it."""
        assert self.trust is not None
        screened = self.trust.screen(loaded, request.event)
        warnings += screened.notes
        specs, selection_warnings = module.select(screened.run, request)
        if screened.report is None:
            return specs, selection_warnings
        would_run, _ = module.select(screened.report, request)
        running = {(spec.event, spec.command) for spec in specs}
        refused = [
            replace(spec, background=False)
            for spec in would_run
            if spec.refused is not None and (spec.event, spec.command) not in running
        ]
        for why in dict.fromkeys(spec.refused for spec in refused if spec.refused):
            warnings.append(f"hooks not run: {why}")
        return specs + refused, selection_warnings

    # views -------------------------------------------------------------------------
    def listing(self, roots: Sequence[str] | None = None) -> dict[str, Any]:
        """Every hook of ``roots`` (default: every known root) and of the user and system
        places, with its source and layer, and every source's error.

        Each root's sources are read together, as a fire of that root reads them, so a
        hook folder read per root (Claude's plugins: which are installed depends on the
        project) gives that root's hooks, and the dialect can mark what it would run on
        no payload (``off``: a plugin installed but not enabled). A hook several roots
        share (a user-scope plugin, a user settings file) is listed once."""
        hooks: dict[tuple[Any, ...], dict[str, Any]] = {}
        errors: dict[tuple[str, str, str], dict[str, str]] = {}
        wanted = self._roots if roots is None else roots
        root_sets: list[list[str]] = [[root] for root in wanted] or [[]]
        for dialect, module in self.dialects.items():
            if dialect.value in self.settings.disabled_dialects:
                continue
            for root_set in root_sets:
                loaded = [(s, self.current(s)) for s in self.sources_for(dialect, root_set)]
                off = {id(spec): why for spec, why in module.switched_off(loaded)}
                for source, content in loaded:
                    if content.error:
                        error = {"dialect": dialect.value, "source": source.path,
                                 "error": content.error}  # fmt: skip
                        errors.setdefault((dialect.value, source.path, content.error), error)
                    for event, specs in content.hooks.items():
                        for spec in specs:
                            key = (dialect.value, event, spec.source, spec.command,
                                   spec.matcher, spec.condition)  # fmt: skip
                            if key not in hooks:
                                hooks[key] = {**_describe(spec, event), "off": off.get(id(spec)),
                                              "portable": None}  # fmt: skip
        self._list_portable(root_sets, hooks, errors)
        return {"roots": self.roots, "hooks": list(hooks.values()),
                "errors": list(errors.values())}  # fmt: skip

    def _list_portable(
        self,
        root_sets: list[list[str]],
        hooks: dict[tuple[Any, ...], dict[str, Any]],
        errors: dict[tuple[str, str, str], dict[str, str]],
    ) -> None:
        """The portable files' hooks, each with the agents it runs in and where it cannot."""
        for root_set in root_sets:
            for source in portable_sources(self.settings.home, root_set):
                content = self.current(source)
                if content.error:
                    error = {"dialect": "claude", "source": source.path, "error": content.error}
                    errors.setdefault(("portable", source.path, content.error), error)
                for event, specs in content.hooks.items():
                    for spec in specs:
                        key = ("portable", event, spec.source, spec.command, spec.matcher,
                               spec.condition)  # fmt: skip
                        if key not in hooks:
                            where = coverage(self.portable, event, spec.matcher)
                            hooks[key] = {**_describe(spec, event), "off": None, "portable": where}

    def watch_targets(self) -> set[str]:
        """Directories to watch (non-recursively) so that every source's change is seen.

        For each source: the directory that holds it (or that is it), plus its parent
        so that the directory's own deletion and re-creation is seen; when it does not
        exist yet, its nearest existing ancestor, so that its creation is seen.
        """
        targets: set[str] = set()
        for source in self.all_sources():
            folder = source.path if source.kind == "hookdir" else os.path.dirname(source.path)
            if os.path.isdir(folder):
                targets.add(folder)
                parent = os.path.dirname(folder)
                if os.path.isdir(parent):
                    targets.add(parent)
            else:
                ancestor = _existing_ancestor(folder)
                if ancestor is not None:
                    targets.add(ancestor)
        return targets

    def source_errors(self) -> list[dict[str, str]]:
        files = [
            {"dialect": s.source.dialect.value, "source": s.source.path, "error": s.error}
            for s in self._states.values()
            if s.error
        ]
        folders = [
            {"dialect": dialect, "source": path, "error": error}
            for (dialect, path), error in self._dir_errors.items()
        ]
        return files + folders


def _key(source: Source) -> SourceKey:
    return (source.dialect.value, source.path)


def _load(module: DialectModule, source: Source) -> Loaded:
    """The dialect's reading of a source. A file no reader foresaw (a bug in hookd) is
    that file's error, never a fire's or the watcher's: the daemon keeps serving."""
    try:
        return module.load(source)
    except HookdLimitReached as exc:
        return Loaded(error=str(exc), unreadable=True, hookd_limit=True)
    except Exception as exc:
        log.exception("hook_source_unreadable", source=source.path)
        return Loaded(error=f"{source.path}: hookd could not read it ({exc!r})", unreadable=True)


def _load_event(module: DialectModule, source: Source, event: str) -> Loaded:
    """One event's hooks of a hook directory, guarded like ``_load``."""
    try:
        found = module.load_event(source, event)
    except HookdLimitReached as exc:
        return Loaded(error=str(exc), unreadable=True, hookd_limit=True)
    except Exception as exc:
        log.exception("hook_source_unreadable", source=source.path)
        return Loaded(error=f"{source.path}: hookd could not read it ({exc!r})", unreadable=True)
    if isinstance(found, Loaded):
        return found
    return Loaded(hooks={event: found}) if found else _NO_HOOKS


_NO_HOOKS = Loaded(hooks=MappingProxyType({}), settings=MappingProxyType({}))
"""A hook directory with no hook for the event (most of them, on most fires): one shared
reading, read-only, rather than a new one per folder and fire."""


def _signature(path: str) -> Signature | None:
    try:
        info = os.stat(path)
    except (OSError, ValueError):  # ValueError: a path the OS cannot take
        return None
    return (info.st_mtime_ns, info.st_ctime_ns, info.st_size, info.st_ino)


def _existing_ancestor(path: str) -> str | None:
    current = os.path.dirname(path)
    while current and not os.path.isdir(current):
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent
    return current or None


def _error_warning(state: SourceState) -> str:
    """The source's error and what of it runs: a file that no longer parses keeps the
    hooks it had before the error; one that parsed runs the handlers it could load."""
    count = sum(len(hooks) for hooks in state.loaded.hooks.values())
    if not count:
        return f"{state.error} (none of its hooks run)"
    if state.loaded.unreadable:
        return f"{state.error} (its last good hooks run: {count} from before this error)"
    return f"{state.error} (its other {count} hook(s) run)"


def _describe(spec: HookSpec, event: str) -> dict[str, Any]:
    return {
        "dialect": spec.dialect.value,
        "event": event,
        "layer": spec.layer,
        "source": spec.source,
        "command": spec.command,
        "matcher": spec.matcher,
        "if": spec.condition,
        "timeoutMs": round(spec.timeout_s * 1000),
        "root": spec.root,
        "relay": relay_entries.is_relay_spec(spec),
    }
