"""One client connection: framing, dispatch, batches, cancellation and disconnects.

* Messages are read as they arrive and each request runs in its own task, so a slow
  ``fire`` never holds up a ``status`` on the same connection; replies are matched by id
  (JSON-RPC allows any order). A request a starter can answer at once (a fire with no
  hook to run in the foreground: most tool calls) is answered as it is read, no task.
  At most ``max_in_flight_per_connection`` requests (batch elements count one each) run
  at once: past that, reading pauses until one finishes.
* ``$/cancelRequest {id}`` cancels the request(s) with that id still running or not yet
  started, even one that arrived in the same packet: hooks' process groups are killed,
  and the answer is -32800. A request already answered (a fire with no hook to run is
  answered as it is read) is not: the cancel comes too late, as JSON-RPC allows.
* A client that goes away cancels everything it started. A half-close (the client shut
  down its write side but still reads) is not a disconnect: every reply still goes out.
* Nothing the reader does waits for the client to read: output is queued without a frame
  limit but with a byte limit per connection (``max_unsent_bytes_per_connection``) and
  one over every connection (``max_unsent_bytes_total``: past it the connection with the
  most unsent bytes goes); a client cut off this way is disconnected, with a log line
  saying why. Progress is best effort: dropped while more than ``PROGRESS_HIGH_WATER``
  bytes are unsent, so it never holds up a fire. A client that accepts no bytes at all
  for ``WRITE_STALL_S`` is considered gone.
* A message, once started, must arrive whole within ``message_timeout_s``, or the
  connection is answered and closed; idle connections between messages may stay.
* The daemon can ask the client too (``ask``: server-to-client requests such as
  ``hook/run``); their answers are recognised by their ``hookd-`` string ids. A request
  cancelled on our side sends ``$/cancelRequest`` to the client; a client that stops
  reading before answering fails the request with a clear reason.
* Any error in this connection's own code is logged and ends this connection only.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
import select
from collections.abc import Mapping
from typing import Any

import structlog
import trio

from hookd.protocol import (
    BUSY,
    CANCEL_REQUEST,
    INVALID_PARAMS,
    INVALID_REQUEST,
    MESSAGE_TOO_LARGE,
    PARSE_ERROR,
    REQUEST_CANCELLED,
    SERVER_CANCELLED,
    Framing,
    FramingError,
    MessageDecoder,
    dumps,
    echoable_id,
    encode,
    error,
    invalid_request_reason,
    loads_message,
    notification,
    success,
)
from hookd.protocol import request as request_message

from ..runner.client_handler import ClientCallFailed
from .context import RequestContext, Services
from .dispatch import (
    NOT_STARTED,
    Later,
    NotStarted,
    dispatch_request,
    finish_request,
    start_request,
)
from .limits import ClientLimits
from .peer import Caller
from .socket_reader import SocketReader

log = structlog.get_logger("hookd.connection")
PROGRESS_HIGH_WATER = 1024 * 1024
WRITE_STALL_S = 30.0
WRITE_CHUNK = 64 * 1024


def same_id(a: object, b: object) -> bool:
    """JSON-RPC ids match only with the same type (``1`` is not ``true`` nor ``"1"``);
    numbers written with a fraction or an exponent are floats (``1e2`` is ``100.0``)."""
    return _kind(a) is _kind(b) and a == b


def _kind(value: object) -> type:
    return float if isinstance(value, float) else type(value)


class _Request:
    """One request admitted for execution: its id and its cancel scope."""

    __slots__ = ("has_id", "request_id", "scope", "why")

    def __init__(self, message: dict[str, Any]) -> None:
        self.has_id = "id" in message
        self.request_id = message.get("id")
        self.scope = trio.CancelScope()
        self.why = REQUEST_CANCELLED

    def cancel(self, why: int) -> None:
        self.why = why
        self.scope.cancel()


class Connection:
    """Serves one accepted stream until the client leaves or the daemon stops."""

    def __init__(
        self,
        stream: trio.SocketStream,
        services: Services,
        caller: Caller,
    ) -> None:
        self.stream = stream
        self.services = services
        self.caller = caller
        """Who connected: a process inside one of the daemon's hooks may fire (nested, up
        to ``max_fire_depth``) but not stop or reconfigure the daemon."""
        self.decoder = MessageDecoder(services.settings.max_message_bytes)
        self._outbox_send, self._outbox_receive = trio.open_memory_channel[bytes](math.inf)
        self._unsent_bytes = 0
        self._unsent_frames = 0
        self._last_progress = trio.current_time()
        self._requests: dict[int, _Request] = {}
        self._serials = itertools.count()
        self._in_flight = 0
        self._closing = False
        self._changed = trio.Event()
        self._writer_done = trio.Event()
        self.dropped_progress = 0
        self._asked: dict[str, trio.MemorySendChannel[dict[str, Any]]] = {}
        self._ask_ids = itertools.count(1)
        self._reading = True
        self._cut_off = False
        """Disconnected for not reading: nothing more is queued or counted."""
        self._message_started = math.inf
        """When the message now arriving began (inf between messages)."""
        self._reader = SocketReader(stream.socket.fileno())
        self._last_busy = trio.current_time()
        """When it last had something under way (its start, to begin with)."""
        self._lifetime = trio.CancelScope()
        self._shed = False

    @property
    def limits(self) -> ClientLimits:
        return self.services.limits

    # lifecycle ---------------------------------------------------------------------
    async def serve(self) -> None:
        """Run the connection; never lets an error of its own reach the daemon."""
        if self._shed:  # shed before it started: made room for a newer one
            with trio.CancelScope(shield=True):
                await self.stream.aclose()
            return
        self.services.connections.add(self)
        try:
            with self._lifetime:
                await self._serve()
        except Exception:  # a bug in this connection must not stop the daemon
            log.exception("connection_failed", peer_uid=self.caller.uid)
        finally:
            self.services.connections.discard(self)
            if not self._cut_off:  # what was never written is not queued any more
                self._count_unsent(-self._unsent_bytes, -self._unsent_frames)
                self._cut_off = True
            with trio.CancelScope(shield=True):
                await self.stream.aclose()

    async def _serve(self) -> None:
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            nursery.start_soon(self._writer)
            await self._read_loop(nursery)
            self._stop_asking("the client closed the connection before answering")
            await self._after_eof()
            self._outbox_send.close()  # the writer sends what is queued, then ends
            await self._writer_done.wait()
            nursery.cancel_scope.cancel()

    @property
    def idle_since(self) -> float | None:
        if (
            self._in_flight
            or self._asked
            or self._unsent_frames
            or self.decoder.mid_message
            or self._closing
            or self._cut_off
            or self._shed
            or self._readable()
        ):
            return None
        return self._last_busy

    def _readable(self) -> bool:
        """Whether the client has sent something not read yet (a request on its way)."""
        poller = select.poll()
        poller.register(self.stream.socket.fileno(), select.POLLIN)
        return bool(poller.poll(0))

    def shed(self) -> None:
        """Close it at once to make room (``max_connections``): it is idle, so no request
        of its is lost; its client sees the end of the stream, as at a daemon restart."""
        self._shed = True
        self.services.connections.discard(self)
        self._lifetime.cancel()

    async def _read_loop(self, nursery: trio.Nursery) -> None:
        timeout = self.limits.message_timeout_s or math.inf
        while True:
            data = await self._receive(self._message_started + timeout)
            if data is None:
                self._incomplete(timeout)
                return
            if not data:
                return
            completed = False
            chunk: bytes | None = data
            while chunk is not None:
                try:
                    for body in self.decoder.feed(chunk):
                        completed = True
                        await self._handle(body, nursery)
                    chunk = None
                except FramingError as exc:
                    completed = True
                    code = MESSAGE_TOO_LARGE if exc.recoverable else INVALID_REQUEST
                    rid = exc.request_id
                    if isinstance(rid, str) and rid in self._asked:
                        # The client's answer to our own hook/run: that run fails, saying why.
                        self._answered({"id": rid, "error": {"code": code, "message": str(exc)}})
                    else:
                        self.send(error(rid, code, str(exc)))
                    if not exc.recoverable:
                        return
                    chunk = b""  # messages already buffered behind the skipped one
            if not self.decoder.mid_message:
                self._message_started = math.inf
            elif completed or self._message_started == math.inf:
                # A new message began (its clock starts after the ones before it were
                # handled: time spent paused at the in-flight cap is not the client's).
                self._message_started = trio.current_time()

    async def _receive(self, deadline: float) -> bytes | None:
        """What the client sent next (empty: it is gone), or None when ``deadline``
        passed first (between messages there is none: no cancel scope to pay for)."""
        try:
            if deadline == math.inf:
                return await self._reader.read()
            with trio.move_on_at(deadline):
                return await self._reader.read()
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            return b""
        return None

    def _incomplete(self, timeout: float) -> None:
        """A half-sent message: answer (the stream cannot be resynchronised) and close."""
        self.limits.incomplete += 1
        log.warning("message_incomplete", timeout_s=timeout, buffered=self.decoder.buffered)
        self.send(error(None, INVALID_REQUEST, "Incomplete message",
                        f"the message was not complete {timeout:g} s after it began "
                        "(message_timeout_s); the connection is closed"))  # fmt: skip

    async def _after_eof(self) -> None:
        """Read side closed: finish in-flight work unless the peer is gone altogether."""
        while self._in_flight and not self._peer_hung_up():
            with trio.move_on_after(0.05):
                await self._changed.wait()

    def _peer_hung_up(self) -> bool:
        poller = select.poll()
        poller.register(self.stream.socket.fileno(), select.POLLHUP)
        return any(event & select.POLLHUP for _fd, event in poller.poll(0))

    # writing -----------------------------------------------------------------------
    async def _writer(self) -> None:
        try:
            async for frame in self._outbox_receive:
                for start in range(0, len(frame), WRITE_CHUNK):
                    if not await self._write_chunk(frame[start : start + WRITE_CHUNK]):
                        return
                if self._cut_off:
                    return
                self._count_unsent(-len(frame), -1)
                self._signal_change()
        finally:
            self._writer_done.set()
            self._signal_change()

    async def _write_chunk(self, chunk: bytes) -> bool:
        with trio.move_on_after(WRITE_STALL_S) as stall:
            try:
                await self.stream.send_all(chunk)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                self._nursery.cancel_scope.cancel()  # the client is gone: cancel its work
                return False
        if stall.cancelled_caught:
            log.warning("client_stopped_reading", stalled_s=WRITE_STALL_S)
            self._nursery.cancel_scope.cancel()
            return False
        self._last_progress = trio.current_time()
        return True

    def send(self, message: Any) -> None:
        """Queue a reply. Never waits: a client that does not read is cut off at its
        own cap of unsent output, or when all clients' unsent output passes the total
        cap and it has the most, instead."""
        if self._cut_off:
            return
        frame = self._frame(message)
        limits = self.limits
        if self._unsent_bytes + len(frame) > limits.max_unsent_per_connection:
            self.cut_off("its unsent replies passed max_unsent_bytes_per_connection")
            return
        while limits.unsent_bytes + len(frame) > limits.max_unsent_total:
            largest = max(self.services.connections, key=lambda c: c.unsent_bytes, default=self)
            if largest.unsent_bytes == 0:
                break  # nothing queued anywhere to reclaim: this one frame goes out
            largest.cut_off("the unsent replies of all clients passed max_unsent_bytes_total, "
                            "and it had the most")  # fmt: skip
            if largest is self:
                return
        self._enqueue(frame)

    def cut_off(self, why: str) -> None:
        """Disconnect a client that does not read: cancel its work, drop what is queued
        for it (the memory is given back now, not when its tasks have finished)."""
        if self._cut_off:
            return
        log.warning("client_not_reading", why=why, unsent_bytes=self._unsent_bytes,
                    peer_pid=self.caller.pid)  # fmt: skip
        self.limits.not_reading += 1
        self._count_unsent(-self._unsent_bytes, -self._unsent_frames)
        self._cut_off = True
        self._outbox_send.close()
        with contextlib.suppress(trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
            while True:
                self._outbox_receive.receive_nowait()
        self._nursery.cancel_scope.cancel()

    def _count_unsent(self, size: int, frames: int) -> None:
        self._unsent_bytes += size
        self._unsent_frames += frames
        self.limits.unsent_bytes += size

    def send_progress(self, method: str, params: dict[str, Any]) -> None:
        """Queue a notification unless much is still unsent (progress is best effort)."""
        if self._cut_off:
            return
        limits = self.limits
        if (
            self._unsent_bytes > PROGRESS_HIGH_WATER
            or limits.unsent_bytes > limits.max_unsent_total - PROGRESS_HIGH_WATER
        ):
            self.dropped_progress += 1
            return
        self._enqueue(self._frame(notification(method, params)))

    def _enqueue(self, frame: bytes) -> None:
        if not self._unsent_frames:
            # Nothing queued, so the writer is idle: write now (the common case: no task
            # switch, no channel); what the socket does not take is queued.
            frame = self._write_now(frame)
            if not frame:
                return
        with contextlib.suppress(trio.ClosedResourceError):  # closing: the peer is gone
            if not self._unsent_frames:
                self._last_progress = trio.current_time()  # the stall clock starts now
            self._outbox_send.send_nowait(frame)
            self._count_unsent(len(frame), 1)

    def _write_now(self, frame: bytes) -> bytes:
        """Write what the socket takes without waiting; the rest of ``frame``."""
        try:
            sent = os.write(self.stream.socket.fileno(), frame)  # a non-blocking socket
        except BlockingIOError:
            return frame
        except OSError:  # the client is gone (EPIPE, ECONNRESET...): cancel its work
            self._nursery.cancel_scope.cancel()
            return b""
        return frame[sent:]

    def _frame(self, message: Any) -> bytes:
        return encode(dumps(message), self.decoder.framing or Framing.NDJSON)

    # asking the client ---------------------------------------------------------------
    async def ask(self, method: str, params: Mapping[str, Any]) -> Any:
        """Send a request to the client and wait for its answer.

        Raises:
            ClientCallFailed: the client answered with an error, or can no longer answer.
        """
        if not self._reading:
            raise ClientCallFailed("the client closed the connection")
        request_id = f"hookd-{next(self._ask_ids)}"
        send_channel, receive_channel = trio.open_memory_channel[dict[str, Any]](1)
        self._asked[request_id] = send_channel
        self._signal_change()  # a reader paused at the in-flight cap must read the answer
        try:
            self.send(request_message(method, dict(params), request_id))
            try:
                reply = await receive_channel.receive()
            except trio.Cancelled:
                self.send(notification(CANCEL_REQUEST, {"id": request_id}))
                raise
        finally:
            del self._asked[request_id]
        failure = reply.get("error")
        if failure is not None:
            if not isinstance(failure, dict):
                raise ClientCallFailed(repr(failure))
            code = failure.get("code")
            text = str(failure.get("message"))
            raise ClientCallFailed(text if code is None else f"{text} (error {code})")
        return reply.get("result")

    def _answered(self, message: dict[str, Any]) -> None:
        request_id = message.get("id")
        channel = self._asked.get(request_id) if isinstance(request_id, str) else None
        if channel is None:
            log.debug("unexpected_response", id=message.get("id"))
            return
        with contextlib.suppress(trio.WouldBlock):  # a duplicate answer is ignored
            channel.send_nowait(message)

    def _stop_asking(self, why: str) -> None:
        self._reading = False
        for channel in self._asked.values():
            with contextlib.suppress(trio.WouldBlock):
                channel.send_nowait({"error": {"message": why}})

    # dispatch ----------------------------------------------------------------------
    async def _handle(self, body: bytes, nursery: trio.Nursery) -> None:
        self._last_busy = trio.current_time()
        try:
            message = loads_message(body)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
            self.send(error(None, PARSE_ERROR, "Parse error", str(exc)))
            return
        if isinstance(message, dict):
            if message.get("method") == CANCEL_REQUEST and invalid_request_reason(message) is None:
                reply = self._cancel(message)
                if reply is not None:
                    self.send(reply)
                return
            if "method" not in message and ("result" in message or "error" in message):
                self._answered(message)
                return
        if message == []:
            # Answered here, not by a task: nothing would be in flight, so a half-close
            # right after it could close the connection before the task ran.
            self.send(error(None, INVALID_REQUEST, "Invalid request", "empty batch"))
            return
        items = message if isinstance(message, list) else [message]
        limit = self.services.settings.max_in_flight_per_connection
        if len(items) > limit:
            self._refuse(message, BUSY, "Batch too large",
                         f"at most {limit} requests per batch; split it")  # fmt: skip
            return
        while self._in_flight + len(items) > limit:  # backpressure: stop reading...
            if self._asked:
                # ...unless in-flight fires wait on this client's hook/run answers, which
                # are behind this request in the stream: refuse it and keep reading.
                self._refuse(message, BUSY, "Too many requests in flight",
                             f"at most {limit} at once, and hookd is waiting for your "
                             "answers to its hook/run requests; retry later")  # fmt: skip
                return
            await self._changed.wait()
        later = None
        if not isinstance(message, list) and not self._closing:
            begun = self._start(message)
            if not isinstance(begun, Later | NotStarted):
                if begun is not None:
                    self.send(begun)
                return  # answered at once: no task, nothing in flight
            later = begun if isinstance(begun, Later) else None
        # Admitted (and cancellable) now, before their tasks start, so that a cancel in
        # the same packet, or a shutdown, reaches them.
        admitted = [self._admit(item) for item in items]
        self._in_flight += len(items)
        if isinstance(message, list):
            nursery.start_soon(self._batch, items, admitted)
        else:
            nursery.start_soon(self._single, items[0], admitted[0], later)

    def _start(self, message: Any) -> dict[str, Any] | Later | NotStarted | None:
        """A single request a starter answers at once (a fire with no hook to run), or
        begins (``Later``: its task runs the rest); else ``NOT_STARTED``."""
        if invalid_request_reason(message) is not None:
            return NOT_STARTED
        context = RequestContext(self, message.get("id"), self.services)
        return start_request(self.services.starters, context, message)

    def _admit(self, message: Any) -> tuple[int, _Request] | None:
        if invalid_request_reason(message) is not None or message["method"] == CANCEL_REQUEST:
            return None
        request = _Request(message)
        if self._closing:
            request.cancel(SERVER_CANCELLED)
        serial = next(self._serials)
        self._requests[serial] = request
        return serial, request

    def _refuse(self, message: Any, code: int, text: str, data: str) -> None:
        """Answer every request of ``message`` with one error, in the message's own shape
        (a batch gets an array, a single request an object, a notification nothing)."""
        items = message if isinstance(message, list) else [message]
        replies = [
            error(echoable_id(m), code, text, data)
            for m in items
            if isinstance(m, dict) and "id" in m
        ]
        if not replies:
            return
        self.send(replies if isinstance(message, list) else replies[0])

    async def _single(
        self, message: Any, admitted: tuple[int, _Request] | None, later: Later | None = None
    ) -> None:
        try:
            response = await self._answer(message, admitted, later)
            if response is not None:
                self.send(response)
        finally:
            self._done(1)

    async def _batch(
        self, messages: list[Any], admitted: list[tuple[int, _Request] | None]
    ) -> None:
        try:
            responses: list[dict[str, Any] | None] = [None] * len(messages)

            async def one(index: int) -> None:
                responses[index] = await self._answer(messages[index], admitted[index])

            async with trio.open_nursery() as nursery:
                for index in range(len(messages)):
                    nursery.start_soon(one, index)
            answered = [r for r in responses if r is not None]
            if answered:
                self.send(answered)
        finally:
            self._done(len(messages))

    def _done(self, count: int) -> None:
        self._in_flight -= count
        self._last_busy = trio.current_time()
        self._signal_change()

    async def _answer(
        self, message: Any, admitted: tuple[int, _Request] | None, later: Later | None = None
    ) -> dict[str, Any] | None:
        """The response to one request (None for a notification), cancellation included;
        ``later``: the rest of a request its starter began (dropped if cancelled first:
        a starter leaves nothing behind until awaited)."""
        if admitted is None:
            reason = invalid_request_reason(message)
            if reason is None:  # a valid $/cancelRequest inside a batch
                return self._cancel(message)
            return error(echoable_id(message), INVALID_REQUEST, "Invalid request", reason)
        serial, request = admitted
        try:
            if not request.scope.cancel_called:  # cancelled before it started: do not run
                with request.scope:
                    if later is not None:
                        return await finish_request(message, later)
                    context = RequestContext(self, request.request_id, self.services)
                    return await dispatch_request(self.services.methods, context, message)
            if not request.has_id:
                return None
            label = (
                "Request cancelled" if request.why == REQUEST_CANCELLED else "Server shutting down"
            )
            return error(request.request_id, request.why, label)
        finally:
            del self._requests[serial]

    def _cancel(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """Cancel the requests ``params.id`` names. ``$/cancelRequest`` is a notification;
        sent as a request (with an id) it is answered too: null, or -32602 without an id
        to cancel."""
        params = message.get("params")
        if not isinstance(params, dict) or "id" not in params:
            if "id" not in message:
                return None
            usage = '$/cancelRequest takes {"id": <the id of the request to cancel>}'
            return error(echoable_id(message), INVALID_PARAMS, "Invalid params", usage)
        for request in self._requests.values():
            if request.has_id and same_id(request.request_id, params["id"]):
                request.cancel(REQUEST_CANCELLED)
        return success(echoable_id(message), None) if "id" in message else None

    def cancel_all(self) -> None:
        """Daemon shutdown: cancel every admitted request and refuse new ones (-32802)."""
        self._closing = True
        for request in self._requests.values():
            request.cancel(SERVER_CANCELLED)

    # waiting -----------------------------------------------------------------------
    def _signal_change(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    @property
    def unsent_bytes(self) -> int:
        return self._unsent_bytes

    @property
    def is_open(self) -> bool:
        """Whether a message queued now can still reach the client."""
        return not self._writer_done.is_set() and self in self.services.connections

    @property
    def in_flight(self) -> int:
        return self._in_flight

    async def wait_idle(self, stall_s: float = 0.5) -> None:
        """Until no request is in flight and every reply has been written entirely, or
        the client has taken nothing for ``stall_s`` (shutdown must not wait on it)."""
        while True:
            changed = self._changed
            if not self._in_flight and (not self._unsent_frames or self._writer_done.is_set()):
                return
            if self._unsent_frames and trio.current_time() - self._last_progress > stall_s:
                return
            with trio.move_on_after(stall_s / 5):
                await changed.wait()
