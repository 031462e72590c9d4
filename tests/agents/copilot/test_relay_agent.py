"""The relay inside the real GitHub Copilot CLI 1.0.102: each case runs in the agent as it
is, then again after ``hookd adopt --agent copilot`` (the hook files of the user's and the
project's hook folders handed to hookd, one ``hookd-relay copilot <file> <key>`` entry per
event key of each file in their place) with hookd serving. The agent must do the same
thing both times (the tool, what the model was sent, what the user was shown, its exit
code), and every hook must run exactly as often, given the same event, arguments,
variables and folder.

Copilot runs every file's relay entry (it never merges identical handlers), so each entry
names its file and runs only the hooks adopted from it; the hooks of one entry run inside
hookd as a chain of their own, and their answers come back as one hook's answer."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import trio

from agents.copilot.cases import CASES, DENY, Case, Does, Hook, bash, out
from agents.copilot.test_copilot_agent import (
    run_agent,
    setup_case,
    tool_results,
    user_messages,
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
    "pre-deny", "pre-exit1", "pre-modified-args", "pre-context", "chain-deny-stops",
    "chain-rewrite-seen", "chain-contexts", "camel-then-pascal", "pascal-hso-deny",
    "order-folder-descending", "exec-repo-hook-dir", "exec-env", "perm-deny",
    "perm-deny-then-allow", "post-context", "post-exit2-warns", "ups-block", "ss-context",
    "stop-block",
)  # fmt: skip
"""Denies (by answer, by failure), rewrites handed on, contexts of several hooks, both
payload forms in one file, files in the agent's order, a project's hook file, a handler's
env, permission answers merged, postToolUse contexts and a warning, a blocked prompt,
sessionStart contexts and a stop block: all command hooks of hook folders, what adopt
takes."""
VOLATILE = ("sessionId", "session_id", "timestamp", "transcriptPath", "transcript_path")
"""What only one session has."""


def _scopes(case: Case) -> list[str]:
    places = {hook.where for hook in case.hooks}
    return [scope for scope, where in (("user", "user"), ("project", "repo")) if where in places]


def _seen(agent: dict[str, Any], run: str) -> dict[str, Any]:
    """What the agent did, in terms that do not depend on who ran the hooks."""
    seen = {
        "ran": agent["ran"], "rewritten": agent["rewritten"], "requests": len(agent["requests"]),
        "tool results": tool_results(agent), "user messages": user_messages(agent),
        "exit": agent["observation"]["exit"],
        "warnings": [line for line in agent["stderr"].splitlines() if line.startswith("! ")],
    }  # fmt: skip
    steady: dict[str, Any] = json.loads(json.dumps(seen).replace(f"/{run}/", "/RUN/"))
    return steady


def _records(folder: Path, run: str) -> dict[str, list[str]]:
    """Each hook run's arguments, variables and folder, the run's folder name replaced."""
    return {path.name: path.read_text().replace(f"/{run}/", "/RUN/").splitlines()
            for path in sorted(folder.iterdir())
            if re.search(r"\.(args|env|cwd)\.\d+$", path.name)}  # fmt: skip


def _relay_entries(places: dict[str, Path]) -> list[str]:
    """The relay entries adopt wrote in the agent's hook files."""
    found = []
    for folder in (places["home"] / ".copilot" / "hooks", places["ws"] / ".github" / "hooks"):
        for path in sorted(folder.rglob("*.json")):
            found += re.findall(r'"bash": "([^"]*hookd-relay[^"]*)"', path.read_text())
    return found


@pytest.mark.parametrize("case", case_params([c for c in CASES if c.id in RELAYED]))
async def test_the_agent_does_the_same_through_the_relay(
    case: Case, copilot_bin: str, netns: None, settings: Settings, tmp_path: Path
) -> None:
    plain_places = setup_case(case, tmp_path / "plain")
    places = setup_case(case, tmp_path / "relayed")
    assert "handed to hookd" in await adopt("copilot", places, *_scopes(case))
    assert _relay_entries(places), "adopt wrote no relay entry"
    runs: dict[str, dict[str, Any]] = {}

    async def plain_run() -> None:  # at the same time as the relayed one: two agent runs
        runs["plain"] = await run_agent(case, plain_places, copilot_bin)

    async with serving(settings, places["home"]) as env, trio.open_nursery() as nursery:
        nursery.start_soon(plain_run)
        relayed = await run_agent(case, places, copilot_bin, env)
    plain = runs["plain"]

    assert _seen(relayed, "relayed") == _seen(plain, "plain")
    assert given(places["agent"], "relayed", VOLATILE) == given(
        plain_places["agent"], "plain", VOLATILE
    )
    assert _records(places["agent"], "relayed") == _records(plain_places["agent"], "plain")


def _each_entry_names_its_file(places: dict[str, Path]) -> None:
    for entry in _relay_entries(places):
        assert re.search(r"hookd-relay copilot \S+\.json \w+$", entry), entry


async def test_identical_hooks_in_two_files_run_twice_through_two_entries(
    copilot_bin: str, netns: None, settings: Settings, tmp_path: Path
) -> None:
    """The same handler in two files runs twice in the agent (no de-duplication); after
    adopt the two relay entries (identical but for the file they name) run it twice too."""
    case = next(c for c in CASES if c.id == "no-dedup")
    places = setup_case(case, tmp_path / "relayed")
    await adopt("copilot", places, "user")
    _each_entry_names_its_file(places)
    async with serving(settings, places["home"]) as env:
        relayed = await run_agent(case, places, copilot_bin, env)
    assert relayed["ran"]
    assert sorted(p.name for p in places["agent"].glob("*.stdin.*")) == ["a.stdin.0", "a.stdin.1"]


async def test_a_daemon_killed_mid_session_is_started_again_by_the_next_event(
    copilot_bin: str, netns: None, short_dir: Path, tmp_path: Path
) -> None:
    """The relay starts hookd for preToolUse, the tool call kills it (kill -9), the relay
    of postToolUse finds no daemon and starts another, and its hook's context reaches the
    model with the tool's result."""
    case = Case(
        "relay-daemon-killed", "a daemon killed between two events",
        (Hook("a"), Hook("p", key="postToolUse", stdout=out({"additionalContext": "after the restart"}))),
        Does(), turns=(bash(KILL_COMMAND), {"text": "done."}),
    )  # fmt: skip
    places = setup_case(case, tmp_path / "relayed")
    write_kill_script(places["ws"])
    await adopt("copilot", places, "user")

    async with from_cold(places, short_dir / "hookd.sock") as env:
        relayed = await run_agent(case, places, copilot_bin, env)
        pid = await serving_pid(short_dir / "hookd.sock")

    assert relayed["ran"]
    assert tool_results(relayed)[0].endswith(
        'Tool "bash" succeeded. Additional guidance from postToolUse hooks:\nafter the restart'
    )
    assert sorted(p.name for p in places["agent"].glob("*.stdin.*")) == ["a.stdin.0", "p.stdin.0"]
    assert_started_again(places["ws"], short_dir, pid)


async def test_the_relay_starts_hookd_when_none_runs(
    copilot_bin: str, netns: None, short_dir: Path, tmp_path: Path
) -> None:
    """From a cold machine: no daemon; the relay inside Copilot starts one, the adopted
    hook denies as it did under the agent (same tool result for the model), and the daemon
    it started still serves afterwards, started once."""
    case = next(c for c in CASES if c.id == "pre-deny")
    places = setup_case(case, tmp_path / "relayed")
    await adopt("copilot", places, "user")
    socket = short_dir / "hookd.sock"
    assert not socket.exists()

    async with from_cold(places, socket) as env:
        relayed = await run_agent(case, places, copilot_bin, env)
        pid = await serving_pid(socket)

    assert pid > 0
    assert not relayed["ran"]
    assert tool_results(relayed) == ["Denied by preToolUse hook: no way"]  # as the agent does
    assert sorted(p.name for p in places["agent"].glob("*.stdin.*")) == ["a.stdin.0"]
    assert_daemon_starts(short_dir, 1)


@pytest.mark.parametrize("policy", [None, "block"])
async def test_an_unreachable_hookd_follows_the_relay_policy(
    copilot_bin: str, netns: None, short_dir: Path, tmp_path: Path, policy: str | None
) -> None:
    """No daemon and HOOKD_NO_SPAWN=1. By default the relay exits 0 with no answer and
    the tool runs (exit 1 would deny it; the line is in Copilot's debug log only). With
    HOOKD_RELAY_ON_ERROR=block it exits 2 with a deny whose reason is the line: Copilot
    denies the tool and sends the model the line."""
    case = next(c for c in CASES if c.id == "pre-none")
    places = setup_case(case, tmp_path / "relayed")
    await adopt("copilot", places, "user")
    env, said = unreachable(short_dir, policy)

    relayed = await run_agent(case, places, copilot_bin, env)

    assert list(places["agent"].glob("*.stdin.*")) == []  # the adopted hook never ran
    assert not (short_dir / "none.sock").exists()  # and no daemon was started
    if policy is None:
        assert relayed["ran"]
        assert said not in json.dumps(relayed["requests"])
    else:
        assert not relayed["ran"]
        assert tool_results(relayed) == [f"Denied by preToolUse hook: {said}"]
    assert len(relayed["requests"]) == 2


def test_deny_is_the_case_table_s_deny() -> None:
    assert json.loads(DENY)["permissionDecision"] == "deny"
