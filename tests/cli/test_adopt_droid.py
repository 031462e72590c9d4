"""``hookd adopt --agent droid`` on real files through the real ``hookd`` command: each
event's hooks taken from the file Factory Droid reads them from, one relay entry per event
naming its ``.factory`` folder, and back."""

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
GUARD = {"type": "command", "command": "./guard.sh", "timeout": 5}
KEEP = {"type": "command", "command": "./keep.sh", "preserveRiskLevel": True}
SHADOWED = {"matcher": "Execute", "hooks": [{"type": "command", "command": "./never.sh"}]}


def hookd(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, *args, "--agent", "droid", "--home", str(home)],
                          capture_output=True, text=True, timeout=60, env=dict(os.environ))  # fmt: skip


def read(path: Path) -> Any:
    return json.loads(path.read_text())


def test_adopt_takes_each_event_from_the_file_droid_reads_and_gives_it_back(
    tmp_path: Path,
) -> None:
    home = tmp_path / "h"
    folder = home / ".factory"
    settings = write_json(folder / "settings.json", {"customModels": [], "hooks": {
        "PreToolUse": [SHADOWED], "Stop": [{"hooks": [GUARD]}]}})  # fmt: skip
    flat = write_json(folder / "hooks.json", {"PreToolUse": [{"matcher": "Execute",
                                                              "hooks": [GUARD, KEEP]}]})  # fmt: skip

    done = hookd(home, "adopt", "--scope", "user")

    assert done.returncode == 0, done.stderr
    assert "preserveRiskLevel" in done.stdout
    owned = read(home / ".config" / "hookd" / "droid" / "settings.json")["hooks"]
    assert owned == {"PreToolUse": [{"matcher": "Execute", "hooks": [GUARD]}],
                     "Stop": [{"hooks": [GUARD]}]}  # fmt: skip
    entry = {"type": "command", "command": f"{ENTRY_RELAY} droid {folder}", "timeout": 15.0}
    assert read(flat) == {"PreToolUse": [{"matcher": "Execute", "hooks": [KEEP]},
                                         {"matcher": "Execute", "hooks": [entry]}]}  # fmt: skip
    agent = read(settings)
    assert agent["customModels"] == []
    assert agent["hooks"] == {"PreToolUse": [SHADOWED], "Stop": [{"hooks": [entry]}]}

    again = hookd(home, "adopt", "--scope", "user")
    assert again.returncode == 0, again.stderr
    assert read(flat)["PreToolUse"][-1] == {"matcher": "Execute", "hooks": [entry]}  # one, still
    assert len(read(flat)["PreToolUse"]) == 2

    back = hookd(home, "unadopt", "--scope", "user")
    assert back.returncode == 0, back.stderr
    assert read(flat) == {"PreToolUse": [{"matcher": "Execute", "hooks": [KEEP]},
                                         {"matcher": "Execute", "hooks": [GUARD]}]}  # fmt: skip
    assert read(settings)["hooks"] == {"PreToolUse": [SHADOWED], "Stop": [{"hooks": [GUARD]}]}


def test_install_and_uninstall(tmp_path: Path) -> None:
    home = tmp_path / "h"
    path = write_json(
        home / ".factory" / "settings.json", {"hooks": {"PreToolUse": [{"hooks": [GUARD]}]}}
    )
    assert hookd(home, "relay", "install", "--scope", "user").returncode == 1  # nothing adopted
    assert hookd(home, "adopt", "--scope", "user").returncode == 0
    assert hookd(home, "relay", "uninstall", "--scope", "user").returncode == 0
    assert read(path)["hooks"] == {"PreToolUse": []}
    assert hookd(home, "relay", "install", "--scope", "user").returncode == 0
    assert "hookd-relay" in read(path)["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
