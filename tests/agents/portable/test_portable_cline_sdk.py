"""The portable-hooks matrix in the real Cline SDK runner, 3.0.65 (issue 27, phase B): the
matrix's one portable hooks file, ``hookd relay install --agent cline-sdk`` (a relay file
per event in ``~/Documents/Cline/Hooks``, nothing else), hookd serving, the agent driven by
its suite's harness (the fake model asks for native tool calls).

A cancel stops the SDK's run, so the two guards take one session each: the first holds
the lifecycle events, the post-edit hook (``editor`` creating, then editing, a file), the
rewrite and the ``rm -rf`` guard (its last tool call); the second the ``.env`` guard.

The cells: 1 ``rm -rf`` blocked with its reason (the cancel's ``errorMessage``) — the
model never sees it: the SDK ends the run on a cancel; 2 ``.env`` blocked likewise (the
``editor`` tool, the shared ``Edit``); 3 cannot: the SDK runs TaskStart file hooks detached and
ignores their output, the fires warn that the context is not carried (UserPromptSubmit
never fires in a one-shot ``cline --json`` run); 4 the post-edit hook gets the edited file's path (``editor``'s
``path``); 5 the rewrite is applied (``overrideInput``: the command runs rewritten)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agents.harness.cline_cases import run_agent, strings
from agents.harness.relayed import serving
from agents.portable import matrix
from agents.portable.relay_installed import cline_case
from hookd.daemon.settings import Settings

AGENT = "cline-sdk"


def _run(cline: str, tag: str, turns: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "cline": cline, "version": "sdk", "tag": f"case:{tag}",
        "argv": ["--json", f"case:{tag} do the task"], "turns": {tag: turns}, "timeout": 60,
    }  # fmt: skip


def _shell(command: str) -> dict[str, Any]:
    return {"tool": "run_commands", "args": {"commands": [command]}}


async def test_the_portable_hooks_in_the_cline_sdk(
    cline_sdk_bin: str, netns: None, settings: Settings, tmp_path: Path
) -> None:
    places, portable = await cline_case(AGENT, tmp_path / "case")
    ws, home = places["ws"], places["home"]
    notes, out = ws / "notes.txt", ws / "out.txt"
    session = [
        {"tool": "editor", "args": {"path": str(notes), "new_text": "first\n"}},
        {"tool": "editor", "args": {"path": str(notes), "old_text": "first", "new_text": "second"}},
        _shell(matrix.rewrite_command(out)),
        _shell(matrix.rmrf_command(ws)),
        {"text": "all done"},
    ]
    guard = [{"tool": "editor", "args": {"path": str(ws / ".env"), "new_text": "SECRET=1\n"}}]

    async with serving(settings, home) as env:
        first = await run_agent(places, {**_run(cline_sdk_bin, "portable", session), "env": env})
        again = {**places, "run": tmp_path / "second-run"}  # its own fake model
        again["run"].mkdir()
        second = await run_agent(again, {**_run(cline_sdk_bin, "portable-env", guard),
                                         "env": env})  # fmt: skip

    blocked = [r["reason"] for r in matrix.fire_records(settings)
               if r["agent"] == AGENT and r["event"] == "PreToolUse" and r["blocked"]]  # fmt: skip
    # 1: rm -rf blocked with its reason; the run ends there
    assert (ws / "victim" / "keep").exists()
    assert blocked[0] == matrix.RMRF_REASON
    assert len(first["requests"]) == 4  # the prompt and three tool results, nothing after
    assert matrix.RMRF_REASON not in "\n".join(strings(first["requests"]))
    # 2: the .env edit blocked
    assert not (ws / ".env").exists()
    assert blocked[1:] == [matrix.ENV_REASON]
    assert len(second["requests"]) == 1
    env_run = portable.runs("env")[-1]
    assert (env_run["hookd_agent_tool"], env_run["tool_name"]) == ("editor", "Edit")
    assert env_run["tool_input"]["file_path"] == str(ws / ".env")
    # 3: cannot: TaskStart's output is ignored (the fires say so); UserPromptSubmit never
    # fires in a one-shot run (docs/compatibility.md, Cline SDK)
    sent = "\n".join(strings(first["requests"]))
    assert matrix.PROMPT_CONTEXT not in sent
    assert matrix.SESSION_CONTEXT not in sent
    lost = matrix.fire_warnings(settings, AGENT, ["TaskStart"])
    assert len(lost) == 2, matrix.fire_warnings(settings, AGENT)  # one per run
    assert all("answered context, which cline-sdk does not act on at TaskStart (SessionStart): "
               "not carried" in w for w in lost)  # fmt: skip
    assert not [r for r in matrix.fire_records(settings) if r["event"] == "UserPromptSubmit"]
    assert portable.runs("prompt") == []
    # 4: the post-edit hook, after each editor call, with the path
    assert notes.read_text().strip() == "second"
    assert portable.edited() == [str(notes)] * 2
    create, edit = portable.runs("post-edit")
    assert (create["hookd_agent_tool"], create["tool_name"]) == ("editor", "Edit")
    assert edit["tool_input"]["old_string"] == "first"
    assert edit["tool_input"]["new_string"] == "second"
    # 5: the rewrite applied: the command ran rewritten
    assert out.read_text().strip() == matrix.REWRITTEN
    # once per event: one relay file (the global folder's) ran each portable hook
    assert len(portable.runs("session")) == 2  # one run each
    assert len(portable.runs("rmrf")) == 2  # the two commands
    assert portable.agents("rmrf") == {AGENT}
