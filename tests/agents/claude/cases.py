"""The Claude Code cases, as a table a person can read: each names the event, the hooks
(what each answers), the tool call the scripted model makes, and what it pins.

Every case runs twice: by the real agent (``claude -p``) and by hookd on the same files
with the payload the agent gave its hooks; ``test_claude_agent.py`` compares the two.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Hook:
    name: str
    exit: int = 0
    stdout: str = ""
    stderr: str = ""
    fields: dict[str, Any] = field(default_factory=dict)
    matcher: str | None = None


def out(obj: Any) -> str:
    return json.dumps(obj)


def pre(decision: str, reason: str = "", **more: Any) -> str:
    spec: dict[str, Any] = {"hookEventName": "PreToolUse", "permissionDecision": decision}
    if reason:
        spec["permissionDecisionReason"] = reason
    return out({"hookSpecificOutput": {**spec, **more}})


@dataclass(frozen=True)
class Case:
    id: str
    about: str
    hooks: tuple[Hook, ...]
    event: str = "PreToolUse"
    matcher: str | None = "Bash"
    xfail: str | None = None


CASES = [
    Case("pre-exit0-allows", "exit 0 without output: the tool runs", (Hook("a"),)),
    Case(
        "pre-exit2-blocks",
        "exit 2 blocks; stderr is the reason the model sees",
        (Hook("a", exit=2, stderr="no rm here"),),
    ),
    Case(
        "pre-exit1-non-blocking",
        "exit 1 is a non-blocking error: the tool runs",
        (Hook("a", exit=1, stderr="oops"),),
    ),
    Case(
        "pre-json-deny",
        "permissionDecision deny blocks with its reason",
        (Hook("a", stdout=pre("deny", "policy says no")),),
    ),
    Case(
        "pre-json-allow",
        "permissionDecision allow: the tool runs",
        (Hook("a", stdout=pre("allow", "fine")),),
    ),
    Case(
        "pre-json-context",
        "additionalContext reaches the model",
        (Hook("a", stdout=pre("allow", additionalContext="remember the tests")),),
    ),
    Case(
        "pre-updated-input",
        "updatedInput rewrites the command that runs",
        (Hook("a", stdout=pre("allow", updatedInput={"command": "touch {ws}/rewritten"})),),
    ),
    Case(
        "pre-two-hooks-one-denies",
        "one deny among two hooks blocks",
        (Hook("a"), Hook("b", exit=2, stderr="second says no")),
    ),
    Case(
        "pre-matcher-misses",
        "a matcher for another tool: the hook never runs",
        (Hook("a", exit=2, stderr="never", matcher="Write"),),
        matcher=None,
    ),
    Case(
        "pre-matcher-regex",
        "a regex matcher that matches Bash",
        (Hook("a", exit=2, stderr="regex hit", matcher="^(Bash|Write)$"),),
        matcher=None,
    ),
    Case(
        "pre-matcher-star",
        "`*` matches every tool",
        (Hook("a", exit=2, stderr="star hit", matcher="*"),),
        matcher=None,
    ),
    Case(
        "pre-continue-false",
        "continue: false stops the agent; the tool still runs?",
        (Hook("a", stdout=out({"continue": False, "stopReason": "halt"})),),
    ),
    Case(
        "pre-invalid-json",
        "output that is not JSON on exit 0: ignored, the tool runs",
        (Hook("a", stdout="{not json"),),
    ),
    Case(
        "pre-decision-block-legacy",
        "the legacy decision: block blocks",
        (Hook("a", stdout=out({"decision": "block", "reason": "legacy no"})),),
    ),
    Case(
        "post-context",
        "PostToolUse additionalContext reaches the model",
        (
            Hook(
                "a",
                stdout=out(
                    {
                        "hookSpecificOutput": {
                            "hookEventName": "PostToolUse",
                            "additionalContext": "post note",
                        }
                    }
                ),
            ),
        ),
        event="PostToolUse",
    ),
    Case(
        "post-block",
        "PostToolUse decision block: the reason goes to the model",
        (Hook("a", stdout=out({"decision": "block", "reason": "look again"})),),
        event="PostToolUse",
    ),
    Case(
        "post-exit2",
        "PostToolUse exit 2: stderr to the model",
        (Hook("a", exit=2, stderr="post stderr"),),
        event="PostToolUse",
    ),
    Case(
        "prompt-context",
        "UserPromptSubmit stdout on exit 0 is context",
        (Hook("a", stdout="plain prompt context"),),
        event="UserPromptSubmit",
        matcher=None,
    ),
    Case(
        "prompt-block",
        "UserPromptSubmit decision block: the prompt never reaches the model",
        (Hook("a", stdout=out({"decision": "block", "reason": "not this prompt"})),),
        event="UserPromptSubmit",
        matcher=None,
    ),
    Case(
        "stop-block",
        "Stop decision block: the agent goes on with the reason",
        (Hook("a", stdout=out({"decision": "block", "reason": "run the tests first"})),),
        event="Stop",
        matcher=None,
    ),
]
