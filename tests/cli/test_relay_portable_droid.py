"""``hookd relay install`` / ``adopt`` for Factory Droid carrying the events of the
portable hooks (issue 27, phase B): one relay entry per event in the list Droid reads, its
matcher the union of the adopted groups' and the portable tools' (Droid's names:
``Execute``, ``Create``), no ``commandRegex`` once portable hooks share the entry, its
timeout covering theirs; ``relay uninstall`` takes them out. Real ``hookd`` runs on
temporary homes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

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
    return subprocess.run([*HOOKD, *args, "--agent", "droid", "--home", str(home)],
                          capture_output=True, text=True, timeout=60, env=dict(os.environ))  # fmt: skip


def read(path: Path) -> Any:
    return json.loads(path.read_text())


def droid_matches(matcher: str, tool: str) -> bool:
    """Droid's matcher (``dialect._applies``): the same name, else an unanchored search."""
    return matcher == tool or re.search(matcher, tool) is not None


def test_install_with_only_portable_hooks_relays_their_events(tmp_path: Path) -> None:
    home = tmp_path / "h"
    write_json(home / ".config" / "hookd" / "hooks.json", PORTABLE)
    folder = home / ".factory"

    done = hookd(home, "relay", "install")

    assert done.returncode == 0, done.stderr
    assert "relaying PostToolUse, PreToolUse, SessionStart, UserPromptSubmit" in done.stdout
    hooks = read(folder / "settings.json")["hooks"]
    (pre,) = hooks["PreToolUse"]
    assert pre["hooks"] == [{"type": "command", "command": f"{ENTRY_RELAY} droid {folder}",
                             "timeout": 40.0}]  # fmt: skip
    for tool, runs in (("Execute", True), ("Create", True), ("Edit", True), ("Read", False)):
        assert droid_matches(pre["matcher"], tool) is runs, (pre["matcher"], tool)
    (post,) = hooks["PostToolUse"]
    assert [droid_matches(post["matcher"], t) for t in ("Create", "Edit", "Execute")] == [
        True, True, False,
    ]  # fmt: skip
    assert post["hooks"][0]["timeout"] == 15.0
    assert "matcher" not in hooks["UserPromptSubmit"][0]
    assert "matcher" not in hooks["SessionStart"][0]

    gone = hookd(home, "relay", "uninstall")

    assert gone.returncode == 0, gone.stderr
    assert "hookd-relay" not in (folder / "settings.json").read_text()


def test_adopt_merges_the_portable_needs_into_the_adopted_events_entries(
    tmp_path: Path,
) -> None:
    """ONE entry per event, in the file Droid reads the event from (``hooks.json`` here):
    the adopted group's matcher and the portable tools, the longer timeout; the adopted
    group's ``commandRegex`` dropped (the portable hooks run on every command)."""
    home = tmp_path / "h"
    flat = write_json(home / ".factory" / "hooks.json", {"PreToolUse": [
        {"matcher": "Read", "commandRegex": "^git", "hooks": [command("true", timeout=100)]}]})  # fmt: skip
    write_json(home / ".config" / "hookd" / "hooks.json",
               claude_settings("PreToolUse", GUARD, matcher="Bash"))  # fmt: skip

    done = hookd(home, "adopt")

    assert done.returncode == 0, done.stderr
    (entry,) = read(flat)["PreToolUse"]
    assert "commandRegex" not in entry
    assert [droid_matches(entry["matcher"], t) for t in ("Read", "Execute", "Edit")] == [
        True, True, False,
    ]  # fmt: skip
    assert entry["hooks"][0]["timeout"] == 110.0
    owned = read(home / ".config" / "hookd" / "droid" / "settings.json")
    assert owned["hooks"]["PreToolUse"][0]["matcher"] == "Read"

    again = hookd(home, "relay", "install")
    assert again.returncode == 0, again.stderr
    assert read(flat)["PreToolUse"] == [entry]


def test_project_scope_relays_the_projects_portable_file_into_its_factory(
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
    hooks = read(project / ".factory" / "settings.json")["hooks"]
    assert list(hooks) == ["PreToolUse"]  # not the user's Stop
    assert hooks["PreToolUse"][0]["matcher"] == "Create"
    assert f"droid {project / '.factory'}" in hooks["PreToolUse"][0]["hooks"][0]["command"]
    assert not (home / ".factory").exists()
