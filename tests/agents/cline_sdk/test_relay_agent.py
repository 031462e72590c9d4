"""The relay inside the real Cline SDK runner (issue 12): each case runs in the agent as it
is, then again after ``hookd adopt`` (the hook folders of the user and the workspace
handed to hookd, a relay file per event in their place) with hookd serving; the agent
must do the same thing both times, and every hook must run exactly as often, in the same
order, given the same event."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.cline_sdk.cases import CASES, Case
from agents.cline_sdk.test_cline_sdk_agent import _run, _setup
from agents.harness.cline_cases import order, relayed_like_plain, run_agent
from agents.harness.relayed import adopt, given, serving
from hookd.daemon.settings import Settings
from hookd_testing.cases import case_params

RELAYED = (
    "pre-cancel-reason", "pre-override-input", "pre-two-contexts-join", "every-folder-order",
    "post-context", "start-cancel-ignored",
)  # fmt: skip
"""A cancel, a rewrite, two hooks of one folder (run one after the other, contexts
joined), hooks in every folder (global, user and workspace layers: one relay file each,
in the agent's order), PostToolUse and a lifecycle event."""
VOLATILE = ("timestamp", "taskId", "sessionContext", "agent_id", "parent_agent_id",
            "durationMs", "startedAt", "endedAt", "executionTimeMs")  # fmt: skip
"""What only one session has (its ids, its clock)."""


@pytest.mark.parametrize("case", case_params([c for c in CASES if c.id in RELAYED]))
async def test_the_agent_does_the_same_through_the_relay(
    case: Case, cline_sdk_bin: str, netns: None, settings: Settings, tmp_path: Path
) -> None:
    plain_places = _setup(case, tmp_path / "plain")
    plain = await run_agent(plain_places, _run(case, plain_places, cline_sdk_bin))

    places = _setup(case, tmp_path / "relayed")
    said = await adopt("cline-sdk", places, "user", "project")
    assert "handed to hookd" in said
    async with serving(settings, places["home"]) as env:
        run = _run(case, places, cline_sdk_bin)
        relayed = await run_agent(places, {**run, "env": {**run["env"], **env}})

    assert relayed_like_plain(plain, relayed, case.hooks) == []
    assert given(places["agent"], "relayed", VOLATILE) == given(plain_places["agent"], "plain",
                                                                VOLATILE)  # fmt: skip
    assert order(places["agent"]) == order(plain_places["agent"])
