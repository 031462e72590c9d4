"""The Augment cases, as a table a person can read: each names the event, the hooks
(what each answers, in which settings files), the tool call the scripted model makes,
and what it pins.

Every case runs twice: by the real agent (``auggie --print``) and by hookd on the same
files with the payload the agent gave its hooks; ``test_augment_agent.py`` compares them.
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
    """More handler keys (``timeout``, ``args``); ``command`` replaces the script's path
    (``{script}`` in it is that path)."""
    matcher: str | None = None
    sleep: float = 0
    """Seconds before it answers (to overlap with others or pass a ``timeout``)."""
    layers: tuple[str, ...] = ("workspace",)
    """The settings files it is declared in: user, local, workspace, plugin."""
    event: str | None = None
    """Another event than the case's (to watch a second event in the same run)."""


def out(obj: Any) -> str:
    return json.dumps(obj)


def pre(decision: str | None = None, reason: str = "", **more: Any) -> str:
    spec: dict[str, Any] = {"hookEventName": "PreToolUse"}
    if decision:
        spec["permissionDecision"] = decision
    if reason:
        spec["permissionDecisionReason"] = reason
    return out({"hookSpecificOutput": {**spec, **more}})


def specific(event: str, **fields: Any) -> str:
    return out({"hookSpecificOutput": {"hookEventName": event, **fields}})


@dataclass(frozen=True)
class Case:
    id: str
    about: str
    hooks: tuple[Hook, ...]
    event: str = "PreToolUse"
    matcher: str | None = "launch-process"
    files: dict[str, Any] = field(default_factory=dict)
    """Settings files written as given (layer -> content), instead of the hooks' groups."""
    tool_command: str = "touch {ws}/ran"
    """The shell command the scripted model asks for (``launch-process``)."""
    tool: str = "launch-process"
    xfail: str | None = None


CASES = [
    Case("pre-exit0-allows", "exit 0 without output: the tool runs", (Hook("a"),)),
    Case(
        "pre-exit2-blocks",
        "exit 2 blocks; stderr is the reason the model sees",
        (Hook("a", exit=2, stderr="no rm here"),),
    ),
]
