"""Portable hooks in the Cline SDK runner's (cline 3.0.65) fires: its ``tool_call``/
``tool_result`` read as Claude's tools, the portable answer written as an SDK file hook's
control (``cancel``, ``contextModification``, ``overrideInput``) and combined by the
SDK's rules."""

from __future__ import annotations

import json

from hookd_testing import claude_settings, command
from hookd_testing.portable import ENV_PATH_GUARD, answer, echo_input, user_portable

ECHO_INPUT = echo_input("tool_name", "tool_input", "hookd_agent_tool", "hookd_agent_event")


def call(name: str, **tool_input: object) -> dict:
    return {"taskId": "conv-1", "hookName": "tool_call",
            "tool_call": {"id": "c1", "name": name, "input": tool_input}}  # fmt: skip


SHELL = call("run_commands", commands=["rm -rf /"])


async def test_a_bash_guard_cancels_run_commands(rpc, workspace, isolated_home) -> None:
    user_portable(isolated_home, claude_settings("PreToolUse", command(
        "echo 'no rm -rf' >&2; exit 2"), matcher="Bash"))  # fmt: skip

    result = await rpc.fire("cline-sdk", "PreToolUse", [str(workspace)], SHELL)
    other = await rpc.fire("cline-sdk", "PreToolUse", [str(workspace)],
                           call("read_files", files=[{"path": "/x"}]))  # fmt: skip

    assert result["blocked"] is True
    assert result["native"] == {"cancel": True, "errorMessage": "no rm -rf"}
    assert other["blocked"] is False
    assert other["hooks"] == []


async def test_a_write_guard_on_env_cancels_editor(rpc, workspace, isolated_home) -> None:
    user_portable(
        isolated_home, claude_settings("PreToolUse", command(ENV_PATH_GUARD), matcher="Write|Edit")
    )
    env = str(workspace / ".env")

    blocked = await rpc.fire("cline-sdk", "PreToolUse", [str(workspace)],
                             call("editor", path=env, new_text="K=1"))  # fmt: skip
    fine = await rpc.fire("cline-sdk", "PreToolUse", [str(workspace)],
                          call("editor", path=str(workspace / "a.ts"), new_text="x"))  # fmt: skip

    assert blocked["native"] == {"cancel": True, "errorMessage": f"not {env}"}
    assert fine["blocked"] is False


async def test_a_post_tool_hook_gets_the_edited_path(rpc, workspace, isolated_home) -> None:
    user_portable(
        isolated_home, claude_settings("PostToolUse", command(ECHO_INPUT), matcher="Edit")
    )
    path = str(workspace / "src" / "a.ts")
    payload = {"taskId": "conv-1", "hookName": "tool_result", "tool_result": {
        "id": "c1", "name": "editor", "input": {"path": path, "old_text": "a", "new_text": "b"},
        "output": "ok", "durationMs": 3}}  # fmt: skip

    result = await rpc.fire("cline-sdk", "PostToolUse", [str(workspace)], payload)

    name, tool_input, own, event = json.loads(result["native"]["context"])
    assert (name, own, event) == ("Edit", "editor", "PostToolUse")
    assert tool_input == {"file_path": path, "old_string": "a", "new_string": "b"}


async def test_a_rewrite_reaches_the_sdk_as_override_input(rpc, workspace, isolated_home) -> None:
    user_portable(isolated_home, claude_settings("PreToolUse", command(
        "python3 -c \"import json,sys; e=json.load(sys.stdin); print(json.dumps("
        "{'hookSpecificOutput': {'hookEventName': 'PreToolUse', 'updatedInput': "
        "{**e['tool_input'], 'command': 'echo safe'}}}))\""), matcher="Bash"))  # fmt: skip

    result = await rpc.fire("cline-sdk", "PreToolUse", [str(workspace)], SHELL)

    assert result["native"]["overrideInput"] == {"commands": ["echo safe"]}


async def test_lifecycle_context_the_sdk_ignores_is_a_warning(
    rpc, workspace, isolated_home
) -> None:
    """The SDK runs lifecycle hooks detached and reads nothing they print: a
    UserPromptSubmit or SessionStart context is named in the warnings, not dropped in
    silence."""
    for event in ("UserPromptSubmit", "SessionStart"):
        user_portable(isolated_home, claude_settings(event, answer({"hookSpecificOutput": {
            "hookEventName": event, "additionalContext": "ctx"}})))  # fmt: skip
        own = "UserPromptSubmit" if event == "UserPromptSubmit" else "TaskStart"

        result = await rpc.fire("cline-sdk", own, [str(workspace)], {"taskId": "conv-1"})

        assert result["context"] is None
        assert any(
            "context" in w and "cline-sdk" in w and own in w and event in w
            for w in result["warnings"]
        ), result["warnings"]


async def test_portable_and_sdk_hooks_combine_by_sdk_rules(rpc, workspace, isolated_home) -> None:
    """The SDK runs tool hooks one after another and joins their contexts with a
    newline, its own file's first."""
    user_portable(isolated_home, claude_settings("PreToolUse", answer({"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "additionalContext": "portable ctx"}})))  # fmt: skip
    hook = workspace / ".cline" / "hooks" / "PreToolUse.sh"
    hook.parent.mkdir(parents=True)
    hook.write_text('echo \'HOOK_CONTROL\t{"context": "sdk ctx"}\'\n')

    result = await rpc.fire("cline-sdk", "PreToolUse", [str(workspace)], SHELL)

    assert result["native"] == {"context": "sdk ctx\nportable ctx"}
    assert [h["source"] for h in result["hooks"]] == [
        str(hook), str(isolated_home / ".config" / "hookd" / "hooks.json"),
    ]  # fmt: skip


async def test_only_the_global_relay_file_runs_portable_hooks(
    rpc, workspace, isolated_home
) -> None:
    """The SDK reads four hook folders: the portable hooks run from the relay file in
    ~/Documents/Cline/Hooks only, the folder both Cline runners read."""
    user_portable(isolated_home, claude_settings("PreToolUse", command("exit 2")))
    entries = {
        "documents": isolated_home / "Documents" / "Cline" / "Hooks" / "PreToolUse",
        "user": isolated_home / ".cline" / "hooks" / "PreToolUse",
        "workspace": workspace / ".cline" / "hooks" / "PreToolUse.sh",
    }

    ran = {}
    for name, entry in entries.items():
        result = await rpc.fire("cline-sdk", "PreToolUse", [str(workspace)], SHELL,
                                relay=True, relayEntry=str(entry))  # fmt: skip
        ran[name] = result["blocked"]

    assert ran == {"documents": True, "user": False, "workspace": False}
