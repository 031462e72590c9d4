"""Portable hooks in Cline's (2.18.0, the original runner) fires: Cline's events, tools and
parameters read as Claude's, the portable answer written as a Cline hook's
``{cancel, contextModification, errorMessage}`` and combined by Cline's rules."""

from __future__ import annotations

import json

from hookd_testing import claude_settings, command, write_executable, write_json
from hookd_testing.portable import ENV_PATH_GUARD, answer, echo_input, user_portable

ECHO_INPUT = echo_input(
    "tool_name", "tool_input", "hookd_agent_tool", "hookd_agent_event", "session_id"
)


def tool(event: str, name: str, **parameters: str) -> dict:
    block = "preToolUse" if event == "PreToolUse" else "postToolUse"
    return {"taskId": "task-1", "hookName": event,
            block: {"toolName": name, "parameters": parameters}}  # fmt: skip


SHELL = tool("PreToolUse", "execute_command", command="rm -rf /", requires_approval="false")


async def test_a_bash_guard_cancels_cline_shell(rpc, workspace, isolated_home) -> None:
    user_portable(isolated_home, claude_settings("PreToolUse", command(
        "echo 'no rm -rf' >&2; exit 2"), matcher="Bash"))  # fmt: skip

    result = await rpc.fire("cline", "PreToolUse", [str(workspace)], SHELL)
    other = await rpc.fire("cline", "PreToolUse", [str(workspace)],
                           tool("PreToolUse", "read_file", path="a.txt"))  # fmt: skip

    assert result["blocked"] is True
    assert result["native"] == {"cancel": True, "contextModification": "",
                                "errorMessage": "no rm -rf"}  # fmt: skip
    assert other["blocked"] is False
    assert other["hooks"] == []


async def test_a_write_guard_on_env_cancels_write_to_file(rpc, workspace, isolated_home) -> None:
    user_portable(
        isolated_home, claude_settings("PreToolUse", command(ENV_PATH_GUARD), matcher="Write|Edit")
    )

    env = await rpc.fire("cline", "PreToolUse", [str(workspace)],
                         tool("PreToolUse", "write_to_file", path=".env", content="K=1"))  # fmt: skip
    edit = await rpc.fire("cline", "PreToolUse", [str(workspace)],
                          tool("PreToolUse", "replace_in_file", path="cfg/.env", diff="d"))  # fmt: skip
    fine = await rpc.fire("cline", "PreToolUse", [str(workspace)],
                          tool("PreToolUse", "write_to_file", path="a.ts", content="x"))  # fmt: skip

    assert env["native"]["cancel"] is True
    assert env["native"]["errorMessage"] == f"not {workspace / '.env'}"
    assert edit["native"]["errorMessage"] == f"not {workspace / 'cfg' / '.env'}"
    assert fine["blocked"] is False


async def test_a_post_tool_hook_gets_the_edited_path(rpc, workspace, isolated_home) -> None:
    user_portable(
        isolated_home, claude_settings("PostToolUse", command(ECHO_INPUT), matcher="Edit")
    )
    payload = tool("PostToolUse", "replace_in_file", path="src/a.ts", diff="SEARCH/REPLACE")
    payload["postToolUse"].update(result="ok", success=True)

    result = await rpc.fire("cline", "PostToolUse", [str(workspace)], payload)

    name, tool_input, own, event, session = json.loads(result["native"]["contextModification"])
    assert (name, own, event, session) == ("Edit", "replace_in_file", "PostToolUse", "task-1")
    assert tool_input == {"file_path": str(workspace / "src" / "a.ts"), "diff": "SEARCH/REPLACE"}


async def test_prompt_and_task_start_context_reach_cline(rpc, workspace, isolated_home) -> None:
    write_json(isolated_home / ".config" / "hookd" / "hooks.json", {"hooks": {
        "UserPromptSubmit": [{"hooks": [command(
            "python3 -c \"import json,sys; e=json.load(sys.stdin); print(json.dumps("
            "{'hookSpecificOutput': {'hookEventName': 'UserPromptSubmit', "
            "'additionalContext': 'seen: ' + e['prompt']}}))\"")]}],
        "SessionStart": [{"hooks": [command(
            "python3 -c \"import json,sys; e=json.load(sys.stdin); print(json.dumps("
            "{'hookSpecificOutput': {'hookEventName': 'SessionStart', "
            "'additionalContext': 'source ' + e['source']}}))\"")]}],
    }})  # fmt: skip

    prompt = await rpc.fire("cline", "UserPromptSubmit", [str(workspace)],
                            {"taskId": "t", "userPromptSubmit": {"prompt": "fix it"}})  # fmt: skip
    start = await rpc.fire("cline", "TaskStart", [str(workspace)], {"taskId": "t"})
    resume = await rpc.fire("cline", "TaskResume", [str(workspace)], {"taskId": "t"})

    assert prompt["native"]["contextModification"] == "seen: fix it"
    assert start["native"]["contextModification"] == "source startup"
    assert resume["native"]["contextModification"] == "source resume"


async def test_a_rewrite_cline_cannot_apply_is_a_warning(rpc, workspace, isolated_home) -> None:
    """Cline's hooks cannot change a tool's parameters (cline-hooks.md): the rewrite is
    named in the fire's warnings, and the tool runs unchanged."""
    user_portable(isolated_home, claude_settings("PreToolUse", answer({"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "updatedInput": {"command": "echo safe"}}})))  # fmt: skip

    result = await rpc.fire("cline", "PreToolUse", [str(workspace)], SHELL)

    assert result["blocked"] is False
    assert result["updatedInput"] is None
    assert any(
        "updatedInput" in w and "cline" in w and "PreToolUse" in w for w in result["warnings"]
    ), result["warnings"]


async def test_portable_and_cline_hooks_combine_by_cline_rules(
    rpc, workspace, isolated_home
) -> None:
    """Cline cancels when any hook cancels and joins every errorMessage with a newline, in
    folder order: its own hook's first, then the portable one's."""
    user_portable(
        isolated_home, claude_settings("PreToolUse", command("echo portable-no >&2; exit 2"))
    )
    write_executable(workspace / ".clinerules" / "hooks" / "PreToolUse",
                     '#!/bin/sh\necho \'{"cancel": true, "errorMessage": "cline-no"}\'\n')  # fmt: skip

    result = await rpc.fire("cline", "PreToolUse", [str(workspace)], SHELL)

    assert result["native"]["cancel"] is True
    assert result["native"]["errorMessage"].split("\n") == ["cline-no", "portable-no"]
    assert [h["source"] for h in result["hooks"]] == [
        str(workspace / ".clinerules" / "hooks" / "PreToolUse"),
        str(isolated_home / ".config" / "hookd" / "hooks.json"),
    ]


async def test_a_failing_portable_hook_fails_the_event_as_clines_own(
    rpc, workspace, isolated_home
) -> None:
    """Cline awaits an event's hooks together: one that fails drops every answer, the
    cancel of its own hook too (cline_failure_policy = "agent")."""
    user_portable(isolated_home, claude_settings("PreToolUse", command("echo broken >&2; exit 1")))
    write_executable(workspace / ".clinerules" / "hooks" / "PreToolUse",
                     '#!/bin/sh\necho \'{"cancel": true, "errorMessage": "cline-no"}\'\n')  # fmt: skip

    result = await rpc.fire("cline", "PreToolUse", [str(workspace)], SHELL)

    assert result["blocked"] is False
    assert any("a hook failed" in w for w in result["warnings"]), result["warnings"]


async def test_only_the_global_relay_file_runs_portable_hooks(
    rpc, workspace, isolated_home
) -> None:
    """Cline runs one relay file per hook folder: the portable hooks run from the one in
    the global Cline/Hooks folder (the folder or the file as the entry), never from a
    workspace's."""
    user_portable(isolated_home, claude_settings("PreToolUse", command("exit 2")))
    global_folder = isolated_home / "Documents" / "Cline" / "Hooks"
    entries = {
        "global": str(global_folder),
        "global-file": str(global_folder / "PreToolUse"),
        "workspace": str(workspace / ".clinerules" / "hooks"),
        "workspace-file": str(workspace / ".clinerules" / "hooks" / "PreToolUse"),
    }

    ran = {}
    for name, entry in entries.items():
        result = await rpc.fire("cline", "PreToolUse", [str(workspace)], SHELL,
                                relay=True, relayEntry=entry)  # fmt: skip
        ran[name] = result["blocked"]

    assert ran == {"global": True, "global-file": True, "workspace": False,
                   "workspace-file": False}  # fmt: skip
