"""Qwen Code's events and what each one reads (0.24.4: ``qwen-research.md`` §3, §5 and
``tests/agents/qwen``).

Qwen names its events as Claude Code does (Claude's original nine keep their names and
payload envelope) and adds thirteen. An unknown name in a settings file is skipped in
silence (names are case-sensitive).
"""

from __future__ import annotations

from ..claude import rules as claude_rules

EVENTS: tuple[str, ...] = (
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification",
    "UserPromptSubmit", "UserPromptExpansion", "SessionStart", "Stop", "MessageDisplay",
    "SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "SessionEnd",
    "SessionDelete", "PermissionRequest", "PermissionDenied", "StopFailure", "TodoCreated",
    "TodoCompleted", "InstructionsLoaded",
)  # fmt: skip
"""The 22 events of 0.24.4's ``HookEventName`` (§3)."""

MATCHED_FIELD: dict[str, str] = {
    "PreToolUse": "tool_name", "PostToolUse": "tool_name", "PostToolUseFailure": "tool_name",
    "PermissionRequest": "tool_name", "PermissionDenied": "tool_name",
    "SubagentStart": "agent_type", "SubagentStop": "agent_type", "PreCompact": "trigger",
    "PostCompact": "trigger", "SessionStart": "source", "SessionEnd": "reason",
    "StopFailure": "error", "Notification": "notification_type",
    "InstructionsLoaded": "file_path", "UserPromptExpansion": "command_name",
}  # fmt: skip
"""The payload field a matcher is tested against (§2.1); every other event ignores
matchers."""
TOOL_EVENTS = frozenset(
    {"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"}
)
"""Events whose matcher also knows a tool's aliases (``Bash`` for ``run_shell_command``)."""

OR_EVENTS = frozenset({
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Stop",
    "UserPromptSubmit", "UserPromptExpansion", "SubagentStop", "TodoCreated", "TodoCompleted",
})  # fmt: skip
"""Events whose answers combine by OR (``HookAggregator``, §6); PermissionRequest has its
own rule, every other event a shallow merge, the later hook winning."""

PLAIN_STDOUT_IS_CONTEXT = claude_rules.PLAIN_STDOUT_IS_CONTEXT
"""Where plain text on stdout (exit 0) is context, not a message: Claude Code's rule,
which Qwen kept (SessionStart, UserPromptSubmit, UserPromptExpansion; §5.1)."""

CONTEXT_EVENTS = frozenset({
    "PostToolUse", "PostToolUseFailure", "PostToolBatch", "UserPromptSubmit",
    "UserPromptExpansion", "SessionStart", "SubagentStart",
})  # fmt: skip
"""Events whose ``additionalContext`` reaches the model (PreToolUse's is ignored, §5.2)."""

BLOCK_EVENTS = frozenset({
    "PreToolUse", "PostToolBatch", "UserPromptSubmit", "UserPromptExpansion", "Stop",
    "SubagentStop", "TodoCreated", "TodoCompleted",
})  # fmt: skip
"""Events where a top-level ``decision: block/deny`` does something (on PostToolUse and
PostToolUseFailure it is ignored, §5.3, §5.4)."""
CONTINUE_EVENTS = frozenset({
    "PreToolUse", "PostToolUse", "PostToolBatch", "UserPromptSubmit", "UserPromptExpansion",
    "Stop", "SubagentStop",
})  # fmt: skip
"""Events where ``continue: false`` does something."""
STOP_EVENTS = frozenset({"Stop", "SubagentStop"})
"""Events where a block (or ``continue: false``) sends the reason to the model as a new
turn: the agent goes on (§5.7)."""
ENDS_PROMPT = frozenset({"UserPromptSubmit", "UserPromptExpansion"})
"""Events where a block ends the prompt with no model call (§5.6)."""

GUARD_EVENTS = frozenset(
    {"PreToolUse", "UserPromptSubmit", "UserPromptExpansion", "PermissionRequest",
     "TodoCreated", "TodoCompleted"}
)  # fmt: skip
"""Events whose hooks can keep an action from happening."""

DEFAULT_TIMEOUT_S = 60.0
"""A command hook's timeout unless it says (seconds; §4.3)."""
MS_FROM = 1000
"""A timeout of this many or more is read as milliseconds (§4.3)."""

TOOL_ALIASES: dict[str, tuple[str, ...]] = {
    "run_shell_command": ("Shell", "ShellTool", "Bash"),
    "edit": ("Edit", "EditTool", "replace"),
    "write_file": ("WriteFile", "WriteFileTool", "Write"),
    "read_file": ("ReadFile", "ReadFileTool", "Read"),
    "grep_search": ("Grep", "GrepTool", "search_file_content", "SearchFiles"),
    "glob": ("Glob", "GlobTool", "FindFiles"),
    "list_directory": ("ListFiles", "ListFilesTool", "ReadFolder"),
    "todo_write": ("TodoList", "TodoWrite", "TodoWriteTool"),
    "agent": ("Agent", "AgentTool", "task", "Task"),
    "notebook_edit": ("NotebookEdit", "NotebookEditTool"),
    "web_fetch": ("WebFetch",),
}
"""The names a matcher may give a tool besides its id, matched exactly (never as a regular
expression): ``TOOL_NAME_ALIASES`` and the display names (§2.1)."""
