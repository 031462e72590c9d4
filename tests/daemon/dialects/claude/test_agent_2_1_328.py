"""What Claude Code 2.1.328 does that the v2.1.240 reference does not say, pinned through
the daemon (each rule was found by running the real agent: tests/agents/claude, the case
named in each test's docstring)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from hookd_testing import claude_settings, command, write_json

SWITCH = {"from_model": "claude-sonnet-4-5", "to_model": "claude-opus-5-5",
          "requested_model": "claude-opus-4-1", "source": "sdk"}  # fmt: skip


def answer(obj: Any) -> str:
    return f"printf '%s' '{json.dumps(obj)}'"


async def fire(rpc: Any, workspace: Any, event: str, payload: dict[str, Any],
               *handlers: dict[str, Any], matcher: str | None = None) -> dict[str, Any]:  # fmt: skip
    write_json(workspace / ".claude" / "settings.json",
               claude_settings(event, *handlers, matcher=matcher))  # fmt: skip
    result: dict[str, Any] = await rpc.fire("claude", event, [str(workspace)], payload)
    return result


async def test_pre_model_switch_exit_2_blocks_with_stderr(rpc, workspace) -> None:
    """[switch-pre-exit2-blocks]: "Model switch blocked by a PreModelSwitch hook"."""
    result = await fire(rpc, workspace, "PreModelSwitch", SWITCH,
                        command("echo 'stay on this model' >&2; exit 2"))  # fmt: skip

    assert (result["action"], result["reason"]) == ("block", "stay on this model")
    assert result["native"]["hookSpecificOutput"]["permissionDecision"] == "deny"


@pytest.mark.parametrize(
    ("output", "action", "reason"),
    [
        ({"permissionDecision": "deny", "permissionDecisionReason": "too pricey"}, "block",
         "too pricey"),
        ({"permissionDecision": "deny"}, "block", "Blocked by hook"),
        ({"permissionDecision": "ask", "permissionDecisionReason": "confirm"}, "ask", "confirm"),
        ({"permissionDecision": "allow"}, "proceed", None),
    ],
    ids=["deny", "deny-no-reason", "ask", "allow"],
)  # fmt: skip
async def test_pre_model_switch_decisions(rpc, workspace, output, action, reason) -> None:
    """[switch-pre-deny], [switch-pre-deny-no-reason], [switch-pre-ask-headless],
    [switch-pre-allow]: permissionDecision as on PreToolUse, without updatedInput."""
    out = {"hookSpecificOutput": {"hookEventName": "PreModelSwitch", **output}}

    result = await fire(rpc, workspace, "PreModelSwitch", SWITCH, command(answer(out)))

    assert (result["action"], result["reason"]) == (action, reason)
    assert (
        result["native"]["hookSpecificOutput"]["permissionDecision"] == output["permissionDecision"]
    )


@pytest.mark.parametrize(
    ("matcher", "runs"),
    [("claude-opus-5-5", True), ("opus", False), ("opus.*", True),
     ("claude-opus-5-5[1m]", True), ("claude-sonnet-4-5[1m]|claude-opus-5-5[2m]", True)],
)  # fmt: skip
async def test_model_switch_matchers(rpc, workspace, matcher, runs) -> None:
    """[switch-pre-matcher-*]: the matcher is tested against to_model; letters alone are
    an exact name; a [1m]/[2m] tag after a name is dropped first."""
    result = await fire(rpc, workspace, "PreModelSwitch", SWITCH,
                        command("exit 2"), matcher=matcher)  # fmt: skip

    assert len(result["hooks"]) == (1 if runs else 0)


async def test_post_model_switch_context(rpc, workspace) -> None:
    """[switch-post-context]: PostModelSwitch additionalContext reaches the model."""
    out = {"hookSpecificOutput": {"hookEventName": "PostModelSwitch", "additionalContext": "x"}}

    result = await fire(rpc, workspace, "PostModelSwitch", SWITCH, command(answer(out)))

    assert result["context"] == "x"


@pytest.mark.parametrize(
    ("tool", "matcher", "runs"),
    [("Agent", "Task", True), ("Agent", "Write|Task", True), ("Agent", "^Task$", True),
     ("Agent", "Agent", True), ("TaskStop", "KillShell", True), ("TaskStop", "KillBash", True),
     ("Task", "Agent", False), ("Bash", "Task", False)],
)  # fmt: skip
async def test_legacy_tool_names_match(rpc, workspace, tool, matcher, runs) -> None:
    """[legacy-matcher-task], [legacy-matcher-task-in-list], [legacy-matcher-task-regex]:
    a matcher naming a tool's old name matches the tool; not the other way round."""
    result = await fire(rpc, workspace, "PreToolUse", {"tool_name": tool, "tool_input": {}},
                        command("exit 2"), matcher=matcher)  # fmt: skip

    assert result["blocked"] is runs


async def test_hook_specific_output_for_another_event_is_no_answer(rpc, workspace) -> None:
    """[pre-wrong-event-name]: the agent refuses the whole output ("Hook returned incorrect
    event name") and the tool runs; the deny next to it does not count."""
    out = {"decision": "block", "reason": "no",
           "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "c"}}  # fmt: skip

    result = await fire(rpc, workspace, "PreToolUse", {"tool_name": "Bash"},
                        command(answer(out)))  # fmt: skip

    assert (result["action"], result["context"]) == ("proceed", None)
    assert (
        "incorrect event name: expected 'PreToolUse' but got 'PostToolUse'"
        in (result["hooks"][0]["error"])
    )


@pytest.mark.parametrize(
    ("event", "output", "action"),
    [
        ("PreToolUse", {"continue": False, "stopReason": "halt"}, "proceed-then-stop"),
        ("PreToolUse", {"continue": False, "decision": "block", "reason": "no"}, "stop"),
        ("UserPromptSubmit", {"continue": False}, "stop"),
        ("UserPromptSubmit", {"decision": "block", "reason": "no"}, "stop"),
        ("PostToolBatch", {"decision": "block", "reason": "no"}, "stop"),
        ("PostToolUse", {"decision": "block", "reason": "look"}, "block"),
        ("Stop", {"decision": "block", "reason": "go on"}, "block"),
        ("Stop", {"continue": False}, "stop"),
        ("PreToolUse", {}, "proceed"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)  # fmt: skip
async def test_action_says_what_the_agent_does(rpc, workspace, event, output, action) -> None:
    """[pre-continue-false], [prompt-continue-false], [prompt-block], [batch-block],
    [stop-block]: the result's action is what the real agent did next."""
    result = await fire(rpc, workspace, event, {"tool_name": "Bash"}, command(answer(output)))

    assert result["action"] == action


@pytest.mark.parametrize(
    ("event", "output", "error"),
    [
        ("UserPromptSubmit", {"decision": "deny"}, '"decision" must be one of approve, block'),
        ("UserPromptSubmit", {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
                                                     "sessionTitle": 5}},
         '"hookSpecificOutput.sessionTitle" must be a string'),
        ("SessionStart", {"hookSpecificOutput": {"hookEventName": "SessionStart",
                                                 "watchPaths": "x"}},
         '"hookSpecificOutput.watchPaths" must be a list of strings'),
        ("PreToolUse", {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                               "permissionDecision": "maybe"}},
         '"hookSpecificOutput.permissionDecision" must be one of allow, deny, ask, defer'),
        ("PermissionRequest", {"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                                                      "decision": {"behavior": "deny",
                                                                   "message": 1}}},
         '"hookSpecificOutput.decision" must be an object with "behavior" allow or deny'),
    ],
    ids=["top-level-decision", "session-title", "watch-paths", "permission-decision",
         "permission-request"],
)  # fmt: skip
async def test_a_field_the_schema_refuses_voids_the_whole_output(
    rpc, workspace, event, output, error
) -> None:
    """[prompt-session-title-wrong-type], [pre-top-level-decision-deny],
    [session-start-watch-paths-wrong-type], [pre-decision-unknown-with-context]: the
    output fails 2.1.328's schema, so nothing in it counts (a context beside it is lost)."""
    specific_output = output.get("hookSpecificOutput", {"hookEventName": event})
    body = {**output, "hookSpecificOutput": {**specific_output, "additionalContext": "lost"}}
    result = await fire(rpc, workspace, event, {"tool_name": "Bash", "prompt": "p"},
                        command(answer(body)))  # fmt: skip

    assert result["context"] is None
    assert error in result["hooks"][0]["error"]


async def test_on_failure_block_names_the_schema_error(rpc, workspace) -> None:
    """onFailure: "block" turns output the schema refuses into a block, in the agent's
    words ("expected string, received number")."""
    out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": 5}}
    result = await fire(rpc, workspace, "PreToolUse", {"tool_name": "Bash"},
                        command(answer(out), onFailure="block"))  # fmt: skip

    assert result["blocked"] is True
    assert result["reason"].endswith(
        "hookSpecificOutput.additionalContext: expected string, received number"
    )
