"""A project's subagent definitions are workspace files: their frontmatter hooks run only
once ``hookd allow`` recorded them (and Claude Code's own trust dialog was accepted), and
an edit revokes, as for the project's settings files."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from hookd.daemon.settings import Settings
from hookd_testing import write_json

INSIDE = {"agent_id": "a1", "agent_type": "checker", "tool_name": "Bash",
          "tool_input": {"command": "ls"}}  # fmt: skip


@pytest.fixture
def settings(settings: Settings, tmp_path: Path) -> Settings:
    return replace(settings, trust_all=False, state_dir=str(tmp_path / "state"))


def allow(workspace: Path, settings: Settings, tmp_path: Path) -> None:
    config = tmp_path / "hookd.toml"
    config.write_text(f"state_dir = {json.dumps(settings.state_dir)}\n")
    done = subprocess.run(
        [sys.executable, "-m", "hookd", "allow", str(workspace), "--config", str(config)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


async def test_a_project_subagent_runs_its_hooks_once_allowed(
    rpc, workspace, isolated_home, settings, tmp_path
) -> None:
    hooks = {"PreToolUse": [{"hooks": [{"type": "command", "command": "exit 2"}]}]}
    path = workspace / ".claude" / "agents" / "checker.md"
    path.parent.mkdir(parents=True)
    path.write_text(f"---\nname: checker\nhooks: {json.dumps(hooks)}\n---\n")
    write_json(isolated_home / ".claude.json",
               {"projects": {str(workspace): {"hasTrustDialogAccepted": True}}})  # fmt: skip

    async def fire() -> dict:
        return await rpc.fire("claude", "PreToolUse", [str(workspace)], INSIDE)

    before = await fire()
    allow(workspace, settings, tmp_path)
    allowed = await fire()
    path.write_text(path.read_text().replace("exit 2", "exit 0"))
    changed = await fire()

    assert before["hooks"][0]["error"].startswith("not run: untrusted")
    assert allowed["hooks"][0]["exitCode"] == 2
    assert "changed since" in changed["hooks"][0]["error"]
