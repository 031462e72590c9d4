"""The relay inside the real Claude Code (issue 12): each case runs in the agent as it
is, then again after ``hookd adopt`` (the project's hooks handed to hookd, the relay in
their place) with hookd serving; the agent must do the same thing both times, and every
hook must run exactly as often, with the same stdin bytes."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import trio

from agents.claude.cases import CASES, Case, Hook, specific
from agents.claude.test_claude_agent import _group, _run_agent, _runs, _setup, _write_script
from agents.harness.relayed import (
    KILL_COMMAND,
    assert_started_again,
    from_cold,
    serving_pid,
    write_kill_script,
)
from hookd.daemon.app import serve
from hookd.daemon.settings import Settings
from hookd_testing import RpcClient
from hookd_testing.cases import case_params

RELAYED = (
    "pre-exit0-allows", "pre-exit2-blocks", "pre-json-deny", "pre-json-context",
    "pre-updated-input", "pre-two-hooks-one-denies", "pre-matcher-misses", "pre-continue-false",
    "pre-on-failure-block", "pre-timeout-non-blocking", "post-context", "post-block",
    "prompt-context", "prompt-block", "stop-block", "session-start-context",
)  # fmt: skip
"""Cases whose hooks are all command hooks in the project's settings (what adopt takes)."""


async def _adopt(places: dict[str, Path]) -> None:
    done = await trio.run_process(
        [sys.executable, "-m", "hookd", "adopt", "--agent", "claude", "--scope", "project",
         "--project", str(places["ws"]), "--home", str(places["home"])],
        capture_stdout=True, capture_stderr=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    # the relay entries name this machine's hookd-relay: in the file Claude Code keeps out
    # of the team's repository, not in the shared one
    local = (places["ws"] / ".claude" / "settings.local.json").read_text()
    assert "hookd-relay claude" in local
    assert "hookd-relay" not in (places["ws"] / ".claude" / "settings.json").read_text()


def _observed(agent: dict[str, Any]) -> dict[str, Any]:
    """What the agent did, in terms that do not depend on who ran the hooks."""
    return {"ran": agent["ran"], "rewritten": agent["rewritten"],
            "requests": len(agent["requests"])}  # fmt: skip


@pytest.mark.parametrize("case", case_params([c for c in CASES if c.id in RELAYED]))
async def test_the_agent_does_the_same_through_the_relay(
    case: Case, claude_bin: str, netns: None, settings: Settings, tmp_path: Path
) -> None:
    plain_places = _setup(case, tmp_path / "plain")
    plain = await _run_agent(case, plain_places, claude_bin)

    places = _setup(case, tmp_path / "relayed")
    await _adopt(places)
    async with trio.open_nursery() as nursery:
        await nursery.start(serve, replace(settings, home=str(places["home"])))
        relayed = await _run_agent(
            case,
            places,
            claude_bin,
            env={"HOOKD_SOCKET": settings.socket_path, "HOOKD_NO_SPAWN": "1"},
        )
        rpc = await RpcClient.connect(settings.socket_path)
        await rpc.call("shutdown")
        await rpc.aclose()

    assert _observed(relayed) == _observed(plain)
    # Each hook ran exactly as often as under the agent alone (never twice: the agent no
    # longer has it, hookd runs it once), given the same event (but for the session's own
    # ids and folders) in the same bytes' shape.
    assert _given(places, "relayed") == _given(plain_places, "plain")
    # What the hooks said reached the model (or not) the same way.
    plain_text, relayed_text = json.dumps(plain["requests"]), json.dumps(relayed["requests"])
    for text in _said(case):
        assert (text in relayed_text) == (text in plain_text), text


_PER_SESSION = ("session_id", "prompt_id", "transcript_path", "tool_use_id", "duration_ms")


def _given(places: dict[str, Path], run: str) -> dict[str, list[tuple[Any, ...]]]:
    """Each hook's runs, with the ids and folders only one session has taken out."""
    given: dict[str, list[tuple[Any, ...]]] = {}
    for hook, runs in _runs(places["agent"]).items():
        for env, args, stdin in runs:
            event = json.loads(stdin.decode().replace(f"/{run}/", "/RUN/"))
            kept = {k: v for k, v in event.items() if k not in _PER_SESSION}
            ends = stdin.endswith(b"\n") and not stdin.endswith(b"\n\n")
            given.setdefault(hook, []).append((env, args, kept, ends))
    return given


def _said(case: Case) -> list[str]:
    """The reasons and contexts the case's hooks answer with."""
    said = [hook.stderr for hook in case.hooks if hook.stderr]
    for hook in case.hooks:
        try:
            said += _strings(json.loads(hook.stdout))
        except ValueError:
            said += [hook.stdout] if hook.stdout else []
    return [text for text in said if len(text) > 3]


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() if k != "hookEventName" for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


async def test_the_relay_starts_hookd_when_none_runs(
    claude_bin: str, netns: None, short_dir: Path, tmp_path: Path
) -> None:
    """From a cold machine: no daemon; the relay inside the agent starts one (with the
    agent's environment), the adopted hook blocks as it did under the agent, and the
    daemon it started keeps serving the next event."""
    case = next(c for c in CASES if c.id == "pre-exit2-blocks")
    plain = await _run_agent(case, _setup(case, tmp_path / "plain"), claude_bin)
    places = _setup(case, tmp_path / "relayed")
    await _adopt(places)
    async with from_cold(places, short_dir / "hookd.sock") as env:
        relayed = await _run_agent(case, places, claude_bin, env=env)
        assert (short_dir / "hookd.sock").exists()  # the daemon the relay started still runs
    assert _observed(relayed) == _observed(plain)
    assert "no rm here" in json.dumps(relayed["requests"])


@pytest.mark.parametrize(("policy", "tool_runs"), [("continue", True), ("block", False)])
async def test_an_unreachable_hookd_follows_the_relay_policy(
    claude_bin: str, netns: None, short_dir: Path, tmp_path: Path, policy: str, tool_runs: bool
) -> None:
    """No daemon and HOOKD_NO_SPAWN=1: by default the agent treats the relay as a failing
    hook (the tool runs); with HOOKD_RELAY_ON_ERROR=block the tool call is blocked and the
    model is told what to do."""
    case = next(c for c in CASES if c.id == "pre-exit0-allows")
    places = _setup(case, tmp_path / "relayed")
    await _adopt(places)

    relayed = await _run_agent(case, places, claude_bin, env={
        "HOOKD_SOCKET": str(short_dir / "none.sock"), "HOOKD_NO_SPAWN": "1",
        "HOOKD_RELAY_ON_ERROR": policy})  # fmt: skip

    assert relayed["ran"] is tool_runs
    assert ("hookd is not running" in json.dumps(relayed["requests"])) is not tool_runs


async def test_a_daemon_killed_mid_session_is_started_again_by_the_next_event(
    claude_bin: str, netns: None, short_dir: Path, tmp_path: Path
) -> None:
    """The relay starts hookd for PreToolUse; the tool call itself kills that daemon
    (kill -9); the relay of the next event, PostToolUse, finds no daemon, starts one,
    and the session goes on: the PostToolUse hook runs once and its context reaches the
    model."""
    case = Case("relay-daemon-killed", "a daemon killed between two events", (Hook("a"),),
                tool_command=KILL_COMMAND)  # fmt: skip
    places = _setup(case, tmp_path / "relayed")
    write_kill_script(places["ws"])
    after = Hook("p", stdout=specific("PostToolUse", additionalContext="after the restart"))
    script = _write_script(places["hooks"] / "p.sh", after, places)
    settings_file = places["ws"] / ".claude" / "settings.json"
    project = json.loads(settings_file.read_text())
    project["hooks"]["PostToolUse"] = [_group(case, after, str(script), places)]
    settings_file.write_text(json.dumps(project))
    await _adopt(places)

    async with from_cold(places, short_dir / "hookd.sock") as env:
        relayed = await _run_agent(case, places, claude_bin, env=env)
        pid = await serving_pid(short_dir / "hookd.sock")

    assert relayed["ran"]
    assert "after the restart" in json.dumps(relayed["requests"])
    assert {hook: len(runs) for hook, runs in _runs(places["agent"]).items()} == {"a": 1, "p": 1}
    assert_started_again(places["ws"], short_dir, pid)
