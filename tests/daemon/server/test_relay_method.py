"""The ``relay`` method (issue 22): one run of a relay entry as ``hookd-relay`` sends it,
answered with the exact stdout, stderr and exit code the agent reads, made by the agent's
package; what hookd cannot fire is answered as the agent's failing hook, not as an error
(only params of the wrong type are -32602), and every relayed fire is audited."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookd.daemon.audit import read_records
from hookd.daemon.settings import Settings
from hookd.relay import failure_message
from hookd_testing import claude_settings, command, write_json

EVENT = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}


def adopted(settings: Settings) -> Path:
    return Path(settings.home) / ".config" / "hookd" / "claude" / "settings.json"


def params(workspace: Path, stdin: str, agent: str = "claude", **more: Any) -> dict[str, Any]:
    env = {"CLAUDE_PROJECT_DIR": str(workspace), "PATH": "/usr/bin:/bin"}
    return {"agent": agent, "stdin": stdin, "cwd": str(workspace), "env": env, **more}


async def test_a_relayed_block_is_claudes_json_answer(rpc, settings, workspace) -> None:
    write_json(adopted(settings), claude_settings("PreToolUse", command("echo no >&2; exit 2")))

    answer = await rpc.call("relay", params(workspace, json.dumps(EVENT)))

    assert answer["exitCode"] == 0
    assert answer["stderr"] == ""
    native = json.loads(answer["stdout"])
    assert native["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert native["hookSpecificOutput"]["permissionDecisionReason"] == "no"


async def test_nothing_to_say_is_an_empty_answer(rpc, settings, workspace) -> None:
    """No adopted hook for the event: answered as read, empty stdout, exit 0."""
    answer = await rpc.call("relay", params(workspace, json.dumps(EVENT)))

    assert answer == {"stdout": "", "stderr": "", "exitCode": 0}


@pytest.mark.parametrize(("agent", "args", "stdin", "says"), [
    ("claude", [], "not json", "the event on stdin is not JSON"),
    ("claude", [], "[1]", "the event on stdin has no hook_event_name"),
    ("claude", ["extra"], json.dumps(EVENT), "too many arguments for claude ('extra')"),
    ("claud", [], json.dumps(EVENT), "unknown agent 'claud'"),
    ("claude", [], json.dumps({**EVENT, "hook_event_name": "PreToolUSe"}),
     "hookd refused the event: Invalid params (-32602): 'PreToolUSe' is not an event of claude"),
])  # fmt: skip
@pytest.mark.parametrize(("on_error", "code"), [("continue", 1), ("block", 2)])
async def test_what_hookd_cannot_fire_is_a_failing_hook(
    rpc, workspace, agent, args, stdin, says, on_error, code
) -> None:
    answer = await rpc.call("relay", params(workspace, stdin, agent, args=args, onError=on_error))

    assert answer["exitCode"] == code
    assert answer["stdout"] == ""
    line = answer["stderr"]
    assert line.endswith("\n")
    assert line.count("\n") == 1
    assert line.startswith("hookd-relay: ")
    assert says in line, line
    assert line.rstrip("\n").endswith(f"HOOKD_RELAY_ON_ERROR={on_error})")


async def test_a_cline_sdk_event_through_a_cline_entry_is_the_sdks(rpc, workspace) -> None:
    """One relay file serves both Cline runners: the answer is the runner's whose event it
    is (the SDK shows a failing hook's line as a context), whichever agent the entry names."""
    stdin = json.dumps({"hookName": "no_such_hook", "workspaceRoots": [str(workspace)]})
    sdk = json.dumps({"hookName": "tool_call", "workspaceRoots": "not a list"})

    original = await rpc.call("relay", params(workspace, stdin, "cline", args=["/x/PreToolUse"]))
    through = await rpc.call("relay", params(workspace, sdk, "cline", args=["/x/PreToolUse"]))

    assert original["exitCode"] == 1
    assert original["stdout"] == ""
    assert "is not an event of cline;" in original["stderr"]
    assert through == {"stdout": "", "stderr": "", "exitCode": 0}, "tool_call: the SDK's"


@pytest.mark.parametrize(("field", "value"), [
    ("agent", 3), ("stdin", {"a": 1}), ("cwd", "relative"), ("args", "x"),
    ("env", {"A": 1}), ("onError", "maybe"),
])  # fmt: skip
async def test_params_of_the_wrong_type_are_invalid_params(rpc, workspace, field, value) -> None:
    request = params(workspace, json.dumps(EVENT))
    request[field] = value

    response = await rpc.recv_response(await rpc.start("relay", request))

    assert response["error"]["code"] == -32602
    assert f'"{field}"' in response["error"]["data"]


async def test_a_relayed_fire_is_audited(rpc, settings, workspace) -> None:
    write_json(adopted(settings), claude_settings("PreToolUse", command("true")))

    await rpc.call("relay", params(workspace, json.dumps(EVENT)))

    (record,) = [r for r in read_records(str(Path(settings.state_dir) / "audit.jsonl"))
                 if r.get("type") == "fire"]  # fmt: skip
    assert record["agent"] == "claude"
    assert record["event"] == "PreToolUse"
    assert record["roots"] == [str(workspace)]
    assert record["outcome"] == "answered"


def test_the_failure_line_says_the_policy() -> None:
    assert failure_message("x", False) == (
        "hookd-relay: x (letting the action go on: HOOKD_RELAY_ON_ERROR=continue)"
    )
    assert failure_message("x", True) == "hookd-relay: x (blocking: HOOKD_RELAY_ON_ERROR=block)"
