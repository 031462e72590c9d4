"""Cancellation, disconnects, progress and shutdown, with real hook processes."""

from __future__ import annotations

import os
from pathlib import Path

import trio

from hookd_testing import (
    Gate,
    RpcClient,
    claude_settings,
    command,
    kill_leftovers,
    process_gone,
    read_pids,
    wait_until,
    write_json,
)

TREE = "echo $$ >> {pids}; sleep 300 & echo $! >> {pids}; wait"


def tree_hook(workspace: Path, event: str = "Stop") -> Path:
    """A Claude hook that starts a child and waits forever; its pids go to a file."""
    pids = workspace / "pids"
    write_json(workspace / ".claude" / "settings.json",
               claude_settings(event, command(TREE.format(pids=pids))))  # fmt: skip
    return pids


def fire_params(workspace: Path, event: str = "Stop", **extra: object) -> dict[str, object]:
    return {"agent": "claude", "event": event, "workspaceRoots": [str(workspace)], **extra}


async def test_cancel_request_answers_minus_32800_and_kills_hooks(
    rpc: RpcClient, workspace
) -> None:
    """$/cancelRequest cancels the fire: -32800, and the hook's process tree is gone."""
    pids = tree_hook(workspace)
    try:
        fire_id = await rpc.start("fire", fire_params(workspace))
        await wait_until(lambda: len(read_pids(pids)) == 2)

        await rpc.send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": fire_id}})
        reply = await rpc.recv_response(fire_id)

        assert reply["error"]["code"] == -32800
        await wait_until(lambda: all(process_gone(p) for p in read_pids(pids)))
        assert (await rpc.call("status"))["inFlight"] == []
    finally:
        kill_leftovers(read_pids(pids))


async def test_cancel_of_unknown_id_is_ignored(rpc: RpcClient) -> None:
    """Cancelling an id that is not in flight does nothing (and is never answered)."""
    await rpc.send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 999}})

    assert "pid" in await rpc.call("status")


async def test_disconnect_cancels_the_clients_fires(daemon, workspace) -> None:
    """A client that goes away takes its in-flight fires (and their hooks) with it."""
    pids = tree_hook(workspace)
    client = await daemon.connect()
    watcher = await daemon.connect()
    try:
        await client.start("fire", fire_params(workspace))
        await wait_until(lambda: len(read_pids(pids)) == 2)

        await client.aclose()

        await wait_until(lambda: all(process_gone(p) for p in read_pids(pids)))

        async def no_fire_in_flight() -> bool:
            return (await watcher.call("status"))["inFlight"] == []

        await wait_until(no_fire_in_flight)
    finally:
        kill_leftovers(read_pids(pids))
        await watcher.aclose()


async def test_half_closed_client_still_gets_its_answer(daemon, workspace) -> None:
    """A client that shuts down its write side after sending is still answered."""
    write_json(workspace / ".claude" / "settings.json", claude_settings("Stop", command("true")))
    client = await daemon.connect()
    request_id = await client.start("fire", fire_params(workspace))
    await client.stream.send_eof()

    reply = await client.recv_response(request_id)

    assert reply["result"]["hooks"][0]["exitCode"] == 0
    await client.aclose()


async def test_progress_notifications_arrive_in_order(rpc: RpcClient, workspace) -> None:
    """begin, then started/slow/finished per hook, then end; the result names the slowest."""
    gate = Gate(workspace / "gate")
    write_json(
        workspace / ".claude" / "settings.json",
        claude_settings("Stop", command("true"), command(gate.wait_command)),
    )
    fire_id = await rpc.start(
        "fire", fire_params(workspace, workDoneToken="tok", slowThresholdMs=50)
    )

    async def slow_reported() -> bool:
        while not any(v["hookd"]["type"] == "hook/slow" for v in rpc.progress("tok")):
            with trio.move_on_after(0.05):
                message = await rpc.recv()
                rpc.notifications.append(message)
        return True

    await wait_until(slow_reported)
    await gate.open()
    result = (await rpc.recv_response(fire_id))["result"]
    kinds = [(v["kind"], v["hookd"]["type"], v["hookd"].get("index")) for v in rpc.progress("tok")]

    assert kinds[0] == ("begin", "fire/begin", None)
    assert kinds[-1] == ("end", "fire/end", None)
    assert [k for k in kinds if k[2] == 1] == [
        ("report", "hook/started", 1),
        ("report", "hook/slow", 1),
        ("report", "hook/finished", 1),
    ]
    assert next(k for k in kinds if k[2] == 0) == ("report", "hook/started", 0)
    assert [k for k in kinds if k[2] == 0][-1] == ("report", "hook/finished", 0)
    assert ("report", "hook/slow", 0) not in kinds
    # The slowest by its own durationMs (the gated hook, but for a 'true' held up longer
    # still by a busy machine: no timing is assumed).
    slowest = max(result["hooks"], key=lambda hook: hook["durationMs"])["index"]
    assert result["slowest"]["index"] == slowest
    assert rpc.progress("tok")[-1]["hookd"]["slowest"]["index"] == slowest


async def test_shutdown_cancels_in_flight_fires_and_removes_socket(settings, workspace) -> None:
    """shutdown answers in-flight fires with -32802, kills their hooks, removes the socket."""
    from hookd.daemon.app import serve

    pids = tree_hook(workspace)
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(serve, settings)
            client = await RpcClient.connect(settings.socket_path)
            fire_id = await client.start("fire", fire_params(workspace))
            await wait_until(lambda: len(read_pids(pids)) == 2)
            other = await RpcClient.connect(settings.socket_path)

            await other.call("shutdown")
            reply = await client.recv_response(fire_id)

            assert reply["error"]["code"] == -32802
            await client.aclose()
            await other.aclose()
        assert not os.path.exists(settings.socket_path)
        await wait_until(lambda: all(process_gone(p) for p in read_pids(pids)))
    finally:
        kill_leftovers(read_pids(pids))
