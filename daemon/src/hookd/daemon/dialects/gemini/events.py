"""Gemini CLI's events and what each one reads (0.61.0: ``gemini-research.md`` §3 and
``tests/agents/gemini``).

Gemini names its own events (``BeforeTool``, not ``PreToolUse``): a Claude Code event name
in its settings is refused at load with a warning, and so is any other unknown name.
"""

from __future__ import annotations

EVENTS: tuple[str, ...] = (
    "BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel",
    "BeforeToolSelection", "PreCompress", "SessionStart", "SessionEnd", "Notification",
)  # fmt: skip
"""The 11 events of 0.61.0 (``gemini-research.md`` §3): no subagent events, no
``PermissionRequest``, no ``Stop``."""

MATCHED_FIELD: dict[str, str] = {
    "BeforeTool": "tool_name", "AfterTool": "tool_name", "SessionStart": "source",
    "SessionEnd": "reason", "PreCompress": "trigger",
}  # fmt: skip
"""The payload field a matcher is tested against: a tool name by an unanchored regular
expression, the others by exact text; every other event ignores matchers
(``gemini-research.md`` §2.2)."""
TOOL_EVENTS = frozenset({"BeforeTool", "AfterTool"})

OR_EVENTS = frozenset({"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "SessionStart"})
"""Events whose answers combine by OR: any block blocks, every reason and message joined
(``gemini-research.md`` §6)."""
REPLACE_EVENTS = frozenset({"BeforeModel", "AfterModel"})
"""Events whose answers combine field by field, the later hook's field winning."""

DECIDING_EVENTS = frozenset(
    {"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel"}
)
"""Events where a blocking ``decision`` or ``continue: false`` does something (on
``SessionStart``, ``PreCompress``, ``SessionEnd``, ``Notification`` and
``BeforeToolSelection`` they are ignored: §5.5, §5.9, §5.10)."""
CONTEXT_EVENTS = frozenset({"BeforeAgent", "AfterTool", "SessionStart"})
"""Events whose ``additionalContext`` reaches the model (it is ignored on ``BeforeTool``,
§5.2)."""

GUARD_EVENTS = frozenset({"BeforeTool", "BeforeAgent", "BeforeModel"})
"""Events whose hooks can keep an action from happening (a tool call, a prompt, a model
request)."""

DEFAULT_TIMEOUT_MS = 60000
"""A hook's timeout unless it says (milliseconds, §2.1)."""
