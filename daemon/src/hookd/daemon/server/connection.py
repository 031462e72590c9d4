"""One client connection: framing, dispatch, batches, cancellation and disconnects.

* Messages are read as they arrive and each request runs in its own task, so a slow
  ``fire`` never holds up a ``status`` on the same connection; responses are matched by
  id (JSON-RPC allows any order). At most ``max_in_flight_per_connection`` requests (batch
  elements count one each) run at once; the rest are answered "busy" at once.
* ``$/cancelRequest {id}`` cancels that request: its hooks' process groups are killed and
  it is answered -32800 (LSP's RequestCancelled).
* A client that goes away cancels everything it started. A half-close (the client shut
  down its write side but still reads) is not a disconnect: replies still go out.
* Outgoing messages go through one writer task and a bounded queue. Replies wait for room
  (so a client that floods us without reading is slowed down, not buffered without
  bound); progress is best effort and never holds up a fire; a client that stops reading
  for ``WRITE_STALL_S`` is disconnected, which cancels its work.
"""

from __future__ import annotations

import contextlib
import itertools
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
OUTBOX_SIZE = 1024
WRITE_STALL_S = 30.0
"""A client that accepts no bytes for this long is considered gone."""


class _Request:
    """One request in flight: its id (absent for notifications) and its cancel scope."""

    __slots__ = ("has_id", "request_id", "scope", "why")

    def __init__(self, message: dict[str, Any]) -> None:
        self.has_id = "id" in message
        self.request_id = message.get("id")
        self.scope = trio.CancelScope()
        self.why = REQUEST_CANCELLED


class Connection:
    """Serves one accepted stream until the client leaves or the daemon stops."""

    def __init__(self, stream: trio.SocketStream, daemon: Daemon, peer_uid: int | None) -> None:
        self.stream = stream
        self.daemon = daemon
        self.peer_uid = peer_uid
        self.decoder = MessageDecoder(daemon.settings.max_message_bytes)
        self._outbox_send, self._outbox_receive = trio.open_memory_channel[bytes](OUTBOX_SIZE)
        self._requests: dict[int, _Request] = {}
        self._serials = itertools.count()
        self._in_flight = 0
        self._closing = False
        self._changed = trio.Event()
        self._writer_done = trio.Event()
        self.dropped_progress = 0

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
                    await self._handle(body, nursery)
            except FramingError as exc:
                code = MESSAGE_TOO_LARGE if exc.recoverable else INVALID_REQUEST
                await self.send(error(None, code, str(exc)))
                if not exc.recoverable:
                    return

    async def _after_eof(self) -> None:
        """Read side closed: finish in-flight work unless the peer is gone altogether."""
        while self._in_flight and not self._peer_hung_up():
            with trio.move_on_after(0.05):
                await self._wait_change()

    def _peer_hung_up(self) -> bool:
        poller = select.poll()
        poller.register(self.stream.socket.fileno(), select.POLLHUP)
        return any(event & select.POLLHUP for _fd, event in poller.poll(0))

    async def _writer(self) -> None:
        try:
            async for data in self._outbox_receive:
                with trio.move_on_after(WRITE_STALL_S) as stall:
                    try:
                        await self.stream.send_all(data)
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        self._nursery.cancel_scope.cancel()  # the client is gone
                        return
                if stall.cancelled_caught:
                    log.warning("client_stopped_reading", stalled_s=WRITE_STALL_S)
                    self._nursery.cancel_scope.cancel()
                    return
                self._signal_change()
        finally:
            self._writer_done.set()
            self._signal_change()

    # sending -----------------------------------------------------------------------
    async def send(self, message: Any) -> None:
        """Queue a reply, waiting for room (backpressure on a client that does not read)."""
        with contextlib.suppress(trio.ClosedResourceError):  # closing: the peer is gone
            await self._outbox_send.send(self._frame(message))

    def send_progress(self, method: str, params: dict[str, Any]) -> None:
        """Queue a notification if there is room; drop it otherwise (progress is best
        effort and must never hold up a fire)."""
        try:
            self._outbox_send.send_nowait(self._frame(notification(method, params)))
        except trio.WouldBlock:
            self.dropped_progress += 1
        except trio.ClosedResourceError:
            pass

    def _frame(self, message: Any) -> bytes:
        return encode(dumps(message), self.decoder.framing or Framing.NDJSON)

    # dispatch ----------------------------------------------------------------------
    async def _handle(self, body: bytes, nursery: trio.Nursery) -> None:
        try:
            message = json.loads(body)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
            await self.send(error(None, PARSE_ERROR, "Parse error", str(exc)))
            return
        if isinstance(message, dict):
            if message.get("method") == CANCEL_REQUEST:
                self._cancel(message)
                return
            if "method" not in message and ("result" in message or "error" in message):
                return  # a response to a server request: we send none yet
        count = len(message) if isinstance(message, list) else 1
        refusal = self._refusal(count)
        if refusal is not None:
            await self._refuse(message, *refusal)
            return
        # Counted now, not when the task starts: a request that arrives together with
        # the client's EOF must still be answered.
        self._in_flight += count
        handler = self._batch if isinstance(message, list) else self._single
        nursery.start_soon(self._tracked, handler, message, count)

    def _refusal(self, count: int) -> tuple[int, str, str] | None:
        if self._closing:
            return SERVER_CANCELLED, "Server shutting down", "hookd is stopping"
        limit = self.daemon.settings.max_in_flight_per_connection
        if count and self._in_flight + count > limit:
            return (
                BUSY,
                "Too many requests in flight on this connection",
                f"at most {limit} at once (batch elements count one each); wait for "
                "earlier replies or open another connection",
            )
        return None

    async def _refuse(self, message: Any, code: int, text: str, data: str) -> None:
        if isinstance(message, list):
            replies = [
                error(m.get("id"), code, text, data)
                for m in message
                if isinstance(m, dict) and "id" in m
            ]
            if replies:
                await self.send(replies)
        elif isinstance(message, dict) and "id" in message:
            await self.send(error(message["id"], code, text, data))

    async def _tracked(self, handler: Any, message: Any, count: int) -> None:
        try:
            await handler(message)
        finally:
            self._in_flight -= count
            self._signal_change()

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
        request = _Request(message)
        serial = next(self._serials)
        self._requests[serial] = request
        try:
            with request.scope:
                context = _Context(self, request.request_id)
                return await dispatch_request(self.daemon.methods, context, message)
            if not request.has_id:
                return None
            label = (
                "Request cancelled" if request.why == REQUEST_CANCELLED else "Server shutting down"
            )
            return error(request.request_id, request.why, label)
        finally:
            del self._requests[serial]

    def _cancel(self, message: dict[str, Any]) -> None:
        params = message.get("params")
        target = params.get("id") if isinstance(params, dict) else None
        for request in self._requests.values():
            if request.has_id and request.request_id == target:
                request.why = REQUEST_CANCELLED
                request.scope.cancel()

    def cancel_all(self) -> None:
        """Daemon shutdown: refuse new requests; cancel every running one (-32802)."""
        self._closing = True
        for request in self._requests.values():
            request.why = SERVER_CANCELLED
            request.scope.cancel()

    # waiting -----------------------------------------------------------------------
    def _signal_change(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    async def _wait_change(self) -> None:
        await self._changed.wait()

    @property
    def in_flight(self) -> int:
        return self._in_flight

    async def wait_idle(self) -> None:
        """Until no request is in flight and every queued reply reached the socket."""
        while True:
            changed = self._changed
            queued = self._outbox_receive.statistics().current_buffer_used
            if not self._in_flight and (not queued or self._writer_done.is_set()):
                return
            await changed.wait()


class _Context:
    """What a method sees of its caller: the connection (to notify) and the request id."""

    def __init__(self, connection: Connection, request_id: Any) -> None:
        self.connection = connection
        self.request_id = request_id
        self.daemon = connection.daemon
