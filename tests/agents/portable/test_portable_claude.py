"""The portable-hooks matrix in the real Claude Code 2.1.328 (issue 27): the matrix's one
portable hooks file (``matrix.py``) in the user's ``~/.config/hookd/hooks.json``, the relay
installed by the real ``hookd relay install --agent claude`` (no hand-written entries),
hookd serving, and one headless session (the fake Anthropic API scripting the tool calls,
the agent in a loopback-only network namespace) that meets all five cases:

1. ``rm -rf`` in ``Bash`` is denied, the model is sent the guard's reason;
2. ``Write`` of ``.env`` is denied (PreToolUse);
3. the prompt's (UserPromptSubmit) and the session's (SessionStart) contexts reach the model;
4. the post-edit hook (PostToolUse) runs after ``Write`` and ``Edit`` with the edited
   file's path in ``tool_input.file_path``;
5. the marker command is rewritten (``updatedInput``).

The project has portable hooks too (``.hookd/hooks.json``: a Bash hook that only records),
relayed by ``relay install --scope project`` from ``.claude/settings.local.json``: the same
relay command as the user's entry, which Claude Code runs once per event (it de-duplicates
identical handler commands across its settings files), so every portable hook, the user's
and the project's, runs once per event."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agents.claude.cases import Case
from agents.claude.test_claude_agent import _run_agent, _setup
from agents.harness.relayed import serving
from agents.portable.matrix import (
    ENV_REASON,
    PROMPT_CONTEXT,
    REWRITTEN,
    RMRF_REASON,
    SESSION_CONTEXT,
    Portable,
    assert_once_per_event,
    fire_records,
    fire_warnings,
    recorder,
    relay_install,
    rewrite_command,
    rmrf_command,
    write_portable_hooks,
)
from hookd.daemon.settings import Settings


def _call(name: str, **args: str) -> dict[str, Any]:
    return {"tool": name, "input": args}


def tool_results(requests: list[dict[str, Any]]) -> list[str]:
    """Each tool result the model was sent (the last request holds the conversation)."""
    found = []
    for message in requests[-1]["messages"] if requests else []:
        content = message.get("content")
        for block in content if isinstance(content, list) else []:
            if block.get("type") == "tool_result":
                inner = block.get("content")
                found.append(inner if isinstance(inner, str) else json.dumps(inner))
    return found


async def test_the_portable_hooks_guard_claude(
    claude_bin: str, netns: None, settings: Settings, tmp_path: Path
) -> None:
    places = _setup(Case("portable-matrix", "the matrix's five cases", ()), tmp_path / "run")
    ws = places["ws"]
    turns = (
        _call("Bash", command=rmrf_command(ws), description="clean up"),
        _call("Write", file_path="{ws}/.env", content="SECRET=1\n"),
        _call("Write", file_path="{ws}/notes.txt", content="one\n"),
        _call("Edit", file_path="{ws}/notes.txt", old_string="one", new_string="two"),
        _call("Bash", command=rewrite_command(ws / "out.txt"), description="marker"),
        {"text": "done"},
        {"text": "done again"},
    )
    case = Case("portable-matrix", "the matrix's five cases", (), turns=turns,
                args=("--allowedTools", "Bash", "Write", "Edit"))  # fmt: skip
    portable = write_portable_hooks(places["home"])
    said = await relay_install("claude", places["home"])
    assert "relaying PostToolUse, PreToolUse, SessionStart, UserPromptSubmit" in said, said
    project = Portable(ws / ".hookd" / "hooks.json", tmp_path / "project-runs")
    project.file.parent.mkdir()
    project.file.write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [recorder(project.record)]}]}}))  # fmt: skip
    said = await relay_install("claude", places["home"], "--scope", "project",
                               "--project", str(ws))  # fmt: skip
    local = json.loads((ws / ".claude" / "settings.local.json").read_text())
    user = json.loads((places["home"] / ".claude" / "settings.json").read_text())
    [local_entry] = local["hooks"]["PreToolUse"]
    assert local_entry["matcher"] == "Bash"
    assert local_entry["hooks"][0]["command"] in json.dumps(user["hooks"]["PreToolUse"])

    async with serving(settings, places["home"]) as env:
        agent = await _run_agent(case, places, claude_bin, env)

    results = tool_results(agent["requests"])
    assert len(results) == 5, agent["stdout"][-3000:]
    # 1. rm -rf denied, the reason sent to the model
    assert (ws / "victim" / "keep").exists()
    assert RMRF_REASON in results[0], results[0]
    # 2. the .env write denied
    assert not (ws / ".env").exists()
    assert ENV_REASON in results[1], results[1]
    # 3. both contexts in the first request
    first = json.dumps(agent["requests"][0]["messages"])
    assert PROMPT_CONTEXT in first
    assert SESSION_CONTEXT in first
    # 4. the post-edit hook saw both edits of notes.txt by its path
    assert (ws / "notes.txt").read_text() == "two\n"
    assert portable.edited() == [str(ws / "notes.txt")] * 2
    assert [r["tool_name"] for r in portable.runs("post-edit")] == ["Write", "Edit"]
    # 5. the marker command rewritten
    assert (ws / "out.txt").read_text().strip() == REWRITTEN, results[4]
    # each hook ran once per event (one relay entry per event), in Claude's fires only
    assert_once_per_event(portable, "claude", shell_calls=2)
    assert [r["tool_input"]["command"] for r in project.runs("record")] == [
        r["tool_input"]["command"] for r in portable.runs("rmrf")]  # fmt: skip
    assert {r["agent"] for r in fire_records(settings)} == {"claude"}
    assert fire_warnings(settings, "claude") == []
