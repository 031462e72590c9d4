"""Per-event tables: stdin, matcher field, exit code 2, plain stdout, additionalContext,
top-level ``decision``, and the universal fields ``systemMessage`` / ``continue``.

Every event of the reference is a row of every table. Each row's ``rule`` quotes the
reference section and the documented rule for that event. The documented example input
of each event (``examples/reference/inputs``) is what the hooks are fired with.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from conformance.claude.support import (
    EVENTS,
    GUIDE,
    REFERENCE,
    Claude,
    command,
    documented_input,
    echo_json,
    example_json,
    params,
)


def event_input(event: str) -> dict[str, Any]:
    return documented_input(event)


# --- stdin ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Stdin:
    id: str
    rule: str
    event: str
    variant: str = ""
    source: str = ""
    """A stored input other than the reference's (``examples/guide/inputs``)."""
    xfail: str | None = None


STDIN = [
    Stdin(
        id=f"{event}{'-' + variant if variant else ''}",
        rule=f"{REFERENCE} '{event} input' + 'Common input fields': the hook's stdin is the "
        "event's JSON input exactly as Claude Code sends it (hookd adds nothing when "
        "hook_event_name and cwd are present)",
        event=event,
        variant=variant,
    )
    for event, variant in [(e, "") for e in EVENTS] + [("Elicitation", "url")]
] + [
    Stdin(
        id="guide-PreToolUse",
        rule=f"{GUIDE} 'Hook input': the PreToolUse input for an npm test command reaches the "
        "hook as is",
        event="PreToolUse",
        source="guide/inputs/PreToolUse.json",
    )
]


@pytest.mark.parametrize("case", params(STDIN))
async def test_documented_input_reaches_the_hook_unchanged(claude: Claude, case: Stdin) -> None:
    probe = claude.probe()
    claude.hooks(case.event, command(probe.command))
    if case.source:
        payload = example_json(case.source)
    else:
        payload = documented_input(case.event, case.variant)

    result = await claude.fire(case.event, payload)

    assert [h["exitCode"] for h in result["hooks"]] == [0]
    assert probe.stdin() == payload
    assert probe.env()["CLAUDE_PROJECT_DIR"] == str(claude.ws)
    assert probe.cwd() == str(claude.ws)  # the documented cwd does not exist here


# --- matcher field ------------------------------------------------------------------------

MATCHED_ON: dict[str, tuple[str, str, str]] = {
    # event: (field, a documented value that matches the input, another documented value)
    "PreToolUse": ("tool_name", "Bash", "Edit"),
    "PermissionRequest": ("tool_name", "Bash", "Edit"),
    "PermissionDenied": ("tool_name", "Bash", "Edit"),
    "PostToolUse": ("tool_name", "Write", "Bash"),
    "PostToolUseFailure": ("tool_name", "Bash", "Write"),
    "SessionStart": ("source", "startup", "resume"),
    "Setup": ("trigger", "init", "maintenance"),
    "SessionEnd": ("reason", "other", "clear"),
    "Notification": ("notification_type", "permission_prompt", "idle_prompt"),
    "SubagentStart": ("agent_type", "Explore", "Plan"),
    "SubagentStop": ("agent_type", "Explore", "Plan"),
    "PreCompact": ("trigger", "manual", "auto"),
    "PostCompact": ("trigger", "manual", "auto"),
    "ConfigChange": ("source", "project_settings", "user_settings"),
    "DirectoryAdded": ("source", "slash_command", "register_repo_root"),
    "FileChanged": ("file_path (basename)", ".envrc", "data.csv"),
    "StopFailure": ("error", "rate_limit", "overloaded"),
    "InstructionsLoaded": ("load_reason", "session_start", "nested_traversal"),
    "UserPromptExpansion": ("command_name", "example-skill", "deploy"),
    "Elicitation": ("mcp_server_name", "my-mcp-server", "other-server"),
    "ElicitationResult": ("mcp_server_name", "my-mcp-server", "other-server"),
}
NO_MATCHER = (
    "UserPromptSubmit", "PostToolBatch", "Stop", "TeammateIdle", "TaskCreated",
    "TaskCompleted", "WorktreeCreate", "WorktreeRemove", "MessageDisplay", "CwdChanged",
)  # fmt: skip
assert set(MATCHED_ON) | set(NO_MATCHER) == set(EVENTS)


@dataclass(frozen=True)
class MatcherField:
    id: str
    rule: str
    event: str
    matching: str | None  # None: no matcher support
    other: str | None = None


MATCHER_FIELDS = [
    MatcherField(
        id=event,
        rule=f"{REFERENCE} 'Matcher patterns' table: {event} matchers filter on {field}",
        event=event,
        matching=matching,
        other=other,
    )
    for event, (field, matching, other) in MATCHED_ON.items()
] + [
    MatcherField(
        id=f"{event}-ignored",
        rule=f"{REFERENCE} 'Matcher patterns': {event} has no matcher support; 'If you add a "
        "matcher field to an event without matcher support, it is silently ignored'",
        event=event,
        matching=None,
    )
    for event in NO_MATCHER
]


@pytest.mark.parametrize("case", params(MATCHER_FIELDS))
async def test_matcher_filters_on_the_documented_field(claude: Claude, case: MatcherField) -> None:
    if case.matching is None:
        groups = [{"matcher": "no_such_value", "hooks": [command("echo ran")]}]
    else:
        groups = [
            {"matcher": case.matching, "hooks": [command("echo matching")]},
            {"matcher": case.other, "hooks": [command("echo other")]},
        ]
    claude.write_settings({"hooks": {case.event: groups}})

    result = await claude.fire(case.event, event_input(case.event))

    expected = ["echo ran"] if case.matching is None else ["echo matching"]
    assert [h["command"] for h in result["hooks"]] == expected
    assert result["warnings"] == []


# --- exit code 2 ----------------------------------------------------------------------------

EXIT2_ROWS: dict[str, tuple[str, str]] = {
    # event: (kind, the reference's "What happens on exit 2" text)
    "PreToolUse": ("blocks", "Blocks the tool call"),
    "PermissionRequest": ("ignored", "Exit code 2 isn't honored ... stderr is discarded"),
    "UserPromptSubmit": ("blocks", "Blocks prompt processing and erases the prompt"),
    "UserPromptExpansion": ("blocks", "Blocks the expansion"),
    "Stop": ("blocks", "Prevents Claude from stopping, continues the conversation"),
    "SubagentStop": ("blocks", "Prevents the subagent from stopping"),
    "TeammateIdle": ("blocks", "Prevents the teammate from going idle"),
    "TaskCreated": ("blocks", "Rolls back the task creation"),
    "TaskCompleted": ("blocks", "Prevents the task from being marked as completed"),
    "ConfigChange": ("blocks", "Blocks the configuration change (except policy_settings)"),
    "StopFailure": ("ignored", "Output and exit code are ignored"),
    "PostToolUse": ("feedback", "Shows stderr to Claude; the tool already ran"),
    "PostToolUseFailure": ("feedback", "Shows stderr to Claude; the tool already failed"),
    "PostToolBatch": ("blocks", "Stops the agentic loop before the next model call"),
    "PermissionDenied": ("ignored", "Exit code and stderr are ignored"),
    "Notification": ("ignored", "Exit code and stderr are ignored"),
    "SubagentStart": ("user", "Shows stderr to user only"),
    "SessionStart": ("user", "Shows stderr to user only"),
    "Setup": ("user", "Shows stderr to user only"),
    "SessionEnd": ("user", "Shows stderr to user only"),
    "CwdChanged": ("user", "Shows stderr to user only"),
    "DirectoryAdded": ("ignored", "Stderr goes to the debug log"),
    "FileChanged": ("user", "Shows stderr to user only"),
    "PreCompact": ("blocks", "Blocks compaction"),
    "PostCompact": ("user", "Shows stderr to user only"),
    "Elicitation": ("blocks", "Denies the elicitation"),
    "ElicitationResult": ("blocks", "Blocks the response (action becomes decline)"),
    "WorktreeCreate": ("blocks", "Any non-zero exit code causes worktree creation to fail"),
    "WorktreeRemove": ("ignored", "Failures are logged in debug mode only"),
    "InstructionsLoaded": ("ignored", "Exit code is ignored"),
    "MessageDisplay": ("ignored", "The original text is displayed"),
}
assert set(EXIT2_ROWS) == set(EVENTS)


@dataclass(frozen=True)
class ExitTwo:
    id: str
    rule: str
    event: str
    kind: str  # blocks | feedback | user | ignored | unblocked
    payload_patch: tuple[tuple[str, Any], ...] = ()
    xfail: str | None = None


EXIT2 = [
    ExitTwo(
        id=event,
        rule=f"{REFERENCE} 'Exit code 2 behavior per event': {event}: {text}",
        event=event,
        kind=kind,
    )
    for event, (kind, text) in EXIT2_ROWS.items()
] + [
    ExitTwo(
        id="ConfigChange-policy_settings",
        rule=f"{REFERENCE} 'ConfigChange decision control': 'policy_settings changes can't be "
        "blocked ... any blocking decision is ignored'",
        event="ConfigChange",
        kind="unblocked",
        payload_patch=(("source", "policy_settings"),),
    ),
]


@pytest.mark.parametrize("case", params(EXIT2))
async def test_exit_code_2_per_event(claude: Claude, case: ExitTwo) -> None:
    claude.hooks(case.event, command("echo 'why not' >&2; exit 2"))
    payload = {**event_input(case.event), **dict(case.payload_patch)}

    result = await claude.fire(case.event, payload)

    hook = result["hooks"][0]
    assert hook["exitCode"] == 2
    assert result["blocked"] is (case.kind in ("blocks", "feedback"))
    if case.kind == "blocks" and case.event == "WorktreeCreate":
        assert "why not" in result["reason"]  # hookd names the failure; stderr is kept
    elif case.kind == "blocks":
        assert result["reason"] == "why not"
        assert hook["blocked"] is True
    elif case.kind == "feedback":  # Claude sees stderr next to the tool result
        assert result["reason"] == "why not"
        assert result["native"] == {"decision": "block", "reason": "why not"}
    elif case.kind == "unblocked":  # the decision is ignored, whatever the hook said
        assert result["decision"] is None
        assert result["native"] == {}
    elif case.kind == "user":  # a "<hook name> hook error" notice for the user
        assert result["reason"] is None
        assert "why not" in (hook["error"] or "")
        assert result["native"] == {}
    else:
        assert result["reason"] is None
        assert result["native"] == {}


# --- plain stdout ------------------------------------------------------------------------------

PLAIN_CONTEXT = ("UserPromptSubmit", "UserPromptExpansion", "SessionStart")


@dataclass(frozen=True)
class Plain:
    id: str
    rule: str
    event: str
    is_context: bool


PLAIN = [
    Plain(
        id=event,
        rule=f"{REFERENCE} 'Exit code 0': plain-text stdout is context only for "
        f"UserPromptSubmit, UserPromptExpansion and SessionStart ({event}: "
        f"{'context' if event in PLAIN_CONTEXT else 'debug log only'})",
        event=event,
        is_context=event in PLAIN_CONTEXT,
    )
    for event in EVENTS
    if event != "WorktreeCreate"  # stdout is the worktree path there (test_decisions)
]


@pytest.mark.parametrize("case", params(PLAIN))
async def test_plain_stdout_on_exit_0(claude: Claude, case: Plain) -> None:
    claude.hooks(case.event, command("echo 'Current branch: main'"))

    result = await claude.fire(case.event, event_input(case.event))

    assert result["hooks"][0]["error"] is None
    assert result["blocked"] is False
    if case.is_context:
        assert result["context"] == "Current branch: main"
        specific = result["native"]["hookSpecificOutput"]
        assert specific == {
            "hookEventName": case.event,
            "additionalContext": "Current branch: main",
        }
    else:
        assert result["context"] is None
        assert result["native"] == {}


# --- additionalContext ---------------------------------------------------------------------------

CONTEXT_EVENTS = (
    "SessionStart", "Setup", "SubagentStart", "UserPromptSubmit", "UserPromptExpansion",
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Stop", "SubagentStop",
    # Claude Code 2.1.328 (the pinned agent wins over the reference; real-agents.md):
    "Notification", "PostModelSwitch",
)  # fmt: skip


@dataclass(frozen=True)
class Context:
    id: str
    rule: str
    event: str
    honoured: bool


CONTEXT = [
    Context(
        id=event,
        rule=f"{REFERENCE} 'Add context for Claude': additionalContext is delivered for "
        "SessionStart, Setup, SubagentStart, UserPromptSubmit, UserPromptExpansion, "
        "PreToolUse, PostToolUse, PostToolUseFailure, PostToolBatch, Stop, SubagentStop "
        f"({event}: {'delivered' if event in CONTEXT_EVENTS else 'not an output of this event'})",
        event=event,
        honoured=event in CONTEXT_EVENTS,
    )
    for event in EVENTS
    if event != "WorktreeCreate"
]


@pytest.mark.parametrize("case", params(CONTEXT))
async def test_additional_context_per_event(claude: Claude, case: Context) -> None:
    out = {"hookSpecificOutput": {"hookEventName": case.event, "additionalContext": "ctx"}}
    claude.hooks(case.event, command(echo_json(out)))

    result = await claude.fire(case.event, event_input(case.event))

    assert result["hooks"][0]["error"] is None
    if case.honoured:
        assert result["context"] == "ctx"
        assert result["native"]["hookSpecificOutput"]["additionalContext"] == "ctx"
    else:
        assert result["context"] is None
        assert "additionalContext" not in result["native"].get("hookSpecificOutput", {})


# --- top-level decision: "block" ------------------------------------------------------------------

TOP_LEVEL = (
    "UserPromptSubmit", "UserPromptExpansion", "PostToolUse", "PostToolUseFailure",
    "PostToolBatch", "Stop", "SubagentStop", "ConfigChange", "PreCompact", "TaskCreated",
)  # fmt: skip


@dataclass(frozen=True)
class TopLevel:
    id: str
    rule: str
    event: str
    blocks: bool
    xfail: str | None = None


TOP_LEVEL_CASES = [
    TopLevel(
        id=event,
        rule=f"{REFERENCE} 'Decision control' table: top-level decision:block + reason is "
        "honoured by UserPromptSubmit, UserPromptExpansion, PostToolUse, PostToolUseFailure, "
        "PostToolBatch, Stop, SubagentStop, ConfigChange, PreCompact and TaskCreated; "
        "PreToolUse maps the deprecated 'block' to deny; other events have no such control "
        f"({event})",
        event=event,
        blocks=event in TOP_LEVEL or event == "PreToolUse",
    )
    for event in EVENTS
    if event != "WorktreeCreate"
]


@pytest.mark.parametrize("case", params(TOP_LEVEL_CASES))
async def test_top_level_decision_block_per_event(claude: Claude, case: TopLevel) -> None:
    claude.hooks(case.event, command(echo_json({"decision": "block", "reason": "r1"})))

    result = await claude.fire(case.event, event_input(case.event))

    assert result["blocked"] is case.blocks
    if case.event == "PreToolUse":
        assert result["decision"] == "deny"
        assert result["native"]["hookSpecificOutput"]["permissionDecision"] == "deny"
        assert result["native"]["hookSpecificOutput"]["permissionDecisionReason"] == "r1"
    elif case.blocks:
        assert result["reason"] == "r1"
        assert result["native"] == {"decision": "block", "reason": "r1"}
    else:
        assert result["reason"] is None
        assert result["native"] == {}


# --- universal fields: systemMessage and continue --------------------------------------------------

DISCARD_BOTH = {
    "InstructionsLoaded": "'Claude Code discards their JSON output fields, such as systemMessage "
    "and continue'",
    "Notification": "'Claude Code discards their systemMessage and continue fields'",
    "WorktreeRemove": "'Claude Code discards a WorktreeRemove hook's JSON output fields, such as "
    "systemMessage and continue'",
    "PreCompact": "'Claude Code discards a PreCompact hook's systemMessage and continue fields'",
    "PostCompact": "'Claude Code discards a PostCompact hook's systemMessage and continue fields'",
    "SessionEnd": "'Claude Code discards their JSON output fields, such as systemMessage'",
    "MessageDisplay": "'acts on displayContent ... and discards systemMessage and continue'",
    "ConfigChange": "'acts on the blocking decision ... and discards systemMessage and continue'",
    "Elicitation": "'acts on hookSpecificOutput ... and discards systemMessage and continue'",
    "ElicitationResult": "'acts on hookSpecificOutput ... and discards systemMessage and continue'",
    "StopFailure": "'Claude Code ignores the hook's output and exit code, apart from "
    "terminalSequence'",
    "PermissionDenied": "'The only output this event reads is hookSpecificOutput.retry' "
    "(Prompt-based hooks, Response schema)",
}
DISCARD_CONTINUE = {
    "CwdChanged": "'reads watchPaths and systemMessage from their JSON output and discards "
    "continue'",
    "FileChanged": "'reads watchPaths and systemMessage from their JSON output and discards "
    "continue'",
    "TaskCreated": "'Claude Code ignores continue: false from this event'",
    "DirectoryAdded": "'Claude Code discards the continue field from their JSON output' "
    "(systemMessage goes to Claude or the debug log depending on source: not asserted)",
    # The pinned agent wins over the reference: Claude Code 2.1.328 runs the tool and goes
    # on (tests/agents/claude [permission-allow-continue-false]).
    "PermissionRequest": "Claude Code 2.1.328 ignores continue: false here",
}


@dataclass(frozen=True)
class Universal:
    id: str
    rule: str
    event: str
    keeps_message: bool | None  # None: not asserted
    keeps_continue: bool
    xfail: str | None = None


def _universal(event: str) -> Universal:
    if event in DISCARD_BOTH:
        why = DISCARD_BOTH[event]
        return Universal(event, f"{REFERENCE} '{event}': {why}", event, False, False)
    if event in DISCARD_CONTINUE:
        keeps = None if event == "DirectoryAdded" else True
        why = DISCARD_CONTINUE[event]
        return Universal(event, f"{REFERENCE} '{event}': {why}", event, keeps, False)
    return Universal(
        event,
        f"{REFERENCE} 'JSON output': continue:false stops Claude (stopReason shown to the "
        f"user) and systemMessage is a warning to the user; {event} keeps both",
        event,
        True,
        True,
    )


UNIVERSAL = [_universal(event) for event in EVENTS if event != "WorktreeCreate"]


@pytest.mark.parametrize("case", params(UNIVERSAL))
async def test_system_message_and_continue_per_event(claude: Claude, case: Universal) -> None:
    out = {"systemMessage": "heads up", "continue": False, "stopReason": "halt"}
    claude.hooks(case.event, command(echo_json(out)))

    result = await claude.fire(case.event, event_input(case.event))

    native = result["native"]
    assert result["hooks"][0]["error"] is None
    if case.keeps_message is not None:
        expected = "heads up" if case.keeps_message else None
        assert result["systemMessage"] == expected
        assert native.get("systemMessage") == expected
    if case.keeps_continue:
        assert (result["continue"], result["stopReason"]) == (False, "halt")
        assert (native["continue"], native["stopReason"]) == (False, "halt")
    else:
        assert (result["continue"], result["stopReason"]) == (True, None)
        assert "continue" not in native
