"""Texts over a dialect's cap: the whole text to a file, a preview and the path in its place.

Silent truncation is one of the top complaints about hook runners. Claude Code caps
``additionalContext``, ``systemMessage`` and plain stdout at 10,000 characters and saves
the rest to a file; hookd does the same, and the fire result says so (``spilled`` on the
hook's entry and a warning), so nothing is lost and nothing is cut without a trace.
"""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass
from typing import Any

PREVIEW_CHARS = 2000
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


@dataclass(frozen=True, slots=True)
class Capped:
    text: str
    spill: dict[str, Any] | None = None


def cap_text(text: str, *, cap: int, field: str, directory: str) -> Capped:
    """``text`` itself when within ``cap`` characters; else a preview naming the file that
    holds the whole text (written now, mode 0600). If the file cannot be written, the
    text is cut at the cap and the note says why."""
    if len(text) <= cap:
        return Capped(text)
    try:
        path = _write(directory, field, text)
    except OSError as exc:
        note = (
            f"\n\n[hookd: {field} was {len(text)} characters; cut to {cap}: the full text "
            f"could not be saved ({exc.strerror or exc})]"
        )
        return Capped(text[:cap] + note, {"field": field, "chars": len(text), "path": None})
    preview = (
        f"{text[:PREVIEW_CHARS]}\n\n[hookd: {field} was {len(text)} characters, over the "
        f"{cap}-character limit; this is a preview. The full text is in {path}]"
    )
    return Capped(preview, {"field": field, "chars": len(text), "path": path})


def session_directory(state_dir: str, dialect: str, session_id: str | None) -> str:
    """``<state_dir>/<dialect>/sessions/<session>`` with the session id made file-safe."""
    session = _UNSAFE.sub("_", session_id)[:128] if session_id else "no-session"
    return os.path.join(state_dir, dialect, "sessions", session or "_")


def _write(directory: str, field: str, text: str) -> str:
    os.makedirs(directory, mode=0o700, exist_ok=True)
    path = os.path.join(directory, f"{_UNSAFE.sub('_', field)}-{secrets.token_hex(6)}.txt")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8", errors="replace") as handle:
        handle.write(text)
    return path
