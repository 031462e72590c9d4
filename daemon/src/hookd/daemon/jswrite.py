"""JSON text written byte for byte as an agent's runtime writes it.

A hook reads the JSON its agent wrote, and hooks grep it, hash it and compare it. Claude
Code, Cline, the Cline SDK and Augment write it with ``JSON.stringify``, which differs
from Python's ``json.dumps`` in four places: numbers (ECMAScript ``Number::toString``:
``0.000025``, ``1e+21``, ``5``; an integer beyond 2**53 is the double ``JSON.parse``
made of it), key order (an object lists its array-index keys first, ascending), lone
surrogates (``\\ud800`` escapes, everything else raw UTF-8) and non-finite numbers
(``null``). ``js_json_bytes`` is that writer; ``jstext.to_json_bytes`` is its name for
the dialects.

Speed: most payloads (no float, no big integer, no key of digits) come out of Python's C
encoder the same as out of ``JSON.stringify``; a look at their values (never into their
strings) tells, and the rest is written by the Python walk ``write``. The walk takes the
runtime's number text and key order as arguments, so another runtime's writer (Codex
CLI's Rust ``serde_json``: other float text, sorted keys) is a second ``Runtime`` beside
``JAVASCRIPT``.

Imports nothing of the daemon: it sits at the bottom with ``jstext``.
"""

from __future__ import annotations

from _json import encode_basestring, make_encoder
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, NoReturn

_MAX_SAFE_INTEGER = 2**53
"""Every integer up to this magnitude is a double, so its decimal digits are its
``Number::toString``."""

_MAX_ARRAY_INDEX = 2**32 - 2
"""The largest array index (ECMAScript §6.1.7): keys from "0" to this, written without
leading zeros, come first in an object, in numeric order (``OrdinaryOwnPropertyKeys``)."""

_INFINITY = float("inf")


def js_number(value: int | float) -> str:
    """``JSON.stringify`` of the number ``JSON.parse`` makes of this number's JSON text:
    ECMAScript ``Number::toString`` (shortest round-trip digits, exponent from 1e21 and
    below 1e-6, ``-0`` as ``0``, ``5.0`` as ``5``) of the nearest double; ``null`` for
    what is not finite there (``1e400``, an integer of 400 digits, and NaN)."""
    if isinstance(value, int):
        if -_MAX_SAFE_INTEGER <= value <= _MAX_SAFE_INTEGER:
            return int.__repr__(value)
        try:
            value = float(value)  # correctly rounded, as JSON.parse rounds the digits
        except OverflowError:  # past the largest double: Infinity in JavaScript
            return "null"
    if value != value or value in (_INFINITY, -_INFINITY):
        return "null"
    if value == 0:
        return "0"  # -0 too
    text = float.__repr__(value)  # Python's shortest round-trip digits, as V8's
    mantissa, e, exponent = text.partition("e")
    if not e:  # 1e-4 <= |value| < 1e16: the same digits in JavaScript, less a ".0"
        return text[:-2] if text.endswith(".0") else text
    sign = "-" if mantissa[0] == "-" else ""
    digits = mantissa.lstrip("-").replace(".", "")
    point = int(exponent) + 1  # value = 0.digits * 10**point
    if len(digits) <= point <= 21:
        return sign + digits + "0" * (point - len(digits))
    if 0 < point <= 21:
        return sign + digits[:point] + "." + digits[point:]
    if -6 < point <= 0:
        return sign + "0." + "0" * -point + digits
    power = f"e{point - 1:+d}"
    return sign + (digits if len(digits) == 1 else digits[0] + "." + digits[1:]) + power


def _is_array_index(key: str) -> bool:
    return (
        key.isdecimal()
        and key.isascii()
        and (key[0] != "0" or key == "0")
        and len(key) <= 10
        and int(key) <= _MAX_ARRAY_INDEX
    )


def js_items(obj: dict[Any, Any]) -> Iterable[tuple[Any, Any]]:
    """An object's members in the order JavaScript lists them: array-index keys ("0",
    "42", up to 2**32-2) ascending, then the others in insertion order. A key that is not
    a string is ``String(key)`` first (a later duplicate keeps the first place, as
    ``JSON.parse`` does and a dict does)."""
    try:
        if not any(map(str.isdecimal, obj)):
            return obj.items()
    except TypeError:  # a key that is not a string
        return js_items({_key_text(key): item for key, item in obj.items()})
    indexes = sorted((key for key in obj if _is_array_index(key)), key=int)
    if not indexes:
        return obj.items()
    first = set(indexes)
    return [(key, obj[key]) for key in indexes] + [
        (key, item) for key, item in obj.items() if key not in first
    ]


def _key_text(key: object) -> str:
    if isinstance(key, str):
        return key
    if key is None or isinstance(key, bool):
        return {None: "null", True: "true", False: "false"}[key]
    if isinstance(key, int | float):
        text = js_number(key)
        if text == "null":  # String(NaN), String(Infinity)
            return "NaN" if key != key else ("-Infinity" if key < 0 else "Infinity")
        return text
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def _not_serializable(value: object) -> NoReturn:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


@dataclass(frozen=True, slots=True)
class Runtime:
    """What a language runtime's JSON writer does its own way: number text and the order
    of an object's members (strings and spacing are the same in the runtimes we model)."""

    number: Callable[[int | float], str]
    items: Callable[[dict[Any, Any]], Iterable[tuple[Any, Any]]]


JAVASCRIPT = Runtime(number=js_number, items=js_items)


def write(value: Any, runtime: Runtime, indent: int | None = None) -> str:
    """``value`` as ``runtime`` writes it (``JSON.stringify(value, null, indent)`` for
    ``JAVASCRIPT``), lone surrogates still raw (see ``_utf8``). Python values as
    ``json.dumps`` takes them: dicts, lists and tuples, strings, numbers, booleans,
    None; anything else raises ``TypeError``."""
    number, items = runtime.number, runtime.items
    step = " " * indent if indent else ""
    colon = ": " if step else ":"
    parts: list[str] = []
    append = parts.append

    def put(value: Any, pad: str) -> None:
        kind = type(value)
        if kind is str:
            append(encode_basestring(value))
        elif kind is dict:
            if not value:
                append("{}")
                return
            inner = pad + step
            comma = "," + inner
            separator = "{" + inner
            for key, item in items(value):
                text = key if type(key) is str else _key_text(key)
                append(separator + encode_basestring(text) + colon)
                separator = comma
                if type(item) is str:  # most values: no call
                    append(encode_basestring(item))
                else:
                    put(item, inner)
            append(pad + "}")
        elif kind is list or kind is tuple:
            if not value:
                append("[]")
                return
            inner = pad + step
            comma = "," + inner
            separator = "[" + inner
            for item in value:
                append(separator)
                separator = comma
                if type(item) is str:
                    append(encode_basestring(item))
                else:
                    put(item, inner)
            append(pad + "]")
        elif value is None:
            append("null")
        elif value is True:
            append("true")
        elif value is False:
            append("false")
        elif kind is int or kind is float:
            append(number(value))
        else:
            put(_plain(value), pad)

    put(value, "\n" if step else "")
    return "".join(parts)


def _plain(value: object) -> object:
    """A subclass (a ``StrEnum``, an ``IntEnum``...) as its base type, as ``json.dumps``
    writes it."""
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list | tuple):
        return list(value)
    _not_serializable(value)


def _utf8(text: str) -> bytes:
    """UTF-8, a lone surrogate as its ``\\udxxx`` escape (well-formed ``JSON.stringify``;
    it can only be inside a string). A pair written as two code points is one character."""
    try:
        return text.encode()
    except UnicodeEncodeError:
        joined = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
        return joined.encode("utf-8", "backslashreplace")


_C_COMPACT = make_encoder(
    None, _not_serializable, encode_basestring, None, ":", ",", False, False, False
)
"""Python's C encoder, made once: compact, raw UTF-8."""


def _c_writes_as_js(value: Any) -> bool:
    """Whether the C encoder's text of ``value`` is ``JSON.stringify``'s: only strings,
    booleans, null, integers up to 2**53 and containers of them, no key of digits (a
    float, a big integer, a key such as "1" or one that is not a string is the walk's).
    It looks at the values, never into the strings: a 1 MB string costs what "" costs."""
    kind = type(value)
    if kind is dict:
        if any(map(str.isdecimal, value)):  # TypeError for a key that is not a string
            return False
        items: Iterable[Any] = value.values()
    elif kind is list:
        items = value
    else:
        return kind is str or kind is bool or value is None or _safe_int(value)
    for item in items:
        kind = type(item)
        if kind is str or kind is bool or item is None:
            continue
        if kind is dict or kind is list:
            if not _c_writes_as_js(item):
                return False
        elif not _safe_int(item):
            return False
    return True


def _safe_int(value: object) -> bool:
    return type(value) is int and -_MAX_SAFE_INTEGER <= value <= _MAX_SAFE_INTEGER


def js_json_bytes(value: Any, indent: int | None = None) -> bytes:
    """``JSON.stringify(value, null, indent)`` as UTF-8 bytes: what a Node (or Bun)
    program writes for the value ``JSON.parse`` made of the JSON text Python's
    ``json.loads`` made ``value`` of."""
    if indent is None:
        try:
            plain = _c_writes_as_js(value)
        except TypeError:  # a key that is not a string
            plain = False
        if plain:
            return _utf8("".join(_C_COMPACT(value, 0)))
    return _utf8(write(value, JAVASCRIPT, indent))


def js_stringify(value: Any, indent: int | None = None) -> str:
    """``JSON.stringify(value, null, indent)`` as a string (lone surrogates escaped)."""
    return js_json_bytes(value, indent).decode()
