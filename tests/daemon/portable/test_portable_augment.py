"""Portable hooks in auggie's (0.36.0) fires: its tools (``launch-process``,
``str-replace-editor``, ``save-file``...) read as Claude's, the portable answer written as
an auggie hook's JSON and combined by auggie's rules, which re-read every hook's
outcome (``refine``): the written answer is what they read."""

from __future__ import annotations

import json

from hookd_testing import claude_settings, command, write_json
from hookd_testing.portable import ENV_PATH_GUARD, answer, user_portable

ECHO_INPUT = (
    'python3 -c "import json,sys; e=json.load(sys.stdin); '
    "print(json.dumps({'hookSpecificOutput': {'hookEventName': e['hook_event_name'], "
    "'additionalContext': json.dumps([e['tool_name'], e['tool_input'], "
    "e['hookd_agent_tool'], e['session_id'], sorted(e)])}}))\""
)


def tool(name: str, **tool_input: object) -> dict:
    return {"conversation_id": "conv-1", "tool_name": name, "tool_input": tool_input,
            "is_mcp_tool": False}  # fmt: skip


SHELL = tool("launch-process", command="rm -rf /", wait=True, max_wait_seconds=30)


async def test_a_bash_guard_denies_launch_process(rpc, workspace, isolated_home) -> None:
    user_portable(isolated_home, claude_settings("PreToolUse", command(
        "echo 'no rm -rf' >&2; exit 2"), matcher="Bash"))  # fmt: skip

    result = await rpc.fire("augment", "PreToolUse", [str(workspace)], SHELL)
    other = await rpc.fire("augment", "PreToolUse", [str(workspace)], tool("view", path="a"))

    assert result["blocked"] is True
    assert result["native"]["hookSpecificOutput"] == {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "no rm -rf",
    }  # fmt: skip
    assert other["blocked"] is False
    assert other["hooks"] == []


async def test_a_write_guard_on_env_denies_file_tools(rpc, workspace, isolated_home) -> None:
    user_portable(
        isolated_home, claude_settings("PreToolUse", command(ENV_PATH_GUARD), matcher="Write|Edit")
    )

    saved = await rpc.fire("augment", "PreToolUse", [str(workspace)],
                           tool("save-file", path=".env", file_content="K=1"))  # fmt: skip
    edited = await rpc.fire("augment", "PreToolUse", [str(workspace)],
                            tool("str-replace-editor", command="str_replace", path="cfg/.env",
                                 old_str_1="a", new_str_1="b"))  # fmt: skip
    fine = await rpc.fire("augment", "PreToolUse", [str(workspace)],
                          tool("save-file", path="a.ts", file_content="x"))  # fmt: skip

    assert saved["blocked"] is True
    assert saved["reason"] == f"not {workspace / '.env'}"
    assert edited["reason"] == f"not {workspace / 'cfg' / '.env'}"
    assert fine["blocked"] is False


async def test_a_post_tool_hook_gets_the_edited_path(rpc, workspace, isolated_home) -> None:
    """... and none of auggie's private fields, which only a group that opts in gets."""
    user_portable(
        isolated_home, claude_settings("PostToolUse", command(ECHO_INPUT), matcher="Edit")
    )
    payload = {**tool("str-replace-editor", command="str_replace", path="src/a.ts",
                      old_str_1="a", new_str_1="b"),
               "tool_output": "File edited", "context": {"userEmail": "me@example.com"},
               "user_prompt": "secret prompt"}  # fmt: skip

    result = await rpc.fire("augment", "PostToolUse", [str(workspace)], payload)

    name, tool_input, own, session, keys = json.loads(result["context"])
    assert (name, own, session) == ("Edit", "str-replace-editor", "conv-1")
    assert tool_input == {"command": "str_replace", "file_path": str(workspace / "src" / "a.ts"),
                          "old_string": "a", "new_string": "b"}  # fmt: skip
    assert "context" not in keys
    assert "user_prompt" not in keys
    assert result["native"]["hookSpecificOutput"]["additionalContext"] == result["context"]


async def test_prompt_and_session_context_auggie_drops_are_warnings(
    rpc, workspace, isolated_home
) -> None:
    """auggie shows PromptSubmit and SessionStart output to the user, never to the model:
    a portable context there is named in the warnings."""
    for event, own in (("UserPromptSubmit", "PromptSubmit"), ("SessionStart", "SessionStart")):
        user_portable(isolated_home, claude_settings(event, answer({"hookSpecificOutput": {
            "hookEventName": event, "additionalContext": "ctx"}})))  # fmt: skip

        result = await rpc.fire("augment", own, [str(workspace)],
                                {"conversation_id": "c", "user_prompt": "hi"})  # fmt: skip

        assert result["context"] is None
        assert result["native"] == {}
        assert any(
            "context" in w and "augment" in w and own in w and event in w
            for w in result["warnings"]
        ), result["warnings"]


async def test_a_rewrite_reaches_auggie_in_its_tool_keys(rpc, workspace, isolated_home) -> None:
    user_portable(isolated_home, {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [answer({"hookSpecificOutput": {
            "hookEventName": "PreToolUse", "updatedInput": {"command": "echo safe"}}})]},
        {"matcher": "Write", "hooks": [command(
            "python3 -c \"import json,sys; e=json.load(sys.stdin); print(json.dumps("
            "{'hookSpecificOutput': {'hookEventName': 'PreToolUse', 'updatedInput': "
            "{**e['tool_input'], 'content': 'redacted'}}}))\"")]},
    ]}})  # fmt: skip

    shell = await rpc.fire("augment", "PreToolUse", [str(workspace)], SHELL)
    save = await rpc.fire("augment", "PreToolUse", [str(workspace)],
                          tool("save-file", path="a.txt", file_content="K=1"))  # fmt: skip

    assert shell["updatedInput"] == {"command": "echo safe", "wait": True, "max_wait_seconds": 30}
    assert shell["native"]["hookSpecificOutput"]["updatedInput"] == shell["updatedInput"]
    assert save["updatedInput"] == {"path": str(workspace / "a.txt"), "file_content": "redacted"}


async def test_an_edit_in_str_replace_entries_reads_and_rewrites_its_first_entry(
    rpc, workspace, isolated_home
) -> None:
    """auggie 0.36.0's schema nests an edit (``str_replace_entries``, what the real agent
    sends: tests/agents/portable/test_portable_augment.py): the first entry is the shared
    ``old_string``/``new_string``, and a rewrite of them goes back into it."""
    user_portable(
        isolated_home,
        claude_settings(
            "PreToolUse",
            command(
                "python3 -c \"import json,sys; e=json.load(sys.stdin); i=e['tool_input']; "
                "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse', "
                "'updatedInput': {**i, 'new_string': i['old_string'] + '!'}}}))\""
            ),
            matcher="Edit",
        ),
    )
    second = {"old_str": "c", "new_str": "d"}
    edit = tool("str-replace-editor", command="str_replace", path="a.ts",
                str_replace_entries=[{"old_str": "a", "new_str": "b",
                                      "old_str_start_line_number": 1}, second])  # fmt: skip

    result = await rpc.fire("augment", "PreToolUse", [str(workspace)], edit)

    assert result["updatedInput"] == {
        "command": "str_replace", "path": str(workspace / "a.ts"),
        "str_replace_entries": [
            {"old_str": "a", "new_str": "a!", "old_str_start_line_number": 1}, second],
    }  # fmt: skip


async def test_portable_and_auggie_hooks_combine_by_auggie_rules(
    rpc, workspace, isolated_home
) -> None:
    """auggie's rule, read from every hook's outcome: an exit 2 anywhere makes the hooks'
    stderr the message, so a JSON deny beside it (the portable hook's, as written for
    auggie) blocks with the exit-2 hook's text only."""
    user_portable(isolated_home, claude_settings("PreToolUse", answer({"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "portable-no"}})))  # fmt: skip
    write_json(workspace / ".augment" / "settings.json", {"hooks": {"PreToolUse": [
        {"matcher": ".*", "hooks": [command("echo own-no >&2; exit 2")]}]}})  # fmt: skip

    result = await rpc.fire("augment", "PreToolUse", [str(workspace)], SHELL)
    alone = await rpc.fire("augment", "PostToolUse", [str(workspace)],
                           {**SHELL, "tool_output": "done"})  # fmt: skip

    assert result["blocked"] is True
    assert result["reason"] == "[hook:PreToolUse]: own-no"
    assert [h["source"] for h in result["hooks"]] == [
        str(workspace / ".augment" / "settings.json"),
        str(isolated_home / ".config" / "hookd" / "hooks.json"),
    ]
    assert alone["hooks"] == []


async def test_a_post_tool_block_is_feedback_appended_to_the_result(
    rpc, workspace, isolated_home
) -> None:
    user_portable(isolated_home, claude_settings("PostToolUse", answer(
        {"decision": "block", "reason": "run the tests"})))  # fmt: skip

    result = await rpc.fire("augment", "PostToolUse", [str(workspace)],
                            {**SHELL, "tool_output": "done"})  # fmt: skip

    assert result["context"] == "run the tests"
    assert result["warnings"] == []


async def test_only_the_catch_all_relay_group_runs_portable_hooks(
    rpc, workspace, isolated_home
) -> None:
    """auggie runs one relay group per matcher that matches: the portable hooks run from
    the ``.*`` group's fire only (and from a group that names no matcher)."""
    user_portable(isolated_home, claude_settings("PreToolUse", command("exit 2")))

    ran = {}
    for entry in (".*", "launch-process", None):
        result = await rpc.fire("augment", "PreToolUse", [str(workspace)], SHELL,
                                relay=True, relayEntry=entry)  # fmt: skip
        ran[entry] = result["blocked"]

    assert ran == {".*": True, "launch-process": False, None: True}
