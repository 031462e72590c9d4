"""Subagent frontmatter read as Claude Code 2.1.328 reads it: its block pattern and Bun's
YAML 1.2 parser (``Bun.YAML.parse``, Bun 1.4.4 as the agent embeds it; each value below
was checked against it). The real agent pins a case where YAML 1.1 and 1.2 differ in
tests/agents/claude ``subagent-frontmatter-yaml-1-2``."""

from __future__ import annotations

import math
from typing import Any

import pytest
import yaml

from hookd.daemon.dialects.claude import frontmatter

BUN = [
    ("0o10", 8), ("010", 10), ("08", 8), ("0x1F", 31), ("-0o7", -7), ("+0x1", 1),
    ("0X1F", "0X1F"), ("0O17", "0O17"), ("0b11", "0b11"), ("1_000", "1_000"),
    ("1:30", "1:30"), ("on", "on"), ("off", "off"), ("yes", "yes"), ("no", "no"), ("y", "y"),
    ("TRUE", True), ("True", True), ("tRUE", "tRUE"), ("false", False), ("~", None),
    ("Null", None), ("", None), ("1e3", 1000.0), ("1.", 1.0), (".5", 0.5), ("12e", "12e"),
    ("0.5e+2", 50.0), ("2001-12-14", "2001-12-14"), ("'010'", "010"), ("0o10 # c", 8),
    ("<<", "<<"), ("=", "="),
]  # fmt: skip


@pytest.mark.parametrize(("written", "value"), BUN, ids=[w or "empty" for w, _ in BUN])
def test_scalars_resolve_as_bun_resolves_them(written: str, value: Any) -> None:
    parsed = frontmatter.load(f"k: {written}\n")["k"]
    assert parsed == value
    assert type(parsed) is type(value)


def test_infinity_and_nan() -> None:
    parsed = frontmatter.load("a: .inf\nb: -.INF\nc: .NaN\n")
    assert (parsed["a"], parsed["b"]) == (math.inf, -math.inf)
    assert math.isnan(parsed["c"])


def test_a_value_yaml_cannot_take_is_quoted_on_the_second_try() -> None:
    """The agent parses again with such values quoted and leading tabs made spaces."""
    assert frontmatter.load("name: x\ndescription: a: b #c\n") == {
        "name": "x", "description": "a: b #c"}  # fmt: skip
    assert frontmatter.load("name: x\nhooks:\n\tStop: []\n") == {"name": "x", "hooks": {"Stop": []}}
    with pytest.raises(yaml.YAMLError):
        frontmatter.load("name: x\n  bad: 1\n")


@pytest.mark.parametrize(
    ("text", "block"),
    [
        ("---\nname: a\n---\nbody", "name: a\n"),
        ("\ufeff---\nname: a\n---\n", "name: a\n"),
        ("---  \n\nname: a\n---", "name: a\n"),
        ("---\nname: a---b\n---\n", "name: a"),  # the first "---" anywhere ends it
        ("name: a\n---\n", None),
        ("---\nname: a\n", None),
    ],
)
def test_the_block_is_found_as_the_agent_finds_it(text: str, block: str | None) -> None:
    assert frontmatter.block(text) == block
