"""POST one HTTP hook request: h11 (sans-IO HTTP/1.1) over trio streams.

No thread and no second event loop: the request lives in the hook's own cancel scope, so
its timeout and a fire's cancellation stop it like a process. The response body is
capped like a process's stdout. Every failure is an outcome, never an exception.
"""

from __future__ import annotations

import ssl
import time

import h11
import trio

from ..model import ProcessOutcome
from ..urls import UnusableUrl, split_url

_READ_CHUNK = 65536
USER_AGENT = "hookd"


async def post_json(
    url: str,
    headers: tuple[tuple[str, str], ...],
    body: bytes,
    *,
    timeout_s: float,
    body_cap_bytes: int,
) -> ProcessOutcome:
    """POST ``body`` as ``application/json`` and describe the answer."""
    started = time.perf_counter()

    def elapsed() -> float:
        return round((time.perf_counter() - started) * 1000, 3)

    try:
        scheme, host, port, target = split_url(url)
    except UnusableUrl as exc:
        return ProcessOutcome(None, b"", b"", elapsed(), spawn_error=str(exc))
    status: int | None = None
    received = bytearray()
    truncated = False
    failure: str | None = None
    code: int | None = None
    with trio.move_on_after(timeout_s) as scope:
        try:
            status, received, truncated = await _exchange(
                scheme, host, port, target, headers, body, body_cap_bytes
            )
        except (OSError, trio.BrokenResourceError, h11.ProtocolError, ssl.SSLError) as exc:
            failure = f"request to {url} failed: {_describe(exc)}"
            code = _errno(exc)
        except ValueError as exc:  # e.g. a header value that is not ASCII (UnicodeError)
            failure = f"request to {url} could not be sent: {_describe(exc)}"
    if scope.cancelled_caught:
        return ProcessOutcome(None, b"", b"", elapsed(), timed_out=True)
    if failure is not None:
        return ProcessOutcome(None, b"", b"", elapsed(), spawn_error=failure, spawn_errno=code)
    return ProcessOutcome(
        None, bytes(received), b"", elapsed(), http_status=status, stdout_truncated=truncated
    )


async def _exchange(
    scheme: str,
    host: str,
    port: int,
    target: str,
    headers: tuple[tuple[str, str], ...],
    body: bytes,
    cap: int,
) -> tuple[int, bytearray, bool]:
    stream: trio.abc.Stream = await trio.open_tcp_stream(host, port)
    try:
        if scheme == "https":
            tls = trio.SSLStream(
                stream, ssl.create_default_context(), server_hostname=host, https_compatible=True
            )
            await tls.do_handshake()
            stream = tls
        connection = h11.Connection(h11.CLIENT)
        default_port = 443 if scheme == "https" else 80
        name = f"[{host}]" if ":" in host else host  # an IPv6 literal
        authority = name if port == default_port else f"{name}:{port}"
        request = h11.Request(
            method="POST",
            target=target,
            headers=[
                ("Host", authority),
                ("User-Agent", USER_AGENT),
                ("Content-Type", "application/json"),
                ("Content-Length", str(len(body))),
                ("Connection", "close"),
                *headers,
            ],
        )
        await stream.send_all(
            connection.send(request)
            + connection.send(h11.Data(data=body))
            + connection.send(h11.EndOfMessage())
        )
        return await _read_response(stream, connection, cap)
    finally:
        with trio.CancelScope(shield=True):
            await trio.aclose_forcefully(stream)


async def _read_response(
    stream: trio.abc.Stream, connection: h11.Connection, cap: int
) -> tuple[int, bytearray, bool]:
    status = 0
    received = bytearray()
    truncated = False
    while True:
        event = connection.next_event()
        if event is h11.NEED_DATA:
            connection.receive_data(bytes(await stream.receive_some(_READ_CHUNK)))
        elif isinstance(event, h11.InformationalResponse):
            continue
        elif isinstance(event, h11.Response):
            status = event.status_code
        elif isinstance(event, h11.Data):
            room = cap - len(received)
            if len(event.data) > room:
                truncated = True
            received += event.data[: max(room, 0)]
        else:  # EndOfMessage or ConnectionClosed
            return status, received, truncated


def _errno(exc: BaseException) -> int | None:
    """The errno behind a failed request (a refused connection: ECONNREFUSED), so that a
    dialect can word it as its agent does; trio raises one error for every address it
    tried, caused by a group of each address's error (the last one counts)."""
    found: BaseException | None = exc
    while found is not None:
        if isinstance(found, OSError) and found.errno is not None:
            return found.errno
        found = found.exceptions[-1] if isinstance(found, BaseExceptionGroup) else found.__cause__
    return None


def _describe(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__
