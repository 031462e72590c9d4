"""Claude Code plugins under trust (issue 28), laid out as ``claude plugin install``
writes them: a plugin the user enabled is the user's and runs in every folder, allowed or
not; one that only a project's settings enable is that project's decision, and the fire
says so; ``hooks/list`` for a workspace shows the plugins installed for it."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import trio

from hookd.daemon.settings import Settings
from hookd_testing import command, write_json
from hookd_testing.claude_plugins import fire, install

HOOKD = [sys.executable, "-m", "hookd"]
PLUGIN = "guard@local"
BLOCK = {"PreToolUse": [{"matcher": "Bash", "hooks": [command("echo plugin says no >&2; exit 2")]}]}


@pytest.fixture
def settings(settings: Settings, tmp_path: Path) -> Settings:
    return replace(settings, trust_all=False, state_dir=str(tmp_path / "state"))


async def test_a_plugin_the_user_enabled_runs_in_a_folder_never_allowed(
    rpc, workspace, settings, tmp_path
) -> None:
    install(Path(settings.home), tmp_path / "market", "guard", BLOCK)

    result = await fire(rpc, workspace)

    assert result["reason"] == "plugin says no"  # the plugin's own block, not "untrusted"
    assert not any("untrusted" in w for w in result["warnings"]), result["warnings"]


async def test_a_plugin_only_the_project_enables_waits_for_allow(
    rpc, workspace, settings, tmp_path
) -> None:
    install(Path(settings.home), tmp_path / "market", "guard", BLOCK, enabled=None)
    project = workspace / ".claude" / "settings.json"
    write_json(project, {"enabledPlugins": {PLUGIN: True}})

    waiting = await fire(rpc, workspace)

    assert waiting["hooks"] == []
    [said] = [w for w in waiting["warnings"] if str(project) in w]
    assert "its settings (enabledPlugins) do not apply: untrusted" in said
    assert f"hookd allow {workspace}" in said
    config = tmp_path / "hookd.toml"
    config.write_text(f"state_dir = {json.dumps(settings.state_dir)}\n")
    allowed = await trio.run_process([*HOOKD, "allow", str(workspace), "--config", str(config)],
                                     capture_stdout=True, capture_stderr=True, check=False)  # fmt: skip
    assert allowed.returncode == 0, allowed.stderr
    assert (await fire(rpc, workspace))["reason"] == "plugin says no"


async def test_listing_a_workspace_shows_the_plugins_installed_for_it(
    rpc, settings, tmp_path
) -> None:
    """Every workspace shares ``~/.claude/plugins``; a project-scope install belongs to its
    project: listed for it (even after another workspace was listed first), not for another."""
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    install(Path(settings.home), tmp_path / "market", "guard", BLOCK, project=second)
    write_json(second / ".claude" / "settings.json", {"enabledPlugins": {PLUGIN: True}})

    of_first = await rpc.call("hooks/list", {"roots": [str(first)]})
    of_second = await rpc.call("hooks/list", {"roots": [str(second)]})

    def plugin_hooks(listing: dict[str, Any]) -> list[dict[str, Any]]:
        return [h for h in listing["hooks"] if h["layer"] == "plugin"]

    assert plugin_hooks(of_first) == []
    [listed] = plugin_hooks(of_second)
    assert listed["source"] == str(
        tmp_path / "market" / "plugins" / "guard" / "hooks" / "hooks.json"
    )
    assert all(h["root"] in (None, str(second)) for h in of_second["hooks"])


async def test_a_plugin_installed_but_not_enabled_is_listed_as_off(
    rpc, workspace, settings, tmp_path
) -> None:
    install(Path(settings.home), tmp_path / "market", "guard", BLOCK, enabled=False)

    listing = await rpc.call("hooks/list", {"roots": [str(workspace)]})

    [listed] = [h for h in listing["hooks"] if h["layer"] == "plugin"]
    assert listed["off"] == "the plugin guard@local is installed but not enabled (enabledPlugins)"
    write_json(Path(settings.home) / ".claude" / "settings.json",
               {"enabledPlugins": {PLUGIN: True}})  # fmt: skip
    listing = await rpc.call("hooks/list", {"roots": [str(workspace)]})
    assert [h["off"] for h in listing["hooks"] if h["layer"] == "plugin"] == [None]
