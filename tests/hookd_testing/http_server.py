"""A real HTTP/1.1 server on 127.0.0.1 for HTTP hook tests (h11 over trio sockets).

Each request is recorded (method, target, headers, body); the answer is whatever
``respond`` returns for it: ``(status, body bytes)``. ``hold`` makes the server keep the
request open until the test releases it (to test timeouts without sleeping).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import h11
import trio


@dataclass
class Recorded:
    method: str
    target: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class HttpServer:
    port: int
    respond: Callable[[Recorded], tuple[int, bytes]]
    requests: list[Recorded] = field(default_factory=list)
    hold: trio.Event | None = None
    arrived: trio.Event = field(default_factory=trio.Event)

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"


@asynccontextmanager
async def http_server(
    respond: Callable[[Recorded], tuple[int, bytes]] = lambda r: (200, b""),
) -> AsyncIterator[HttpServer]:
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    server = HttpServer(port=port, respond=respond)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(trio.serve_listeners, lambda s: _serve(s, server), listeners)
        yield server
        nursery.cancel_scope.cancel()


async def _serve(stream: trio.SocketStream, server: HttpServer) -> None:
    connection = h11.Connection(h11.SERVER)
    request: h11.Request | None = None
    body = bytearray()
    async with stream:
        while True:
            event = connection.next_event()
            if event is h11.NEED_DATA:
                data = await stream.receive_some(65536)
                if not data:
                    return
                connection.receive_data(bytes(data))
            elif isinstance(event, h11.Request):
                request = event
            elif isinstance(event, h11.Data):
                body += event.data
            elif isinstance(event, h11.EndOfMessage):
                break
            else:
                return
        assert request is not None
        recorded = Recorded(
            method=request.method.decode(),
            target=request.target.decode(),
            headers={k.decode().lower(): v.decode() for k, v in request.headers},
            body=bytes(body),
        )
        server.requests.append(recorded)
        server.arrived.set()
        if server.hold is not None:
            await server.hold.wait()
        status, payload = server.respond(recorded)
        response = h11.Response(
            status_code=status,
            headers=[("Content-Length", str(len(payload))), ("Connection", "close")],
        )
        await stream.send_all(
            connection.send(response)
            + connection.send(h11.Data(data=payload))
            + connection.send(h11.EndOfMessage())
        )
