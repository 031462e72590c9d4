"""A connection's edges: batches and the in-flight cap, cancellation by id, shutdown, pipelining clients, odd ids."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import trio

from hookd.daemon.app import serve
from hookd.protocol import BUSY
from hookd_testing import (
    Gate,
    RpcClient,
    claude_settings,
    command,
    fire_in_flight,
    write_json,
)


def project(workspace: Path, settings: dict) -> Path:
    return write_json(workspace / ".claude" / "settings.json", settings)


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


async def stop_fire_and_its_cancel(rpc: RpcClient, workspace: Path) -> dict:
    """A Claude Stop fire (id 1) and its $/cancelRequest in one write; the reply."""
    params = {"agent": "claude", "event": "Stop", "workspaceRoots": [str(workspace)]}
    fire = {"jsonrpc": "2.0", "id": 1, "method": "fire", "params": params}
    cancel = {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 1}}
    with trio.fail_after(30):
        await rpc.send_raw(b"".join(json.dumps(m).encode() + b"\n" for m in (fire, cancel)))
        return await rpc.recv()


async def test_a_fire_cancelled_in_its_own_packet_starts_none_of_its_hooks(rpc, workspace) -> None:
    """Its hooks are found as it is read (a fire with none to run is answered at once),
    but nothing starts before the cancel is seen: not the foreground hook, not the
    background one."""
    gate = Gate(workspace / "gate")
    marker = workspace / "started"
    write_json(
        workspace / ".claude" / "settings.json",
        claude_settings("Stop", command(f"touch {marker}; sleep 30", **{"async": True}),
                        command(gate.wait_command)),
    )  # fmt: skip
    reply = await stop_fire_and_its_cancel(rpc, workspace)
    status = await rpc.call("status")

    assert reply["error"]["code"] == -32800
    assert status["asyncHooks"]["running"] == 0
    assert status["inFlight"] == []
    assert not marker.exists()


async def test_a_cancel_behind_a_fire_with_no_hook_to_run_comes_too_late(rpc, workspace) -> None:
    """Such a fire is answered as it is read: the cancel in the same packet finds nothing
    to cancel (JSON-RPC lets a server answer a request it was asked to cancel)."""
    reply = await stop_fire_and_its_cancel(rpc, workspace)

    assert reply["id"] == 1
    assert reply["result"]["hooks"] == []


async def test_a_fire_with_only_background_hooks_is_answered_at_once(rpc, workspace) -> None:
    """Nothing to wait for: the answer lists the background hook it started."""
    gate = Gate(workspace / "gate")
    write_json(
        workspace / ".claude" / "settings.json",
        claude_settings("Stop", command(gate.wait_command, **{"async": True})),
    )
    params = {"agent": "claude", "event": "Stop", "workspaceRoots": [str(workspace)]}

    with trio.fail_after(30):
        result = await rpc.call("fire", params)
        running = (await rpc.call("status"))["asyncHooks"]["running"]
        await gate.open()

    assert result["hooks"] == []
    assert [entry["command"] for entry in result["asyncStarted"]] == [gate.wait_command]
    assert running == 1


async def test_hook_run_answers_are_read_at_the_in_flight_cap(settings, workspace) -> None:
    """A request past the cap while hookd waits for this client's hook/run answers is
    refused (Busy) instead of stalling the reader in front of those answers."""
    project(workspace, claude_settings("Stop", {"type": "prompt", "prompt": "p"}))
    async with trio.open_nursery() as nursery:
        daemon = await nursery.start(serve, replace(settings, max_in_flight_per_connection=1))
        client = await RpcClient.connect(settings.socket_path)
        fire_id = await client.start("fire", {"agent": "claude", "event": "Stop",
                                              "workspaceRoots": [str(workspace)],
                                              "clientHandlers": ["prompt"]})  # fmt: skip
        run = await client.recv()
        assert run["method"] == "hook/run"
        status_id = await client.start("status")
        await client.send({"jsonrpc": "2.0", "id": run["id"],
                           "result": {"ok": False, "reason": "no"}})  # fmt: skip
        with trio.fail_after(10):
            busy = await client.recv_response(status_id)
            result = await client.recv_response(fire_id)
        await client.aclose()
        daemon.request_shutdown("test over")

    assert busy["error"]["code"] == BUSY
    assert busy["error"]["message"] == "Too many requests in flight"
    assert result["result"]["blocked"] is True


async def test_a_response_with_an_unhashable_id_is_ignored(rpc) -> None:
    await rpc.send({"jsonrpc": "2.0", "id": [1], "result": 1})

    assert (await rpc.call("status"))["pid"] == os.getpid()
