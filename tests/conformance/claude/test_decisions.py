"""Exit codes, JSON parsing and the decision fields of each event.

Every documented output example (``examples/*/outputs``) is printed by a hook, verbatim,
and must have its documented effect on both the fire result and ``native`` (the combined
Claude hook output object). Around them: the exit code 0 / 2 / other rules, what counts
as JSON, schema errors, decision precedence across hooks, and each event's own fields.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from conformance.claude.support import (
    EXIT0,
    EXIT2,
    GUIDE,
    JSON_OUT,
    OTHER,
    PRE,
    REFERENCE,
    Claude,
    cat_example,
    command,
    documented_input,
    echo_json,
    example_json,
    params,
)

PERM = f"{REFERENCE} 'PermissionRequest decision control'"
WORKTREE = f"{REFERENCE} 'WorktreeCreate output'"
TERMINAL = f"{REFERENCE} 'Emit terminal notifications'"


def specific(event: str, **fields: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, **fields}}


def out(event: str, **fields: Any) -> str:
    """A hook command printing ``hookSpecificOutput`` for ``event``."""
    return echo_json(specific(event, **fields))


@dataclass(frozen=True)
class Decision:
    id: str
    rule: str
    event: str
    hooks: tuple[str, ...]
    expect: dict[str, Any] = field(default_factory=dict)
    """Fields of the fire result, compared exactly."""
    native: dict[str, Any] | None = None
    """The whole ``native`` object, compared exactly (None: not compared)."""
    errors: tuple[str | None, ...] | None = None
    """Per hook: None = no error, else a regular expression the error must match."""
    payload: dict[str, Any] | None = None
    check: Callable[[Claude, dict[str, Any]], None] | None = None
    xfail: str | None = None


def stderr_then_exit(text: str, code: int) -> str:
    return f"printf '%s\\n' {json.dumps(text)} >&2; exit {code}"


ALLOW_FULL = example_json("reference/outputs/PreToolUse-allow-full.json")["hookSpecificOutput"]
LINT = example_json("reference/outputs/PermissionRequest-allow-lint.json")["hookSpecificOutput"]
SET_MODE = example_json("guide/outputs/PermissionRequest-set-mode.json")["hookSpecificOutput"]
TOOL_OUTPUT = example_json("reference/outputs/PostToolUse-updated-tool-output.json")
SESSION_TITLE = example_json("reference/outputs/SessionStart-context-title.json")


def _first_line_only(claude: Claude, result: dict[str, Any]) -> None:
    assert "second" not in result["hooks"][0]["error"]


DECISIONS = [
    # --- what counts as JSON ----------------------------------------------------------
    Decision(
        "json-after-whitespace", f"{EXIT0}: the first character, ignoring leading whitespace, "
        "decides: '{' means JSON", "Stop",
        ("printf '\\n   {\"decision\": \"block\", \"reason\": \"r\"}\\n'",),
        {"blocked": True, "reason": "r"}, {"decision": "block", "reason": "r"}, (None,),
    ),
    Decision(
        "invalid-json-is-plain-text", f"{EXIT0}: 'If it isn't valid JSON, Claude Code treats it "
        "as plain text' (plain text is context on UserPromptSubmit)", "UserPromptSubmit",
        ("echo '{not json'",), {"context": "{not json", "blocked": False}, errors=(None,),
    ),
    Decision(
        "nan-is-not-json", f"{EXIT0}: 'If it isn't valid JSON, Claude Code treats it as plain "
        "text': NaN and Infinity are not JSON (JSON.parse refuses them)", "UserPromptSubmit",
        ("""echo '{"decision": "block", "reason": "r", "n": NaN}'""",),
        {"blocked": False, "context": '{"decision": "block", "reason": "r", "n": NaN}'},
        errors=(None,),
    ),
    Decision(
        "user-only-exit-2-without-stderr", f"{REFERENCE} 'Exit code 2 behavior per event': "
        "SessionStart 'Shows stderr to user only'; with no stderr hookd still reports the "
        "failed hook (never silent)", "SessionStart", ("exit 2",), {"blocked": False},
        errors=("hook error: exit code 2",),
    ),
    Decision(
        "invalid-json-elsewhere-is-debug-log", f"{EXIT0}: invalid JSON is plain text, which goes "
        "to the debug log on PreToolUse", "PreToolUse",
        ("echo '{\"permissionDecision\": deny'",), {"decision": None, "context": None}, {},
        (None,),
    ),
    Decision(
        "array-is-plain-text", f"{EXIT0}: 'a JSON array ... included' is plain text",
        "UserPromptSubmit", ("echo '[1, 2]'",), {"context": "[1, 2]"}, errors=(None,),
    ),
    Decision(
        "quoted-json-string-is-plain-text", f"{EXIT0}: 'a quoted JSON string' is plain text "
        "(never decoded a second time)", "Stop",
        ("echo '\"{\\\"decision\\\": \\\"block\\\"}\"'",), {"blocked": False}, {}, (None,),
    ),
    Decision(
        "profile-banner-breaks-json", f"{GUIDE} 'Hook JSON has no effect': a banner before the "
        "JSON makes stdout plain text; 'On exit 0 nothing is reported'", "Stop",
        (cat_example("guide/profile-banner-stdout.txt"),), {"blocked": False}, {}, (None,),
    ),
    Decision(
        "empty-stdout", f"{REFERENCE} 'How a hook resolves': 'Exit code 0 with no output means "
        "the hook has no decision to report'", "PreToolUse", ("true",),
        {"blocked": False, "decision": None, "reason": None, "context": None}, {}, (None,),
    ),
    Decision(
        "stderr-on-exit-0-ignored", f"{EXIT0}: 'Stderr from a hook that exits 0 goes to the "
        "debug log only ... Claude never sees it'", "PreToolUse",
        ("echo 'noise' >&2; exit 0",), {"reason": None, "context": None}, {}, (None,),
    ),
    # --- schema validation ------------------------------------------------------------
    Decision(
        "schema-invalid-exit-0", f"{EXIT0}: 'exit 0 with a parsed object that fails schema "
        "validation is a non-blocking error: the action proceeds'", "Stop",
        (echo_json({"continue": "no", "decision": "block", "reason": "r"}),),
        {"blocked": False, "continue": True}, {}, ("continue",),
    ),
    Decision(
        "schema-invalid-exit-1", f"{OTHER}: 'With a parsed object that fails schema validation "
        "... the same non-blocking error as on exit 0'", "Stop",
        (echo_json({"systemMessage": 42, "decision": "block", "reason": "r"}) + "; exit 1",),
        {"blocked": False, "systemMessage": None}, {}, ("systemMessage",),
    ),
    Decision(
        "schema-invalid-exit-2-still-blocks", f"{EXIT2}: 'A hook that exits 2 while printing "
        "JSON that fails schema validation still blocks: Claude Code uses stderr as the "
        "blocking reason'", "Stop",
        (echo_json({"continue": "no"}) + "; " + stderr_then_exit("from stderr", 2),),
        {"blocked": True, "reason": "from stderr"}, {"decision": "block", "reason": "from stderr"},
    ),
    # --- exit 2 and JSON together -----------------------------------------------------
    Decision(
        "exit-2-reason-from-json", f"{EXIT2}: 'The blocking message is the reason from your "
        "JSON's blocking decision when it makes one, and your stderr text otherwise'", "Stop",
        (echo_json({"decision": "block", "reason": "json reason"}) + "; "
         + stderr_then_exit("stderr reason", 2),),
        {"blocked": True, "reason": "json reason"},
    ),
    Decision(
        "exit-2-still-reads-json", f"{EXIT2}: 'Claude Code still reads any valid JSON output on "
        "stdout'", "PreToolUse",
        (out("PreToolUse", additionalContext="ctx") + "; " + stderr_then_exit("no", 2),),
        {"blocked": True, "decision": "deny", "reason": "no", "context": "ctx"},
        specific("PreToolUse", permissionDecision="deny", permissionDecisionReason="no",
                 additionalContext="ctx"),
    ),
    # --- other exit codes -------------------------------------------------------------
    Decision(
        "exit-1-plain-is-error", f"{OTHER}: plain or empty stdout is a non-blocking error 'followed "
        "by the first line of stderr, prefixed with Failed with non-blocking status code:'",
        "PreToolUse", ("printf 'first\\nsecond\\n' >&2; exit 1",), {"blocked": False}, {},
        (r"Failed with non-blocking status code.*first",), check=_first_line_only,
    ),
    Decision(
        "exit-1-empty-is-error", f"{OTHER}: 'or with empty stdout, it's a non-blocking error'",
        "Stop", ("exit 1",), {"blocked": False}, {},
        (r"Failed with non-blocking status code",),
    ),
    Decision(
        "exit-1-valid-json-honoured", f"{OTHER}: 'Claude Code ignores the exit code and the JSON "
        "alone decides ... the hook isn't reported as an error'", "PostToolUse",
        (out("PostToolUse", additionalContext="ctx") + "; exit 1",), {"context": "ctx"},
        specific("PostToolUse", additionalContext="ctx"), (None,),
    ),
    Decision(
        "exit-3-json-block", f"{OTHER}: each field the event supports is honoured on any exit code "
        "but 2", "Stop", (echo_json({"decision": "block", "reason": "r"}) + "; exit 3",),
        {"blocked": True, "reason": "r"}, {"decision": "block", "reason": "r"}, (None,),
    ),
    # --- universal fields -------------------------------------------------------------
    Decision(
        "continue-false-example", f"{JSON_OUT}: the documented stop-everything example",
        "Stop", (cat_example("reference/outputs/continue-false.json"),),
        {"continue": False, "stopReason": "Build failed, fix errors before continuing"},
        {"continue": False, "stopReason": "Build failed, fix errors before continuing"},
    ),
    Decision(
        "continue-false-with-decision", f"{JSON_OUT}: continue:false 'Takes precedence over any "
        "event-specific decision fields' (both reach the agent, which applies the precedence)",
        "PreToolUse",
        (echo_json({"continue": False, "stopReason": "s",
                    **specific("PreToolUse", permissionDecision="allow")}),),
        {"continue": False, "stopReason": "s", "decision": "allow"},
        {"continue": False, "stopReason": "s",
         **specific("PreToolUse", permissionDecision="allow")},
    ),
    Decision(
        "suppress-output-no-effect", f"{JSON_OUT}: suppressOutput 'Has no effect: Claude Code "
        "accepts the field but doesn't act on it'", "UserPromptSubmit",
        (echo_json({"suppressOutput": True,
                    **specific("UserPromptSubmit", additionalContext="ctx")}),),
        {"context": "ctx"}, specific("UserPromptSubmit", additionalContext="ctx"), (None,),
    ),
    Decision(
        "top-level-additional-context-ignored", f"{GUIDE} 'Structured JSON output': 'if you place "
        "it at the top level of the JSON, Claude Code silently ignores it'", "UserPromptSubmit",
        (echo_json({"additionalContext": "lost"}),), {"context": None}, {}, (None,),
    ),
    Decision(
        "decision-only-block", f"{REFERENCE} 'Decision control': 'The only value for decision "
        "is \"block\". To allow the action to proceed, omit decision'", "Stop",
        (echo_json({"decision": "approve", "reason": "fine"}),), {"blocked": False}, {},
        (None,),
    ),
    Decision(
        "top-level-block-example", f"{REFERENCE} 'Decision control' (Top-level decision tab)",
        "PostToolUse", (cat_example("reference/outputs/top-level-block.json"),),
        {"blocked": True, "reason": "Test suite must pass before proceeding"},
        {"decision": "block", "reason": "Test suite must pass before proceeding"},
    ),
    # --- PreToolUse ---------------------------------------------------------------------
    Decision(
        "pre-deny-destructive", f"{REFERENCE} 'How a hook resolves': the deny is shown to Claude",
        "PreToolUse", (cat_example("reference/outputs/PreToolUse-deny-destructive.json"),),
        {"blocked": True, "decision": "deny", "reason": "Destructive command blocked by hook"},
        specific("PreToolUse", permissionDecision="deny",
                 permissionDecisionReason="Destructive command blocked by hook"),
    ),
    Decision(
        "pre-deny-database", f"{REFERENCE} 'Decision control' (PreToolUse tab)", "PreToolUse",
        (cat_example("reference/outputs/PreToolUse-deny-database.json"),),
        {"blocked": True, "reason": "Database writes are not allowed"},
        specific("PreToolUse", permissionDecision="deny",
                 permissionDecisionReason="Database writes are not allowed"),
    ),
    Decision(
        "pre-deny-rg", f"{GUIDE} 'Structured JSON output': 'With deny, Claude Code cancels the "
        "tool call and feeds permissionDecisionReason back to Claude'", "PreToolUse",
        (cat_example("guide/outputs/PreToolUse-deny-rg.json"),),
        {"blocked": True, "reason": "Use rg instead of grep for better performance"},
    ),
    Decision(
        "pre-allow-full", f"{PRE}: allow with permissionDecisionReason, updatedInput (replaces the "
        "entire input) and additionalContext", "PreToolUse",
        (cat_example("reference/outputs/PreToolUse-allow-full.json"),),
        {"blocked": False, "decision": "allow", "reason": "My reason here",
         "updatedInput": {"field_to_modify": "new value"},
         "context": "Current environment: production. Proceed with caution."},
        {"hookSpecificOutput": ALLOW_FULL},
    ),
    Decision(
        "pre-ask", f"{PRE}: '\"ask\" prompts the user to confirm'", "PreToolUse",
        (out("PreToolUse", permissionDecision="ask", permissionDecisionReason="check"),),
        {"blocked": False, "decision": "ask", "reason": "check"},
        specific("PreToolUse", permissionDecision="ask", permissionDecisionReason="check"),
    ),
    Decision(
        "pre-ask-with-updated-input", f"{PRE}: updatedInput 'Combine ... with \"ask\" to show the "
        "modified input to the user'", "PreToolUse",
        (out("PreToolUse", permissionDecision="ask", updatedInput={"command": "npm test -s"}),),
        {"decision": "ask", "updatedInput": {"command": "npm test -s"}},
    ),
    Decision(
        "pre-updated-input-replaces", f"{PRE}: updatedInput 'Replaces the entire input object, so "
        "include unchanged fields'", "PreToolUse",
        (out("PreToolUse", permissionDecision="allow", updatedInput={"command": "npm run lint"}),),
        {"updatedInput": {"command": "npm run lint"}},
    ),
    Decision(
        "pre-defer-ignores-extras", f"{PRE}: for \"defer\" the reason, updatedInput and "
        "additionalContext are ignored", "PreToolUse",
        (out("PreToolUse", permissionDecision="defer", permissionDecisionReason="later",
             updatedInput={"command": "x"}, additionalContext="ctx"),),
        {"decision": "defer", "blocked": False, "updatedInput": None, "context": None,
         "reason": None},
        specific("PreToolUse", permissionDecision="defer"),
    ),
    Decision(
        "pre-legacy-approve", f"{PRE} (note): 'The deprecated values \"approve\" and \"block\" map "
        "to \"allow\" and \"deny\"'", "PreToolUse",
        (echo_json({"decision": "approve", "reason": "ok"}),),
        {"decision": "allow", "blocked": False},
    ),
    Decision(
        "precedence-defer-over-ask", f"{PRE}: 'precedence is deny > defer > ask > allow'",
        "PreToolUse", (out("PreToolUse", permissionDecision="ask"),
                       out("PreToolUse", permissionDecision="defer"),
                       out("PreToolUse", permissionDecision="allow")),
        {"decision": "defer", "blocked": False},
    ),
    Decision(
        "precedence-deny-over-defer", f"{PRE}: 'precedence is deny > defer > ask > allow'",
        "PreToolUse", (out("PreToolUse", permissionDecision="defer"),
                       out("PreToolUse", permissionDecision="deny",
                           permissionDecisionReason="no")),
        {"decision": "deny", "blocked": True, "reason": "no"},
    ),
    Decision(
        "precedence-exit-2-is-deny", f"{PRE}: 'A hook that blocks by exiting 2 routes the same way "
        "as \"deny\"' (so it outranks defer)", "PreToolUse",
        (out("PreToolUse", permissionDecision="defer"), stderr_then_exit("stop", 2)),
        {"decision": "deny", "blocked": True, "reason": "stop"},
    ),
    # --- PermissionRequest --------------------------------------------------------------
    Decision(
        "perm-allow-updated-input", f"{PERM}: allow with updatedInput (documented example)",
        "PermissionRequest",
        (cat_example("reference/outputs/PermissionRequest-allow-lint.json"),),
        {"decision": "allow", "blocked": False, "updatedInput": {"command": "npm run lint"}},
        {"hookSpecificOutput": LINT},
    ),
    Decision(
        "perm-allow-set-mode", f"{GUIDE} 'Auto-approve specific permission prompts': "
        "updatedPermissions with a setMode entry", "PermissionRequest",
        (cat_example("guide/outputs/PermissionRequest-set-mode.json"),),
        {"decision": "allow"}, {"hookSpecificOutput": SET_MODE},
    ),
    Decision(
        "perm-deny-message", f"{PERM}: deny with message 'tells Claude why the permission was "
        "denied'", "PermissionRequest",
        (out("PermissionRequest", decision={"behavior": "deny", "message": "not here"}),),
        {"decision": "deny", "blocked": True, "reason": "not here"},
        specific("PermissionRequest", decision={"behavior": "deny", "message": "not here"}),
    ),
    Decision(
        "perm-deny-interrupt", f"{PERM}: interrupt 'For \"deny\" only: if true, stops Claude'",
        "PermissionRequest",
        (out("PermissionRequest", decision={"behavior": "deny", "message": "m",
                                            "interrupt": True}),),
        {"decision": "deny"},
        specific("PermissionRequest",
                 decision={"behavior": "deny", "message": "m", "interrupt": True}),
    ),
    Decision(
        "perm-deny-ignores-updated-input", f"{PERM}: updatedInput is 'For \"allow\" only'",
        "PermissionRequest",
        (out("PermissionRequest", decision={"behavior": "deny", "updatedInput": {"x": 1}}),),
        {"decision": "deny", "updatedInput": None},
    ),
    Decision(
        "perm-allow-ignores-message", f"{PERM}: message is 'For \"deny\" only'",
        "PermissionRequest",
        (out("PermissionRequest", decision={"behavior": "allow", "message": "m"}),),
        {"decision": "allow", "reason": None},
        specific("PermissionRequest", decision={"behavior": "allow"}),
    ),
    Decision(
        "perm-allow-and-deny", f"{PERM}: not documented for several hooks; hookd applies the "
        "PreToolUse precedence (deny over allow)", "PermissionRequest",
        (out("PermissionRequest", decision={"behavior": "allow"}),
         out("PermissionRequest", decision={"behavior": "deny", "message": "no"})),
        {"decision": "deny", "blocked": True, "reason": "no"},
    ),
    # --- PermissionDenied ---------------------------------------------------------------
    Decision(
        "denied-retry", f"{REFERENCE} 'PermissionDenied decision control': retry true tells the "
        "model it may retry", "PermissionDenied",
        (cat_example("reference/outputs/PermissionDenied-retry.json"),), {"blocked": False},
        specific("PermissionDenied", retry=True),
    ),
    Decision(
        "denied-no-retry", f"{REFERENCE} 'PermissionDenied decision control': 'returns retry: "
        "false, the denial stands'", "PermissionDenied",
        (out("PermissionDenied", retry=False),), {"blocked": False},
        check=lambda c, r: _no_true_retry(r),
    ),
    Decision(
        "denied-retry-ignored-without-verdict", f"{REFERENCE} 'PermissionDenied decision "
        "control': 'Claude Code ignores retry: true when the classifier produced no verdict' "
        "(the reason starts 'Auto mode could not evaluate this action...')", "PermissionDenied",
        (out("PermissionDenied", retry=True),), {"blocked": False},
        payload={**documented_input("PermissionDenied"),
                 "reason": "Auto mode could not evaluate this action and is blocking it for "
                           "safety: the classifier response did not parse"},
        check=lambda c, r: _no_true_retry(r),
    ),
    # --- PostToolUse, PostToolUseFailure, PostToolBatch ------------------------------------
    Decision(
        "post-exit-2-json-reason-wins", f"{EXIT2}: 'The blocking message is the reason from "
        "your JSON's blocking decision when it makes one, and your stderr text otherwise'",
        "PostToolUse",
        (echo_json({"decision": "block", "reason": "from the JSON"})
         + "; echo 'from stderr' >&2; exit 2",),
        {"blocked": True, "reason": "from the JSON"},
        {"decision": "block", "reason": "from the JSON"},
    ),
    Decision(
        "post-exit-2-beside-a-json-block", f"{EXIT2}: PostToolUse 'Shows stderr to Claude'; "
        "a sibling's JSON block never hides it: both reasons, in declaration order",
        "PostToolUse",
        (echo_json({"decision": "block", "reason": "A says no"}),
         "echo 'B says no' >&2; exit 2"),
        {"blocked": True, "reason": "A says no\nB says no"},
        {"decision": "block", "reason": "A says no\nB says no"},
    ),
    Decision(
        "post-failure-exit-2-feeds-claude", f"{EXIT2}: PostToolUseFailure 'Shows stderr to "
        "Claude; the tool already failed'", "PostToolUseFailure",
        ("echo 'retry with --force' >&2; exit 2",),
        {"blocked": True, "reason": "retry with --force"},
        {"decision": "block", "reason": "retry with --force"},
    ),
    Decision(
        "post-context", f"{REFERENCE} 'Add context for Claude' (example)", "PostToolUse",
        (cat_example("reference/outputs/PostToolUse-additional-context.json"),),
        {"context": "This file is generated. Edit src/schema.ts and run `bun generate` instead."},
    ),
    Decision(
        "post-updated-tool-output", f"{REFERENCE} 'PostToolUse decision control': "
        "updatedToolOutput 'Replaces the tool's output'", "PostToolUse",
        (cat_example("reference/outputs/PostToolUse-updated-tool-output.json"),),
        {"context": "Additional information for Claude", "blocked": False}, TOOL_OUTPUT,
    ),
    Decision(
        "post-updated-mcp-tool-output", f"{REFERENCE} 'PostToolUse decision control': "
        "updatedMCPToolOutput 'Replaces the output for MCP tools only'", "PostToolUse",
        (out("PostToolUse", updatedMCPToolOutput=[{"type": "text", "text": "x"}]),), {},
        specific("PostToolUse", updatedMCPToolOutput=[{"type": "text", "text": "x"}]),
        payload={"tool_name": "mcp__db__query", "tool_input": {}},
    ),
    Decision(
        "post-classifier-context", f"{REFERENCE} 'Annotate a result for the auto mode "
        "classifier'", "PostToolUse",
        (cat_example("reference/outputs/PostToolUse-classifier-context.json"),), {},
        specific("PostToolUse",
                 classifierContext="This query ran against the staging database, not production."),
    ),
    Decision(
        "post-failure-context", f"{REFERENCE} 'PostToolUseFailure decision control'",
        "PostToolUseFailure", (cat_example("reference/outputs/PostToolUseFailure-context.json"),),
        {"context": "Additional information about the failure for Claude"},
    ),
    Decision(
        "post-batch-context", f"{REFERENCE} 'PostToolBatch decision control'", "PostToolBatch",
        (cat_example("reference/outputs/PostToolBatch-context.json"),),
        {"context": "These files are part of the ledger module. Run pytest before marking the "
                    "task complete."},
    ),
    Decision(
        "post-batch-exit-2", f"{REFERENCE} 'PostToolBatch decision control': 'The blocking message "
        "comes from ... stderr on exit 2'", "PostToolBatch", (stderr_then_exit("stop here", 2),),
        {"blocked": True, "reason": "stop here"}, {"decision": "block", "reason": "stop here"},
    ),
    # --- SessionStart, Setup, SubagentStart ------------------------------------------------
    Decision(
        "session-start-context-title", f"{REFERENCE} 'SessionStart decision control' (example)",
        "SessionStart", (cat_example("reference/outputs/SessionStart-context-title.json"),),
        {"context": SESSION_TITLE["hookSpecificOutput"]["additionalContext"]}, SESSION_TITLE,
    ),
    Decision(
        "session-start-fields", f"{REFERENCE} 'SessionStart decision control': "
        "initialUserMessage, watchPaths and reloadSkills", "SessionStart",
        (out("SessionStart", initialUserMessage="Run the tests", watchPaths=["/w/.envrc"],
             reloadSkills=True),),
        {}, specific("SessionStart", initialUserMessage="Run the tests",
                     watchPaths=["/w/.envrc"], reloadSkills=True),
    ),
    Decision(
        "session-start-plain-and-json", f"{REFERENCE} 'Add context for Claude': 'When several hooks "
        "return additionalContext for the same event, Claude receives all of the values' (plain "
        "stdout is context on SessionStart too)", "SessionStart",
        ("echo 'from plain stdout'", out("SessionStart", additionalContext="from JSON")),
        {"context": "from plain stdout\n\nfrom JSON"},
    ),
    Decision(
        "setup-context", f"{REFERENCE} 'Setup decision control' (example)", "Setup",
        (cat_example("reference/outputs/Setup-context.json"),),
        {"context": "Dependencies installed: node_modules, .venv"},
    ),
    Decision(
        "setup-exit-1-json-honoured", f"{REFERENCE} 'Setup decision control': 'On any other "
        "non-zero exit ... with a parsed object that passes schema validation it honors the "
        "fields and doesn't report the hook as an error'", "Setup",
        (out("Setup", additionalContext="ok") + "; exit 1",), {"context": "ok"}, errors=(None,),
    ),
    Decision(
        "subagent-start-context", f"{REFERENCE} 'SubagentStart' (example)", "SubagentStart",
        (cat_example("reference/outputs/SubagentStart-context.json"),),
        {"context": "Follow security guidelines for this task", "blocked": False},
    ),
    # --- UserPromptSubmit, UserPromptExpansion ------------------------------------------
    Decision(
        "prompt-block-example", f"{REFERENCE} 'UserPromptSubmit decision control' (example: "
        "block, reason, additionalContext, sessionTitle)", "UserPromptSubmit",
        (cat_example("reference/outputs/UserPromptSubmit-block.json"),),
        {"blocked": True, "reason": "Explanation for decision",
         "context": "My additional context here"},
        check=lambda c, r: _native_has(r, decision="block", reason="Explanation for decision"),
    ),
    Decision(
        "prompt-session-title", f"{REFERENCE} 'UserPromptSubmit decision control': sessionTitle "
        "'Sets the session title' (in hookSpecificOutput, as in the example)", "UserPromptSubmit",
        (cat_example("reference/outputs/UserPromptSubmit-block.json"),),
        check=lambda c, r: _native_has(r, hookSpecificOutput={
            "hookEventName": "UserPromptSubmit", "additionalContext": "My additional context here",
            "sessionTitle": "My session title"}),
    ),
    Decision(
        "prompt-context-guide", f"{GUIDE} 'Structured JSON output': UserPromptSubmit "
        "additionalContext", "UserPromptSubmit",
        (cat_example("guide/outputs/UserPromptSubmit-context.json"),),
        {"context": "Current branch: release-42. Deploy freeze until Friday."},
    ),
    Decision(
        "expansion-block-example", f"{REFERENCE} 'UserPromptExpansion decision control' "
        "(example)", "UserPromptExpansion",
        (cat_example("reference/outputs/UserPromptExpansion-block.json"),),
        {"blocked": True, "reason": "This slash command is not available",
         "context": "Additional context for this expansion"},
    ),
    # --- Stop, ConfigChange, TaskCompleted --------------------------------------------------
    Decision(
        "stop-block-example", f"{REFERENCE} 'Stop decision control' (example)", "Stop",
        (cat_example("reference/outputs/Stop-block.json"),),
        {"blocked": True, "reason": "Must be provided when Claude is blocked from stopping"},
        {"decision": "block", "reason": "Must be provided when Claude is blocked from stopping"},
    ),
    Decision(
        "stop-context-example", f"{REFERENCE} 'Stop decision control': additionalContext is "
        "'non-error feedback' that continues the conversation without a block", "Stop",
        (cat_example("reference/outputs/Stop-context.json"),),
        {"blocked": False, "context": "Please run the test suite before finishing"},
        specific("Stop", additionalContext="Please run the test suite before finishing"),
    ),
    Decision(
        "config-change-block-example", f"{REFERENCE} 'ConfigChange decision control' (example)",
        "ConfigChange", (cat_example("reference/outputs/ConfigChange-block.json"),),
        {"blocked": True},
    ),
    Decision(
        "config-change-policy-block-ignored", f"{REFERENCE} 'ConfigChange decision control': "
        "'policy_settings changes can't be blocked ... any blocking decision is ignored'",
        "ConfigChange", (cat_example("reference/outputs/ConfigChange-block.json"),),
        {"blocked": False, "decision": None}, {},
        payload={"source": "policy_settings", "file_path": "/etc/claude-code/managed-settings.json"},
    ),
    Decision(
        "task-completed-continue-false", f"{REFERENCE} 'TaskCompleted decision control': "
        "continue:false 'stops the teammate entirely'", "TaskCompleted",
        (echo_json({"continue": False, "stopReason": "done for today"}),),
        {"continue": False, "stopReason": "done for today"},
    ),
    # --- Elicitation ----------------------------------------------------------------------
    Decision(
        "elicitation-accept", f"{REFERENCE} 'Elicitation output' (example)", "Elicitation",
        (cat_example("reference/outputs/Elicitation-accept.json"),), {"blocked": False},
        example_json("reference/outputs/Elicitation-accept.json"),
    ),
    Decision(
        "elicitation-result-decline", f"{REFERENCE} 'ElicitationResult output' (example); "
        "content is 'Only meaningful when action is accept'", "ElicitationResult",
        (cat_example("reference/outputs/ElicitationResult-decline.json"),),
        check=lambda c, r: _action(r, "decline"),
    ),
    Decision(
        "elicitation-result-exit-2-declines", f"{REFERENCE} 'ElicitationResult output': 'Exit "
        "code 2 blocks the response, changing the effective action to decline'",
        "ElicitationResult", (stderr_then_exit("no", 2),), {"blocked": True},
        check=lambda c, r: _action(r, "decline"),
    ),
    Decision(
        "elicitation-exit-2-ignores-output", f"{EXIT2}: 'On Elicitation and ElicitationResult, an "
        "exit-2 hook's hookSpecificOutput is ignored'", "Elicitation",
        (out("Elicitation", action="accept", content={"username": "alice"}) + "; exit 2",),
        {"blocked": True}, check=lambda c, r: _not_accepted(r),
    ),
    # --- MessageDisplay, CwdChanged, FileChanged ----------------------------------------------
    Decision(
        "message-display-content", f"{REFERENCE} 'MessageDisplay output': displayContent "
        "'Text displayed in place of the delta'", "MessageDisplay",
        (out("MessageDisplay", displayContent="Here is the plan:\n"),), {"blocked": False},
        specific("MessageDisplay", displayContent="Here is the plan:\n"),
    ),
    Decision(
        "message-display-exit-2-original-text", f"{REFERENCE} 'Exit code 2 behavior per event': "
        "MessageDisplay 'The original text is displayed': displayContent of an exit-2 hook is "
        "dropped, terminalSequence still fires", "MessageDisplay",
        (echo_json({"terminalSequence": "\u0007", **specific("MessageDisplay",
                                                              displayContent="REPLACED")})
         + "; exit 2",),
        {"blocked": False}, {"terminalSequence": "\u0007"},
    ),
    Decision(
        "cwd-changed-watch-paths", f"{REFERENCE} 'CwdChanged output': 'reads watchPaths and "
        "systemMessage'", "CwdChanged",
        (echo_json({"systemMessage": "env reloaded",
                    **specific("CwdChanged", watchPaths=["/w/src/.envrc"])}),),
        {"systemMessage": "env reloaded"},
        {"systemMessage": "env reloaded", **specific("CwdChanged", watchPaths=["/w/src/.envrc"])},
    ),
    Decision(
        "cwd-changed-empty-watch-paths", f"{REFERENCE} 'CwdChanged output': 'Returning an empty "
        "array clears the dynamic list'", "CwdChanged", (out("CwdChanged", watchPaths=[]),),
        native=specific("CwdChanged", watchPaths=[]),
    ),
    Decision(
        "file-changed-watch-paths", f"{REFERENCE} 'FileChanged output': watchPaths", "FileChanged",
        (out("FileChanged", watchPaths=["/w/.env.local"]),), {},
        specific("FileChanged", watchPaths=["/w/.env.local"]),
    ),
    # --- terminalSequence ---------------------------------------------------------------
    Decision(
        "terminal-sequence-bel", f"{TERMINAL}: 'Bare BEL' is allowed", "Stop",
        (echo_json({"terminalSequence": "\u0007"}),), native={"terminalSequence": "\u0007"},
    ),
    Decision(
        "terminal-sequence-st", f"{TERMINAL}: 'Sequences may be terminated with BEL or with ST' "
        "(OSC 0 window title)", "Stop",
        (echo_json({"terminalSequence": "\u001b]0;build done\u001b\\"}),),
        native={"terminalSequence": "\u001b]0;build done\u001b\\"},
    ),
    Decision(
        "terminal-sequence-csi-rejected", f"{TERMINAL}: 'CSI cursor and color sequences ... are "
        "rejected and the field is ignored'", "Stop",
        (echo_json({"terminalSequence": "\u001b]9;done\u0007\u001b[31m"}),), native={},
    ),
    Decision(
        "terminal-sequence-osc-8-rejected", f"{TERMINAL}: 'OSC 8 hyperlinks ... OSC 52 clipboard "
        "writes, and OSC 1337' are rejected", "Stop",
        (echo_json({"terminalSequence": "\u001b]52;c;aGk=\u0007"}),), native={},
    ),
    Decision(
        "terminal-sequence-on-stop-failure", f"{TERMINAL}: 'the field works on events that "
        "discard systemMessage and continue, such as Notification and StopFailure'",
        "StopFailure", (echo_json({"terminalSequence": "\u001b]777;notify;Claude;rate "
                                   "limited\u0007", "systemMessage": "x"}) + "; exit 2",),
        {"systemMessage": None, "blocked": False},
        {"terminalSequence": "\u001b]777;notify;Claude;rate limited\u0007"},
    ),
    # --- WorktreeCreate ---------------------------------------------------------------------
    Decision(
        "worktree-path-last-line", f"{WORKTREE}: 'print the path as the last non-empty line of "
        "stdout. Claude Code strips ANSI escape codes'", "WorktreeCreate",
        ("printf '\\033[32mShell ready\\033[0m\\n{ws}/wt\\n\\n'",), {"blocked": False},
        specific("WorktreeCreate", worktreePath="{ws}/wt"), (None,),
    ),
    Decision(
        "worktree-relative-path", f"{WORKTREE}: 'Claude Code resolves a relative path against the "
        "directory the hook ran in'", "WorktreeCreate", ("echo ../wt/./x",), {"blocked": False},
        specific("WorktreeCreate", worktreePath="{tmp}/wt/x"),
        payload={"cwd": "{ws}", "name": "x"},
    ),
    Decision(
        "worktree-no-path-fails", f"{WORKTREE}: 'If the hook fails or produces no path, worktree "
        "creation fails'", "WorktreeCreate", ("true",), {"blocked": True},
    ),
    Decision(
        "worktree-nonzero-fails-despite-json", f"{OTHER}: 'WorktreeCreate fails creation on any "
        "nonzero exit no matter what your JSON says'", "WorktreeCreate",
        (out("WorktreeCreate", worktreePath="/w/x") + "; exit 1",), {"blocked": True},
    ),
    Decision(
        "worktree-dotdot-refused", f"{WORKTREE}: 'Claude Code refuses an absolute path that "
        "contains . or .. segments'", "WorktreeCreate", ("echo /w/../etc",), {"blocked": True},
    ),
]  # fmt: skip


def _native_has(result: dict[str, Any], **fields: Any) -> None:
    for key, value in fields.items():
        assert result["native"].get(key) == value, key


def _no_true_retry(result: dict[str, Any]) -> None:
    assert result["native"].get("hookSpecificOutput", {}).get("retry") is not True


def _action(result: dict[str, Any], action: str) -> None:
    assert result["native"]["hookSpecificOutput"]["action"] == action


def _not_accepted(result: dict[str, Any]) -> None:
    assert result["native"].get("hookSpecificOutput", {}).get("action") != "accept"
    assert "content" not in result["native"].get("hookSpecificOutput", {})


@pytest.mark.parametrize("case", params(DECISIONS))
async def test_decision(claude: Claude, case: Decision) -> None:
    claude.hooks(case.event, *(command(c.replace("{ws}", str(claude.ws))) for c in case.hooks))
    payload = case.payload if case.payload is not None else documented_input(case.event)

    result = await claude.fire(case.event, payload)

    assert len(result["hooks"]) == len(case.hooks)
    names = claude.names
    for key, value in case.expect.items():
        assert result[key] == _fill(value, names), key
    if case.native is not None:
        assert result["native"] == _fill(case.native, names)
    if case.errors is not None:
        for hook, pattern in zip(result["hooks"], case.errors, strict=True):
            if pattern is None:
                assert hook["error"] is None, hook
            else:
                assert re.search(pattern, hook["error"] or ""), hook
    if case.check is not None:
        case.check(claude, result)


def _fill(value: Any, names: dict[str, str]) -> Any:
    text = json.dumps(value)
    for key, replacement in names.items():
        text = text.replace("{" + key + "}", replacement)
    return json.loads(text)


# --- several hooks, one input ---------------------------------------------------------------


@dataclass(frozen=True)
class Together:
    id: str
    rule: str


TOGETHER = [
    Together(
        "same-input-for-every-hook",
        f"{GUIDE} 'Combine results from multiple hooks': all matching hooks run in parallel on "
        "the same event input; one hook's updatedInput is never fed to another (unlike "
        "Gemini CLI's sequential chaining)",
    )
]


@pytest.mark.parametrize("case", params(TOGETHER))
async def test_hooks_see_the_same_input(claude: Claude, case: Together) -> None:
    probe = claude.probe()
    rewrite = out("PreToolUse", permissionDecision="allow", updatedInput={"command": "ls"})
    claude.hooks("PreToolUse", command(rewrite), command(probe.command))
    payload = documented_input("PreToolUse")

    result = await claude.fire("PreToolUse", payload)

    assert result["updatedInput"] == {"command": "ls"}
    assert probe.stdin()["tool_input"] == payload["tool_input"]
