"""Edges of the handler types and outputs, each pinning one sentence of the reference
(found by an audit of hookd against it): per-source fields, failures on WorktreeCreate,
where ``CLAUDE_ENV_FILE`` exists, output that hits a cap, and the bytes on stdin."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import trio

from conformance.claude.support import (
    Claude,
    HttpEndpoint,
    Reply,
    command,
    echo_json,
    fire_as_client,
)

WORKTREE = {"name": "feature", "session_id": "s1"}


@pytest.mark.parametrize(("source", "kept"), [("startup", True), ("resume", True),
                                              ("fork", True), ("clear", False),
                                              ("compact", False)])  # fmt: skip
async def test_session_title_only_for_new_resumed_or_forked_sessions(
    claude: Claude, source: str, kept: bool
) -> None:
    """ref 'SessionStart decision control': sessionTitle "Applies when source is startup,
    resume, or fork; ignored on clear and compact"."""
    title = {"hookSpecificOutput": {"hookEventName": "SessionStart", "sessionTitle": "T"}}
    claude.hooks("SessionStart", command(echo_json(title)))

    result = await claude.fire("SessionStart", {"source": source, "session_id": "s1"})

    specific = result["native"].get("hookSpecificOutput", {})
    assert ("sessionTitle" in specific) is kept


@pytest.mark.parametrize(
    "answer",
    [{"content": [{"type": "text", "text": "boom"}], "isError": True}, {"content": "nope"}],
    ids=["tool-error", "not-a-tool-result"],
)
async def test_a_failed_mcp_tool_hook_fails_worktree_creation(
    claude: Claude, answer: dict[str, object]
) -> None:
    """ref 'WorktreeCreate': "If the hook fails or produces no path, worktree creation
    fails with an error" (an mcp_tool hook as much as a command)."""
    claude.hooks("WorktreeCreate", {"type": "mcp_tool", "server": "s", "tool": "t"})

    run = await fire_as_client(claude, "WorktreeCreate", WORKTREE, lambda params: answer)

    assert run.result["blocked"] is True
    assert "worktree creation failed" in run.result["reason"]


async def test_an_http_worktree_hook_can_emit_a_terminal_sequence(claude: Claude) -> None:
    """ref 'Emit terminal notifications': "An HTTP WorktreeCreate hook returns JSON and can
    include the field"."""
    body = {
        "terminalSequence": "\x07",
        "hookSpecificOutput": {"hookEventName": "WorktreeCreate", "worktreePath": "/w/wt"},
    }
    async with trio.open_nursery() as nursery:
        endpoint = await HttpEndpoint().start(nursery)
        endpoint.replies["/hook"] = Reply(200, json.dumps(body).encode())
        claude.hooks("WorktreeCreate", {"type": "http", "url": endpoint.base + "/hook"})
        result = await claude.fire("WorktreeCreate", WORKTREE)
        nursery.cancel_scope.cancel()

    assert result["native"]["terminalSequence"] == "\x07"
    assert result["native"]["hookSpecificOutput"]["worktreePath"] == "/w/wt"


async def test_env_file_is_only_for_its_four_events(claude: Claude) -> None:
    """ref 'Persist environment variables': "CLAUDE_ENV_FILE is available for SessionStart,
    Setup, CwdChanged, and FileChanged hooks. Other hook types don't have access to this
    variable", even when the agent's environment has one."""
    probe = claude.probe()
    claude.hooks("PreToolUse", command(probe.command))

    await claude.fire(
        "PreToolUse",
        {"tool_name": "Bash", "tool_input": {"command": "ls"}},
        env={"CLAUDE_ENV_FILE": str(claude.tmp / "agent.env")},
    )

    assert "CLAUDE_ENV_FILE" not in probe.env()


@pytest.mark.parametrize("event", ["UserPromptSubmit", "PreToolUse"])
async def test_json_over_the_text_cap_is_read_whole(claude: Claude, event: str) -> None:
    """ref 'Exit code 0': stdout starting with { is JSON, and Claude Code reads all of it.
    JSON longer than the daemon's per-stream text cap (1 MiB) is still read whole (up to
    json_output_cap_bytes, 16 MiB), so its decision stands: the cap never flips it."""
    script = claude.file(
        "{tmp}/big.py",
        "import json\nprint(json.dumps({'hookSpecificOutput': {'hookEventName': "
        f"'{event}', 'permissionDecision': 'deny', 'additionalContext': 'A' * 1_200_000}}}}))\n",
    )
    claude.hooks(event, command(f"python3 {script}"))

    result = await claude.fire(event, {"prompt": "p", "tool_name": "Bash", "tool_input": {}})

    run = result["hooks"][0]
    assert run["stdoutTruncated"] is False
    assert run["error"] is None
    assert result["context"] is not None  # read, then capped as Claude caps contexts
    if event == "PreToolUse":
        assert result["blocked"] is True


async def test_stop_reason_is_capped_like_every_output_string(claude: Claude) -> None:
    """ref 'JSON output': "Hook output strings ... are capped at 10,000 characters. Output
    that exceeds this limit is saved to a file and replaced with a preview and file path"."""
    claude.hooks("Stop", command(echo_json({"continue": False, "stopReason": "x" * 12_000})))

    result = await claude.fire("Stop", {"session_id": "s9"})

    assert len(result["stopReason"]) < 10_500
    (spill,) = result["hooks"][0]["spilled"]
    assert Path(spill["path"]).read_text() == "x" * 12_000


async def test_stdin_is_written_as_json_stringify_writes_it(claude: Claude) -> None:
    """ref 'Hook input and output': the event's JSON on stdin. Claude Code is a Node
    program: compact ``JSON.stringify`` bytes, non-ASCII as UTF-8, so a hook that greps its
    stdin for '"tool_name":"Bash"' or 'résumé' matches as it does under Claude Code."""
    out = claude.tmp / "stdin.json"
    claude.hooks("PreToolUse", command(f"cat > {out}"))

    await claude.fire("PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "résumé"}})

    raw = out.read_bytes().decode("utf-8")
    assert '"tool_name":"Bash"' in raw
    assert '"command":"résumé"' in raw
    assert raw.endswith("}\n")  # one newline after the JSON, as Claude Code 2.1.328 writes


async def test_env_file_is_reported_only_when_a_command_hook_got_one(claude: Claude) -> None:
    """ref 'Persist environment variables': the file is for command hooks; a SessionStart
    fire that ran only an mcp_tool hook names no env file (hookd made none)."""
    claude.hooks("SessionStart", {"type": "mcp_tool", "server": "s", "tool": "t"})

    run = await fire_as_client(
        claude,
        "SessionStart",
        {"source": "startup", "session_id": "env-none"},
        lambda params: {"content": [{"type": "text", "text": "ok"}]},
    )

    assert len(run.asked) == 1
    assert run.result["envFile"] is None


@pytest.mark.parametrize(("emoji", "spilled"), [(4_999, False), (5_001, True)])
async def test_the_output_cap_counts_characters_as_javascript_does(
    claude: Claude, emoji: int, spilled: bool
) -> None:
    """ref 'JSON output': strings "are capped at 10,000 characters", counted by a Node
    program: an emoji is two UTF-16 units, so 5,001 of them (10,002 units) are over."""
    context = "\U0001f600" * emoji
    out = {
        "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": context}
    }
    script = claude.file("{tmp}/emoji.py", f"import json\nprint(json.dumps({out!r}))\n")
    claude.hooks("UserPromptSubmit", command(f"python3 {script}"))

    result = await claude.fire("UserPromptSubmit", {"prompt": "p", "session_id": "e"})

    spills = result["hooks"][0]["spilled"]
    assert bool(spills) is spilled
    if spilled:
        assert spills[0]["chars"] == 2 * emoji
        assert Path(spills[0]["path"]).read_text() == context
    else:
        assert result["context"] == context
