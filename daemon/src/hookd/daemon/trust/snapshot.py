"""What ``hookd allow DIR`` records: every hook configuration file inside the workspace
(all dialects), every hook file of the hook-folder dialects, and every script a settings
hook's command names, each with its digest.

It reads the files with the dialects' own readers, exactly as the daemon does, so that a
fire can compare what it is about to run with what was allowed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..dialects import relay_entries
from ..dialects.base import DialectModule
from ..dialects.portable import portable_sources
from ..model import Dialect, HookSpec
from .digest import combined_digest, config_digest, file_digest
from .files import is_system_program, unsafe_reason
from .scripts import named_files


@dataclass
class Snapshot:
    root: str
    files: dict[str, str] = field(default_factory=dict)
    """Path -> digest: the approval."""
    hooks: list[tuple[str, str, str]] = field(default_factory=list)
    """(dialect, event, command) of every hook allowed, for the person to read."""
    relays: list[tuple[str, str, str]] = field(default_factory=list)
    """The same of hookd's own relay entries there: hashed with their files, but no hook
    (hookd never runs one; the agent runs it and it runs the adopted hooks)."""
    refused: list[str] = field(default_factory=list)
    """Files that will be refused anyway (writable by others), with the reason."""
    problems: list[str] = field(default_factory=list)
    """What the dialects' readers said of these files (invalid JSON, a handler they cannot
    load): the person sees it before trusting, since what runs is less than they wrote."""


def snapshot(
    dialects: Mapping[Dialect, DialectModule], home: str, system_root: str, root: str
) -> Snapshot:
    """Every workspace-level hook file of ``root`` (a real, absolute path) with its digest."""
    taken = Snapshot(root)
    configs: dict[str, dict[str, str | None]] = {}
    claude = dialects[Dialect.CLAUDE]  # the portable files' format
    for dialect, module, sources in [
        *((d, m, m.sources(home, system_root, [root])) for d, m in dialects.items()),
        (Dialect.CLAUDE, claude, portable_sources(home, [root])),
    ]:
        for source in sources:
            if source.root is None:
                continue  # user, global and system files are the user's own
            loaded = module.load(source)
            if loaded.error and os.path.lexists(source.path):
                taken.problems.append(f"[{dialect.value}] {source.path}: {loaded.error}")
            if source.kind == "settings":
                if not os.path.lexists(source.path):
                    continue
                digest = config_digest(dialect.value, loaded)
                configs.setdefault(source.path, {})[dialect.value] = digest
                taken.files[source.path] = combined_digest(configs[source.path]) or digest
                _check(taken, source.path)
            for specs in loaded.hooks.values():
                for spec in specs:
                    _take_spec(taken, spec, source.kind, home)
    return taken


def _take_spec(taken: Snapshot, spec: HookSpec, kind: str, home: str) -> None:
    listed = taken.relays if relay_entries.is_relay_spec(spec) else taken.hooks
    listed.append((spec.dialect.value, spec.event, spec.command))
    if kind == "hookdir":
        digest = file_digest(spec.source)
        if digest is not None:
            taken.files[spec.source] = digest
            _check(taken, spec.source)
        return
    for path, info in named_files(spec, home):
        if is_system_program(path, info, spec.root):
            continue  # python3, bash: not the workspace's
        digest = file_digest(path)
        if digest is not None:
            taken.files[path] = digest
            _check(taken, path)


def _check(taken: Snapshot, path: str) -> None:
    try:
        reason = unsafe_reason(path, os.stat(path))
    except OSError:
        return
    if reason and reason not in taken.refused:
        taken.refused.append(reason)
