"""Factory Droid's events and the facts per event (``droid-research.md`` §2, §3; the judge:
``@factory/cli-linux-x64`` 0.225.2, ``tests/agents/droid``)."""

from __future__ import annotations

EVENTS: tuple[str, ...] = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "Notification",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "SessionEnd",
)
"""The nine event keys the agent reads (exact, PascalCase): any other key of a hooks
object is skipped with a warning in its log, the rest of the file kept."""

MATCHER_FIELD: dict[str, str] = {
    "PreToolUse": "tool_name",
    "PostToolUse": "tool_name",
    "SessionStart": "source",
}
"""The only events whose groups are matched (§3.3); every other event runs every group,
whatever its ``matcher`` says."""

TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse"})
COMMAND_TOOL = "Execute"
"""The one tool whose ``tool_input.command`` a group's ``commandRegex`` is tested on."""
GUARD_EVENTS = frozenset({"PreToolUse", "UserPromptSubmit", "PreCompact"})
DEFAULT_TIMEOUT_S = 60.0
"""A handler's ``timeout`` is seconds; missing or 0 is 60 (§4)."""
SETTINGS_DISABLE = "hooksDisabled"
"""A key inside a hooks object, beside the events: the highest layer that sets it decides,
and ``true`` turns off every layer's hooks (§1.3)."""
NOT_EVENTS = frozenset({SETTINGS_DISABLE, "showHookOutput"})
RISK_FIELDS = ("riskLevel", "riskLevelReason")
"""Dropped from an Execute input whose ``command`` a hook rewrote, unless the handler says
``preserveRiskLevel`` (§5.1)."""
KNOWN_OUTPUT_KEYS = frozenset(
    {"continue", "stopReason", "suppressOutput", "systemMessage", "decision", "reason",
     "hookSpecificOutput"}
)  # fmt: skip
"""A JSON answer with one of these keys is an answer, not context (SessionStart,
UserPromptSubmit plain stdout, §5.4, §5.5)."""
PLUGIN_ROOT_UNSET = "/PLUGIN_ROOT_NOT_EXPANDED_ERROR"
"""``DROID_PLUGIN_ROOT`` and ``CLAUDE_PLUGIN_ROOT`` of a hook that is no plugin's (§7)."""

# The texts the agent uses when a hook gave none (§5).
DENIED = "Tool execution denied by hook"
BLOCKED = "Tool execution blocked by hook"
POST_FEEDBACK = "PostToolUse hook reported an issue"
FEEDBACK_PREFIX = "[Hook Feedback] "
STOP_CONTINUE = "Stop hook requested continuation"
PROMPT_BLOCKED = "User prompt submission blocked by hook"
PROMPT_ABORTED = "User prompt submission aborted by hook"
