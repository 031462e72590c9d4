"""Text and JSON as Node programs (Claude Code, Cline, the Cline SDK, Augment) see
them: ``JSON.parse``, ``JSON.stringify``, ``trim()`` and string length in UTF-16 units.
Hooks written for those agents rely on these details; hookd reproduces them here once."""

from __future__ import annotations

import json
import math
from typing import Any, NoReturn

from .jswrite import js_json_bytes

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


def js_length(text: str) -> int:
    """``text.length`` in JavaScript: UTF-16 code units (a character outside the BMP is
    two)."""
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


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


to_json_bytes = js_json_bytes
"""``JSON.stringify(value, null, indent)`` bytes, as the agents write a hook's stdin:
``jswrite.js_json_bytes`` (numbers, key order and lone surrogates as JavaScript writes
them)."""


def is_positive_finite(value: object) -> bool:
    """A JSON number > 0 that is not NaN or infinite (``true`` is not a number)."""
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value > 0
    )
