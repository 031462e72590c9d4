"""The typed outcome of a fire in its wire shapes (``hookd.protocol.FireResult`` and
``HookRun``): built here once, at the edge, and nowhere else."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from hookd.protocol import Action, FireResult, HookRun, JsonObject

from ..model import Combined, HookReport, HookSpec, ProcessOutcome
from ..scrub import scrub

HOLDS_PIPES = "a background process kept the hook's output pipes open after it exited"
TAIL_CHARS = 2000
"""How much of the end of a hook's stdout and stderr a fire's result keeps: enough for a
traceback's last lines, bounded on every fire."""


def describe(index: int, spec: HookSpec) -> dict[str, Any]:
    """What progress says of a hook before it has finished."""
    return {
        "index": index,
        "dialect": spec.dialect.value,
        "source": spec.source,
        "layer": spec.layer,
        "command": spec.command,
    }


def hook_run(report: HookReport) -> HookRun:
    """The ``hooks[]`` entry of a fire result for one hook."""
    outcome, verdict, spec = report.outcome, report.verdict, report.spec
    error = verdict.error
    if outcome.pipes_held_open:
        error = f"{error}; {HOLDS_PIPES}" if error else HOLDS_PIPES
    return {
        "index": report.index,
        "dialect": spec.dialect.value,
        "source": spec.source,
        "layer": spec.layer,
        "command": spec.command,
        "exitCode": outcome.exit_code,
        "durationMs": outcome.duration_ms,
        "timeoutMs": round(spec.timeout_s * 1000),
        "timedOut": outcome.timed_out,
        "error": error,
        "blocked": verdict.blocks,
        "decision": "deny" if verdict.blocks else verdict.decision,
        "stdoutTruncated": outcome.stdout_truncated,
        "stderrTruncated": outcome.stderr_truncated,
        "spilled": [cast(JsonObject, spill) for spill in verdict.spilled],
    }


def with_output(run: HookRun, outcome: ProcessOutcome, secrets: Mapping[str, str]) -> HookRun:
    """The hook's entry with the ends of its stdout and stderr (``TAIL_CHARS`` each,
    ``...Cut`` when more came before, secrets scrubbed): why a hook failed, kept."""
    stdout, stdout_cut = _tail(outcome.stdout, outcome.stdout_truncated)
    stderr, stderr_cut = _tail(outcome.stderr, outcome.stderr_truncated)
    return {
        **run,
        "stdoutTail": scrub(stdout, secrets) if secrets else stdout,
        "stdoutTailCut": stdout_cut,
        "stderrTail": scrub(stderr, secrets) if secrets else stderr,
        "stderrTailCut": stderr_cut,
    }


def _tail(data: bytes, truncated: bool) -> tuple[str, bool]:
    if not data:
        return "", truncated
    text = data[-4 * TAIL_CHARS :].decode("utf-8", "replace")
    if len(text) > TAIL_CHARS:
        return text[-TAIL_CHARS:], True
    return text, truncated or len(data) > 4 * TAIL_CHARS


def fire_result(
    combined: Combined,
    *,
    action: Action,
    native: dict[str, Any],
    runs: Sequence[HookRun],
    duration_ms: float,
    warnings: Sequence[str],
    async_started: Sequence[dict[str, Any]],
    async_results: Sequence[dict[str, Any]],
    extras: dict[str, Any],
) -> FireResult:
    """The ``fire`` result; ``extras`` are the dialect's own fields (``fire_extras``)."""
    slowest = max(runs, key=lambda r: r["durationMs"], default=None)
    result: FireResult = {
        "action": action,
        "blocked": combined.blocked,
        "decision": combined.decision,
        "reason": combined.reason,
        "context": combined.context,
        "updatedInput": combined.updated_input,
        "updatedInputFrom": combined.updated_input_from,
        "continue": combined.continue_,
        "stopReason": combined.stop_reason,
        "systemMessage": combined.system_message,
        "native": native,
        "hooks": list(runs),
        "slowest": (
            None
            if slowest is None
            else {
                "index": slowest["index"],
                "source": slowest["source"],
                "command": slowest["command"],
                "durationMs": slowest["durationMs"],
            }
        ),
        "durationMs": round(duration_ms, 3),
        "warnings": list(warnings),
        "asyncStarted": list(async_started),
        "asyncResults": list(async_results),
    }
    return cast(FireResult, {**result, **extras}) if extras else result


def spill_warnings(reports: Sequence[HookReport]) -> list[str]:
    """One warning per text saved to a file because it was over the dialect's cap."""
    return [
        f"{r.spec.source}: {spill['field']} was {spill['chars']} characters, over the "
        f"limit; a preview was kept and the full text saved to {spill['path']}"
        for r in reports
        for spill in r.verdict.spilled
    ]
