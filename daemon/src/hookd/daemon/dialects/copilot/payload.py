"""The two payload forms Copilot CLI writes to its hooks (1.0.102; ``copilot-research.md
§3.1``, ``§3.2``): its own camelCase payload, and the snake_case form PascalCase keys get,
made here from the camelCase one with the agent's key order (timestamps as ISO-8601 text
with milliseconds, tool names as Claude names). ``PermissionRequest`` and
``Notification`` get the camelCase payload as it is; ``SubagentStart`` a hybrid.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from .events import PASCAL_OF, TOOL_NAMES

Field = tuple[str, str | Callable[[Mapping[str, Any]], Any]]
"""A PascalCase key and the camelCase key (or how) it is made from."""

SUBAGENT = ("agentId", "agentType", "parentAgentId")
SUBAGENT_SNAKE = {
    "agentId": "agent_id",
    "agentType": "agent_type",
    "parentAgentId": "parent_agent_id",
}


def iso(value: Any) -> Any:
    """Epoch milliseconds as the agent's ISO text (``2026-11-27T18:21:52.564Z``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return value
    moment = datetime.fromtimestamp(value // 1000, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value % 1000:03d}Z"


def claude_tool(name: Any) -> Any:
    return TOOL_NAMES.get(name, name) if isinstance(name, str) else name


def _tool_result(payload: Mapping[str, Any]) -> Any:
    result = payload.get("toolResult")
    if not isinstance(result, Mapping):
        return result
    renamed = {"resultType": "result_type", "textResultForLlm": "text_result_for_llm"}
    return {renamed.get(k, k): v for k, v in result.items()}


_HEAD: tuple[Field, ...] = (
    ("session_id", "sessionId"), ("timestamp", lambda p: iso(p.get("timestamp"))), ("cwd", "cwd"),
)  # fmt: skip
_TOOL: tuple[Field, ...] = (("tool_name", lambda p: claude_tool(p.get("toolName"))),
                            ("tool_input", "toolArgs"))  # fmt: skip
FIELDS: dict[str, tuple[Field, ...]] = {
    "sessionStart": (("source", "source"), ("initial_prompt", "initialPrompt")),
    "userPromptSubmitted": (("prompt", "prompt"),),
    "preToolUse": _TOOL,
    "postToolUse": (*_TOOL, ("tool_result", _tool_result)),
    "postToolUseFailure": (*_TOOL, ("error", "error")),
    "agentStop": (("transcript_path", "transcriptPath"), ("stop_reason", "stopReason"),
                  ("stop_hook_active", "stop_hook_active")),
    "sessionEnd": (("reason", "reason"),),
    "errorOccurred": (("error", "error"), ("error_context", "errorContext"),
                      ("recoverable", "recoverable")),
    "subagentStop": (("agent_id", "agentId"), ("agent_type", "agentType"),
                     ("parent_agent_id", "parentAgentId"), ("transcript_path", "transcriptPath"),
                     ("agent_name", "agentName"), ("last_assistant_message", "response"),
                     ("stop_reason", "stopReason"), ("stop_hook_active", "stop_hook_active")),
    "preCompact": (("transcript_path", "transcriptPath"), ("trigger", "trigger"),
                   ("custom_instructions", "customInstructions")),
}  # fmt: skip
"""Each event's fields after ``hook_event_name, session_id, timestamp, cwd``."""
AS_IS = frozenset({"permissionRequest", "notification"})


def pascal(event: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    """The PascalCase form of ``event``'s camelCase ``payload``."""
    if event in AS_IS:
        return dict(payload)
    if event == "subagentStart":
        return {SUBAGENT_SNAKE.get(k, k): v for k, v in payload.items()}
    made: dict[str, Any] = {"hook_event_name": PASCAL_OF[event]}
    fields: tuple[Field, ...] = _HEAD
    if event == "agentStop":  # in a subagent, its ids come right after cwd
        fields += tuple((SUBAGENT_SNAKE[k], k) for k in SUBAGENT)
    fields += FIELDS.get(event, ())
    if event != "agentStop" and event != "subagentStop":
        fields += tuple((SUBAGENT_SNAKE[k], k) for k in SUBAGENT)
    for key, source in fields:
        if isinstance(source, str):
            if source in payload:
                made[key] = payload[source]
        elif _present(key, payload):
            made[key] = source(payload)
    return made


def _present(key: str, payload: Mapping[str, Any]) -> bool:
    camel = {"timestamp": "timestamp", "tool_name": "toolName", "tool_result": "toolResult"}
    return camel.get(key, key) in payload


def is_pascal_form(payload: Mapping[str, Any]) -> bool:
    """A payload in the snake_case form (a fire of a PascalCase event)."""
    return "session_id" in payload or ("hook_event_name" in payload and "sessionId" not in payload)
