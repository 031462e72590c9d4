"""What the daemon really answers matches the schemas the OpenRPC document publishes:
fire results of every dialect (blocks, contexts, rewrites, background hooks, spilled
text, errors), every ``$/progress`` value, ``status`` and ``hooks/list``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookd.protocol import load_openrpc
from hookd_testing import RpcClient, claude_settings, command, write_executable, write_json
from hookd_testing.schema import schema_errors

DOCUMENT = load_openrpc()
TOOL = {"tool_name": "Bash", "tool_input": {"command": "ls"}, "session_id": "s1"}


def assert_matches(value: Any, schema_name: str) -> None:
    schema = {"$ref": f"#/components/schemas/{schema_name}"}
    assert schema_errors(value, schema, DOCUMENT) == []


def _echo(output: dict[str, Any], exit_code: int = 0) -> str:
    return f"cat >/dev/null; echo '{json.dumps(output)}'; exit {exit_code}"


def _claude(workspace: Path) -> None:
    handlers = [
        command(_echo({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                              "permissionDecision": "deny",
                                              "permissionDecisionReason": "no"}})),
        command(_echo({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                              "additionalContext": "x" * 12_000}})),
        command(_echo({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                              "updatedInput": {"command": "ls -a"}}})),
        command("cat >/dev/null; echo broken; exit 1"),
        command("cat >/dev/null; exit 0", **{"async": True}),
    ]  # fmt: skip
    write_json(workspace / ".claude/settings.json", claude_settings("PreToolUse", *handlers))


def _cline(workspace: Path) -> None:
    out = {"cancel": True, "errorMessage": "stop", "contextModification": "ctx"}
    write_executable(workspace / ".clinerules/hooks/PreToolUse", f"#!/bin/sh\n{_echo(out)}\n")


def _cline_sdk(workspace: Path) -> None:
    hooks = workspace / ".cline/hooks"
    hooks.mkdir(parents=True)
    (hooks / "PreToolUse.sh").write_text(_echo({"context": "one", "review": True}))
    (hooks / "PreToolUse.py").write_text("this is not python")


def _augment(workspace: Path) -> None:
    script = write_executable(
        workspace / "hook.sh", f"#!/bin/sh\n{_echo({'decision': 'block', 'reason': 'r'}, 2)}\n"
    )
    write_json(workspace / ".augment/settings.json",
               {"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": str(script)}]}]}})  # fmt: skip


SETUPS = {"claude": _claude, "cline": _cline, "cline-sdk": _cline_sdk, "augment": _augment}


@pytest.mark.parametrize("agent", sorted(SETUPS))
async def test_fire_result_and_progress_match_the_schemas(
    agent: str, rpc: RpcClient, workspace: Path
) -> None:
    SETUPS[agent](workspace)
    payload = TOOL if agent != "cline" else {"preToolUse": {"toolName": "x"}}
    result = await rpc.fire(agent, "PreToolUse", [str(workspace)], payload, workDoneToken="t")

    assert result["hooks"], "the setup's hooks ran"
    if agent == "claude":  # the widest result: a spill, an error, a background hook
        assert result["asyncStarted"]
        assert any(h["spilled"] for h in result["hooks"])
        assert any(h["error"] for h in result["hooks"])
    assert_matches(result, "FireResult")
    progress = rpc.progress("t")
    assert [p["kind"] for p in (progress[0], progress[-1])] == ["begin", "end"]
    for value in progress:
        assert_matches(value, "ProgressValue")


async def test_a_fire_with_no_hooks_matches_the_schema(rpc: RpcClient, workspace: Path) -> None:
    assert_matches(await rpc.fire("claude", "Stop", [str(workspace)], {}), "FireResult")


async def test_status_and_listing_match_the_schemas(rpc: RpcClient, workspace: Path) -> None:
    _claude(workspace)
    _cline_sdk(workspace)
    await rpc.fire("claude", "PreToolUse", [str(workspace)], TOOL)
    assert_matches(await rpc.call("status"), "Status")
    assert_matches(await rpc.call("hooks/list", {}), "Listing")


def test_the_checker_finds_a_wrong_result() -> None:
    """The checker is not vacuous: a wrong type and a missing field are both reported."""
    errors = schema_errors(
        {"blocked": "yes"}, {"$ref": "#/components/schemas/FireResult"}, DOCUMENT
    )
    assert any("blocked" in e and "type" in e for e in errors)
    assert any("missing 'hooks'" in e for e in errors)
