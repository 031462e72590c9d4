"""Portable hooks in Factory Droid's fires: Droid's tools and Edit's input keys read as
Claude's, the portable answer written as a Droid hook's (a block outside PreToolUse as
exit 2) and combined by Droid's first-hit rules (droid-research.md §3.2, §5)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import trio

from hookd_testing import claude_settings, command, write_json
from hookd_testing.portable import (
    ENV_GUARD,
    SAYS_WHAT_IT_GOT,
    answer,
    got,
    shell_guard_case,
    specific,
    tool_call,
    user_portable,
    warned,
)

RISK = {"riskLevelReason": "r", "riskLevel": "low"}


def execute(workspace: Path, command_line: str = "rm -rf /") -> dict[str, Any]:
    return tool_call(workspace, "Execute", {"command": command_line, **RISK})


def edit(workspace: Path) -> dict[str, Any]:
    return tool_call(workspace, "Edit", {"file_path": str(workspace / "a.py"),
                                          "old_str": "a", "new_str": "b"})  # fmt: skip


async def test_a_bash_guard_denies_droid_execute_only(rpc, workspace, isolated_home) -> None:
    other = tool_call(workspace, "Read", {"file_path": "/x"})
    await shell_guard_case(rpc, "droid", workspace, execute(workspace), other)


async def test_an_env_guard_denies_create_and_edit(rpc, workspace, isolated_home) -> None:
    user_portable(isolated_home, claude_settings("PreToolUse", ENV_GUARD, matcher="Write|Edit"))
    env = str(workspace / ".env")

    created = await rpc.fire("droid", "PreToolUse", [str(workspace)],
                             tool_call(workspace, "Create", {"file_path": env, "content": "K=1"}))  # fmt: skip
    edited = await rpc.fire("droid", "PreToolUse", [str(workspace)], tool_call(
        workspace, "Edit", {"file_path": env, "old_str": "K=1", "new_str": "K=2"}))  # fmt: skip
    elsewhere = await rpc.fire("droid", "PreToolUse", [str(workspace)], edit(workspace))

    assert (created["blocked"], created["reason"]) == (True, "no writes to .env")
    assert (edited["blocked"], edited["reason"]) == (True, "no writes to .env")
    assert elsewhere["blocked"] is False
    assert len(elsewhere["hooks"]) == 1


async def test_a_post_edit_hook_gets_claudes_edit(rpc, workspace, isolated_home) -> None:
    """Edit's ``old_str``/``new_str`` are Claude's ``old_string``/``new_string``."""
    user_portable(isolated_home, claude_settings("PostToolUse", SAYS_WHAT_IT_GOT, matcher="Edit"))

    result = await rpc.fire("droid", "PostToolUse", [str(workspace)],
                            {**edit(workspace), "tool_response": "{}"})  # fmt: skip

    assert got(result) == ["Edit", "Edit", "PostToolUse", str(workspace / "a.py"),
                           ["file_path", "new_string", "old_string"]]  # fmt: skip


async def test_session_and_prompt_context_reach_droid(rpc, workspace, isolated_home) -> None:
    user_portable(isolated_home, {"hooks": {
        "SessionStart": [{"hooks": [specific("SessionStart", additionalContext="session ctx")]}],
        "UserPromptSubmit": [{"hooks": [specific("UserPromptSubmit", additionalContext="ups ctx")]}],
    }})  # fmt: skip
    base = {"session_id": "s", "cwd": str(workspace)}

    session = await rpc.fire(
        "droid", "SessionStart", [str(workspace)], {**base, "source": "startup"}
    )
    prompt = await rpc.fire("droid", "UserPromptSubmit", [str(workspace)], {**base, "prompt": "hi"})

    assert session["context"] == "session ctx"
    assert prompt["context"] == "ups ctx"


async def test_rewrites_reach_droid_in_its_own_keys(rpc, workspace, isolated_home) -> None:
    """Droid merges a rewrite into the input (§5.1): Claude's new_string is its new_str;
    a changed command drops the risk fields."""
    user_portable(isolated_home, {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [specific("PreToolUse", permissionDecision="allow",
                                               updatedInput={"command": "echo safe"})]},
        {"matcher": "Edit", "hooks": [specific("PreToolUse", updatedInput={"new_string": "c"})]},
    ]}})  # fmt: skip

    shell = await rpc.fire("droid", "PreToolUse", [str(workspace)], execute(workspace, "ls"))
    edited = await rpc.fire("droid", "PreToolUse", [str(workspace)], edit(workspace))

    assert shell["updatedInput"] == {"command": "echo safe"}
    assert edited["updatedInput"] == {"file_path": str(workspace / "a.py"), "old_str": "a",
                                      "new_str": "c"}  # fmt: skip
    assert edited["native"]["hookSpecificOutput"]["updatedInput"] == {"new_str": "c"}


async def test_what_droid_cannot_carry_is_a_warning(rpc, workspace, isolated_home) -> None:
    """Droid ignores additionalContext on PreToolUse (§5.1)."""
    user_portable(isolated_home, claude_settings("PreToolUse", specific(
        "PreToolUse", additionalContext="ctx")))  # fmt: skip

    result = await rpc.fire("droid", "PreToolUse", [str(workspace)], execute(workspace, "ls"))

    assert result["context"] is None
    assert warned(result, "context", "droid", "PreToolUse")


async def test_a_post_tool_block_is_droids_exit_2_feedback(rpc, workspace, isolated_home) -> None:
    """Droid ignores decision:block after a tool (§5.2): the portable block is its exit 2,
    whose stderr the model gets as ``[Hook Feedback]``."""
    user_portable(isolated_home, claude_settings("PostToolUse", answer(
        {"decision": "block", "reason": "lint failed"})))  # fmt: skip

    result = await rpc.fire("droid", "PostToolUse", [str(workspace)],
                            {**execute(workspace, "ls"), "tool_response": "ok"})  # fmt: skip

    assert result["reason"] == "lint failed"
    assert result["action"] == "proceed"
    assert result["warnings"] == []


async def test_portable_and_droid_hooks_combine_by_droid_rules(
    rpc, workspace, isolated_home
) -> None:
    """Droid takes the first hook's permissionDecision (§5.1): of two denies, its own
    hook's reason, declared first; and an exit 2 blocks after any allow, so that the
    portable deny (said with exit 2 too) is never undone by an earlier allow."""
    user_portable(isolated_home, claude_settings("PreToolUse", command(
        "echo portable-no >&2; exit 2")))  # fmt: skip
    own = workspace / ".factory" / "hooks.json"
    write_json(own, {"PreToolUse": [{"hooks": [specific(
        "PreToolUse", permissionDecision="deny", permissionDecisionReason="droid-no")]}]})  # fmt: skip

    denied = await rpc.fire("droid", "PreToolUse", [str(workspace)], execute(workspace))
    write_json(
        own, {"PreToolUse": [{"hooks": [specific("PreToolUse", permissionDecision="allow")]}]}
    )
    allowed_first = await rpc.fire("droid", "PreToolUse", [str(workspace)], execute(workspace))

    assert (denied["blocked"], denied["reason"]) == (True, "droid-no")
    assert [h["source"] for h in denied["hooks"]] == [
        str(own), str(isolated_home / ".config" / "hookd" / "hooks.json")]  # fmt: skip
    assert (allowed_first["blocked"], allowed_first["reason"]) == (True, "portable-no")


async def test_portable_hooks_run_once_across_the_folders_relay_entries(
    rpc, workspace, isolated_home
) -> None:
    """Droid runs the relay entry of ``~/.factory`` and of the project's ``.factory``, each
    written by a real ``hookd relay install``: the user's entry runs the portable hooks of
    both files; the project's only for a tool the user's entry does not match."""
    user_portable(isolated_home, claude_settings("PreToolUse", command(
        "echo user-no >&2; exit 2"), matcher="Bash"))  # fmt: skip
    write_json(workspace / ".hookd" / "hooks.json", claude_settings("PreToolUse", command(
        "echo project-no >&2; exit 2"), matcher="Bash|Write|Edit"))  # fmt: skip
    for scope in (["user"], ["project", "--project", str(workspace)]):
        done = await trio.run_process([sys.executable, "-m", "hookd", "relay", "install",
                                       "--agent", "droid", "--home", str(isolated_home),
                                       "--scope", *scope], capture_stdout=True,
                                      capture_stderr=True, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr
    user_entry, project_entry = isolated_home / ".factory", workspace / ".factory"
    assert "hookd-relay" in (user_entry / "settings.json").read_text()
    assert "hookd-relay" in (project_entry / "settings.json").read_text()

    async def relayed(payload: dict[str, Any], entry: Path) -> dict[str, Any]:
        result: dict[str, Any] = await rpc.fire(
            "droid", "PreToolUse", [str(workspace)], payload, relay=True,
            relayEntry=str(entry), env={"HOME": str(isolated_home)})  # fmt: skip
        return result

    create = tool_call(workspace, "Create", {"file_path": str(workspace / ".env"), "content": ""})
    execute_user = await relayed(execute(workspace), user_entry)
    execute_project = await relayed(execute(workspace), project_entry)
    create_project = await relayed(create, project_entry)

    assert (execute_user["blocked"], len(execute_user["hooks"])) == (True, 2)
    assert (execute_project["blocked"], execute_project["hooks"]) == (False, [])
    assert (create_project["blocked"], create_project["reason"]) == (True, "project-no")
