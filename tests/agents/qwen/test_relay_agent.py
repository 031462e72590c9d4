"""The relay inside the real Qwen Code 0.24.4 (issue 26): each case runs in the agent as it
is, then again after ``hookd adopt --agent qwen`` (the user's and the project's
``settings.json`` hooks handed to hookd, one ``hookd-relay qwen`` entry per event in their
place) with hookd serving. The agent must do the same thing both times (the tool, what the
model was sent, what it answered), and every hook must run exactly as often, given the
same event, arguments, variables and folder.

The relay's answer is the adopted hooks' answers merged by Qwen's own rules
(``dialect.native``), which Qwen then merges with its other hooks' as one hook's."""

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
from agents.qwen.cases import CASES, Case, Does, Hook, specific
from agents.qwen.test_qwen_agent import result_of, run_agent, setup_case, tool_results
from agents.qwen.test_qwen_agent import user_parts as all_user_parts
from hookd.daemon.settings import Settings
from hookd_testing.cases import case_params

RELAYED = (
    "pre-deny", "pre-exit2-stderr", "pre-continue-false", "pre-merge-reasons", "sequential-chain",
    "post-context", "post-continue-false", "batch-block", "ups-context", "ups-block",
    "stop-block", "session-start-context",
)  # fmt: skip
"""Denies by JSON and by exit code, a stop, several hooks' reasons, a chain run in order, a
tool result's context and its replacement, a batch's block, a prompt's context and block,
a Stop that sends the model round again, a session's context."""
VOLATILE = ("session_id", "transcript_path", "timestamp", "prompt_id", "tool_use_id",
            "duration_ms", "message_id", "content_length")  # fmt: skip
"""What only one session has."""


def _scopes(case: Case) -> list[str]:
    layers = {layer for hook in case.hooks for layer in hook.layers}
    return [scope for scope in ("user", "project") if scope in layers]


def _steady_text(text: str, run: str) -> str:
    text = text.replace(f"/{run}/", "/RUN/").replace(f"-{run}-", "-RUN-")  # and its slug
    text = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "S", text)
    text = re.sub(r"Process Group PGID: \d+", "Process Group PGID: N", text)
    return re.sub(r"toolu_\d+_\w+", "T", text)


def _payload(run: str) -> Any:
    return lambda raw: json.loads(_steady_text(raw.decode(), run))


def _seen(agent: dict[str, Any], run: str) -> dict[str, Any]:
    """What the agent did, in terms that do not depend on who ran the hooks."""
    requests = agent["requests"]
    seen = {
        "ran": agent["ran"], "requests": len(requests), "results": tool_results(agent),
        "turns": [user_parts(r) for r in requests],
        "result": result_of(agent).get("result"), "exit": agent["observation"]["exit"],
    }  # fmt: skip
    steady: dict[str, Any] = json.loads(_steady_text(json.dumps(seen), run))
    return steady


def user_parts(request: dict[str, Any]) -> list[list[str]]:
    """The user messages' text parts but Qwen's own reminders (they list the workspace's
    folders, where adopt leaves hookd's files)."""
    return [[p for p in parts if not p.startswith("<system-reminder>")]
            for parts in all_user_parts(request)]  # fmt: skip


def records(folder: Path, run: str) -> dict[str, list[str]]:
    found = {}
    for path in sorted(folder.iterdir()):
        if re.search(r"\.(args|env|cwd)\.\d+$", path.name):
            text = _steady_text(path.read_text(), run)
            found[path.name] = text.splitlines()
    return found


@pytest.fixture(scope="module")
def both_ahead(request: pytest.FixtureRequest, qwen_bin: str, netns: None,
               tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ahead]:  # fmt: skip
    """Each selected case run twice, as it is and through the relay, ahead of its test
    (``harness/ahead.py``: two agent runs at a time)."""
    cases = selected_cases(request, "test_the_agent_does_the_same_through_the_relay")
    base = tmp_path_factory.mktemp("relayed")
    runs = Ahead(trio_side(_both_runs, qwen_bin), cases, lambda c: base / c.id, jobs())
    yield runs
    runs.close()


async def _both_runs(qwen: str, case: Case, root: Path) -> dict[str, Any]:
    """The plain run, then ``hookd adopt`` and the relayed run with a daemon of its own."""
    plain_places = setup_case(case, root / "plain")
    plain = await run_agent(case, plain_places, qwen)
    places = setup_case(case, root / "relayed")
    said = await adopt("qwen", places, *_scopes(case))
    sockets = Path(tempfile.mkdtemp(prefix="hk", dir="/tmp"))
    settings = Settings(socket_path=str(sockets / "hookd.sock"), home=str(places["home"]),
                        system_root=str(places["system"]), term_grace_s=0.2, watchdog=False,
                        subreaper=False, trust_all=True)  # fmt: skip
    try:
        async with serving(settings, places["home"]) as env:
            relayed = await run_agent(case, places, qwen, env)
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

    assert _seen(relayed, "relayed") == _seen(plain, "plain")
    assert given(places["agent"], "relayed", VOLATILE, _payload("relayed")) == given(
        plain_places["agent"], "plain", VOLATILE, _payload("plain")
    )
    assert records(places["agent"], "relayed") == records(plain_places["agent"], "plain")


async def test_a_daemon_killed_mid_session_is_started_again_by_the_next_event(
    qwen_bin: str, netns: None, short_dir: Path, tmp_path: Path
) -> None:
    """The relay starts hookd for PreToolUse, the tool call kills it (kill -9), the relay
    of PostToolUse finds no daemon and starts another, and its hook's context reaches the
    model after the tool's result."""
    case = Case(
        "relay-daemon-killed", "a daemon killed between two events",
        (Hook("a"), Hook("p", event="PostToolUse",
                         stdout=specific(additionalContext="after the restart"))),
        Does(), tool_command=KILL_COMMAND,
    )  # fmt: skip
    places = setup_case(case, tmp_path / "relayed")
    write_kill_script(places["ws"])
    await adopt("qwen", places, "user")

    async with from_cold(places, short_dir / "hookd.sock") as env:
        relayed = await run_agent(case, places, qwen_bin, env)
        pid = await serving_pid(short_dir / "hookd.sock")

    assert relayed["ran"]
    assert tool_results(relayed)[0].endswith("\n\nafter the restart")
    assert sorted(p.name for p in places["agent"].glob("*.stdin.*")) == ["a.stdin.0", "p.stdin.0"]
    assert_started_again(places["ws"], short_dir, pid)


async def test_the_relay_starts_hookd_when_none_runs(
    qwen_bin: str, netns: None, short_dir: Path, tmp_path: Path
) -> None:
    """From a cold machine: no daemon; the relay inside Qwen starts one, the adopted hook
    blocks as it did under the agent, and the daemon it started still serves, started
    once."""
    case = next(c for c in CASES if c.id == "pre-exit2-stderr")
    plain = await run_agent(case, setup_case(case, tmp_path / "plain"), qwen_bin)
    places = setup_case(case, tmp_path / "relayed")
    await adopt("qwen", places, "user")
    socket = short_dir / "hookd.sock"
    assert not socket.exists()

    async with from_cold(places, socket) as env:
        relayed = await run_agent(case, places, qwen_bin, env)
        pid = await serving_pid(socket)

    assert pid > 0
    assert _seen(relayed, "relayed") == _seen(plain, "plain")
    assert sorted(p.name for p in places["agent"].glob("*.stdin.*")) == ["pre.stdin.0"]
    assert_daemon_starts(short_dir, 1)


@pytest.mark.parametrize("policy", [None, "block"])
async def test_an_unreachable_hookd_follows_the_relay_policy(
    qwen_bin: str, netns: None, short_dir: Path, tmp_path: Path, policy: str | None
) -> None:
    """No daemon and HOOKD_NO_SPAWN=1. By default the relay lets the action go on: it
    fails (exit 1) with its line, which Qwen reads as a warning (the tool runs, the model
    is not told). With HOOKD_RELAY_ON_ERROR=block it answers a deny: the tool does not run
    and the model is sent the line as the tool's result."""
    case = next(c for c in CASES if c.id == "pre-payload")
    places = setup_case(case, tmp_path / "relayed")
    await adopt("qwen", places, "user")
    env, said = unreachable(short_dir, policy)

    relayed = await run_agent(case, places, qwen_bin, env)

    assert list(places["agent"].glob("*.stdin.*")) == []  # the adopted hook never ran
    assert not (short_dir / "none.sock").exists()  # and no daemon was started
    assert len(relayed["requests"]) == 2
    if policy is None:
        assert relayed["ran"]
        assert said not in json.dumps(relayed["requests"])  # not for the model
    else:
        assert not relayed["ran"]
        assert tool_results(relayed) == [said]


async def test_one_entry_for_both_files_runs_each_hook_once(
    qwen_bin: str, netns: None, settings: Settings, tmp_path: Path
) -> None:
    """The user's and the project's hooks adopted: the two files get the same relay entry,
    which Qwen runs once (the same name and command), and that run fires every adopted hook
    of the event: each runs once, as without hookd, and a hook both files name runs once
    (Qwen drops the duplicate; hookd too)."""
    case = Case(
        "relay-two-files", "two files, one shared hook",
        (Hook("u"), Hook("p", layers=("project",)), Hook("both", layers=("user", "project"))),
        Does(),
    )  # fmt: skip
    plain_places = setup_case(case, tmp_path / "plain")
    plain = await run_agent(case, plain_places, qwen_bin)
    places = setup_case(case, tmp_path / "relayed")
    await adopt("qwen", places, "user", "project")
    entries = [json.loads(places[f].joinpath(".qwen", "settings.json").read_text())
               ["hooks"]["PreToolUse"] for f in ("home", "ws")]  # fmt: skip
    assert entries[0] == entries[1]
    assert len(entries[0]) == 1

    async with serving(settings, places["home"]) as env:
        relayed = await run_agent(case, places, qwen_bin, env)

    assert _seen(relayed, "relayed") == _seen(plain, "plain")
    runs = sorted(p.name for p in places["agent"].glob("*.stdin.*"))
    assert runs == sorted(p.name for p in plain_places["agent"].glob("*.stdin.*"))
    assert runs == ["both.stdin.0", "p.stdin.0", "u.stdin.0"]
