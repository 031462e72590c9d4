"""The fire-time trust check: which of a fire's hooks may run.

For every source of a fire that declares hooks for its event (or settings that decide
which hooks run):

* a settings file, hook file or named script that another user owns or that its group or
  everyone may write is **refused**, whatever the trust (also under ``trust_all``);
* a source inside a workspace (``Source.root``) runs only when that workspace is allowed
  in the trust store, every file the approval recorded is unchanged (one ``stat`` each;
  a hash only after a change), and the source, hook file or script is one the approval
  covers: otherwise it is **untrusted**, with the command that allows it.

What is not trusted does not run and does not configure (an untrusted project file's
``disableAllHooks`` cannot switch your own hooks off). The refused hooks are handed on
marked (``HookSpec.refused``) so the fire reports each one as not run and why.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..dialects.base import DialectModule
from ..model import DENIED_PREFIX, Dialect, HookSpec, Loaded, Source
from ..statcache import StatCache
from .digest import Digests, combined_digest, config_dialect, config_digest
from .files import is_system_program, unsafe_reason
from .scripts import named_files
from .store import TrustStore

MAX_LISTED = 256
"""Entries kept for ``status`` (waiting workspaces, refused files)."""


def allow_command(root: str) -> str:
    return f"hookd allow {shlex.quote(root)}"


@dataclass
class _Workspace:
    root: str
    real: str
    problem: str | None
    files: Mapping[str, str] = field(default_factory=dict)

    def recorded(self, path: str) -> str | None:
        """The approval's digest for ``path`` (a path under the fire's spelling of root)."""
        if self.real != self.root and path.startswith(self.root + os.sep):
            path = self.real + path[len(self.root) :]
        return self.files.get(path)


@dataclass(frozen=True)
class Screened:
    run: list[tuple[Source, Loaded]]
    """The fire's sources with only what may run (and configure)."""
    report: list[tuple[Source, Loaded]] | None
    """Every hook, the refused ones marked, with the run view's settings; None when
    nothing was refused."""
    notes: tuple[str, ...] = ()
    """Settings a refused source would have applied (a plugin only a project enables):
    what does not happen for want of trust, said."""


class TrustGate:
    """The trust check, with the caches that keep it to a few ``stat`` calls per fire."""

    def __init__(
        self,
        store: TrustStore,
        dialects: Mapping[Dialect, DialectModule],
        *,
        home: str,
        trust_all: bool = False,
    ) -> None:
        self.store = store
        self.dialects = dialects
        self.home = home
        self.trust_all = trust_all
        self.digests = Digests()
        self.waiting: dict[str, str] = {}
        """Workspace root -> why its hooks wait for approval (as the last fire saw it)."""
        self.refused: dict[str, str] = {}
        """File -> why it is refused (writable by others)."""
        self._real: dict[str, str] = {}
        self._configs: dict[str, StatCache[str | None]] = {}
        self._content: dict[str, tuple[Loaded, str]] = {}
        self._checked: dict[str, tuple[Loaded, str | None]] = {}
        self._fire_loaded: Sequence[tuple[Source, Loaded]] = ()
        self._fire_settings: dict[str, tuple[Source, Loaded]] | None = None

    # the check ------------------------------------------------------------------------
    def screen(self, loaded: Sequence[tuple[Source, Loaded]], event: str) -> Screened:
        workspaces: dict[str, _Workspace] = {}
        self._fire_loaded, self._fire_settings = loaded, None
        run: list[tuple[Source, Loaded]] = []
        # The report is made at the first refusal (until then it is ``run``): most fires
        # refuse nothing.
        report: list[tuple[Source, Loaded]] | None = None
        notes: list[str] = []
        for pair in loaded:
            source, content = pair
            specs = content.hooks.get(event, ())
            if not specs and not content.settings:
                run.append(pair)
                if report is not None:
                    report.append(pair)
                continue
            problem = self._source_problem(source, content, workspaces)
            if problem is not None:
                if content.settings and source.kind == "settings":
                    keys = ", ".join(sorted(content.settings))
                    notes.append(f"{source.path}: its settings ({keys}) do not apply: {problem}")
                report = run.copy() if report is None else report
                run.append((source, Loaded(error=content.error)))
                marked = tuple(replace(spec, refused=problem) for spec in specs)
                report.append((source, Loaded(hooks={event: marked}, error=content.error)))
                continue
            kept: list[HookSpec] = []
            marked_specs: list[HookSpec] = []
            for spec in specs:
                why = self._spec_problem(spec, source, workspaces)
                kept += [] if why else [spec]
                marked_specs.append(replace(spec, refused=why) if why else spec)
            if len(kept) == len(specs):
                run.append(pair)
                if report is not None:
                    report.append(pair)
                continue
            report = run.copy() if report is None else report
            run.append((source, replace(content, hooks={**content.hooks, event: tuple(kept)})))
            report.append(
                (source, replace(content, hooks={**content.hooks, event: tuple(marked_specs)}))
            )
        return Screened(run, report, tuple(notes))

    def _settings_in_fire(self) -> dict[str, tuple[Source, Loaded]]:
        """The fire's settings files by path, made only when a workspace check needs them
        (to digest what the fire read rather than read the file again)."""
        if self._fire_settings is None:
            self._fire_settings = {s.path: (s, c) for s, c in self._fire_loaded
                                   if s.kind == "settings"}  # fmt: skip
        return self._fire_settings

    def _source_problem(
        self, source: Source, content: Loaded, workspaces: dict[str, _Workspace]
    ) -> str | None:
        if source.kind == "settings":
            unsafe = self._settings_unsafe(source.path, content)
            if unsafe:
                return unsafe
        if self.trust_all or source.root is None or not _inside(source.path, source.root):
            return None  # the user's own folder (Claude's plugins): what enables it decides
        workspace = self._workspace(source.root, workspaces)
        if workspace.problem:
            return workspace.problem
        if source.kind != "settings":
            return None
        recorded = workspace.recorded(source.path)
        if recorded is None:
            return self._new(source.path, workspace)
        if config_dialect(recorded) not in (None, source.dialect.value):  # several read it
            current = self._current_config(source.path, recorded, workspace.root, workspace.real)
        else:
            current = self._content_digest(source, content)
        if current != recorded:
            return self._changed(source.path, workspace)
        return None

    def _spec_problem(
        self, spec: HookSpec, source: Source, workspaces: dict[str, _Workspace]
    ) -> str | None:
        workspace = None
        if not self.trust_all and source.root is not None:
            if source.kind == "hookdir" and not _inside(spec.source, source.root):
                return self._unsafe(spec.source)  # a plugin in the user's folder: theirs
            workspace = self._workspace(source.root, workspaces)
        if source.kind == "hookdir":
            unsafe = self._unsafe(spec.source)
            if unsafe:
                return unsafe
            if workspace is not None and workspace.recorded(spec.source) is None:
                return self._new(spec.source, workspace)
            return None
        for path, info in named_files(spec, self.home):
            unsafe = self._unsafe(path, info)
            if unsafe:
                return unsafe
            if workspace is None or is_system_program(path, info, spec.root):
                continue
            if workspace.recorded(path) is None:
                return self._new(path, workspace, what="the script")
        return None

    # workspaces ------------------------------------------------------------------------
    def _workspace(self, root: str, workspaces: dict[str, _Workspace]) -> _Workspace:
        found = workspaces.get(root)
        if found is None:
            found = workspaces[root] = self._check_workspace(root)
            if found.problem:
                self._remember(self.waiting, root, found.problem)
            else:
                self.waiting.pop(root, None)
        return found

    def _check_workspace(self, root: str) -> _Workspace:
        real = self._realpath(root)
        hint = allow_command(root)
        approval = self.store.approvals().get(real)
        if approval is None:
            why = f"untrusted: the workspace {root} has not been allowed; to allow it, run: {hint}"
            if self.store.problem:
                why = f"untrusted: {self.store.problem}"
            return _Workspace(root, real, why)
        if not approval.allowed:
            return _Workspace(
                root, real, f"{DENIED_PREFIX}the workspace {root} was denied with hookd deny "
                f"(its hooks do not run and do not block); to allow it, run: {hint}",
            )  # fmt: skip
        for path, recorded in approval.files.items():
            if config_dialect(recorded) is None:
                current = self.digests.of(path)
            else:
                current = self._current_config(path, recorded, root, real)
            if current != recorded:
                change = "was removed" if current is None else "changed"
                return _Workspace(
                    root, real, f"untrusted: {path} {change} since the workspace {root} was "
                    f"allowed; review it, then run: {hint}",
                )  # fmt: skip
        return _Workspace(root, real, None, approval.files)

    def _new(self, path: str, workspace: _Workspace, what: str = "") -> str:
        named = f"{what} {path}" if what else path
        return (
            f"untrusted: {named.strip()} is new since the workspace {workspace.root} was "
            f"allowed; review it, then run: {allow_command(workspace.root)}"
        )

    def _changed(self, path: str, workspace: _Workspace) -> str:
        return (
            f"untrusted: {path} changed since the workspace {workspace.root} was allowed; "
            f"review it, then run: {allow_command(workspace.root)}"
        )

    def _current_config(self, path: str, recorded: str, root: str, real: str) -> str | None:
        """The current digest of a settings file the approval recorded as ``recorded``:
        each dialect that read it reads it again (the fire's own reading where it has
        one), hashed together as ``hookd allow`` hashed them."""
        spelled = root + path[len(real) :] if path.startswith(real + os.sep) else path
        in_fire = self._settings_in_fire().get(spelled)
        parts: dict[str, str | None] = {}
        for dialect in (config_dialect(recorded) or "").split(","):
            if in_fire is not None and in_fire[0].dialect.value == dialect:
                parts[dialect] = self._content_digest(*in_fire)
            else:
                parts[dialect] = self._config(path, dialect)
        return combined_digest(parts)

    def _config(self, path: str, dialect: str) -> str | None:
        """The current ``config_digest`` of a settings file the approval recorded, read
        again with its dialect's reader only when its stat signature changed."""
        try:
            module = self.dialects[Dialect(dialect)]
        except ValueError:
            return None
        source = Source(module.DIALECT, "workspace", path, "settings")
        cache = self._configs.setdefault(dialect, StatCache())
        return cache.get(path, lambda: config_digest(dialect, module.load(source)))

    def _content_digest(self, source: Source, content: Loaded) -> str:
        """``config_digest`` of what the registry read (cached while it is the same)."""
        key = f"{source.dialect.value}:{source.path}"
        cached = self._content.get(key)
        if cached is not None and cached[0] is content:
            return cached[1]
        digest = config_digest(source.dialect.value, content)
        if len(self._content) > 4096:
            self._content.clear()
        self._content[key] = (content, digest)
        return digest

    def _realpath(self, root: str) -> str:
        real = self._real.get(root)
        if real is None:
            real = os.path.realpath(root)
            if len(self._real) > 4096:
                self._real.clear()
            self._real[root] = real
        return real

    # files ------------------------------------------------------------------------------
    def _settings_unsafe(self, path: str, content: Loaded) -> str | None:
        """``_unsafe`` for a settings file, without a ``stat`` while the registry hands
        the same reading of it: the registry reads a file again whenever its signature
        changes, and ``chmod``/``chown`` change its ctime."""
        cached = self._checked.get(path)
        if cached is not None and cached[0] is content:
            return cached[1]
        reason = self._unsafe(path)
        if len(self._checked) > 4096:
            self._checked.clear()
        self._checked[path] = (content, reason)
        return reason

    def _unsafe(self, path: str, info: os.stat_result | None = None) -> str | None:
        if info is None:
            try:
                info = os.stat(path)
            except (OSError, ValueError):
                return None
        reason = unsafe_reason(path, info)
        if reason is None:
            self.refused.pop(path, None)
            return None
        why = f"refused: {reason}"
        self._remember(self.refused, path, why)
        return why

    @staticmethod
    def _remember(table: dict[str, str], key: str, why: str) -> None:
        table.pop(key, None)
        table[key] = why
        while len(table) > MAX_LISTED:
            del table[next(iter(table))]

    # status -----------------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """Trust for ``status``, as it is now: a waiting workspace is checked against the
        store again (a ``hookd allow`` or ``deny`` since the last fire shows at once)."""
        for root in list(self.waiting):
            problem = self._check_workspace(root).problem
            if problem is None:
                del self.waiting[root]
            else:
                self.waiting[root] = problem
        return {
            "trustAll": self.trust_all,
            "store": self.store.path,
            "storeProblem": self.store.problem,
            "waiting": [
                {"workspace": root, "reason": why, "allow": allow_command(root)}
                for root, why in self.waiting.items()
            ],
            "refused": [{"path": path, "reason": why} for path, why in self.refused.items()],
        }


def _inside(path: str, root: str) -> bool:
    """Whether ``path`` is in the workspace ``root`` (a file the workspace's approval
    covers), rather than the user's own (a plugin under ``~/.claude``)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)
