"""``hookd explain`` through the real CLI and daemon (issue 28): the cases a new user met
that came back with ``"hooks": []`` and nothing said now each say why, and nothing runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hookd_testing import claude_settings, command, write_json
from hookd_testing.cli import cli

BASH = json.dumps({"session_id": "s1", "tool_name": "Bash", "tool_input": {"command": "ls"}})


def explain(path: str, workspace: Path, *args: str, stdin: str = BASH) -> dict[str, Any]:
    done = cli(path, "explain", *args, "--workspace", str(workspace), "--json", stdin=stdin)
    assert done.returncode == 0, done.stderr
    explained: dict[str, Any] = json.loads(done.stdout)
    return explained


def mine(explained: dict[str, Any]) -> list[dict[str, Any]]:
    return [h for h in explained["hooks"] if h["dialect"] == explained["agent"]]


def test_a_matcher_in_the_wrong_case_is_named_with_what_was_meant(served, workspace) -> None:
    path, _ = served
    marker = workspace / "ran"
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("PreToolUse", command(f"touch {marker}"), matcher="bash"))  # fmt: skip

    explained = explain(path, workspace, "PreToolUse", "--agent", "claude")

    [hook] = mine(explained)
    assert hook["runs"] is False
    assert hook["didYouMean"] == "Bash"
    assert "case-sensitive" in hook["why"]
    assert not marker.exists()  # explained, not run
    shown = cli(path, "explain", "PreToolUse", "--agent", "claude", "--workspace",
                str(workspace), stdin=BASH)  # fmt: skip
    assert "0 of 1 hook(s) would run" in shown.stdout
    assert "did you mean 'Bash'?" in shown.stdout


def test_a_payload_without_tool_name_is_said(served, workspace) -> None:
    path, _ = served
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("PreToolUse", command("true"), matcher="Bash"))  # fmt: skip

    explained = explain(path, workspace, "PreToolUse", "--agent", "claude",
                        stdin=json.dumps({"tool_input": {"command": "ls"}}))  # fmt: skip

    [hook] = mine(explained)
    assert "the payload has no tool_name" in hook["why"]
    assert any("the payload has no tool_name" in w for w in explained["warnings"])


def test_the_wrong_agent_lists_the_hooks_of_the_right_one(served, workspace) -> None:
    """``--agent augment`` on a workspace with Claude Code hooks: nothing of augment's, and
    Claude's hook is listed with the flag that would explain it."""
    path, _ = served
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("PreToolUse", command("true"), matcher="Bash"))  # fmt: skip

    explained = explain(path, workspace, "PreToolUse", "--agent", "augment")

    assert mine(explained) == []
    claude = [h for h in explained["hooks"] if h["dialect"] == "claude"]
    assert len(claude) == 1
    assert claude[0]["runs"] is False
    assert "--agent claude" in claude[0]["why"]


def test_a_misspelled_matcher_key_is_named(served, workspace) -> None:
    """``"matchers"``: Claude Code ignores the key, so the group runs for every tool; hookd
    runs it as the agent does and says so."""
    path, _ = served
    write_json(workspace / ".claude" / "settings.json", {"hooks": {"PreToolUse": [
        {"matchers": "Read", "hooks": [command("true")]}]}})  # fmt: skip

    explained = explain(path, workspace, "PreToolUse", "--agent", "claude")

    assert [h["runs"] for h in mine(explained)] == [True]
    [note] = [w for w in explained["warnings"] if "unknown key 'matchers'" in w]
    assert "did you mean 'matcher'?" in note
    assert "runs for every tool" in note


def test_a_duplicate_and_a_relay_entry_are_named(served, workspace) -> None:
    path, _ = served
    write_json(workspace / ".claude" / "settings.json", claude_settings(
        "PreToolUse", command("echo same"), command("echo same"),
        command("hookd-relay claude")))  # fmt: skip

    hooks = mine(explain(path, workspace, "PreToolUse", "--agent", "claude"))

    assert [h["runs"] for h in hooks] == [True, False, False]
    assert hooks[1]["why"].startswith("a duplicate: the same command")
    assert "relay entry" in hooks[2]["why"]


def test_a_cline_hook_without_its_execute_bit_is_said(served, workspace: Path) -> None:
    """Cline skips it without a word, and so does the fire (as the agent: its conformance
    cases); explain names it and the fix."""
    path, _ = served
    hook = workspace / ".clinerules" / "hooks" / "PreToolUse"
    hook.parent.mkdir(parents=True)
    hook.write_text("#!/bin/sh\necho '{}'\n")
    hook.chmod(0o644)
    payload = json.dumps({"preToolUse": {"toolName": "execute_command", "parameters": {}}})

    fired = cli(path, "fire", "PreToolUse", "--agent", "cline", "--workspace", str(workspace),
                stdin=payload)  # fmt: skip
    explained = explain(path, workspace, "PreToolUse", "--agent", "cline", stdin=payload)

    assert fired.returncode == 0, fired.stderr
    assert json.loads(fired.stdout)["hooks"] == []
    [said] = [w for w in explained["warnings"] if "not executable" in w]
    assert f"{hook}: not executable, so Cline does not run it" in said
    assert "chmod +x" in said


def test_nothing_declared_says_where_to_look(served, workspace) -> None:
    path, _ = served
    shown = cli(path, "explain", "Stop", "--agent", "claude", "--workspace", str(workspace),
                "--no-payload")  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    assert "0 of 0 hook(s) would run" in shown.stdout
    assert "hookd hooks --workspace DIR" in shown.stdout


def test_an_unknown_event_is_refused_with_what_was_meant(served, workspace) -> None:
    path, _ = served
    shown = cli(path, "explain", "PreToolUSe", "--agent", "claude", "--workspace",
                str(workspace), stdin=BASH)  # fmt: skip
    assert shown.returncode == 1
    assert "PreToolUse" in shown.stderr


def test_hooks_for_one_workspace_list_its_hooks_with_their_if(served, tmp_path: Path) -> None:
    """``hookd hooks --workspace B`` lists B's hooks (and the user's), not those of every
    workspace the daemon knows; a handler's ``if`` shows in the text listing."""
    path, _ = served
    first, second = tmp_path / "a", tmp_path / "b"
    write_json(first / ".claude" / "settings.json",
               claude_settings("PreToolUse", command("echo from-a")))  # fmt: skip
    write_json(second / ".claude" / "settings.json", claude_settings(
        "PreToolUse", command("echo from-b", **{"if": "Bash(git *)"}), matcher="Bash"))  # fmt: skip
    assert cli(path, "hooks", "--workspace", str(first)).returncode == 0

    listed = cli(path, "hooks", "--workspace", str(second))

    assert listed.returncode == 0, listed.stderr
    assert "echo from-b" in listed.stdout
    assert "if Bash(git *)" in listed.stdout
    assert "echo from-a" not in listed.stdout
    assert "echo from-a" in cli(path, "hooks").stdout  # without --workspace: every root


def test_a_relayed_fire_runs_the_adopted_hook_and_says_why_not_the_rest(
    served, workspace, isolated_home
) -> None:
    """After ``hookd adopt``: the relay's fire runs the hook handed to hookd, and a copy of
    it the workspace keeps (run by the agent itself) is named as the agent's, not
    silently dropped."""
    path, _ = served
    same = command("echo same")
    write_json(isolated_home / ".claude" / "settings.json", claude_settings("PreToolUse", same))
    write_json(workspace / ".claude" / "settings.json", claude_settings("PreToolUse", same))
    adopted = cli(path, "adopt", "--agent", "claude", "--home", str(isolated_home))
    assert adopted.returncode == 0, adopted.stderr

    hooks = mine(explain(path, workspace, "PreToolUse", "--agent", "claude", "--relay"))

    ran = [h for h in hooks if h["runs"]]
    assert [h["command"] for h in ran] == ["echo same"]
    assert ran[0]["source"] != str(workspace / ".claude" / "settings.json")
    theirs = [h for h in hooks if h["source"] == str(workspace / ".claude" / "settings.json")]
    assert theirs
    assert all("the agent runs it itself" in h["why"] for h in theirs)
