"""``status``'s per-hook timings: one quantile rule, so p50 <= p95 <= max for any sample,
and a fire in which a hook did not start is no run of 0 ms."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from hookd.daemon.stats import HookStats, Stats

DURATIONS = st.lists(
    st.floats(min_value=0, max_value=1e7, allow_nan=False, allow_infinity=False), min_size=1
)


@given(DURATIONS)
def test_p50_is_at_most_p95_is_at_most_max(durations: list[float]) -> None:
    stats = HookStats()
    stats.durations.extend(durations)
    view = stats.view()
    window = sorted(stats.durations)

    assert round(window[0], 3) <= view["p50Ms"] <= view["p95Ms"] <= view["maxMs"]


def test_two_runs_give_the_median_and_a_p95_near_the_longer() -> None:
    """The report's case: 3.9 and 6.1 ms gave p50 5.0 and p95 3.9."""
    stats = HookStats()
    stats.durations.extend([6.1, 3.9])

    assert stats.view()["p50Ms"] == 5.0
    assert stats.view()["p95Ms"] == 5.99
    assert stats.view()["maxMs"] == 6.1


def run(error: str | None, duration_ms: float) -> Any:
    return {"dialect": "claude", "layer": "project", "source": "/ws/.claude/settings.json",
            "command": "check", "durationMs": duration_ms, "timedOut": False, "error": error,
            "blocked": error is not None}  # fmt: skip


def test_a_hook_that_did_not_start_is_counted_apart() -> None:
    stats = Stats()
    for error in ("not run: untrusted: never allowed", "never ran: no process slot",
                  "not run: denied: hookd deny /ws"):  # fmt: skip
        stats.record(run(error, 0.0))
    stats.record(run(None, 12.0))
    stats.record(run("exit 1: failed", 8.0))

    (view,) = stats.hook_views()
    assert (view["runs"], view["notRun"], view["errors"], view["blocks"]) == (2, 3, 1, 1)
    assert (view["p50Ms"], view["maxMs"]) == (10.0, 12.0)
