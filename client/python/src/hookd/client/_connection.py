"""A blocking connection to the daemon over its Unix socket (NDJSON framing)."""

from __future__ import annotations

import errno
import json
import select
import socket
import time
from typing import Any

from hookd.protocol import Framing, FramingError, MessageDecoder, default_socket_path, dumps, encode

from ._errors import ConnectionLost, DaemonNotRunning, DaemonUnresponsive

_NOT_RUNNING = {errno.ENOENT, errno.ECONNREFUSED, errno.ENOTDIR}
MAX_REPLY_BYTES = 1 << 30


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

    def send(self, message: Any) -> None:
        self.send_raw_json(dumps(message))

    def send_raw_json(self, body: bytes) -> None:
        """Send a message already serialised by ``hookd.protocol.dumps``."""
        try:
            self._sock.sendall(encode(body, Framing.NDJSON))
        except BrokenPipeError:
            raise ConnectionLost("hookd closed the connection") from None

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
                raise ConnectionLost("hookd reset the connection") from None
            if not data:
                raise ConnectionLost("hookd closed the connection before answering")
            try:
                self._pending.extend(self._decoder.feed(data))
            except FramingError as exc:
                raise ConnectionLost(f"cannot read hookd's reply: {exc}") from None
        return json.loads(self._pending.pop(0))

    def close(self) -> None:
        self._sock.close()

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
