"""``hookd relay install`` / ``adopt`` for Codex CLI carrying the events of the portable
hooks (issue 27, phase B): one relay entry per event, its matcher the union of the adopted
groups' and the portable tools' (in Codex's matcher syntax), its timeout covering theirs,
pinned as reviewed like the others; and ``relay uninstall`` takes them out. Real
``hookd`` runs on temporary homes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

from hookd.daemon.dialects.codex import review
from hookd.daemon.dialects.codex.config import matches
from hookd_testing import claude_settings, command, write_json
from hookd_testing.relays import ENTRY_RELAY

HOOKD = [sys.executable, "-m", "hookd"]
GUARD = command("echo no >&2; exit 2", timeout=30)
PORTABLE = {
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [GUARD]},
            {"matcher": "Write|Edit", "hooks": [command("exit 0", timeout=5)]},
        ],
        "PostToolUse": [{"matcher": "Write|Edit", "hooks": [command("exit 0", timeout=5)]}],
        "UserPromptSubmit": [{"hooks": [command("echo hi", timeout=5)]}],
        "SessionStart": [{"hooks": [command("echo hi", timeout=5)]}],
    }
}


def hookd(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, *args, "--agent", "codex", "--home", str(home)],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "CODEX_HOME": ""})  # fmt: skip


def read(path: Path) -> Any:
    return json.loads(path.read_text())


def groups(agent_file: Path) -> dict[str, list[dict[str, Any]]]:
    hooks: dict[str, list[dict[str, Any]]] = read(agent_file)["hooks"]
    return hooks


def test_install_with_only_portable_hooks_relays_their_events(tmp_path: Path) -> None:
    home = tmp_path / "h"
    write_json(home / ".config" / "hookd" / "hooks.json", PORTABLE)
    agent_file = home / ".codex" / "hooks.json"
    entry = f"{ENTRY_RELAY} codex {agent_file}"

    done = hookd(home, "relay", "install")

    assert done.returncode == 0, done.stderr
    assert "relaying PostToolUse, PreToolUse, SessionStart, UserPromptSubmit" in done.stdout
    relayed = groups(agent_file)
    assert relayed["PreToolUse"] == [{"matcher": "Bash|Write|apply_patch",
                                      "hooks": [{"type": "command", "command": entry,
                                                 "timeout": 40}]}]  # fmt: skip
    assert relayed["PostToolUse"][0]["matcher"] == "Write|apply_patch"
    assert relayed["PostToolUse"][0]["hooks"][0]["timeout"] == 15
    assert "matcher" not in relayed["UserPromptSubmit"][0]
    assert "matcher" not in relayed["SessionStart"][0]
    for tool, runs in (("Bash", True), ("apply_patch", True), ("Read", False)):
        assert matches(relayed["PreToolUse"][0]["matcher"], (tool,)) is runs, tool
    state = tomllib.loads((home / ".codex" / "config.toml").read_text())["hooks"]["state"]
    assert state[f"{agent_file}:pre_tool_use:0:0"]["trusted_hash"] == review.trusted_hash(
        "PreToolUse", "Bash|Write|apply_patch", entry, 40
    )
    assert len(state) == 4

    gone = hookd(home, "relay", "uninstall")

    assert gone.returncode == 0, gone.stderr
    assert not read(agent_file).get("hooks")
    assert "hooks" not in tomllib.loads((home / ".codex" / "config.toml").read_text())


def test_adopt_merges_the_portable_needs_into_the_adopted_events_entries(
    tmp_path: Path,
) -> None:
    """ONE entry per event: the adopted group's matcher and the portable tools, the
    longer timeout of both."""
    home = tmp_path / "h"
    agent_file = home / ".codex" / "hooks.json"
    write_json(agent_file, claude_settings("PreToolUse", command("true", timeout=100),
                                           matcher="Read"))  # fmt: skip
    write_json(home / ".config" / "hookd" / "hooks.json",
               claude_settings("PreToolUse", GUARD, matcher="Bash"))  # fmt: skip

    done = hookd(home, "adopt")

    assert done.returncode == 0, done.stderr
    (entry,) = groups(agent_file)["PreToolUse"]
    assert entry["matcher"] == "Read|Bash"
    assert entry["hooks"][0]["timeout"] == 110
    owned = read(home / ".config" / "hookd" / "codex" / "hooks.json")
    assert owned["hooks"]["PreToolUse"][0]["matcher"] == "Read"  # the portable hooks stay put

    again = hookd(home, "relay", "install")
    assert again.returncode == 0, again.stderr
    assert groups(agent_file)["PreToolUse"] == [entry]


def test_project_scope_relays_the_projects_portable_file_into_its_hooks_json(
    tmp_path: Path,
) -> None:
    home, project = tmp_path / "h", tmp_path / "ws"
    project.mkdir()
    write_json(home / ".config" / "hookd" / "hooks.json",
               claude_settings("Stop", command("true")))  # fmt: skip
    write_json(project / ".hookd" / "hooks.json",
               claude_settings("PreToolUse", GUARD, matcher="Write"))  # fmt: skip

    done = hookd(home, "relay", "install", "--scope", "project", "--project", str(project))

    assert done.returncode == 0, done.stderr
    project_file = project / ".codex" / "hooks.json"
    assert list(groups(project_file)) == ["PreToolUse"]  # not the user's Stop
    assert groups(project_file)["PreToolUse"][0]["matcher"] == "Write"
    assert not (home / ".codex" / "hooks.json").exists()
    state = tomllib.loads((home / ".codex" / "config.toml").read_text())["hooks"]["state"]
    assert list(state) == [f"{project_file}:pre_tool_use:0:0"]


def test_install_with_neither_adopted_nor_portable_hooks_is_still_an_error(
    tmp_path: Path,
) -> None:
    home = tmp_path / "h"
    write_json(home / ".config" / "hookd" / "hooks.json", {"hooks": {}})

    done = hookd(home, "relay", "install")

    assert done.returncode != 0
    assert "nothing is adopted" in done.stderr
