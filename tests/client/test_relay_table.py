"""The relay's own answers (when it cannot reach hookd) come from a table generated from
the agents' packages (``hookd.daemon.relay_table``): the table is current, and every answer
the relay makes from it is the one the agent's package makes (issue 22)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from hookd import _relay_table
from hookd.daemon.all_dialects import INTEGRATIONS
from hookd.daemon.dialects.integration import exit_code_failing
from hookd.daemon.model import Dialect
from hookd.daemon.relay_table import render, render_c
from hookd.relay import failure_message, unreachable_answer

REPO = Path(__file__).resolve().parents[2]


def test_the_table_is_the_one_the_agents_packages_generate() -> None:
    """``python scripts/regenerate.py`` has been run since an agent's relay facts changed."""
    assert Path(_relay_table.__file__).read_text() == render()


def test_the_native_relays_table_is_the_same_one() -> None:
    """The native relay's header is generated from the same table, with the Python
    relay's words and bounds (``relay.c`` has no text of its own to drift)."""
    assert (REPO / "client/python/native/relay_table.h").read_text() == render_c()


def test_regenerate_check_finds_nothing_stale() -> None:
    """The one command that regenerates what is derived (relay table, OpenRPC agents)."""
    done = subprocess.run([sys.executable, "scripts/regenerate.py", "--check", "--no-typescript"],
                          cwd=REPO, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_every_agent_has_a_row() -> None:
    assert list(_relay_table.AGENTS) == [d.value for d in INTEGRATIONS]


@given(reason=st.text(), block=st.booleans())
def test_each_agents_answer_from_the_table_is_its_own(reason: str, block: bool) -> None:
    """Any reason (quotes, backslashes, braces, ``{message}`` itself, unicode) lands in
    the answer exactly where the agent's ``failing_answer`` puts it."""
    message = failure_message(reason, block)
    for dialect, integration in INTEGRATIONS.items():
        args = [
            dialect.value,
            *(["/p/.clinerules/hooks/PreToolUse"] * integration.RELAY.entry_args),
        ]
        stdin = json.dumps({integration.RELAY.event_key: "NoRunnerEvent"}).encode()
        got = unreachable_answer(args, stdin, reason, block)
        wanted = integration.failing_answer(message, block)
        assert got == (wanted.stdout, wanted.stderr, wanted.exit_code), dialect


def test_an_event_of_the_other_runner_gets_that_runners_answer() -> None:
    """One relay file in ``.clinerules/hooks`` serves both Cline runners: the answer is the
    runner's that sent the event (its ``hookName``), also when the entry names the other."""
    sdk = INTEGRATIONS[Dialect.CLINE_SDK]
    original = INTEGRATIONS[Dialect.CLINE]
    for entry, hook_name, wanted in [
        ("cline", "tool_call", sdk), ("cline-sdk", "PreToolUse", original),
        ("cline", "PreToolUse", original), ("cline-sdk", "tool_call", sdk),
    ]:  # fmt: skip
        stdin = json.dumps({"hookName": hook_name}).encode()
        got = unreachable_answer([entry, "/p/x"], stdin, "down", False)
        answer = wanted.failing_answer(failure_message("down", False), False)
        assert got == (answer.stdout, answer.stderr, answer.exit_code)


def test_stdin_that_is_not_json_gets_the_entrys_agents_answer() -> None:
    answer = INTEGRATIONS[Dialect.CLINE_SDK].failing_answer(failure_message("x", True), True)
    got = unreachable_answer(["cline-sdk", "/p/x"], b"\xff not json", "x", True)
    assert got == (answer.stdout, answer.stderr, answer.exit_code)


def test_an_unknown_agent_answers_by_exit_codes() -> None:
    for block in (False, True):
        answer = exit_code_failing(failure_message("x", block), block)
        assert unreachable_answer(["claud"], b"{}", "x", block) == (
            answer.stdout,
            answer.stderr,
            answer.exit_code,
        )
        assert unreachable_answer([], b"{}", "x", block)[2] == answer.exit_code
