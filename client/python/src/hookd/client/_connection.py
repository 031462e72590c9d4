"""A blocking connection to the daemon over its Unix socket (NDJSON framing).

Requests are written while replies are read (``send_request``): a request the daemon
refuses while it is still arriving (over ``max_message_bytes``) is answered at once, and
that answer must be seen, not left unread behind a write that can never finish.

hookd sits on the path of every tool call, so a round trip costs what a bare socket's
does: one ``send`` that takes the whole frame (polling only when it did not), one
``poll`` on an object kept for the connection, one ``recv``, one JSON decode. The
socket stays in blocking mode but every call passes ``MSG_DONTWAIT`` and waits with
``poll`` (never ``select``: the client may hold fds past ``FD_SETSIZE``), so no call
pays CPython's own poll-before-each-call of a socket with a timeout, and a send from
another thread (hook/run answers, cancel) keeps its own deadline.
"""

from __future__ import annotations

import collections
import contextlib
import errno
import json
import select
import socket
import time
from typing import Any

from hookd.protocol import (
    BUSY,
    MESSAGE_TOO_LARGE,
    FramingError,
    MessageDecoder,
    RequestId,
    default_socket_path,
    dumps,
)

from ._errors import ConnectionLost, DaemonNotRunning, DaemonUnresponsive, RemoteError

_NOT_RUNNING = {errno.ENOENT, errno.ECONNREFUSED, errno.ENOTDIR}
MAX_REPLY_BYTES = 1 << 30
READ_SIZE = 65536
_DONTWAIT = socket.MSG_DONTWAIT
_POLLIN = select.POLLIN
_READABLE = select.POLLIN | select.POLLHUP | select.POLLERR


_loads = json.JSONDecoder().decode
"""``json.loads`` of text without its per-call encoding detection (hookd writes ASCII)."""


def _request_frame(method: str, params: dict[str, Any] | None, request_id: RequestId) -> bytes:
    """``dumps(request(method, params, request_id))`` and its newline, byte for byte:
    only ``params`` goes through the JSON encoder (the envelope is a format string)."""
    tail = b',"params":' + dumps(params) if params is not None else b""
    head = b"%d" % request_id if type(request_id) is int else dumps(request_id)
    return b'{"jsonrpc":"2.0","id":%s,"method":%s%s}\n' % (head, dumps(method), tail)


class Connection:
    """One socket; ``send`` messages and ``receive`` them one at a time."""

    def _connect(self, deadline: float) -> None:
        """Connect; while the daemon's backlog is full (a burst of clients: a Unix
        socket with a timeout says EAGAIN where a blocking one would wait), try again
        until ``deadline``, as a blocking connect would have waited."""
        while True:
            try:
                self._sock.connect(self.socket_path)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise TimeoutError from None
                time.sleep(0.005)

    def __init__(self, socket_path: str | None = None, *, timeout_s: float = 30.0) -> None:
        self.socket_path = socket_path or default_socket_path()
        self.timeout_s = timeout_s
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.settimeout(min(timeout_s, 5.0))
        try:
            self._connect(time.monotonic() + min(timeout_s, 5.0))
        except FileNotFoundError:
            self._sock.close()
            raise DaemonNotRunning(self.socket_path, "the socket does not exist") from None
        except OSError as exc:
            self._sock.close()
            if exc.errno in _NOT_RUNNING:
                raise DaemonNotRunning(self.socket_path, exc.strerror or str(exc)) from None
            if isinstance(exc, TimeoutError):
                raise DaemonUnresponsive(self.socket_path, min(timeout_s, 5.0)) from None
            raise
        # Blocking mode, with MSG_DONTWAIT on every call and poll() for the waits (see
        # the module doc): a socket with a timeout would poll before each send and recv.
        self._sock.settimeout(None)
        self._reader = select.poll()
        """Waits for replies; used by the reading thread only (a poll object must not
        be polled from two threads at once)."""
        self._reader.register(self._sock, _POLLIN)
        # Replies are bounded by the daemon's own output caps; do not refuse large ones.
        self._decoder = MessageDecoder(max_message_bytes=MAX_REPLY_BYTES)
        self._pending: collections.deque[Any] = collections.deque()
        """Messages read and decoded, not yet returned by ``receive``."""
        self._refusal: dict[str, Any] | None = None
        """An error the daemon sent with id null (it could not tell which request, or
        it refuses the connection): the reason to give if it then closes."""

    def send(self, message: Any) -> None:
        self.send_raw_json(dumps(message))

    def send_raw_json(self, body: bytes) -> None:
        """Send a message already serialised by ``hookd.protocol.dumps`` (from any
        thread: it never reads).

        Raises:
            ConnectionLost: the daemon closed the connection.
            DaemonUnresponsive: the daemon did not take it all within the connection's
                timeout from the first wait (as ``sendall`` with a timeout did).
        """
        frame = memoryview(body + b"\n")
        waiter: select.poll | None = None
        deadline = 0.0
        while frame:
            try:
                frame = frame[self._sock.send(frame, _DONTWAIT) :]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, ConnectionResetError):
                raise ConnectionLost("hookd closed the connection") from None
            if waiter is None:  # the socket buffer is full: wait, within the timeout
                waiter = select.poll()
                waiter.register(self._sock, select.POLLOUT)
                deadline = time.monotonic() + self.timeout_s
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not waiter.poll(remaining * 1000):
                raise DaemonUnresponsive(self.socket_path, self.timeout_s)

    def send_request(
        self, method: str, params: dict[str, Any] | None, request_id: RequestId
    ) -> None:
        """Send a request, reading replies meanwhile (kept for ``receive``).

        Only from the thread that also calls ``receive``.

        Raises:
            RemoteError: the daemon refused the request before it was entirely sent (too
                large); the rest is not sent and the connection is closed (a message cut
                in the middle leaves the stream unusable).
            ConnectionLost: the daemon closed the connection.
            DaemonUnresponsive: the daemon took no bytes for the connection's timeout.
        """
        frame = _request_frame(method, params, request_id)
        try:
            sent = self._sock.send(frame, _DONTWAIT)
        except BlockingIOError:
            sent = 0
        except (BrokenPipeError, ConnectionResetError):
            self._read_what_is_left()
            raise self._closed("hookd closed the connection") from None
        if sent < len(frame):  # larger than the socket buffer: write while reading
            self._send_rest(memoryview(frame)[sent:], request_id, len(frame))

    def _send_rest(self, frame: memoryview, request_id: RequestId | None, total: int) -> None:
        """The rest of a request the socket did not take at once, read replies as they
        come: the daemon's refusal of a request too large is seen when it is sent."""
        stalled_at = time.monotonic() + self.timeout_s
        poller = select.poll()
        poller.register(self._sock, select.POLLIN | select.POLLOUT)
        while frame:
            remaining = stalled_at - time.monotonic()
            if remaining <= 0:
                raise DaemonUnresponsive(self.socket_path, self.timeout_s)
            events = 0
            for _fd, event in poller.poll(remaining * 1000):
                events |= event
            if events & _READABLE:
                refusal = self._read_some(request_id)
                if refusal is not None:
                    self.close()
                    if refusal.get("code") != MESSAGE_TOO_LARGE:
                        raise self._closed("hookd closed the connection")
                    raise RemoteError(
                        refusal.get("code", 0),
                        str(refusal.get("message", "")),
                        f"the request is {total} bytes of JSON; the rest was not sent",
                    )
            if events & select.POLLOUT:
                try:
                    sent = self._sock.send(frame, _DONTWAIT)
                except BlockingIOError:
                    continue
                except (BrokenPipeError, ConnectionResetError):
                    self._read_what_is_left()
                    raise self._closed("hookd closed the connection") from None
                frame = frame[sent:]
                stalled_at = time.monotonic() + self.timeout_s

    def _read_some(self, request_id: RequestId | None) -> dict[str, Any] | None:
        """Read what is there into the pending replies; the error object of a reply that
        refuses ``request_id`` (or an oversized message of unknown id), else None."""
        try:
            data = self._sock.recv(READ_SIZE, _DONTWAIT)
        except BlockingIOError:
            return None
        except ConnectionResetError:
            raise self._closed("hookd reset the connection") from None
        if not data:
            raise self._closed("hookd closed the connection before the request was sent")
        for reply in self._decode(data):
            if not isinstance(reply, dict) or "method" in reply:
                continue
            failure = reply.get("error")
            if not isinstance(failure, dict):
                continue
            rid = reply.get("id")
            if (rid == request_id and rid is not None) or (
                rid is None and failure.get("code") in (MESSAGE_TOO_LARGE, BUSY)
            ):
                return failure
        return None

    def _decode(self, data: bytes) -> list[Any]:
        """The messages ``data`` completes, also kept for ``receive``; an error the daemon
        sent with id null is kept as the reason to give if it then closes.

        The usual read (whole lines, the decoder in no message) is split here: the
        decoder's sniffing, buffering and skipping are for replies cut across reads."""
        if data[-1:] == b"\n" and data[:1] == b"{" and not self._decoder.mid_message:
            bodies: list[bytes] = data.split(b"\n")
            bodies.pop()
        else:
            try:
                bodies = list(self._decoder.feed(data))
            except FramingError as exc:
                raise ConnectionLost(f"cannot read hookd's reply: {exc}") from None
        messages = [_loads(body.decode()) for body in bodies if body and not body.isspace()]
        for message in messages:
            if isinstance(message, dict) and message.get("id", 0) is None:
                failure = message.get("error")
                if isinstance(failure, dict):
                    self._refusal = failure
        self._pending.extend(messages)
        return messages

    def _read_what_is_left(self) -> None:
        """After a failed write: read what the daemon said before it closed (its reason)."""
        with contextlib.suppress(OSError, ValueError, ConnectionLost):
            while data := self._sock.recv(READ_SIZE, _DONTWAIT):
                self._decode(data)

    def _closed(self, what: str) -> ConnectionLost:
        """ConnectionLost, with the daemon's own reason when it gave one."""
        if self._refusal is not None:
            reason = f"{self._refusal.get('message')}: {self._refusal.get('data')}"
            return ConnectionLost(f"hookd closed the connection ({reason})")
        return ConnectionLost(what)

    def receive(self, deadline: float | None = None) -> Any:
        """The next message; ``deadline`` is a ``time.monotonic()`` value or None for
        the connection's timeout."""
        pending = self._pending
        if pending:
            return pending.popleft()
        if deadline is None:
            deadline = time.monotonic() + self.timeout_s
        while not pending:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self._reader.poll(remaining * 1000):
                raise DaemonUnresponsive(self.socket_path, self.timeout_s)
            try:
                data = self._sock.recv(READ_SIZE, _DONTWAIT)
            except BlockingIOError:
                continue
            except ConnectionResetError:
                raise self._closed("hookd reset the connection") from None
            if not data:
                raise self._closed("hookd closed the connection before answering")
            self._decode(data)
        return pending.popleft()

    def close(self) -> None:
        self._sock.close()

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
