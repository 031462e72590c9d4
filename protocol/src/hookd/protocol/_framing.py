"""Message framing for the hookd socket: LSP base protocol or newline-delimited JSON.

The framing is sniffed once per connection from its first non-whitespace byte: ``{`` or
``[`` means newline-delimited JSON (one compact JSON text per line), anything else means
LSP headers (``Content-Length: N\\r\\n\\r\\n`` then N bytes). Replies use the framing the
peer chose, so vscode-jsonrpc clients and ``nc``-style scripts share one socket.

Everything here is sans-IO: feed bytes in, get complete message bodies out.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator

from ._jsonrpc import HEAD_SCAN_BYTES, RequestId, id_from_head

DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024
"""Largest message body accepted (and the longest NDJSON line): room for real tool
inputs (a Write of a large file, a PostToolUse with a large tool response)."""

MAX_HEADER_BYTES = 8 * 1024
"""Largest LSP header block accepted."""


class Framing(enum.Enum):
    """How messages are delimited on one connection."""

    LSP = "lsp"
    NDJSON = "ndjson"


class FramingError(Exception):
    """The byte stream cannot be split into messages any more.

    ``recoverable`` tells whether the decoder skipped the bad message and can go on
    (an oversized NDJSON line) or whether the stream is out of sync and the connection
    should be closed after answering (a garbled LSP header). ``request_id`` is the id of
    an oversized request when the head of the message gave it (else None), so the
    answer can name the request it refuses.
    """

    def __init__(
        self, message: str, *, recoverable: bool, request_id: RequestId | float | None = None
    ) -> None:
        super().__init__(message)
        self.recoverable = recoverable
        self.request_id = request_id


def encode(body: bytes, framing: Framing) -> bytes:
    """Frame one serialized JSON message for sending."""
    if framing is Framing.NDJSON:
        return body + b"\n"
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class MessageDecoder:
    """Incremental decoder: ``feed()`` bytes, iterate complete message bodies.

    Oversized messages are never buffered whole: an NDJSON line past the limit is
    skipped up to its newline and reported once as a recoverable ``FramingError``; an
    LSP message announcing a length past the limit is skipped by its announced length.
    """

    def __init__(self, max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES) -> None:
        self.max_message_bytes = max_message_bytes
        self.framing: Framing | None = None
        self._buffer = bytearray()
        self._skip_bytes = 0  # LSP: bytes of an oversized body still to discard
        self._skipping_line = False  # NDJSON: discarding an oversized line
        self._scanned = 0  # NDJSON: leading bytes of the buffer known to hold no newline

    def feed(self, data: bytes) -> Iterator[bytes]:
        """Add received bytes and yield every message body they complete.

        Raises:
            FramingError: on an oversized or malformed message (see the class doc).
                After a recoverable one, call ``feed(b"")`` to get the messages that
                were already received behind the skipped one.
        """
        self._buffer += data
        while True:
            if self.framing is None and not self._sniff():
                return
            if self.framing is Framing.NDJSON:
                body = self._next_line()
            else:
                body = self._next_lsp()
            if body is None:
                return
            yield body

    @property
    def buffered(self) -> int:
        """Bytes received but not yet part of a complete message."""
        return len(self._buffer)

    @property
    def mid_message(self) -> bool:
        """Part of a message has arrived and the rest has not (the peer owes bytes)."""
        if self._skip_bytes or self._skipping_line:
            return True
        size = len(self._buffer)
        return size > 16 or (size > 0 and not self._buffer.isspace())

    def _sniff(self) -> bool:
        stripped = self._buffer.lstrip()
        if not stripped:
            self._buffer.clear()
            return False
        del self._buffer[: len(self._buffer) - len(stripped)]
        self.framing = Framing.NDJSON if bytes(stripped[:1]) in (b"{", b"[") else Framing.LSP
        return True

    def _next_line(self) -> bytes | None:
        while True:
            # Searched from where the last search stopped: a 64 MiB line arriving in
            # 64 KiB reads must not be rescanned from its start each time.
            newline = self._buffer.find(b"\n", self._scanned)
            if self._skipping_line:
                if newline < 0:
                    self._buffer.clear()
                    return None
                del self._buffer[: newline + 1]
                self._skipping_line = False
                self._scanned = 0
                continue
            if newline < 0:
                if len(self._buffer) > self.max_message_bytes:
                    head = bytes(self._buffer[:HEAD_SCAN_BYTES])
                    self._buffer.clear()
                    self._scanned = 0
                    self._skipping_line = True
                    raise self._too_large(None, head)
                self._scanned = len(self._buffer)
                return None
            line = bytes(self._buffer[:newline]).strip()
            del self._buffer[: newline + 1]
            self._scanned = 0
            if len(line) > self.max_message_bytes:
                raise self._too_large(len(line), line[:HEAD_SCAN_BYTES])
            if line:
                return line

    def _next_lsp(self) -> bytes | None:
        if self._skip_bytes:
            self._discard_skipped()
            if self._skip_bytes:
                return None
        end = self._buffer.find(b"\r\n\r\n", 0, MAX_HEADER_BYTES + 4)
        if end < 0:
            if len(self._buffer) > MAX_HEADER_BYTES:
                raise FramingError(
                    f"LSP header block longer than {MAX_HEADER_BYTES} bytes without a blank "
                    "line; send 'Content-Length: N\\r\\n\\r\\n' before each message",
                    recoverable=False,
                )
            return None
        length = _content_length(bytes(self._buffer[:end]))
        body_start = end + 4
        if length > self.max_message_bytes:
            if len(self._buffer) - body_start < min(length, HEAD_SCAN_BYTES):
                return None  # wait for the head of the body: it names the request's id
            head = bytes(self._buffer[body_start : body_start + HEAD_SCAN_BYTES])
            del self._buffer[:body_start]
            self._skip_bytes = length
            self._discard_skipped()
            raise self._too_large(length, head)
        if len(self._buffer) < body_start + length:
            return None
        body = bytes(self._buffer[body_start : body_start + length])
        del self._buffer[: body_start + length]
        return body

    def _discard_skipped(self) -> None:
        dropped = min(self._skip_bytes, len(self._buffer))
        del self._buffer[:dropped]
        self._skip_bytes -= dropped

    def _too_large(self, size: int | None, head: bytes) -> FramingError:
        what = f"of {size} bytes exceeds" if size is not None else "is longer than"
        _found, request_id = id_from_head(head)
        return FramingError(
            f"message {what} the limit of {self.max_message_bytes} bytes; "
            "it was discarded (send a smaller payload, or raise max_message_bytes in "
            "hookd's config)",
            recoverable=True,
            request_id=request_id,
        )


def _content_length(header_block: bytes) -> int:
    length: int | None = None
    for raw_line in header_block.split(b"\r\n"):
        name, sep, value = raw_line.partition(b":")
        if not sep:
            raise FramingError(
                f"malformed LSP header line {raw_line[:80]!r}: expected 'Name: value'",
                recoverable=False,
            )
        if name.strip().lower() == b"content-length":
            try:
                length = int(value.strip())
            except ValueError:
                raise FramingError(
                    f"Content-Length is not a number: {value.strip()[:40]!r}",
                    recoverable=False,
                ) from None
            if length < 0:
                raise FramingError("Content-Length is negative", recoverable=False)
    if length is None:
        raise FramingError("LSP header block has no Content-Length header", recoverable=False)
    return length
