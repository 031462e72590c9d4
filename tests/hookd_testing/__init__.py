"""Test helpers: a trio JSON-RPC client, hook-file factories, and condition waits.

Imported by tests as ``hookd_testing`` (``pythonpath = ["tests"]`` in pyproject.toml).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import stat
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import trio

from hookd.protocol import Framing, MessageDecoder, dumps, encode

_ids = itertools.count(1)


class RpcClient:
    """A minimal async JSON-RPC client for tests: raw access to everything on the wire."""

    def __init__(self, stream: trio.SocketStream, framing: Framing = Framing.NDJSON) -> None:
        self.stream = stream
        self.framing = framing
        self.decoder = MessageDecoder(max_message_bytes=64 * 1024 * 1024)
        self.pending: list[Any] = []
        self.notifications: list[dict[str, Any]] = []
        self.responses: dict[Any, dict[str, Any]] = {}

    @classmethod
    async def connect(cls, path: str, framing: Framing = Framing.NDJSON) -> RpcClient:
        return cls(await trio.open_unix_socket(path), framing)

    async def send(self, message: Any) -> None:
        await self.stream.send_all(encode(dumps(message), self.framing))

    async def send_raw(self, data: bytes) -> None:
        await self.stream.send_all(data)

    async def recv(self) -> Any:
        """The next message (raises EOFError when the daemon closed the connection)."""
        while not self.pending:
            data = await self.stream.receive_some(65536)
            if not data:
                raise EOFError("the daemon closed the connection")
            self.pending.extend(json.loads(body) for body in self.decoder.feed(data))
        return self.pending.pop(0)

    async def recv_response(self, request_id: Any) -> dict[str, Any]:
        """Read until the response for ``request_id``; other messages are kept aside
        (notifications in ``notifications``, other responses in ``responses``)."""
        while request_id not in self.responses:
            message = await self.recv()
            if isinstance(message, dict) and "method" in message:
                self.notifications.append(message)
            elif isinstance(message, dict):
                self.responses[message.get("id")] = message
            else:
                raise AssertionError(f"unexpected message: {message!r}")
        return self.responses.pop(request_id)

    async def start(self, method: str, params: dict[str, Any] | None = None) -> int:
        request_id = next(_ids)
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        await self.send(message)
        return request_id

    async def call(self, method: str, params: dict[str, Any] | None = None) -> Any:
        """Send a request and return its result (AssertionError on an error answer)."""
        response = await self.recv_response(await self.start(method, params))
        assert "result" in response, response
        return response["result"]

    async def fire(
        self,
        agent: str,
        event: str,
        roots: list[str],
        payload: dict[str, Any] | None = None,
        **extra: Any,
    ) -> dict[str, Any]:
        params = {"agent": agent, "event": event, "workspaceRoots": roots,
                  "payload": payload or {}, **extra}  # fmt: skip
        result: dict[str, Any] = await self.call("fire", params)
        return result

    def progress(self, token: Any) -> list[dict[str, Any]]:
        return [
            n["params"]["value"]
            for n in self.notifications
            if n.get("method") == "$/progress" and n["params"].get("token") == token
        ]

    async def aclose(self) -> None:
        await self.stream.aclose()


def write_executable(path: Path, text: str) -> Path:
    """Write a script and make it executable (creating parent folders)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def write_json(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2))
    return path


def claude_settings(
    event: str, *handlers: dict[str, Any], matcher: str | None = None
) -> dict[str, Any]:
    group: dict[str, Any] = {"hooks": list(handlers)}
    if matcher is not None:
        group["matcher"] = matcher
    return {"hooks": {event: [group]}}


def command(text: str, **fields: Any) -> dict[str, Any]:
    return {"type": "command", "command": text, **fields}


async def wait_until(
    predicate: Callable[[], bool | Awaitable[bool]], timeout: float = 10.0
) -> None:
    """Wait for a condition with a generous deadline (never a bare sleep-and-hope)."""
    with trio.fail_after(timeout):
        while True:
            value = predicate()
            if not isinstance(value, bool):
                value = await value
            if value:
                return
            await trio.sleep(0.01)


def process_gone(pid: int) -> bool:
    """True when ``pid`` no longer runs (absent, or a zombie awaiting its reaper)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def read_pids(path: Path) -> list[int]:
    if not path.exists():
        return []
    return [int(line) for line in path.read_text().split() if line.strip().isdigit()]


def kill_leftovers(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, 9)


class Gate:
    """A FIFO a hook blocks on (``cat gate``) until the test opens it: no timing involved."""

    def __init__(self, path: Path) -> None:
        self.path = path
        os.mkfifo(path)

    @property
    def wait_command(self) -> str:
        return f"cat {self.path} >/dev/null"

    async def open(self) -> None:
        """Release every hook waiting on the gate (off the trio thread: open() blocks)."""
        await trio.to_thread.run_sync(self.path.write_text, "go\n")


async def fire_in_flight(client: RpcClient, running: int = 1) -> dict[str, Any]:
    """Wait (via ``status``) until a fire has ``running`` hooks started; return it."""
    found: dict[str, Any] = {}

    async def check() -> bool:
        status = await client.call("status")
        for entry in status["inFlight"]:
            if len(entry["running"]) >= running:
                found.update(entry)
                return True
        return False

    await wait_until(check)
    return found
