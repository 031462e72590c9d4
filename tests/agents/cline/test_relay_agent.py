"""The relay inside Cline's real original runner, 2.18.0 (issue 12): each case runs in the
agent as it is, then again after ``hookd adopt`` (the global hook folder and the
workspace's handed to hookd, a relay file per event in each) with hookd serving; the
agent must do the same thing both times, and every hook must run exactly as often, given
the same event. A ``--hooks-dir`` folder is not adopted: the agent runs it itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.cline.cases import CASES, Case
from agents.cline.test_cline_agent import _run, _setup
from agents.harness.cline_cases import relayed_like_plain, run_agent
from agents.harness.relayed import adopt, given, serving
from hookd.daemon.settings import Settings
from hookd_testing.cases import case_params

RELAYED = (
    "two-folders-one-cancels", "one-fails-other-cancels", "every-folder-contexts",
    "start-cancel", "post-context",
)  # fmt: skip
"""A cancel from the workspace folder beside the global folder's hook (two relay files),
one failing hook voiding another folder's cancel (across two relay files), contexts of
a --hooks-dir (the agent's own) and two adopted folders joined, TaskStart, PostToolUse.
Each relayed run costs another start of this agent (~6 s): a few cases that cover the
rules, not all of them."""
VOLATILE = ("timestamp", "taskId", "ulid", "executionTimeMs")
"""What only one session has."""


@pytest.mark.parametrize("case", case_params([c for c in CASES if c.id in RELAYED]))
async def test_the_agent_does_the_same_through_the_relay(
    case: Case, cline_bin: str, netns: None, settings: Settings, tmp_path: Path
) -> None:
    plain_places = _setup(case, tmp_path / "plain")
    plain = await run_agent(plain_places, _run(case, plain_places, cline_bin))

    places = _setup(case, tmp_path / "relayed")
    assert "handed to hookd" in await adopt("cline", places, "user", "project")
    async with serving(settings, places["home"]) as env:
        run = _run(case, places, cline_bin)
        relayed = await run_agent(places, {**run, "env": env})

    assert relayed_like_plain(plain, relayed, case.hooks) == []
    assert given(places["agent"], "relayed", VOLATILE) == given(plain_places["agent"], "plain",
                                                                VOLATILE)  # fmt: skip
