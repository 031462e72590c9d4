"""``hookd adopt`` / ``unadopt`` / ``relay install`` / ``uninstall`` for the Cline hook
folders, through the real ``hookd`` command, on real files (issue 12)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookd_testing import write_executable
from hookd_testing.relays import ENTRY_RELAY

HOOKD = [sys.executable, "-m", "hookd"]
RELAY = ENTRY_RELAY
"""The relay entries name this installation's hookd-relay by its path."""
CANCEL = "#!/bin/sh\necho '{\"cancel\": true}'\n"


def hookd(agent: str, home: Path, project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, *args, "--agent", agent, "--home", str(home),
                           "--project", str(project)],
                          capture_output=True, text=True, timeout=60)  # fmt: skip


@pytest.fixture
def places(tmp_path: Path) -> dict[str, Path]:
    """A workspace whose .clinerules/hooks both Cline runners read: a PreToolUse hook
    (mode 0750), a helper it keeps beside it, an SDK-only TaskError.sh, and a folder."""
    ws, home = tmp_path / "ws", tmp_path / "home"
    hooks = ws / ".clinerules" / "hooks"
    write_executable(hooks / "PreToolUse", CANCEL).chmod(0o750)
    (hooks / "helper.txt").write_text("kept beside the hook")
    write_executable(hooks / "TaskError.sh", "#!/bin/sh\ntrue\n")
    (hooks / "notes").mkdir()
    home.mkdir(exist_ok=True)
    return {"ws": ws, "home": home, "hooks": hooks,
            "owned": ws / ".hookd" / "cline" / ".clinerules" / "hooks"}  # fmt: skip


def _tree(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_text() for p in sorted(folder.rglob("*"))
            if p.is_file()}  # fmt: skip


def test_adopt_moves_the_folders_files_and_puts_one_relay_file_per_event(places) -> None:
    before = _tree(places["hooks"])

    done = hookd("cline", places["home"], places["ws"], "adopt", "--scope", "project")

    assert done.returncode == 0, done.stderr
    hooks, owned = places["hooks"], places["owned"]
    assert _tree(owned) == {k: v for k, v in before.items() if not k.startswith("notes")}
    assert (owned / "PreToolUse").stat().st_mode & 0o777 == 0o750  # the mode is kept
    assert sorted(p.name for p in hooks.iterdir()) == ["PreToolUse", "TaskError.sh", "notes"]
    relay = (hooks / "PreToolUse").read_text()
    assert f'exec {RELAY} cline "$0"' in relay
    assert os.access(hooks / "PreToolUse", os.X_OK)
    assert "hookd allow" in done.stdout


def test_dry_run_writes_nothing_and_adopt_twice_changes_nothing(places) -> None:
    before = _tree(places["ws"])
    dry = hookd("cline", places["home"], places["ws"], "adopt", "--scope", "project", "--dry-run")
    assert dry.returncode == 0
    assert "place " in dry.stdout
    assert f"+exec {RELAY} cline" in dry.stdout
    assert _tree(places["ws"]) == before

    assert (
        hookd("cline", places["home"], places["ws"], "adopt", "--scope", "project").returncode == 0
    )
    after = _tree(places["ws"])
    again = hookd("cline-sdk", places["home"], places["ws"], "adopt", "--scope", "project")

    assert "nothing to change" in again.stdout, again.stdout  # the SDK reads the same folder
    assert _tree(places["ws"]) == after


def test_unadopt_gives_the_files_back_with_their_mode(places) -> None:
    before = _tree(places["hooks"])
    assert (
        hookd("cline", places["home"], places["ws"], "adopt", "--scope", "project").returncode == 0
    )

    done = hookd("cline", places["home"], places["ws"], "unadopt", "--scope", "project")

    assert done.returncode == 0, done.stderr
    assert _tree(places["hooks"]) == before
    assert (places["hooks"] / "PreToolUse").stat().st_mode & 0o777 == 0o750
    assert not (places["ws"] / ".hookd").exists()  # hookd's emptied folders go


def test_relay_uninstall_and_install(places) -> None:
    assert (
        hookd("cline", places["home"], places["ws"], "adopt", "--scope", "project").returncode == 0
    )

    gone = hookd("cline", places["home"], places["ws"], "relay", "uninstall", "--scope", "project")
    assert "will not run inside the agent" in gone.stdout
    assert sorted(p.name for p in places["hooks"].iterdir()) == ["notes"]

    back = hookd("cline", places["home"], places["ws"], "relay", "install", "--scope", "project")
    assert "relaying PreToolUse, TaskError" in back.stdout
    names = sorted(p.name for p in places["hooks"].iterdir())
    assert names == ["PreToolUse", "TaskError.sh", "notes"]


def test_a_new_hook_beside_what_was_adopted_is_refused_with_what_to_do(places) -> None:
    """Adopting again a folder whose hook's name hookd already holds: nothing moves."""
    assert (
        hookd("cline", places["home"], places["ws"], "adopt", "--scope", "project").returncode == 0
    )
    write_executable(places["hooks"] / "helper.txt", "new text")
    before = _tree(places["ws"])

    done = hookd("cline", places["home"], places["ws"], "adopt", "--scope", "project")

    assert done.returncode == 1
    assert "already holds helper.txt" in done.stderr
    assert _tree(places["ws"]) == before


def test_the_global_folder_and_a_moved_symlink(tmp_path: Path) -> None:
    """--scope user: the original runner's global folder (~/Cline/Hooks without
    user-dirs.dirs); a relative symlink still points at its script once moved."""
    home = tmp_path / "home"
    script = write_executable(home / "scripts" / "start.sh", CANCEL)
    (home / "Cline" / "Hooks").mkdir(parents=True)
    (home / "Cline" / "Hooks" / "TaskStart").symlink_to("../../scripts/start.sh")

    done = hookd("cline", home, tmp_path, "adopt")

    assert done.returncode == 0, done.stderr
    moved = home / ".config" / "hookd" / "cline" / "Cline" / "Hooks" / "TaskStart"
    assert moved.is_symlink()
    assert moved.resolve() == script.resolve()
    assert "hookd-relay" in (home / "Cline" / "Hooks" / "TaskStart").read_text()


def test_a_scope_the_agent_has_not(places) -> None:
    done = hookd("cline", places["home"], places["ws"], "adopt", "--scope", "local")

    assert done.returncode == 1
    assert "not a cline scope" in done.stderr
