"""Portable hooks in Gemini CLI's fires: Gemini's events and tools read as Claude's, the
portable answer written as a Gemini hook's and combined by Gemini's rules."""

from __future__ import annotations

import json
from pathlib import Path

from hookd_testing import claude_settings, command, write_json

ECHO_INPUT = (
    'python3 -c "import json,sys; e=json.load(sys.stdin); '
    "print(json.dumps({'hookSpecificOutput': {'hookEventName': e['hook_event_name'], "
    "'additionalContext': json.dumps([e['tool_name'], e['hookd_agent_tool'], "
    "e['hookd_agent_event']])}}))\""
)


def portable(home: Path, settings: dict) -> None:
    write_json(home / ".config" / "hookd" / "hooks.json", settings)


def answer(out: dict) -> dict:
    return command(f"echo '{json.dumps(out)}'")


SHELL = {
    "tool_name": "run_shell_command",
    "tool_input": {"command": "rm -rf /", "description": "d"},
}


async def test_a_bash_guard_denies_gemini_shell(rpc, workspace, isolated_home) -> None:
    portable(isolated_home, claude_settings("PreToolUse", command(
        "echo 'no rm -rf' >&2; exit 2"), matcher="Bash"))  # fmt: skip

    result = await rpc.fire("gemini", "BeforeTool", [str(workspace)], SHELL)
    other = await rpc.fire("gemini", "BeforeTool", [str(workspace)],
                           {"tool_name": "read_file", "tool_input": {"file_path": "/x"}})  # fmt: skip

    assert result["blocked"] is True
    assert result["reason"] == "no rm -rf"
    assert result["native"]["decision"] == "deny"  # Gemini's own answer
    assert other["blocked"] is False
    assert other["hooks"] == []


async def test_context_and_names_reach_gemini(rpc, workspace, isolated_home) -> None:
    portable(isolated_home, claude_settings("PostToolUse", command(ECHO_INPUT)))

    result = await rpc.fire("gemini", "AfterTool", [str(workspace)],
                            {**SHELL, "tool_response": {"llmContent": "ok"}})  # fmt: skip

    assert json.loads(result["context"]) == ["Bash", "run_shell_command", "AfterTool"]


async def test_what_gemini_cannot_carry_is_a_warning(rpc, workspace, isolated_home) -> None:
    """Gemini ignores additionalContext on BeforeTool (§5.2): said, not dropped in silence."""
    portable(isolated_home, claude_settings("PreToolUse", answer({"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "additionalContext": "ctx"}})))  # fmt: skip

    result = await rpc.fire("gemini", "BeforeTool", [str(workspace)], SHELL)

    assert result["context"] is None
    assert any(
        "context" in w and "gemini" in w and "BeforeTool" in w for w in result["warnings"]
    ), result["warnings"]


async def test_a_rewrite_reaches_gemini_as_its_tool_input(rpc, workspace, isolated_home) -> None:
    portable(isolated_home, claude_settings("PreToolUse", answer({"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "allow",
        "updatedInput": {"command": "echo safe"}}})))  # fmt: skip

    result = await rpc.fire("gemini", "BeforeTool", [str(workspace)], SHELL)

    assert result["updatedInput"] == {"command": "echo safe"}
    assert result["native"]["hookSpecificOutput"]["tool_input"] == {"command": "echo safe"}


async def test_portable_and_gemini_hooks_combine_by_gemini_rules(
    rpc, workspace, isolated_home
) -> None:
    """Gemini joins every blocking hook's reason (OR events, §6): its own and the portable one."""
    portable(isolated_home, claude_settings("PreToolUse", command("echo portable-no >&2; exit 2")))
    write_json(workspace / ".gemini" / "settings.json", {"hooks": {"BeforeTool": [
        {"hooks": [answer({"decision": "deny", "reason": "gemini-no"})]}]}})  # fmt: skip

    result = await rpc.fire(
        "gemini", "BeforeTool", [str(workspace)], {**SHELL, "cwd": str(workspace)}
    )

    assert result["blocked"] is True
    assert result["reason"].split("\n") == ["gemini-no", "portable-no"]
    assert [h["source"] for h in result["hooks"]] == [
        str(workspace / ".gemini" / "settings.json"),
        str(isolated_home / ".config" / "hookd" / "hooks.json"),
    ]


async def test_explain_says_why_a_portable_hook_runs_or_not(rpc, workspace, isolated_home) -> None:
    portable(isolated_home, {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [command("echo shell")]},
        {"matcher": "Write", "hooks": [command("echo write")]}]}})  # fmt: skip

    said = await rpc.call("hooks/explain", {"agent": "gemini", "event": "BeforeTool",
                                            "workspaceRoots": [str(workspace)], "payload": SHELL})  # fmt: skip

    mine = {h["command"]: h for h in said["hooks"] if h["portable"]}
    assert mine["echo shell"]["runs"] is True
    assert mine["echo write"]["runs"] is False
    assert "matcher" in mine["echo write"]["why"]


async def test_a_blocking_guard_that_times_out_blocks_in_gemini(
    rpc, workspace, isolated_home
) -> None:
    """``onFailure: "block"`` is Claude's rule for a guard that fails: a portable guard
    that times out blocks in every agent (Gemini lets the tool run after a hook of its own
    times out), never lets the tool run."""
    portable(isolated_home, claude_settings("PreToolUse", command(
        "sleep 30", timeout=1, onFailure="block")))  # fmt: skip

    result = await rpc.fire("gemini", "BeforeTool", [str(workspace)], SHELL)

    assert result["blocked"] is True, result
    assert result["native"]["decision"] == "deny"


async def test_a_project_portable_file_cannot_switch_the_users_off(
    rpc, workspace, isolated_home
) -> None:
    """A project's portable file declares hooks; ``disableAllHooks`` there does not switch
    the user's portable guard off (said in the warnings)."""
    portable(isolated_home, claude_settings("PreToolUse", command("echo no >&2; exit 2")))
    write_json(workspace / ".hookd" / "hooks.json", {"disableAllHooks": True})

    result = await rpc.fire("gemini", "BeforeTool", [str(workspace)], SHELL)

    assert result["blocked"] is True
    assert any("disableAllHooks" in w and "do not apply" in w for w in result["warnings"])
