"""fire params: numbers that are not finite are refused with a message that names the field."""

from __future__ import annotations

from pathlib import Path

from hookd_testing import claude_settings, command, write_json


def project(workspace: Path, settings: dict) -> Path:
    return write_json(workspace / ".claude" / "settings.json", settings)


async def test_non_finite_fire_and_session_end_timeouts_are_refused(rpc, workspace) -> None:
    # 1e999 is valid JSON that Python reads as inf (hookd.protocol.dumps would send null)
    await rpc.send_raw(b'{"jsonrpc":"2.0","id":"inf","method":"fire","params":'
                       b'{"agent":"claude","event":"Stop","timeoutMs":1e999}}\n')  # fmt: skip
    reply = await rpc.recv_response("inf")
    project(workspace, claude_settings("SessionEnd", command("true")))
    ended = await rpc.fire("claude", "SessionEnd", [str(workspace)], {},
                           env={"CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS": "nan"})  # fmt: skip

    assert reply["error"]["code"] == -32602
    assert ended["hooks"][0]["timeoutMs"] == 1500
    assert "CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS" in ended["warnings"][0]
