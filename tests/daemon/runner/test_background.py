"""Background (async) hooks: caps per session, results kept across a cancelled fire."""

from __future__ import annotations

from pathlib import Path

from hookd.daemon.runner.background import MAX_RUNNING_PER_SESSION
from hookd_testing import Gate, RpcClient, claude_settings, command, wait_until, write_json


def project(workspace: Path, settings: dict) -> Path:
    return write_json(workspace / ".claude" / "settings.json", settings)


async def gate_reached(rpc: RpcClient) -> bool:
    return any(entry["running"] for entry in (await rpc.call("status"))["inFlight"])


async def test_background_hooks_are_capped_per_session(rpc, workspace, tmp_path) -> None:
    """Lingering async hooks can never exhaust the daemon: past the cap they are not
    started, and the fire says so."""
    gate = Gate(tmp_path / "gate")
    hooks = [command(f"{gate.wait_command} # {i}", **{"async": True})
             for i in range(MAX_RUNNING_PER_SESSION + 1)]  # fmt: skip
    project(workspace, claude_settings("PostToolUse", *hooks))

    result = await rpc.fire("claude", "PostToolUse", [str(workspace)], {"session_id": "s"})
    await gate.open()

    refused = [e for e in result["asyncStarted"] if "notStarted" in e]
    assert len(refused) == 1
    assert any("was not started" in w for w in result["warnings"])


async def test_async_results_survive_a_cancelled_fire(rpc, workspace, tmp_path) -> None:
    gate = Gate(tmp_path / "gate")
    project(workspace, {"hooks": {
        "PostToolUse": [{"hooks": [command("echo '{\"systemMessage\": \"done\"}'", **{"async": True})]}],
        "Stop": [{"hooks": [command(gate.wait_command)]}]}})  # fmt: skip
    await rpc.fire("claude", "PostToolUse", [str(workspace)], {"session_id": "s"})

    async def finished() -> bool:
        return bool((await rpc.call("status"))["asyncHooks"]["finished"])

    await wait_until(finished)
    fire_id = await rpc.start("fire", {"agent": "claude", "event": "Stop",
                                       "workspaceRoots": [str(workspace)],
                                       "payload": {"session_id": "s"}})  # fmt: skip
    await wait_until(lambda: gate_reached(rpc))
    await rpc.send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": fire_id}})
    cancelled = await rpc.recv_response(fire_id)  # the gated Stop hook is killed with it
    project(workspace, claude_settings("Stop", command("true")))
    later = await rpc.fire("claude", "Stop", [str(workspace)], {"session_id": "s"})

    assert cancelled["error"]["code"] == -32800
    assert [r["systemMessage"] for r in later["asyncResults"]] == ["done"]
