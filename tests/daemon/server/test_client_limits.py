"""Caps on clients as a whole (in-process daemon, small caps): connections, a half-sent
message's time, unsent replies over every client, and the roots kept watched."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import trio

from hookd.client import Client, HookdClientError
from hookd.daemon.app import serve
from hookd.protocol import BUSY, Framing
from hookd_testing import RpcClient, claude_settings, command, wait_until, write_json


async def closed_by_daemon(client: RpcClient, timeout: float = 20) -> list[dict]:
    """Every message until the daemon closes the connection."""
    received = []
    with trio.fail_after(timeout):
        while True:
            try:
                received.append(await client.recv())
            except (EOFError, trio.BrokenResourceError):
                return received


async def test_at_the_cap_the_connection_idle_the_longest_makes_room(settings) -> None:
    """A client that leaks connections must not lock the agents' relays out: the
    connection idle the longest is closed for the new one (issue 31)."""
    async with trio.open_nursery() as nursery:
        daemon = await nursery.start(serve, replace(settings, max_connections=3))
        oldest = await RpcClient.connect(settings.socket_path)
        used = await RpcClient.connect(settings.socket_path)
        newer = await RpcClient.connect(settings.socket_path)
        await wait_until(lambda: len(daemon.connections) == 3)
        await oldest.call("status")  # the oldest is the one idle the longest, not the first
        served = await RpcClient.connect(settings.socket_path)
        status = await served.call("status")
        said = await closed_by_daemon(used)
        assert await oldest.call("status")
        for client in (oldest, used, newer, served):
            await client.aclose()
        daemon.request_shutdown("test over")

    assert said == []  # closed with nothing to say: it had nothing under way
    assert status["clients"]["shed"] >= 1
    assert status["clients"]["refused"] == 0
    assert status["connections"] == 3


async def test_when_every_connection_is_busy_a_new_one_gets_an_error_it_can_read(
    settings, workspace: Path
) -> None:
    """Refused only when none is idle, and then with an answer to its own request (its
    id, its framing), readable before the close: no reset."""
    write_json(workspace / ".claude/settings.json",
               claude_settings("PreToolUse", command("sleep 30", timeout=60)))  # fmt: skip
    fire = {"agent": "claude", "event": "PreToolUse", "workspaceRoots": [str(workspace)],
            "payload": {"tool_name": "Bash"}}  # fmt: skip
    async with trio.open_nursery() as nursery:
        daemon = await nursery.start(serve, replace(settings, max_connections=2))
        busy = [await RpcClient.connect(settings.socket_path) for _ in range(2)]
        for client in busy:
            await client.send({"jsonrpc": "2.0", "id": 1, "method": "fire", "params": fire})
        await wait_until(lambda: daemon.custody.view()["running"] == 2)

        refused = await RpcClient.connect(settings.socket_path)
        await refused.send({"jsonrpc": "2.0", "id": "mine", "method": "status"})
        said = await closed_by_daemon(refused)
        lsp = await RpcClient.connect(settings.socket_path, Framing.LSP)
        await lsp.send({"jsonrpc": "2.0", "id": 5, "method": "status"})
        lsp_said = await closed_by_daemon(lsp)
        silent = await RpcClient.connect(settings.socket_path)
        silent_said = await closed_by_daemon(silent)

        def python_client() -> str:
            with pytest.raises(HookdClientError) as info, Client(settings.socket_path) as client:
                client.status()
            return str(info.value)

        python_said = await trio.to_thread.run_sync(python_client)
        status = daemon.status()
        for client in (*busy, refused, lsp, silent):
            await client.aclose()
        daemon.request_shutdown("test over")

    assert [(m["id"], m["error"]["code"]) for m in said] == [("mine", BUSY)]
    assert "max_connections" in said[0]["error"]["data"]
    assert [(m["id"], m["error"]["code"]) for m in lsp_said] == [(5, BUSY)]
    assert [(m["id"], m["error"]["code"]) for m in silent_said] == [(None, BUSY)]
    assert "Too many connections" in python_said
    assert status["clients"]["refused"] == 4
    assert status["clients"]["shed"] == 0


@pytest.mark.parametrize("framing", list(Framing))
async def test_a_half_sent_message_is_answered_and_its_connection_closed(
    settings, framing: Framing
) -> None:
    """Idle connections stay; one that started a message and stopped is reclaimed."""
    async with trio.open_nursery() as nursery:
        daemon = await nursery.start(serve, replace(settings, message_timeout_s=0.5))
        idle = await RpcClient.connect(settings.socket_path)
        half = await RpcClient.connect(settings.socket_path, framing)
        if framing is Framing.NDJSON:
            await half.send_raw(b'{"jsonrpc":"2.0","id":1,"method":"sta')
        else:
            await half.send_raw(b'Content-Length: 40\r\n\r\n{"jsonrpc"')
        said = await closed_by_daemon(half)
        assert await idle.call("status")  # idle for longer than the timeout: still served
        after = await idle.call("status")
        await idle.aclose()
        await half.aclose()
        daemon.request_shutdown("test over")

    assert [m["error"]["message"] for m in said] == ["Incomplete message"]
    assert "message_timeout_s" in said[0]["error"]["data"]
    assert after["clients"]["closedIncomplete"] == 1
    assert after["connections"] == 1


async def test_a_message_trickled_byte_by_byte_is_cut_at_the_timeout(settings) -> None:
    """Bytes arriving slowly do not extend a message's time (slowloris)."""
    async with trio.open_nursery() as nursery:
        daemon = await nursery.start(serve, replace(settings, message_timeout_s=0.5))
        slow = await RpcClient.connect(settings.socket_path)
        started = trio.current_time()
        with trio.move_on_after(20):
            try:
                for byte in (
                    b'{"jsonrpc":"2.0","id":1,"method":"status","params":{"x":"' + b"a" * 500
                ):
                    await slow.send_raw(bytes([byte]))
                    await trio.sleep(0.05)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass
        said = await closed_by_daemon(slow)
        await slow.aclose()
        daemon.request_shutdown("test over")

    assert trio.current_time() - started < 15
    assert [m["error"]["message"] for m in said] == ["Incomplete message"]


async def test_clients_that_stop_reading_are_cut_at_the_total_cap(settings) -> None:
    """Four clients pipeline requests and never read: the replies queued for all of
    them stay under the total cap, the biggest are disconnected, others are served."""
    cap = 4 * 1024 * 1024
    async with trio.open_nursery() as nursery:
        daemon = await nursery.start(serve, replace(settings, max_unsent_bytes_total=cap))
        reader = await RpcClient.connect(settings.socket_path)
        hogs = [await RpcClient.connect(settings.socket_path) for _ in range(4)]
        request = b'{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}\n' * 200
        peak = 0

        async def hog(client: RpcClient) -> None:
            with trio.move_on_after(30):
                try:
                    while True:
                        await client.send_raw(request)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass

        async with trio.open_nursery() as hogging:
            for client in hogs:
                hogging.start_soon(hog, client)

            async def cut() -> bool:
                nonlocal peak
                peak = max(peak, daemon.limits.unsent_bytes)
                return daemon.limits.not_reading >= 3

            await wait_until(cut, timeout=30)
            status = await reader.call("status")
            hogging.cancel_scope.cancel()
        for client in (reader, *hogs):
            await client.aclose()
        await wait_until(lambda: len(daemon.connections) == 0)
        left = daemon.limits.unsent_bytes
        daemon.request_shutdown("test over")

    assert peak <= cap
    assert status["clients"]["disconnectedNotReading"] >= 3
    assert status["clients"]["unsentBytes"] <= cap
    assert left == 0  # every disconnected client's queue was given back


async def test_roots_no_fire_names_are_forgotten_and_come_back(settings, tmp_path: Path) -> None:
    old, fresh = tmp_path / "old", tmp_path / "fresh"
    for root in (old, fresh):
        write_json(root / ".claude/settings.json", claude_settings("Stop", command("echo one")))
    async with trio.open_nursery() as nursery:
        daemon = await nursery.start(serve, replace(settings, forget_roots_after_s=0.3))
        client = await RpcClient.connect(settings.socket_path)
        await client.fire("claude", "Stop", [str(old)])

        async def forgotten() -> bool:
            return str(old) not in (await client.call("status"))["roots"]

        await wait_until(forgotten)
        write_json(old / ".claude/settings.json", claude_settings("Stop", command("echo two")))
        again = await client.fire("claude", "Stop", [str(old)])
        roots = (await client.call("status"))["roots"]
        status = await client.call("status")
        await client.aclose()
        daemon.request_shutdown("test over")

    assert [h["command"] for h in again["hooks"]] == ["echo two"]  # correct after forgetting
    assert str(old) in roots  # named again: known again
    assert status["rootsForgotten"] >= 1


async def test_past_max_roots_the_least_recently_named_are_forgotten(
    settings, tmp_path: Path
) -> None:
    roots = [tmp_path / f"r{i}" for i in range(5)]
    for root in roots:
        write_json(root / ".claude/settings.json", claude_settings("Stop", command("true")))
    async with trio.open_nursery() as nursery:
        daemon = await nursery.start(serve, replace(settings, max_roots=3))
        client = await RpcClient.connect(settings.socket_path)
        for root in [roots[0], roots[1], roots[2], roots[0]]:
            await client.fire("claude", "Stop", [str(root)])
        full = await client.call("status")
        await client.fire("claude", "Stop", [str(roots[3])])  # past the cap
        status = await client.call("status")
        await client.aclose()
        daemon.request_shutdown("test over")

    assert len(full["roots"]) == 3
    # r1 was named least recently (r0 was named again after it)
    assert sorted(status["roots"]) == sorted(str(r) for r in (roots[0], roots[2], roots[3]))
    assert status["rootsForgotten"] == 1
