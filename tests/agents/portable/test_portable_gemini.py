"""The portable-hooks matrix in the real Gemini CLI 0.61.0 (issue 27): the matrix's one
portable hooks file (``matrix.py``) in the user's ``~/.config/hookd/hooks.json``, the relay
installed by the real ``hookd relay install --agent gemini`` (no hand-written entries),
hookd serving, and one headless session (the fake model scripting the tool calls, the
agent in a loopback-only network namespace) that meets all five cases:

1. ``rm -rf`` in ``run_shell_command`` is denied, the model is sent the guard's reason;
2. ``write_file`` of ``.env.local`` is denied (BeforeTool is Gemini's pre-write event);
   ``.env`` itself Gemini refuses before any hook runs (a path with a ``.env`` segment is
   "not in workspace" to it, ``hasBlockedPathSegment``): the guard never sees it;
3. the prompt's (BeforeAgent) and the session's (SessionStart) contexts reach the model;
4. the post-edit hook (AfterTool) runs after ``write_file`` and ``replace`` with the edited
   file's path in ``tool_input.file_path`` (Gemini's own key: checked here);
5. the marker command is rewritten (Gemini applies ``hookSpecificOutput.tool_input``)."""

from __future__ import annotations

import json
from pathlib import Path

from agents.gemini.cases import Case, Does
from agents.gemini.test_gemini_agent import _setup, function_responses, run_agent, user_texts
from agents.harness.relayed import serving
from agents.portable.matrix import (
    ENV_REASON,
    ORIGINAL,
    PROMPT_CONTEXT,
    REWRITTEN,
    RMRF_REASON,
    SESSION_CONTEXT,
    assert_once_per_event,
    fire_records,
    fire_warnings,
    relay_install,
    rewrite_command,
    rmrf_command,
    write_portable_hooks,
)
from hookd.daemon.settings import Settings


def _call(name: str, **args: str) -> dict[str, object]:
    return {"call": {"name": name, "args": args}}


async def test_the_portable_hooks_guard_gemini(
    gemini_bin: str, netns: None, settings: Settings, tmp_path: Path
) -> None:
    places = _setup(
        Case("portable-matrix", "the matrix's five cases", (), Does()), tmp_path / "run"
    )
    ws = places["ws"]
    turns = (
        _call("run_shell_command", command=rmrf_command(ws), description="clean up"),
        _call("write_file", file_path="{ws}/.env", content="SECRET=1\n"),
        _call("write_file", file_path="{ws}/.env.local", content="SECRET=1\n"),
        _call("write_file", file_path="{ws}/notes.txt", content="one\n"),
        _call(
            "replace",
            file_path="{ws}/notes.txt",
            old_string="one",
            new_string="two",
            instruction="change one to two",
        ),
        _call(
            "run_shell_command",
            command=rewrite_command(ws / "out.txt"),
            description="the marker",
        ),
        {"text": "All done."},
    )
    case = Case("portable-matrix", "the matrix's five cases", (), Does(), turns=turns)
    portable = write_portable_hooks(places["home"])
    said = await relay_install("gemini", places["home"])
    assert "relaying AfterTool, BeforeAgent, BeforeTool, SessionStart" in said, said

    async with serving(settings, places["home"]) as env:
        agent = await run_agent(case, places, gemini_bin, env)

    results = function_responses(agent["requests"])
    assert agent["observation"]["exit"] == 0, agent["stderr"]
    # 1. rm -rf denied, the reason sent to the model
    assert (ws / "victim" / "keep").exists()
    assert results[0] == {"error": f"Tool execution blocked: {RMRF_REASON}"}
    # 2. the .env.local write denied by the guard; .env refused by Gemini, no hook asked
    assert not (ws / ".env").exists()
    assert results[1]["error"].startswith(f'Path not in workspace: Attempted path "{ws}/.env"')
    assert not (ws / ".env.local").exists()
    assert results[2] == {"error": f"Tool execution blocked: {ENV_REASON}"}
    assert [Path(r["tool_input"]["file_path"]).name for r in portable.runs("env")] == [
        ".env.local", "notes.txt", "notes.txt"]  # fmt: skip
    # 3. both contexts in the first request, after the prompt
    prompt = user_texts(agent["requests"][0])[-1]
    assert any(SESSION_CONTEXT in part for part in prompt), prompt
    assert f"<hook_context>{PROMPT_CONTEXT}</hook_context>" in prompt, prompt
    # 4. the post-edit hook saw both edits of notes.txt by its path
    assert (ws / "notes.txt").read_text() == "two\n"
    assert portable.edited() == [str(ws / "notes.txt")] * 2
    assert [r["tool_name"] for r in portable.runs("post-edit")] == ["Write", "Edit"]
    assert [r["hookd_agent_tool"] for r in portable.runs("post-edit")] == ["write_file", "replace"]
    assert [sorted(r["tool_input"]) for r in portable.runs("post-edit")] == [
        ["content", "file_path"], ["file_path", "instruction", "new_string", "old_string"]]  # fmt: skip
    # 5. the marker command rewritten
    assert (ws / "out.txt").read_text().strip() == REWRITTEN, results[5]
    assert ORIGINAL not in json.dumps(results[5])
    # each hook ran once per event (one relay entry per event), in Gemini's fires only
    assert_once_per_event(portable, "gemini", shell_calls=2)
    assert len(portable.runs("prompt")) == 1
    fired = {(r["agent"], r["event"]) for r in fire_records(settings)}
    assert ("gemini", "BeforeTool") in fired, fired
    assert fire_warnings(settings, "gemini") == []
