"""JSON as the Node-based agents read and write it: finding the JSON a hook meant in
stdout that may carry other text, and ``JSON.stringify``-shaped stdin."""

from __future__ import annotations

import json
from typing import Any


def last_json_object(text: str) -> dict[str, Any] | None:
    """Cline's rule: the whole stdout as JSON, else the last balanced ``{...}`` block.

    Debug lines before the JSON and lines after it are tolerated; text after the closing
    brace on the same line is not (as in Cline). Braces inside strings count naively.
    """
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, dict):
        return whole
    lines = text.splitlines()
    depth = 0
    collected: list[str] = []
    started = False
    for line in reversed(lines):
        if not started and "}" not in line:
            continue
        started = True
        collected.append(line)
        for char in reversed(line):
            if char == "}":
                depth += 1
            elif char == "{":
                depth -= 1
        if depth <= 0:
            break
    if not started or depth > 0:
        return None
    block = "\n".join(reversed(collected))
    block = block[block.find("{") :]
    try:
        found = json.loads(block)
    except json.JSONDecodeError:
        return None
    return found if isinstance(found, dict) else None


def to_json_bytes(value: Any) -> bytes:
    """``JSON.stringify`` bytes: compact, non-ASCII as UTF-8 (lone surrogates escaped)."""
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
    except UnicodeEncodeError:
        return json.dumps(value, separators=(",", ":")).encode()
