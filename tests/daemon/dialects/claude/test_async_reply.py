"""A Claude command hook that answers ``{"async": true}`` on its first stdout line goes on
in the background (Claude Code 2.1.328, pinned by tests/agents/claude cases
``async-reply-*``): the fire returns at once with nothing from it, and its later answer's
additionalContext and systemMessage arrive as a ``hook/asyncResult``. hookd kills its
whole tree at its ``asyncTimeout`` (15 s without one), when the daemon stops, and when
the fire is cancelled before the hook sent that line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import trio

from hookd.daemon.dialects.claude import output
from hookd.daemon.runner.background import MAX_RUNNING_PER_SESSION
from hookd_testing import (
    Gate,
    RpcClient,
    claude_settings,
    command,
    fire_in_flight,
    process_gone,
    read_pids,
    wait_until,
    write_json,
)

ANSWER = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "later",
          "permissionDecision": "deny", "permissionDecisionReason": "too late"},
          "systemMessage": "tests pass"}  # fmt: skip


def project(workspace: Path, event: str, *handlers: dict[str, Any]) -> None:
    write_json(workspace / ".claude" / "settings.json", claude_settings(event, *handlers))


async def fire(rpc: RpcClient, workspace: Path, event: str = "PreToolUse") -> dict[str, Any]:
    payload = {"session_id": "s", "tool_name": "Bash", "tool_input": {"command": "ls"}}
    return await rpc.fire("claude", event, [str(workspace)], payload)


async def next_async_result(rpc: RpcClient, timeout: float = 20) -> dict[str, Any]:
    """The next ``hook/asyncResult`` notification (those already read come first)."""
    with trio.fail_after(timeout):
        while True:
            for note in rpc.notifications:
                if note["method"] == "hook/asyncResult":
                    rpc.notifications.remove(note)
                    return dict(note["params"])
            message = await rpc.recv()
            if isinstance(message, dict) and "method" in message:
                rpc.notifications.append(message)


async def test_the_fire_returns_at_once_and_the_answer_comes_later(
    rpc, workspace, tmp_path
) -> None:
    """The fire returns while the hook still waits (its gate is shut): nothing of it
    counts, not even the deny it prints later; its context and systemMessage arrive later,
    the decision never."""
    gate = Gate(tmp_path / "gate")
    project(workspace, "PreToolUse", command(
        f"echo '{{\"async\": true}}'; {gate.wait_command}; echo '{json.dumps(ANSWER)}'"))  # fmt: skip

    result = await fire(rpc, workspace)
    await gate.open()
    note = await next_async_result(rpc)

    assert (result["action"], result["blocked"], result["context"]) == ("proceed", False, None)
    assert result["hooks"][0]["exitCode"] is None
    assert result["hooks"][0]["error"] is None
    [started] = result["asyncStarted"]
    assert (note["id"], started["index"]) == (started["id"], 0)
    assert (note["context"], note["systemMessage"], note["exitCode"]) == ("later", "tests pass", 0)


async def test_an_answer_printed_with_the_first_line_still_comes_later(rpc, workspace) -> None:
    """Both lines in one write, then exit 2 with a reason: 2.1.328 still backgrounds it
    (only the first line is read) and delivers the context whatever the exit code."""
    project(workspace, "PreToolUse", command(
        f"printf '%s\\n%s\\n' '{{\"async\":true}}' '{json.dumps(ANSWER)}'; echo no >&2; exit 2"))  # fmt: skip

    result = await fire(rpc, workspace)
    note = await next_async_result(rpc)

    assert result["blocked"] is False
    assert result["reason"] is None
    assert (note["context"], note["exitCode"]) == ("later", 2)


@pytest.mark.parametrize(
    ("first_line", "why"),
    [
        ('{"async": "true"}', "async must be the boolean true"),
        ('{"async": true', "no } before the line ends"),
        ("async: true}", "not JSON"),
    ],
)
async def test_other_first_lines_are_waited_for(rpc, workspace, first_line, why) -> None:
    project(workspace, "PreToolUse", command(f"echo '{first_line}'; echo 'no' >&2; exit 2"))

    result = await fire(rpc, workspace)

    assert result["asyncStarted"] == [], why
    assert (result["blocked"], result["reason"]) == (True, "no")


async def test_message_display_hooks_stay_in_the_foreground(rpc, workspace) -> None:
    """2.1.328 runs MessageDisplay hooks with forceSyncExecution."""
    project(workspace, "MessageDisplay", command("echo '{\"async\": true}'; sleep 0.2"))

    result = await fire(rpc, workspace, "MessageDisplay")

    assert result["asyncStarted"] == []
    assert result["hooks"][0]["exitCode"] == 0


async def test_async_timeout_kills_the_whole_tree(rpc, workspace, tmp_path) -> None:
    """The asyncTimeout (milliseconds) replaces the hook's timeout once it went to the
    background: its group, a child in it included, is killed then."""
    pids = tmp_path / "pids"
    project(workspace, "PostToolUse", command(
        f"sleep 300 & echo $! >> {pids}; echo $$ >> {pids}; "
        "echo '{\"async\": true, \"asyncTimeout\": 300}'; wait", timeout=600))  # fmt: skip

    result = await fire(rpc, workspace, "PostToolUse")
    note = await next_async_result(rpc)

    assert len(result["asyncStarted"]) == 1
    assert note["timedOut"] is True
    assert note["context"] is None
    assert len(read_pids(pids)) == 2
    await wait_until(lambda: all(process_gone(pid) for pid in read_pids(pids)))


async def test_the_hook_timeout_applies_until_the_first_line(rpc, workspace) -> None:
    project(workspace, "PostToolUse", command("sleep 30; echo '{\"async\": true}'", timeout=0.3))

    result = await fire(rpc, workspace, "PostToolUse")

    assert result["asyncStarted"] == []
    assert result["hooks"][0]["timedOut"] is True


async def test_a_fire_cancelled_before_the_first_line_kills_the_hook(
    rpc, workspace, tmp_path
) -> None:
    pids = tmp_path / "pids"
    project(workspace, "PostToolUse", command(f"echo $$ >> {pids}; sleep 300"))
    fire_id = await rpc.start("fire", {"agent": "claude", "event": "PostToolUse",
                                       "workspaceRoots": [str(workspace)], "payload": {}})  # fmt: skip
    await fire_in_flight(rpc)
    await wait_until(lambda: bool(read_pids(pids)))
    await rpc.send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": fire_id}})
    answer = await rpc.recv_response(fire_id)

    assert answer["error"]["code"] == -32800
    assert all(process_gone(pid) for pid in read_pids(pids))  # killed before the answer
    status = await rpc.call("status")
    assert status["asyncHooks"]["running"] == 0


async def test_shutdown_kills_a_hook_in_the_background(daemon, workspace, tmp_path) -> None:
    pids = tmp_path / "pids"
    project(workspace, "PostToolUse", command(
        f"sleep 300 & echo $! >> {pids}; echo $$ >> {pids}; echo '{{\"async\": true}}'; wait"))  # fmt: skip
    rpc = await daemon.connect()
    result = await fire(rpc, workspace, "PostToolUse")
    assert len(result["asyncStarted"]) == 1
    await rpc.call("shutdown")
    await rpc.aclose()

    assert len(read_pids(pids)) == 2
    await wait_until(lambda: all(process_gone(pid) for pid in read_pids(pids)))


async def test_past_the_session_cap_it_is_stopped_and_the_fire_says_so(
    rpc, workspace, tmp_path
) -> None:
    gate = Gate(tmp_path / "gate")
    hooks = [command(f"echo '{{\"async\": true}}'; {gate.wait_command} # {i}")
             for i in range(MAX_RUNNING_PER_SESSION + 1)]  # fmt: skip
    project(workspace, "PostToolUse", *hooks)

    result = await fire(rpc, workspace, "PostToolUse")
    await gate.open()

    refused = [e for e in result["asyncStarted"] if "notStarted" in e]
    assert len(refused) == 1
    assert sum(1 for h in result["hooks"] if h["error"] and "hookd stopped it" in h["error"]) == 1


# the answer, as 2.1.328 finds and reads it ------------------------------------------------
@pytest.mark.parametrize(
    ("stdout", "texts"),
    [
        ('{"async":true}\n{"systemMessage": "m"}', (None, "m")),
        ('{"async":true}\n{\n  "systemMessage": "over lines"\n}\n', (None, "over lines")),
        ('log line\n{"systemMessage": "one line"}\nmore log', (None, "one line")),
        ('{"systemMessage": "config async, whole stdout"}', (None, "config async, whole stdout")),
        ('{"async":true}\n{"async":false,"systemMessage":"x"}', (None, None)),
        ('{"async":true}\nplain text is no answer', (None, None)),
        # hookEventName is not checked, and a wrongly typed field drops only itself
        (
            '{"hookSpecificOutput": {"hookEventName": "Stop", "additionalContext": "c"}}',
            ("c", None),
        ),
        ('{"systemMessage": 3, "hookSpecificOutput": {"additionalContext": "c"}}', ("c", None)),
        ('{"decision": "maybe", "systemMessage": "kept"}', (None, "kept")),
    ],
)
def test_async_answer(stdout: str, texts: tuple[str | None, str | None]) -> None:
    assert output.async_texts(output.async_answer(stdout)) == texts


@pytest.mark.parametrize(
    ("line", "timeout"),
    [
        (b'{"async": true}', 15.0),
        (b' {"async":true,"asyncTimeout":2500} ', 2.5),
        (b'{"async":true,"asyncTimeout":0}', 15.0),
        (b'{"async":true,"asyncTimeout":"9"}', 15.0),
        (b'{"async":false}', None),
        (b'{"asyncTimeout":1}', None),
        (b"[true]", None),
        (b'{"async":true} and more', None),
    ],
)
def test_async_reply(line: bytes, timeout: float | None) -> None:
    assert output.async_reply(line) == timeout
