"""``hookd adopt`` / ``unadopt`` / ``relay install`` / ``uninstall`` for Augment's settings
files, through the real ``hookd`` command, on real files (issue 12)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookd_testing.relays import ENTRY_RELAY

HOOKD = [sys.executable, "-m", "hookd"]
RELAY = ENTRY_RELAY
"""The relay entries name this installation's hookd-relay by its path."""
DENY = {"type": "command", "command": "/hooks/deny.sh", "timeout": 5000}
NOTE = {"type": "command", "command": "/hooks/note.sh", "args": ["x"]}
STOP = {"type": "command", "command": "/hooks/stop.sh"}
HTTP = {"type": "http", "url": "http://127.0.0.1:9/"}
AGENT_SETTINGS: dict[str, Any] = {
    "model": "fast",
    "hooks": {
        "PreToolUse": [
            {"matcher": "launch-process", "hooks": [DENY],
             "metadata": {"includeUserContext": True}},
            {"matcher": "view", "hooks": [NOTE]},
            {"matcher": "launch-process", "hooks": [NOTE]},
        ],
        "Stop": [{"hooks": [STOP], "metadata": {"includeConversationData": True}}],
        "PostToolUse": [{"matcher": ".*", "hooks": [NOTE, HTTP]}],
    },
}  # fmt: skip


def hookd(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, *args, "--agent", "augment", "--home", str(home)],
                          capture_output=True, text=True, timeout=60)  # fmt: skip


def relay(args: list[str], timeout: int) -> dict[str, Any]:
    return {"type": "command", "command": RELAY, "args": args, "timeout": timeout}


@pytest.fixture
def home(isolated_home: Path) -> Path:
    settings = isolated_home / ".augment" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps(AGENT_SETTINGS))
    settings.chmod(0o640)
    return isolated_home


def read(path: Path) -> Any:
    return json.loads(path.read_text())


def test_adopt_moves_the_command_hooks_and_relays_each_matcher(home: Path) -> None:
    done = hookd(home, "adopt")

    assert done.returncode == 0, done.stderr
    owned = read(home / ".config" / "hookd" / "augment" / "settings.json")
    assert owned["hooks"] == {k: v for k, v in AGENT_SETTINGS["hooks"].items()
                              if k != "PostToolUse"}  # fmt: skip
    agent = read(home / ".augment" / "settings.json")
    assert agent["model"] == "fast"
    assert agent["hooks"]["PreToolUse"] == [
        {"matcher": "launch-process", "metadata": {"includeUserContext": True},
         "hooks": [relay(["augment", "launch-process"], 70000)]},
        {"matcher": "view", "hooks": [relay(["augment", "view"], 70000)]},
    ]  # fmt: skip
    assert agent["hooks"]["Stop"] == [
        {"metadata": {"includeConversationData": True}, "hooks": [relay(["augment"], 70000)]}
    ]
    # a handler auggie cannot run beside them makes auggie drop the event: left as it is
    assert agent["hooks"]["PostToolUse"] == AGENT_SETTINGS["hooks"]["PostToolUse"]
    assert "PostToolUse stays with the agent" in done.stdout
    assert read(home / ".augment" / "settings.json.hookd.bak") == AGENT_SETTINGS
    assert (home / ".augment" / "settings.json").stat().st_mode & 0o777 == 0o640


def test_adopt_twice_changes_nothing_and_dry_run_writes_nothing(home: Path) -> None:
    dry = hookd(home, "adopt", "--dry-run")
    assert f'"{RELAY}"' in dry.stdout
    assert read(home / ".augment" / "settings.json") == AGENT_SETTINGS

    assert hookd(home, "adopt").returncode == 0
    before = (home / ".augment" / "settings.json").read_text()

    again = hookd(home, "adopt")

    assert "nothing to change" in again.stdout
    assert (home / ".augment" / "settings.json").read_text() == before


def test_unadopt_gives_every_hook_back(home: Path) -> None:
    assert hookd(home, "adopt").returncode == 0

    done = hookd(home, "unadopt")

    assert done.returncode == 0, done.stderr
    agent = read(home / ".augment" / "settings.json")
    handlers = sorted(json.dumps(h) for groups in agent["hooks"].values() for g in groups
                      for h in g["hooks"])  # fmt: skip
    assert handlers == sorted(map(json.dumps, [DENY, NOTE, NOTE, STOP, NOTE, HTTP]))
    assert "hookd-relay" not in json.dumps(agent)


def test_relay_uninstall_and_install(home: Path) -> None:
    assert hookd(home, "adopt").returncode == 0
    adopted = (home / ".augment" / "settings.json").read_text()

    assert "will not run" in hookd(home, "relay", "uninstall").stdout
    assert "hookd-relay" not in (home / ".augment" / "settings.json").read_text()

    assert "relaying PreToolUse, Stop" in hookd(home, "relay", "install").stdout
    assert read(home / ".augment" / "settings.json") == json.loads(adopted)


def test_a_file_of_cursor_style_keys_stays_with_the_agent(tmp_path: Path) -> None:
    home = tmp_path / "home"
    cursor = {"hooks": {"beforeShellExecution": [{"command": "/hooks/x.sh"}]}}
    (home / ".augment").mkdir(parents=True)
    (home / ".augment" / "settings.json").write_text(json.dumps(cursor))

    done = hookd(home, "adopt")

    assert "Cursor-style keys" in done.stdout
    assert read(home / ".augment" / "settings.json") == cursor
    assert not (home / ".config" / "hookd").exists()


def test_project_and_local_scopes_say_to_allow_the_workspace(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "proj"
    for name in ("settings.json", "settings.local.json"):
        (project / ".augment").mkdir(parents=True, exist_ok=True)
        (project / ".augment" / name).write_text(
            json.dumps({"hooks": {"Stop": [{"hooks": [STOP]}]}})
        )

    for scope, name in (("project", "settings.json"), ("local", "settings.local.json")):
        done = hookd(home, "adopt", "--scope", scope, "--project", str(project))
        assert done.returncode == 0, done.stderr
        assert read(project / ".hookd" / "augment" / name)["hooks"]["Stop"] == [{"hooks": [STOP]}]
        assert "hookd allow" in done.stdout
