"""``hookd relay install`` / ``adopt --agent copilot`` carrying the portable hooks' events
(issue 27): real ``hookd`` runs on temp homes. An event an adopted file relays takes the
portable hooks into that file's first entry (matcher and timeout widened); the others get
their entries in ``hookd-portable.json``, which ``relay uninstall`` and ``unadopt`` take
away with the rest."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from hookd_testing import write_json
from hookd_testing.relays import ENTRY_RELAY

HOOKD = [sys.executable, "-m", "hookd"]
RELAY = ENTRY_RELAY


def hook(matcher: str | None = None, timeout: int = 30) -> dict[str, Any]:
    group: dict[str, Any] = {"hooks": [{"type": "command", "command": "true", "timeout": timeout}]}
    return {**group, "matcher": matcher} if matcher else group


PORTABLE = {"hooks": {
    "PreToolUse": [hook("Bash"), hook("Write|Edit", timeout=20)],
    "PostToolUse": [hook("Write|Edit")],
    "UserPromptSubmit": [hook()],
    "SessionStart": [hook()],
}}  # fmt: skip
"""The matrix's events: Bash and Write|Edit guards, a post-edit hook, two contexts."""


def hookd(home: Path, *args: str, project: Path | None = None) -> subprocess.CompletedProcess[str]:
    where = ["--project", str(project)] if project else []
    return subprocess.run([*HOOKD, *args, "--agent", "copilot", "--home", str(home), *where],
                          capture_output=True, text=True, timeout=60)  # fmt: skip


def read(path: Path) -> Any:
    return json.loads(path.read_text())


def entry(path: Path, key: str, timeout: int, matcher: str | None = None) -> dict[str, Any]:
    found = {"type": "command", "bash": f"{RELAY} copilot {path} {key}", "timeoutSec": timeout}
    return {**found, "matcher": matcher} if matcher else found


def test_install_with_nothing_adopted_relays_the_portable_events(tmp_path: Path) -> None:
    home = tmp_path / "h"
    write_json(home / ".config" / "hookd" / "hooks.json", PORTABLE)
    file = home / ".copilot" / "hooks" / "hookd-portable.json"

    done = hookd(home, "relay", "install", "--scope", "user")

    assert done.returncode == 0, done.stderr
    assert read(file) == {"version": 1, "hooks": {  # camelCase keys only, one per event
        "preToolUse": [entry(file, "preToolUse", 40, "bash|create|edit|powershell")],
        "postToolUse": [entry(file, "postToolUse", 40, "create|edit")],
        "userPromptSubmitted": [entry(file, "userPromptSubmitted", 40)],
        "sessionStart": [entry(file, "sessionStart", 40)],
    }}  # fmt: skip
    assert "portable hooks' preToolUse, postToolUse" in done.stdout

    again = hookd(home, "relay", "install", "--scope", "user")
    assert again.returncode == 0, again.stderr
    assert len(read(file)["hooks"]["preToolUse"]) == 1  # rewritten, not added to

    gone = hookd(home, "relay", "uninstall", "--scope", "user")
    assert gone.returncode == 0, gone.stderr
    assert not file.exists()
    assert hookd(home, "relay", "install", "--scope", "user").returncode == 0
    os.remove(home / ".config" / "hookd" / "hooks.json")
    nothing = hookd(home, "relay", "install", "--scope", "user")
    assert nothing.returncode == 1  # no portable hooks, nothing adopted: still refused
    assert "nothing is adopted" in nothing.stderr


def test_adopt_merges_each_event_into_the_first_entry_copilot_runs(tmp_path: Path) -> None:
    """``a.json`` comes before ``sub/b.json`` (shallower first) and its camelCase key
    before its PascalCase one: the portable tools join that entry's matcher and the
    portable timeout its timeout, the PascalCase entry stays as adopted; postToolUse's
    first entry is ``b.json``'s. The event no adopted file relays goes to
    ``hookd-portable.json``."""
    home = tmp_path / "h"
    write_json(home / ".config" / "hookd" / "hooks.json", PORTABLE)
    guard = {"type": "command", "bash": "true", "timeoutSec": 5, "matcher": "view"}
    a = write_json(home / ".copilot" / "hooks" / "a.json",
                   {"version": 1, "hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [guard]}],
                                            "preToolUse": [guard],
                                            "sessionStart": [{"bash": "true"}]}})  # fmt: skip
    b = write_json(home / ".copilot" / "hooks" / "sub" / "b.json",
                   {"version": 1, "hooks": {"postToolUse": [guard]}})  # fmt: skip
    portable = home / ".copilot" / "hooks" / "hookd-portable.json"

    done = hookd(home, "adopt", "--scope", "user")

    assert done.returncode == 0, done.stderr
    assert read(a)["hooks"] == {
        "preToolUse": [entry(a, "preToolUse", 45, "view|bash|create|edit|powershell")],
        "PreToolUse": [entry(a, "PreToolUse", 15, "Read")],
        "sessionStart": [entry(a, "sessionStart", 70)],
    }
    assert read(b)["hooks"] == {"postToolUse": [entry(b, "postToolUse", 45, "view|create|edit")]}
    assert read(portable)["hooks"] == {
        "userPromptSubmitted": [entry(portable, "userPromptSubmitted", 40)],
    }

    back = hookd(home, "unadopt", "--scope", "user")
    assert back.returncode == 0, back.stderr
    assert not portable.exists()
    assert "hookd-relay" not in a.read_text() + b.read_text()


def test_a_pascal_case_entry_first_takes_claudes_matcher_syntax(tmp_path: Path) -> None:
    home = tmp_path / "h"
    write_json(home / ".config" / "hookd" / "hooks.json",
               {"hooks": {"PreToolUse": [hook("Bash|mcp__srv__do")]}})  # fmt: skip
    a = write_json(home / ".copilot" / "hooks" / "a.json", {"version": 1, "hooks": {
        "PreToolUse": [{"matcher": "Write", "hooks": [{"bash": "true"}]}]}})  # fmt: skip

    done = hookd(home, "adopt", "--scope", "user")

    assert done.returncode == 0, done.stderr
    [relayed] = read(a)["hooks"]["PreToolUse"]
    assert relayed["matcher"] == "Write|bash|mcp__srv__do|powershell"
    assert relayed["timeoutSec"] == 70
    assert not (home / ".copilot" / "hooks" / "hookd-portable.json").exists()


def test_a_camel_case_matcher_escapes_the_tool_names(tmp_path: Path) -> None:
    home = tmp_path / "h"
    write_json(home / ".config" / "hookd" / "hooks.json",
               {"hooks": {"PreToolUse": [hook("mcp__srv__do.it")]}})  # fmt: skip
    file = home / ".copilot" / "hooks" / "hookd-portable.json"

    assert hookd(home, "relay", "install", "--scope", "user").returncode == 0

    assert read(file)["hooks"]["preToolUse"][0]["matcher"] == r"mcp__srv__do\.it"


def test_a_hook_matching_every_tool_leaves_the_entry_without_matcher(tmp_path: Path) -> None:
    home = tmp_path / "h"
    write_json(home / ".config" / "hookd" / "hooks.json",
               {"hooks": {"PreToolUse": [hook("Bash"), hook()]}})  # fmt: skip
    a = write_json(home / ".copilot" / "hooks" / "a.json",
                   {"version": 1, "hooks": {"preToolUse": [{"bash": "true", "matcher": "view"}]}})  # fmt: skip

    assert hookd(home, "adopt", "--scope", "user").returncode == 0

    assert "matcher" not in read(a)["hooks"]["preToolUse"][0]


def test_project_scope_reads_the_projects_portable_file(tmp_path: Path) -> None:
    home, project = tmp_path / "h", tmp_path / "p"
    write_json(home / ".config" / "hookd" / "hooks.json", PORTABLE)  # not this scope's
    write_json(project / ".hookd" / "hooks.json", {"hooks": {"Stop": [hook()]}})
    file = project / ".github" / "hooks" / "hookd-portable.json"

    done = hookd(home, "relay", "install", "--scope", "project", project=project)

    assert done.returncode == 0, done.stderr
    assert read(file)["hooks"] == {"agentStop": [entry(file, "agentStop", 40)]}
    assert not (home / ".copilot").exists()
    assert hookd(home, "relay", "uninstall", "--scope", "project", project=project).returncode == 0
    assert not file.exists()


def test_a_hook_of_the_person_in_hookd_portable_json_stays(tmp_path: Path) -> None:
    """The file is hookd's, but a hook someone put in it is not taken away with it."""
    home = tmp_path / "h"
    write_json(home / ".config" / "hookd" / "hooks.json", {"hooks": {"SessionStart": [hook()]}})
    file = home / ".copilot" / "hooks" / "hookd-portable.json"
    assert hookd(home, "relay", "install", "--scope", "user").returncode == 0
    data = read(file)
    data["hooks"]["sessionEnd"] = [{"bash": "echo mine"}]
    write_json(file, data)

    assert hookd(home, "relay", "uninstall", "--scope", "user").returncode == 0

    assert read(file)["hooks"] == {"sessionEnd": [{"bash": "echo mine"}]}
