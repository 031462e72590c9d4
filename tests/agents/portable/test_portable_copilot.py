"""The portable-hooks matrix in the real GitHub Copilot CLI 1.0.102 (issue 27, phase B):
the matrix's hooks file (``matrix.write_portable_hooks``) in the case's home, installed
with the real ``hookd relay install --agent copilot`` (nothing adopted: the entries land
in ``~/.copilot/hooks/hookd-portable.json``), hookd serving, and ONE ``copilot -p``
session (the harness of ``tests/agents/copilot``: loopback-only namespace, the model
scripted) that makes every case's tool call in turn:

1. ``bash`` ``rm -rf <ws>/victim``: denied by the Bash guard, the reason in the tool result;
2. ``create`` ``<ws>/.env``: denied by the Write|Edit guard (Copilot's preToolUse);
3. sessionStart and userPromptSubmitted contexts in the model's first request;
4. ``create`` then ``edit`` of ``<ws>/notes.txt``: the post-edit hook gets its path in
   ``tool_input.file_path`` each time (Copilot's ``path`` renamed; ``file_text``,
   ``old_str``, ``new_str`` renamed to Claude's: checked here on the real agent);
5. ``bash`` ``echo PORTABLE-ORIGINAL > out``: the rewrite (``modifiedArgs``) applied.

Every cell passes on Copilot: it carries each of these answers (``portable.CARRIES``).
No fire of the session warns (an event the relay does not carry, a field it cannot carry).
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import trio

from agents.copilot.cases import DONE, Case, Does, Hook, bash
from agents.copilot.test_copilot_agent import run_agent, setup_case, tool_results
from agents.harness.relayed import adopt, serving
from agents.portable.matrix import (
    ENV_REASON,
    ORIGINAL,
    PROMPT_CONTEXT,
    REWRITTEN,
    RMRF_REASON,
    SESSION_CONTEXT,
    Portable,
    fire_records,
    fire_warnings,
    rewrite_command,
    rmrf_command,
    write_portable_hooks,
)
from hookd.daemon.settings import Settings

NOTES_BEFORE, NOTES_AFTER = "first line\n", "second line\n"


def _turns(ws: Path) -> tuple[dict[str, Any], ...]:
    """The scripted model: each case's tool call, one a turn, then a last text."""
    notes = str(ws / "notes.txt")
    return (
        bash(rmrf_command(ws)),
        {"tool": "create", "args": {"path": str(ws / ".env"), "file_text": "SECRET=1\n"}},
        {"tool": "create", "args": {"path": notes, "file_text": NOTES_BEFORE}},
        {"tool": "edit", "args": {"path": notes, "old_str": "first", "new_str": "second"}},
        bash(rewrite_command(ws / "out")),
        DONE,
    )


class Session:
    """What one Copilot session under the portable hooks did."""

    def __init__(self, places: dict[str, Path], agent: dict[str, Any], portable: Portable,
                 settings: Settings, installed: str) -> None:  # fmt: skip
        self.places, self.agent, self.portable = places, agent, portable
        self.settings, self.installed = settings, installed
        self.ws = places["ws"]

    def results(self) -> list[str]:
        return tool_results(self.agent)

    def first_request(self) -> str:
        return json.dumps(self.agent["requests"][0]["messages"])


async def _served(case: Case, places: dict[str, Path], copilot: str,
                  state: Path) -> tuple[Settings, dict[str, Any]]:  # fmt: skip
    """The case's session in the agent with hookd serving its home (its audit log in
    ``state``): the daemon's settings and what the agent did."""
    sockets = Path(tempfile.mkdtemp(prefix="hk", dir="/tmp"))
    settings = Settings(socket_path=str(sockets / "hookd.sock"), home=str(places["home"]),
                        system_root=str(places["system"]), state_dir=str(state),
                        term_grace_s=0.2, watchdog=False, subreaper=False, trust_all=True)  # fmt: skip
    try:
        async with serving(settings, places["home"]) as env:
            agent = await run_agent(case, places, copilot, env)
    finally:
        shutil.rmtree(sockets, ignore_errors=True)
    return settings, agent


async def _session(copilot: str, root: Path) -> Session:
    case = Case("portable-matrix", "the matrix's five cases in one session", (), Does())
    places = setup_case(case, root)
    case = Case(case.id, case.about, (), Does(), turns=_turns(places["ws"]))
    portable = write_portable_hooks(places["home"])
    install = await trio.run_process(
        [sys.executable, "-m", "hookd", "relay", "install", "--agent", "copilot",
         "--scope", "user", "--home", str(places["home"])],
        capture_stdout=True, capture_stderr=True, check=False,
    )  # fmt: skip
    assert install.returncode == 0, install.stderr.decode()
    settings, agent = await _served(case, places, copilot, root / "state")
    return Session(places, agent, portable, settings, install.stdout.decode())


@pytest.fixture(scope="module")
def session(copilot_bin: str, netns: None, tmp_path_factory: pytest.TempPathFactory) -> Session:  # fmt: skip
    """The one session every cell reads (run before the module's first test)."""
    return trio.run(_session, copilot_bin, tmp_path_factory.mktemp("portable-copilot"))


def test_relay_install_wrote_the_portable_entries(session: Session) -> None:
    entries = json.loads(
        (session.places["home"] / ".copilot" / "hooks" / "hookd-portable.json").read_text()
    )["hooks"]
    assert sorted(entries) == ["postToolUse", "preToolUse", "sessionStart", "userPromptSubmitted"]
    assert entries["preToolUse"][0]["matcher"] == "bash|create|edit|powershell"
    assert session.agent["observation"]["exit"] == 0, session.agent["stderr"][-2000:]


def test_1_the_rm_rf_guard_blocks_bash_and_the_model_sees_why(session: Session) -> None:
    results = session.results()
    assert (session.ws / "victim" / "keep").exists()
    assert RMRF_REASON in results[0], results[0]
    assert session.portable.agents("rmrf") == {"copilot"}
    first = session.portable.runs("rmrf")[0]
    assert (first["tool_name"], first["hookd_agent_tool"]) == ("Bash", "bash")
    assert first["tool_input"]["command"] == rmrf_command(session.ws)


def test_2_the_env_guard_blocks_create(session: Session) -> None:
    results = session.results()
    assert not (session.ws / ".env").exists()
    assert ENV_REASON in results[1], results[1]
    [denied, *_] = session.portable.runs("env")
    assert (denied["tool_name"], denied["hookd_agent_tool"]) == ("Write", "create")
    assert denied["tool_input"] == {"file_path": str(session.ws / ".env"), "content": "SECRET=1\n"}


def test_3_session_and_prompt_contexts_reach_the_model(session: Session) -> None:
    first = session.first_request()
    assert SESSION_CONTEXT in first
    assert PROMPT_CONTEXT in first
    assert [run["hookd_agent_event"] for run in session.portable.runs("session")] == [
        "sessionStart"
    ]
    assert [run["hookd_agent_event"] for run in session.portable.runs("prompt")] == [
        "userPromptSubmitted"
    ]


def test_4_the_post_edit_hook_gets_each_edited_path(session: Session) -> None:
    notes = str(session.ws / "notes.txt")
    assert (session.ws / "notes.txt").read_text() == NOTES_AFTER
    assert session.portable.edited() == [notes, notes]
    created, edited = session.portable.runs("post-edit")
    assert (created["tool_name"], created["hookd_agent_tool"]) == ("Write", "create")
    assert (edited["tool_name"], edited["hookd_agent_tool"]) == ("Edit", "edit")
    assert created["tool_input"] == {"file_path": notes, "content": NOTES_BEFORE}
    assert edited["tool_input"] == {"file_path": notes, "old_string": "first",
                                    "new_string": "second"}  # fmt: skip


def test_5_the_rewrite_is_applied(session: Session) -> None:
    out = session.ws / "out"
    assert out.read_text().strip() == REWRITTEN
    assert ORIGINAL not in out.read_text()
    rewrites = [
        r for r in session.portable.runs("rewrite") if ORIGINAL in r["tool_input"]["command"]
    ]
    assert len(rewrites) == 1  # once per tool call, though the rm -rf guard ran beside it


def test_each_event_ran_the_portable_hooks_once_and_nothing_warned(session: Session) -> None:
    fires = [r for r in fire_records(session.settings) if r.get("agent") == "copilot"]
    assert {r["event"] for r in fires} >= {"sessionStart", "userPromptSubmitted",
                                            "preToolUse", "postToolUse"}  # fmt: skip
    assert fire_warnings(session.settings, "copilot") == []
    assert len(session.portable.runs("rmrf")) == 2  # the two bash calls, once each
    assert len(session.portable.runs("env")) == 3  # the three create/edit calls


async def test_beside_adopted_hooks_the_first_entry_runs_them_once(
    copilot_bin: str, netns: None, tmp_path: Path
) -> None:
    """``hookd adopt`` of both scopes with the portable hooks in place: the user's
    ``a.json`` (a ``view`` hook) comes first, so its preToolUse entry takes the portable
    tools; the project's ``r.json`` (a ``bash`` hook) runs after it. For one ``bash`` call
    Copilot runs both entries: the portable rewrite runs once, in the first, and Copilot
    hands its ``modifiedArgs`` on to the project's entry, whose adopted hook sees the
    rewritten command; the ``view`` hook does not run."""
    case = Case("portable-adopted", "portable hooks beside adopted ones", (
        Hook("user-view", file="a.json", fields={"matcher": "view"}),
        Hook("repo-bash", where="repo", file="r.json", fields={"matcher": "bash"}),
    ), Does(), turns=(bash(rewrite_command(Path("{ws}") / "out")), DONE))  # fmt: skip
    places = setup_case(case, tmp_path / "run")
    portable = write_portable_hooks(places["home"])
    await adopt("copilot", places, "user", "project")
    settings, agent = await _served(case, places, copilot_bin, tmp_path / "state")

    user_entry = json.loads((places["home"] / ".copilot" / "hooks" / "a.json").read_text())
    assert user_entry["hooks"]["preToolUse"][0]["matcher"] == "view|bash|create|edit|powershell"
    assert (places["ws"] / "out").read_text().strip() == REWRITTEN, agent["stderr"][-2000:]
    assert [ORIGINAL in r["tool_input"]["command"] for r in portable.runs("rewrite")] == [True]
    [seen] = [json.loads(p.read_text()) for p in places["agent"].glob("repo-bash.stdin.*")]
    assert REWRITTEN in seen["toolArgs"]["command"]
    assert not list(places["agent"].glob("user-view.stdin.*"))
    assert fire_warnings(settings, "copilot") == []
