"""Texts over a dialect's cap: the whole text to a file, a preview and the path in its place.

Silent truncation is one of the top complaints about hook runners. Claude Code caps
``additionalContext``, ``systemMessage`` and plain stdout at 10,000 characters and saves
the rest to a file; hookd does the same, and the fire result says so (``spilled`` on the
hook's entry and a warning), so nothing is lost and nothing is cut without a trace.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
from dataclasses import dataclass
from typing import Any

from .jstext import js_cut, js_length

PREVIEW_CHARS = 2000
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


@dataclass(frozen=True, slots=True)
class Capped:
    text: str
    spill: dict[str, Any] | None = None


def cap_text(text: str, *, cap: int, field: str, directory: str) -> Capped:
    """``text`` itself when within ``cap`` characters, counted as JavaScript counts them
    (UTF-16 units: an emoji is two), as the Node agents whose caps these are do; else a
    preview naming the file that holds the whole text (written now, mode 0600). If the
    file cannot be written, the text is cut at the cap and the note says why."""
    cut = js_cut(text, cap)
    if cut is None:
        return Capped(text)
    length = js_length(text)
    try:
        path = _write(directory, field, text)
    except OSError as exc:
        note = (
            f"\n\n[hookd: {field} was {length} characters; cut to {cap}: the full text "
            f"could not be saved ({exc.strerror or exc})]"
        )
        return Capped(cut + note, {"field": field, "chars": length, "path": None})
    preview = (
        f"{text[:PREVIEW_CHARS]}\n\n[hookd: {field} was {length} characters, over the "
        f"{cap}-character limit; this is a preview. The full text is in {path}]"
    )
    return Capped(preview, {"field": field, "chars": length, "path": path})


def session_directory(state_dir: str, dialect: str, session_id: str | None) -> str:
    """``<state_dir>/<dialect>/sessions/<name>``: a readable, file-safe prefix of the
    session id plus a hash of all of it, so that no id can climb out (``..``) or share
    another session's folder (``a/b`` and ``a_b``, or long ids with a common start)."""
    if not session_id:
        return os.path.join(state_dir, dialect, "sessions", "no-session")
    digest = hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    prefix = _UNSAFE.sub("_", session_id)[:48].strip(".") or "session"
    return os.path.join(state_dir, dialect, "sessions", f"{prefix}-{digest}")


def private_directory(path: str) -> None:
    """Create ``path`` and any missing parents with mode 0700 (``os.makedirs`` would give
    the parents the default mode, letting other users list session ids)."""
    missing = []
    while path and not os.path.isdir(path):
        missing.append(path)
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):
            os.mkdir(folder, 0o700)


def _write(directory: str, field: str, text: str) -> str:
    private_directory(directory)
    path = os.path.join(directory, f"{_UNSAFE.sub('_', field)}-{secrets.token_hex(6)}.txt")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8", errors="replace") as handle:
        handle.write(text)
    return path
