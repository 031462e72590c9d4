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
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trio

from agents.copilot.cases import CASES, Case, Does, Hook, bash, out
from agents.copilot.test_copilot_agent import (
    run_agent,
    setup_case,
    tool_results,
    user_messages,
)
from agents.harness.ahead import Ahead, jobs, selected_cases, trio_side
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
    "pre-exit1", "chain-deny-stops", "chain-rewrite-seen", "chain-contexts",
    "camel-then-pascal", "order-folder-descending", "exec-repo-hook-dir", "exec-env",
    "perm-deny-then-allow", "post-exit2-warns", "ups-block", "ss-context", "stop-block",
)  # fmt: skip
"""A deny by a failing hook and by an answer ending the chain, a rewrite handed on,
contexts of several hooks, both payload forms in one file, files in the agent's order, a
project's hook file, a handler's env, permission answers merged, a postToolUse context with
a warning, a blocked prompt, sessionStart contexts and a stop block: all command hooks of
hook folders, what adopt takes."""
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


@pytest.fixture(scope="module")
def both_ahead(request: pytest.FixtureRequest, copilot_bin: str, netns: None,
               tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ahead]:  # fmt: skip
    """Each selected case run twice, as it is and through the relay, ahead of its test
    (``harness/ahead.py``: two agent runs at a time)."""
    cases = selected_cases(request, "test_the_agent_does_the_same_through_the_relay")
    base = tmp_path_factory.mktemp("relayed")
    runs = Ahead(trio_side(_both_runs, copilot_bin), cases, lambda c: base / c.id, jobs())
    yield runs
    runs.close()


async def _both_runs(copilot: str, case: Case, root: Path) -> dict[str, Any]:
    """The plain run, then ``hookd adopt`` and the relayed run with a daemon of its own."""
    plain_places = setup_case(case, root / "plain")
    plain = await run_agent(case, plain_places, copilot)
    places = setup_case(case, root / "relayed")
    said = await adopt("copilot", places, *_scopes(case))
    sockets = Path(tempfile.mkdtemp(prefix="hk", dir="/tmp"))
    settings = Settings(socket_path=str(sockets / "hookd.sock"), home=str(places["home"]),
                        system_root=str(places["system"]), term_grace_s=0.2, watchdog=False,
                        subreaper=False, trust_all=True)  # fmt: skip
    try:
        async with serving(settings, places["home"]) as env:
            relayed = await run_agent(case, places, copilot, env)
    finally:
        shutil.rmtree(sockets, ignore_errors=True)
    return {"plain": (plain_places, plain), "relayed": (places, relayed), "said": said}


@pytest.mark.parametrize("case", case_params([c for c in CASES if c.id in RELAYED]))
async def test_the_agent_does_the_same_through_the_relay(case: Case, both_ahead: Ahead) -> None:
    _root, running = both_ahead.take(case)
    side = await trio.to_thread.run_sync(running.result)
    plain_places, plain = side["plain"]
    places, relayed = side["relayed"]
    assert "handed to hookd" in side["said"]
    assert _relay_entries(places), "adopt wrote no relay entry"

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
