"""``hookd relay install`` and ``adopt`` carrying the portable hooks' events (issue 27) for
the agents whose relay entries go to a settings file of theirs: Claude Code, Gemini CLI,
Qwen Code. Real ``hookd`` runs on temp homes: one relay entry per event, adopted and
portable alike, its matcher the union in the agent's own syntax, its timeout covering the
portable hooks'; ``relay uninstall`` takes them out again."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookd_testing import write_json
from hookd_testing.relays import ENTRY_RELAY

HOOKD = [sys.executable, "-m", "hookd"]


def _hook(timeout: float) -> dict[str, Any]:
    return {"type": "command", "command": "true", "timeout": timeout}


PORTABLE = {"hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [_hook(30)]},
                   {"matcher": "Write|Edit", "hooks": [_hook(5)]}],
    "UserPromptSubmit": [{"hooks": [_hook(5)]}],
}}  # fmt: skip
"""A guard of the shell and file-writing tools (30 s), and a prompt's context."""


def hookd(home: Path, agent: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, *args, "--agent", agent, "--home", str(home)],
                          capture_output=True, text=True, timeout=60)  # fmt: skip


def read(path: Path) -> Any:
    return json.loads(path.read_text())


def entries(settings: Any, event: str) -> list[Any]:
    """The relay's groups of ``event``: each with its matcher (or none) and its handler."""
    groups = settings.get("hooks", {}).get(event, [])
    return [(g.get("matcher"), h) for g in groups for h in g["hooks"]
            if ENTRY_RELAY in h["command"]]  # fmt: skip


AGENT_FILES = {
    "claude": Path(".claude/settings.json"),
    "gemini": Path(".gemini/settings.json"),
    "qwen": Path(".qwen/settings.json"),
}
EXPECTED = {
    # agent: (pre-tool event, its matcher, its timeout; prompt event)
    "claude": ("PreToolUse", "Bash|Edit|Write", 40.0, "UserPromptSubmit"),
    "gemini": ("BeforeTool", "(?:replace)|(?:run_shell_command)|(?:write_file)", 40000,
               "BeforeAgent"),
    "qwen": ("PreToolUse", "edit|run_shell_command|write_file", 40, "UserPromptSubmit"),
}  # fmt: skip


@pytest.mark.parametrize("agent", sorted(EXPECTED))
def test_install_relays_the_portable_events_with_nothing_adopted(
    tmp_path: Path, agent: str
) -> None:
    write_json(tmp_path / ".config" / "hookd" / "hooks.json", PORTABLE)
    tool_event, matcher, timeout, prompt_event = EXPECTED[agent]

    done = hookd(tmp_path, agent, "relay", "install")

    assert done.returncode == 0, done.stderr
    assert f"relaying {', '.join(sorted([tool_event, prompt_event]))}" in done.stdout
    settings = read(tmp_path / AGENT_FILES[agent])
    assert [(m, h["timeout"]) for m, h in entries(settings, tool_event)] == [(matcher, timeout)]
    [(none, _)] = entries(settings, prompt_event)
    assert none is None
    assert set(settings["hooks"]) == {tool_event, prompt_event}

    gone = hookd(tmp_path, agent, "relay", "uninstall")

    assert gone.returncode == 0, gone.stderr
    assert read(tmp_path / AGENT_FILES[agent]).get("hooks", {}) == {}


@pytest.mark.parametrize("agent", sorted(EXPECTED))
def test_without_portable_hooks_install_still_needs_something_adopted(
    tmp_path: Path, agent: str
) -> None:
    write_json(tmp_path / ".config" / "hookd" / "hooks.json", {"hooks": {}})

    done = hookd(tmp_path, agent, "relay", "install")

    assert done.returncode == 1, done.stdout
    assert "nothing is adopted in" in done.stderr


ADOPTED_SHELL = {
    # agent: (its shell tool's matcher, a timeout in its unit: 60 s)
    "claude": ("Bash", 60),
    "gemini": ("run_shell_command", 60000),
    "qwen": ("run_shell_command", 60),
}
ADOPTED_EXPECTED = {
    # after adopt: one pre-tool entry, the union of both matchers, the adopted 60 s + 10
    "claude": ("Bash|Edit|Write", 70.0),
    "gemini": ("(?:run_shell_command)|(?:replace)|(?:write_file)", 70000),
    "qwen": ("run_shell_command|edit|write_file", 70),
}


@pytest.mark.parametrize("agent", sorted(EXPECTED))
def test_adopt_merges_the_portable_tools_into_the_adopted_event_s_one_entry(
    tmp_path: Path, agent: str
) -> None:
    write_json(tmp_path / ".config" / "hookd" / "hooks.json", PORTABLE)
    tool_event = EXPECTED[agent][0]
    shell, timeout = ADOPTED_SHELL[agent]
    guard = {"type": "command", "command": "echo no >&2; exit 2", "timeout": timeout}
    write_json(tmp_path / AGENT_FILES[agent],
               {"hooks": {tool_event: [{"matcher": shell, "hooks": [guard]}]}})  # fmt: skip

    done = hookd(tmp_path, agent, "adopt", "--scope", "user")

    assert done.returncode == 0, done.stderr
    settings = read(tmp_path / AGENT_FILES[agent])
    found = [(m, h["timeout"]) for m, h in entries(settings, tool_event)]
    assert found == [ADOPTED_EXPECTED[agent]]
    assert settings["hooks"][tool_event] == [{"matcher": found[0][0], "hooks": [
        entries(settings, tool_event)[0][1]]}]  # fmt: skip
    assert len(entries(settings, EXPECTED[agent][3])) == 1


def test_claude_project_scope_relays_the_project_s_portable_hooks_locally(
    tmp_path: Path,
) -> None:
    """The project's ``.hookd/hooks.json`` (which a team commits) is carried by the local
    settings file's entries; the shared ``.claude/settings.json`` gets none, and the
    user's portable file is the user scope's business."""
    home, project = tmp_path / "h", tmp_path / "p"
    home.mkdir()
    write_json(project / ".hookd" / "hooks.json", {"hooks": {
        "PostToolUse": [{"matcher": "Write|Edit", "hooks": [_hook(20)]}]}})  # fmt: skip
    write_json(home / ".config" / "hookd" / "hooks.json", PORTABLE)

    done = hookd(home, "claude", "relay", "install", "--scope", "project",
                 "--project", str(project))  # fmt: skip

    assert done.returncode == 0, done.stderr
    local = read(project / ".claude" / "settings.local.json")
    assert set(local["hooks"]) == {"PostToolUse"}
    assert [(m, h["timeout"]) for m, h in entries(local, "PostToolUse")] == [("Edit|Write", 30.0)]
    assert not (project / ".claude" / "settings.json").exists()

    gone = hookd(home, "claude", "relay", "uninstall", "--scope", "project",
                 "--project", str(project))  # fmt: skip
    assert gone.returncode == 0, gone.stderr
    assert not (project / ".claude" / "settings.local.json").exists()


@pytest.mark.parametrize("agent", ["gemini", "qwen"])
def test_gemini_style_project_scope_relays_the_project_s_portable_hooks(
    tmp_path: Path, agent: str
) -> None:
    home, project = tmp_path / "h", tmp_path / "p"
    home.mkdir()
    write_json(project / ".hookd" / "hooks.json", {"hooks": {
        "SessionStart": [{"hooks": [_hook(5)]}]}})  # fmt: skip

    done = hookd(home, agent, "relay", "install", "--scope", "project",
                 "--project", str(project))  # fmt: skip

    assert done.returncode == 0, done.stderr
    settings = read(project / AGENT_FILES[agent])
    assert [m for m, _ in entries(settings, "SessionStart")] == [None]
    assert not (home / AGENT_FILES[agent]).exists()
