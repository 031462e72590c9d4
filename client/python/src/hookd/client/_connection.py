"""A blocking connection to the daemon over its Unix socket (NDJSON framing).

Requests are written while replies are read (``send_request``): a request the daemon
refuses while it is still arriving (over ``max_message_bytes``) is answered at once, and
that answer must be seen, not left unread behind a write that can never finish.
"""

from __future__ import annotations

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
    Framing,
    FramingError,
    MessageDecoder,
    RequestId,
    default_socket_path,
    dumps,
    encode,
)

from ._errors import ConnectionLost, DaemonNotRunning, DaemonUnresponsive, RemoteError

_NOT_RUNNING = {errno.ENOENT, errno.ECONNREFUSED, errno.ENOTDIR}
MAX_REPLY_BYTES = 1 << 30
WRITE_CHUNK = 1 << 20


class Connection:
    """One socket; ``send`` messages and ``receive`` them one at a time."""

    def __init__(self, socket_path: str | None = None, *, timeout_s: float = 30.0) -> None:
        self.socket_path = socket_path or default_socket_path()
        self.timeout_s = timeout_s
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.settimeout(min(timeout_s, 5.0))
        try:
            self._sock.connect(self.socket_path)
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
        # One timeout for the socket's whole life: receive() waits with select(), so a
        # send from another thread (hook/run answers, cancel) never inherits a receive's
        # shrinking deadline and never stops half-way through a frame.
        self._sock.settimeout(timeout_s)
        # Replies are bounded by the daemon's own output caps; do not refuse large ones.
        self._decoder = MessageDecoder(max_message_bytes=MAX_REPLY_BYTES)
        self._pending: list[bytes] = []
        self._refusal: dict[str, Any] | None = None
        """An error the daemon sent with id null (it could not tell which request, or
        it refuses the connection): the reason to give if it then closes."""

    def send(self, message: Any) -> None:
        self.send_raw_json(dumps(message))

    def send_raw_json(self, body: bytes) -> None:
        """Send a message already serialised by ``hookd.protocol.dumps`` (from any
        thread: it never reads)."""
        try:
            self._sock.sendall(encode(body, Framing.NDJSON))
        except (BrokenPipeError, ConnectionResetError):
            raise ConnectionLost("hookd closed the connection") from None

    def send_request(self, message: dict[str, Any]) -> None:
        """Send a request, reading replies meanwhile (kept for ``receive``).

        Only from the thread that also calls ``receive``.

        Raises:
            RemoteError: the daemon refused the request before it was entirely sent (too
                large); the rest is not sent and the connection is closed (a message cut
                in the middle leaves the stream unusable).
            ConnectionLost: the daemon closed the connection.
            DaemonUnresponsive: the daemon took no bytes for the connection's timeout.
        """
        frame = memoryview(encode(dumps(message), Framing.NDJSON))
        request_id = message.get("id")
        total = len(frame)
        stalled_at = time.monotonic() + self.timeout_s
        poller = select.poll()  # not select(): the client may hold fds past FD_SETSIZE
        poller.register(self._sock, select.POLLIN | select.POLLOUT)
        while frame:
            remaining = stalled_at - time.monotonic()
            if remaining <= 0:
                raise DaemonUnresponsive(self.socket_path, self.timeout_s)
            events = 0
            for _fd, event in poller.poll(remaining * 1000):
                events |= event
            readable = events & (select.POLLIN | select.POLLHUP | select.POLLERR)
            writable = events & select.POLLOUT
            if readable:
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
            if writable:
                try:
                    sent = self._sock.send(frame[:WRITE_CHUNK])
                except (BrokenPipeError, ConnectionResetError):
                    self._read_what_is_left()
                    raise self._closed("hookd closed the connection") from None
                frame = frame[sent:]
                stalled_at = time.monotonic() + self.timeout_s

    def _read_some(self, request_id: RequestId | None) -> dict[str, Any] | None:
        """Read what is there into the pending replies; the error object of a reply that
        refuses ``request_id`` (or an oversized message of unknown id), else None."""
        try:
            data = self._sock.recv(65536)
        except ConnectionResetError:
            raise self._closed("hookd reset the connection") from None
        if not data:
            raise self._closed("hookd closed the connection before the request was sent")
        try:
            bodies = list(self._decoder.feed(data))
        except FramingError as exc:
            raise ConnectionLost(f"cannot read hookd's reply: {exc}") from None
        self._pending.extend(bodies)
        for body in bodies:
            reply = json.loads(body)
            if not isinstance(reply, dict) or "method" in reply:
                continue
            failure = reply.get("error")
            if not isinstance(failure, dict):
                continue
            rid = reply.get("id")
            if rid is None:
                self._refusal = failure
            if (rid == request_id and rid is not None) or (
                rid is None and failure.get("code") in (MESSAGE_TOO_LARGE, BUSY)
            ):
                return failure
        return None

    def _read_what_is_left(self) -> None:
        """After a failed write: read what the daemon said before it closed (its reason)."""
        with contextlib.suppress(OSError, ValueError, FramingError):
            self._sock.setblocking(False)
            while data := self._sock.recv(65536):
                for body in self._decoder.feed(data):
                    self._pending.append(body)
                    reply = json.loads(body)
                    if isinstance(reply, dict) and reply.get("id", 0) is None:
                        failure = reply.get("error")
                        if isinstance(failure, dict):
                            self._refusal = failure

    def _closed(self, what: str) -> ConnectionLost:
        """ConnectionLost, with the daemon's own reason when it gave one."""
        if self._refusal is not None:
            reason = f"{self._refusal.get('message')}: {self._refusal.get('data')}"
            return ConnectionLost(f"hookd closed the connection ({reason})")
        return ConnectionLost(what)

    def receive(self, deadline: float | None = None) -> Any:
        """The next message; ``deadline`` is a ``time.monotonic()`` value or None for
        the connection's timeout."""
        if deadline is None:
            deadline = time.monotonic() + self.timeout_s
        while not self._pending:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise DaemonUnresponsive(self.socket_path, self.timeout_s)
            readable, _, _ = select.select([self._sock], [], [], remaining)
            if not readable:
                raise DaemonUnresponsive(self.socket_path, self.timeout_s)
            try:
                data = self._sock.recv(65536)
            except TimeoutError:
                raise DaemonUnresponsive(self.socket_path, self.timeout_s) from None
            except ConnectionResetError:
                raise self._closed("hookd reset the connection") from None
            if not data:
                raise self._closed("hookd closed the connection before answering")
            try:
                self._pending.extend(self._decoder.feed(data))
            except FramingError as exc:
                raise ConnectionLost(f"cannot read hookd's reply: {exc}") from None
        message = json.loads(self._pending.pop(0))
        if isinstance(message, dict) and message.get("id", 0) is None:
            failure = message.get("error")
            if isinstance(failure, dict):
                self._refusal = failure
        return message

    def close(self) -> None:
        self._sock.close()

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
