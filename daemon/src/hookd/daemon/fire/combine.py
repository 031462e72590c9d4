"""Merge the verdicts of a fire's hooks into one result: a pure function.

Rules (the same for every dialect, with the text-joining policy the dialect declares):

* any block blocks, and one hook failing never loses another hook's block;
* the reason comes from the hooks that decided the outcome (blocking hooks, or those whose
  decision won), so an "allow" hook's remark never explains an "ask";
* decisions take the strongest: deny > defer > ask > allow (a block counts as deny);
* texts (context, reasons, system messages) join in declaration order, never in finish
  order, so the result is deterministic even though hooks run concurrently;
* several ``updatedInput`` values: the last in declaration order wins, deterministically,
  and the result says which hook supplied it and warns when others disagreed;
* ``continue: false`` from any hook wins, and the stop reasons are joined.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from ..model import DECISION_RANK, Combined, CombinePolicy, Decision, HookReport, Verdict


def combine(reports: Sequence[HookReport], policy: CombinePolicy) -> Combined:
    """The hooks' verdicts merged by the rules above, with the dialect's text policy."""
    if not reports:
        return _nothing(policy)  # most fires: a frozen value, made once per policy
    return _combine(reports, policy)


@cache
def _nothing(policy: CombinePolicy) -> Combined:
    return _combine((), policy)


def _combine(reports: Sequence[HookReport], policy: CombinePolicy) -> Combined:
    ordered = sorted(reports, key=lambda r: r.spec.order)
    verdicts = [r.verdict for r in ordered]
    blocked = any(v.blocks for v in verdicts)
    decision = _strongest([("deny" if v.blocks else v.decision) for v in verdicts])
    verbatim = policy.single_verbatim and len(verdicts) == 1
    reason_sources = _reason_sources(verdicts, blocked, decision, policy)
    updated, updated_from, warnings = _updated_input(ordered)
    return Combined(
        blocked=blocked,
        decision=decision,
        reason=_join([v.reason for v in reason_sources], policy.reason_separator, policy, verbatim),
        context=(
            _join([v.context for v in verdicts], policy.context_separator, policy, verbatim)
            if policy.context_when_blocked or not blocked
            else None
        ),
        updated_input=updated,
        updated_input_from=updated_from,
        continue_=all(v.continue_ for v in verdicts),
        stop_reason=_join(
            [v.stop_reason for v in verdicts if not v.continue_], "\n", policy, verbatim
        ),
        system_message=_join([v.system_message for v in verdicts], "\n", policy, verbatim),
        natives=tuple(v.native for v in verdicts),
        warnings=tuple(warnings),
    )


def _reason_sources(
    verdicts: Sequence[Verdict], blocked: bool, decision: Decision | None, policy: CombinePolicy
) -> Sequence[Verdict]:
    """Whose reasons explain the outcome: the blocking hooks, else those whose decision
    won (an "ask" is not explained by an "allow"), else every hook (feedback)."""
    if policy.reasons_from == "all":
        return verdicts
    if blocked:
        return [v for v in verdicts if v.blocks]
    if decision is not None:
        return [v for v in verdicts if v.decision == decision]
    return verdicts


def _strongest(decisions: Sequence[Decision | None]) -> Decision | None:
    present = [d for d in decisions if d is not None]
    if not present:
        return None
    strongest: Decision = max(present, key=DECISION_RANK.__getitem__)
    return strongest


def _join(
    texts: Sequence[str | None], separator: str, policy: CombinePolicy, verbatim: bool
) -> str | None:
    if verbatim:
        return texts[0] if texts and texts[0] else None
    if policy.trim:
        parts = [t.strip() for t in texts if t and t.strip()]
    else:
        parts = [t for t in texts if t]
    return separator.join(parts) if parts else None


def _updated_input(reports: Sequence[HookReport]) -> tuple[Any, str | None, list[str]]:
    givers = [r for r in reports if r.verdict.has_updated_input]
    if not givers:
        return None, None, []
    winner = givers[-1]
    warnings = []
    if any(g.verdict.updated_input != winner.verdict.updated_input for g in givers[:-1]):
        others = ", ".join(g.spec.source for g in givers[:-1])
        warnings.append(
            f"{len(givers)} hooks rewrote the tool input; the last in declaration order "
            f"({winner.spec.source}) was used, the rewrite(s) from {others} were not"
        )
    return winner.verdict.updated_input, winner.spec.source, warnings
