"""Factory Droid's hooks through a real daemon: which files, in which order, with what
stdin, shell, folder and variables; the first-hit rules of its answers
(droid-research.md §1, §3, §4, §5)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hookd_testing import write_json

BASE = {"session_id": "s1", "transcript_path": "/t.jsonl", "cwd": "",
        "permission_mode": "auto-high"}  # fmt: skip
TOOL_INPUT = {"command": "touch ran.txt", "riskLevelReason": "r", "riskLevel": "low"}


def pre(workspace: Path, **extra: Any) -> dict[str, Any]:
    return {**BASE, "cwd": str(workspace), "hook_event_name": "PreToolUse",
            "tool_name": "Execute", "tool_input": dict(TOOL_INPUT), **extra}  # fmt: skip


def group(*commands: str, **fields: Any) -> dict[str, Any]:
    return {**fields, "hooks": [{"type": "command", "command": c} for c in commands]}


def answer(**specific: Any) -> str:
    return "echo '" + json.dumps({"hookSpecificOutput": specific}) + "'"


async def test_layers_in_priority_order_and_hooks_json_replaces_per_event(
    rpc, settings, workspace, tmp_path
) -> None:
    """§1.1, §1.3: project before user; in one folder hooks.json's list replaces
    settings.json's for the events it names; no de-duplication."""
    out = tmp_path / "order"
    home = Path(settings.home) / ".factory"
    write_json(home / "settings.json", {"hooks": {
        "PreToolUse": [group(f"echo U >> {out}", f"echo U >> {out}")]}})  # fmt: skip
    write_json(workspace / ".factory" / "settings.json", {"hooks": {
        "PreToolUse": [group(f"echo PS >> {out}")],
        "PostToolUse": [group(f"echo PS-post >> {out}")]}})  # fmt: skip
    write_json(workspace / ".factory" / "hooks.json", {"PreToolUse": [group(f"echo PH >> {out}")]})

    result = await rpc.fire("droid", "PreToolUse", [str(workspace)], pre(workspace))

    assert [h["command"].split()[1] for h in result["hooks"]] == ["PH", "U", "U"]
    assert sorted(out.read_text().split()) == ["PH", "U", "U"]


async def test_a_hooks_file_written_with_a_hooks_wrapper_loads_nothing(
    rpc, settings, workspace, tmp_path
) -> None:
    """§1.2: ``{"hooks": {...}}`` in hooks.json is an unknown event key."""
    write_json(
        workspace / ".factory" / "hooks.json",
        {"hooks": {"PreToolUse": [group(f"touch {tmp_path}/ran")]}},
    )

    result = await rpc.fire("droid", "PreToolUse", [str(workspace)], pre(workspace))

    assert result["hooks"] == []


async def test_stdin_shell_folder_and_variables(rpc, settings, workspace, tmp_path) -> None:
    """§3.1, §4: compact JSON without a final newline; ``sh -c`` in the session folder;
    the project variables and every scalar of the payload as a variable."""
    command = (f"cat > {tmp_path}/stdin; pwd > {tmp_path}/cwd; "
               f"env > {tmp_path}/env")  # fmt: skip
    write_json(
        Path(settings.home) / ".factory" / "settings.json",
        {"hooks": {"PreToolUse": [group(command)]}},
    )
    sent = pre(workspace)

    await rpc.fire("droid", "PreToolUse", [str(workspace)], sent)

    assert (tmp_path / "stdin").read_bytes() == json.dumps(sent, separators=(",", ":")).encode()
    assert (tmp_path / "cwd").read_text().strip() == str(workspace)
    env = dict(line.split("=", 1) for line in (tmp_path / "env").read_text().splitlines()
               if "=" in line)  # fmt: skip
    assert env["FACTORY_PROJECT_DIR"] == env["DROID_PROJECT_DIR"] == str(workspace)
    assert env["CLAUDE_PROJECT_DIR"] == str(workspace)
    assert env["tool_name"] == "Execute"
    assert env["hook_event_name"] == "PreToolUse"
    assert env["DROID_PLUGIN_ROOT"] == "/PLUGIN_ROOT_NOT_EXPANDED_ERROR"
    assert "tool_input" not in env


async def test_the_first_decision_wins_not_the_strongest(rpc, settings, workspace) -> None:
    """§5.1: the first hook with a permissionDecision decides (an allow before a deny)."""
    write_json(workspace / ".factory" / "settings.json", {"hooks": {"PreToolUse": [
        group(answer(permissionDecision="allow")),
        group(answer(permissionDecision="deny", permissionDecisionReason="no"))]}})  # fmt: skip

    result = await rpc.fire("droid", "PreToolUse", [str(workspace)], pre(workspace))

    assert result["action"] == "proceed"
    assert result["decision"] == "allow"


async def test_exit_2_blocks_even_after_an_allow(rpc, settings, workspace) -> None:
    write_json(workspace / ".factory" / "settings.json", {"hooks": {"PreToolUse": [
        group(answer(permissionDecision="allow")), group("printf NOPE >&2; exit 2")]}})  # fmt: skip

    result = await rpc.fire("droid", "PreToolUse", [str(workspace)], pre(workspace))

    assert result["action"] == "block"
    assert result["reason"] == "NOPE"
    assert result["native"]["hookSpecificOutput"]["permissionDecisionReason"] == "NOPE"


async def test_exit_3_and_continue_false_end_the_turn(rpc, settings, workspace) -> None:
    write_json(
        workspace / ".factory" / "settings.json", {"hooks": {"PreToolUse": [group("exit 3")]}}
    )

    result = await rpc.fire("droid", "PreToolUse", [str(workspace)], pre(workspace))

    assert result["action"] == "stop"
    assert result["native"] == {"continue": False, "stopReason": "Agent aborted by PreToolUse hook"}


async def test_json_is_read_on_any_exit_code(rpc, settings, workspace) -> None:
    deny = answer(permissionDecision="deny", permissionDecisionReason="R5")
    write_json(
        workspace / ".factory" / "settings.json",
        {"hooks": {"PreToolUse": [group(f"{deny}; exit 5")]}},
    )

    result = await rpc.fire("droid", "PreToolUse", [str(workspace)], pre(workspace))

    assert (result["action"], result["reason"]) == ("block", "R5")


async def test_updated_input_is_merged_and_a_new_command_drops_the_risk_level(
    rpc, settings, workspace
) -> None:
    write_json(workspace / ".factory" / "settings.json", {"hooks": {"PreToolUse": [
        group(answer(updatedInput={"command": "touch rewritten.txt"}))]}})  # fmt: skip

    result = await rpc.fire("droid", "PreToolUse", [str(workspace)], pre(workspace))

    assert result["updatedInput"] == {"command": "touch rewritten.txt"}
    assert result["native"]["hookSpecificOutput"]["updatedInput"] == {
        "command": "touch rewritten.txt"
    }


async def test_exit_1_stderr_is_put_before_the_tool_result(rpc, settings, workspace) -> None:
    write_json(
        workspace / ".factory" / "settings.json",
        {"hooks": {"PreToolUse": [group("printf WARN1 >&2; exit 1")]}},
    )

    result = await rpc.fire("droid", "PreToolUse", [str(workspace)], pre(workspace))

    assert (result["action"], result["context"]) == ("proceed", "WARN1")


async def test_matchers_and_command_regex(rpc, settings, workspace, tmp_path) -> None:
    """§3.3: exact name, else an unanchored case-sensitive regex; commandRegex on the
    Execute command only."""
    groups = [group(f"touch {tmp_path}/{name}", matcher=matcher, **extra)
              for name, matcher, extra in (
                  ("exact", "Execute", {}), ("prefix", "^Exec", {}), ("lower", "execute", {}),
                  ("bad", "[", {}), ("cr", None, {"commandRegex": "^touch "}),
                  ("cr_no", "Execute", {"commandRegex": "^git "}))]  # fmt: skip
    write_json(workspace / ".factory" / "settings.json", {"hooks": {"PreToolUse": groups}})

    await rpc.fire("droid", "PreToolUse", [str(workspace)], pre(workspace))

    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["cr", "exact", "prefix"]


async def test_an_invalid_handler_drops_the_whole_file(rpc, settings, workspace, tmp_path) -> None:
    """§1.5: one handler of type http: none of the file's hooks load."""
    write_json(workspace / ".factory" / "settings.json", {"hooks": {
        "PreToolUse": [group(f"touch {tmp_path}/ran")],
        "Stop": [{"hooks": [{"type": "http", "url": "http://x"}]}]}})  # fmt: skip

    result = await rpc.fire("droid", "PreToolUse", [str(workspace)], pre(workspace))

    assert result["hooks"] == []


async def test_hooks_disabled_in_the_user_layer_turns_every_hook_off(
    rpc, settings, workspace, tmp_path
) -> None:
    write_json(
        Path(settings.home) / ".factory" / "settings.json", {"hooks": {"hooksDisabled": True}}
    )
    write_json(
        workspace / ".factory" / "settings.json",
        {"hooks": {"PreToolUse": [group(f"touch {tmp_path}/ran")]}},
    )

    result = await rpc.fire("droid", "PreToolUse", [str(workspace)], pre(workspace))

    assert result["hooks"] == []


async def test_stop_block_needs_a_reason_and_then_wins_over_exit_2(
    rpc, settings, workspace
) -> None:
    stop = {**BASE, "cwd": str(workspace), "hook_event_name": "Stop", "message_id": "m",
            "stop_hook_active": False, "tool_execution_count": 0, "elapsed_time": 5}  # fmt: skip
    block = "echo '" + json.dumps({"decision": "block"}) + "'"
    write_json(
        workspace / ".factory" / "settings.json",
        {"hooks": {"Stop": [group(block), group("printf GO >&2; exit 2")]}},
    )

    result = await rpc.fire("droid", "Stop", [str(workspace)], stop)

    assert (result["action"], result["blocked"]) == ("proceed", False)


async def test_session_start_contexts_are_joined(rpc, settings, workspace) -> None:
    start = {**BASE, "cwd": str(workspace), "hook_event_name": "SessionStart",
             "source": "startup"}  # fmt: skip
    write_json(workspace / ".factory" / "settings.json", {"hooks": {"SessionStart": [
        group("echo A", "echo '{\"foo\": 1}'", "echo '{\"systemMessage\": \"x\"}'",
              "echo LOST; exit 1")]}})  # fmt: skip

    result = await rpc.fire("droid", "SessionStart", [str(workspace)], start)

    assert result["context"] == 'A\n\n{"foo": 1}'
