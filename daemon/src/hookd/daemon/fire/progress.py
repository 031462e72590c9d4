"""``$/progress`` for one fire: its wording and the ``status`` table kept in step.

The runner says *what happened* (a hook started, is slow, finished); this module says it
to the caller in LSP's work-done shape (begin, reports, end) and keeps the fire's entry
in ``status`` current. Hooks are named as their dialect names them (``hook_label``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from hookd.protocol import FireResult, HookRun

from ..dialects.base import DialectModule
from ..model import FireRequest, HookReport, HookSpec
from ..stats import InFlight, Stats
from .result import describe, hook_run

Notify = Callable[[dict[str, Any]], None]
"""Queues one progress value (``$/progress`` ``value``) for the caller; never waits
(progress is best effort), so neither does anything that reports progress."""


class FireProgress:
    """The runner's :class:`~hookd.daemon.runner.runner.HookProgress` for one fire."""

    def __init__(
        self,
        request: FireRequest,
        module: DialectModule,
        total: int,
        *,
        stats: Stats,
        entry: InFlight,
        notify: Notify | None,
        began: float | None = None,
    ) -> None:
        """``began``: the fire's start (``time.perf_counter()``), from which each hook's
        ``startMs`` is counted."""
        self._request = request
        self._module = module
        self._total = total
        self._stats = stats
        self._entry = entry
        self._notify = notify
        self._began = began if began is not None else time.perf_counter()
        self._started: dict[int, float] = {}
        self.runs: dict[int, HookRun] = {}
        """The ``hooks[]`` entry of every finished hook, by index."""

    @property
    def listening(self) -> bool:
        """Whether the caller asked for progress (slow notices reach only it)."""
        return self._notify is not None

    def begin(self) -> None:
        if self._notify is None:
            return
        total = self._total
        self._send(
            {
                "kind": "begin",
                "title": f"hookd {self._request.dialect.value} {self._request.event}",
                "cancellable": self._request.event not in self._module.UNCANCELLABLE_EVENTS,
                "message": f"{total} hook{'s' if total != 1 else ''} to run",
                "percentage": 0,
                "hookd": {
                    "type": "fire/begin",
                    "agent": self._request.dialect.value,
                    "event": self._request.event,
                    "hooks": total,
                },
            }
        )

    def started(self, index: int, spec: HookSpec) -> None:
        self._started[index] = time.perf_counter()
        self._entry.running[index] = spec.source
        if self._notify is None:
            return
        name = self._module.hook_label(spec)
        self._report("hook/started", describe(index, spec), f"started {name}")

    def slow(self, index: int, spec: HookSpec, elapsed_ms: int) -> None:
        name = self._module.hook_label(spec)
        self._report(
            "hook/slow",
            {**describe(index, spec), "elapsedMs": elapsed_ms},
            f"{name} is slow: still running after {elapsed_ms} ms",
        )

    def finished(self, report: HookReport) -> None:
        run = hook_run(report)
        started = self._started.get(report.index)
        if started is not None:
            run["startMs"] = round((started - self._began) * 1000, 3)
            took = (time.perf_counter() - started) * 1000
            run["queuedMs"] = round(max(0.0, took - run["durationMs"]), 3)
        self._entry.running.pop(report.index, None)
        self._entry.hooks_done += 1
        self.runs[report.index] = run
        self._stats.record(run)
        if self._notify is None:
            return
        name = self._module.hook_label(report.spec)
        if run["timedOut"]:
            outcome = "timed out"
        elif run["exitCode"] is not None:
            outcome = f"exit {run['exitCode']}"
        else:  # not started (untrusted, never ran), an http or client handler
            outcome = run["error"] or "no exit code"
        message = f"finished {name} in {run['durationMs']:.0f} ms ({outcome})"
        self._report("hook/finished", dict(run), message)

    def end(self, result: FireResult, slowest_spec: HookSpec | None) -> None:
        if self._notify is None:
            return
        count = len(result["hooks"])
        slowest = result["slowest"]
        message = f"{count} hook{'s' if count != 1 else ''} in {result['durationMs']:.0f} ms"
        if slowest is not None and slowest_spec is not None:
            name = self._module.hook_label(slowest_spec)
            message += f"; slowest: {name} ({slowest['durationMs']:.0f} ms)"
        if result["blocked"]:
            message += "; blocked"
        self._send(
            {
                "kind": "end",
                "message": message,
                "hookd": {
                    "type": "fire/end",
                    "durationMs": result["durationMs"],
                    "slowest": slowest,
                    "blocked": result["blocked"],
                },
            }
        )

    def end_cancelled(self, elapsed_s: float) -> None:
        """Closes the progress of a fire that was cancelled or failed, as LSP expects."""
        self._send(
            {
                "kind": "end",
                "message": f"cancelled after {elapsed_s * 1000:.0f} ms",
                "hookd": {
                    "type": "fire/end",
                    "durationMs": round(elapsed_s * 1000, 3),
                    "slowest": None,
                    "blocked": False,
                    "cancelled": True,
                },
            }
        )

    def _report(self, kind: str, data: dict[str, Any], message: str) -> None:
        if self._notify is None:
            return
        done, total = self._entry.hooks_done, self._total
        self._send(
            {
                "kind": "report",
                "message": message,
                "percentage": (done * 100 // total) if total else 100,
                "hookd": {"type": kind, **data},
            }
        )

    def _send(self, value: dict[str, Any]) -> None:
        if self._notify is not None:
            self._notify(value)
