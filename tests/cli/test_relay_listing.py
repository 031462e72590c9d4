"""Relay entries are hookd's own, not hooks: ``hookd hooks`` (``hooks/list``'s ``relay``)
marks them, and ``hookd allow`` does not count them as hooks (issue 12)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import trio

from hookd_testing import write_executable, write_json

HOOKD = [sys.executable, "-m", "hookd"]
GUARD = {"type": "command", "command": "echo no >&2; exit 2"}


def cli_env(settings: Any) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOOKD_")}
    return {**env, "HOME": settings.home, "HOOKD_SOCKET": settings.socket_path}


def hookd(settings: Any, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, *args], capture_output=True, text=True,
                          env=cli_env(settings), timeout=60)  # fmt: skip


def adopted_project(settings: Any, workspace: Path) -> None:
    write_json(workspace / ".claude" / "settings.json",
               {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [GUARD]}]}})  # fmt: skip
    write_executable(workspace / ".clinerules" / "hooks" / "PreToolUse", "#!/bin/sh\necho '{}'\n")
    for agent in ("claude", "cline"):
        done = hookd(settings, "adopt", "--agent", agent, "--scope", "project",
                     "--project", str(workspace), "--home", settings.home)  # fmt: skip
        assert done.returncode == 0, done.stderr


async def test_hooks_marks_relay_entries(rpc, settings, workspace) -> None:
    adopted_project(settings, workspace)

    listing = await rpc.call("hooks/list", {"roots": [str(workspace)]})

    by_source = {(h["dialect"], h["source"]): h["relay"] for h in listing["hooks"]}
    claude_file = str(workspace / ".claude" / "settings.local.json")  # this machine's entries
    cline_file = str(workspace / ".clinerules" / "hooks" / "PreToolUse")
    assert by_source[("claude", claude_file)] is True
    assert by_source[("cline", cline_file)] is True
    owned = str(workspace / ".hookd" / "claude" / "settings.json")
    assert by_source[("claude", owned)] is False  # the adopted hook itself

    text = await trio.run_process([*HOOKD, "hooks", "--workspace", str(workspace)],
                                  env=cli_env(settings), capture_stdout=True,
                                  capture_stderr=True, check=False)  # fmt: skip
    assert text.returncode == 0, text.stderr
    lines = text.stdout.decode().splitlines()
    for source in (claude_file, cline_file):
        at = next(i for i, line in enumerate(lines) if line.endswith(f" {source}"))
        following = lines[at + 1 : at + 3]
        assert any("(relay entry, not run by hookd)" in line for line in following), lines
    at = next(i for i, line in enumerate(lines) if line.endswith(f" {owned}"))
    assert "relay entry" not in " ".join(lines[at : at + 2])


def test_allow_does_not_count_relay_entries_as_hooks(settings, workspace) -> None:
    adopted_project(settings, workspace)

    done = hookd(settings, "allow", str(workspace))

    assert done.returncode == 0, done.stderr
    head = done.stdout.splitlines()[0]
    # the adopted hooks (Claude's guard, Cline's file, which both Cline runners read) are
    # the hooks; the agent's settings entry (which Copilot CLI reads too, in the project's
    # .claude/settings.json) and relay file are hookd's own
    assert head.startswith(f"hookd: allowed {workspace}: 3 hook(s) and 4 relay entries,"), head
    assert done.stdout.count("(relay entry, not run by hookd)") == 4
