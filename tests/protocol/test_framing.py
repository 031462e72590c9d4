"""Framing: NDJSON and LSP, sniffed, incremental, capped; junk never crashes."""

from __future__ import annotations

import contextlib
import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookd.protocol import Framing, FramingError, MessageDecoder, encode

messages = st.lists(
    st.dictionaries(
        st.text(max_size=8), st.one_of(st.integers(), st.text(max_size=30)), max_size=4
    ),
    min_size=1,
    max_size=6,
)


def split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    edges = [0, *points, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(edges)]


@pytest.mark.parametrize("framing", list(Framing))
@settings(deadline=None)  # no timing in tests: this machine is shared and noisy
@given(bodies=messages, cuts=st.lists(st.integers(min_value=0), max_size=20))
def test_round_trip_under_arbitrary_chunking(
    framing: Framing, bodies: list[dict], cuts: list[int]
) -> None:
    """Whatever the read boundaries, the decoder yields exactly the messages sent."""
    wire = b"".join(encode(json.dumps(b, separators=(",", ":")).encode(), framing) for b in bodies)
    decoder = MessageDecoder()

    received = [json.loads(body) for chunk in split(wire, cuts) for body in decoder.feed(chunk)]

    assert received == bodies
    assert decoder.framing is framing


@settings(deadline=None)  # no timing in tests: this machine is shared and noisy
@given(st.binary(max_size=400))
def test_junk_never_raises_anything_but_framing_error(junk: bytes) -> None:
    """Arbitrary bytes produce bodies or a FramingError, never another exception."""
    decoder = MessageDecoder(max_message_bytes=100)
    with contextlib.suppress(FramingError):
        list(decoder.feed(junk))


def test_blank_lines_and_leading_whitespace_are_skipped() -> None:
    """Empty NDJSON lines are ignored; whitespace before the first message too."""
    decoder = MessageDecoder()

    assert list(decoder.feed(b'\n \n{"a":1}\n\n{"b":2}\n')) == [b'{"a":1}', b'{"b":2}']


def test_oversized_line_is_skipped_and_the_next_one_decoded() -> None:
    """A too-long NDJSON line raises once (recoverable), then decoding goes on."""
    decoder = MessageDecoder(max_message_bytes=10)
    with pytest.raises(FramingError) as info:
        list(decoder.feed(b'{"x":"' + b"a" * 50))

    assert info.value.recoverable
    assert list(decoder.feed(b'aaa"}\n{"ok":1}\n')) == [b'{"ok":1}']


def test_lsp_header_without_content_length_is_fatal() -> None:
    """An LSP header block lacking Content-Length cannot be resynchronised."""
    decoder = MessageDecoder()
    with pytest.raises(FramingError) as info:
        list(decoder.feed(b"Content-Type: x\r\n\r\n{}"))

    assert not info.value.recoverable


def test_lsp_extra_headers_are_accepted() -> None:
    """Content-Type and case variations of Content-Length are fine (vscode-jsonrpc)."""
    decoder = MessageDecoder()

    body = list(
        decoder.feed(
            b"content-length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}"
        )
    )

    assert body == [b"{}"]


@pytest.mark.parametrize("framing", list(Framing))
def test_an_oversized_message_names_the_id_its_head_gives(framing: Framing) -> None:
    """The id is recovered from the first bytes, so the refusal can be matched."""
    body = b'{"jsonrpc":"2.0","id":"r9","method":"fire","params":{"x":"' + b"a" * 500 + b'"}}'
    decoder = MessageDecoder(max_message_bytes=100)
    errors = []
    for start in range(0, len(body) + 1, 7):  # in small pieces: the head arrives late
        chunk = encode(body, framing)[start : start + 7] if start else encode(body, framing)[:7]
        try:
            list(decoder.feed(chunk))
        except FramingError as exc:
            errors.append(exc)
    wire = encode(body, framing)
    decoder = MessageDecoder(max_message_bytes=100)
    caught: list[FramingError] = []
    for index in range(0, len(wire), 7):
        try:
            list(decoder.feed(wire[index : index + 7]))
        except FramingError as exc:
            caught.append(exc)

    assert [(e.recoverable, e.request_id) for e in caught] == [(True, "r9")]
    assert list(decoder.feed(encode(b'{"ok":1}', framing))) == [b'{"ok":1}']


def test_a_long_line_arriving_in_small_reads_is_not_rescanned() -> None:
    """A 32 MiB line in 64 KiB reads: linear time, not quadratic (this took minutes)."""
    decoder = MessageDecoder()
    chunk = b"x" * 65536
    list(decoder.feed(b'{"a":"'))
    for _ in range(512):
        assert not list(decoder.feed(chunk))
    assert decoder.mid_message
    [body] = decoder.feed(b'"}\n')

    assert len(body) == 512 * 65536 + 8
    assert not decoder.mid_message


def test_messages_behind_a_skipped_one_come_with_an_empty_feed() -> None:
    """After a recoverable error, what was already received is not lost."""
    decoder = MessageDecoder(max_message_bytes=10)
    with pytest.raises(FramingError):
        list(decoder.feed(b'{"x":"' + b"a" * 50 + b'"}\n{"a":1}\n{"b":2}\n'))

    assert list(decoder.feed(b"")) == [b'{"a":1}', b'{"b":2}']
