"""Hashes of the files an approval covers, computed lazily and cached on the file's stat
signature ``(mtime, ctime, size, inode)``: a fire re-hashes a file only after it changed
(or when it changed within a timestamp tick of the last hash, git's "racy" rule).

Settings files are hashed by what they configure (``config_digest``: their hooks and the
settings that decide which hooks run), not by their bytes: Claude Code itself rewrites
``settings.local.json`` when you grant a permission, which must not revoke a workspace.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Mapping
from typing import Any

from ..model import HookSpec, Loaded
from ..statcache import StatCache


def file_digest(path: str) -> str | None:
    """``sha256:<hex>`` of a regular file's bytes; None when it is missing or not a
    regular file (a FIFO is never opened for reading: non-blocking open, fstat first)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except (OSError, ValueError):
        return None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return "sha256:" + hashlib.file_digest(handle, "sha256").hexdigest()


def config_digest(dialect: str, loaded: Loaded) -> str:
    """``config:<dialect>:<hex>``: a settings file's hooks (every event) and hook settings, without
    where the file lies (the same file read through another path hashes the same)."""
    hooks = {
        event: [_spec_form(spec) for spec in specs] for event, specs in sorted(loaded.hooks.items())
    }
    form = {"hooks": hooks, "settings": _plain(loaded.settings), "error": loaded.error}
    text = json.dumps(form, sort_keys=True, separators=(",", ":"), default=repr)
    return f"config:{dialect}:" + hashlib.sha256(text.encode()).hexdigest()


def config_dialect(entry: str) -> str | None:
    """The dialect of a ``config_digest`` entry (``claude,copilot`` for a file several
    dialects read: ``combined_digest``); None for a file's ``sha256:`` entry."""
    if not entry.startswith("config:"):
        return None
    return entry.split(":", 2)[1]


def combined_digest(parts: Mapping[str, str | None]) -> str | None:
    """``config:<dialect>,<dialect>:<hex>``: one settings file read by several dialects
    (Copilot CLI reads a project's ``.claude/settings.json`` too), each dialect's
    ``config_digest`` of it hashed together; one dialect's entry as it is."""
    if len(parts) == 1:
        return next(iter(parts.values()))
    if any(part is None for part in parts.values()):
        return None
    names = sorted(parts)
    text = "\n".join(str(parts[name]) for name in names)
    return f"config:{','.join(names)}:" + hashlib.sha256(text.encode()).hexdigest()


def _spec_form(spec: HookSpec) -> dict[str, Any]:
    return {
        "event": spec.event,
        "command": spec.command,
        "argv": spec.argv,
        "timeout": spec.timeout_s,
        "matcher": spec.matcher,
        "if": spec.condition,
        "background": spec.background,
        "options": _plain(spec.options),
    }


def _plain(value: Any) -> Any:
    """JSON-ready with a stable order (sets sorted, tuples as lists)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted(repr(v) for v in value)
    return value


class Digests:
    """``file_digest`` with a cache on each file's stat signature."""

    def __init__(self) -> None:
        self._cache: StatCache[str | None] = StatCache()

    @property
    def computed(self) -> int:
        """Hashes actually computed (the rest came from the cache): for tests and bench."""
        return self._cache.computed

    def of(self, path: str) -> str | None:
        return self._cache.get(path, lambda: file_digest(path))
