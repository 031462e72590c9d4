"""A workspace that is not an existing folder: ``hookd fire`` and ``hookd hooks`` refuse it
(a typo would otherwise run none of the intended workspace's hooks and answer "proceed");
the daemon, which an agent may call from a folder deleted under it, fires all the same
and says so in the result's ``warnings``. A real daemon process throughout."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookd_testing import claude_settings, command, write_json
from hookd_testing.process_daemon import ProcessDaemon, process_daemon

HOOKD = [sys.executable, "-m", "hookd"]
DENY = command("echo 'not here' >&2; exit 2")


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[ProcessDaemon]:
    with process_daemon(tmp_path) as running:
        yield running


def hookd(daemon: ProcessDaemon, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, "--socket", daemon.socket, *args], capture_output=True,
                          text=True, timeout=60)  # fmt: skip


@pytest.mark.parametrize("command_line", [("fire", "PreToolUse", "--agent", "claude",
                                           "--no-payload"), ("hooks",)])  # fmt: skip
def test_a_workspace_that_is_not_a_folder_is_an_error(daemon, workspace, tmp_path,
                                                      command_line) -> None:  # fmt: skip
    write_json(workspace / ".claude/settings.json", claude_settings("PreToolUse", DENY))
    (tmp_path / "a-file").write_text("")

    for wrong in (tmp_path / "typo", tmp_path / "a-file"):
        done = hookd(daemon, *command_line, "--workspace", str(workspace),
                     "--workspace", str(wrong))  # fmt: skip

        assert done.returncode == 1, done.stdout
        assert (
            done.stderr == f"hookd: not a directory: {wrong}: name an existing workspace folder\n"
        )
        assert done.stdout == ""
    assert daemon.status()["fires"] == 0  # refused before anything was fired


def test_fire_from_a_deleted_current_folder_says_to_name_the_workspace(daemon, tmp_path) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    done = subprocess.run(
        ["sh", "-c", f'cd "{gone}" && rmdir "{gone}" && exec "$0" -m hookd --socket "$1" '
         "fire Stop --agent claude --no-payload", sys.executable, daemon.socket],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip

    assert done.returncode == 1, done.stderr
    assert "the current folder no longer exists: name the workspace folder with --workspace" in (
        done.stderr
    )


def test_the_daemon_fires_for_a_missing_root_and_warns(daemon, workspace, tmp_path) -> None:
    """The RPC caller (an agent in a deleted folder): user-level hooks still run, and the
    result's warnings name the root that is not there."""
    user_hook = daemon.home / ".claude/settings.json"
    write_json(user_hook, claude_settings("PreToolUse", DENY))
    deleted = tmp_path / "deleted"
    deleted.mkdir()
    write_json(deleted / ".claude/settings.json", claude_settings("PreToolUse", command("true")))
    assert (
        daemon.fire("claude", "PreToolUse", [str(deleted)], {"tool_name": "Bash"})["warnings"] == []
    )
    (deleted / ".claude/settings.json").unlink()
    (deleted / ".claude").rmdir()
    deleted.rmdir()

    result = daemon.fire("claude", "PreToolUse", [str(workspace), str(deleted)],
                         {"tool_name": "Bash"})  # fmt: skip

    assert result["blocked"] is True  # the user's hook ran
    assert [hook["source"] for hook in result["hooks"]] == [str(user_hook)]
    assert result["warnings"] == [
        f"workspace root {deleted} is not an existing folder: no hooks from it ran (a typo, "
        "or a folder deleted under the agent?)"
    ]
