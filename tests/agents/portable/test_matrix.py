"""The matrix's shared portable hooks file on its own (no agent): each hook answers what
its case says, in Claude's format, and records what it was given; and ``hookd relay
install`` reads the file as the events and tools every agent's relay must carry."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from agents.portable.matrix import (
    ENV_REASON,
    PROMPT_CONTEXT,
    REWRITTEN,
    RMRF_REASON,
    portable_settings,
    rewrite_command,
    rmrf_command,
    write_portable_hooks,
)
from hookd.daemon.dialects.gemini import portable as gemini
from hookd.daemon.dialects.portable_needs import PortableNeed, portable_needs


def _run(command: str, event: dict[str, Any]) -> dict[str, Any] | None:
    done = subprocess.run(command, shell=True, input=json.dumps(event), capture_output=True,
                          text=True, check=True, timeout=60)  # fmt: skip
    return json.loads(done.stdout) if done.stdout.strip() else None


def _command(settings: dict[str, Any], event: str, index: int = 0) -> str:
    command: str = settings["hooks"][event][index]["hooks"][0]["command"]
    return command


def test_each_hook_answers_its_case_and_records_its_payload(tmp_path: Path) -> None:
    portable = write_portable_hooks(tmp_path / "home")
    settings = json.loads(portable.file.read_text())
    assert settings == portable_settings(portable.record)
    rm = {
        "hookd_agent": "x",
        "tool_name": "Bash",
        "tool_input": {"command": rmrf_command(tmp_path)},
    }
    env = {"tool_name": "Write", "tool_input": {"file_path": str(tmp_path / ".env")}}
    marker = {
        "tool_name": "Bash",
        "tool_input": {"command": rewrite_command(tmp_path / "o"), "k": 1},
    }

    denied = _run(_command(settings, "PreToolUse", 0), rm)
    env_denied = _run(_command(settings, "PreToolUse", 1), env)
    rewritten = _run(_command(settings, "PreToolUse", 2), marker)
    _run(_command(settings, "PostToolUse"), env)

    assert denied
    assert denied["hookSpecificOutput"]["permissionDecisionReason"] == RMRF_REASON
    assert _run(_command(settings, "PreToolUse", 0), marker) is None
    assert env_denied
    assert env_denied["hookSpecificOutput"]["permissionDecisionReason"] == ENV_REASON
    assert rewritten
    assert rewritten["hookSpecificOutput"]["updatedInput"] == {
        "command": f"echo {REWRITTEN} > {tmp_path / 'o'}",
        "k": 1,
    }
    prompt = _run(_command(settings, "UserPromptSubmit"), {})
    assert prompt
    assert prompt["hookSpecificOutput"]["additionalContext"] == PROMPT_CONTEXT
    assert portable.edited() == [str(tmp_path / ".env")]
    local = {"tool_name": "Edit", "tool_input": {"file_path": str(tmp_path / ".env.local")}}
    other = {"tool_name": "Edit", "tool_input": {"file_path": str(tmp_path / "x.env")}}
    assert _run(_command(settings, "PreToolUse", 1), local) is not None
    assert _run(_command(settings, "PreToolUse", 1), other) is None
    assert portable.agents("rmrf") == {"x", "None"}


def test_the_relay_must_carry_its_events_and_tools(tmp_path: Path) -> None:
    portable = write_portable_hooks(tmp_path / "home")

    needs = portable_needs(gemini, str(tmp_path / "home"), [])

    assert needs["BeforeTool"] == PortableNeed(
        frozenset({"run_shell_command", "write_file", "replace"}), 30
    )
    assert needs["AfterTool"].tools == frozenset({"write_file", "replace"})
    assert set(needs) == {"BeforeTool", "AfterTool", "BeforeAgent", "SessionStart"}
    assert portable.runs("rmrf") == []
