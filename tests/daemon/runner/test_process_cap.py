"""The cap on hook processes: a fair queue whose wait counts against the hook's own
timeout, and a hook that never got a slot "never ran": never "allowed" by accident."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import trio

from hookd.daemon.app import serve
from hookd.daemon.settings import Settings
from hookd_testing import Gate, RpcClient, claude_settings, command, wait_until, write_json


async def _daemon(nursery: trio.Nursery, settings: Settings) -> RpcClient:
    await nursery.start(serve, settings)
    return await RpcClient.connect(settings.socket_path)


async def test_a_hook_that_never_got_a_slot_blocks_a_guarded_event(
    settings: Settings, workspace: Path, tmp_path: Path
) -> None:
    gate = Gate(tmp_path / "gate")
    busy = tmp_path / "busy"
    busy.mkdir()
    write_json(busy / ".claude/settings.json",
               claude_settings("PreToolUse", command(f"cat >/dev/null; {gate.wait_command}")))  # fmt: skip
    write_json(workspace / ".claude/settings.json",
               claude_settings("PreToolUse", command("cat >/dev/null; exit 0", timeout=1)))  # fmt: skip
    async with trio.open_nursery() as nursery:
        rpc = await _daemon(nursery, replace(settings, max_hook_processes=1))
        holder = await rpc.start("fire", {"agent": "claude", "event": "PreToolUse",
                                          "workspaceRoots": [str(busy)], "payload": {}})  # fmt: skip
        other = await RpcClient.connect(settings.socket_path)

        async def one_running() -> bool:
            return (await other.call("status"))["processes"]["running"] == 1

        await wait_until(one_running)
        queued = await other.fire("claude", "PreToolUse", [str(workspace)], {"tool_name": "Bash"})
        await gate.open()
        await rpc.recv_response(holder)
        await other.call("shutdown")
        await other.aclose()
        await rpc.aclose()

    run = queued["hooks"][0]
    assert run["exitCode"] is None
    assert run["error"].startswith("never ran: waited 1.0 s for one of hookd's 1 process slots")
    assert queued["blocked"] is True
    assert 'never_ran setting is "block"' in queued["reason"]
    assert queued["native"]["hookSpecificOutput"]["permissionDecision"] == "deny"


async def test_never_ran_allow_lets_the_action_proceed_and_says_so(
    settings: Settings, workspace: Path, tmp_path: Path
) -> None:
    gate = Gate(tmp_path / "gate")
    busy = tmp_path / "busy"
    busy.mkdir()
    write_json(busy / ".claude/settings.json",
               claude_settings("PreToolUse", command(f"cat >/dev/null; {gate.wait_command}")))  # fmt: skip
    write_json(workspace / ".claude/settings.json",
               claude_settings("PreToolUse", command("exit 2", timeout=1)))  # fmt: skip
    async with trio.open_nursery() as nursery:
        rpc = await _daemon(nursery, replace(settings, max_hook_processes=1, never_ran="allow"))
        holder = await rpc.start("fire", {"agent": "claude", "event": "PreToolUse",
                                          "workspaceRoots": [str(busy)], "payload": {}})  # fmt: skip
        other = await RpcClient.connect(settings.socket_path)

        async def one_running() -> bool:
            return (await other.call("status"))["processes"]["running"] == 1

        await wait_until(one_running)
        queued = await other.fire("claude", "PreToolUse", [str(workspace)], {"tool_name": "Bash"})
        await gate.open()
        await rpc.recv_response(holder)
        await other.call("shutdown")
        await other.aclose()
        await rpc.aclose()

    assert queued["blocked"] is False
    assert queued["hooks"][0]["error"].startswith("never ran: ")


async def test_queued_hooks_run_in_turn_when_slots_free_up(
    settings: Settings, workspace: Path, tmp_path: Path
) -> None:
    """Ten hooks, two slots: all run (none refused), never more than two at once."""
    log = tmp_path / "log"
    body = f"cat >/dev/null; echo start >> {log}; sleep 0.05; echo end >> {log}"
    write_json(workspace / ".claude/settings.json",
               claude_settings("PreToolUse", *[command(f"{body} #{i}") for i in range(10)]))  # fmt: skip
    async with trio.open_nursery() as nursery:
        rpc = await _daemon(nursery, replace(settings, max_hook_processes=2))
        result = await rpc.fire("claude", "PreToolUse", [str(workspace)], {"tool_name": "Bash"})
        await rpc.call("shutdown")
        await rpc.aclose()
    assert [h["exitCode"] for h in result["hooks"]] == [0] * 10
    running = peak = 0
    for line in log.read_text().split():
        running += 1 if line == "start" else -1
        peak = max(peak, running)
    assert peak == 2


async def test_a_json_answer_past_every_cap_never_ran_and_blocks(
    settings: Settings, workspace: Path, tmp_path: Path
) -> None:
    """Past json_output_cap_bytes hookd cannot read the answer whole: it never ran, which
    blocks where hooks guard an action (an allow cut short is not an allow)."""
    script = tmp_path / "big.py"
    script.write_text(
        "import json\nprint(json.dumps({'decision': 'approve', 'pad': 'A' * 3_000_000}))\n"
    )
    write_json(workspace / ".claude/settings.json",
               claude_settings("PreToolUse", command(f"cat >/dev/null; python3 {script}")))  # fmt: skip
    two_mib = 2 * 1024 * 1024
    async with trio.open_nursery() as nursery:
        rpc = await _daemon(nursery, replace(settings, json_output_cap_bytes=two_mib))
        result = await rpc.fire("claude", "PreToolUse", [str(workspace)], {"tool_name": "Bash"})
        await rpc.call("shutdown")
        await rpc.aclose()
    run = result["hooks"][0]
    assert run["error"].startswith(f"never ran: its JSON answer was over {two_mib} bytes")
    assert run["stdoutTruncated"] is True
    assert result["blocked"] is True
