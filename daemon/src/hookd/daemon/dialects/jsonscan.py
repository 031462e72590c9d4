"""Cline's search for the JSON a hook meant in stdout that may carry other text."""

from __future__ import annotations

from typing import Any

from ..jstext import JS_WHITESPACE, parse_json


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
