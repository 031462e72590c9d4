"""The relay inside the real Factory Droid 0.225.2: each case runs in the agent as it is,
then again after ``hookd adopt --agent droid`` (the hooks of the user's and the project's
``.factory`` folders handed to hookd, one ``hookd-relay droid <folder>`` entry per event
in their place) with hookd serving. The agent must do the same thing both times (the
tool, what the model was sent, its exit code), and every hook must run exactly as often,
given the same event, arguments, variables and folder.

Droid runs every folder's relay entry, each standing for the hooks adopted from its
folder, in the agent's order (the project's first); the hooks of one entry run inside
hookd and come back as one hook's answer, which Droid reads by its first-hit rules."""

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

from agents.droid.cases import CASES, DONE, Case, Does, Hook, execute, out
from agents.droid.test_droid_agent import (
    compacted,
    errors,
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
    "pre-deny", "pre-exit2", "pre-exit3", "pre-continue-false", "pre-exit1-warning",
    "pre-rewrite", "pre-first-decision-wins", "pre-allow-then-exit2",
    "pre-project-before-user", "pre-hooks-json-user", "pre-hooks-json-replaces",
    "pre-duplicates", "pre-command-regex", "post-context-and-exit2", "post-exit3",
    "stop-block", "stop-exit2", "start-two", "end-runs", "ups-exit2", "ups-continue-false",
    "ups-first-context", "ups-rewrite", "pre-rewrite-drops-risk", "pre-rewrite-keeps-risk",
    "pre-timeout-partial", "compact-exit2", "compact-none",
    "start-env-file",
)  # fmt: skip
"""Each answer the agent reads (deny, exit 2, exit 3, continue:false, the exit-1 warning, a
rewrite), first-hit rules across hooks of one entry and across two entries, both files of
a folder, duplicates, group keys, the PostToolUse context and feedback, Stop
continuations, SessionStart contexts, SessionEnd, a blocked, a rewritten prompt and its
context, the riskLevel rule (a handler with preserveRiskLevel stays with the agent), a
timed-out hook's answer, a compaction done and skipped, a variable a SessionStart hook exports: command hooks of the settings files,
what adopt takes."""
VOLATILE = ("session_id", "transcript_path", "message_id", "elapsed_time",
            "session_duration_ms", "CLAUDE_ENV_FILE", "estimated_tokens")  # fmt: skip
"""What only one session has (the token estimate counts the folder names in the conversation)."""


def _scopes(case: Case) -> list[str]:
    places = {hook.where for hook in case.hooks}
    return [scope for scope, wheres in (("user", ("user", "user-hooks")),
                                        ("project", ("project", "project-hooks")))
            if places & set(wheres)]  # fmt: skip


def _seen(agent: dict[str, Any], run: str) -> dict[str, Any]:
    """What the agent did, in terms that do not depend on who ran the hooks."""
    seen = {
        "ran": agent["ran"], "rewritten": agent["rewritten"], "requests": len(agent["requests"]),
        "tool results": tool_results(agent), "user messages": user_messages(agent),
        "first user messages": user_messages(agent, 0), "exit": agent["observation"]["exit"],
        "errors": errors(agent),
        "compacted": compacted(agent),
    }  # fmt: skip
    steady: dict[str, Any] = json.loads(json.dumps(seen).replace(f"/{run}/", "/RUN/"))
    return steady


def _records(folder: Path, run: str) -> dict[str, list[str]]:
    """Each hook run's arguments, variables and folder, the run's folder name replaced and
    the variables only one session has left out."""
    volatile = tuple(f"{name}=" for name in VOLATILE)
    return {path.name: [line for line in path.read_text().replace(f"/{run}/", "/RUN/").splitlines()
                        if not line.startswith(volatile)]
            for path in sorted(folder.iterdir())
            if re.search(r"\.(args|env|cwd)\.\d+$", path.name)}  # fmt: skip


def _relay_entries(places: dict[str, Path]) -> list[str]:
    """The relay entries adopt wrote in the agent's hook files."""
    found = []
    for folder in (places["home"] / ".factory", places["ws"] / ".factory"):
        for path in sorted(folder.glob("*.json")):
            found += re.findall(r'"command": "([^"]*hookd-relay[^"]*)"', path.read_text())
    return found


@pytest.fixture(scope="module")
def both_ahead(request: pytest.FixtureRequest, droid_bin: str, netns: None,
               tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ahead]:  # fmt: skip
    """Each selected case run twice, as it is and through the relay, ahead of its test
    (``harness/ahead.py``: two agent runs at a time)."""
    cases = selected_cases(request, "test_the_agent_does_the_same_through_the_relay")
    base = tmp_path_factory.mktemp("relayed")
    runs = Ahead(trio_side(_both_runs, droid_bin), cases, lambda c: base / c.id, jobs())
    yield runs
    runs.close()


async def _both_runs(droid: str, case: Case, root: Path) -> dict[str, Any]:
    """The plain run, then ``hookd adopt`` and the relayed run with a daemon of its own."""
    plain_places = setup_case(case, root / "plain")
    plain = await run_agent(case, plain_places, droid)
    places = setup_case(case, root / "relayed")
    said = await adopt("droid", places, *_scopes(case))
    sockets = Path(tempfile.mkdtemp(prefix="hk", dir="/tmp"))
    settings = Settings(socket_path=str(sockets / "hookd.sock"), home=str(places["home"]),
                        system_root=str(places["system"]), term_grace_s=0.2, watchdog=False,
                        subreaper=False, trust_all=True)  # fmt: skip
    try:
        async with serving(settings, places["home"]) as env:
            relayed = await run_agent(case, places, droid, env)
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


async def test_a_daemon_killed_mid_session_is_started_again_by_the_next_event(
    droid_bin: str, netns: None, short_dir: Path, tmp_path: Path
) -> None:
    """The relay starts hookd for PreToolUse, the tool call kills it (kill -9), the relay
    of PostToolUse finds no daemon and starts another, and its hook's context reaches the
    model after the tool's result."""
    context = out({"hookSpecificOutput": {"additionalContext": "after the restart"}})
    case = Case(
        "relay-daemon-killed", "a daemon killed between two events",
        (Hook("a"), Hook("p", key="PostToolUse", stdout=context)),
        Does(), turns=(execute(KILL_COMMAND), DONE),
    )  # fmt: skip
    places = setup_case(case, tmp_path / "relayed")
    write_kill_script(places["ws"])
    await adopt("droid", places, "user")

    async with from_cold(places, short_dir / "hookd.sock") as env:
        relayed = await run_agent(case, places, droid_bin, env)
        pid = await serving_pid(short_dir / "hookd.sock")

    assert relayed["ran"]
    assert user_messages(relayed) == ["after the restart"]
    assert sorted(p.name for p in places["agent"].glob("*.stdin.*")) == ["a.stdin.0", "p.stdin.0"]
    assert_started_again(places["ws"], short_dir, pid)


async def test_the_relay_starts_hookd_when_none_runs(
    droid_bin: str, netns: None, short_dir: Path, tmp_path: Path
) -> None:
    """From a cold machine: no daemon; the relay inside Droid starts one, the adopted hook
    denies as it did under the agent (same tool result for the model), and the daemon it
    started still serves afterwards, started once."""
    case = next(c for c in CASES if c.id == "pre-deny")
    places = setup_case(case, tmp_path / "relayed")
    await adopt("droid", places, "user")
    socket = short_dir / "hookd.sock"
    assert not socket.exists()

    async with from_cold(places, socket) as env:
        relayed = await run_agent(case, places, droid_bin, env)
        pid = await serving_pid(socket)

    assert pid > 0
    assert not relayed["ran"]
    assert tool_results(relayed) == ["Error: no way"]  # as the agent does
    assert sorted(p.name for p in places["agent"].glob("*.stdin.*")) == ["a.stdin.0"]
    assert_daemon_starts(short_dir, 1)


@pytest.mark.parametrize("policy", [None, "block"])
async def test_an_unreachable_hookd_follows_the_relay_policy(
    droid_bin: str, netns: None, short_dir: Path, tmp_path: Path, policy: str | None
) -> None:
    """No daemon and HOOKD_NO_SPAWN=1. By default the relay fails as a hook does (exit 1):
    the tool runs, and Droid puts the line before its result, as it does with any failing
    hook's stderr. With HOOKD_RELAY_ON_ERROR=block the relay adds a deny, which Droid reads
    on exit 1 too: the tool is not run and the model is told the line."""
    case = next(c for c in CASES if c.id == "pre-none")
    places = setup_case(case, tmp_path / "relayed")
    await adopt("droid", places, "user")
    env, said = unreachable(short_dir, policy)

    relayed = await run_agent(case, places, droid_bin, env)

    assert list(places["agent"].glob("*.stdin.*")) == []  # the adopted hook never ran
    assert not (short_dir / "none.sock").exists()  # and no daemon was started
    if policy is None:
        assert relayed["ran"]
        assert tool_results(relayed)[0].startswith(said + "\n")
    else:
        assert not relayed["ran"]
        assert tool_results(relayed) == [f"Error: {said}"]
    assert len(relayed["requests"]) == 2
