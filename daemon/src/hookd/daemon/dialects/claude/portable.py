"""Claude Code and the portable hooks: the shared vocabulary is Claude's own, so every
event and tool maps to itself and a portable hook is one of Claude's hooks.

``claude_answer`` writes a portable answer as a Claude hook's JSON and ``claude_payload``
reads a fire in Claude's envelope: the agents that copied Claude's hook contract (Codex
CLI, Factory Droid, Qwen Code) import them for what they share.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ...model import Dialect, FireRequest, HookSpec
from ..portable import (
    SHARED_EVENTS,
    SHARED_TOOLS,
    AgentAnswer,
    AnswerField,
    PortableAnswer,
    lost_fields,
    renamed_tool,
)
from . import rules

DIALECT = Dialect.CLAUDE

EVENTS: Mapping[str, str] = {e: e for e in SHARED_EVENTS if e in rules.EVENTS}
TOOLS: Mapping[str, str] = {tool: tool for tool in SHARED_TOOLS}

_ALL: frozenset[AnswerField] = frozenset({"block", "reason", "systemMessage", "stop"})
CARRIES: Mapping[str, frozenset[AnswerField]] = {
    "PreToolUse": _ALL | {"context", "updatedInput"},
    "PermissionRequest": _ALL | {"updatedInput"},
    "PostToolUse": _ALL | {"context"},
    "PostToolUseFailure": _ALL | {"context"},
    "UserPromptSubmit": _ALL | {"context"},
    "SessionStart": frozenset({"context", "systemMessage", "stop"}),
    "SessionEnd": frozenset({"systemMessage"}),
    "Stop": _ALL,
    "SubagentStart": frozenset({"context", "systemMessage", "stop"}),
    "SubagentStop": _ALL,
    "PreCompact": _ALL,
    "Notification": frozenset({"systemMessage", "stop"}),
}
"""Claude Code 2.1.328's reading of each event's answer
(docs/sources/reference/claude-code-hooks-reference-v2.1.240.md, "Decision control" per
event; tests/agents/claude)."""


def runs_portable(request: FireRequest) -> bool:
    """Every fire of Claude Code's, but not GitHub Copilot CLI running a Claude relay
    entry: Copilot also runs the hooks of a project's ``.claude/settings*.json``
    (``copilot-research.md`` §1.1), where ``hookd adopt --agent claude --scope project``
    puts its relay entries (``settings.local.json``), giving them its own payload (a
    ``timestamp`` Claude's has not, §3.1) and ``COPILOT_CLI=1`` (§4.3). The portable
    hooks run in Copilot's own fires, in its words: run here too they would run twice, as
    Claude's, answered in Claude's JSON, which Copilot reads only on PreToolUse (§5.1)."""
    from_copilot = request.env.get("COPILOT_CLI") == "1" and "timestamp" in request.payload
    return not (request.relay and from_copilot)


def shared_payload(request: FireRequest, event: str) -> dict[str, Any]:
    return claude_payload(request, TOOLS)


def claude_payload(request: FireRequest, tools: Mapping[str, str]) -> dict[str, Any]:
    """A payload in Claude's envelope (``session_id``, ``cwd``, ``tool_name``,
    ``tool_input`` ...) as a portable hook reads it: a copy, its tool by its shared name
    and by the agent's own (``hookd_agent_tool``)."""
    payload = dict(request.payload)
    if "tool_name" in payload:
        payload["hookd_agent_tool"] = payload["tool_name"]
        payload["tool_name"] = renamed_tool(tools, payload["tool_name"])
    return payload


def agent_spec(spec: HookSpec, request: FireRequest) -> HookSpec:
    return spec


def agent_answer(request: FireRequest, answer: PortableAnswer) -> AgentAnswer:
    return claude_answer(request.event, answer, CARRIES)


def claude_answer(
    event: str, answer: PortableAnswer, carries: Mapping[str, frozenset[AnswerField]]
) -> AgentAnswer:
    """``answer`` as a Claude hook's exit code and JSON for ``event``: a failure as exit 1
    with its text on stderr, anything else as exit 0 and one JSON object."""
    lost = lost_fields(answer, carries, event)
    if answer.error and not answer.asks():
        return AgentAnswer(1, "", answer.error + "\n", lost)
    out: dict[str, Any] = {}
    specific: dict[str, Any] = {}
    blocks = (answer.blocks or answer.decision in ("deny", "ask")) and "block" not in lost
    if event == "PreToolUse":
        if blocks:
            specific["permissionDecision"] = answer.decision or "deny"
            if answer.reason:
                specific["permissionDecisionReason"] = answer.reason
        elif answer.decision == "allow":
            specific["permissionDecision"] = "allow"
        if answer.has_updated_input and "updatedInput" not in lost:
            specific["updatedInput"] = answer.updated_input
    elif event == "PermissionRequest":
        if blocks or answer.decision == "allow" or answer.has_updated_input:
            behaviour: dict[str, Any] = {"behavior": "deny" if blocks else "allow"}
            if blocks and answer.reason:
                behaviour["message"] = answer.reason
            if not blocks and answer.has_updated_input:
                behaviour["updatedInput"] = answer.updated_input
            specific["decision"] = behaviour
    elif blocks:
        out["decision"] = "block"
        if answer.reason:
            out["reason"] = answer.reason
    if answer.context and "context" not in lost:
        specific["additionalContext"] = answer.context
    if specific:
        out["hookSpecificOutput"] = {"hookEventName": event, **specific}
    if not answer.continue_ and "stop" not in lost:
        out["continue"] = False
        if answer.stop_reason:
            out["stopReason"] = answer.stop_reason
    if answer.system_message and "systemMessage" not in lost:
        out["systemMessage"] = answer.system_message
    return AgentAnswer(0, json.dumps(out) if out else "", "", lost)
