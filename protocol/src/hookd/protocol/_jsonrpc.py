"""Builders and a light validator for JSON-RPC 2.0 envelopes (no I/O)."""

from __future__ import annotations

import json
import math
from typing import Any

from ._types import JsonValue

RequestId = int | str


class SourceNumber(float):
    """A numeric id as the client wrote it: ``1e2``, ``1.0``, ``-0``. Python reads each
    as a number that it writes back otherwise (``100.0``, ``1.0``, ``0``); a client that
    matches answers to requests by their text would never see its answer. So an id that
    is not a plain integer keeps its source text, and ``dumps`` writes an envelope's
    ``id`` with it. Its value is the float the text means (``1e999``: not finite, so
    such an id is still invalid)."""

    __slots__ = ("text",)
    text: str

    def __new__(cls, text: str) -> SourceNumber:
        number = super().__new__(cls, text)
        number.text = text
        return number


def _source_int(text: str) -> int | SourceNumber:
    return SourceNumber(text) if text == "-0" else int(text)


_SOURCE_NUMBERS = json.JSONDecoder(parse_float=SourceNumber, parse_int=_source_int)
"""Reads numbers keeping the source text of those it would write back otherwise."""


def loads_message(body: bytes | str) -> Any:
    """Parse one JSON-RPC message (an object or a batch), keeping the source text of each
    ``id`` (and a ``$/cancelRequest``'s ``params.id``) that is a number other than a plain
    integer (``SourceNumber``). Raises what ``json.loads`` raises."""
    message = json.loads(body)
    items = message if isinstance(message, list) else [message]
    if any(_odd_ids(item) for item in items):
        text = body.decode("utf-8", errors="surrogateescape") if isinstance(body, bytes) else body
        exact = _SOURCE_NUMBERS.decode(text)
        for item, source in zip(items, exact if isinstance(exact, list) else [exact], strict=True):
            if _odd_ids(item):
                if "id" in item:
                    item["id"] = source["id"]
                if _cancel_id(item) is not None:
                    item["params"]["id"] = source["params"]["id"]
    return message


def _odd_ids(item: object) -> bool:
    """Whether ``item`` has an id Python may write back otherwise than it was sent: any
    float, or 0 (``-0``)."""
    if not isinstance(item, dict):
        return False
    return any(
        (type(value) is float or (type(value) is int and value == 0))
        for value in (item.get("id"), _cancel_id(item))
    )


def _cancel_id(item: dict[str, Any]) -> Any:
    params = item.get("params")
    if item.get("method") == "$/cancelRequest" and isinstance(params, dict):
        return params.get("id")
    return None


def dumps(message: Any) -> bytes:
    """Serialize compactly (one line, so it is valid NDJSON too).

    ASCII-only output: a lone surrogate (which JSON allows, e.g. from an undecodable file
    name) is escaped instead of making the UTF-8 encoding fail.

    A non-finite number (Python's ``json`` reads ``NaN`` and ``1e999`` from a client or a
    hook) is written as ``null``: ``NaN``/``Infinity`` are not JSON, and a strict peer
    (``JSON.parse``) would fail on the whole message.
    """
    if type(message) is dict and type(message.get("id")) is SourceNumber:
        return _with_source_id(message)
    if type(message) is list and any(
        type(item) is dict and type(item.get("id")) is SourceNumber for item in message
    ):
        return b"[" + b",".join(dumps(item) for item in message) + b"]"
    try:
        text = _COMPACT.encode(message)
    except ValueError:
        text = _COMPACT.encode(_finite(message))
    return text.encode("ascii")


def _with_source_id(message: dict[str, Any]) -> bytes:
    """``message`` with its ``id`` written as the client wrote it (first member)."""
    rest = dumps({key: value for key, value in message.items() if key != "id"})
    source: bytes = message["id"].text.encode("ascii")
    return b'{"id":' + source + (b"," + rest[1:] if rest != b"{}" else b"}")


_COMPACT = json.JSONEncoder(separators=(",", ":"), allow_nan=False)
"""Made once: ``json.dumps`` with options builds an encoder on every call."""


def _finite(value: Any) -> Any:
    """``value`` with every non-finite float replaced by None (the rare, slow path)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value


def request(method: str, params: dict[str, Any] | None, request_id: RequestId) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def notification(method: str, params: dict[str, Any] | None) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


def success(request_id: RequestId | float | None, result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def error(
    request_id: RequestId | float | None, code: int, message: str, data: JsonValue = None
) -> dict[str, Any]:
    err: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": err}


def invalid_request_reason(message: object) -> str | None:
    """Why ``message`` is not a valid JSON-RPC 2.0 request or notification, or None.

    A hand-written equivalent of the spec's schema: ~100x cheaper than jsonschema.
    """
    if not isinstance(message, dict):
        return "a request must be a JSON object"
    if message.get("jsonrpc") != "2.0":
        return 'the "jsonrpc" member must be exactly "2.0"'
    method = message.get("method")
    if not isinstance(method, str):
        return 'the "method" member must be a string'
    if "params" in message and not isinstance(message["params"], dict | list):
        return '"params" must be an object or an array'
    if "id" in message and message["id"] is not None and not is_valid_id(message["id"]):
        return '"id" must be a string, a finite number or null'
    extra = set(message) - {"jsonrpc", "method", "params", "id"}
    if extra:
        return f"unknown top-level member(s): {', '.join(sorted(extra))}"
    return None


def is_valid_id(value: object) -> bool:
    """A JSON-RPC id that can be echoed as JSON: a string or a finite number.

    Python's ``json`` reads ``NaN`` and ``1e999`` (as ``nan``/``inf``), which would be
    written back as the non-JSON ``NaN``/``Infinity``: such ids are invalid requests.
    """
    if isinstance(value, bool):
        return False
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, int | str)


def echoable_id(message: object) -> RequestId | float | None:
    """The id to answer ``message`` with: its own when valid JSON, else null (as the
    spec says for a request whose id cannot be determined)."""
    if isinstance(message, dict):
        rid = message.get("id")
        if is_valid_id(rid):
            return rid
    return None


HEAD_SCAN_BYTES = 16 * 1024
"""How much of an oversized message is kept to find its id."""


def id_from_head(head: bytes) -> tuple[bool, RequestId | float | None]:
    """Find the top-level ``"id"`` in the first bytes of a JSON object (a message too
    large to read whole), so its error answer can name the request it refuses.

    Returns ``(found, id)``: found only when the object's members before ``"id"`` fit
    in ``head`` (clients put ``jsonrpc``, ``id`` and ``method`` first in practice).
    """
    text = head[:HEAD_SCAN_BYTES].decode("utf-8", errors="replace")
    decoder = _SOURCE_NUMBERS
    pos = _skip_space(text, 0)
    if text[pos : pos + 1] != "{":
        return False, None
    pos += 1
    try:
        while True:
            pos = _skip_space(text, pos)
            if text[pos : pos + 1] != '"':
                return False, None
            key, pos = json.decoder.scanstring(text, pos + 1)  # type: ignore[attr-defined]
            pos = _skip_space(text, pos)
            if text[pos : pos + 1] != ":":
                return False, None
            pos = _skip_space(text, pos + 1)
            if key == "id":
                value, end = decoder.raw_decode(text, pos)
                if end >= len(text) and not isinstance(value, str):
                    return False, None  # a number cut by the end of the head
                return (True, value) if value is None or is_valid_id(value) else (True, None)
            pos = _skip_value(text, pos)
            pos = _skip_space(text, pos)
            if text[pos : pos + 1] != ",":
                return False, None
            pos += 1
    except (ValueError, IndexError):
        return False, None


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def _skip_value(text: str, pos: int) -> int:
    """The position after the JSON value starting at ``pos`` (ValueError if cut)."""
    depth = 0
    while pos < len(text):
        char = text[pos]
        if char == '"':
            _string, pos = json.decoder.scanstring(text, pos + 1)  # type: ignore[attr-defined]
            if depth == 0:
                return pos
            continue
        if char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
            if depth == 0:
                return pos + 1
            if depth < 0:
                raise ValueError("unbalanced")
        elif depth == 0 and char in ",":
            return pos
        pos += 1
    raise ValueError("the value runs past the head")
