"""The relay inside the real auggie 0.36.0 (issue 12): each case runs in the agent as it
is, then again after ``hookd adopt`` (the user's, the workspace's and the local settings
files' command hooks handed to hookd, a relay group per event and matcher in their
place) with hookd serving; the agent must do the same thing both times (the tool, what
the model was sent, what the user was shown), and every hook must run exactly as often,
given the same event, arguments and variables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.augment.cases import CASES, Case, Hook, specific
from agents.augment.test_augment_agent import _run_agent, _runs, _script, _setup, _tool_results
from agents.harness.relayed import (
    KILL_COMMAND,
    adopt,
    assert_daemon_starts,
    assert_started_again,
    from_cold,
    given,
    serving,
    serving_pid,
    unreachable,
    write_kill_script,
)
from hookd.daemon.settings import Settings
from hookd_testing.cases import case_params

RELAYED = (
    "pre-exit2-blocks", "pre-updated-input-last-file-wins", "pre-deny-beside-exit1",
    "pre-every-file", "pre-matcher-misses", "post-contexts", "metadata-one-payload-per-fire",
)  # fmt: skip
"""A block, a rewrite decided by file order (user, workspace), a failing hook voiding a
deny (what the user is shown), every settings file (user, local, workspace), a matcher
that misses beside one that matches, PostToolUse contexts, and the metadata one group
opts in to reaching every hook of the event."""
VOLATILE = ("conversation_id", "timestamp")
"""What only one session has."""


@pytest.mark.parametrize("case", case_params([c for c in CASES if c.id in RELAYED]))
async def test_the_agent_does_the_same_through_the_relay(
    case: Case, auggie_bin: str, netns: None, settings: Settings, tmp_path: Path
) -> None:
    plain_places = _setup(case, tmp_path / "plain")
    plain = await _run_agent(case, plain_places, auggie_bin)

    places = _setup(case, tmp_path / "relayed")
    assert "handed to hookd" in await adopt("augment", places, "user", "project", "local")
    async with serving(settings, places["home"]) as env:
        relayed = await _run_agent(case, places, auggie_bin, env)

    assert _seen(relayed, "relayed") == _seen(plain, "plain")
    assert given(places["agent"], "relayed", VOLATILE) == given(plain_places["agent"], "plain",
                                                                VOLATILE)  # fmt: skip
    for kind in ("args", "env"):
        assert _same(_runs(places["agent"], kind), "relayed") == _same(
            _runs(plain_places["agent"], kind), "plain"
        ), kind


def _seen(agent: dict, run: str) -> dict:
    """What the agent did: the tool, what the model was sent back, what the user saw."""
    return json.loads(json.dumps({
        "ran": agent["ran"], "rewritten": agent["rewritten"],
        "requests": len(agent["requests"]), "tool results": _tool_results(agent["requests"]),
        "user": agent["user"],
    }).replace(f"/{run}/", "/RUN/"))  # fmt: skip


def _same(files: dict[str, bytes], run: str) -> dict[str, list[str]]:
    """Each capture's lines, the run's folder name replaced, the conversation's id out."""
    return {
        name: [line for line in data.decode().replace(f"/{run}/", "/RUN/").splitlines()
               if not line.startswith("AUGMENT_CONVERSATION_ID=")]
        for name, data in files.items()
    }  # fmt: skip


async def test_a_daemon_killed_mid_session_is_started_again_by_the_next_event(
    auggie_bin: str, netns: None, short_dir: Path, tmp_path: Path
) -> None:
    """As with Claude Code: the relay starts hookd for PreToolUse, the tool call kills
    it, the relay of PostToolUse starts another, and its hook's context reaches the model
    after the tool result."""
    case = Case("relay-daemon-killed", "a daemon killed between two events", (Hook("a"),),
                tool_command=KILL_COMMAND)  # fmt: skip
    places = _setup(case, tmp_path / "relayed")
    write_kill_script(places["ws"])
    after = places["hooks"] / "p.sh"
    answer = specific("PostToolUse", additionalContext="after the restart")
    after.write_text(_script(Hook("p", stdout=answer)))
    after.chmod(0o755)
    settings_file = places["ws"] / ".augment" / "settings.json"
    workspace = json.loads(settings_file.read_text())
    workspace["hooks"]["PostToolUse"] = [
        {"matcher": ".*", "hooks": [{"type": "command", "command": str(after)}]}
    ]
    settings_file.write_text(json.dumps(workspace))
    await adopt("augment", places, "project")

    async with from_cold(places, short_dir / "hookd.sock") as env:
        relayed = await _run_agent(case, places, auggie_bin, env)
        pid = await serving_pid(short_dir / "hookd.sock")

    assert relayed["ran"]
    assert _tool_results(relayed["requests"])[0].endswith("[Hook Context]\nafter the restart")
    assert sorted(_runs(places["agent"], "stdin")) == ["a.stdin.0", "p.stdin.0"]
    assert_started_again(places["ws"], short_dir, pid)


async def test_the_relay_starts_hookd_when_none_runs(
    auggie_bin: str, netns: None, short_dir: Path, tmp_path: Path
) -> None:
    """From a cold machine: no daemon; the relay inside auggie starts one, the adopted
    hook blocks as it did under the agent (same tool result, same user output), and the
    daemon it started still serves afterwards, started once."""
    case = next(c for c in CASES if c.id == "pre-exit2-blocks")
    plain = await _run_agent(case, _setup(case, tmp_path / "plain"), auggie_bin)
    places = _setup(case, tmp_path / "relayed")
    await adopt("augment", places, "project")
    socket = short_dir / "hookd.sock"
    assert not socket.exists()

    async with from_cold(places, socket) as env:
        relayed = await _run_agent(case, places, auggie_bin, env)
        pid = await serving_pid(socket)  # the daemon the relay started still runs

    assert pid > 0
    assert _seen(relayed, "relayed") == _seen(plain, "plain")
    assert _tool_results(relayed["requests"])[0].startswith("[hook:PreToolUse]: no rm here")
    assert sorted(_runs(places["agent"], "stdin")) == ["a.stdin.0"]
    assert_daemon_starts(short_dir, 1)


@pytest.mark.parametrize("policy", [None, "block"])
async def test_an_unreachable_hookd_follows_the_relay_policy(
    auggie_bin: str, netns: None, short_dir: Path, tmp_path: Path, policy: str | None
) -> None:
    """No daemon and HOOKD_NO_SPAWN=1. By default the relay is a failing hook of auggie
    (exit 1): the tool runs, the model is told nothing, the user is shown the relay's
    line as auggie shows any hook's exit 1 ("Failed with non-blocking status code 1: ...").
    With HOOKD_RELAY_ON_ERROR=block it is a blocking one (exit 2): the tool does not run
    and the model is sent the line, which says what to do, as auggie sends an exit 2's
    stderr."""
    case = next(c for c in CASES if c.id == "pre-exit0-allows")
    places = _setup(case, tmp_path / "relayed")
    await adopt("augment", places, "project")
    env, said = unreachable(short_dir, policy)

    relayed = await _run_agent(case, places, auggie_bin, env)

    results = _tool_results(relayed["requests"])
    assert _runs(places["agent"], "stdin") == {}  # no daemon: the adopted hook never ran
    assert not (short_dir / "none.sock").exists()  # and none was started
    if policy is None:
        assert relayed["ran"]
        assert relayed["user"] == f"Failed with non-blocking status code 1: {said}"
        assert not any("hookd" in result for result in results), results
    else:
        assert not relayed["ran"]
        assert results == [f"[hook:PreToolUse]: {said}\n\n"
                           "PreToolUse:launch-process hook returned blocking error"]  # fmt: skip
    assert len(relayed["requests"]) == 2
