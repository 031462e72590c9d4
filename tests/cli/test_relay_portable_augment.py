"""``hookd relay install`` / ``adopt`` carry the portable hooks' events for auggie (issue
27, phase B): per tool event the relay group of matcher ``.*``, per other event the
unmatched one (the only entries whose relay fires run the portable hooks, so they run
once per event), shared with the adopted hooks' group of that matcher; through the real
``hookd`` command on real files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from hookd.daemon.dialects.augment import integration, portable
from hookd.daemon.dialects.integration import RelayCall
from hookd.daemon.model import Dialect, FireRequest
from hookd_testing.relays import ENTRY_RELAY

HOOKD = [sys.executable, "-m", "hookd"]
PORTABLE: dict[str, Any] = {
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "true", "timeout": 20}]},
            {"matcher": "Write", "hooks": [{"type": "command", "command": "true", "timeout": 45}]},
        ],
        "PostToolUse": [
            {"matcher": "Edit", "hooks": [{"type": "command", "command": "true", "timeout": 5}]}
        ],
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "true", "timeout": 7}]}],
    }
}
ADOPTED = {"type": "command", "command": "/hooks/audit.sh", "timeout": 90_000}


def hookd(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, *args, "--agent", "augment", "--home", str(home)],
                          capture_output=True, text=True, timeout=60)  # fmt: skip


def relay(args: list[str], timeout: int) -> dict[str, Any]:
    return {"type": "command", "command": ENTRY_RELAY, "args": args, "timeout": timeout}


def write(path: Path, content: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(content))


def read(path: Path) -> Any:
    return json.loads(path.read_text())


def runs_portable_from(group: dict[str, Any], event: str) -> bool:
    """Whether a fire relayed by ``group``'s handler runs the portable hooks, by auggie's
    own rule (``relay_entry`` reads the entry from the handler's args)."""
    args = tuple(group["hooks"][0]["args"][1:])
    entry = integration.relay_entry(RelayCall("augment", args, {}, {}, "/"))
    request = FireRequest(dialect=Dialect.AUGMENT, event=event, roots=(), payload={},
                          relay=True, relay_entry=entry)  # fmt: skip
    return portable.runs_portable(request)


def test_install_relays_the_portable_events_alone(isolated_home: Path) -> None:
    write(isolated_home / ".config" / "hookd" / "hooks.json", PORTABLE)

    done = hookd(isolated_home, "relay", "install")

    assert done.returncode == 0, done.stderr
    assert "for the portable hooks" in done.stdout
    hooks = read(isolated_home / ".augment" / "settings.json")["hooks"]
    assert hooks == {
        "PreToolUse": [{"matcher": ".*", "hooks": [relay(["augment", ".*"], 55_000)]}],
        "PostToolUse": [{"matcher": ".*", "hooks": [relay(["augment", ".*"], 15_000)]}],
        "PromptSubmit": [{"hooks": [relay(["augment"], 17_000)]}],
    }
    for event, groups in hooks.items():
        assert [runs_portable_from(g, event) for g in groups] == [True]

    undo = hookd(isolated_home, "relay", "uninstall")
    assert undo.returncode == 0, undo.stderr
    assert read(isolated_home / ".augment" / "settings.json").get("hooks", {}) == {}


def test_adopt_shares_the_adopted_groups_of_the_same_matcher(isolated_home: Path) -> None:
    write(isolated_home / ".config" / "hookd" / "hooks.json", PORTABLE)
    write(isolated_home / ".augment" / "settings.json", {"hooks": {
        "PreToolUse": [{"matcher": "launch-process", "hooks": [ADOPTED]}],
        "PostToolUse": [{"hooks": [ADOPTED], "metadata": {"includeUserContext": True}}],
    }})  # fmt: skip

    done = hookd(isolated_home, "adopt")

    assert done.returncode == 0, done.stderr
    hooks = read(isolated_home / ".augment" / "settings.json")["hooks"]
    assert hooks["PreToolUse"] == [
        {"matcher": "launch-process", "hooks": [relay(["augment", "launch-process"], 100_000)]},
        {"matcher": ".*", "hooks": [relay(["augment", ".*"], 55_000)]},
    ]
    assert hooks["PostToolUse"] == [  # one group: the adopted one, its timeout the longer
        {"matcher": ".*", "metadata": {"includeUserContext": True},
         "hooks": [relay(["augment", ".*"], 100_000)]},
    ]  # fmt: skip
    assert [runs_portable_from(g, "PreToolUse") for g in hooks["PreToolUse"]] == [False, True]
    again = hookd(isolated_home, "adopt")
    assert again.returncode == 0, again.stderr
    assert read(isolated_home / ".augment" / "settings.json")["hooks"] == hooks


def test_nothing_adopted_and_no_portable_hooks_is_still_refused(isolated_home: Path) -> None:
    done = hookd(isolated_home, "relay", "install")

    assert done.returncode != 0
    assert "nothing is adopted" in done.stderr


def test_a_projects_portable_hooks_go_to_the_local_settings(
    isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    write(
        ws / ".hookd" / "hooks.json", {"hooks": {"PostToolUse": PORTABLE["hooks"]["PostToolUse"]}}
    )

    done = hookd(isolated_home, "relay", "install", "--scope", "project", "--project", str(ws))

    assert done.returncode == 0, done.stderr
    assert not (ws / ".augment" / "settings.json").exists()  # the team's file: untouched
    local = ws / ".augment" / "settings.local.json"
    assert read(local)["hooks"] == {
        "PostToolUse": [{"matcher": ".*", "hooks": [relay(["augment", ".*"], 15_000)]}],
    }
    undo = hookd(isolated_home, "relay", "uninstall", "--scope", "project", "--project", str(ws))
    assert undo.returncode == 0, undo.stderr
    assert not local.exists() or read(local).get("hooks") in ({}, None)
