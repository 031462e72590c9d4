"""``hookd trace [N]``: one fire of the audit log as a timeline, a small self-contained
HTML page (or a bare SVG): each hook a bar on a time axis from when the fire began it,
its queue wait (waiting for a process slot, being prepared) drawn apart from its run,
slow and timed-out hooks marked, the verdict on top. Nothing is fetched from anywhere.

The drawing is plain arithmetic on the record (``layout``), so a test can check the
geometry of the rendered page against the same numbers.
"""

from __future__ import annotations

import argparse
import html
import math
import os
import sys
from dataclasses import dataclass
from typing import Any

from .fire_inputs import logged_fire

WIDTH = 960
LABELS = 300
"""Pixels left of the time axis, for each hook's name."""
RIGHT = 20
TOP = 70
ROW = 32
BAR = 16
SLOW_MS = 1000.0
"""A hook that ran this long is marked slow (hookd's default slow threshold)."""
COLORS = {
    "ok": "#2e7d32",
    "blocked": "#c62828",
    "failed": "#ef6c00",
    "timed out": "#6a1b9a",
    "not run": "#9e9e9e",
}
QUEUE_COLOR = "#bbdefb"


@dataclass(frozen=True, slots=True)
class Bar:
    """One hook's row: where its queue wait and run go, and what it came to."""

    index: int
    label: str
    state: str
    start_ms: float
    queued_ms: float
    run_ms: float
    slow: bool
    y: int


@dataclass(frozen=True, slots=True)
class Layout:
    total_ms: float
    scale: float
    """Pixels per millisecond."""
    bars: tuple[Bar, ...]
    height: int

    def x(self, ms: float) -> float:
        return LABELS + ms * self.scale


def run_trace(args: argparse.Namespace) -> int:
    record = logged_fire(args.config, args.number)
    number = record.get("seq")
    text = svg(record) if args.svg else page(record)
    out = args.output or f"hookd-trace-{number}.{'svg' if args.svg else 'html'}"
    if out == "-":
        sys.stdout.write(text)
        return 0
    with open(out, "w", encoding="utf-8") as file:
        file.write(text)
    print(f"hookd: fire #{number} drawn in {os.path.abspath(out)}", file=sys.stderr)
    return 0


def layout(record: dict[str, Any]) -> Layout:
    """Where everything goes: the axis spans the fire (or its last hook's end)."""
    hooks = record.get("hooks") or []
    ends = [_num(h.get("startMs")) + _num(h.get("queuedMs")) + _num(h.get("durationMs"))
            for h in hooks]  # fmt: skip
    total = max([_num(record.get("durationMs")), *ends, 1.0])
    scale = (WIDTH - LABELS - RIGHT) / total
    bars = tuple(
        Bar(
            index=int(h.get("index") or i),
            label=f"hook {h.get('index', i)} [{h.get('layer')}] {_short(h.get('command'))}",
            state=_state(h),
            start_ms=_num(h.get("startMs")),
            queued_ms=_num(h.get("queuedMs")),
            run_ms=_num(h.get("durationMs")),
            slow=_num(h.get("durationMs")) >= SLOW_MS,
            y=TOP + i * ROW,
        )
        for i, h in enumerate(hooks)
    )
    return Layout(total, scale, bars, TOP + max(len(bars), 1) * ROW + 40)


def svg(record: dict[str, Any]) -> str:
    """The timeline as a standalone SVG document."""
    at = layout(record)
    e = html.escape
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{at.height}" '
             f'viewBox="0 0 {WIDTH} {at.height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{WIDTH}" height="{at.height}" fill="#ffffff"/>',
             f'<text x="10" y="22" font-size="15" font-weight="bold">{e(_title(record))}</text>',
             f'<text x="10" y="42">{e(_verdict(record))}</text>']  # fmt: skip
    parts += _axis(at)
    for bar in at.bars:
        mid = bar.y + ROW // 2
        parts.append(f'<text x="10" y="{mid + 4}">{e(bar.label)}</text>')
        top = mid - BAR // 2
        queue_x, run_x = at.x(bar.start_ms), at.x(bar.start_ms + bar.queued_ms)
        if bar.queued_ms * at.scale >= 1:
            queued = f"queued {bar.queued_ms:.1f} ms"
            parts.append(
                _rect("queue", queue_x, top, bar.queued_ms * at.scale, QUEUE_COLOR, queued)
            )
        width = max(bar.run_ms * at.scale, 2.0)
        note = f"{bar.state}, {bar.run_ms:.1f} ms" + (", slow" if bar.slow else "")
        parts.append(_rect("run", run_x, top, width, COLORS[bar.state], note))
        said = e(f"{bar.run_ms:.0f} ms {bar.state}" + (" (slow)" if bar.slow else ""))
        if run_x + width + 6 <= WIDTH - 120:
            parts.append(f'<text x="{run_x + width + 6:.2f}" y="{mid + 4}">{said}</text>')
        else:  # no room after the bar: inside its end, in white
            inside = f'x="{run_x + width - 6:.2f}" y="{mid + 4}" text-anchor="end" fill="#ffffff"'
            parts.append(f"<text {inside}>{said}</text>")
    parts.append("</svg>\n")
    return "\n".join(parts)


def _rect(kind: str, x: float, y: int, width: float, fill: str, title: str) -> str:
    return (f'<rect class="{kind}" x="{x:.2f}" y="{y}" width="{width:.2f}" height="{BAR}" '
            f'fill="{fill}"><title>{html.escape(title)}</title></rect>')  # fmt: skip


def page(record: dict[str, Any]) -> str:
    """The timeline in a self-contained HTML page (no script, no external resource)."""
    return ("<!doctype html>\n<html><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(_title(record))}</title>"
            "<style>html,body{margin:0;padding:0;background:#fff}</style></head><body>\n"
            f"{svg(record)}</body></html>\n")  # fmt: skip


def _axis(at: Layout) -> list[str]:
    step = _step(at.total_ms)
    bottom = at.height - 30
    lines = [f'<line x1="{LABELS}" y1="{bottom}" x2="{WIDTH - RIGHT}" y2="{bottom}" '
             'stroke="#424242"/>']  # fmt: skip
    tick = 0.0
    while tick <= at.total_ms + 1e-9:
        x = at.x(tick)
        lines.append(f'<line x1="{x:.2f}" y1="{TOP - 6}" x2="{x:.2f}" y2="{bottom}" '
                     'stroke="#eeeeee"/>')  # fmt: skip
        lines.append(f'<text x="{x:.2f}" y="{bottom + 16}" text-anchor="middle">{tick:g} ms</text>')
        tick += step
    return lines


def _step(total: float) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) giving at most 10 ticks."""
    exponent = math.floor(math.log10(total / 10)) if total > 10 else -1
    for base in (1, 2, 5, 10):
        step = base * 10.0**exponent
        if total / step <= 10:
            return step
    return 10.0 ** (exponent + 1)


def _state(hook: dict[str, Any]) -> str:
    if hook.get("neverRan"):
        return "not run"
    if hook.get("timedOut"):
        return "timed out"
    if hook.get("blocked"):
        return "blocked"
    if hook.get("error"):
        return "failed"
    return "ok"


def _title(record: dict[str, Any]) -> str:
    relay = " (relay)" if record.get("relay") else ""
    tool = f" {record['tool']}" if record.get("tool") else ""
    return f"#{record.get('seq')} {record.get('agent')} {record.get('event')}{relay}{tool}"


def _verdict(record: dict[str, Any]) -> str:
    verdict = record.get("decision") or ("blocked" if record.get("blocked") else "proceed")
    if record.get("outcome") != "answered":
        verdict = str(record.get("outcome"))
    hooks = record.get("hooks") or []
    said = f"{verdict}: {len(hooks)} hook(s) in {_num(record.get('durationMs')):.1f} ms"
    if record.get("reason"):
        said += f" - {record['reason']}"
    return said[:160]


def _short(command: Any, limit: int = 34) -> str:
    text = str(command or "")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _num(value: Any) -> float:
    return float(value) if isinstance(value, int | float) else 0.0
