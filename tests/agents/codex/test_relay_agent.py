"""The relay inside the real Codex CLI 0.171.0 (issue 23): each case runs in the agent as it
is, then again after ``hookd adopt --agent codex`` (the user's and the project's
``hooks.json`` hooks handed to hookd, one ``hookd-relay codex`` entry per event in their
place, pinned as reviewed in the user's config.toml by adopt itself) with hookd serving.
Codex runs without ``--dangerously-bypass-hook-trust``: the relay entries run only if
adopt's review pins are the ones Codex computes. The agent must do the same thing both
times (the tool, what the model was sent, what the user was shown), and every hook must
run exactly as often, given the same event, arguments, variables and folder.

What the relay cannot carry is compared as Codex then shows it: the hooks' answers come
back as one hook's answer, so several contexts reach the model as one developer message
(joined by a blank line), several systemMessages as one warning (joined by a line
break), several Stop reasons as one ``<hook_prompt>``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from agents.codex.cases import CASES, Case, Does, Hook, blocked, specific
from agents.codex.test_codex_agent import (
    _setup,
    hook_messages,
    later_prompts,
    run_agent,
    tool_outputs,
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
    "pre-exit2-blocks", "pre-json-deny", "pre-rewrite", "pre-contexts", "pre-system-messages",
    "pre-context-beside-deny", "perm-deny", "post-block", "post-context-and-block",
    "prompt-contexts", "prompt-block", "stop-block", "session-start-contexts",
    "interrupt-system-message", "sources-project-after-user",
)  # fmt: skip
"""A block, a deny, a rewrite, contexts and warnings of several hooks, a permission
refused, PostToolUse and prompt answers, a Stop block, SessionStart contexts, an Interrupt
warning, and a project's hooks after the user's with the project's config.toml [hooks]
left with Codex (all command hooks of hooks.json files: what adopt takes)."""
VOLATILE = ("session_id", "turn_id", "transcript_path", "agent_id")
"""What only one session has."""


def _scopes(case: Case) -> list[str]:
    layers = {layer for hook in case.hooks for layer in hook.layers}
    return [scope for scope, layer in (("user", "user"), ("project", "project")) if layer in layers]


def _seen(agent: dict[str, Any], run: str) -> dict[str, Any]:
    """What the agent did, in terms that do not depend on who ran the hooks: the tool,
    the model's requests and what they carried, what the user was shown."""
    fragments = [re.findall(r"<hook_prompt hook_run_id=\"[^\"]*\">(.*?)</hook_prompt>", text, re.S)
                 for text in later_prompts(agent["requests"])]  # fmt: skip
    shown: dict[str, dict[str, str]] = {}
    firsts: dict[tuple[str, int], dict[str, Any]] = {}
    for hook_run in agent["runs"]:
        firsts.setdefault((hook_run["eventName"], hook_run["displayOrder"]), hook_run)
    for (event, _order), hook_run in sorted(firsts.items()):
        for entry in hook_run["entries"]:
            texts = shown.setdefault(event, {})
            joint = "\n" if entry["kind"] == "warning" else "\n\n"
            texts[entry["kind"]] = (texts[entry["kind"]] + joint if entry["kind"] in texts
                                    else "") + entry["text"]  # fmt: skip
    seen = {
        "ran": agent["ran"], "rewritten": agent["rewritten"], "requests": len(agent["requests"]),
        "context": "\n\n".join(hook_messages(agent["requests"])),
        "outputs": [_steady(output) for output in tool_outputs(agent["requests"])],
        "next prompts": fragments,
        "shown": shown, "warnings": agent["shown"], "asked": bool(agent["asked"]),
        "turns": [turn["status"] for turn in agent["turns"]],
    }  # fmt: skip
    steady: dict[str, Any] = json.loads(json.dumps(seen).replace(f"/{run}/", "/RUN/"))
    return steady


def _steady(output: str) -> str:
    """A tool's output without what differs from run to run (its chunk id, wall time)."""
    output = re.sub(r"^Chunk ID: \w+\n", "Chunk ID: ID\n", output, flags=re.M)
    return re.sub(r"^Wall time: [\d.]+ seconds$", "Wall time: T seconds", output, flags=re.M)


def records(folder: Path, run: str) -> dict[str, list[str]]:
    """Each hook run's arguments, variables and folder, the run's folder name replaced."""
    return {path.name: path.read_text().replace(f"/{run}/", "/RUN/").splitlines()
            for path in sorted(folder.iterdir())
            if re.search(r"\.(args|env|cwd)\.\d+$", path.name)}  # fmt: skip


def _relay_trust(agent: dict[str, Any]) -> list[str]:
    """How Codex rates the relay entries adopt wrote (``hooks/list``)."""
    return [hook["trustStatus"] for hook in agent["listed"]
            if "hookd-relay" in (hook["command"] or "")]  # fmt: skip


@pytest.mark.parametrize("case", case_params([c for c in CASES if c.id in RELAYED]))
async def test_the_agent_does_the_same_through_the_relay(
    case: Case, codex_bin: str, netns: None, settings: Settings, tmp_path: Path
) -> None:
    plain_places = _setup(case, tmp_path / "plain")
    plain = await run_agent(case, plain_places, codex_bin)

    places = _setup(case, tmp_path / "relayed", reviewed=False)
    assert "handed to hookd" in await adopt("codex", places, *_scopes(case))
    async with serving(settings, places["home"]) as env:
        relayed = await run_agent(case, places, codex_bin, env)

    assert set(_relay_trust(relayed)) == {"trusted"}, relayed["listed"]
    assert _seen(relayed, "relayed") == _seen(plain, "plain")
    assert given(places["agent"], "relayed", VOLATILE) == given(
        plain_places["agent"], "plain", VOLATILE
    )
    assert records(places["agent"], "relayed") == records(plain_places["agent"], "plain")


async def test_adopt_after_the_user_reviewed_the_hooks(
    codex_bin: str, netns: None, settings: Settings, tmp_path: Path
) -> None:
    """A Codex user's hooks run only once reviewed, so the hooks adopt takes over have
    their reviews in the user's config.toml, at the keys the relay entries then take
    (``<hooks.json>:pre_tool_use:0:0``). The relay entry must be trusted all the same,
    or Codex skips it in silence and none of the hooks handed to hookd runs."""
    case = next(c for c in CASES if c.id == "pre-exit2-blocks")
    places = _setup(case, tmp_path / "relayed")  # the hook reviewed, as after /hooks

    said = await adopt("codex", places, "user")
    async with serving(settings, places["home"]) as env:
        relayed = await run_agent(case, places, codex_bin, env)

    assert _relay_trust(relayed) == ["trusted"], said
    assert not relayed["ran"]
    assert tool_outputs(relayed["requests"]) == [
        blocked("no touching here").replace("{ws}", str(places["ws"]))
    ]


async def test_a_daemon_killed_mid_session_is_started_again_by_the_next_event(
    codex_bin: str, netns: None, short_dir: Path, tmp_path: Path
) -> None:
    """The relay starts hookd for PreToolUse, the tool call kills it (kill -9), the relay
    of PostToolUse finds no daemon and starts another, and its hook's context reaches the
    model after the tool's output."""
    case = Case(
        "relay-daemon-killed", "a daemon killed between two events",
        (Hook("a"), Hook("p", event="PostToolUse",
                         stdout=specific("PostToolUse", additionalContext="after the restart"))),
        Does(), tool_command=KILL_COMMAND,
    )  # fmt: skip
    places = _setup(case, tmp_path / "relayed", reviewed=False)
    write_kill_script(places["ws"])
    await adopt("codex", places, "user")

    async with from_cold(places, short_dir / "hookd.sock") as env:
        relayed = await run_agent(case, places, codex_bin, env)
        pid = await serving_pid(short_dir / "hookd.sock")

    assert relayed["ran"]
    assert hook_messages(relayed["requests"]) == ["after the restart"]
    assert sorted(p.name for p in places["agent"].glob("*.stdin.*")) == ["a.stdin.0", "p.stdin.0"]
    assert_started_again(places["ws"], short_dir, pid)


async def test_the_relay_starts_hookd_when_none_runs(
    codex_bin: str, netns: None, short_dir: Path, tmp_path: Path
) -> None:
    """From a cold machine: no daemon; the relay inside Codex starts one, the adopted
    hook blocks as it did under the agent (same tool output for the model), and the
    daemon it started still serves afterwards, started once."""
    case = next(c for c in CASES if c.id == "pre-exit2-blocks")
    plain = await run_agent(case, _setup(case, tmp_path / "plain"), codex_bin)
    places = _setup(case, tmp_path / "relayed", reviewed=False)
    await adopt("codex", places, "user")
    socket = short_dir / "hookd.sock"
    assert not socket.exists()

    async with from_cold(places, socket) as env:
        relayed = await run_agent(case, places, codex_bin, env)
        pid = await serving_pid(socket)  # the daemon the relay started still runs

    assert pid > 0
    assert _seen(relayed, "relayed") == _seen(plain, "plain")
    assert sorted(p.name for p in places["agent"].glob("*.stdin.*")) == ["a.stdin.0"]
    assert_daemon_starts(short_dir, 1)


@pytest.mark.parametrize("policy", [None, "block"])
async def test_an_unreachable_hookd_follows_the_relay_policy(
    codex_bin: str, netns: None, short_dir: Path, tmp_path: Path, policy: str | None
) -> None:
    """No daemon and HOOKD_NO_SPAWN=1. By default the relay lets the action go on and
    says why as a systemMessage (Codex shows it to the user as a warning; a failing hook
    would show only "hook exited with code 1"). With HOOKD_RELAY_ON_ERROR=block it exits
    2 with the line on stderr: Codex blocks the command and sends the model the line."""
    case = next(c for c in CASES if c.id == "pre-exit0-allows")
    places = _setup(case, tmp_path / "relayed", reviewed=False)
    await adopt("codex", places, "user")
    env, said = unreachable(short_dir, policy)

    relayed = await run_agent(case, places, codex_bin, env)

    assert list(places["agent"].glob("*.stdin.*")) == []  # the adopted hook never ran
    assert not (short_dir / "none.sock").exists()  # and no daemon was started
    relay_runs = [r for r in relayed["runs"] if r["eventName"] == "preToolUse"]
    if policy is None:
        assert relayed["ran"]
        assert [(r["status"], r["entries"]) for r in relay_runs] == [
            ("completed", [{"kind": "warning", "text": said}])
        ]
        assert said not in json.dumps(relayed["requests"])  # for the user, not the model
    else:
        assert not relayed["ran"]
        assert [(r["status"], r["entries"]) for r in relay_runs] == [
            ("blocked", [{"kind": "feedback", "text": said}])
        ]
        assert tool_outputs(relayed["requests"]) == [
            blocked(said).replace("{ws}", str(places["ws"]))
        ]
    assert len(relayed["requests"]) == 2
