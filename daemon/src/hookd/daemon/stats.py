"""Per-hook counters and timings, and the table of fires in flight (for ``status``)."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from hookd.protocol import HookRun

from .audit import never_ran_why

_WINDOW = 256


def percentile(ordered: list[float], fraction: float) -> float:
    """The ``fraction`` quantile of a sorted, non-empty list, interpolated between the two
    nearest ranks (the median at 0.5): one rule for every quantile, so p50 <= p95 <= max."""
    position = fraction * (len(ordered) - 1)
    below = int(position)
    low, high = ordered[below], ordered[min(below + 1, len(ordered) - 1)]
    return min(max(low + (high - low) * (position - below), low), high)  # no rounding past


@dataclass
class HookStats:
    runs: int = 0
    """Times the hook ran; a fire in which it did not start counts in ``not_run`` only."""
    not_run: int = 0
    """Fires in which hookd did not start it: untrusted, denied, or never ran (hookd's own
    limits). Its 0 ms there would drag the timings down, so they are kept apart."""
    timeouts: int = 0
    errors: int = 0
    blocks: int = 0
    durations: deque[float] = field(default_factory=lambda: deque(maxlen=_WINDOW))

    def view(self) -> dict[str, Any]:
        ordered = sorted(self.durations)
        return {
            "runs": self.runs,
            "notRun": self.not_run,
            "timeouts": self.timeouts,
            "errors": self.errors,
            "blocks": self.blocks,
            "p50Ms": round(percentile(ordered, 0.5), 3) if ordered else None,
            "p95Ms": round(percentile(ordered, 0.95), 3) if ordered else None,
            "maxMs": round(ordered[-1], 3) if ordered else None,
        }


@dataclass
class InFlight:
    fire_id: int
    agent: str
    event: str
    roots: tuple[str, ...]
    started: float = field(default_factory=time.monotonic)
    hooks_total: int = 0
    hooks_done: int = 0
    running: dict[int, str] = field(default_factory=dict)

    def view(self) -> dict[str, Any]:
        return {
            "id": self.fire_id,
            "agent": self.agent,
            "event": self.event,
            "roots": list(self.roots),
            "elapsedMs": round((time.monotonic() - self.started) * 1000, 1),
            "hooksTotal": self.hooks_total,
            "hooksDone": self.hooks_done,
            "running": list(self.running.values()),
        }


class Stats:
    """Everything ``status`` reports about work done and work in progress."""

    def __init__(self) -> None:
        self.started = time.time()
        self.fires = 0
        self.by_hook: dict[tuple[str, str, str, str], HookStats] = {}
        """Keyed by (dialect, layer, source, command): one Cline hook file is also a Cline
        SDK hook, and those are two hooks with their own figures."""
        self.in_flight: dict[int, InFlight] = {}
        self._next_id = 0

    def begin(self, agent: str, event: str, roots: tuple[str, ...]) -> InFlight:
        self._next_id += 1
        self.fires += 1
        entry = InFlight(self._next_id, agent, event, roots)
        self.in_flight[entry.fire_id] = entry
        return entry

    def end(self, entry: InFlight) -> None:
        self.in_flight.pop(entry.fire_id, None)

    def record(self, run: HookRun) -> None:
        key = (run["dialect"], run["layer"], run["source"], run["command"])
        stats = self.by_hook.setdefault(key, HookStats())
        if never_ran_why(run["error"]) is not None:
            stats.not_run += 1
            return
        stats.runs += 1
        stats.durations.append(run["durationMs"])
        stats.timeouts += bool(run["timedOut"])
        stats.errors += bool(run["error"])
        stats.blocks += bool(run["blocked"])

    def hook_views(self) -> list[dict[str, Any]]:
        return [
            {
                "dialect": dialect,
                "layer": layer,
                "source": source,
                "command": command,
                **stats.view(),
            }
            for (dialect, layer, source, command), stats in sorted(self.by_hook.items())
        ]
