"""The relay inside the real Cline SDK runner (issue 12): each case runs in the agent as it
is, then again after ``hookd adopt`` (the hook folders of the user and the workspace
handed to hookd, a relay file per event in their place) with hookd serving; the agent
must do the same thing both times, and every hook must run exactly as often, in the same
order, given the same event."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.cline_sdk.cases import CASES, Case, control
from agents.cline_sdk.test_cline_sdk_agent import _run, _setup
from agents.harness.cline_cases import Hook, order, relayed_like_plain, run_agent, strings
from agents.harness.relayed import (
    KILL_COMMAND,
    adopt,
    assert_daemon_starts,
    assert_started_again,
    from_cold,
    given,
    hook_runs,
    serving,
    serving_pid,
    unreachable,
    write_kill_script,
)
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


async def test_the_relay_starts_hookd_when_none_runs(
    cline_sdk_bin: str, netns: None, short_dir: Path, tmp_path: Path
) -> None:
    """From a cold machine: no daemon; the relay file the SDK runs starts one, the adopted
    hook's cancel stops the run as it did under the agent, and the daemon it started
    (once) still serves afterwards."""
    case = next(c for c in CASES if c.id == "pre-cancel-reason")
    plain_places = _setup(case, tmp_path / "plain")
    plain = await run_agent(plain_places, _run(case, plain_places, cline_sdk_bin))
    places = _setup(case, tmp_path / "relayed")
    await adopt("cline-sdk", places, "project")
    socket = short_dir / "hookd.sock"
    assert not socket.exists()

    async with from_cold(places, socket) as env:
        run = _run(case, places, cline_sdk_bin)
        relayed = await run_agent(places, {**run, "env": {**run["env"], **env}})
        assert await serving_pid(socket) > 0  # the daemon the relay started still runs

    assert not relayed["ran"]
    assert relayed_like_plain(plain, relayed, case.hooks) == []
    assert "policy says no" in relayed["log"]
    assert hook_runs(places["agent"]) == hook_runs(plain_places["agent"]) == ["a.stdin.0"]
    assert_daemon_starts(short_dir, 1)


async def test_a_daemon_killed_mid_session_is_started_again_by_the_next_event(
    cline_sdk_bin: str, netns: None, short_dir: Path, tmp_path: Path
) -> None:
    """As with Claude Code: the relay starts hookd for PreToolUse, the tool call kills
    that daemon (kill -9), the relay of PostToolUse starts another, the session goes on
    and the PostToolUse hook's context reaches the model; each hook ran once."""
    case = Case("relay-daemon-killed", "a daemon killed between two events",
                (Hook("a"), Hook("p", event="PostToolUse",
                                 stdout=control(context="after the restart"))),
                commands=(KILL_COMMAND,))  # fmt: skip
    places = _setup(case, tmp_path / "relayed")
    write_kill_script(places["ws"])
    await adopt("cline-sdk", places, "project")

    async with from_cold(places, short_dir / "hookd.sock") as env:
        run = _run(case, places, cline_sdk_bin)
        relayed = await run_agent(places, {**run, "env": {**run["env"], **env}})
        pid = await serving_pid(short_dir / "hookd.sock")

    assert relayed["ran"]
    assert len(relayed["requests"]) == 2
    assert "after the restart" in "\n".join(strings(relayed["requests"][1:]))
    assert hook_runs(places["agent"]) == ["a.stdin.0", "p.stdin.0"]
    assert_started_again(places["ws"], short_dir, pid)


@pytest.mark.parametrize("policy", [None, "block"])
async def test_an_unreachable_hookd_follows_the_relay_policy(
    cline_sdk_bin: str, netns: None, short_dir: Path, tmp_path: Path, policy: str | None
) -> None:
    """No daemon and HOOKD_NO_SPAWN=1. The SDK shows a failing hook's exit code and stderr
    nowhere, so by default the relay lets the tool run and sends the model its line as a
    context; with HOOKD_RELAY_ON_ERROR=block it answers a cancel: the tool does not run,
    the run stops, and the line is the reason the SDK logs."""
    case = next(c for c in CASES if c.id == "pre-silent")
    places = _setup(case, tmp_path / "relayed")
    await adopt("cline-sdk", places, "project")
    env, said = unreachable(short_dir, policy)

    run = _run(case, places, cline_sdk_bin)
    relayed = await run_agent(places, {**run, "env": {**run["env"], **env}})

    later = "\n".join(strings(relayed["requests"][1:]))
    assert hook_runs(places["agent"]) == []  # no daemon: the adopted hook never ran
    assert not (short_dir / "none.sock").exists()  # and none was started
    if policy is None:
        assert relayed["ran"]
        assert len(relayed["requests"]) == 2
        assert said in later
    else:
        assert not relayed["ran"]
        assert len(relayed["requests"]) == 1
        assert said in relayed["log"]
