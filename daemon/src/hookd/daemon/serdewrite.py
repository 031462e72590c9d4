"""JSON text written byte for byte as Rust's ``serde_json`` writes it (Codex CLI).

Beside ``jswrite``'s ``JSON.stringify``: strings are escaped alike (``"``, ``\\``, control
characters, nothing else) and members keep their order (``preserve_order``: no index
keys first), but numbers differ. An integer is its digits, however large; a float is
``ryu``'s text of the shortest round-trip digits (Python's ``repr`` digits), laid out its
own way: ``1.0`` (never ``1``), ``0.000025``, ``1e-7``, ``1e16``, ``1.5e300`` (no ``+``).
"""

from __future__ import annotations

import math
from _json import encode_basestring, make_encoder
from collections.abc import Iterable
from typing import Any, NoReturn

from .jswrite import Runtime, write


def serde_number(value: int | float) -> str:
    """A number as ``serde_json`` writes it (``ryu``'s layout for a float)."""
    if isinstance(value, int):
        return int.__repr__(value)
    if value != value or value in (float("inf"), float("-inf")):
        return "null"  # serde_json writes a non-finite float as null
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    if value == 0:
        return sign + "0.0"
    mantissa, _, exponent = float.__repr__(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    written = whole + fraction
    leading = len(written) - len(written.lstrip("0"))
    digits = written.strip("0")
    point = len(whole) - leading + int(exponent or 0)  # value = 0.<digits> * 10**point
    length = len(digits)
    if length <= point <= 16:
        return sign + digits + "0" * (point - length) + ".0"
    if 0 < point <= 16:
        return sign + digits[:point] + "." + digits[point:]
    if -5 < point <= 0:
        return sign + "0." + "0" * -point + digits
    rest = digits if length == 1 else digits[0] + "." + digits[1:]
    return f"{sign}{rest}e{point - 1}"


def _in_order(obj: dict[Any, Any]) -> Iterable[tuple[Any, Any]]:
    return obj.items()


SERDE_JSON = Runtime(number=serde_number, items=_in_order)


def _not_serializable(value: object) -> NoReturn:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


_C_COMPACT = make_encoder(
    None, _not_serializable, encode_basestring, None, ":", ",", False, False, False
)


def _has_float(value: Any) -> bool:
    kind = type(value)
    if kind is float:
        return True
    if kind is dict:
        return any(map(_has_float, value.values()))
    if kind is list or kind is tuple:
        return any(map(_has_float, value))
    return False


def serde_json_bytes(value: Any) -> bytes:
    """``serde_json::to_string(value)`` as UTF-8 bytes (compact, no final newline)."""
    text = write(value, SERDE_JSON) if _has_float(value) else "".join(_C_COMPACT(value, 0))
    try:
        return text.encode()
    except UnicodeEncodeError:  # a lone surrogate (no Rust string has one): escaped
        return text.encode("utf-8", "backslashreplace")
