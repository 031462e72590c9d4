"""Gemini CLI's hooks through a real daemon: which files, in which order, with what stdin,
shell and folder; the switches of ``hooksConfig``; hooks run in order handing their
rewrites on (gemini-research.md §1, §3, §4)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hookd_testing import write_json

BEFORE_TOOL = {"session_id": "s", "transcript_path": "", "cwd": "",
               "hook_event_name": "BeforeTool", "timestamp": "2026-11-27T18:22:19.484Z",
               "tool_name": "run_shell_command", "tool_input": {"command": "ls"}}  # fmt: skip


def settings_file(path: Path, event: str, *commands: str, **more: Any) -> Path:
    group: dict[str, Any] = {"hooks": [{"type": "command", "command": c} for c in commands]}
    top = more.pop("top", {})
    group.update(more)
    write_json(path, {**top, "hooks": {event: [group]}})
    return path


def payload(workspace: Path, **more: Any) -> dict[str, Any]:
    return {**BEFORE_TOOL, "cwd": str(workspace), **more}


async def test_every_file_adds_up_in_geminis_order(rpc, settings, workspace, tmp_path) -> None:
    """gemini-research.md §1.2: user, then project, then the extensions; every hook gets
    JSON.stringify's bytes, no newline."""
    home = Path(settings.home)
    settings_file(home / ".gemini" / "settings.json", "BeforeTool", f"cat > {tmp_path}/stdin")
    settings_file(workspace / ".gemini" / "settings.json", "BeforeTool", "echo project")
    extension = home / ".gemini" / "extensions" / "guard"
    write_json(extension / "gemini-extension.json", {"name": "guard", "version": "1.0.0"})
    write_json(extension / "hooks" / "hooks.json", {"hooks": {"BeforeTool": [
        {"hooks": [{"type": "command", "command": "echo ${extensionPath}"}]}]}})  # fmt: skip
    sent = payload(workspace, x=0.000025, u="caf\u00e9\u2028")

    result = await rpc.fire("gemini", "BeforeTool", [str(workspace)], sent)

    assert [(h["layer"], h["command"]) for h in result["hooks"]] == [
        ("user", f"cat > {tmp_path}/stdin"), ("project", "echo project"),
        ("extension", f"echo {extension}")]  # fmt: skip
    written = json.dumps(sent, separators=(",", ":"), ensure_ascii=False)
    assert (tmp_path / "stdin").read_bytes() == written.replace("2.5e-05", "0.000025").encode()


async def test_switches_and_duplicates(rpc, settings, workspace) -> None:
    """gemini-research.md §1.2, §1.3: ``hooksConfig.disabled`` from any file; the same name
    and command twice run once; ``hooksConfig.enabled: false`` switches every hook off."""
    home = Path(settings.home) / ".gemini" / "settings.json"
    settings_file(home, "BeforeTool", "echo same", "echo off",
                  top={"hooksConfig": {"disabled": ["echo off"]}})  # fmt: skip
    settings_file(workspace / ".gemini" / "settings.json", "BeforeTool", "echo same")

    result = await rpc.fire("gemini", "BeforeTool", [str(workspace)], payload(workspace))
    assert [h["command"] for h in result["hooks"]] == ["echo same"]

    settings_file(workspace / ".gemini" / "settings.json", "BeforeTool", "echo same",
                  top={"hooksConfig": {"enabled": False}})  # fmt: skip
    result = await rpc.fire("gemini", "BeforeTool", [str(workspace)], payload(workspace))
    assert result["hooks"] == []


async def test_in_order_the_next_hook_gets_the_rewrite(rpc, settings, workspace, tmp_path) -> None:
    """gemini-research.md §4: one group marked sequential runs every hook in order; the
    second hook is given the first one's tool_input merged in; the last rewrite is used."""
    first = json.dumps({"hookSpecificOutput": {"tool_input": {"description": "from a"}}})
    last = json.dumps({"hookSpecificOutput": {"tool_input": {"command": "b"}}})
    write_json(Path(settings.home) / ".gemini" / "settings.json", {"hooks": {"BeforeTool": [
        {"sequential": True, "hooks": [{"type": "command", "command": f"echo '{first}'"}]},
        {"hooks": [{"type": "command", "command": f"cat > {tmp_path}/second; echo '{last}'"}]},
    ]}})  # fmt: skip

    result = await rpc.fire("gemini", "BeforeTool", [str(workspace)], payload(workspace))

    second = json.loads((tmp_path / "second").read_text())
    assert second["tool_input"] == {"command": "ls", "description": "from a"}
    assert result["updatedInput"] == {"command": "b"}
    assert result["action"] == "proceed"


async def test_a_deny_and_what_the_relay_would_print(rpc, settings, workspace) -> None:
    settings_file(Path(settings.home) / ".gemini" / "settings.json", "BeforeTool",
                  "echo no >&2; exit 2", "echo '{\"systemMessage\": \"hi\"}'")  # fmt: skip

    result = await rpc.fire("gemini", "BeforeTool", [str(workspace)], payload(workspace))

    assert (result["blocked"], result["reason"], result["action"]) == (True, "no", "block")
    assert result["native"] == {"continue": True, "suppressOutput": False, "decision": "deny",
                                "reason": "no", "systemMessage": "hi"}  # fmt: skip


async def test_a_folder_gemini_does_not_trust_runs_only_extensions(
    rpc, settings, workspace
) -> None:
    """gemini-research.md §8: in a folder Gemini's trust says no to, only extensions' hooks
    run (the settings files' are dropped, the user's too)."""
    home = Path(settings.home)
    settings_file(home / ".gemini" / "settings.json", "BeforeTool", "echo user")
    extension = home / ".gemini" / "extensions" / "guard"
    write_json(extension / "gemini-extension.json", {"name": "guard", "version": "1.0.0"})
    write_json(extension / "hooks" / "hooks.json", {"hooks": {"BeforeTool": [
        {"hooks": [{"type": "command", "command": "echo extension"}]}]}})  # fmt: skip
    write_json(home / ".gemini" / "trustedFolders.json", {str(workspace): "DO_NOT_TRUST"})
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}

    result = await rpc.fire("gemini", "BeforeTool", [str(workspace)], payload(workspace), env=env)

    assert [h["command"] for h in result["hooks"]] == ["echo extension"]
    assert any("does not trust" in w for w in result["warnings"])
    trusted = {**env, "GEMINI_CLI_TRUST_WORKSPACE": "true"}
    result = await rpc.fire(
        "gemini", "BeforeTool", [str(workspace)], payload(workspace), env=trusted
    )
    assert [h["command"] for h in result["hooks"]] == ["echo user", "echo extension"]


async def test_the_extensions_folder_is_no_source_error(rpc, settings, workspace) -> None:
    """The extensions' folder is read as a folder by ``status`` and ``hooks/list`` too
    (reading it as a settings file would be an error)."""
    extension = Path(settings.home) / ".gemini" / "extensions" / "guard"
    write_json(extension / "gemini-extension.json", {"name": "guard", "version": "1.0.0"})
    write_json(extension / "hooks" / "hooks.json", {"hooks": {"SessionEnd": [
        {"hooks": [{"type": "command", "command": "true"}]}]}})  # fmt: skip
    fired = await rpc.fire("gemini", "SessionEnd", [str(workspace)], payload(workspace))
    assert [h["layer"] for h in fired["hooks"]] == ["extension"], fired

    status = await rpc.call("status")

    assert status["sourceErrors"] == [], status["sourceErrors"]
    listed = await rpc.call("hooks/list", {"roots": [str(workspace)]})
    assert "guard" in json.dumps(listed)
