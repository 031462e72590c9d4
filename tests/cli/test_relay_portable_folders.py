"""``hookd relay install`` / ``adopt`` carry the portable hooks' events for both Cline
runners (issue 27, phase B): a relay file per event in each runner's global
``Cline/Hooks`` folder, the one folder whose relay file runs the portable hooks (so they
run once per event), through the real ``hookd`` command on real files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookd.daemon.dialects.cline import integration as cline_integration
from hookd.daemon.dialects.cline import portable as cline_portable
from hookd.daemon.dialects.cline.dialect import documents_folder
from hookd.daemon.dialects.cline_sdk import integration as sdk_integration
from hookd.daemon.dialects.cline_sdk import portable as sdk_portable
from hookd.daemon.dialects.integration import RelayCall
from hookd.daemon.model import Dialect, FireRequest
from hookd_testing import write_executable
from hookd_testing.relays import ENTRY_RELAY

HOOKD = [sys.executable, "-m", "hookd"]
RELAY_LINE = f'exec {ENTRY_RELAY} cline "$0"'
SDK_RELAY_LINE = f'exec {ENTRY_RELAY} cline-sdk "$0"'
PORTABLE: dict[str, Any] = {
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}],
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "true"}]}],
        "SessionStart": [{"hooks": [{"type": "command", "command": "true"}]}],
    }
}
CLINE_EVENTS = ["PreToolUse", "TaskResume", "TaskStart", "UserPromptSubmit"]
"""The original runner's events for PORTABLE's (SessionStart is its TaskStart and
TaskResume); the SDK's are the same."""


def hookd(agent: str, home: Path, project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, *args, "--agent", agent, "--home", str(home),
                           "--project", str(project)],
                          capture_output=True, text=True, timeout=60)  # fmt: skip


def portable(folder: Path, content: dict[str, Any] = PORTABLE) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "hooks.json").write_text(json.dumps(content))


def cline_global(home: Path) -> Path:
    return Path(documents_folder(str(home))) / "Cline" / "Hooks"


def sdk_global(home: Path) -> Path:
    return home / "Documents" / "Cline" / "Hooks"


def listing(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(folder.iterdir())} if folder.exists() else {}


def runs_portable_from(agent: str, relay_file: Path, hook_name: str) -> bool:
    """Whether a fire relayed by ``relay_file`` (the entry the relay reads from its
    ``"$0"``) runs the portable hooks, by the runner's own rule."""
    integration = cline_integration if agent == "cline" else sdk_integration
    call = RelayCall(agent, (str(relay_file),), {}, {}, str(relay_file.parent))
    request = FireRequest(
        dialect=Dialect(agent), event=hook_name, payload={}, roots=(), env={}, relay=True,
        relay_entry=integration.relay_entry(call),
    )  # fmt: skip
    rule = cline_portable if agent == "cline" else sdk_portable
    return rule.runs_portable(request)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    return ws


def test_user_install_writes_each_runners_global_relay_files_and_only_those_run_them(
    isolated_home: Path, ws: Path
) -> None:
    home = isolated_home
    portable(home / ".config" / "hookd")  # the two global folders: one, or two (xdg-user-dir)

    done = hookd("cline", home, ws, "relay", "install")
    sdk = hookd("cline-sdk", home, ws, "relay", "install")

    assert done.returncode == 0, done.stderr
    assert sdk.returncode == 0, sdk.stderr
    files = listing(cline_global(home))
    assert sorted(files) == CLINE_EVENTS
    assert all(RELAY_LINE in text for text in files.values())
    assert all(os.access(cline_global(home) / name, os.X_OK) for name in files)
    sdk_files = listing(sdk_global(home))
    assert sorted(sdk_files) == CLINE_EVENTS  # named like the event: both runners run it
    assert all(f"exec {ENTRY_RELAY} " in text for text in sdk_files.values())
    assert listing(home / ".cline" / "hooks") == {}  # the SDK's user folder: none
    assert runs_portable_from("cline", cline_global(home) / "PreToolUse", "PreToolUse")
    assert runs_portable_from("cline-sdk", sdk_global(home) / "PreToolUse", "tool_call")

    undo = hookd("cline", home, ws, "relay", "uninstall")
    assert undo.returncode == 0, undo.stderr
    assert listing(cline_global(home)) == {}


def test_one_file_serves_both_runners_where_their_global_folders_are_one(
    isolated_home: Path, ws: Path
) -> None:
    home = isolated_home
    portable(home / ".config" / "hookd")
    dirs = home / ".config" / "user-dirs.dirs"
    dirs.write_text('XDG_DOCUMENTS_DIR="$HOME/Documents"\n')
    assert cline_global(home) == sdk_global(home)
    write_executable(sdk_global(home) / "PreToolUse.sh", f"#!/bin/sh\n{SDK_RELAY_LINE}\n")

    sdk = hookd("cline-sdk", home, ws, "relay", "install")
    assert sdk.returncode == 0, sdk.stderr
    assert sorted(listing(sdk_global(home))) == ["PreToolUse.sh", *CLINE_EVENTS[1:]]
    done = hookd("cline", home, ws, "relay", "install")
    again = hookd("cline-sdk", home, ws, "relay", "install")

    assert done.returncode == 0, done.stderr
    files = listing(cline_global(home))
    assert sorted(files) == CLINE_EVENTS  # PreToolUse.sh made way for the one both run
    assert RELAY_LINE in files["PreToolUse"]
    assert "nothing to change" in again.stdout, again.stdout
    assert runs_portable_from("cline-sdk", cline_global(home) / "PreToolUse", "tool_call")


def test_nothing_adopted_and_no_portable_hooks_is_still_refused(
    isolated_home: Path, ws: Path
) -> None:
    done = hookd("cline", isolated_home, ws, "relay", "install")

    assert done.returncode != 0
    assert "nothing is adopted" in done.stderr
    assert "hookd adopt" in done.stderr


def test_adopt_relays_the_adopted_and_the_portable_events_in_one_file_each(
    isolated_home: Path, ws: Path
) -> None:
    home = isolated_home
    portable(home / ".config" / "hookd")
    own = write_executable(cline_global(home) / "PreToolUse", "#!/bin/sh\necho '{}'\n")
    write_executable(cline_global(home) / "TaskComplete", "#!/bin/sh\ntrue\n")

    done = hookd("cline", home, ws, "adopt")

    assert done.returncode == 0, done.stderr
    files = listing(cline_global(home))
    assert sorted(files) == sorted([*CLINE_EVENTS, "TaskComplete"])
    assert all(RELAY_LINE in text for text in files.values())
    owned = home / ".config" / "hookd" / "cline" / os.path.relpath(own.parent, home)
    assert sorted(listing(owned)) == ["PreToolUse", "TaskComplete"]


def test_an_own_hook_in_the_way_is_said_and_left(isolated_home: Path, ws: Path) -> None:
    home = isolated_home
    portable(home / ".config" / "hookd")
    write_executable(cline_global(home) / "PreToolUse", "#!/bin/sh\necho '{}'\n")

    done = hookd("cline", home, ws, "relay", "install")

    assert done.returncode == 0, done.stderr
    assert "PreToolUse: " in done.stdout
    assert "agent's own hook" in done.stdout
    assert RELAY_LINE not in (cline_global(home) / "PreToolUse").read_text()
    assert sorted(listing(cline_global(home))) == CLINE_EVENTS


def test_a_projects_portable_hooks_run_from_the_global_folder(
    isolated_home: Path, ws: Path
) -> None:
    home = isolated_home
    portable(ws / ".hookd", {"hooks": {"PostToolUse": PORTABLE["hooks"]["PreToolUse"]}})

    done = hookd("cline", home, ws, "relay", "install", "--scope", "project")

    assert done.returncode == 0, done.stderr
    assert sorted(listing(cline_global(home))) == ["PostToolUse"]
    assert listing(ws / ".clinerules" / "hooks") == {}
    assert "global folder" in done.stdout
    assert runs_portable_from("cline", cline_global(home) / "PostToolUse", "PostToolUse")
    assert not runs_portable_from("cline", ws / ".clinerules" / "hooks" / "x", "PostToolUse")
