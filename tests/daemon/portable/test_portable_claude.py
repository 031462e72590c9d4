"""Portable hooks in Claude Code's own fires: the shared vocabulary is Claude's, so a
portable hook is one of Claude's hooks that also knows which agent fired."""

from __future__ import annotations

import json
from pathlib import Path

from hookd_testing import claude_settings, command, write_json

GUARD = (
    'python3 -c "import json,sys; e=json.load(sys.stdin); '
    "c=e.get('tool_input',{}).get('command',''); "
    "sys.exit(0) if 'rm -rf' not in c else (print('no rm -rf here ('+e['hookd_agent']+')', "
    'file=sys.stderr), sys.exit(2))"'
)


def user_portable(home: Path, settings: dict) -> None:
    write_json(home / ".config" / "hookd" / "hooks.json", settings)


async def test_a_user_portable_guard_blocks_claude(rpc, workspace, isolated_home) -> None:
    user_portable(isolated_home, claude_settings("PreToolUse", command(GUARD), matcher="Bash"))

    blocked = await rpc.fire("claude", "PreToolUse", [str(workspace)],
                             {"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}})  # fmt: skip
    passed = await rpc.fire("claude", "PreToolUse", [str(workspace)],
                            {"tool_name": "Bash", "tool_input": {"command": "ls"}})  # fmt: skip

    assert blocked["blocked"] is True
    assert blocked["reason"] == "no rm -rf here (claude)"
    assert passed["blocked"] is False
    assert len(passed["hooks"]) == 1


async def test_the_portable_payload_names_the_agent(rpc, workspace, isolated_home) -> None:
    user_portable(isolated_home, claude_settings("UserPromptSubmit", command(
        "python3 -c \"import json,sys; e=json.load(sys.stdin); print(json.dumps({'hookSpecificOutput': "
        "{'hookEventName': 'UserPromptSubmit', 'additionalContext': e['hookd_agent'] + ' ' + "
        "e['hookd_agent_event'] + ' ' + e['hook_event_name']}}))\"")))  # fmt: skip

    result = await rpc.fire("claude", "UserPromptSubmit", [str(workspace)], {"prompt": "hi"})

    assert result["context"] == "claude UserPromptSubmit UserPromptSubmit"
    assert json.dumps(result["native"])  # answered in Claude's own vocabulary


async def test_hooks_lists_a_portable_hook_with_where_it_runs(
    rpc, workspace, isolated_home
) -> None:
    user_portable(
        isolated_home, claude_settings("PreToolUse", command("true"), matcher="WebSearch")
    )

    listing = await rpc.call("hooks/list", {"roots": [str(workspace)]})

    (hook,) = [h for h in listing["hooks"] if h["portable"]]
    assert hook["source"] == str(isolated_home / ".config" / "hookd" / "hooks.json")
    assert "claude" in hook["portable"]["runs"]
    assert "gemini" in hook["portable"]["runs"]  # google_web_search is WebSearch
    assert all(h["portable"] is None for h in listing["hooks"] if h is not hook)


async def test_hooks_says_where_a_portable_hook_cannot_run(rpc, workspace, isolated_home) -> None:
    user_portable(isolated_home, claude_settings("SubagentStop", command("true")))

    listing = await rpc.call("hooks/list", {"roots": [str(workspace)]})

    (hook,) = [h for h in listing["hooks"] if h["portable"]]
    assert "claude" in hook["portable"]["runs"]
    assert hook["portable"]["cannot"]["gemini"] == "has no SubagentStop event"
