"""One client connection: framing, dispatch, batches, cancellation and disconnects.

* Messages are read as they arrive and each request runs in its own task, so a slow
  ``fire`` never holds up a ``status`` on the same connection; responses are matched by
  id (JSON-RPC allows any order).
* ``$/cancelRequest {id}`` cancels that request's scope: its hooks' process groups are
  killed and it is answered with -32800 (LSP's RequestCancelled).
* A client that goes away cancels everything it started. A half-close (the client shut
  down its write side but still reads) is not a disconnect: replies still go out.
* A batch is answered as a batch; each element gets its own result or error.
* Outgoing messages go through one writer task and a bounded queue.
"""

from __future__ import annotations

import json
import select
from typing import TYPE_CHECKING, Any

import structlog
import trio

from hookd.protocol import (
    BUSY,
    CANCEL_REQUEST,
    INVALID_REQUEST,
    MESSAGE_TOO_LARGE,
    PARSE_ERROR,
    REQUEST_CANCELLED,
    SERVER_CANCELLED,
    Framing,
    FramingError,
    MessageDecoder,
    dumps,
    encode,
    error,
    invalid_request_reason,
    notification,
)

from .dispatch import dispatch_request

if TYPE_CHECKING:
    from ..app import Daemon

log = structlog.get_logger("hookd.connection")
_OUTBOX_SIZE = 1024


class Connection:
    """Serves one accepted stream until the client leaves or the daemon stops."""

    def __init__(self, stream: trio.SocketStream, daemon: Daemon, peer_uid: int | None) -> None:
        self.stream = stream
        self.daemon = daemon
        self.peer_uid = peer_uid
        self.decoder = MessageDecoder(daemon.settings.max_message_bytes)
        self._outbox_send, self._outbox_receive = trio.open_memory_channel[bytes](_OUTBOX_SIZE)
        self._scopes: dict[Any, tuple[trio.CancelScope, list[int]]] = {}
        self._in_flight = 0
        self._idle = trio.Event()
        self._idle.set()
        self._writer_done = trio.Event()
        self._flushed = trio.Event()
        self._flushed.set()

    # lifecycle ---------------------------------------------------------------------
    async def serve(self) -> None:
        self.daemon.connections.add(self)
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                nursery.start_soon(self._writer)
                await self._read_loop(nursery)
                await self._after_eof()
                self._outbox_send.close()  # the writer sends what is queued, then ends
                with trio.move_on_after(1.0):  # a peer that no longer reads gets 1 s
                    await self._writer_done.wait()
                nursery.cancel_scope.cancel()
        finally:
            self.daemon.connections.discard(self)
            with trio.CancelScope(shield=True):
                await self.stream.aclose()

    async def _read_loop(self, nursery: trio.Nursery) -> None:
        while True:
            try:
                data = await self.stream.receive_some(65536)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                return
            if not data:
                return
            try:
                for body in self.decoder.feed(data):
                    self._handle(body, nursery)
            except FramingError as exc:
                code = MESSAGE_TOO_LARGE if exc.recoverable else INVALID_REQUEST
                await self.send(error(None, code, str(exc)))
                if not exc.recoverable:
                    return

    async def _after_eof(self) -> None:
        """Read side closed: finish in-flight work unless the peer is gone altogether."""
        while self._in_flight and not self._peer_hung_up():
            with trio.move_on_after(0.05):
                await self._idle.wait()

    def _peer_hung_up(self) -> bool:
        poller = select.poll()
        poller.register(self.stream.socket.fileno(), select.POLLHUP)
        return any(event & select.POLLHUP for _fd, event in poller.poll(0))

    async def _writer(self) -> None:
        try:
            async for data in self._outbox_receive:
                try:
                    await self.stream.send_all(data)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    self._nursery.cancel_scope.cancel()  # the client is gone: cancel its work
                    return
                if not self._outbox_receive.statistics().current_buffer_used:
                    self._flushed.set()
        finally:
            self._writer_done.set()
            self._flushed.set()

    async def send(self, message: Any) -> None:
        framing = self.decoder.framing or Framing.NDJSON
        self._flushed = trio.Event()
        try:
            await self._outbox_send.send(encode(dumps(message), framing))
        except trio.ClosedResourceError:
            self._flushed.set()  # closing: the peer is gone or stopped reading

    async def notify(self, method: str, params: dict[str, Any]) -> None:
        await self.send(notification(method, params))

    # dispatch ----------------------------------------------------------------------
    def _handle(self, body: bytes, nursery: trio.Nursery) -> None:
        try:
            message = json.loads(body)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
            nursery.start_soon(self.send, error(None, PARSE_ERROR, "Parse error", str(exc)))
            return
        if isinstance(message, dict):
            if message.get("method") == CANCEL_REQUEST:
                self._cancel(message)
                return
            if "method" not in message and ("result" in message or "error" in message):
                return  # a response to a server request: we send none yet
        if self._in_flight >= self.daemon.settings.max_in_flight_per_connection:
            if isinstance(message, list) or (isinstance(message, dict) and "id" in message):
                rid = message.get("id") if isinstance(message, dict) else None
                busy = error(
                    rid,
                    BUSY,
                    "Too many requests in flight on this connection",
                    "wait for earlier replies or open another connection",
                )
                nursery.start_soon(self.send, busy)
            return
        # Counted now, not when the task starts: a request that arrives together with
        # the client's EOF must still be answered.
        self._in_flight += 1
        self._idle = trio.Event()
        handler = self._batch if isinstance(message, list) else self._single
        nursery.start_soon(self._tracked, handler, message)

    async def _tracked(self, handler: Any, message: Any) -> None:
        try:
            await handler(message)
        finally:
            self._in_flight -= 1
            if not self._in_flight:
                self._idle.set()

    async def _single(self, message: Any) -> None:
        response = await self._answer(message)
        if response is not None:
            await self.send(response)

    async def _batch(self, messages: list[Any]) -> None:
        if not messages:
            await self.send(error(None, INVALID_REQUEST, "Invalid request", "empty batch"))
            return
        responses: list[dict[str, Any] | None] = [None] * len(messages)

        async def one(index: int, message: Any) -> None:
            responses[index] = await self._answer(message)

        async with trio.open_nursery() as nursery:
            for index, message in enumerate(messages):
                nursery.start_soon(one, index, message)
        answered = [r for r in responses if r is not None]
        if answered:
            await self.send(answered)

    async def _answer(self, message: Any) -> dict[str, Any] | None:
        """The response to one request (None for a notification), cancellation included."""
        reason = invalid_request_reason(message)
        if reason is not None:
            rid = message.get("id") if isinstance(message, dict) else None
            valid_id = rid if isinstance(rid, int | str) else None
            return error(valid_id, INVALID_REQUEST, "Invalid request", reason)
        if message["method"] == CANCEL_REQUEST:  # inside a batch
            self._cancel(message)
            return None
        has_id = "id" in message
        rid = message.get("id")
        scope = trio.CancelScope()
        why = [REQUEST_CANCELLED]
        if has_id:
            self._scopes[rid] = (scope, why)
        try:
            with scope:
                return await dispatch_request(self.daemon.methods, _Context(self, rid), message)
            if not has_id:
                return None
            label = "Request cancelled" if why[0] == REQUEST_CANCELLED else "Server shutting down"
            return error(rid, why[0], label)
        finally:
            if self._scopes.get(rid, (None,))[0] is scope:
                del self._scopes[rid]

    def _cancel(self, message: dict[str, Any]) -> None:
        params = message.get("params")
        target = params.get("id") if isinstance(params, dict) else None
        entry = self._scopes.get(target)
        if entry is not None:
            entry[1][0] = REQUEST_CANCELLED
            entry[0].cancel()

    def cancel_all(self) -> None:
        """Daemon shutdown: every in-flight request is cancelled and answered -32802."""
        for scope, why in self._scopes.values():
            why[0] = SERVER_CANCELLED
            scope.cancel()

    @property
    def in_flight(self) -> int:
        return self._in_flight

    async def wait_idle(self) -> None:
        """Until no request is in flight and every queued reply reached the socket."""
        while self._in_flight:
            await self._idle.wait()
        await self._flushed.wait()


class _Context:
    """What a method sees of its caller: the connection (to notify) and the request id."""

    def __init__(self, connection: Connection, request_id: Any) -> None:
        self.connection = connection
        self.request_id = request_id
        self.daemon = connection.daemon
