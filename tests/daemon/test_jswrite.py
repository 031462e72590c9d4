"""A hook's stdin written as the agent's JavaScript runtime writes it (``jswrite``).

The oracle is Node itself: one ``node`` process per module reads JSON texts line by line
and answers ``JSON.stringify(JSON.parse(text), null, indent)`` as UTF-8 (base64), and
hookd's writer must give the same bytes for ``json.loads(text)``. Without Node those
tests skip; the literal cases and the fast-path-against-the-walk property still run.
"""

from __future__ import annotations

import base64
import enum
import json
import random
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookd.daemon import jswrite
from hookd.daemon.dialects.augment import dialect as augment
from hookd.daemon.dialects.claude import dialect as claude
from hookd.daemon.dialects.claude import handlers as claude_handlers
from hookd.daemon.dialects.cline import dialect as cline
from hookd.daemon.dialects.cline_sdk import dialect as cline_sdk
from hookd.daemon.jstext import to_json_bytes
from hookd.daemon.jswrite import JAVASCRIPT, js_json_bytes, js_number, js_stringify
from hookd.daemon.model import Dialect, FireRequest, HookSpec, Launch
from hookd_testing import claude_settings, command, write_json

NODE_SCRIPT = r"""
const lines = require("readline").createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const [indent, text] = JSON.parse(line);
  let answer;
  try {
    answer = Buffer.from(JSON.stringify(JSON.parse(text), null, indent), "utf8").toString("base64");
  } catch (error) {
    answer = "!" + error.message;
  }
  process.stdout.write(answer + "\n");
});
"""


class Node:
    """One ``node`` process answering ``JSON.stringify(JSON.parse(text), null, indent)``."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            ["node", "-e", NODE_SCRIPT], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )

    def stringify(self, text: str, indent: int | None = None) -> bytes:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write(json.dumps([indent, text]).encode() + b"\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline().decode().strip()
        assert not answer.startswith("!"), (text, answer)  # Node refused the text
        return base64.b64decode(answer)

    def close(self) -> None:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.close()
        self.process.wait(timeout=10)
        self.process.stdout.close()


@pytest.fixture(scope="module")
def node() -> Iterator[Node]:
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the oracle is Node's JSON.stringify (CI has it)")
    running = Node()
    yield running
    running.close()


# -- JSON texts as an agent may hand them over -------------------------------------------

SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "/": "\\/", "\b": "\\b", "\f": "\\f",
                 "\n": "\\n", "\r": "\\r", "\t": "\\t"}  # fmt: skip


def u_escape(char: str, upper: bool) -> str:
    code = ord(char)
    if code > 0xFFFF:  # a surrogate pair, as JSON writes a character outside the BMP
        code -= 0x10000
        return u_escape(chr(0xD800 + (code >> 10)), upper) + u_escape(
            chr(0xDC00 + (code & 0x3FF)), upper
        )
    hex_digits = f"{code:04x}"
    return "\\u" + (hex_digits.upper() if upper else hex_digits)


def render_char(char: str, how: int, upper: bool) -> str:
    """``char`` in a JSON string: raw (how 0, where JSON allows it), ``\\uXXXX`` (1) or
    its short escape (2, where there is one). A surrogate is always an escape."""
    if how == 2 and char in SHORT_ESCAPES:
        return SHORT_ESCAPES[char]
    if char in '"\\':
        return SHORT_ESCAPES[char] if how == 0 else u_escape(char, upper)
    if how == 0 and ord(char) >= 0x20 and not 0xD800 <= ord(char) <= 0xDFFF:
        return char
    return u_escape(char, upper)


def render(text: str, seed: int) -> str:
    """``text`` as a JSON string, each character spelled at random (``"\\u0031"`` is
    ``"1"``; a pair of surrogate escapes is one character outside the BMP)."""
    rng = random.Random(seed)  # not st.randoms(): a draw of it costs a millisecond
    pieces = (render_char(c, rng.choice((0, 0, 1, 2)), rng.random() < 0.5) for c in text)
    return '"' + "".join(pieces) + '"'


SPECIAL_CHARS = ['"', "\\", "/", "\b", "\f", "\n", "\r", "\t", "\x00", "\x1f", "\x7f",
                 "\x80", "\u2028", "\u2029", "\ufeff", "\uffff", "é", "✓", "\U0001f600",
                 "\U0010ffff", "\ud800", "\udbff", "\udc00", "\udfff"]  # fmt: skip
chars = st.one_of(
    st.characters(),
    st.integers(0xD800, 0xDFFF).map(chr),  # lone surrogates (or pairs, when they meet)
    st.sampled_from(SPECIAL_CHARS),
)
seeds = st.integers(0, 2**32)
strings = st.builds(render, st.text(chars, max_size=12), seeds)


INDEX_LIKE = ["0", "1", "2", "7", "10", "42", "100", "4294967294", "4294967295",
              "4294967296", "9007199254740993", "01", "00", "-1", "-0", "1.0", "1e3", " 1",
              "1 ", "+1", "\u0663", "", "a", "b", "__proto__", "length"]  # fmt: skip
keys = st.one_of(
    strings,
    st.builds(render, st.sampled_from(INDEX_LIKE), seeds),
    st.integers(0, 2**33).map(lambda n: f'"{n}"'),
)

BIG_EDGES = [2**53, 2**63, 2**64, 10**21, 2**1024 - 2**970, 2**1024 - 2**971, 2**1024,
             10**308, 17976931348623157 * 10**292]  # fmt: skip
integers = st.one_of(
    st.integers(),
    st.integers(-(10**420), 10**420),
    st.builds(lambda edge, delta, minus: -(edge + delta) if minus else edge + delta,
              st.sampled_from(BIG_EDGES), st.integers(-3, 3), st.booleans()),
).map(str)  # fmt: skip


def decimal_text(minus: bool, whole: str, fraction: str, exponent: str) -> str:
    return ("-" if minus else "") + whole + (f".{fraction}" if fraction else "") + exponent


decimals = st.builds(
    decimal_text,
    st.booleans(),
    st.one_of(st.just("0"), st.integers(1, 10**30).map(str)),
    st.text("0123456789", max_size=25),
    st.one_of(
        st.just(""),
        st.builds(lambda e, sign, zeros, n: f"{e}{sign}{'0' * zeros}{n}",
                  st.sampled_from("eE"), st.sampled_from(["", "+", "-"]),
                  st.integers(0, 2), st.integers(0, 450)),
    ),
)  # fmt: skip
numbers = st.one_of(
    integers,
    decimals,
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.sampled_from(["0.000025", "1e21", "1e-7", "-0", "-0.0", "5.0", "0.1", "1e-6",
                     "123e-20", "1.5e300", "1e400", "-1e400", "1e-400", "2.5E+10",
                     "12345678901234567891", "0.1000000000000000055511151231257827",
                     "9007199254740993", "4.35", "1e16", "1e15", "123456789012345680000"]),
)  # fmt: skip
scalars = st.one_of(st.sampled_from(["true", "false", "null"]), numbers, strings)


def containers(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    arrays = st.lists(children, max_size=6).map(lambda items: "[" + ",".join(items) + "]")
    members = st.lists(st.tuples(keys, children), max_size=7)
    objects = members.map(lambda pairs: "{" + ",".join(f"{k}:{v}" for k, v in pairs) + "}")
    return st.one_of(arrays, objects)


json_texts = st.recursive(scalars, containers, max_leaves=20)
"""JSON text (duplicate keys included), as a JavaScript agent may have received it."""


# -- the writer against Node's --------------------------------------------------------


@settings(max_examples=1000, deadline=None)  # no timing in tests: the machine is shared
@given(text=json_texts, indent=st.sampled_from([None, None, 2, 0, 4]))
def test_the_writer_is_json_stringify(node: Node, text: str, indent: int | None) -> None:
    """``JSON.stringify(JSON.parse(text), null, indent)`` byte for byte: numbers, key order,
    duplicate keys, string escapes, lone surrogates, nesting and spacing."""
    assert js_json_bytes(json.loads(text), indent) == node.stringify(text, indent)


@settings(max_examples=300, deadline=None)
@given(text=json_texts)
def test_the_fast_path_writes_what_the_walk_writes(text: str) -> None:
    """Python's C encoder is used only where its text is ``JSON.stringify``'s: on every
    value (with or without floats, big integers, keys of digits) the result is the walk's."""
    value = json.loads(text)
    assert js_json_bytes(value) == jswrite._utf8(jswrite.write(value, JAVASCRIPT))


LITERAL_CASES = [
    ("0.000025", "0.000025"),
    ("2.5e-5", "0.000025"),
    ("1e21", "1e+21"),
    ("1e20", "100000000000000000000"),
    ("123456789012345680000", "123456789012345680000"),
    ("1e-7", "1e-7"),
    ("1e-6", "0.000001"),
    ("1.5e-10", "1.5e-10"),
    ("-0", "0"),
    ("-0.0", "0"),
    ("5.0", "5"),
    ("1E2", "100"),
    ("1.5e300", "1.5e+300"),
    ("12345678901234567891", "12345678901234567000"),
    ("-12345678901234567891", "-12345678901234567000"),
    ("9007199254740993", "9007199254740992"),
    ("1e400", "null"),
    ("1" + "0" * 400, "null"),
    ("[1e400,-1e400]", "[null,null]"),
    ('{"b":1,"2":2,"1":3}', '{"1":3,"2":2,"b":1}'),
    ('{"b":1,"4294967295":2,"4294967294":3,"01":4,"-1":5}',
     '{"4294967294":3,"b":1,"4294967295":2,"01":4,"-1":5}'),
    ('{"a":1,"b":2,"a":3}', '{"a":3,"b":2}'),
    ('{"\\u0031":1,"a":2}', '{"1":1,"a":2}'),
    ('"\\ud800 \\udc00\\ud800 \\ud83d\\ude00"', '"\\ud800 \\udc00\\ud800 \U0001f600"'),
    ('"\\u0000\\u001f\\u007f\\u2028\\u2029\\u00e9\\/"', '"\\u0000\\u001f\x7f\u2028\u2029é/"'),
    ('"\\b\\f\\n\\r\\t\\"\\\\"', '"\\b\\f\\n\\r\\t\\"\\\\"'),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), LITERAL_CASES,
                         ids=[text[:24] for text, _ in LITERAL_CASES])  # fmt: skip
def test_rules_one_by_one(text: str, expected: str) -> None:
    assert js_json_bytes(json.loads(text)) == expected.encode("utf-8")


def test_the_literal_cases_are_what_node_writes(node: Node) -> None:
    assert [node.stringify(text) for text, _ in LITERAL_CASES] == [
        expected.encode() for _, expected in LITERAL_CASES
    ]


def test_indented_spacing_and_empty_containers(node: Node) -> None:
    text = '{"a":[],"b":{},"c":[1,{"d":[],"2":0.5}],"e":"x"}'
    written = js_json_bytes(json.loads(text), indent=2)
    assert written == node.stringify(text, 2)
    assert written.startswith(
        b'{\n  "a": [],\n  "b": {},\n  "c": [\n    1,\n    {\n      "2": 0.5,'
    )


def test_numbers_are_number_to_string() -> None:
    assert [js_number(n) for n in (0.1 + 0.2, 1e16, 1e-5, -1e-7, 2**53 + 1, float("nan"))] == [
        "0.30000000000000004", "10000000000000000", "0.00001", "-1e-7", "9007199254740992",
        "null",
    ]  # fmt: skip


class Colour(enum.StrEnum):
    RED = "red"


class Size(enum.IntEnum):
    BIG = 3


def test_python_values_json_dumps_takes_are_written_too() -> None:
    """What a dialect builds itself: tuples are arrays, enums their values, a non-string
    key ``String(key)`` (so 7 is an array index); other objects are refused as json.dumps
    refuses them."""
    value = {"t": (1, Colour.RED), "n": Size.BIG, 7: None, 1.5: True, True: 0, None: 0.25}
    assert js_json_bytes(value) == b'{"7":null,"t":[1,"red"],"n":3,"1.5":true,"true":0,"null":0.25}'
    with pytest.raises(TypeError, match="not JSON serializable"):
        js_json_bytes({"x": object()})
    with pytest.raises(TypeError, match="keys must be"):
        js_json_bytes({(1, 2): 0})


def test_js_stringify_is_the_text_and_to_json_bytes_is_the_writer() -> None:
    assert js_stringify({"x": "a\ud800", "y": 1e-7}) == '{"x":"a\\ud800","y":1e-7}'
    assert to_json_bytes is js_json_bytes


# -- each dialect's stdin ----------------------------------------------------------------

TRICKY = '{"tool_input":{"b":"bee","2":"two","1":"one"},"cost":0.000025,"big":12345678901234567891}'
"""A payload with a float Python writes ``2.5e-05``, an integer past 2**53 and keys of
digits, as JSON text (what the agent's ``JSON.parse`` read)."""


def _spec(dialect: Dialect, source: str, root: str, command: str = "cat") -> HookSpec:
    return HookSpec(dialect, "PreToolUse", source, "workspace", command, None, 60.0, root=root)


def _prepared(dialect: Dialect, tmp_path: Path) -> tuple[bytes, int | None, bytes]:
    """The stdin the dialect prepares for TRICKY, the agent's indent and its framing."""
    payload = json.loads(TRICKY)
    root = str(tmp_path)
    env = {"PATH": "/usr/bin:/bin"}
    if dialect is Dialect.CLAUDE:
        request = FireRequest(dialect, "PreToolUse", (root,), {**payload, "tool_name": "Bash"})
        launch = claude.prepare(_spec(dialect, "s.json", root), request, env)
        assert isinstance(launch, Launch)
        return launch.stdin, None, b"\n"  # Claude Code 2.1.328: JSON.stringify + "\n"
    if dialect is Dialect.CLINE:
        request = FireRequest(dialect, "PreToolUse", (root,), {"preToolUse": payload})
        launch = cline.prepare(_spec(dialect, "PreToolUse", root), request, env)
        return launch.stdin, None, b""
    if dialect is Dialect.CLINE_SDK:
        hook = tmp_path / "PreToolUse.sh"
        hook.write_text("#!/bin/sh\ncat\n")
        call = {"id": "c1", "name": "run_commands", "input": payload}
        request = FireRequest(dialect, "PreToolUse", (root,), {"tool_call": call})
        launch = cline_sdk.prepare(_spec(dialect, str(hook), root), request, env)
        return launch.stdin, None, b""
    request = FireRequest(dialect, "PreToolUse", (root,), {**payload, "tool_name": "view"})
    launch = augment.prepare(_spec(dialect, "settings.json", root), request, env)
    return launch.stdin, 2, b""  # auggie 0.36.0: JSON.stringify(event, null, 2)


@pytest.mark.parametrize("dialect", [Dialect.CLAUDE, Dialect.CLINE, Dialect.CLINE_SDK,
                                     Dialect.AUGMENT])  # fmt: skip
def test_each_dialects_stdin_is_what_its_agent_writes(
    dialect: Dialect, tmp_path: Path, node: Node
) -> None:
    """The float as ``0.000025``, the integer as the double ``JSON.parse`` made of it, the
    keys of digits first; and the whole stdin is what the agent's runtime writes for the
    value it holds (Node gives it back unchanged), with the agent's own spacing and final
    newline."""
    stdin, indent, end = _prepared(dialect, tmp_path)
    assert stdin.endswith(b"}" + end)
    body = stdin[: len(stdin) - len(end)].decode()
    assert node.stringify(body, indent) == body.encode()
    colon = ": " if indent else ":"
    assert f'"cost"{colon}0.000025'.encode() in stdin
    assert f'"big"{colon}12345678901234567000'.encode() in stdin
    inner = "" if indent is None else "\n" + " " * 4
    assert (f'{{{inner}"1"{colon}"one",{inner}"2"{colon}"two",{inner}"b"{colon}"bee"'
            .encode() in stdin)  # fmt: skip


def test_the_sdks_legacy_parameters_are_json_stringify_text() -> None:
    """``mapParams``: a parameter that is not a string is ``JSON.stringify(value)``."""
    params = cline_sdk.map_params({"input": {"n": 0.000025, "s": "x\ud800", "o": {"2": 1, "1": 2}}})
    assert params == {"n": "0.000025", "s": "x\ud800", "o": '{"1":2,"2":1}'}


def test_claudes_http_body_and_prompt_arguments_are_json_stringify() -> None:
    spec = HookSpec(Dialect.CLAUDE, "PreToolUse", "s.json", "user", "", None, 60.0,
                    options={"handler": {"type": "http", "url": "http://127.0.0.1:9/"}})  # fmt: skip
    http = claude_handlers.prepare_http(spec, json.loads(TRICKY), {})
    assert http.body == js_json_bytes(json.loads(TRICKY))
    assert b'"cost":0.000025' in http.body
    rendered = claude_handlers.render_prompt("Check $ARGUMENTS", js_stringify({"x": 1e-7}))
    assert rendered == 'Check {"x":1e-7}'


# -- through a real daemon -------------------------------------------------------------


async def test_a_hook_fired_through_the_daemon_reads_the_js_bytes(
    rpc: Any, workspace: Path
) -> None:
    """A hook that saves its stdin gets the bytes Claude Code would have given it."""
    out = workspace / "stdin.json"
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("PreToolUse", command(f"cat > {out}")))  # fmt: skip
    payload = json.loads(TRICKY)

    await rpc.fire("claude", "PreToolUse", [str(workspace)], {"tool_name": "Bash", **payload})

    assert out.read_bytes() == (
        b'{"tool_name":"Bash","tool_input":{"1":"one","2":"two","b":"bee"},"cost":0.000025,'
        b'"big":12345678901234567000,"hook_event_name":"PreToolUse","cwd":'
        + json.dumps(str(workspace)).encode()
        + b"}\n"
    )
