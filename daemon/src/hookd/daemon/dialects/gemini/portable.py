"""Gemini CLI 0.61.0 and the portable hooks: its events and tools in the shared (Claude)
vocabulary, and a portable answer written as a Gemini hook's JSON
(``gemini-research.md`` §3, §5; its own Claude-settings migration maps the same tools).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ...model import Dialect, FireRequest
from ..portable import (
    AgentAnswer,
    AnswerField,
    PortableAnswer,
    every_fire,
    lost_fields,
    plain_spec,
    renamed_tool,
)

DIALECT = Dialect.GEMINI

EVENTS: Mapping[str, str] = {
    "BeforeTool": "PreToolUse",
    "AfterTool": "PostToolUse",
    "BeforeAgent": "UserPromptSubmit",
    "AfterAgent": "Stop",
    "SessionStart": "SessionStart",
    "SessionEnd": "SessionEnd",
    "PreCompress": "PreCompact",
    "Notification": "Notification",
}
"""BeforeModel, AfterModel and BeforeToolSelection have no shared equivalent."""

TOOLS: Mapping[str, str] = {
    "run_shell_command": "Bash",
    "read_file": "Read",
    "write_file": "Write",
    "replace": "Edit",
    "glob": "Glob",
    "grep_search": "Grep",
    "web_fetch": "WebFetch",
    "google_web_search": "WebSearch",
}
"""Gemini's tools (§2.2: the list a model sees in 0.61.0) by their Claude names. Their
arguments already use Claude's names where both have the field (``command``,
``file_path``, ``content``, ``old_string``, ``new_string``, ``pattern``)."""

_GUARD: frozenset[AnswerField] = frozenset({"block", "reason", "stop", "systemMessage"})
CARRIES: Mapping[str, frozenset[AnswerField]] = {
    "PreToolUse": _GUARD | {"updatedInput"},  # additionalContext is ignored (§5.2)
    "PostToolUse": _GUARD | {"context"},
    "UserPromptSubmit": _GUARD | {"context"},
    "Stop": _GUARD,
    "SessionStart": frozenset({"context", "systemMessage"}),  # decision, continue ignored
    "SessionEnd": frozenset({"systemMessage"}),
    "PreCompact": frozenset({"systemMessage"}),
    "Notification": frozenset({"systemMessage"}),
}

runs_portable = every_fire
agent_spec = plain_spec


def shared_payload(request: FireRequest, event: str) -> dict[str, Any]:
    """Gemini's payload already has Claude's common fields (``session_id``, ``cwd``,
    ``transcript_path``) and tool fields (``tool_name``, ``tool_input``): the tool is
    renamed; ``AfterAgent``'s answer is the Stop event's last message."""
    payload = dict(request.payload)
    if "tool_name" in payload:
        payload["hookd_agent_tool"] = payload["tool_name"]
        payload["tool_name"] = renamed_tool(TOOLS, payload["tool_name"])
    if event == "Stop":
        payload.setdefault("stop_hook_active", False)
        response = payload.get("prompt_response")
        if isinstance(response, str):
            payload["last_assistant_message"] = response
    return payload


def agent_answer(request: FireRequest, answer: PortableAnswer) -> AgentAnswer:
    """A Gemini hook's answer: one JSON object on stdout, exit 0 (§5.1); a failure is exit
    1 with its text, which Gemini shows as a warning and goes on."""
    event = EVENTS.get(request.event, "")
    lost = lost_fields(answer, CARRIES, event)
    if answer.error and not answer.asks():
        return AgentAnswer(1, "", answer.error + "\n", lost)
    out: dict[str, Any] = {}
    specific: dict[str, Any] = {}
    if (answer.blocks or answer.decision in ("deny", "ask")) and "block" not in lost:
        out["decision"] = "ask" if answer.decision == "ask" and not answer.blocks else "deny"
        if answer.reason:
            out["reason"] = answer.reason
    if not answer.continue_ and "stop" not in lost:
        out["continue"] = False
        if answer.stop_reason:
            out["stopReason"] = answer.stop_reason
    if answer.system_message and "systemMessage" not in lost:
        out["systemMessage"] = answer.system_message
    if answer.context and "context" not in lost:
        specific["additionalContext"] = answer.context
    if answer.has_updated_input and "updatedInput" not in lost:
        specific["tool_input"] = answer.updated_input
    if specific:
        out["hookSpecificOutput"] = specific
    return AgentAnswer(0, json.dumps(out) if out else "", "", lost)
