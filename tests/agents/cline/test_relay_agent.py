"""The relay inside Cline's real original runner, 2.18.0 (issue 12): each case runs in the
agent as it is, then again after ``hookd adopt`` (the global hook folder and the
workspace's handed to hookd, a relay file per event in each) with hookd serving; the
agent must do the same thing both times, and every hook must run exactly as often, given
the same event. A ``--hooks-dir`` folder is not adopted: the agent runs it itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.cline.cases import CASES, Case, answer, ev, pre
from agents.cline.test_cline_agent import _run, _setup
from agents.harness.cline_cases import relayed_like_plain, run_agent, strings
from agents.harness.relayed import (
    KILL_COMMAND,
    adopt,
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


async def test_from_cold_and_killed_mid_session_the_relay_starts_hookd(
    cline_bin: str, netns: None, short_dir: Path, tmp_path: Path
) -> None:
    """One agent run (this agent starts slowly) for two promises. From a cold machine
    the relay file of PreToolUse starts hookd, which runs the adopted hook; the tool call
    kills that daemon (kill -9); the relay file of PostToolUse finds none, starts another,
    and the session goes on: its hook's context reaches the model, each hook ran once,
    and the log says hookd started twice."""
    case = Case("relay-cold-then-killed", "cold start, then a daemon killed mid-session",
                (pre("a"), ev("p", "PostToolUse", answer(context="after the restart"))),
                command=KILL_COMMAND)  # fmt: skip
    places = _setup(case, tmp_path / "relayed")
    write_kill_script(places["ws"])
    await adopt("cline", places, "project")
    socket = short_dir / "hookd.sock"
    assert not socket.exists()

    async with from_cold(places, socket) as env:
        relayed = await run_agent(places, {**_run(case, places, cline_bin), "env": env})
        pid = await serving_pid(socket)

    assert relayed["ran"]
    assert "after the restart" in "\n".join(strings(relayed["requests"][1:]))
    assert hook_runs(places["agent"]) == ["a.stdin.0", "p.stdin.0"]
    assert_started_again(places["ws"], short_dir, pid)


@pytest.mark.parametrize("policy", [None, "block"])
async def test_an_unreachable_hookd_follows_the_relay_policy(
    cline_bin: str, netns: None, short_dir: Path, tmp_path: Path, policy: str | None
) -> None:
    """No daemon and HOOKD_NO_SPAWN=1. By default the relay is a failing hook of this
    runner (exit 1): the tool runs, the model is told nothing, and the user is shown the
    line as the runner streams any hook's stderr. With HOOKD_RELAY_ON_ERROR=block it
    answers a cancel: the tool does not run, the task stops, and the user is shown the
    line and the cancel whose reason it is."""
    case = next(c for c in CASES if c.id == "pre-silent")
    places = _setup(case, tmp_path / "relayed")
    await adopt("cline", places, "project")
    env, said = unreachable(short_dir, policy)

    relayed = await run_agent(places, {**_run(case, places, cline_bin), "env": env})

    model = "\n".join(strings(relayed["requests"]))
    shown = _streamed(relayed["stdout"])
    assert hook_runs(places["agent"]) == []  # no daemon: the adopted hook never ran
    assert not (short_dir / "none.sock").exists()  # and none was started
    assert "hookd-relay" not in model
    if policy is None:
        assert relayed["ran"]
        assert len(relayed["requests"]) == 2
        assert shown == [f"[workspace stderr .clinerules/hooks/PreToolUse] {said}"]
    else:
        assert not relayed["ran"]
        assert len(relayed["requests"]) == 1
        cancel = {"cancel": True, "contextModification": "", "errorMessage": said}
        assert shown == [f"[workspace stderr .clinerules/hooks/PreToolUse] {said}",
                         f"[workspace stdout .clinerules/hooks/PreToolUse] {json.dumps(cancel)}"]  # fmt: skip


def _streamed(stdout: str) -> list[str]:
    """What the runner showed the user of its hooks' output (its ``hook_output_stream``
    messages, the empty ones left out)."""
    messages = [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]
    return [m["text"] for m in messages
            if m.get("say") == "hook_output_stream" and not m["text"].endswith("] ")]  # fmt: skip
