"""One request to the http entry, read strictly (h11 parses; everything unexpected is
refused with a status and a sentence saying why), and the bytes of an answer.

What a request must be, checked on its headers before its body is read: ``Host`` this
daemon's own (``127.0.0.1:PORT`` or ``localhost:PORT``: a web page that rebinds a DNS name
to 127.0.0.1 sends its own name); no ``Origin`` and no ``Sec-Fetch-*`` header (browsers
send them, Claude Code does not); ``POST /hookd-relay``; ``Authorization: Bearer
<passcode>`` (compared in constant time); ``Content-Type: application/json``; a
``Content-Length`` within the cap, no transfer or content coding. The body must be one
JSON object with a ``hook_event_name``.
"""

from __future__ import annotations

import hmac
import json
from http import HTTPStatus
from typing import Any

import h11
import trio

from .http_passcode import ENTRY_PATH, PASSCODE_ENV

MAX_HEADER_BYTES = 16 * 1024
_READ_CHUNK = 65536
_CHALLENGE = (("WWW-Authenticate", 'Bearer realm="hookd"'),)


class Refused(Exception):
    """The request is not served: ``status`` and a message saying what was wrong."""

    def __init__(self, status: int, message: str, headers: tuple[tuple[str, str], ...] = ()):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers


class ClientGone(Exception):
    """The client closed the connection before its request was whole."""


async def read_request(
    stream: trio.abc.ReceiveStream,
    *,
    port: int,
    passcode: str,
    passcode_file: str,
    max_body_bytes: int,
) -> bytes:
    """The body of the one request on ``stream``, once its headers passed every check.

    Raises:
        Refused: the request is not one this entry serves.
        ClientGone: the client hung up first.
    """
    connection = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEADER_BYTES)
    request = await _next_event(stream, connection)
    if not isinstance(request, h11.Request):
        raise Refused(400, "expected an HTTP request")
    check_headers(request, port=port, passcode=passcode, passcode_file=passcode_file,
                  max_body_bytes=max_body_bytes)  # fmt: skip
    body = bytearray()
    while True:
        event = await _next_event(stream, connection)
        if isinstance(event, h11.Data):
            body += event.data
        elif isinstance(event, h11.EndOfMessage):
            return bytes(body)


async def _next_event(stream: trio.abc.ReceiveStream, connection: h11.Connection) -> Any:
    while True:
        try:
            event = connection.next_event()
        except h11.RemoteProtocolError as exc:
            raise Refused(exc.error_status_hint, f"malformed HTTP request: {exc}") from None
        if event is h11.NEED_DATA:
            try:
                data = await stream.receive_some(_READ_CHUNK)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                raise ClientGone from None
            connection.receive_data(bytes(data))
            continue
        if isinstance(event, h11.ConnectionClosed):
            raise ClientGone
        return event


def check_headers(
    request: h11.Request, *, port: int, passcode: str, passcode_file: str, max_body_bytes: int
) -> None:
    """Raise ``Refused`` unless the request line and headers are what the entry serves."""
    if sum(len(name) + len(value) + 4 for name, value in request.headers) > MAX_HEADER_BYTES:
        raise Refused(431, f"the headers are over {MAX_HEADER_BYTES} bytes")
    headers: dict[str, list[str]] = {}
    for name, value in request.headers:
        headers.setdefault(name.decode("latin-1"), []).append(value.decode("latin-1"))
    host = headers.get("host", [])
    hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
    if len(host) != 1 or host[0].lower() not in hosts:
        raise Refused(403, f"Host {', '.join(host) or '(none)'} is not this daemon's "
                      f"(127.0.0.1:{port}): a page that points its own name at this "
                      "machine is refused")  # fmt: skip
    if "origin" in headers or any(name.startswith("sec-fetch-") for name in headers):
        raise Refused(403, "requests from web pages (an Origin or Sec-Fetch header) are refused")
    if request.method != b"POST":
        raise Refused(405, f"the http entry takes POST {ENTRY_PATH} only",
                      (("Allow", "POST"),))  # fmt: skip
    if request.target != ENTRY_PATH.encode():
        raise Refused(404, f"the http entry is POST {ENTRY_PATH}; nothing else is served")
    _check_passcode(headers.get("authorization", []), passcode, passcode_file)
    media = headers.get("content-type", [])
    if len(media) != 1 or not _is_json(media[0]):
        raise Refused(415, "send the event as Content-Type: application/json")
    if any(v.strip().lower() != "identity" for v in headers.get("content-encoding", [])):
        raise Refused(415, "send the event without a Content-Encoding")
    length = headers.get("content-length", [])
    if "transfer-encoding" in headers or len(length) != 1:
        raise Refused(411, "send the event with one Content-Length (no Transfer-Encoding)")
    if "expect" in headers:
        raise Refused(417, "send the event without Expect")
    if int(length[0]) > max_body_bytes:  # h11 checked it is a number
        raise Refused(413, f"the event is {length[0]} bytes; hookd takes at most "
                      f"{max_body_bytes} (max_message_bytes in hookd's config)")  # fmt: skip


def _check_passcode(values: list[str], passcode: str, passcode_file: str) -> None:
    scheme, _, given = (values[0] if len(values) == 1 else "").strip().partition(" ")
    given = given.strip()
    if scheme.lower() != "bearer" or not given:
        raise Refused(401, f"no passcode: the agent must send Authorization: Bearer "
                      f"${{{PASSCODE_ENV}}}, and {PASSCODE_ENV} must be set in its environment "
                      f'(export {PASSCODE_ENV}="$(cat {passcode_file})")', _CHALLENGE)  # fmt: skip
    if not hmac.compare_digest(given.encode(), passcode.encode()):
        raise Refused(401, f"wrong passcode: the agent's {PASSCODE_ENV} is not the one in "
                      f"{passcode_file}", _CHALLENGE)  # fmt: skip


def _is_json(value: str) -> bool:
    kind, *parameters = (part.strip().lower() for part in value.split(";"))
    return kind == "application/json" and all(
        p.replace(" ", "") in ("charset=utf-8", 'charset="utf-8"') for p in parameters
    )


def parse_event(body: bytes) -> dict[str, Any]:
    """The agent's event; ``Refused`` (400) unless a JSON object naming its event."""
    try:
        event = json.loads(body, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise Refused(400, f"the body is not JSON ({exc})") from None
    if not isinstance(event, dict) or not isinstance(event.get("hook_event_name"), str):
        raise Refused(400, "the body is not a Claude Code hook event (no hook_event_name)")
    return event


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def answer(
    status: int,
    body: bytes = b"",
    *,
    content_type: str = "application/json",
    headers: tuple[tuple[str, str], ...] = (),
) -> bytes:
    """The bytes of one response, closing the connection (one request per connection)."""
    lines = [
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}",
        f"Content-Length: {len(body)}",
        "Connection: close",
        "Cache-Control: no-store",
        "X-Content-Type-Options: nosniff",
        *([f"Content-Type: {content_type}"] if body else []),
        *(f"{name}: {value}" for name, value in headers),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def refusal(refused: Refused) -> bytes:
    return answer(refused.status, f"hookd: {refused.message}\n".encode(),
                  content_type="text/plain; charset=utf-8", headers=refused.headers)  # fmt: skip
