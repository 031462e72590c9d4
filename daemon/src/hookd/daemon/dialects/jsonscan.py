"""Text and JSON as the Node-based agents (Cline, the Cline SDK, Augment) see them:
``JSON.parse``, ``trim()``, string length in UTF-16 units, Cline's search for the JSON
in stdout that may carry other text, and ``JSON.stringify``-shaped stdin."""

from __future__ import annotations

import json
from typing import Any, NoReturn

JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""What JavaScript's ``trim()`` strips (WhiteSpace and LineTerminator): the BOM and U+2028
too, but not U+0085 or U+001C-U+001F, which Python's ``str.strip()`` would take."""


def _not_json(name: str) -> NoReturn:
    raise ValueError(f"{name} is not valid JSON")


def parse_json(text: str) -> Any:
    """``JSON.parse``: Python's parser, without its NaN/Infinity/-Infinity extension.

    Raises ``ValueError`` (``json.JSONDecodeError`` for a syntax error) where
    ``JSON.parse`` throws, so a hook printing ``NaN`` counts as invalid JSON as it does
    in the agent.
    """
    try:
        return json.loads(text, parse_constant=_not_json)
    except RecursionError:  # nested past Python's stack: not something a hook means
        raise ValueError("JSON nested too deeply") from None


def last_json_object(text: str) -> dict[str, Any] | None:
    """Cline's rule (``hook-factory.ts``): the whole stdout as JSON, else a brace scan.

    Whole-stdout JSON that is not an object (an array, a number) gives the defaults,
    ``{}``, with no scan; ``null`` is no JSON (Cline's validation throws on it). The
    scan mirrors Cline's: lines split on ``\\n`` and right-trimmed, braces counted from
    the bottom (naively, inside strings too), collecting from the line with the last
    ``}`` until the count is 0 at a line's end, or up to the top if it never is; then
    everything before the first ``{`` is cut and the rest parsed. So debug lines before
    the JSON and lines after it are tolerated, text after the closing brace on its line
    is not.
    """
    try:
        whole = parse_json(text)
    except ValueError:
        pass
    else:
        if whole is None:
            return None
        return whole if isinstance(whole, dict) else {}
    depth = 0
    collected: list[str] = []
    for line in reversed(text.split("\n")):
        line = line.rstrip(JS_WHITESPACE)
        for char in reversed(line):
            if char == "}":
                depth += 1
            elif char == "{":
                depth -= 1
        if collected or "}" in line:
            collected.append(line)
            if depth == 0:
                break
    candidate = "\n".join(reversed(collected)).strip(JS_WHITESPACE)
    if not candidate:
        return None
    try:
        found = parse_json(candidate[max(candidate.find("{"), 0) :])
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


def js_cut(text: str, limit: int) -> str | None:
    """``text`` cut to ``limit`` JavaScript characters (UTF-16 code units, so a character
    outside the BMP counts twice), or None when it fits. A cut that would split a
    surrogate pair keeps one unit less (JavaScript would leave half a character)."""
    if len(text) <= limit // 2:
        return None  # fits even if every character took two units
    units = text.encode("utf-16-le", "surrogatepass")
    if len(units) <= 2 * limit:
        return None
    kept = units[: 2 * limit]
    if 0xD800 <= int.from_bytes(kept[-2:], "little") <= 0xDBFF:
        kept = kept[:-2]  # a high surrogate without its low half
    return kept.decode("utf-16-le", "surrogatepass")


def to_json_bytes(value: Any) -> bytes:
    """``JSON.stringify`` bytes: compact, non-ASCII as UTF-8 (lone surrogates escaped)."""
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
    except UnicodeEncodeError:
        return json.dumps(value, separators=(",", ":")).encode()
