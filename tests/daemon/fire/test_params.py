"""fire params: numbers that are not finite are refused with a message that names the field."""

from __future__ import annotations

from pathlib import Path

from hookd_testing import claude_settings, command, write_json


def project(workspace: Path, settings: dict) -> Path:
    return write_json(workspace / ".claude" / "settings.json", settings)


async def test_non_finite_fire_and_session_end_timeouts_are_refused(rpc, workspace) -> None:
    reply = await rpc.recv_response(await rpc.start("fire", {
        "agent": "claude", "event": "Stop", "timeoutMs": float("inf")}))  # fmt: skip
    project(workspace, claude_settings("SessionEnd", command("true")))
    ended = await rpc.fire("claude", "SessionEnd", [str(workspace)], {},
                           env={"CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS": "nan"})  # fmt: skip

    assert reply["error"]["code"] == -32602
    assert ended["hooks"][0]["timeoutMs"] == 1500
    assert "CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS" in ended["warnings"][0]
