"""Portable hooks in Qwen Code's fires: Qwen's tools (Gemini CLI's ids) read as Claude's,
the portable answer written as Claude's JSON, which Qwen reads, and combined by Qwen's
merge (qwen-research.md §2.1, §5, §6)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hookd_testing import claude_settings, command, write_json
from hookd_testing.portable import (
    ENV_GUARD,
    SAYS_WHAT_IT_GOT,
    got,
    shell_guard_case,
    specific,
    tool_call,
    user_portable,
    warned,
)


def shell(workspace: Path, command_line: str = "rm -rf /") -> dict[str, Any]:
    return tool_call(workspace, "run_shell_command", {"command": command_line, "description": "d"})


async def test_a_bash_guard_denies_qwen_shell_only(rpc, workspace, isolated_home) -> None:
    other = tool_call(workspace, "read_file", {"file_path": "/x"})
    await shell_guard_case(rpc, "qwen", workspace, shell(workspace), other)


async def test_an_env_guard_denies_write_file(rpc, workspace, isolated_home) -> None:
    user_portable(isolated_home, claude_settings("PreToolUse", ENV_GUARD, matcher="Write|Edit"))

    env = await rpc.fire("qwen", "PreToolUse", [str(workspace)], tool_call(
        workspace, "write_file", {"file_path": str(workspace / ".env"), "content": "K=1"}))  # fmt: skip
    elsewhere = await rpc.fire("qwen", "PreToolUse", [str(workspace)], tool_call(
        workspace, "write_file", {"file_path": str(workspace / "a.txt"), "content": "x"}))  # fmt: skip

    assert (env["blocked"], env["reason"]) == (True, "no writes to .env")
    assert elsewhere["blocked"] is False
    assert len(elsewhere["hooks"]) == 1


async def test_a_post_edit_hook_gets_the_file_path(rpc, workspace, isolated_home) -> None:
    user_portable(isolated_home, claude_settings("PostToolUse", SAYS_WHAT_IT_GOT, matcher="Edit"))
    edit = {"file_path": str(workspace / "a.py"), "old_string": "a", "new_string": "b"}

    result = await rpc.fire("qwen", "PostToolUse", [str(workspace)],
                            {**tool_call(workspace, "edit", edit), "tool_response": {}})  # fmt: skip

    assert got(result) == ["Edit", "edit", "PostToolUse", str(workspace / "a.py"),
                           ["file_path", "new_string", "old_string"]]  # fmt: skip


async def test_session_context_reaches_qwen(rpc, workspace, isolated_home) -> None:
    user_portable(isolated_home, claude_settings(
        "SessionStart", specific("SessionStart", additionalContext="house rules")))  # fmt: skip

    result = await rpc.fire("qwen", "SessionStart", [str(workspace)],
                            {"session_id": "s", "cwd": str(workspace), "source": "startup"})  # fmt: skip

    assert result["context"] == "house rules"


async def test_a_rewrite_where_qwen_applies_one(rpc, workspace, isolated_home) -> None:
    """Qwen applies a rewrite on PermissionRequest (§5.9), not on PreToolUse (§5.2), where
    the portable rewrite is named in the fire's warnings."""
    rewrite = {"command": "echo safe", "description": "d"}
    user_portable(isolated_home, {"hooks": {
        "PermissionRequest": [{"hooks": [specific("PermissionRequest", decision={
            "behavior": "allow", "updatedInput": rewrite})]}],
        "PreToolUse": [{"hooks": [specific("PreToolUse", permissionDecision="allow",
                                           updatedInput=rewrite)]}],
    }})  # fmt: skip

    permission = await rpc.fire("qwen", "PermissionRequest", [str(workspace)], shell(workspace))
    pre = await rpc.fire("qwen", "PreToolUse", [str(workspace)], shell(workspace))

    assert permission["updatedInput"] == rewrite
    assert permission["warnings"] == []
    assert pre["updatedInput"] is None
    assert "updatedInput" not in pre["native"].get("hookSpecificOutput", {})
    assert warned(pre, "updatedInput", "qwen", "PreToolUse")


async def test_portable_and_qwen_hooks_combine_by_qwen_rules(rpc, workspace, isolated_home) -> None:
    """Qwen joins the prompt's contexts with a newline, in configured order (§5.6, §6):
    the project's own hook's (plain stdout), then the portable one's."""
    user_portable(isolated_home, claude_settings(
        "UserPromptSubmit", specific("UserPromptSubmit", additionalContext="portable ctx")))  # fmt: skip
    own = workspace / ".qwen" / "settings.json"
    write_json(own, claude_settings("UserPromptSubmit", command("echo qwen ctx")))

    result = await rpc.fire("qwen", "UserPromptSubmit", [str(workspace)],
                            {"session_id": "s", "cwd": str(workspace), "prompt": "hi"})  # fmt: skip

    assert result["context"] == "qwen ctx\nportable ctx"
    assert [h["source"] for h in result["hooks"]] == [
        str(own), str(isolated_home / ".config" / "hookd" / "hooks.json")]  # fmt: skip
