"""JSON-RPC over the real socket: framing, errors, batches, limits (daemon in-process)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
import trio

from hookd.protocol import Framing
from hookd_testing import Gate, RpcClient, claude_settings, command, fire_in_flight, write_json


@pytest.fixture
def settings(settings):
    """A 1 MiB message limit: the size tests stay cheap."""
    return replace(settings, max_message_bytes=1024 * 1024)


async def test_ndjson_request_gets_ndjson_reply(rpc: RpcClient) -> None:
    """A newline-delimited JSON request is answered on one line."""
    await rpc.send_raw(b'{"jsonrpc":"2.0","id":7,"method":"status"}\n')
    data = await rpc.stream.receive_some(1 << 20)

    assert data.endswith(b"\n")
    assert json.loads(data)["id"] == 7


async def test_lsp_framing_is_sniffed_and_used_for_replies(daemon) -> None:
    """Content-Length framed requests (vscode-jsonrpc) get Content-Length framed replies."""
    client = await RpcClient.connect(daemon.socket, Framing.LSP)
    body = b'{"jsonrpc":"2.0","id":"a","method":"status"}'
    await client.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    raw = await client.stream.receive_some(1 << 20)

    assert raw.startswith(b"Content-Length: ")
    assert client.decoder.framing is None
    reply = json.loads(next(iter(client.decoder.feed(raw))))
    assert reply["id"] == "a"
    assert "pid" in reply["result"]
    await client.aclose()


async def test_parse_error_then_connection_keeps_working(rpc: RpcClient) -> None:
    """Invalid JSON gets -32700 with a null id, and the connection stays usable."""
    await rpc.send_raw(b"{not json\n")
    error = await rpc.recv()

    assert error["error"]["code"] == -32700
    assert error["id"] is None
    assert "pid" in await rpc.call("status")


async def test_invalid_request_and_unknown_method(rpc: RpcClient) -> None:
    """A request without "jsonrpc" is -32600; an unknown method is -32601."""
    await rpc.send({"id": 1, "method": "status"})
    invalid = await rpc.recv()
    request_id = await rpc.start("no/such/method")
    unknown = await rpc.recv_response(request_id)

    assert invalid["error"]["code"] == -32600
    assert invalid["id"] == 1
    assert unknown["error"]["code"] == -32601


async def test_invalid_params_say_what_is_wrong(rpc: RpcClient) -> None:
    """Bad fire params get -32602 with a message naming the field and the fix."""
    bad_agent = await rpc.recv_response(
        await rpc.start("fire", {"agent": "cursor", "event": "x", "workspaceRoots": []})
    )
    relative = await rpc.recv_response(
        await rpc.start("fire", {"agent": "claude", "event": "Stop", "workspaceRoots": ["rel"]})
    )
    unknown_param = await rpc.recv_response(await rpc.start("status", {"verbose": True}))
    positional = await rpc.recv_response(await rpc.start("status", [1]))  # type: ignore[arg-type]

    assert bad_agent["error"]["code"] == -32602
    assert "claude, cline, cline-sdk, augment" in bad_agent["error"]["data"]
    assert "absolute paths" in relative["error"]["data"]
    assert unknown_param["error"]["code"] == -32602
    assert positional["error"]["code"] == -32602
    assert "by name" in positional["error"]["data"]


async def test_notifications_are_never_answered(rpc: RpcClient) -> None:
    """A request without an id (even an erroneous one) gets no reply."""
    await rpc.send({"jsonrpc": "2.0", "method": "status"})
    await rpc.send({"jsonrpc": "2.0", "method": "no/such/method"})
    request_id = await rpc.start("status")
    reply = await rpc.recv()

    assert reply["id"] == request_id


async def test_batch_elements_are_answered_one_by_one(rpc: RpcClient) -> None:
    """In a batch each element gets its own result or error; notifications get none."""
    await rpc.send(
        [
            {"jsonrpc": "2.0", "id": 1, "method": "status"},
            {"jsonrpc": "2.0", "method": "status"},
            {"jsonrpc": "2.0", "id": 2, "method": "nope"},
            {"id": 3, "method": "status"},
            42,
        ]
    )
    replies = await rpc.recv()

    assert isinstance(replies, list)
    by_id = {r["id"]: r for r in replies if r["id"] is not None}
    assert "result" in by_id[1]
    assert by_id[2]["error"]["code"] == -32601
    assert by_id[3]["error"]["code"] == -32600
    assert [r["error"]["code"] for r in replies if r["id"] is None] == [-32600]
    assert len(replies) == 4


async def test_batch_of_notifications_and_empty_batch(rpc: RpcClient) -> None:
    """A batch of only notifications gets nothing; an empty batch gets one -32600."""
    await rpc.send([{"jsonrpc": "2.0", "method": "status"}])
    await rpc.send([])
    empty = await rpc.recv()
    request_id = await rpc.start("status")

    assert empty["error"]["code"] == -32600
    assert (await rpc.recv())["id"] == request_id


async def test_oversized_ndjson_message_is_refused_and_connection_survives(daemon) -> None:
    """A message past the size limit gets a clear error; the next one works."""
    client = await daemon.connect()
    limit = daemon.settings.max_message_bytes
    await client.send_raw(
        b'{"jsonrpc":"2.0","id":1,"method":"status","params":{"x":"' + b"a" * limit
    )
    await client.send_raw(b'"}}\n')
    error = await client.recv()

    assert error["error"]["code"] == 1001
    assert error["id"] == 1  # recovered from the head of the message
    assert "the limit of" in error["error"]["message"]
    assert "pid" in await client.call("status")
    await client.aclose()


async def test_oversized_lsp_message_is_skipped(daemon) -> None:
    """An LSP message announcing too many bytes is skipped by its length, then served on."""
    client = await RpcClient.connect(daemon.socket, Framing.LSP)
    size = daemon.settings.max_message_bytes + 10
    await client.send_raw(b"Content-Length: %d\r\n\r\n" % size + b" " * size)
    error = await client.recv()

    assert error["error"]["code"] == 1001
    assert "pid" in await client.call("status")
    await client.aclose()


async def test_garbled_lsp_header_closes_after_answering(daemon) -> None:
    """A header that is not 'Name: value' is answered -32600, then the stream is closed."""
    client = await daemon.connect()
    await client.send_raw(b"Garbage without colon\r\n\r\n{}")
    error = await client.recv()

    assert error["error"]["code"] == -32600
    with trio.fail_after(5):
        assert await client.stream.receive_some(100) == b""
    await client.aclose()


async def test_rpc_discover_serves_the_openrpc_document(rpc: RpcClient) -> None:
    """rpc.discover returns the OpenRPC document that describes the protocol."""
    document = await rpc.call("rpc.discover")

    assert document["openrpc"].startswith("1.")
    assert document["info"]["title"] == "hookd"


async def test_requests_on_one_connection_run_concurrently(rpc: RpcClient, workspace) -> None:
    """A status request is answered while a slow fire on the same connection runs."""
    gate = Gate(workspace / "gate")
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("Stop", command(gate.wait_command)))  # fmt: skip
    fire_id = await rpc.start("fire", {"agent": "claude", "event": "Stop",
                                       "workspaceRoots": [str(workspace)]})  # fmt: skip

    in_flight = await fire_in_flight(rpc)

    assert in_flight["event"] == "Stop"
    await gate.open()
    assert "result" in await rpc.recv_response(fire_id)
