"""Odd numeric ids (issue 31): the daemon answers with the id exactly as the client wrote
it, ``1e2`` as ``1e2`` and not ``100.0``, in a single request, a batch, an error, under
either framing; ``$/cancelRequest`` finds such a request by its id."""

from __future__ import annotations

import json
import re

import pytest
import trio

from hookd.protocol import Framing, MessageDecoder, encode

ODD_IDS = ["1e2", "1E2", "1.0", "-0", "0.10", "1e-7", "-1.5e+300", "12345678901234567890.5",
           "100000000000000000000000000000", "2.50", "0e0", "-0.0"]  # fmt: skip


async def exchange(socket_path: str, frames: list[bytes], replies: int) -> list[bytes]:
    """Send ``frames``, read ``replies`` raw message bodies."""
    stream = await trio.open_unix_socket(socket_path)
    decoder = MessageDecoder()
    bodies: list[bytes] = []
    with trio.fail_after(30):
        await stream.send_all(b"".join(frames))
        while len(bodies) < replies:
            data = await stream.receive_some(65536)
            assert data, "the daemon closed the connection"
            bodies.extend(decoder.feed(data))
    await stream.aclose()
    return bodies


def source_id(body: bytes) -> str:
    """The text of the reply's top-level id, as written on the wire."""
    found = re.search(rb'^\{(?:"jsonrpc":"2\.0",)?"id":([^,}]+)', body)
    assert found, body
    return found.group(1).decode()


@pytest.mark.parametrize("framing", list(Framing))
async def test_odd_numeric_ids_are_answered_as_sent(daemon, framing: Framing) -> None:
    frames = [encode(b'{"jsonrpc":"2.0","id":%s,"method":"status"}' % i.encode(), framing)
              for i in ODD_IDS]  # fmt: skip
    bodies = await exchange(daemon.socket, frames, len(ODD_IDS))

    assert sorted(source_id(body) for body in bodies) == sorted(ODD_IDS)
    assert all("result" in json.loads(body) for body in bodies)


async def test_odd_ids_in_a_batch_and_in_errors(daemon) -> None:
    batch = (
        b"["
        + b",".join(
            b'{"jsonrpc":"2.0","id":%s,"method":"%s"}' % (i.encode(), m)
            for i, m in (("1e2", b"status"), ("2.0", b"no/such/method"), ("3", b"status"))
        )
        + b"]"
    )
    bad = b'{"jsonrpc":"2.0","id":4E0,"method":"status","extra":1}'
    replies = await exchange(daemon.socket, [batch + b"\n", bad + b"\n"], 2)
    [batch_reply] = [r for r in replies if r.startswith(b"[")]  # answered in any order
    [bad_reply] = [r for r in replies if not r.startswith(b"[")]

    items = json.loads(batch_reply)
    texts = re.findall(rb'\{(?:"jsonrpc":"2\.0",)?"id":([^,}]+)', batch_reply)
    assert sorted(t.decode() for t in texts) == ["1e2", "2.0", "3"]
    assert {json.dumps(i["id"]): ("error" in i) for i in items} == {
        "100.0": False, "2.0": True, "3": False}  # fmt: skip
    assert source_id(bad_reply) == "4E0"
    assert json.loads(bad_reply)["error"]["code"] == -32600


async def test_a_request_with_an_odd_id_is_cancelled_by_it(daemon, workspace) -> None:
    from hookd_testing import claude_settings, command, write_json

    write_json(workspace / ".claude/settings.json",
               claude_settings("PreToolUse", command("sleep 30", timeout=60)))  # fmt: skip
    fire = json.dumps({"agent": "claude", "event": "PreToolUse",
                       "workspaceRoots": [str(workspace)], "payload": {}}).encode()  # fmt: skip
    frames = [
        b'{"jsonrpc":"2.0","id":1e2,"method":"fire","params":%s}\n' % fire,
        b'{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1e2}}\n',
    ]
    [reply] = await exchange(daemon.socket, frames, 1)

    assert source_id(reply) == "1e2"
    assert json.loads(reply)["error"]["code"] == -32800
