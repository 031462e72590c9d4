"""``status`` says when an agent's installed relay does not carry an event the portable
files use (its portable hooks would never run there), with the command that fixes it."""

from __future__ import annotations

from pathlib import Path

from hookd_testing import claude_settings, command, write_json

RELAY = {"type": "command", "name": "hookd", "command": "/opt/hookd/bin/hookd-relay gemini"}


async def test_status_names_the_event_an_installed_relay_lacks(
    rpc, workspace, isolated_home
) -> None:
    write_json(isolated_home / ".config" / "hookd" / "hooks.json",
               {"hooks": {**claude_settings("PreToolUse", command("true"), matcher="Bash")["hooks"],
                          **claude_settings("UserPromptSubmit", command("true"))["hooks"]}})  # fmt: skip
    write_json(isolated_home / ".gemini" / "settings.json",
               {"hooks": {"BeforeAgent": [{"hooks": [RELAY]}]}})  # fmt: skip
    await rpc.call("roots/add", {"roots": [str(workspace)]})

    status = await rpc.call("status")

    assert status["portable"]["uncarried"] == [{
        "agent": "gemini", "event": "BeforeTool", "sharedEvent": "PreToolUse",
        "fix": "hookd relay install --agent gemini"}]  # fmt: skip


async def test_no_relay_no_complaint(rpc, workspace, isolated_home) -> None:
    """An agent whose relay is not installed at all is not reached by hookd: nothing to say
    per event (``hookd hooks`` and ``doctor`` say where portable hooks run)."""
    write_json(isolated_home / ".config" / "hookd" / "hooks.json",
               claude_settings("PreToolUse", command("true")))  # fmt: skip

    status = await rpc.call("status")

    assert status["portable"]["uncarried"] == []


async def test_a_relay_fire_warns_of_the_events_its_relay_lacks(
    rpc, workspace, isolated_home
) -> None:
    write_json(isolated_home / ".config" / "hookd" / "hooks.json",
               claude_settings("PreToolUse", command("true"), matcher="Bash"))  # fmt: skip
    write_json(isolated_home / ".gemini" / "settings.json",
               {"hooks": {"BeforeAgent": [{"hooks": [RELAY]}]}})  # fmt: skip

    relayed = await rpc.fire("gemini", "BeforeAgent", [str(workspace)], {"prompt": "x"}, relay=True)
    direct = await rpc.fire("gemini", "BeforeAgent", [str(workspace)], {"prompt": "x"})

    assert "gemini's relay does not carry BeforeTool (PreToolUse)" in " ".join(relayed["warnings"])
    assert "hookd relay install --agent gemini" in " ".join(relayed["warnings"])
    assert not any("relay does not carry" in w for w in direct["warnings"])


async def test_a_cline_relay_file_counts_only_in_the_global_folder(
    rpc, workspace, isolated_home
) -> None:
    """Cline runs the portable hooks from the relay file of its global ``Cline/Hooks``
    folder only (one run per event): a project's relay file alone does not carry them."""
    from hookd.daemon.dialects.cline.dialect import documents_folder
    from hookd_testing import write_executable

    relay_file = '#!/bin/sh\nexec hookd-relay cline "$0"\n'
    write_json(isolated_home / ".config" / "hookd" / "hooks.json",
               claude_settings("PreToolUse", command("true"), matcher="Bash"))  # fmt: skip
    write_executable(workspace / ".clinerules" / "hooks" / "PreToolUse", relay_file)
    await rpc.call("roots/add", {"roots": [str(workspace)]})

    project_only = (await rpc.call("status"))["portable"]["uncarried"]
    documents = documents_folder(str(isolated_home))  # Cline's own rule (xdg-user-dir)
    write_executable(Path(documents) / "Cline" / "Hooks" / "PreToolUse", relay_file)
    with_global = (await rpc.call("status"))["portable"]["uncarried"]

    assert {"agent": "cline", "event": "PreToolUse", "sharedEvent": "PreToolUse",
            "fix": "hookd relay install --agent cline"} in project_only  # fmt: skip
    assert not [e for e in with_global if e["agent"] == "cline"]
