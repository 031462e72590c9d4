"""The fire pipeline end to end: which hooks explain the combined outcome."""

from __future__ import annotations

import json

from hookd_testing import (
    claude_settings,
    command,
    write_json,
)


async def test_ask_is_explained_only_by_the_asking_hook(rpc, workspace) -> None:
    """allow + ask: the reason is the asking hook's, not both joined."""

    def decide(value: str, why: str) -> dict:
        out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": value,
                                      "permissionDecisionReason": why}}  # fmt: skip
        return command(f"echo '{json.dumps(out)}'")

    write_json(workspace / ".claude" / "settings.json",
               claude_settings("PreToolUse", decide("allow", "ok by A"), decide("ask", "B wants a human")))  # fmt: skip

    result = await rpc.fire("claude", "PreToolUse", [str(workspace)], {"tool_name": "Bash"})

    assert result["decision"] == "ask"
    assert result["reason"] == "B wants a human"
