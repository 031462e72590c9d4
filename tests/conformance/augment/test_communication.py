"""The communication matrix: for every event, exit code (0, 2, other) and kind of output,
what reaches the agent and what reaches the user, as hookd's fire result says it.

How the result speaks (``augment.py``'s docstring):

* to the agent: ``reason`` (with ``blocked`` when it blocks) and ``context``;
* to the user: ``systemMessage``, ``stopReason``, each hook's ``error`` (failures) and
  ``verboseOutput`` (stdout Augment shows in verbose mode only);
* ``native``: the same outcome as one Augment hook output object.

Reference: ``augment-hooks.md`` § Hook Output and Communication (Exit Codes,
Communication Matrix), § Hook Output Reference (Exit Codes, JSON Output Format, Common
JSON Fields, Event-Specific JSON Output, Output Routing).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from conformance.augment.support import EVENTS, REFERENCE, Augment, group, params


@dataclass(frozen=True)
class Run:
    """What one hook does: print ``stdout`` and ``stderr``, exit with ``code``."""

    code: int = 0
    stdout: str | Mapping[str, Any] = ""
    stderr: str = ""


@dataclass(frozen=True)
class Case:
    id: str
    rule: str
    event: str
    runs: tuple[Run, ...]
    expect: Mapping[str, Any]
    """Result fields compared exactly (``errors``: each hook's ``error``, where a string
    must be contained in it and None means no error)."""
    xfail: str | None = None
    skip: str | None = None


MATRIX = f"{REFERENCE} § Communication Matrix"
CODES = f"{REFERENCE} § Exit Codes"
ROUTING = f"{REFERENCE} § Output Routing"
JSON_FIELDS = f"{REFERENCE} § Common JSON Fields (All Events)"
QUIET = {
    "blocked": False,
    "decision": None,
    "reason": None,
    "context": None,
    "systemMessage": None,
    "verboseOutput": None,
    "continue": True,
    "stopReason": None,
    "native": {},
    "errors": [None],
}
"""A fire whose hook told nobody anything."""


def specific(event: str, **fields: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, **fields}}


def deny(reason: str) -> dict[str, Any]:
    return specific("PreToolUse", permissionDecision="deny", permissionDecisionReason=reason)


def exit_0_plain(event: str) -> Case:
    if event == "SessionStart":
        expect = {
            **QUIET,
            "context": "out",
            "systemMessage": "warn",
            "native": {"systemMessage": "warn", **specific(event, additionalContext="out")},
        }
        rule = f"{MATRIX}: 0 / SessionStart / stdout → Agent (inject context); stderr → User"
    else:
        expect = {
            **QUIET,
            "systemMessage": "warn",
            "verboseOutput": "out",
            "native": {"systemMessage": "warn"},
        }
        rule = (
            f"{MATRIX}: 0 / {event} / stderr → User (warning), stdout → User; {ROUTING}: "
            "plain stdout of non-SessionStart events is for the user in verbose mode"
        )
    return Case(f"exit-0-plain-{event}", rule, event, (Run(0, "out", "warn"),), expect)


def exit_0_json_system_message(event: str) -> Case:
    answer = {"systemMessage": "sys"}
    verbose = None if event == "SessionStart" else json.dumps(answer)
    return Case(
        f"exit-0-json-system-message-{event}",
        f"{JSON_FIELDS}: systemMessage → User on every event; stderr of exit 0 → User too; "
        f"{ROUTING}: JSON on stdout is read for its fields, not injected as text (SessionStart "
        "too)",
        event,
        (Run(0, answer, "warn"),),
        {
            **QUIET,
            "systemMessage": "sys\nwarn",
            "verboseOutput": verbose,
            "native": {"systemMessage": "sys\nwarn"},
        },
    )


def suppress_output(event: str) -> Case:
    return Case(
        f"exit-0-json-suppress-output-{event}",
        f"{JSON_FIELDS}: suppressOutput true hides stdout from verbose mode",
        event,
        (Run(0, {"suppressOutput": True}),),
        QUIET,
    )


def continue_false(event: str) -> Case:
    return Case(
        f"exit-0-json-continue-false-{event}",
        f"{JSON_FIELDS}: continue false stops execution (overrides exit code 0); "
        "stopReason is shown to the user",
        event,
        (Run(0, {"continue": False, "stopReason": "halt"}),),
        {
            **QUIET,
            "continue": False,
            "stopReason": "halt",
            "verboseOutput": None
            if event == "SessionStart"
            else json.dumps({"continue": False, "stopReason": "halt"}),
            "native": {"continue": False, "stopReason": "halt"},
        },
    )


def stop_reason_without_continue_false(event: str) -> Case:
    return Case(
        f"exit-0-json-stop-reason-alone-{event}",
        f"{JSON_FIELDS}: stopReason is the reason shown when continue=false (only then)",
        event,
        (Run(0, {"stopReason": "ignored", "suppressOutput": True}),),
        QUIET,
    )


def exit_2(event: str) -> Case:
    run = (Run(2, "out", "why"),)
    if event == "PreToolUse":
        return Case(
            "exit-2-PreToolUse",
            f"{MATRIX}: 2 / PreToolUse / stderr → Agent: blocks the tool, "
            f"the agent sees why; {CODES}: stderr is shown to both user and agent",
            event,
            run,
            {**QUIET, "blocked": True, "decision": "deny", "reason": "why", "native": deny("why")},
        )
    if event == "PostToolUse":
        return Case(
            "exit-2-PostToolUse",
            f"{ROUTING}: exit-2 stderr of PostToolUse → Agent; "
            f"{CODES}: exit 2 blocks PreToolUse only",
            event,
            run,
            {**QUIET, "reason": "why", "native": specific(event, decision="block", reason="why")},
        )
    if event == "Stop":
        return Case(
            "exit-2-Stop",
            f"{ROUTING}: exit-2 stderr of Stop → Agent; {CODES}: exit 2 blocks "
            "PreToolUse only (a Stop is prevented by decision block, not by exit 2)",
            event,
            run,
            {**QUIET, "reason": "why"},
        )
    return Case(
        f"exit-2-{event}",
        f"{MATRIX}: 2 / SessionStart / stderr → User (hook failed, user "
        f"needs to fix configuration); {ROUTING}: exit-2 stderr of SessionStart and "
        "SessionEnd → User; stdout is not context",
        event,
        run,
        {**QUIET, "errors": ["hook failed (exit code 2): why"]},
    )


def exit_2_ignores_json(event: str) -> Case:
    answer = {**deny("from json"), "systemMessage": "sys"}
    blocked = event == "PreToolUse"
    expect: dict[str, Any] = {
        **QUIET,
        "blocked": blocked,
        "decision": "deny" if blocked else None,
        "reason": "why" if event in ("PreToolUse", "PostToolUse", "Stop") else None,
    }
    if blocked:
        expect["native"] = deny("why")
    elif event == "PostToolUse":
        expect["native"] = specific(event, decision="block", reason="why")
    if event in ("SessionStart", "SessionEnd"):
        expect["errors"] = ["hook failed (exit code 2): why"]
    return Case(
        f"exit-2-json-ignored-{event}",
        f"{REFERENCE} § JSON Output Format: JSON on stdout is read on exit code 0 only",
        event,
        (Run(2, answer, "why"),),
        expect,
    )


def other_exit(event: str, code: int) -> Case:
    return Case(
        f"exit-{code}-{event}",
        f"{MATRIX}: Other / Any / stderr → User (error logged, execution continues); "
        f"{CODES}: non-blocking error, JSON and stdout ignored",
        event,
        (Run(code, deny("json ignored"), "boom\nsecond line"),),
        {**QUIET, "errors": [f"exit code {code}: boom\nsecond line"]},
    )


CASES: list[Case] = [
    *[exit_0_plain(e) for e in EVENTS],
    *[exit_0_json_system_message(e) for e in EVENTS],
    *[suppress_output(e) for e in EVENTS],
    *[continue_false(e) for e in EVENTS],
    *[stop_reason_without_continue_false(e) for e in EVENTS],
    *[exit_2(e) for e in EVENTS],
    *[exit_2_ignores_json(e) for e in EVENTS],
    *[other_exit(e, 1) for e in EVENTS],
    other_exit("PreToolUse", 3),
    other_exit("Stop", 127),
    Case(
        "exit-0-silent",
        f"{CODES}: exit code 0 is success; nothing to tell",
        "PreToolUse",
        (Run(0),),
        QUIET,
    ),
    Case(
        "exit-2-PreToolUse-empty-stderr",
        f"{CODES}: exit 2 on PreToolUse blocks even with nothing on stderr",
        "PreToolUse",
        (Run(2),),
        {
            **QUIET,
            "blocked": True,
            "decision": "deny",
            "reason": "blocked by hook",
            "native": deny("blocked by hook"),
        },
    ),
    # --- PreToolUse output fields
    Case(
        "pre-deny-with-reason",
        f"{REFERENCE} § PreToolUse Output: permissionDecision deny blocks; "
        "permissionDecisionReason → Agent and User",
        "PreToolUse",
        (Run(0, deny("policy")),),
        {
            **QUIET,
            "blocked": True,
            "decision": "deny",
            "reason": "policy",
            "verboseOutput": json.dumps(deny("policy")),
            "native": deny("policy"),
        },
    ),
    *[
        Case(
            f"pre-{value}-is-not-a-decision",
            f"{REFERENCE} § PreToolUse Output: only deny is supported (allow and ask: a "
            f"future release); {ROUTING}: permissionDecisionReason with allow/ask → User",
            "PreToolUse",
            (
                Run(
                    0,
                    specific(
                        "PreToolUse",
                        permissionDecision=value,
                        permissionDecisionReason=f"{value} reason",
                    ),
                    "warn",
                ),
            ),
            {
                **QUIET,
                "systemMessage": f"{value} reason\nwarn",
                "verboseOutput": json.dumps(
                    specific(
                        "PreToolUse",
                        permissionDecision=value,
                        permissionDecisionReason=f"{value} reason",
                    )
                ),
                "native": {"systemMessage": f"{value} reason\nwarn"},
            },
        )
        for value in ("allow", "ask")
    ],
    Case(
        "pre-updated-input-ignored",
        f"{REFERENCE} § Limitations: updatedInput is not yet implemented",
        "PreToolUse",
        (Run(0, specific("PreToolUse", updatedInput={"command": "ls"})),),
        {
            **QUIET,
            "updatedInput": None,
            "updatedInputFrom": None,
            "verboseOutput": json.dumps(specific("PreToolUse", updatedInput={"command": "ls"})),
        },
    ),
    *[
        Case(
            f"{field_name}-not-for-{event}",
            f"{REFERENCE} § Event-Specific JSON Output: {what} is read only on {where}",
            event,
            (Run(0, answer),),
            {**QUIET, "verboseOutput": None if event == "SessionStart" else json.dumps(answer)},
        )
        for field_name, what, where, answer, events in (
            (
                "permission-decision",
                "permissionDecision",
                "PreToolUse",
                deny("nope"),
                ("PostToolUse", "Stop", "SessionStart", "SessionEnd"),
            ),
            (
                "additional-context",
                "additionalContext",
                "PostToolUse and SessionStart",
                specific("X", additionalContext="ctx"),
                ("PreToolUse", "Stop", "SessionEnd"),
            ),
            (
                "decision-block",
                'decision "block"',
                "PostToolUse and Stop",
                specific("X", decision="block", reason="r"),
                ("PreToolUse", "SessionStart", "SessionEnd"),
            ),
        )
        for event in events
    ],
    Case(
        "post-decision-block-reason-to-agent",
        f"{REFERENCE} § PostToolUse Output: reason (decision block) → Agent; § Hook Events: "
        "PostToolUse cannot block anything",
        "PostToolUse",
        (
            Run(
                0,
                specific("PostToolUse", decision="block", reason="fix lint"),
            ),
        ),
        {
            **QUIET,
            "reason": "fix lint",
            "verboseOutput": json.dumps(
                specific("PostToolUse", decision="block", reason="fix lint")
            ),
            "native": specific("PostToolUse", decision="block", reason="fix lint"),
        },
    ),
    Case(
        "post-additional-context",
        f"{REFERENCE} § PostToolUse Output: additionalContext → Agent",
        "PostToolUse",
        (Run(0, specific("PostToolUse", additionalContext="3 files"), "w"),),
        {
            **QUIET,
            "context": "3 files",
            "systemMessage": "w",
            "verboseOutput": json.dumps(specific("PostToolUse", additionalContext="3 files")),
            "native": {
                "systemMessage": "w",
                **specific("PostToolUse", additionalContext="3 files"),
            },
        },
    ),
    Case(
        "stop-decision-block",
        f"{REFERENCE} § Stop Output: decision block prevents stop; reason → Agent",
        "Stop",
        (Run(0, specific("Stop", decision="block", reason="run tests")),),
        {
            **QUIET,
            "blocked": True,
            "decision": "deny",
            "reason": "run tests",
            "verboseOutput": json.dumps(specific("Stop", decision="block", reason="run tests")),
            "native": specific("Stop", decision="block", reason="run tests"),
        },
    ),
    Case(
        "stop-top-level-decision-block",
        f"{REFERENCE} § Stop Output documents decision/reason inside hookSpecificOutput; "
        "hookd also reads them at the top level (Claude Code's place), a leniency",
        "Stop",
        (Run(0, {"decision": "block", "reason": "run tests"}),),
        {
            **QUIET,
            "blocked": True,
            "decision": "deny",
            "reason": "run tests",
            "verboseOutput": json.dumps({"decision": "block", "reason": "run tests"}),
            "native": specific("Stop", decision="block", reason="run tests"),
        },
    ),
    Case(
        "session-start-additional-context",
        f"{REFERENCE} § SessionStart Output: additionalContext → Agent",
        "SessionStart",
        (Run(0, specific("SessionStart", additionalContext="sprint 23")),),
        {
            **QUIET,
            "context": "sprint 23",
            "native": specific("SessionStart", additionalContext="sprint 23"),
        },
    ),
    Case(
        "session-start-invalid-json-is-plain-context",
        f"{MATRIX}: SessionStart stdout → Agent (text that is not JSON is plain stdout)",
        "SessionStart",
        (Run(0, '{"additionalContext": broken'),),
        {
            **QUIET,
            "context": '{"additionalContext": broken',
            "native": specific("SessionStart", additionalContext='{"additionalContext": broken'),
        },
    ),
    Case(
        "pre-nan-is-not-json",
        f"{REFERENCE} § JSON Output Format: stdout counts as JSON only if it parses, and "
        "Augment's JSON.parse rejects NaN: the deny is plain stdout (verbose output only)",
        "PreToolUse",
        (Run(0, '{"hookSpecificOutput": {"permissionDecision": "deny"}, "n": NaN}'),),
        {
            **QUIET,
            "verboseOutput": '{"hookSpecificOutput": {"permissionDecision": "deny"}, "n": NaN}',
        },
    ),
    Case(
        "session-start-infinity-is-plain-context",
        f"{MATRIX}: SessionStart stdout → Agent; with Infinity it is not JSON, so the whole "
        "text is the context",
        "SessionStart",
        (Run(0, '{"n": Infinity}'),),
        {
            **QUIET,
            "context": '{"n": Infinity}',
            "native": specific("SessionStart", additionalContext='{"n": Infinity}'),
        },
    ),
    Case(
        "pre-control-character-is-not-json",
        f"{REFERENCE} § JSON Output Format: stdout is trimmed as JavaScript's trim() does, "
        "which keeps U+001C; JSON.parse then refuses it: the deny is plain stdout",
        "PreToolUse",
        (Run(0, '\x1c{"hookSpecificOutput": {"permissionDecision": "deny"}}'),),
        {
            **QUIET,
            "verboseOutput": '\x1c{"hookSpecificOutput": {"permissionDecision": "deny"}}',
        },
    ),
    Case(
        "pre-deeply-nested-json-is-not-json",
        f"{REFERENCE} § JSON Output Format: JSON nested past what a parser takes is no "
        "answer; the hook is plain stdout and the fire still answers",
        "PreToolUse",
        (Run(0, '{"a": ' + "[" * 3000 + "]" * 3000 + "}"),),
        {**QUIET, "verboseOutput": '{"a": ' + "[" * 3000 + "]" * 3000 + "}"},
    ),
    # --- several hooks (run one after another, combined in definition order)
    Case(
        "stop-block-and-exit-2-both-reach-the-agent",
        f"{ROUTING}: reason (decision block) and exit-2 stderr of Stop both go to the agent",
        "Stop",
        (Run(0, specific("Stop", decision="block", reason="run tests")), Run(2, "", "lint failed")),
        {
            **QUIET,
            "blocked": True,
            "decision": "deny",
            "reason": "run tests\nlint failed",
            "errors": [None, None],
            "verboseOutput": json.dumps(specific("Stop", decision="block", reason="run tests")),
            "native": specific("Stop", decision="block", reason="run tests\nlint failed"),
        },
    ),
    Case(
        "pre-error-never-loses-a-block",
        f"{CODES}: another hook's non-blocking error does not undo an exit-2 block",
        "PreToolUse",
        (Run(1, "", "crash"), Run(2, "", "denied"), Run(0, "", "fine")),
        {
            **QUIET,
            "blocked": True,
            "decision": "deny",
            "reason": "denied",
            "systemMessage": "fine",
            "errors": ["exit code 1: crash", None, None],
            "native": {"systemMessage": "fine", **deny("denied")},
        },
    ),
    Case(
        "pre-two-blocks-join-their-reasons",
        f"{MATRIX}: each blocking hook's stderr reaches the agent",
        "PreToolUse",
        (Run(2, "", "first"), Run(0, deny("second"))),
        {
            **QUIET,
            "blocked": True,
            "decision": "deny",
            "reason": "first\nsecond",
            "errors": [None, None],
            "verboseOutput": json.dumps(deny("second")),
            "native": deny("first\nsecond"),
        },
    ),
    Case(
        "session-start-contexts-join-in-order",
        f"{MATRIX}: SessionStart stdout of each hook is injected, in definition order",
        "SessionStart",
        (Run(0, "first"), Run(0, specific("SessionStart", additionalContext="second"))),
        {
            **QUIET,
            "context": "first\n\nsecond",
            "errors": [None, None],
            "native": specific("SessionStart", additionalContext="first\n\nsecond"),
        },
    ),
    Case(
        "post-reasons-and-verbose-output-join-in-order",
        f"{ROUTING}: every exit-2 stderr and block reason of PostToolUse reaches the agent; "
        "plain stdout of each exit-0 hook is verbose output",
        "PostToolUse",
        (
            Run(2, "ignored", "lint: 3 errors"),
            Run(0, "formatted"),
            Run(0, specific("PostToolUse", decision="block", reason="tests")),
        ),
        {
            **QUIET,
            "reason": "lint: 3 errors\ntests",
            "errors": [None, None, None],
            "verboseOutput": "formatted\n"
            + json.dumps(specific("PostToolUse", decision="block", reason="tests")),
            "native": specific("PostToolUse", decision="block", reason="lint: 3 errors\ntests"),
        },
    ),
]


AGENT_SAYS: dict[str, dict[str, Any]] = {
    "exit-0-plain-PreToolUse": {
        "systemMessage": "out\nwarn",
        "verboseOutput": None,
        "native": {"systemMessage": "out\nwarn"},
    },
    "exit-0-plain-PostToolUse": {
        "systemMessage": "out\nwarn",
        "verboseOutput": None,
        "native": {"systemMessage": "out\nwarn"},
    },
    "exit-0-plain-Stop": {
        "systemMessage": "out\nwarn",
        "verboseOutput": None,
        "native": {"systemMessage": "out\nwarn"},
    },
    "exit-0-plain-SessionStart": {"context": None, "native": {"systemMessage": "warn"}},
    "exit-0-plain-SessionEnd": {
        "systemMessage": "out\nwarn",
        "verboseOutput": None,
        "native": {"systemMessage": "out\nwarn"},
    },
    "exit-0-json-system-message-PreToolUse": {"verboseOutput": None},
    "exit-0-json-system-message-PostToolUse": {"verboseOutput": None},
    "exit-0-json-system-message-Stop": {"verboseOutput": None},
    "exit-0-json-system-message-SessionEnd": {"verboseOutput": None},
    "exit-0-json-continue-false-PreToolUse": {
        "blocked": True,
        "decision": "deny",
        "verboseOutput": None,
        "continue": True,
        "stopReason": None,
        "native": {
            "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}
        },
    },
    "exit-0-json-continue-false-PostToolUse": {
        "verboseOutput": None,
        "continue": True,
        "stopReason": None,
        "native": {},
    },
    "exit-0-json-continue-false-Stop": {
        "verboseOutput": None,
        "continue": True,
        "stopReason": None,
        "native": {},
    },
    "exit-0-json-continue-false-SessionStart": {"continue": True, "stopReason": None, "native": {}},
    "exit-0-json-continue-false-SessionEnd": {
        "verboseOutput": None,
        "continue": True,
        "stopReason": None,
        "native": {},
    },
    "exit-2-PreToolUse": {
        "reason": "[hook:PreToolUse]: why",
        "native": {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "[hook:PreToolUse]: why",
            }
        },
    },
    "exit-2-PostToolUse": {
        "reason": None,
        "context": "[hook:PostToolUse]: why",
        "native": {
            "hookSpecificOutput": {
                "hookEventName": "PostToolUse",
                "additionalContext": "[hook:PostToolUse]: why",
            }
        },
    },
    "exit-2-Stop": {"reason": None},
    "exit-2-SessionStart": {
        "systemMessage": "[hook:SessionStart]: why",
        "native": {"systemMessage": "[hook:SessionStart]: why"},
        "errors": [None],
    },
    "exit-2-SessionEnd": {
        "systemMessage": "[hook:SessionEnd]: why",
        "native": {"systemMessage": "[hook:SessionEnd]: why"},
        "errors": [None],
    },
    "exit-2-json-ignored-PreToolUse": {
        "reason": "[hook:PreToolUse]: why",
        "native": {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "[hook:PreToolUse]: why",
            }
        },
    },
    "exit-2-json-ignored-PostToolUse": {
        "reason": None,
        "context": "[hook:PostToolUse]: why",
        "native": {
            "hookSpecificOutput": {
                "hookEventName": "PostToolUse",
                "additionalContext": "[hook:PostToolUse]: why",
            }
        },
    },
    "exit-2-json-ignored-Stop": {"reason": None},
    "exit-2-json-ignored-SessionStart": {
        "systemMessage": "[hook:SessionStart]: why",
        "native": {"systemMessage": "[hook:SessionStart]: why"},
        "errors": [None],
    },
    "exit-2-json-ignored-SessionEnd": {
        "systemMessage": "[hook:SessionEnd]: why",
        "native": {"systemMessage": "[hook:SessionEnd]: why"},
        "errors": [None],
    },
    "exit-1-PreToolUse": {
        "systemMessage": "Failed with non-blocking status code 1: boom\nsecond line",
        "native": {"systemMessage": "Failed with non-blocking status code 1: boom\nsecond line"},
        "errors": ["Failed with non-blocking status code 1: boom\nsecond line"],
    },
    "exit-1-PostToolUse": {
        "systemMessage": "Failed with non-blocking status code 1: boom\nsecond line",
        "native": {"systemMessage": "Failed with non-blocking status code 1: boom\nsecond line"},
        "errors": ["Failed with non-blocking status code 1: boom\nsecond line"],
    },
    "exit-1-Stop": {
        "systemMessage": "Failed with non-blocking status code 1: boom\nsecond line",
        "native": {"systemMessage": "Failed with non-blocking status code 1: boom\nsecond line"},
        "errors": ["Failed with non-blocking status code 1: boom\nsecond line"],
    },
    "exit-1-SessionStart": {
        "systemMessage": "Failed with non-blocking status code 1: boom\nsecond line",
        "native": {"systemMessage": "Failed with non-blocking status code 1: boom\nsecond line"},
        "errors": ["Failed with non-blocking status code 1: boom\nsecond line"],
    },
    "exit-1-SessionEnd": {
        "systemMessage": "Failed with non-blocking status code 1: boom\nsecond line",
        "native": {"systemMessage": "Failed with non-blocking status code 1: boom\nsecond line"},
        "errors": ["Failed with non-blocking status code 1: boom\nsecond line"],
    },
    "exit-3-PreToolUse": {
        "systemMessage": "Failed with non-blocking status code 3: boom\nsecond line",
        "native": {"systemMessage": "Failed with non-blocking status code 3: boom\nsecond line"},
        "errors": ["Failed with non-blocking status code 3: boom\nsecond line"],
    },
    "exit-127-Stop": {
        "systemMessage": "Failed with non-blocking status code 127: boom\nsecond line",
        "native": {"systemMessage": "Failed with non-blocking status code 127: boom\nsecond line"},
        "errors": ["Failed with non-blocking status code 127: boom\nsecond line"],
    },
    "exit-2-PreToolUse-empty-stderr": {
        "reason": "[hook:PreToolUse]: Hook blocked execution (no error message provided)",
        "native": {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "[hook:PreToolUse]: "
                "Hook "
                "blocked "
                "execution "
                "(no "
                "error "
                "message "
                "provided)",
            }
        },
    },
    "pre-deny-with-reason": {"verboseOutput": None},
    "pre-allow-is-not-a-decision": {
        "systemMessage": "warn",
        "verboseOutput": None,
        "native": {"systemMessage": "warn"},
    },
    "pre-ask-is-not-a-decision": {
        "systemMessage": "warn",
        "verboseOutput": None,
        "native": {"systemMessage": "warn"},
    },
    "pre-updated-input-ignored": {
        "verboseOutput": None,
        "native": {
            "hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": "ls"}}
        },
        "updatedInput": {"command": "ls"},
        "updatedInputFrom": "ws/.augment/settings.json",
    },
    "permission-decision-not-for-PostToolUse": {
        "context": "nope",
        "verboseOutput": None,
        "native": {
            "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "nope"}
        },
    },
    "permission-decision-not-for-Stop": {"verboseOutput": None},
    "permission-decision-not-for-SessionEnd": {"verboseOutput": None},
    "additional-context-not-for-PreToolUse": {
        "systemMessage": '{"hookSpecificOutput": '
        '{"hookEventName": "X", '
        '"additionalContext": "ctx"}}',
        "verboseOutput": None,
        "native": {
            "systemMessage": '{"hookSpecificOutput": '
            '{"hookEventName": '
            '"X", '
            '"additionalContext": '
            '"ctx"}}'
        },
    },
    "additional-context-not-for-Stop": {
        "systemMessage": '{"hookSpecificOutput": '
        '{"hookEventName": "X", '
        '"additionalContext": "ctx"}}',
        "verboseOutput": None,
        "native": {
            "systemMessage": '{"hookSpecificOutput": '
            '{"hookEventName": "X", '
            '"additionalContext": '
            '"ctx"}}'
        },
    },
    "additional-context-not-for-SessionEnd": {
        "systemMessage": '{"hookSpecificOutput": '
        '{"hookEventName": "X", '
        '"additionalContext": "ctx"}}',
        "verboseOutput": None,
        "native": {
            "systemMessage": '{"hookSpecificOutput": '
            '{"hookEventName": '
            '"X", '
            '"additionalContext": '
            '"ctx"}}'
        },
    },
    "decision-block-not-for-PreToolUse": {
        "systemMessage": '{"hookSpecificOutput": '
        '{"hookEventName": "X", "decision": '
        '"block", "reason": "r"}}',
        "verboseOutput": None,
        "native": {
            "systemMessage": '{"hookSpecificOutput": '
            '{"hookEventName": "X", '
            '"decision": "block", '
            '"reason": "r"}}'
        },
    },
    "decision-block-not-for-SessionEnd": {
        "systemMessage": '{"hookSpecificOutput": '
        '{"hookEventName": "X", "decision": '
        '"block", "reason": "r"}}',
        "verboseOutput": None,
        "native": {
            "systemMessage": '{"hookSpecificOutput": '
            '{"hookEventName": "X", '
            '"decision": "block", '
            '"reason": "r"}}'
        },
    },
    "post-decision-block-reason-to-agent": {"reason": None, "verboseOutput": None, "native": {}},
    "post-additional-context": {"verboseOutput": None},
    "stop-decision-block": {
        "blocked": False,
        "decision": None,
        "reason": None,
        "verboseOutput": None,
        "native": {},
    },
    "stop-top-level-decision-block": {
        "blocked": False,
        "decision": None,
        "reason": None,
        "verboseOutput": None,
        "native": {},
    },
    "session-start-additional-context": {"context": None, "native": {}},
    "session-start-invalid-json-is-plain-context": {"context": None, "native": {}},
    "pre-nan-is-not-json": {
        "systemMessage": '{"hookSpecificOutput": {"permissionDecision": "deny"}, "n": NaN}',
        "verboseOutput": None,
        "native": {
            "systemMessage": '{"hookSpecificOutput": {"permissionDecision": "deny"}, "n": NaN}'
        },
    },
    "session-start-infinity-is-plain-context": {"context": None, "native": {}},
    "pre-control-character-is-not-json": {
        "systemMessage": '\x1c{"hookSpecificOutput": {"permissionDecision": "deny"}}',
        "verboseOutput": None,
        "native": {"systemMessage": '\x1c{"hookSpecificOutput": {"permissionDecision": "deny"}}'},
    },
    "pre-deeply-nested-json-is-not-json": {
        "systemMessage": '{"a": '
        "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
        "verboseOutput": None,
        "native": {
            "systemMessage": '{"a": '
            "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"
        },
    },
    "stop-block-and-exit-2-both-reach-the-agent": {
        "blocked": False,
        "decision": None,
        "reason": None,
        "verboseOutput": None,
        "native": {},
    },
    "pre-error-never-loses-a-block": {
        "reason": "[hook:PreToolUse]: crash\ndenied\nfine",
        "systemMessage": None,
        "native": {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "[hook:PreToolUse]: crash\ndenied\nfine",
            }
        },
        "errors": ["Failed with non-blocking status code 1: crash", None, None],
    },
    "pre-two-blocks-join-their-reasons": {
        "reason": "[hook:PreToolUse]: first",
        "verboseOutput": None,
        "native": {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "[hook:PreToolUse]: first",
            }
        },
    },
    "session-start-contexts-join-in-order": {"context": None, "native": {}},
    "post-reasons-and-verbose-output-join-in-order": {
        "reason": None,
        "context": "[hook:PostToolUse]: lint: 3 errors",
        "verboseOutput": None,
        "native": {
            "hookSpecificOutput": {
                "hookEventName": "PostToolUse",
                "additionalContext": "[hook:PostToolUse]: lint: 3 errors",
            }
        },
    },
}
"""Where auggie 0.36.0 (the judge, run in ``tests/agents/augment``) contradicts the
document's matrix, what the fire result says instead, field by field: plain stdout and
each stderr line go to the user on every event but SessionStart (``systemMessage``, no
``verboseOutput``); SessionStart, Stop and PromptSubmit answers change nothing but what
the user sees; exit 2 messages carry ``[hook:<Event>]:`` and every hook's stderr; another
failing exit code anywhere makes the whole fire a non-blocking error; ``continue: false``
and a deny block PreToolUse (first blocking hook's reason only), and ``updatedInput``
applies; PostToolUse messages for the agent are ``context`` (appended to the tool
result). ``updatedInputFrom`` is compared relative to the case's folder."""


def behave(augment: Augment, index: int, run: Run) -> str:
    """A hook that reads its stdin and then does exactly ``run``."""
    stdout = run.stdout if isinstance(run.stdout, str) else json.dumps(run.stdout)
    out_file = augment.tmp / f"out{index}"
    err_file = augment.tmp / f"err{index}"
    out_file.write_text(stdout)
    err_file.write_text(run.stderr)
    body = f"cat >/dev/null\ncat '{out_file}'\ncat '{err_file}' >&2\nexit {run.code}"
    return str(augment.script(f"hook{index}.sh", body))


@pytest.mark.parametrize("case", params(CASES))
async def test_communication(augment: Augment, case: Case) -> None:
    scripts = [behave(augment, i, run) for i, run in enumerate(case.runs)]
    augment.write("workspace", **{case.event: [group(*scripts)]})

    result = await augment.fire(case.event)

    assert [h["exitCode"] for h in result["hooks"]] == [r.code for r in case.runs]
    for key, want in {**case.expect, **AGENT_SAYS.get(case.id, {})}.items():
        if key == "updatedInputFrom" and isinstance(result[key], str):
            assert result[key].endswith(want), (key, result)
        elif key == "errors":
            got = [h["error"] for h in result["hooks"]]
            assert len(got) == len(want), result
            for error, expected in zip(got, want, strict=True):
                assert error == expected if expected is None else expected in error, result
        else:
            assert result[key] == want, (key, result)
