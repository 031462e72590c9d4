"""Regressions for defects found in review: each test names the failure it prevents."""

from __future__ import annotations

import json
import os
from functools import partial
from pathlib import Path

import trio

from hookd.client import Client
from hookd.daemon.all_dialects import DIALECTS
from hookd.daemon.racy import is_racy
from hookd.daemon.registry.registry import Registry
from hookd_testing import (
    Gate,
    RpcClient,
    claude_settings,
    command,
    fire_in_flight,
    wait_until,
    write_json,
)


async def test_fifo_settings_file_cannot_wedge_the_daemon(rpc, workspace) -> None:
    """A FIFO where a settings file belongs is refused at once, never opened blocking."""
    (workspace / ".claude").mkdir()
    os.mkfifo(workspace / ".claude" / "settings.json")

    with trio.fail_after(10):
        result = await rpc.fire("claude", "Stop", [str(workspace)], {})

    assert result["hooks"] == []
    assert "not a regular file" in result["warnings"][0]
    assert "pid" in await rpc.call("status")


async def test_settings_symlink_to_dev_zero_is_refused(rpc, workspace) -> None:
    """A symlink to /dev/zero is not read (it would never end)."""
    (workspace / ".claude").mkdir()
    os.symlink("/dev/zero", workspace / ".claude" / "settings.json")

    with trio.fail_after(10):
        result = await rpc.fire("claude", "Stop", [str(workspace)], {})

    assert "not a regular file" in result["warnings"][0]


async def test_batch_elements_count_against_the_in_flight_cap(rpc, daemon) -> None:
    """A batch larger than the per-connection cap is refused element by element."""
    limit = daemon.settings.max_in_flight_per_connection
    await rpc.send([{"jsonrpc": "2.0", "id": i, "method": "status"} for i in range(limit + 1)])
    refused = await rpc.recv()
    await rpc.send([{"jsonrpc": "2.0", "id": i, "method": "status"} for i in range(3)])
    accepted = await rpc.recv()

    assert len(refused) == limit + 1
    assert {r["error"]["code"] for r in refused} == {1002}
    assert all("result" in r for r in accepted)


async def test_cancel_reaches_every_request_with_that_id(rpc, workspace) -> None:
    """Two in-flight requests sharing an id are both cancelled (none is lost)."""
    gate = Gate(workspace / "gate")
    write_json(
        workspace / ".claude" / "settings.json", claude_settings("Stop", command(gate.wait_command))
    )
    params = {"agent": "claude", "event": "Stop", "workspaceRoots": [str(workspace)]}
    for _ in range(2):
        await rpc.send({"jsonrpc": "2.0", "id": 7, "method": "fire", "params": params})
    watcher = await RpcClient.connect(rpc.stream.socket.getpeername())
    await fire_in_flight(watcher)

    await rpc.send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 7}})
    replies = [await rpc.recv(), await rpc.recv()]

    assert [r["error"]["code"] for r in replies] == [-32800, -32800]
    await watcher.aclose()


async def test_requests_after_shutdown_began_are_answered(settings, workspace) -> None:
    """Once shutdown starts, new requests get -32802 instead of silently running."""
    from hookd.daemon.app import serve

    async with trio.open_nursery() as nursery:
        daemon = await nursery.start(serve, settings)
        client = await RpcClient.connect(settings.socket_path)
        await client.call("status")
        for connection in daemon.connections:
            connection.cancel_all()  # what shutdown does first

        request_id = await client.start("status")
        reply = await client.recv_response(request_id)

        assert reply["error"]["code"] == -32802
        await client.aclose()
        daemon.request_shutdown("test over")


async def test_client_accepts_results_larger_than_the_request_limit(daemon, workspace) -> None:
    """Large hook output still reaches the client; no framing crash. (terminalSequence is
    not under Claude's 10,000-character cap, and several hooks' sequences add up.)"""
    big = (
        'python3 -c "import json; print(json.dumps('
        "{'terminalSequence': chr(27) + ']0;' + 'x' * 900000 + chr(7)}))\" # "
    )
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("Notification", *[command(big + str(i)) for i in range(3)]))  # fmt: skip

    def fire() -> dict:
        with Client(daemon.socket) as client:
            return client.fire("claude", "Notification", [str(workspace)], {"message": "m"})

    result = await trio.to_thread.run_sync(fire)

    assert len(result["native"]["terminalSequence"]) > daemon.settings.max_message_bytes // 2
    assert not any(h["stdoutTruncated"] for h in result["hooks"])


def test_refresh_ignores_files_no_hook_source_lives_under(tmp_path, settings) -> None:
    """A build writing into a root does not touch the registry; a settings write does."""
    root = tmp_path / "root"
    root.mkdir()
    registry = Registry(settings, DIALECTS)
    registry.add_roots([str(root)])
    registry.rescan()
    settings_file = write_json(
        root / ".claude" / "settings.json", claude_settings("Stop", command("x"))
    )

    assert registry.refresh([str(root / "build" / "a.o"), str(root / "README")]) == 0
    assert registry.refresh([str(settings_file)]) == 1
    assert registry.refresh([str(root / ".claude")]) >= 1
    assert registry.summary()["hooks"]["total"] == 1


def test_racy_rule() -> None:
    """Content read a tick after the last write is trusted; read in the same tick, not."""
    second = 1_000_000_000

    assert not is_racy(mtime_ns=100 * second + 5, read_at_ns=100 * second + 50_000_005)
    assert is_racy(mtime_ns=100 * second + 5, read_at_ns=100 * second + 10_000_005)
    assert is_racy(mtime_ns=100 * second, read_at_ns=101 * second + 500_000_000)


async def test_post_tool_use_exit_2_feedback_is_in_native(rpc, workspace) -> None:
    """PostToolUse exit 2 (feedback for Claude) appears in native as decision: block, and
    counts as blocked exactly like a JSON decision: block on the same event."""
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("PostToolUse", command("echo 'lint failed' >&2; exit 2")))  # fmt: skip

    result = await rpc.fire("claude", "PostToolUse", [str(workspace)], {"tool_name": "Edit"})

    assert result["blocked"] is True
    assert result["native"] == {"decision": "block", "reason": "lint failed"}


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


async def test_managed_disable_all_hooks_false_wins(rpc, workspace, settings) -> None:
    """disableAllHooks: the value left after precedence counts; managed false beats user true."""
    write_json(Path(settings.home) / ".claude" / "settings.json",
               {**claude_settings("Stop", command("echo user")), "disableAllHooks": True})  # fmt: skip
    write_json(Path(settings.system_root) / "etc" / "claude-code" / "managed-settings.json",
               {"disableAllHooks": False})  # fmt: skip

    result = await rpc.fire("claude", "Stop", [str(workspace)], {})

    assert [h["layer"] for h in result["hooks"]] == ["user"]


async def test_surrogate_id_and_nul_root_cannot_hurt_the_daemon(rpc) -> None:
    """A lone surrogate in an id is echoed safely; a NUL byte in a root is refused."""
    await rpc.send_raw(b'{"jsonrpc":"2.0","id":"\\udcff","method":"status"}\n')
    echoed = await rpc.recv()
    refused = await rpc.recv_response(await rpc.start("roots/add", {"roots": ["/a\u0000b"]}))

    assert echoed["id"] == "\udcff"
    assert "pid" in echoed["result"]
    assert refused["error"]["code"] == -32602
    assert "pid" in await rpc.call("status")


async def test_pipelining_client_that_reads_only_at_the_end_gets_every_reply(daemon) -> None:
    """Writing 6,000 requests before reading one reply neither deadlocks nor loses any."""
    client = await daemon.connect()
    count = 6_000
    batch = b"".join(
        b'{"jsonrpc":"2.0","id":%d,"method":"rpc.discover"}\n' % i if i % 100 == 0
        else b'{"jsonrpc":"2.0","id":%d,"method":"status"}\n' % i
        for i in range(count)
    )  # fmt: skip
    with trio.fail_after(120):
        await client.send_raw(batch)
        ids = {(await client.recv())["id"] for _ in range(count)}

    assert ids == set(range(count))
    await client.aclose()


async def test_cancel_in_the_same_packet_as_its_request(rpc, workspace) -> None:
    """A fire and its $/cancelRequest in one write: the cancel is not lost; ids keep types."""
    gate = Gate(workspace / "gate")
    write_json(
        workspace / ".claude" / "settings.json", claude_settings("Stop", command(gate.wait_command))
    )
    params = {"agent": "claude", "event": "Stop", "workspaceRoots": [str(workspace)]}
    fire = {"jsonrpc": "2.0", "id": 1, "method": "fire", "params": params}
    wrong = {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": True}}
    right = {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 1}}

    with trio.fail_after(30):
        await rpc.send_raw(b"".join(json.dumps(m).encode() + b"\n" for m in (fire, wrong, right)))
        reply = await rpc.recv()

    assert reply["id"] == 1
    assert reply["error"]["code"] == -32800


async def test_status_follows_files_added_to_a_hook_folder(rpc, workspace) -> None:
    """Adding or removing a file in an existing hook folder updates status via the watcher."""
    folder = workspace / ".cline" / "hooks"
    folder.mkdir(parents=True)
    await rpc.call("roots/add", {"roots": [str(workspace)]})

    async def sdk_hooks(expected: int) -> bool:
        status = await rpc.call("status")
        return status["hooks"]["byDialect"].get("cline-sdk", 0) == expected

    (folder / "PreToolUse.sh").write_text("echo '{}'\n")
    await wait_until(partial(sdk_hooks, 1))
    (folder / "PreToolUse.sh").unlink()
    await wait_until(partial(sdk_hooks, 0))
