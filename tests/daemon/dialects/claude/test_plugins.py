"""Claude Code plugin hooks through the daemon, with the plugin files laid out as Claude
Code 2.1.328 writes them (``claude plugin install`` from a local marketplace; the real
agent does the same in tests/agents/claude ``[plugin-*]``)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from hookd_testing import claude_settings, command, write_json
from hookd_testing.claude_plugins import fire, install, pre

PLUGIN = "guard@local"


async def test_an_enabled_plugin_hook_runs_from_the_marketplace_folder(
    rpc, workspace, settings, tmp_path
) -> None:
    """CLAUDE_PLUGIN_ROOT is the directory marketplace's live folder; CLAUDE_PLUGIN_DATA
    is made before the hook runs."""
    home = Path(settings.home)
    root = install(home, tmp_path / "market", "guard", pre(command(
        'echo "$CLAUDE_PLUGIN_ROOT|$CLAUDE_PLUGIN_DATA" >&2; test -d "$CLAUDE_PLUGIN_DATA"'
        " && exit 2")))  # fmt: skip

    result = await fire(rpc, workspace)

    data = home / ".claude" / "plugins" / "data" / "guard-local"
    assert result["blocked"] is True
    assert result["reason"] == f"{root}|{data}"
    assert result["hooks"][0]["layer"] == "plugin"
    assert result["hooks"][0]["source"] == str(root / "hooks" / "hooks.json")


async def test_enabled_plugins_merge_over_the_layers(rpc, workspace, settings, tmp_path) -> None:
    """A project's enabledPlugins false beats the user's true; absent means off."""
    install(Path(settings.home), tmp_path / "market", "guard", pre(command("exit 2")))
    write_json(workspace / ".claude" / "settings.json", {"enabledPlugins": {PLUGIN: False}})
    assert (await fire(rpc, workspace))["hooks"] == []

    write_json(workspace / ".claude" / "settings.json", {})
    assert (await fire(rpc, workspace))["blocked"] is True

    install(Path(settings.home), tmp_path / "market", "other", pre(command("exit 2")), enabled=None)
    assert len((await fire(rpc, workspace))["hooks"]) == 1  # "other" is installed, not enabled


async def test_plugin_json_names_more_hooks_and_options_reach_the_env(
    rpc, workspace, settings, tmp_path
) -> None:
    """plugin.json's hooks (a path and an inline object) add to hooks/hooks.json;
    pluginConfigs options become CLAUDE_PLUGIN_OPTION_<KEY> (String() of the value);
    ${user_config.KEY} is filled in exec-form args, each a plain argument."""
    home = Path(settings.home)
    inline = command('echo "inline $CLAUDE_PLUGIN_OPTION_API_LEVEL $CLAUDE_PLUGIN_OPTION_VERBOSE"'
                     " >&2; exit 2")  # fmt: skip
    root = install(home, tmp_path / "market", "guard", pre(command("echo default >&2; exit 2")),
                   manifest={"hooks": ["./more.json", {"hooks": pre(inline)}]})  # fmt: skip
    exec_form = {"type": "command", "command": "sh",
                 "args": ["-c", 'echo "exec $0 $1" >&2; exit 2', "${user_config.api_level}x",
                          "${user_config.verbose}"]}  # fmt: skip
    write_json(root / "more.json", {"hooks": pre(exec_form)})
    user = json.loads((home / ".claude" / "settings.json").read_text())
    user["pluginConfigs"] = {PLUGIN: {"options": {"api_level": "3", "verbose": True}}}
    write_json(home / ".claude" / "settings.json", user)

    result = await fire(rpc, workspace)

    assert result["reason"].splitlines() == ["default", "exec 3x true", "inline 3 true"]


async def test_user_config_in_a_shell_form_command_is_refused(
    rpc, workspace, settings, tmp_path
) -> None:
    """The agent refuses ${user_config.*} in a shell-form plugin command (the value would
    be re-parsed by the shell); the warning says what to write instead."""
    install(Path(settings.home), tmp_path / "market", "guard",
            pre(command("echo ${user_config.token}; exit 2")))  # fmt: skip

    result = await fire(rpc, workspace)

    assert result["hooks"] == []
    assert any("shell-form command" in w and "CLAUDE_PLUGIN_OPTION_" in w
               for w in result["warnings"])  # fmt: skip


async def test_a_plugin_copy_and_a_settings_copy_both_run(
    rpc, workspace, settings, tmp_path
) -> None:
    """[plugin-same-handler-as-settings]: the same command in a plugin and a settings
    file is two handlers; the settings copy has no CLAUDE_PLUGIN_ROOT."""
    handler = command('echo "root=${CLAUDE_PLUGIN_ROOT:-none}" >&2; exit 2')
    install(Path(settings.home), tmp_path / "market", "guard", pre(handler))
    write_json(workspace / ".claude" / "settings.json", claude_settings("PreToolUse", handler))

    result = await fire(rpc, workspace)

    assert [h["layer"] for h in result["hooks"]] == ["project", "plugin"]
    assert result["reason"].startswith("root=none")


async def test_an_edited_hooks_json_is_read_at_the_next_fire(
    rpc, workspace, settings, tmp_path
) -> None:
    """The plugin files are cached by signature, and read again when they change."""
    root = install(Path(settings.home), tmp_path / "market", "guard", pre(command("exit 0")))
    assert (await fire(rpc, workspace))["blocked"] is False

    write_json(root / "hooks" / "hooks.json", {"hooks": pre(command("echo edited >&2; exit 2"))})
    os.utime(root / "hooks" / "hooks.json", ns=(1, 1))  # a new signature, whatever the clock

    assert (await fire(rpc, workspace))["reason"] == "edited"


async def test_broken_plugin_and_drop_in_files_are_reported_as_settings_errors_are(
    rpc, workspace, settings, tmp_path
) -> None:
    """A plugin's hooks.json that is not JSON, a plugin.json naming a hooks file that is
    not there, and a managed drop-in that is not JSON each reach every fire's warnings,
    ``status`` and ``hooks/list`` (the other hooks still run)."""
    home = Path(settings.home)
    root = install(home, tmp_path / "market", "guard", pre(command("exit 2")),
                   manifest={"hooks": "./extra.json"})  # fmt: skip
    (root / "hooks" / "hooks.json").write_text("{not json")
    dropin = Path(settings.system_root) / "etc" / "claude-code" / "managed-settings.d" / "9.json"
    dropin.parent.mkdir(parents=True)
    dropin.write_text("[1,")
    write_json(workspace / ".claude" / "settings.json", claude_settings("PreToolUse", command(
        "echo settings-ran >&2; exit 2"), matcher="Bash"))  # fmt: skip

    result = await fire(rpc, workspace)
    status = await rpc.call("status")
    listing = await rpc.call("hooks/list", {})

    assert result["reason"] == "settings-ran"
    plugins, dropins = str(home / ".claude" / "plugins"), str(dropin.parent)
    for text in (str(root / "hooks" / "hooks.json"), str(root / "extra.json"), str(dropin)):
        assert any(text in w for w in result["warnings"]), (text, result["warnings"])
    for errors in (status["sourceErrors"], listing["errors"]):
        by_source = {e["source"]: e["error"] for e in errors}
        assert str(root / "extra.json") in by_source[plugins]
        assert str(dropin) in by_source[dropins]
