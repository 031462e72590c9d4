"""Claude outcomes pinned through the daemon: exit-2 feedback in native, managed disableAllHooks."""

from __future__ import annotations

from pathlib import Path

from hookd_testing import (
    claude_settings,
    command,
    write_json,
)


async def test_post_tool_use_exit_2_feedback_is_in_native(rpc, workspace) -> None:
    """PostToolUse exit 2 (feedback for Claude) appears in native as decision: block, and
    counts as blocked exactly like a JSON decision: block on the same event."""
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("PostToolUse", command("echo 'lint failed' >&2; exit 2")))  # fmt: skip

    result = await rpc.fire("claude", "PostToolUse", [str(workspace)], {"tool_name": "Edit"})

    assert result["blocked"] is True
    assert result["native"] == {"decision": "block", "reason": "lint failed"}


async def test_managed_disable_all_hooks_false_wins(rpc, workspace, settings) -> None:
    """disableAllHooks: the value left after precedence counts; managed false beats user true."""
    write_json(Path(settings.home) / ".claude" / "settings.json",
               {**claude_settings("Stop", command("echo user")), "disableAllHooks": True})  # fmt: skip
    write_json(Path(settings.system_root) / "etc" / "claude-code" / "managed-settings.json",
               {"disableAllHooks": False})  # fmt: skip

    result = await rpc.fire("claude", "Stop", [str(workspace)], {})

    assert [h["layer"] for h in result["hooks"]] == ["user"]
