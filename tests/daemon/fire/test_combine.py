"""The combiner is a pure function: properties over arbitrary verdicts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hookd.daemon.fire.combine import combine
from hookd.daemon.model import (
    DECISION_RANK,
    CombinePolicy,
    Dialect,
    HookReport,
    HookSpec,
    ProcessOutcome,
    Verdict,
)

verdicts = st.builds(
    Verdict,
    blocks=st.booleans(),
    decision=st.sampled_from([None, "allow", "ask", "defer", "deny"]),
    reason=st.one_of(st.none(), st.text(min_size=1, max_size=5)),
    context=st.one_of(st.none(), st.text(min_size=1, max_size=5)),
    continue_=st.booleans(),
)


def reports(items: list[Verdict]) -> list[HookReport]:
    outcome = ProcessOutcome(exit_code=0, stdout=b"", stderr=b"", duration_ms=1.0)
    return [
        HookReport(
            spec=HookSpec(
                Dialect.CLAUDE, "PreToolUse", f"/s/{i}", "project", f"c{i}", None, 1.0, order=i
            ),
            index=i,
            outcome=outcome,
            verdict=verdict,
        )
        for i, verdict in enumerate(items)
    ]


@settings(deadline=None)  # no timing in tests: this machine is shared and noisy
@given(st.lists(verdicts, max_size=8))
def test_any_block_blocks_and_decision_is_the_strongest(items: list[Verdict]) -> None:
    """Blocked iff some hook blocks; the decision is the max by deny>defer>ask>allow."""
    combined = combine(reports(items), CombinePolicy())
    expected = [("deny" if v.blocks else v.decision) for v in items]
    present = [d for d in expected if d]

    assert combined.blocked == any(v.blocks for v in items)
    assert combined.decision == (max(present, key=DECISION_RANK.__getitem__) if present else None)
    assert combined.continue_ == all(v.continue_ for v in items)


@settings(deadline=None)  # no timing in tests: this machine is shared and noisy
@given(st.lists(verdicts, max_size=8), st.randoms())
def test_result_does_not_depend_on_finish_order(items: list[Verdict], random) -> None:
    """Reports arrive in finish order; the combined texts follow declaration order."""
    in_order = reports(items)
    shuffled = list(in_order)
    random.shuffle(shuffled)

    assert combine(shuffled, CombinePolicy()) == combine(in_order, CombinePolicy())


def test_context_join_follows_the_dialect_policy() -> None:
    """Cline joins trimmed contexts with a blank line; the SDK with \\n, untrimmed."""
    items = [Verdict(context=" a "), Verdict(context=None), Verdict(context="b")]

    assert combine(reports(items), CombinePolicy(context_separator="\n\n")).context == "a\n\nb"
    assert (
        combine(reports(items), CombinePolicy(context_separator="\n", trim=False)).context
        == " a \nb"
    )


def test_blocking_reasons_only_unless_policy_says_all() -> None:
    """Only blocking hooks' reasons explain a block (Cline joins every errorMessage)."""
    items = [Verdict(reason="just a note"), Verdict(blocks=True, reason="stop")]

    assert combine(reports(items), CombinePolicy()).reason == "stop"
    assert combine(reports(items), CombinePolicy(reasons_from="all")).reason == "just a note\nstop"
