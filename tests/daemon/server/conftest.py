"""A daemon serving the http entry (``http_entry``), and a raw HTTP client for it: the
tests write requests byte by byte, so malformed and hostile ones can be sent too."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
import trio

from hookd.daemon.app import Daemon, serve
from hookd.daemon.settings import Settings


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class HttpEntryHandle:
    daemon: Daemon
    port: int
    passcode: str

    def request(
        self,
        body: bytes | dict[str, Any] = b"",
        *,
        method: str = "POST",
        target: str = "/hookd-relay",
        headers: dict[str, str] | None = None,
        drop: tuple[str, ...] = (),
    ) -> bytes:
        """A request as Claude Code sends one, with ``headers`` changed and ``drop``ped."""
        data = json.dumps(body).encode() if isinstance(body, dict) else body
        fields = {
            "Host": f"127.0.0.1:{self.port}",
            "Content-Type": "application/json",
            "Authorization": f"Bearer {self.passcode}",
            "User-Agent": "axios/1.15.2",
            "Content-Length": str(len(data)),
            **(headers or {}),
        }
        head = f"{method} {target} HTTP/1.1\r\n" + "".join(
            f"{name}: {value}\r\n" for name, value in fields.items() if name not in drop
        )
        return (head + "\r\n").encode("latin-1") + data

    async def exchange(self, raw: bytes) -> Reply:
        """Send ``raw`` and read the answer (the entry closes after one)."""
        stream = await trio.open_tcp_stream("127.0.0.1", self.port)
        async with stream:
            await stream.send_all(raw)
            return await read_reply(stream)

    async def post(self, body: bytes | dict[str, Any], **changes: Any) -> Reply:
        return await self.exchange(self.request(body, **changes))


async def read_reply(stream: trio.abc.ReceiveStream) -> Reply:
    received = bytearray()
    while chunk := await stream.receive_some(65536):
        received += chunk
    head, _, body = bytes(received).partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}
    return Reply(int(status_line.split()[1]), headers, body)


@pytest.fixture
def http_settings(settings: Settings, tmp_path: Path) -> Settings:
    return replace(settings, http_entry=True, http_port=0, state_dir=str(tmp_path / "state"),
                   message_timeout_s=1.0, max_message_bytes=64 * 1024)  # fmt: skip


@pytest.fixture
async def http_entry(http_settings: Settings) -> AsyncIterator[HttpEntryHandle]:
    async with trio.open_nursery() as nursery:
        daemon: Daemon = await nursery.start(serve, http_settings)
        assert daemon.http_entry is not None
        yield HttpEntryHandle(daemon, daemon.http_entry.port, daemon.http_entry.passcode)
        daemon.request_shutdown("the test is over")  # serve() then returns
