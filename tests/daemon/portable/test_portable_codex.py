"""Portable hooks in Codex CLI's fires: Codex's events and tools read as Claude's (its
patches as Write or Edit), the portable answer written as Codex's strict reader takes a
hook's JSON and combined by Codex's rules (codex-research.md §2.2, §5)."""

from __future__ import annotations

import os
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


def shell(workspace: Path, command_line: str = "rm -rf /") -> dict[str, Any]:
    return tool_call(workspace, "Bash", {"command": command_line})


def patch(workspace: Path, *files: str) -> dict[str, Any]:
    """An apply_patch call as Codex sends it: the patch text as ``command``."""
    body = "".join(f"*** {f}\n" + ("+new\n" if f.startswith("Add") else "@@\n-a\n+b\n")
                   for f in files)  # fmt: skip
    return tool_call(
        workspace, "apply_patch", {"command": f"*** Begin Patch\n{body}*** End Patch\n"}
    )


async def test_a_bash_guard_denies_codex_shell_only(rpc, workspace, isolated_home) -> None:
    await shell_guard_case(
        rpc, "codex", workspace, shell(workspace), patch(workspace, "Add File: notes.txt")
    )


async def test_an_env_guard_denies_a_patch_adding_env(rpc, workspace, isolated_home) -> None:
    """A patch of one file is Claude's Write (an added file) or Edit, with its file_path."""
    user_portable(isolated_home, claude_settings("PreToolUse", ENV_GUARD, matcher="Write|Edit"))

    added = await rpc.fire("codex", "PreToolUse", [str(workspace)],
                           patch(workspace, "Add File: .env"))  # fmt: skip
    changed = await rpc.fire("codex", "PreToolUse", [str(workspace)],
                             patch(workspace, "Update File: .env"))  # fmt: skip
    elsewhere = await rpc.fire("codex", "PreToolUse", [str(workspace)],
                               patch(workspace, "Update File: app.py"))  # fmt: skip

    assert (added["blocked"], added["reason"]) == (True, "no writes to .env")
    assert (changed["blocked"], changed["reason"]) == (True, "no writes to .env")
    assert elsewhere["blocked"] is False
    assert len(elsewhere["hooks"]) == 1


async def test_what_a_portable_hook_is_given_for_a_patch(rpc, workspace, isolated_home) -> None:
    """One file: its path from the session's folder (and an added file's content); several
    files: no file_path, every path in hookd_file_paths."""
    user_portable(isolated_home, claude_settings("PostToolUse", SAYS_WHAT_IT_GOT))

    one = await rpc.fire("codex", "PostToolUse", [str(workspace)],
                         {**patch(workspace, "Update File: src/a.py"), "tool_response": "ok"})  # fmt: skip
    added = await rpc.fire("codex", "PostToolUse", [str(workspace)],
                           {**patch(workspace, "Add File: b.txt"), "tool_response": "ok"})  # fmt: skip
    several = await rpc.fire("codex", "PostToolUse", [str(workspace)], {
        **patch(workspace, "Update File: a.py", "Delete File: c.py"), "tool_response": "ok"})  # fmt: skip

    assert got(one) == ["Edit", "apply_patch", "PostToolUse", str(workspace / "src/a.py"),
                        ["command", "file_path", "hookd_file_paths"]]  # fmt: skip
    assert got(added) == ["Write", "apply_patch", "PostToolUse", str(workspace / "b.txt"),
                          ["command", "content", "file_path", "hookd_file_paths"]]  # fmt: skip
    assert got(several)[0] == "Edit"
    assert got(several)[3] is None
    assert one["native"]["hookSpecificOutput"]["additionalContext"] == one["context"]


async def test_prompt_context_reaches_codex(rpc, workspace, isolated_home) -> None:
    user_portable(isolated_home, claude_settings(
        "UserPromptSubmit", specific("UserPromptSubmit", additionalContext="house rules")))  # fmt: skip

    result = await rpc.fire("codex", "UserPromptSubmit", [str(workspace)],
                            {"session_id": "s", "cwd": str(workspace), "prompt": "hi"})  # fmt: skip

    assert result["context"] == "house rules"
    assert result["native"]["hookSpecificOutput"] == {
        "hookEventName": "UserPromptSubmit", "additionalContext": "house rules"}  # fmt: skip


async def test_a_rewrite_is_carried_with_the_allow_codex_needs(
    rpc, workspace, isolated_home
) -> None:
    """Claude takes updatedInput alone; Codex only with permissionDecision allow (§5.1)."""
    user_portable(isolated_home, claude_settings("PreToolUse", specific(
        "PreToolUse", updatedInput={"command": "echo safe"})))  # fmt: skip

    result = await rpc.fire("codex", "PreToolUse", [str(workspace)], shell(workspace, "ls"))

    assert result["blocked"] is False
    assert result["updatedInput"] == {"command": "echo safe"}
    assert result["native"]["hookSpecificOutput"] == {
        "hookEventName": "PreToolUse", "permissionDecision": "allow",
        "updatedInput": {"command": "echo safe"},
    }  # fmt: skip
    assert result["warnings"] == []


async def test_a_patch_rewrite_keeps_the_patch_text(rpc, workspace, isolated_home) -> None:
    new = "*** Begin Patch\n*** Add File: other\n+x\n*** End Patch\n"
    user_portable(isolated_home, claude_settings("PreToolUse", specific(
        "PreToolUse", permissionDecision="allow",
        updatedInput={"command": new, "file_path": "/ignored"})))  # fmt: skip

    result = await rpc.fire(
        "codex", "PreToolUse", [str(workspace)], patch(workspace, "Add File: a")
    )

    assert result["updatedInput"] == {"command": new}


async def test_what_codex_cannot_carry_is_a_warning(rpc, workspace, isolated_home) -> None:
    """A rewrite on PermissionRequest and continue:false on PreToolUse would make the hook
    fail in Codex (§5.1, §5.2): they are left out of its answer and named."""
    user_portable(isolated_home, {"hooks": {
        "PermissionRequest": [{"hooks": [specific("PermissionRequest", decision={
            "behavior": "allow", "updatedInput": {"command": "echo safe"}})]}],
        "PreToolUse": [{"hooks": [answer({"continue": False, "stopReason": "enough"})]}],
    }})  # fmt: skip

    permission = await rpc.fire("codex", "PermissionRequest", [str(workspace)], shell(workspace))
    pre = await rpc.fire("codex", "PreToolUse", [str(workspace)], shell(workspace))

    assert permission["updatedInput"] is None
    assert permission["native"]["hookSpecificOutput"]["decision"] == {"behavior": "allow"}
    assert warned(permission, "updatedInput", "codex", "PermissionRequest")
    assert pre["action"] == "proceed"
    assert pre["native"] == {}
    assert warned(pre, "stop", "codex", "PreToolUse")


async def test_a_portable_ask_is_a_deny_in_codex(rpc, workspace, isolated_home) -> None:
    """Codex refuses ask (the hook would fail and the tool run): a deny, with a reason."""
    user_portable(isolated_home, claude_settings("PreToolUse", specific(
        "PreToolUse", permissionDecision="ask")))  # fmt: skip

    result = await rpc.fire("codex", "PreToolUse", [str(workspace)], shell(workspace))

    assert result["blocked"] is True
    assert result["reason"] == "blocked by a portable hook"


async def test_portable_and_codex_hooks_combine_by_codex_rules(
    rpc, workspace, isolated_home
) -> None:
    """Codex keeps only the first blocking reason in written order (§5.1): its own hook's,
    before the portable one's."""
    user_portable(isolated_home, claude_settings("PreToolUse", command(
        "echo portable-no >&2; exit 2")))  # fmt: skip
    write_json(workspace / ".codex" / "hooks.json", claude_settings(
        "PreToolUse", command("echo codex-no >&2; exit 2")))  # fmt: skip

    result = await rpc.fire("codex", "PreToolUse", [str(workspace)], shell(workspace))

    assert result["blocked"] is True
    assert result["reason"] == "codex-no"
    assert [h["source"] for h in result["hooks"]] == [
        str(workspace / ".codex" / "hooks.json"),
        str(isolated_home / ".config" / "hookd" / "hooks.json"),
    ]


async def test_portable_hooks_run_once_across_the_layers_relay_entries(
    rpc, workspace, isolated_home
) -> None:
    """Codex runs the relay entry of the user's and of the project's hooks.json, each
    written by a real ``hookd relay install``: the user's entry runs the portable hooks of
    both files; the project's only for a tool the user's entry does not match."""
    user_portable(isolated_home, claude_settings("PreToolUse", command(
        "echo user-no >&2; exit 2"), matcher="Bash"))  # fmt: skip
    write_json(workspace / ".hookd" / "hooks.json", claude_settings("PreToolUse", command(
        "echo project-no >&2; exit 2"), matcher="Bash|Write|Edit"))  # fmt: skip
    for scope in (["user"], ["project", "--project", str(workspace)]):
        done = await trio.run_process([sys.executable, "-m", "hookd", "relay", "install",
                                       "--agent", "codex", "--home", str(isolated_home),
                                       "--scope", *scope], capture_stdout=True,
                                      capture_stderr=True, check=False,
                                      env={**os.environ, "CODEX_HOME": ""})  # fmt: skip
        assert done.returncode == 0, done.stderr
    user_entry = isolated_home / ".codex" / "hooks.json"
    project_entry = workspace / ".codex" / "hooks.json"
    assert "hookd-relay" in user_entry.read_text()
    assert "hookd-relay" in project_entry.read_text()

    async def relayed(payload: dict[str, Any], entry: Path) -> dict[str, Any]:
        result: dict[str, Any] = await rpc.fire(
            "codex", "PreToolUse", [str(workspace)], payload, relay=True,
            relayEntry=str(entry), env={"HOME": str(isolated_home)})  # fmt: skip
        return result

    bash_user = await relayed(shell(workspace), user_entry)
    bash_project = await relayed(shell(workspace), project_entry)
    patch_project = await relayed(patch(workspace, "Add File: .env"), project_entry)

    assert (bash_user["blocked"], len(bash_user["hooks"])) == (True, 2)
    assert (bash_project["blocked"], bash_project["hooks"]) == (False, [])
    assert (patch_project["blocked"], patch_project["reason"]) == (True, "project-no")
