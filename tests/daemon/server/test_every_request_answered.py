"""Every request gets an answer, in valid JSON: ids that are not JSON (``NaN``,
``1e999``), ``$/cancelRequest`` sent as a request, an empty batch followed by a
half-close, and requests over the size limit (answered with their own id)."""

from __future__ import annotations

import json
import socket
from dataclasses import replace
from typing import Any

import pytest
import trio

from hookd.protocol import MESSAGE_TOO_LARGE, Framing
from hookd_testing import Gate, RpcClient, claude_settings, command, fire_in_flight, write_json

LIMIT = 256 * 1024


@pytest.fixture
def settings(settings):
    return replace(settings, max_message_bytes=LIMIT)


def strict_json(raw: bytes) -> Any:
    """Parse as JSON proper: ``NaN``/``Infinity`` are refused (Python accepts them)."""

    def refuse(name: str) -> None:
        raise ValueError(f"not JSON: {name}")

    return json.loads(raw, parse_constant=refuse)


async def raw_line(client: RpcClient) -> bytes:
    """The next NDJSON line exactly as the daemon wrote it."""
    buffer = b""
    with trio.fail_after(10):
        while b"\n" not in buffer:
            data = await client.stream.receive_some(65536)
            assert data, "the daemon closed the connection"
            buffer += data
    line, _, rest = buffer.partition(b"\n")
    assert not rest
    return line


@pytest.mark.parametrize("literal", [b"NaN", b"Infinity", b"-Infinity", b"1e999", b"-1e999"])
async def test_an_id_that_is_not_json_is_answered_with_id_null(
    rpc: RpcClient, literal: bytes
) -> None:
    await rpc.send_raw(b'{"jsonrpc":"2.0","id":' + literal + b',"method":"status"}\n')
    reply = strict_json(await raw_line(rpc))

    assert reply["id"] is None
    assert reply["error"]["code"] == -32600
    assert "finite number" in reply["error"]["data"]
    assert "pid" in await rpc.call("status")


async def test_non_json_ids_in_a_batch_and_in_a_busy_refusal(daemon) -> None:
    client = await daemon.connect()
    await client.send_raw(b'[{"jsonrpc":"2.0","id":NaN,"method":"status"},'
                          b'{"jsonrpc":"2.0","id":2.5,"method":"status"}]\n')  # fmt: skip
    batch = strict_json(await raw_line(client))
    limit = daemon.settings.max_in_flight_per_connection
    too_many = b",".join([b'{"jsonrpc":"2.0","id":1e999,"method":"status"}'] * (limit + 1))
    await client.send_raw(b"[" + too_many + b"]\n")
    busy = strict_json(await raw_line(client))
    await client.aclose()

    assert sorted(batch, key=lambda r: str(r["id"])) == [
        {"jsonrpc": "2.0", "id": 2.5, "result": batch[0 if batch[0]["id"] == 2.5 else 1]["result"]},
        {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid request",
                                                  "data": '"id" must be a string, a finite number or null'}},
    ]  # fmt: skip
    assert len(busy) == limit + 1
    assert {r["id"] for r in busy} == {None}


async def test_non_finite_numbers_anywhere_in_a_reply_are_written_as_null(rpc, workspace) -> None:
    """A hook that prints 1e999 (valid JSON; Python reads it as inf) cannot make hookd
    write the non-JSON ``Infinity``."""
    write_json(workspace / ".claude" / "settings.json", claude_settings("PreToolUse", command(
        """cat >/dev/null; echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse",'"""
        """' "permissionDecision": "allow", "updatedInput": {"n": 1e999, "m": -1e999}}}'""")))  # fmt: skip
    await rpc.send({"jsonrpc": "2.0", "id": 1, "method": "fire",
                    "params": {"agent": "claude", "event": "PreToolUse",
                               "workspaceRoots": [str(workspace)],
                               "payload": {"tool_name": "Bash"}}})  # fmt: skip
    reply = strict_json(await raw_line(rpc))

    assert reply["result"]["updatedInput"] == {"n": None, "m": None}


async def test_cancel_request_sent_as_a_request_is_answered(rpc, workspace) -> None:
    gate = Gate(workspace / "gate")
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("Stop", command(gate.wait_command)))  # fmt: skip
    fire_id = await rpc.start("fire", {"agent": "claude", "event": "Stop",
                                       "workspaceRoots": [str(workspace)]})  # fmt: skip
    await fire_in_flight(rpc)

    await rpc.send({"jsonrpc": "2.0", "id": "c1", "method": "$/cancelRequest",
                    "params": {"id": fire_id}})  # fmt: skip
    with trio.fail_after(10):
        cancel = await rpc.recv_response("c1")
        fired = await rpc.recv_response(fire_id)
    await rpc.send({"jsonrpc": "2.0", "id": "c2", "method": "$/cancelRequest"})
    await rpc.send([{"jsonrpc": "2.0", "id": "c3", "method": "$/cancelRequest",
                     "params": {"id": 12345}}])  # fmt: skip
    await rpc.send({"id": "c4", "method": "$/cancelRequest", "params": {"id": 1}})
    with trio.fail_after(10):
        replies = [await rpc.recv() for _ in range(3)]  # in any order
    in_batch = next(r for r in replies if isinstance(r, list))
    no_params, invalid = (next(r for r in replies if isinstance(r, dict) and r["id"] == i)
                          for i in ("c2", "c4"))  # fmt: skip

    assert cancel == {"jsonrpc": "2.0", "id": "c1", "result": None}
    assert fired["error"]["code"] == -32800
    assert no_params["error"]["code"] == -32602
    assert in_batch == [{"jsonrpc": "2.0", "id": "c3", "result": None}]
    assert invalid["error"]["code"] == -32600


@pytest.mark.parametrize("framing", list(Framing))
async def test_empty_batch_then_half_close_always_gets_its_error(daemon, framing) -> None:
    """Repeated, because the lost answer was a race between the half-close and a task."""
    body = b"[]"
    frame = body + b"\n" if framing is Framing.NDJSON else b"Content-Length: 2\r\n\r\n" + body
    for _ in range(40):
        with socket.socket(socket.AF_UNIX) as sock:
            sock.settimeout(10)
            sock.connect(daemon.socket)
            await trio.to_thread.run_sync(sock.sendall, frame)
            sock.shutdown(socket.SHUT_WR)
            received = b""
            while data := await trio.to_thread.run_sync(sock.recv, 65536):
                received += data
        assert b'"code":-32600' in received, received
        assert b'"empty batch"' in received


async def test_an_oversized_request_is_answered_with_its_id(daemon) -> None:
    """NDJSON, cut at the limit before its newline arrives, and LSP, skipped by length:
    both answered 1001 with the id the head of the message gave, then served on."""
    ndjson = await daemon.connect()
    head = b'{"jsonrpc":"2.0","id":"big-1","method":"fire","params":{"payload":{"x":"'
    await ndjson.send_raw(head + b"a" * (LIMIT + 10))  # no newline yet
    early = await ndjson.recv()
    await ndjson.send_raw(b'"}}}\n')
    lsp = await RpcClient.connect(daemon.socket, Framing.LSP)
    body = b'{"jsonrpc":"2.0","id":77,"method":"fire","params":{"x":"' + b"b" * LIMIT + b'"}}'
    await lsp.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    refused = await lsp.recv()
    params_first = await daemon.connect()
    await params_first.send_raw(b'{"params":{"x":"' + b"c" * LIMIT + b'"},"id":5,"method":"x"}\n')
    unknown = await params_first.recv()

    assert early["id"] == "big-1"
    assert early["error"]["code"] == MESSAGE_TOO_LARGE
    assert "max_message_bytes" in early["error"]["message"]
    assert refused["id"] == 77
    assert refused["error"]["code"] == MESSAGE_TOO_LARGE
    assert unknown["id"] is None  # the id comes after the payload: it cannot be known
    for client in (ndjson, lsp, params_first):
        assert "pid" in await client.call("status")
        await client.aclose()


async def test_an_oversized_hook_run_answer_fails_that_run_with_the_reason(rpc, workspace) -> None:
    """The client's answer to hookd's own hook/run is too large: the run fails at once
    with the reason (instead of waiting for the hook's timeout), the fire is answered."""
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("Stop", {"type": "prompt", "prompt": "p"}))  # fmt: skip
    fire_id = await rpc.start("fire", {"agent": "claude", "event": "Stop",
                                       "workspaceRoots": [str(workspace)],
                                       "clientHandlers": ["prompt"]})  # fmt: skip
    run = await rpc.recv()
    assert run["method"] == "hook/run"
    await rpc.send({"jsonrpc": "2.0", "id": run["id"],
                    "result": {"ok": True, "reason": "x" * (LIMIT + 1)}})  # fmt: skip
    with trio.fail_after(20):
        fired = await rpc.recv_response(fire_id)

    [hook] = fired["result"]["hooks"]
    assert "max_message_bytes" in hook["error"], hook
