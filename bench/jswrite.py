"""What writing a hook's stdin costs, before and after ``jswrite`` (issue 22, item 7).

In process, one call of the writer per sample: ``before`` is the writer hookd had
(``json.dumps``, ``ensure_ascii=False``, escaped ASCII on a lone surrogate), ``after``
is ``jstext.to_json_bytes`` (``JSON.stringify``'s bytes). The two take turns round by
round, so a noisy phase of the machine hits both; the figure per payload is the best
round's microseconds per call and the ratio after/before.

    python bench/jswrite.py [--rounds N] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from hookd.daemon.jstext import to_json_bytes

EDIT = (
    "def total(cart: Cart) -> Decimal:\n"
    '    """The amount due, discounts and taxes included."""\n'
    "    subtotal = sum(line.price * line.quantity for line in cart.lines)\n"
    "    discount = max((d.amount(subtotal) for d in cart.discounts), default=0)\n"
    "    return (subtotal - discount) * (1 + cart.tax_rate)\n"
)
CLAUDE_PRE_TOOL_USE: dict[str, Any] = {
    "session_id": "8d2c6a1e-5b7f-4c39-9a0e-3f1b2d4c5e6f",
    "transcript_path": "/home/dev/.claude/projects/-home-dev-src-shop/"
    "8d2c6a1e-5b7f-4c39-9a0e-3f1b2d4c5e6f.jsonl",
    "cwd": "/home/dev/src/shop",
    "permission_mode": "default",
    "hook_event_name": "PreToolUse",
    "tool_name": "Edit",
    "tool_input": {
        "file_path": "/home/dev/src/shop/cart/total.py",
        "old_string": EDIT,
        "new_string": EDIT.replace("default=0", "default=Decimal(0)"),
        "replace_all": False,
    },
    "tool_use_id": "toolu_01ABCDEFGHJKLMNPQRSTUVWX",
}
"""A Claude Code PreToolUse payload of about 1 KB: no float, no key of digits."""

WITH_FLOATS: dict[str, Any] = {
    **CLAUDE_PRE_TOOL_USE,
    "cost": {"total_cost_usd": 0.012345, "input_token_usd": 0.000025, "cache_ratio": 0.4375},
    "model": {"id": "claude-sonnet-4-5", "temperature": 0.7},
}
"""The same with five floats (a status-line-like block)."""

BIG: dict[str, Any] = {
    **CLAUDE_PRE_TOOL_USE,
    "tool_name": "Write",
    "tool_input": {"file_path": "/home/dev/src/shop/data.py", "content": EDIT * 4000},
}
"""A Write of about 1 MB of code."""

BIG_WITH_FLOATS: dict[str, Any] = {**BIG, "cost": WITH_FLOATS["cost"]}


def before(value: Any, indent: int | None = None) -> bytes:
    """hookd's writer before jswrite."""
    separators = (",", ":") if indent is None else (",", ": ")
    try:
        return json.dumps(value, separators=separators, indent=indent, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        return json.dumps(value, separators=separators, indent=indent).encode()


CASES: list[tuple[str, dict[str, Any], int | None]] = [
    ("claude PreToolUse, ~1 KB, no float", CLAUDE_PRE_TOOL_USE, None),
    ("the same with 5 floats", WITH_FLOATS, None),
    ("augment indent=2, no float", CLAUDE_PRE_TOOL_USE, 2),
    ("augment indent=2, 5 floats", WITH_FLOATS, 2),
    ("Write of ~1 MB, no float", BIG, None),
    ("Write of ~1 MB, 5 floats", BIG_WITH_FLOATS, None),
]


def per_call_us(write: Callable[..., bytes], value: Any, indent: int | None, calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        write(value, indent)
    return (time.perf_counter() - start) / calls * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = parser.parse_args()
    figures = []
    for name, value, indent in CASES:
        size = len(before(value, indent))
        calls = max(3, 2_000_000 // size)
        best = {"before": float("inf"), "after": float("inf")}
        for round_ in range(args.rounds):
            order = [("before", before), ("after", to_json_bytes)]
            for label, write in order if round_ % 2 else order[::-1]:
                best[label] = min(best[label], per_call_us(write, value, indent, calls))
        ratio = best["after"] / best["before"]
        figures.append({"payload": name, "bytes": size, **best, "ratio": ratio})
        print(f"{name:38} {size:>9,} B  before {best['before']:9.1f} us  "
              f"after {best['after']:9.1f} us  {ratio:5.2f}x")  # fmt: skip
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
