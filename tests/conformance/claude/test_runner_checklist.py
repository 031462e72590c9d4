"""The runner test inventory of ``claude-style-runners.md`` §2.13, rewritten for Claude
Code's semantics.

Gemini CLI copied Claude Code's hook contract, and its runner tests (``hookRunner``,
``hookPlanner``, ``hookAggregator``, ``hookRegistry`` and the end-to-end
``hooks-system`` tests) are the most complete public checklist of what such a runner must
get right. Each case below takes one of those tests, keeps its question, and answers it
the way the Claude Code reference does (``REFERENCE`` / ``GUIDE`` sections cited in
``rule``). Where Gemini answers differently (it blocks on any exit code >= 2, turns plain
text into a ``systemMessage``, decodes double-encoded JSON, chains inputs in sequential
mode, anchors nothing in its list matchers), the case pins Claude's answer and says so.

Not rewritten, because Claude Code has no such thing: trusted folders (runner tests 1-3,
``trustedHooks``), hook ``name``s and enable/disable by name, runtime hooks, the model
events (``BeforeModel``, ``AfterModel``, ``BeforeToolSelection``) and sequential mode's
input chaining (whose Claude answer, "every hook sees the same input", is pinned by
``runner-17`` and ``runner-19``).
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path
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
    command,
    echo_json,
    params,
)

RUNNER = "hookRunner.test.ts"
PLANNER = "hookPlanner.test.ts"
AGGREGATOR = "hookAggregator.test.ts"
REGISTRY = "hookRegistry.test.ts"
E2E = "hooks-system.test.ts"

TIMEOUTS = f"{REFERENCE} 'Timeouts'"
MATCHERS = f"{REFERENCE} 'Matcher patterns'"
HANDLERS = f"{REFERENCE} 'Hook handler fields'"

BASH = {"tool_name": "Bash", "tool_input": {"command": "ls"}}
PROMPT = {"prompt": "write a haiku"}


def pre_tool(decision: str, reason: str = "", **more: Any) -> str:
    """A command printing a PreToolUse ``permissionDecision``."""
    fields = {"hookEventName": "PreToolUse", "permissionDecision": decision, **more}
    if reason:
        fields["permissionDecisionReason"] = reason
    return echo_json({"hookSpecificOutput": fields})


def context(text: str, event: str = "UserPromptSubmit") -> str:
    return echo_json({"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}})


@dataclass(frozen=True)
class Has:
    """Expect a string that contains ``text``."""

    text: str

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and self.text in other

    def __hash__(self) -> int:
        return hash(self.text)


@dataclass(frozen=True)
class Case:
    id: str
    gemini: str
    """The Gemini test it rewrites: ``file > test``, and what Gemini does when it differs."""
    rule: str
    """The Claude Code rule it pins."""
    event: str
    groups: tuple[dict[str, Any], ...]
    """Matcher groups of the project settings, in order."""
    payload: dict[str, Any] = field(default_factory=dict)
    expect: dict[str, Any] = field(default_factory=dict)
    """Fields of the fire result, compared exactly."""
    hooks: tuple[dict[str, Any], ...] | None = None
    """Per hook report, in declaration order: the fields given are compared (the number of
    reports too)."""
    warns: str | None = None
    """Text that one of the fire's warnings contains."""
    top: dict[str, Any] = field(default_factory=dict)
    """Extra settings keys beside ``hooks``."""


def group(*commands: str | dict[str, Any], matcher: str | None = None) -> dict[str, Any]:
    handlers = [command(c) if isinstance(c, str) else c for c in commands]
    return {"hooks": handlers} | ({"matcher": matcher} if matcher is not None else {})


NOTHING = {"blocked": False, "decision": None, "context": None, "systemMessage": None}

CASES = [
    # --- hookRunner.test.ts -------------------------------------------------------------
    Case(
        "runner-4-json-on-exit-0",
        f"{RUNNER} > should execute command hook successfully",
        f"{EXIT0}: exit 0 and a JSON object on stdout: its fields take effect; {PRE}",
        "PreToolUse",
        (group(pre_tool("deny", "no rm")),),
        BASH,
        expect={"blocked": True, "decision": "deny", "reason": "no rm"},
        hooks=({"exitCode": 0, "error": None, "blocked": True, "decision": "deny"},),
    ),
    Case(
        "runner-5-exit-1-is-a-non-blocking-error",
        f"{RUNNER} > should handle command hook failure",
        f"{OTHER}: exit 1 without JSON is a non-blocking error shown with the first line of "
        "stderr, 'Failed with non-blocking status code'",
        "PreToolUse",
        (group("printf 'lint failed\\ndetails\\n' >&2; exit 1"),),
        BASH,
        expect=NOTHING,
        hooks=(
            {
                "exitCode": 1,
                "blocked": False,
                "error": Has("Failed with non-blocking status code 1: lint failed"),
            },
        ),
    ),
    Case(
        "runner-6-missing-script-does-not-block",
        f"{RUNNER} > should use hook name in error messages (spawn error). Gemini blocks on "
        "exit >= 2 with text, so a missing script (127) denies there",
        f"{OTHER}: 'A hook that can't start lands in the same non-blocking bucket ... "
        "/bin/sh: /path/to/hook.sh: No such file or directory' (the shell's own words); the "
        "action proceeds",
        "PreToolUse",
        (group("/no/such/dir/hook.sh"),),
        BASH,
        expect=NOTHING,
        hooks=(
            {
                "exitCode": 127,
                "blocked": False,
                "error": Has("non-blocking status code 127: /bin/sh: "),
            },
        ),
    ),
    Case(
        "runner-7-timeout-discards-output",
        f"{RUNNER} > should handle command hook timeout",
        f"{TIMEOUTS}: a command hook that reaches its timeout is canceled, its output is "
        "discarded and it renders no decision: a timed-out PreToolUse hook does not block",
        "PreToolUse",
        (group(command(f"{pre_tool('deny', 'too late')}; exec sleep 60", timeout=0.3)),),
        BASH,
        expect=NOTHING,
        hooks=({"timedOut": True, "blocked": False, "error": Has("timed out")},),
    ),
    Case(
        "runner-13-mixed-success-and-failure",
        f"{RUNNER} > should handle mixed success and failure",
        f"{HANDLERS}: every matching hook runs; each one's outcome is its own, reported in "
        "declaration order",
        "PreToolUse",
        (group("exit 0", "echo broken >&2; exit 1"),),
        BASH,
        expect={"blocked": False},
        hooks=(
            {"exitCode": 0, "error": None},
            {"exitCode": 1, "error": Has("non-blocking status code 1: broken")},
        ),
    ),
    Case(
        "runner-16-a-failure-does-not-stop-the-others",
        f"{RUNNER} > should continue execution even if a hook fails",
        f"{HANDLERS} 'All matching hooks run in parallel'; {EXIT0}: UserPromptSubmit plain "
        "stdout is context; the failing hook adds nothing",
        "UserPromptSubmit",
        (group("echo first", "echo broken >&2; exit 1", "echo third"),),
        PROMPT,
        expect={"blocked": False, "context": "first\n\nthird"},
        hooks=({"error": None}, {"error": Has("broken")}, {"error": None}),
    ),
    Case(
        "runner-20-truncated-json-is-plain-text",
        f"{RUNNER} > should handle invalid JSON output gracefully. Gemini turns it into "
        "{decision: allow, systemMessage}",
        f"{EXIT0}: 'Starts with {{: Claude Code parses it as JSON. If it isn't valid JSON, "
        "Claude Code treats it as plain text'; on UserPromptSubmit plain text is context",
        "UserPromptSubmit",
        (group("printf '%s' '{\"decision\": \"bl'"),),
        PROMPT,
        expect={"blocked": False, "context": '{"decision": "bl', "systemMessage": None},
        hooks=({"exitCode": 0, "error": None},),
    ),
    Case(
        "runner-20-truncated-json-on-a-tool-event",
        f"{RUNNER} > should handle invalid JSON output gracefully",
        f"{EXIT0}: plain text on events other than UserPromptSubmit, UserPromptExpansion and "
        "SessionStart goes to the debug log only: no decision, no message, no error",
        "PreToolUse",
        (group("printf '%s' '{\"hookSpecificOutput\": '"),),
        BASH,
        expect=NOTHING,
        hooks=({"exitCode": 0, "error": None},),
    ),
    Case(
        "runner-21-plain-text-is-not-a-message",
        f"{RUNNER} > should handle malformed JSON with exit code 0. Gemini shows the text "
        "as a systemMessage",
        f"{EXIT0}: 'For most events, stdout is written to the debug log but not shown'",
        "PreToolUse",
        (group("echo 'all good'"),),
        BASH,
        expect=NOTHING,
        hooks=({"exitCode": 0, "error": None},),
    ),
    Case(
        "runner-22-plain-text-exit-1",
        f"{RUNNER} > should handle invalid JSON with exit code 1. Gemini allows with a "
        "'Warning:' systemMessage",
        f"{OTHER}: plain-text stdout and exit 1: a non-blocking error carrying the first line "
        "of stderr; nothing reaches the model",
        "PreToolUse",
        (group("echo '{oops'; echo 'warned' >&2; exit 1"),),
        BASH,
        expect=NOTHING,
        hooks=({"exitCode": 1, "error": Has("non-blocking status code 1: warned")},),
    ),
    Case(
        "runner-23-exit-2-blocks-with-stderr",
        f"{RUNNER} > should handle invalid JSON with exit code 2 (blocking error)",
        f"{EXIT2}: exit 2 blocks; 'The blocking message is ... your stderr text'",
        "PreToolUse",
        (group("echo '{not json'; echo 'rm is not allowed' >&2; exit 2"),),
        BASH,
        expect={"blocked": True, "decision": "deny", "reason": "rm is not allowed"},
        hooks=({"exitCode": 2, "blocked": True},),
    ),
    Case(
        "runner-23-exit-3-does-not-block",
        f"{RUNNER} (exit code >= 2 with text blocks in Gemini's code)",
        f"{REFERENCE} 'Exit code output' warning: 'exit code 2 is the only exit code that "
        "blocks through the code alone'",
        "PreToolUse",
        (group("echo 'nope' >&2; exit 3"),),
        BASH,
        expect=NOTHING,
        hooks=({"exitCode": 3, "error": Has("status code 3: nope")},),
    ),
    Case(
        "runner-24-empty-output",
        f"{RUNNER} > should handle empty JSON output",
        f"{EXIT0}: exit 0 with no output: success, nothing to apply",
        "PreToolUse",
        (group("true"),),
        BASH,
        expect=NOTHING,
        hooks=({"exitCode": 0, "error": None, "blocked": False},),
    ),
    Case(
        "runner-25-double-encoded-json-is-text",
        f"{RUNNER} > should handle double-encoded JSON string. Gemini decodes it twice and "
        "obeys the inner object",
        f"{EXIT0}: stdout that does not start with {{ is plain text, 'a JSON array or a quoted "
        "JSON string included'",
        "PreToolUse",
        (group(f"printf '%s' {shlex.quote(json.dumps(json.dumps({'decision': 'block'})))}"),),
        BASH,
        expect=NOTHING,
        hooks=({"exitCode": 0, "error": None},),
    ),
    # --- hooks-system.test.ts (end to end) ------------------------------------------------
    Case(
        "e2e-text-then-json-has-no-effect",
        f"{E2E} > mixed stdout (text then JSON) is a systemMessage, allowed",
        f"{JSON_OUT}: 'Your hook's stdout must contain only the JSON object'; {GUIDE} 'Hook "
        "JSON has no effect': text before the JSON makes all of it plain text",
        "PreToolUse",
        (group(f"echo 'profile loaded'; {pre_tool('deny', 'no')}"),),
        BASH,
        expect=NOTHING,
        hooks=({"exitCode": 0, "error": None},),
    ),
    Case(
        "e2e-continue-false-stops",
        f"{E2E} > BeforeTool continue:false stops the agent",
        f"{JSON_OUT}: 'continue: false ... Takes precedence over any event-specific decision "
        "fields'; stopReason is shown to the user",
        "PreToolUse",
        (group(echo_json({"continue": False, "stopReason": "Build failed"}) + "; exit 0"),),
        BASH,
        expect={"continue": False, "stopReason": "Build failed"},
    ),
    Case(
        "e2e-ask-decision",
        f"{E2E} > ask decision integration",
        f"{PRE}: 'ask' prompts the user to confirm; the reason is shown to the user",
        "PreToolUse",
        (group(pre_tool("ask", "confirm this")),),
        BASH,
        expect={"blocked": False, "decision": "ask", "reason": "confirm this"},
    ),
    Case(
        "e2e-input-override",
        f"{E2E} > BeforeTool input override",
        f"{PRE}: 'updatedInput modifies the tool's input parameters before execution'",
        "PreToolUse",
        (group(pre_tool("allow", updatedInput={"command": "ls -la"})),),
        BASH,
        expect={"blocked": False, "decision": "allow", "updatedInput": {"command": "ls -la"}},
    ),
    # --- hookPlanner.test.ts --------------------------------------------------------------
    Case(
        "planner-nothing-registered",
        f"{PLANNER} > empty plan when nothing is registered",
        f"{REFERENCE} 'How a hook resolves': no matching hook, nothing runs, the action proceeds",
        "PreToolUse",
        (),
        BASH,
        expect={**NOTHING, "hooks": []},
    ),
    Case(
        "planner-no-matcher-always-matches",
        f"{PLANNER} > hooks without a matcher always match",
        f'{MATCHERS}: \'"*", "", or omitted: Match all\'',
        "PreToolUse",
        (group("true"),),
        {"tool_name": "mcp__memory__create"},
        hooks=({"exitCode": 0},),
    ),
    Case(
        "planner-exact-tool-name",
        f"{PLANNER} > exact tool-name matcher",
        f"{MATCHERS}: 'Bash matches only the Bash tool'",
        "PreToolUse",
        (group("true", matcher="Bash"),),
        BASH,
        hooks=({"exitCode": 0},),
    ),
    Case(
        "planner-exact-name-is-whole",
        f"{PLANNER} (Gemini matchers are unanchored regexes: 'write' matches 'write_file')",
        f"{MATCHERS}: a matcher of letters, digits and _ is an exact string",
        "PreToolUse",
        (group("true", matcher="Edit"),),
        {"tool_name": "NotebookEdit"},
        hooks=(),
    ),
    Case(
        "planner-list-is-exact",
        f"{PLANNER} > regex matcher 'read_file|write_file' (unanchored in Gemini)",
        f"{MATCHERS}: 'Edit|Write ... match either tool exactly'",
        "PreToolUse",
        (group("true", matcher="Edit|Write"),),
        {"tool_name": "NotebookEdit"},
        hooks=(),
    ),
    Case(
        "planner-regex-is-unanchored",
        f"{PLANNER} > regex matcher 'edit_.*'",
        f"{MATCHERS}: 'Edit.* matches both Edit and NotebookEdit'",
        "PreToolUse",
        (group("true", matcher="Edit.*"),),
        {"tool_name": "NotebookEdit"},
        hooks=({"exitCode": 0},),
    ),
    Case(
        "planner-star-matches-all",
        f"{PLANNER} > '*' matches all",
        f"{MATCHERS}: '\"*\" ... Match all'",
        "PreToolUse",
        (group("true", matcher="*"),),
        {"tool_name": "WebFetch"},
        hooks=({"exitCode": 0},),
    ),
    Case(
        "planner-empty-matches-all",
        f"{PLANNER} > '' matches all",
        f"{MATCHERS}: '\"\" ... Match all'",
        "PreToolUse",
        (group("true", matcher=""),),
        {"tool_name": "WebFetch"},
        hooks=({"exitCode": 0},),
    ),
    Case(
        "planner-invalid-regex-never-matches",
        f"{PLANNER} > an invalid regex falls back to an exact-string match (Gemini)",
        f"{MATCHERS}: not documented for an invalid regular expression; hookd: the group "
        "never matches and the fire's warnings name the matcher (a silent exact-string "
        "fallback would hide the typo)",
        "PreToolUse",
        (group("true", matcher="(Bash"),),
        {"tool_name": "(Bash"},
        hooks=(),
        warns="not a valid regular expression",
    ),
    Case(
        "planner-lifecycle-matcher-exact",
        f"{PLANNER} > lifecycle matcher matches the trigger exactly",
        f"{MATCHERS}: SessionStart matches how the session started ('startup', 'resume'...)",
        "SessionStart",
        (group("echo resumed", matcher="resume"), group("echo started", matcher="startup")),
        {"source": "startup"},
        expect={"context": "started"},
        hooks=({"exitCode": 0},),
    ),
    Case(
        "planner-identical-handlers-run-once",
        f"{PLANNER} > dedup of identical hooks (key name + command in Gemini)",
        f"{HANDLERS}: 'If you define the same handler in more than one settings file, it "
        "runs once'; hookd applies it within one file too (the same command, args and if)",
        "PreToolUse",
        (group("echo ran >> /dev/null"), group("echo ran >> /dev/null", matcher="Bash")),
        BASH,
        hooks=({"exitCode": 0},),
    ),
    Case(
        "planner-matcher-ignored-without-support",
        f"{PLANNER} > events without context ignore the matcher",
        f"{MATCHERS}: 'If you add a matcher field to an event without matcher support, it is "
        "silently ignored'",
        "UserPromptSubmit",
        (group("echo ran", matcher="NoSuchThing"),),
        PROMPT,
        expect={"context": "ran"},
    ),
    # --- hookAggregator.test.ts -----------------------------------------------------------
    Case(
        "aggregator-allow-and-deny-is-deny",
        f"{AGGREGATOR} > OR logic: allow + block is block",
        f"{GUIDE} 'Combine results from multiple hooks': 'deny takes priority over ask, "
        "which takes priority over allow'",
        "PreToolUse",
        (group(pre_tool("allow", "fine"), pre_tool("deny", "not fine")),),
        BASH,
        expect={"blocked": True, "decision": "deny", "reason": "not fine"},
        hooks=({"decision": "allow"}, {"decision": "deny"}),
    ),
    Case(
        "aggregator-deny-beats-ask",
        f"{AGGREGATOR} > ask is kept only if no block has been seen",
        f"{GUIDE} 'Combine results from multiple hooks': deny over ask",
        "PreToolUse",
        (group(pre_tool("ask", "check"), pre_tool("deny", "never")),),
        BASH,
        expect={"blocked": True, "decision": "deny", "reason": "never"},
    ),
    Case(
        "aggregator-continue-false-wins",
        f"{AGGREGATOR} > continue:false wins with its stopReason",
        f"{JSON_OUT}: 'continue: false ... Takes precedence'",
        "UserPromptSubmit",
        (group(context("more"), echo_json({"continue": False, "stopReason": "halt"})),),
        PROMPT,
        expect={"continue": False, "stopReason": "halt"},
    ),
    Case(
        "aggregator-contexts-all-kept",
        f"{AGGREGATOR} > additionalContext extraction (joined with newlines in Gemini)",
        f"{REFERENCE} 'Add context for Claude': every hook's additionalContext reaches "
        "Claude; hookd joins them in declaration order with a blank line",
        "UserPromptSubmit",
        (group(context("from one"), context("from two")),),
        PROMPT,
        expect={"context": "from one\n\nfrom two"},
    ),
    # --- hookRegistry.test.ts -------------------------------------------------------------
    Case(
        "registry-unknown-event-warned-others-load",
        f"{REGISTRY} > invalid event names are warned and skipped ('Invalid hook event name: "
        "PreToolUse' when Claude names are pasted into Gemini)",
        f"{REFERENCE} 'Hook lifecycle' lists the events; hookd reports an unknown name and "
        "still loads the file's valid hooks",
        "PreToolUse",
        (group(pre_tool("deny", "kept")),),
        BASH,
        top={"extra_events": {"BeforeTool": [group("true")]}},
        expect={"blocked": True, "reason": "kept"},
        warns="unknown event 'BeforeTool'",
    ),
    Case(
        "registry-malformed-definitions-skipped",
        f"{REGISTRY} > malformed definitions (non-array hooks, non-object handler, missing "
        "hooks) are discarded, valid ones kept",
        f"{HANDLERS}: each handler is an object in the group's hooks array; hookd reports "
        "each malformed entry and runs the valid ones",
        "PreToolUse",
        (
            {"matcher": "Bash"},
            {"hooks": "not a list"},
            {"hooks": ["echo no"]},
            group(pre_tool("deny", "valid one")),
        ),
        BASH,
        expect={"blocked": True, "reason": "valid one"},
        hooks=({"decision": "deny"},),
        warns='"hooks" must be a list of handlers',
    ),
    Case(
        "registry-handler-without-type",
        f"{REGISTRY} > 'type must be command' (Gemini); handlers without one are discarded",
        f"{REFERENCE} 'Common fields': type is required; hookd reports the handler that has "
        "none and runs the others",
        "PreToolUse",
        ({"hooks": [{"command": "echo typeless"}, command(pre_tool("deny", "typed"))]},),
        BASH,
        expect={"blocked": True, "reason": "typed"},
        hooks=({"command": Has("deny")},),
        warns='has no "type"',
    ),
]


def settings_for(case: Case) -> dict[str, Any]:
    hooks: dict[str, Any] = {case.event: list(case.groups)} if case.groups else {}
    top = dict(case.top)
    hooks.update(top.pop("extra_events", {}))
    return {"hooks": hooks, **top}


@pytest.mark.parametrize("case", params(CASES))
async def test_runner_checklist(claude: Claude, case: Case) -> None:
    claude.write_settings(settings_for(case))

    result = await claude.fire(case.event, case.payload)

    for name, expected in case.expect.items():
        assert result[name] == expected, (name, result[name])
    if case.hooks is not None:
        assert len(result["hooks"]) == len(case.hooks), result["hooks"]
        for report, expected_hook in zip(result["hooks"], case.hooks, strict=True):
            for name, value in expected_hook.items():
                assert report[name] == value, (name, report)
    if case.warns is not None:
        assert any(case.warns in w for w in result["warnings"]), result["warnings"]


# --- cases that need more than one fire result -----------------------------------------------


async def test_runner_4_stdin_is_exactly_the_event_json(claude: Claude) -> None:
    """``hookRunner > should execute command hook successfully``: stdin got exactly
    ``JSON.stringify(input)``. Claude: the event's JSON input on stdin, with
    ``hook_event_name`` (ref 'Common input fields')."""
    probe = claude.probe()
    claude.hooks("PreToolUse", command(probe.command))
    payload = {"session_id": "s1", "cwd": str(claude.ws), **BASH}

    await claude.fire("PreToolUse", payload)

    assert probe.stdin() == {**payload, "hook_event_name": "PreToolUse"}


@pytest.mark.parametrize(
    "name",
    ["my project", "p; touch PWNED #", "p$(touch PWNED)", "p`touch PWNED`"],
    ids=["spaces", "semicolon", "substitution", "backticks"],
)
async def test_runner_8_to_10_project_dir_is_data_never_code(claude: Claude, name: str) -> None:
    """``hookRunner > should expand environment variables`` / ``... GEMINI_PLANS_DIR`` /
    ``should not allow command injection via GEMINI_PROJECT_DIR``. Claude: exec form
    substitutes ``${CLAUDE_PROJECT_DIR}`` into one argv element with no shell; shell form
    exports it as a variable that the shell expands (ref 'Exec form and shell form',
    'Reference scripts by path': 'In shell form, wrap each placeholder in double quotes').
    A project folder whose name is shell syntax is never executed."""
    project = claude.tmp / name
    (project / ".claude").mkdir(parents=True)
    claude.ws = project
    claude.hooks(
        "UserPromptSubmit",
        {"type": "command", "command": "printf", "args": ["exec:%s|", "${CLAUDE_PROJECT_DIR}"]},
        command('printf "shell:%s|" "$CLAUDE_PROJECT_DIR"'),
        command("printf 'unquoted:%s|' ${CLAUDE_PROJECT_DIR}"),
    )

    result = await claude.fire("UserPromptSubmit", PROMPT)

    contexts = result["context"].split("\n\n")
    assert contexts[0] == f"exec:{project}|"
    assert contexts[1] == f"shell:{project}|"
    assert contexts[2].startswith("unquoted:")  # word-split by the shell, never run
    assert not list(claude.tmp.rglob("PWNED"))
    assert not (Path.cwd() / "PWNED").exists()


async def test_runner_11_12_hooks_run_in_parallel_with_progress(claude: Claude) -> None:
    """``hookRunner > should execute multiple hooks in parallel`` and ``should call
    onHookStart and onHookEnd callbacks``. Claude: 'All matching hooks run in parallel'
    (ref 'Hook handler fields'). Each hook waits for the other's mark, so run one after
    the other they would both time out; hookd's progress reports each start and finish."""
    a, b = claude.tmp / "a", claude.tmp / "b"
    wait = "i=0; while [ ! -e {other} ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; "
    claude.hooks(
        "Stop",
        command(f"touch {a}; {wait.format(other=b)}test -e {b}"),
        command(f"touch {b}; {wait.format(other=a)}test -e {a}"),
    )

    result = await claude.fire("Stop", {}, workDoneToken="t")

    assert [h["exitCode"] for h in result["hooks"]] == [0, 0]
    kinds = [(v["hookd"]["type"], v["hookd"].get("index")) for v in claude.rpc.progress("t")]
    for index in (0, 1):
        assert kinds.index(("hook/started", index)) < kinds.index(("hook/finished", index))
    assert kinds[0] == ("fire/begin", None)
    assert kinds[-1] == ("fire/end", None)


async def test_runner_14_reports_keep_declaration_order(claude: Claude) -> None:
    """``hookRunner > should execute multiple hooks in sequence`` (order = config order).
    Claude runs them in parallel; hookd still reports and joins in declaration order, not
    finish order: the first hook here finishes last."""
    done = claude.tmp / "second-done"
    claude.hooks(
        "UserPromptSubmit",
        command(
            f"i=0; while [ ! -e {done} ] && [ $i -lt 400 ]; do sleep 0.05; "
            f"i=$((i+1)); done; {context('first')}"
        ),
        command(f"{context('second')}; touch {done}"),
    )

    result = await claude.fire("UserPromptSubmit", PROMPT)

    assert result["context"] == "first\n\nsecond"
    assert [h["index"] for h in result["hooks"]] == [0, 1]


async def test_runner_17_19_every_hook_sees_the_original_input(claude: Claude) -> None:
    """``hookRunner > should pass modified input from one hook to the next`` and ``should
    not modify input if hook fails``. Claude: hooks run in parallel on the same event
    input; one hook's additionalContext or updatedInput never reaches another's stdin
    (guide 'Combine results from multiple hooks')."""
    first, second = claude.probe("first", exit_code=1), claude.probe("second", exit_code=1)
    claude.hooks(
        "UserPromptSubmit",
        command(context("added by a hook")),
        command(first.command),
        command(second.command),
    )

    result = await claude.fire("UserPromptSubmit", PROMPT)

    assert result["context"] == "added by a hook"
    assert first.stdin()["prompt"] == "write a haiku"
    assert first.stdin() == second.stdin()
