"""What the hookd command says when it is used wrongly: a usage error is an error you can
fix (exit 1), never argparse's 2, which ``hookd fire`` gives to "block"."""

from __future__ import annotations

import subprocess
import sys

import pytest

HOOKD = [sys.executable, "-m", "hookd"]


def hookd(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, *args], input=stdin, capture_output=True, text=True,
                          timeout=60)  # fmt: skip


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("fire", "PreToolUse"), "the following arguments are required: --agent"),
        (("fire", "PreToolUse", "--agent", "cursor"), "argument --agent: invalid choice"),
        (("fire", "PreToolUse", "--agent", "claude", "--timeout-ms", "soon"),
         "argument --timeout-ms: invalid int value"),
        (("bogus",), "argument COMMAND: invalid choice: 'bogus'"),
        (("status", "--yaml"), "unrecognized arguments: --yaml"),
        (("hooks", "--yaml"), "unrecognized arguments: --yaml"),
        (("shutdown", "now"), "unrecognized arguments: now"),
        (("logs", "-n", "x"), "argument -n/--lines: invalid int value: 'x'"),
        (("logs", "-n", "-1"), "argument -n/--lines: -1 is negative: give a number of records, "
                               "0 for all"),
        (("allow", "a", "b"), "unrecognized arguments: b"),
        (("deny", "a", "b"), "unrecognized arguments: b"),
        (("serve", "--log-level", "loud"), "argument --log-level: invalid choice"),
        (("adopt",), "the following arguments are required: --agent"),
        (("unadopt", "--agent", "claude", "--scope", "all"), "argument --scope"),
        (("relay",), "the following arguments are required: ACTION"),
        (("relay", "install"), "the following arguments are required: --agent"),
    ],
    ids=lambda value: "-".join(value) if isinstance(value, tuple) else None,
)  # fmt: skip
def test_a_usage_error_exits_1_with_argparse_message(args: tuple[str, ...], says: str) -> None:
    """Every subcommand: exit 1 (not 2, "block" for fire), the usage and argparse's message."""
    done = hookd(*args)

    assert done.returncode == 1, done.stderr
    assert f"error: {says}" in done.stderr
    assert done.stderr.startswith("usage: hookd")
    assert done.stdout == ""


@pytest.mark.parametrize("args", [("--help",), ("fire", "--help"), ("relay", "install", "-h")])
def test_help_exits_0(args: tuple[str, ...]) -> None:
    done = hookd(*args)

    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: hookd")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("status",), "Show the running daemon"),
        (("hooks",), "List every hook the daemon knows"),
        (("shutdown",), "Stop the running daemon"),
        (("adopt",), "Hand an agent's hooks to hookd"),
        (("unadopt",), "Give the adopted hooks back"),
        (("relay", "install"), "Write the relay entries for what is adopted."),
        (("relay", "uninstall"), "Remove the relay entries."),
    ],
)
def test_every_command_describes_itself_in_its_help(args: tuple[str, ...], says: str) -> None:
    """Between the usage and the options, a paragraph says what this command does."""
    done = hookd(*args, "--help")

    described = " ".join(done.stdout.split("\n\n", 1)[1].split("options:")[0].split())
    assert described.startswith(says), done.stdout
