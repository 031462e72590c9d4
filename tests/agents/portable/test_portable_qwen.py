"""The portable-hooks matrix in the real Qwen Code 0.24.4 (issue 27): the matrix's one
portable hooks file (``matrix.py``) in the user's ``~/.config/hookd/hooks.json``, the relay
installed by the real ``hookd relay install --agent qwen`` (no hand-written entries), hookd
serving, and one headless session (the fake chat-completions model scripting the tool
calls, the agent in a loopback-only network namespace) that meets all five cases:

1. ``rm -rf`` in ``run_shell_command`` is denied, the model is sent the guard's reason;
2. ``write_file`` of ``.env`` is denied (PreToolUse is Qwen's pre-write event);
3. the prompt's (UserPromptSubmit) and the session's (SessionStart) contexts reach the model;
4. the post-edit hook (PostToolUse) runs after ``write_file`` and ``edit`` with the edited
   file's path in ``tool_input.file_path`` (Qwen's own key: checked here);
5. Qwen CANNOT rewrite a tool's input from PreToolUse (it ignores ``updatedInput`` there,
   ``qwen-research.md`` §5.2): the marker command runs as sent, and the fire's warning
   names the field, the agent and the event."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agents.harness.relayed import serving
from agents.portable.matrix import (
    ENV_REASON,
    ORIGINAL,
    PROMPT_CONTEXT,
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
from agents.qwen.cases import Case, Does
from agents.qwen.test_qwen_agent import (
    run_agent,
    setup_case,
    system_prompt,
    tool_results,
    user_parts,
)
from hookd.daemon.settings import Settings


def _call(name: str, **args: str) -> dict[str, Any]:
    return {"tool": name, "args": args}


async def test_the_portable_hooks_guard_qwen(
    qwen_bin: str, netns: None, settings: Settings, tmp_path: Path
) -> None:
    places = setup_case(
        Case("portable-matrix", "the matrix's five cases", (), Does()), tmp_path / "run"
    )
    ws = places["ws"]
    turns = (
        _call("run_shell_command", command=rmrf_command(ws), description="clean up"),
        _call("write_file", file_path="{ws}/.env", content="SECRET=1\n"),
        _call("write_file", file_path="{ws}/notes.txt", content="one\n"),
        _call("edit", file_path="{ws}/notes.txt", old_string="one", new_string="two"),
        _call(
            "run_shell_command",
            command=rewrite_command(ws / "out.txt"),
            description="the marker",
        ),
        {"text": "All done."},
    )
    case = Case("portable-matrix", "the matrix's five cases", (), Does(), turns=turns)
    portable = write_portable_hooks(places["home"])
    said = await relay_install("qwen", places["home"])
    assert "relaying PostToolUse, PreToolUse, SessionStart, UserPromptSubmit" in said, said

    async with serving(settings, places["home"]) as env:
        agent = await run_agent(case, places, qwen_bin, env)

    results = tool_results(agent)
    assert agent["observation"]["exit"] == 0, agent["stderr"]
    assert len(results) == 5, results
    # 1. rm -rf denied, the reason sent to the model
    assert (ws / "victim" / "keep").exists()
    assert RMRF_REASON in results[0], results[0]
    # 2. the .env write denied
    assert not (ws / ".env").exists()
    assert ENV_REASON in results[1], results[1]
    # 3. the prompt's context after the prompt, the session's in the system prompt
    first = agent["requests"][0]
    assert any(PROMPT_CONTEXT in part for part in user_parts(first)[-1]), user_parts(first)
    assert SESSION_CONTEXT in system_prompt(first)
    # 4. the post-edit hook saw both edits of notes.txt by its path
    assert (ws / "notes.txt").read_text() == "two\n"
    assert portable.edited() == [str(ws / "notes.txt")] * 2
    assert [r["tool_name"] for r in portable.runs("post-edit")] == ["Write", "Edit"]
    assert [r["hookd_agent_tool"] for r in portable.runs("post-edit")] == ["write_file", "edit"]
    # Qwen's input keys, as the phase-A mapping took them (Claude's own)
    assert [sorted(r["tool_input"]) for r in portable.runs("post-edit")] == [
        ["content", "file_path"], ["file_path", "new_string", "old_string"]]  # fmt: skip
    # 5. cannot: the marker ran as sent; the fire says the rewrite was not carried
    assert (ws / "out.txt").read_text().strip() == ORIGINAL
    warnings = fire_warnings(settings, "qwen", ["PreToolUse"])
    assert any(
        "updatedInput" in w and "qwen does not act on at PreToolUse (PreToolUse)" in w
        for w in warnings
    ), warnings
    # each hook ran once per event (one relay entry per event), in Qwen's fires only
    assert_once_per_event(portable, "qwen", shell_calls=2)
    assert len(warnings) == 1
    assert {r["agent"] for r in fire_records(settings)} == {"qwen"}
