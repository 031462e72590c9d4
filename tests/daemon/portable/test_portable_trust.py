"""``<project>/.hookd/hooks.json`` is a workspace file like the agents' own project files:
it runs only once ``hookd allow`` (the real CLI) allowed the workspace, and a change to it
revokes (with trust on: ``trust_all`` off)."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from hookd.daemon.settings import Settings
from hookd_testing import RpcClient, claude_settings, command, write_json


@pytest.fixture
def settings(settings: Settings, tmp_path: Path) -> Settings:
    return replace(settings, trust_all=False, state_dir=str(tmp_path / "state"))


def allow(workspace: Path, settings: Settings, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    config = tmp_path / "hookd.toml"
    config.write_text(f"state_dir = {json.dumps(settings.state_dir)}\n")
    return subprocess.run(
        [sys.executable, "-m", "hookd", "allow", str(workspace), "--config", str(config)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


async def test_a_project_portable_file_runs_once_allowed(
    rpc: RpcClient, workspace: Path, settings: Settings, tmp_path: Path
) -> None:
    portable = write_json(workspace / ".hookd" / "hooks.json",
                          claude_settings("UserPromptSubmit", command("echo from-project")))  # fmt: skip

    before = await rpc.fire("gemini", "BeforeAgent", [str(workspace)], {"prompt": "x"})
    allowed = allow(workspace, settings, tmp_path)
    after = await rpc.fire("gemini", "BeforeAgent", [str(workspace)], {"prompt": "x"})
    write_json(portable, claude_settings("UserPromptSubmit", command("echo changed")))
    changed = await rpc.fire("gemini", "BeforeAgent", [str(workspace)], {"prompt": "x"})

    assert before["context"] is None
    assert any("hookd allow" in w for w in before["warnings"]), before["warnings"]
    assert allowed.returncode == 0, allowed.stderr
    assert str(portable) in allowed.stdout
    assert after["context"] == "from-project"
    assert any("hookd allow" in w for w in changed["warnings"]), changed["warnings"]
    assert changed["context"] is None
