"""Ids: only valid JSON is ever echoed; the id of an oversized message from its head."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookd.protocol import (
    dumps,
    echoable_id,
    id_from_head,
    invalid_request_reason,
    loads_message,
    success,
)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf"), True, [1], {}])
def test_ids_that_cannot_be_echoed_make_the_request_invalid(value: object) -> None:
    message = {"jsonrpc": "2.0", "id": value, "method": "status"}

    assert invalid_request_reason(message) is not None
    assert echoable_id(message) is None


@pytest.mark.parametrize("value", [0, -3, 2.5, "", "x", None])
def test_valid_ids_are_kept(value: object) -> None:
    message = {"jsonrpc": "2.0", "id": value, "method": "status"}

    assert invalid_request_reason(message) is None
    assert echoable_id(message) == value


def test_dumps_writes_non_finite_numbers_as_null() -> None:
    text = dumps({"a": [float("nan"), 1.5, {"b": float("-inf")}], "c": (float("inf"),)})

    assert json.loads(text) == {"a": [None, 1.5, {"b": None}], "c": [None]}


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (b'{"jsonrpc":"2.0","id":12,"method":"fire","params":{"x":"aaa', (True, 12)),
        (b' { "id" : null , "method"', (True, None)),
        (b'{"jsonrpc":"2.0","params":{"id":3,"x":[1,{"a":"}"}]},"id":"a\\"b",', (True, 'a"b')),
        (b'{"id":NaN,', (True, None)),
        (b'{"id":1e999,', (True, None)),
        (b'{"id":true,', (True, None)),
        (b'{"id":12', (False, None)),  # the number may go on
        (b'{"id":"ab', (False, None)),
        (b'[{"id":1}]', (False, None)),
        (b'{"params":{"x":"aaaa', (False, None)),
        (b"\xff\xfe garbage", (False, None)),
    ],
)
def test_id_from_head(head: bytes, expected: tuple[bool, object]) -> None:
    assert id_from_head(head) == expected


@settings(deadline=None)
@given(st.binary(max_size=300))
def test_id_from_head_never_raises(junk: bytes) -> None:
    found, value = id_from_head(junk)

    assert found or value is None


@settings(deadline=None)
@given(
    st.dictionaries(st.text(max_size=5), st.recursive(st.none() | st.integers() | st.text(),
                    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=8)),
    st.one_of(st.integers(), st.text()),
    st.integers(min_value=0, max_value=400),
)  # fmt: skip
def test_id_from_head_agrees_with_a_full_parse(
    before: dict[str, object], request_id: object, cut: int
) -> None:
    """Whatever members come before it and wherever the head is cut, a found id is the
    message's own id."""
    before.pop("id", None)
    message = {**before, "id": request_id, "method": "m"}
    found, value = id_from_head(json.dumps(message).encode()[: cut + 20])

    assert not found or value == request_id


@settings(deadline=None)
@given(
    st.from_regex(r"-?(0|[1-9][0-9]{0,25})(\.[0-9]{1,12})?([eE][+-]?[0-9]{1,3})?", fullmatch=True)
)
def test_a_numeric_id_is_answered_exactly_as_written(text: str) -> None:
    """Issue 31: ``1e2`` is answered ``1e2``, not ``100.0``; any JSON number that makes a
    valid id comes back as its own text (one too large for a float is invalid)."""
    message = loads_message(b'{"jsonrpc":"2.0","id":%s,"method":"status"}' % text.encode())

    if invalid_request_reason(message) is not None:
        assert echoable_id(message) is None  # 1e999: not finite
        return
    reply = dumps(success(echoable_id(message), None))
    assert reply.startswith(b'{"id":%s,' % text.encode()) or (
        reply.startswith(b'{"jsonrpc":"2.0","id":%s,' % text.encode()) and "." not in text
    ), reply
    assert json.loads(reply)["id"] == json.loads(text)


def test_plain_ids_take_the_fast_path() -> None:
    """Integers (but ``-0``) and strings are written back by ``json`` as sent: no copy."""
    for body in (b'{"id":12,"method":"m"}', b'{"id":"a","method":"m"}', b'{"id":0}'):
        assert dumps(success(loads_message(body)["id"], 1)).startswith(b'{"jsonrpc":"2.0","id":')
    assert dumps(success(loads_message(b'{"id":-0}')["id"], 1)).startswith(b'{"id":-0,')
