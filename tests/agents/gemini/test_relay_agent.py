"""The relay inside the real Gemini CLI 0.61.0 (issue 24): each case runs in the agent as it
is, then again after ``hookd adopt --agent gemini`` (the user's and the project's
``settings.json`` hooks handed to hookd, one ``hookd-relay gemini <settings.json>`` entry
per event in their place) with hookd serving. The agent must do the same thing both times
(the tool, what the model was sent, what the user was shown), and every hook must run
exactly as often, given the same event, arguments, variables and folder.

The relay's answer is the adopted hooks' answers merged by Gemini's own rules
(``dialect.native``), which Gemini then merges with its other hooks' as one hook's: every
case here keeps what the model and the user see the same."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from agents.gemini.cases import CASES, Case, Does, Hook, specific
from agents.gemini.test_gemini_agent import (
    _setup,
    function_responses,
    run_agent,
    user_texts,
    warnings_of,
)
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
    "bt-deny", "bt-exit2-stderr", "bt-rewrite", "bt-message", "bt-continue-false",
    "src-project", "src-two-denies", "src-sequential-chain", "at-deny", "at-contexts",
    "ba-context", "ba-deny", "aa-deny-once", "bm-synthetic", "am-deny", "bts-union",
    "ss-context", "pc-every-turn",
)  # fmt: skip
"""Denies and blocks by JSON and by exit code, a rewrite, a message, a stop, the project's
hooks after the user's, several hooks' reasons, a chain of rewrites run in order, a
replaced tool result, contexts of several hooks, a prompt's context and block, a model
asked again, a synthetic model answer, a cut answer, a tool selection, a session's
context, a lifecycle event (all command hooks of settings files: what adopt takes)."""
VOLATILE = ("session_id", "transcript_path", "timestamp")
"""What only one session has."""


def _scopes(case: Case) -> list[str]:
    layers = {layer for hook in case.hooks for layer in hook.layers}
    return [scope for scope in ("user", "project") if scope in layers]


def _steady(value: Any, run: str) -> Any:
    """``value`` without what differs from run to run: the run's folder, a process group
    id, the date in Gemini's session context, the workspace's folder listing there (adopt
    leaves hookd's files in it)."""
    return json.loads(_steady_text(json.dumps(value), run))


def _steady_text(text: str, run: str) -> str:
    text = text.replace(f"/{run}/", "/RUN/")
    text = re.sub(r"Process Group PGID: \d+", "Process Group PGID: N", text)
    text = re.sub(r"Today's date is [^.]*\.", "Today's date is D.", text)
    return re.sub(r"- \*\*Directory Structure:\*\*.*?</session_context>",
                  "FOLDERS</session_context>", text)  # fmt: skip


def _payload(run: str) -> Any:
    """How ``given`` reads a payload: steadied as ``_steady``."""
    return lambda raw: json.loads(_steady_text(raw.decode(), run))


def _seen(agent: dict[str, Any], run: str) -> dict[str, Any]:
    """What the agent did, in terms that do not depend on who ran the hooks: the tool, the
    model's requests and what they carried, what the user was shown."""
    requests = agent["requests"]
    shown = [line for line in agent["stderr"].splitlines()
             if line.startswith(("Hook system message:", "Agent execution", "Error executing"))]  # fmt: skip
    seen = {
        "ran": agent["ran"], "rewritten": agent["rewritten"], "requests": len(requests),
        "paths": [r["path"] for r in requests],
        "results": function_responses(requests),
        "prompts": [user_texts(r) for r in requests],
        "tool config": [r["body"].get("toolConfig") for r in requests],
        "response": (agent["answer"] or {}).get("response"), "warnings": warnings_of(agent),
        "shown": shown,
    }  # fmt: skip
    steady: dict[str, Any] = _steady(seen, run)
    return steady


def records(folder: Path, run: str) -> dict[str, list[str]]:
    """Each hook run's arguments, variables and folder, the run's folder name replaced
    (the session id, which only one session has, too)."""
    found = {}
    for path in sorted(folder.iterdir()):
        if re.search(r"\.(args|env|cwd)\.\d+$", path.name):
            text = path.read_text().replace(f"/{run}/", "/RUN/")
            text = re.sub(
                r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "S", text
            )
            found[path.name] = text.splitlines()
    return found


@pytest.mark.parametrize("case", case_params([c for c in CASES if c.id in RELAYED]))
async def test_the_agent_does_the_same_through_the_relay(
    case: Case, gemini_bin: str, netns: None, settings: Settings, tmp_path: Path
) -> None:
    plain_places = _setup(case, tmp_path / "plain")
    plain = await run_agent(case, plain_places, gemini_bin)

    places = _setup(case, tmp_path / "relayed")
    assert "handed to hookd" in await adopt("gemini", places, *_scopes(case))
    async with serving(settings, places["home"]) as env:
        relayed = await run_agent(case, places, gemini_bin, env)

    assert _seen(relayed, "relayed") == _seen(plain, "plain")
    assert given(places["agent"], "relayed", VOLATILE, _payload("relayed")) == given(
        plain_places["agent"], "plain", VOLATILE, _payload("plain")
    )
    assert records(places["agent"], "relayed") == records(plain_places["agent"], "plain")


async def test_a_daemon_killed_mid_session_is_started_again_by_the_next_event(
    gemini_bin: str, netns: None, short_dir: Path, tmp_path: Path
) -> None:
    """The relay starts hookd for BeforeTool, the tool call kills it (kill -9), the relay
    of AfterTool finds no daemon and starts another, and its hook's context reaches the
    model after the tool's result."""
    case = Case(
        "relay-daemon-killed", "a daemon killed between two events",
        (Hook("a"), Hook("p", event="AfterTool",
                         stdout=specific(additionalContext="after the restart"))),
        Does(), tool_command=KILL_COMMAND,
    )  # fmt: skip
    places = _setup(case, tmp_path / "relayed")
    write_kill_script(places["ws"])
    await adopt("gemini", places, "user")

    async with from_cold(places, short_dir / "hookd.sock") as env:
        relayed = await run_agent(case, places, gemini_bin, env)
        pid = await serving_pid(short_dir / "hookd.sock")

    assert relayed["ran"]
    result = function_responses(relayed["requests"])[0]["output"]
    assert result.endswith("\n\n<hook_context>after the restart</hook_context>")
    assert sorted(p.name for p in places["agent"].glob("*.stdin.*")) == ["a.stdin.0", "p.stdin.0"]
    assert_started_again(places["ws"], short_dir, pid)


async def test_the_relay_starts_hookd_when_none_runs(
    gemini_bin: str, netns: None, short_dir: Path, tmp_path: Path
) -> None:
    """From a cold machine: no daemon; the relay inside Gemini starts one, the adopted
    hook blocks as it did under the agent (same result for the model), and the daemon it
    started still serves afterwards, started once."""
    case = next(c for c in CASES if c.id == "bt-exit2-stderr")
    plain = await run_agent(case, _setup(case, tmp_path / "plain"), gemini_bin)
    places = _setup(case, tmp_path / "relayed")
    await adopt("gemini", places, "user")
    socket = short_dir / "hookd.sock"
    assert not socket.exists()

    async with from_cold(places, socket) as env:
        relayed = await run_agent(case, places, gemini_bin, env)
        pid = await serving_pid(socket)  # the daemon the relay started still runs

    assert pid > 0
    assert _seen(relayed, "relayed") == _seen(plain, "plain")
    assert sorted(p.name for p in places["agent"].glob("*.stdin.*")) == ["a.stdin.0"]
    assert_daemon_starts(short_dir, 1)


@pytest.mark.parametrize("policy", [None, "block"])
async def test_an_unreachable_hookd_follows_the_relay_policy(
    gemini_bin: str, netns: None, short_dir: Path, tmp_path: Path, policy: str | None
) -> None:
    """No daemon and HOOKD_NO_SPAWN=1. By default the relay lets the action go on: it
    fails (exit 1) with its line, which Gemini shows the user as ``Warning: <line>``. With
    HOOKD_RELAY_ON_ERROR=block it answers a deny that ends the run: the tool does not run,
    Gemini says why, and no AfterAgent deny can send the model round again."""
    case = next(c for c in CASES if c.id == "bt-silent")
    places = _setup(case, tmp_path / "relayed")
    await adopt("gemini", places, "user")
    env, said = unreachable(short_dir, policy)

    relayed = await run_agent(case, places, gemini_bin, env)

    assert list(places["agent"].glob("*.stdin.*")) == []  # the adopted hook never ran
    assert not (short_dir / "none.sock").exists()  # and no daemon was started
    if policy is None:
        assert relayed["ran"]
        assert f"Hook system message: Warning: {said}" in relayed["stderr"]
        assert "Hook(s) [hookd] failed for event BeforeTool" in relayed["stderr"]
        assert said not in json.dumps(relayed["requests"])  # for the user, not the model
        assert len(relayed["requests"]) == 2
    else:
        assert not relayed["ran"]
        assert f"Agent execution stopped by hook: {said}" in relayed["stderr"]
        assert len(relayed["requests"]) == 1  # the run ended with the tool call


async def test_one_entry_for_both_files_runs_each_hook_once(
    gemini_bin: str, netns: None, settings: Settings, tmp_path: Path
) -> None:
    """The user's and the project's hooks adopted: the two files get the same relay entry,
    which Gemini runs once (the same name and command), and that run fires every adopted
    hook of the event: each hook runs once, as without hookd, and a hook both files name
    runs once (Gemini merges it; hookd too)."""
    case = Case(
        "relay-two-files", "two files, one shared hook",
        (Hook("u"), Hook("p", layers=("project",)), Hook("both", layers=("user", "project"))),
        Does(),
    )  # fmt: skip
    plain_places = _setup(case, tmp_path / "plain")
    plain = await run_agent(case, plain_places, gemini_bin)
    places = _setup(case, tmp_path / "relayed")
    await adopt("gemini", places, "user", "project")
    entries = [json.loads(places[f].joinpath(".gemini", "settings.json").read_text())
               ["hooks"]["BeforeTool"] for f in ("home", "ws")]  # fmt: skip
    assert entries[0] == entries[1]
    assert len(entries[0]) == 1

    async with serving(settings, places["home"]) as env:
        relayed = await run_agent(case, places, gemini_bin, env)

    assert _seen(relayed, "relayed") == _seen(plain, "plain")
    runs = sorted(p.name for p in places["agent"].glob("*.stdin.*"))
    assert runs == sorted(p.name for p in plain_places["agent"].glob("*.stdin.*"))
    assert runs == ["both.stdin.0", "p.stdin.0", "u.stdin.0"]
