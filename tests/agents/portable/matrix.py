"""What every agent's cells of the portable-hooks matrix share (issue 27, phase B): ONE
portable hooks file (``~/.config/hookd/hooks.json`` in Claude's settings format, Claude's
event and tool names), written into a case's home by ``write_portable_hooks``, and what
each case checks afterwards (the markers the model must see, the payloads each hook was
given, the fire warnings in hookd's audit log).

The five cases' hooks (all run by ``hooks_script.py``, which records each payload):

1. ``rmrf``: PreToolUse / ``Bash``: denies a command with ``rm -rf`` (``RMRF_REASON``);
2. ``env``: PreToolUse / ``Write|Edit``: denies a write to a file named ``.env`` or
   ``.env.<anything>`` (``ENV_REASON``; ``.env.local`` where the agent itself refuses
   ``.env`` before any hook runs, as Gemini CLI does);
3. ``prompt``: UserPromptSubmit, adds ``PROMPT_CONTEXT``; ``session``: SessionStart, adds
   ``SESSION_CONTEXT``;
4. ``post-edit``: PostToolUse / ``Write|Edit``: records ``tool_input.file_path``
   (``Portable.edited``);
5. ``rewrite``: PreToolUse / ``Bash``: rewrites ``ORIGINAL`` to ``REWRITTEN`` in the
   command (``updatedInput``, the rest of the input kept): a tool call running
   ``echo PORTABLE-ORIGINAL > out`` writes ``PORTABLE-REWRITTEN`` where rewrites apply.

Agents' test modules import from here (``agents.portable.matrix``) and do not edit it; an
agent-specific helper belongs in that agent's module."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import trio

from agents.portable.hooks_script import (
    ENV_REASON,
    ORIGINAL,
    PROMPT_CONTEXT,
    REWRITTEN,
    RMRF_REASON,
    SESSION_CONTEXT,
)
from hookd.daemon.audit import audit_path, read_records
from hookd.daemon.settings import Settings

__all__ = [
    "CASES", "ENV_REASON", "ORIGINAL", "PROMPT_CONTEXT", "REWRITTEN", "RMRF_REASON",
    "SESSION_CONTEXT", "Portable", "assert_once_per_event", "fire_records", "fire_warnings",
    "hooks_file", "portable_settings", "recorder", "relay_install", "rewrite_command",
    "rmrf_command", "write_portable_hooks",
]  # fmt: skip

SCRIPT = Path(__file__).with_name("hooks_script.py")
CASES = ("rmrf", "env", "prompt", "session", "post-edit", "rewrite")
"""The hooks' names: each records its payloads in ``<record>/<name>.jsonl``."""
TIMEOUT_S = 30
"""Each portable hook's timeout (the relay entries' must cover it)."""


def portable_settings(record: Path, python: str = sys.executable) -> dict[str, Any]:
    """The portable hooks file's content (Claude's settings format): the five cases'
    hooks, each recording what it was given into ``record``."""

    def hook(case: str) -> dict[str, Any]:
        command = shlex.join([python, str(SCRIPT), case, str(record)])
        return {"type": "command", "command": command, "timeout": TIMEOUT_S}

    return {
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [hook("rmrf")]},
                {"matcher": "Write|Edit", "hooks": [hook("env")]},
                {"matcher": "Bash", "hooks": [hook("rewrite")]},
            ],
            "PostToolUse": [{"matcher": "Write|Edit", "hooks": [hook("post-edit")]}],
            "UserPromptSubmit": [{"hooks": [hook("prompt")]}],
            "SessionStart": [{"hooks": [hook("session")]}],
        }
    }


def recorder(record: Path, python: str = sys.executable) -> dict[str, Any]:
    """A hook handler that only records its payloads (``<record>/record.jsonl``): for a
    second portable file (a project's) whose runs a cell counts."""
    command = shlex.join([python, str(SCRIPT), "record", str(record)])
    return {"type": "command", "command": command, "timeout": TIMEOUT_S}


def hooks_file(home: Path) -> Path:
    """``<home>/.config/hookd/hooks.json``: the user's portable hooks file."""
    return home / ".config" / "hookd" / "hooks.json"


@dataclass(frozen=True)
class Portable:
    """The portable hooks written into one home: where, and what their runs recorded."""

    file: Path
    """The hooks file written (``hooks_file(home)``)."""
    record: Path
    """Where the hooks record the payloads they were given."""

    def runs(self, case: str) -> list[dict[str, Any]]:
        """Each payload the hook of ``case`` was given, in order (``[]``: it never ran)."""
        path = self.record / f"{case}.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines() if line]

    def edited(self) -> list[str]:
        """``tool_input.file_path`` of each PostToolUse run of the post-edit hook."""
        return [
            str((run.get("tool_input") or {}).get("file_path")) for run in self.runs("post-edit")
        ]

    def agents(self, case: str) -> set[str]:
        """The agents (``hookd_agent``) that fired the hook of ``case``."""
        return {str(run.get("hookd_agent")) for run in self.runs(case)}


def write_portable_hooks(home: Path, record: Path | None = None) -> Portable:
    """Write the matrix's portable hooks file into ``home`` (the user's file, which
    ``hookd relay install`` at user scope reads); the hooks record into ``record``
    (default: ``<home>/portable-runs``)."""
    record = record if record is not None else home / "portable-runs"
    record.mkdir(parents=True, exist_ok=True)
    file = hooks_file(home)
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps(portable_settings(record), indent=2) + "\n")
    return Portable(file, record)


def rmrf_command(ws: Path) -> str:
    """A shell command the ``rmrf`` guard denies: ``rm -rf`` of ``<ws>/victim`` (made
    here), which must still exist afterwards."""
    victim = ws / "victim"
    victim.mkdir(parents=True, exist_ok=True)
    (victim / "keep").write_text("keep\n")
    return f"rm -rf {shlex.quote(str(victim))}"


def rewrite_command(out: Path) -> str:
    """The marker command the ``rewrite`` hook rewrites: it writes ``ORIGINAL`` into
    ``out`` as sent, ``REWRITTEN`` once rewritten."""
    return f"echo {ORIGINAL} > {shlex.quote(str(out))}"


def fire_records(settings: Settings) -> list[dict[str, Any]]:
    """The fires in the audit log of the daemon ``settings`` describe (``hookd logs``)."""
    path = Path(audit_path(settings.state_dir))
    return [r for r in read_records(str(path)) if r.get("type") == "fire"] if path.exists() else []


def fire_warnings(settings: Settings, agent: str, events: Iterable[str] | None = None) -> list[str]:
    """The warnings of ``agent``'s fires (of ``events`` only, when given) in that log."""
    wanted = set(events) if events is not None else None
    return [
        warning
        for record in fire_records(settings)
        if record.get("agent") == agent and (wanted is None or record.get("event") in wanted)
        for warning in record.get("warnings") or ()
    ]


async def relay_install(agent: str, home: Path, *more: str) -> str:
    """The real ``hookd relay install --agent <agent> --home <home>`` (``more``: other
    options, ``--scope``, ``--project``); what it said. It must succeed."""
    done = await trio.run_process(
        [sys.executable, "-m", "hookd", "relay", "install", "--agent", agent,
         "--home", str(home), *more],
        capture_stdout=True, capture_stderr=True, check=False,
    )  # fmt: skip
    said = done.stdout.decode() + done.stderr.decode()
    assert done.returncode == 0, said
    return said


def assert_once_per_event(portable: Portable, agent: str, shell_calls: int) -> None:
    """The guards ran in ``agent``'s fires only, once per event: once per shell call (not
    once per relay entry, however many files hold one), the session's context once."""
    assert len(portable.runs("rmrf")) == shell_calls, portable.runs("rmrf")
    assert len(portable.runs("session")) == 1, portable.runs("session")
    ran_in = {name for case in ("rmrf", "env", "post-edit") for name in portable.agents(case)}
    assert ran_in == {agent}, ran_in
