"""Codex CLI's events and what each one reads (0.171.0, found by running it: the
research notes of issue 23 and ``tests/agents/codex``).

Codex names its events in PascalCase in its files, as Claude Code does; it keeps a
snake_case label for each (its hook trust keys and hashes) and a kebab-case one in the
message for output it cannot parse.
"""

from __future__ import annotations

EVENTS: tuple[str, ...] = (
    "PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact",
    "SessionStart", "SessionEnd", "UserPromptSubmit", "SubagentStart", "SubagentStop",
    "Stop", "PreModelRequest", "PostModelRequest", "Interrupt",
)  # fmt: skip
"""The 14 events of 0.171.0 (its documents list 11: not the model-request events nor
``Interrupt``)."""

SNAKE: dict[str, str] = {
    "PreToolUse": "pre_tool_use", "PermissionRequest": "permission_request",
    "PostToolUse": "post_tool_use", "PreCompact": "pre_compact", "PostCompact": "post_compact",
    "SessionStart": "session_start", "SessionEnd": "session_end",
    "UserPromptSubmit": "user_prompt_submit", "SubagentStart": "subagent_start",
    "SubagentStop": "subagent_stop", "Stop": "stop", "PreModelRequest": "pre_model_request",
    "PostModelRequest": "post_model_request", "Interrupt": "interrupt",
}  # fmt: skip
"""The label in a hook's trust key and hash."""

MATCHED_FIELD: dict[str, str] = {
    "PreToolUse": "tool_name", "PermissionRequest": "tool_name", "PostToolUse": "tool_name",
    "PreCompact": "trigger", "PostCompact": "trigger", "SessionStart": "source",
    "SessionEnd": "reason", "SubagentStart": "agent_type", "SubagentStop": "agent_type",
}  # fmt: skip
"""The payload field a matcher is tested against; on the other events a matcher is
ignored (every group runs, an invalid regular expression is not even checked)."""

TOOL_ALIASES: dict[str, tuple[str, ...]] = {"apply_patch": ("Edit", "Write")}
"""Names a matcher may also use for a tool (the payload always has the tool's own)."""

SHORT_EVENTS = frozenset({"SessionEnd", "Interrupt"})
"""Events whose hooks get 1 s unless they say, and at most 3 s."""
SHORT_DEFAULT_S = 1
SHORT_CAP_S = 3
DEFAULT_TIMEOUT_S = 600

CONTEXT_EVENTS = frozenset(
    {"PreToolUse", "PostToolUse", "SessionStart", "UserPromptSubmit", "SubagentStart"}
)
"""Events whose hooks can add context for the model (``additionalContext``)."""
TEXT_IS_CONTEXT = frozenset({"SessionStart", "UserPromptSubmit", "SubagentStart"})
"""Events where plain-text stdout is context too (elsewhere it is ignored or an error)."""

GUARD_EVENTS = frozenset({"PreToolUse", "PermissionRequest", "UserPromptSubmit"})
"""Events whose hooks can keep an action from happening."""
