"""Claude Code's event tables: matcher fields, blocking rules, and the matcher syntax."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

EVENTS: tuple[str, ...] = (
    "SessionStart",
    "Setup",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "PreToolUse",
    "PermissionRequest",
    "PermissionDenied",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "MessageDisplay",
    "SubagentStart",
    "SubagentStop",
    "TaskCreated",
    "TaskCompleted",
    "Stop",
    "StopFailure",
    "TeammateIdle",
    "InstructionsLoaded",
    "ConfigChange",
    "CwdChanged",
    "DirectoryAdded",
    "FileChanged",
    "WorktreeCreate",
    "WorktreeRemove",
    "PreCompact",
    "PostCompact",
    "PreModelSwitch",
    "PostModelSwitch",
    "Elicitation",
    "ElicitationResult",
    "SessionEnd",
)

TOOL_EVENTS = frozenset(
    {"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"}
)

MATCHER_FIELD: dict[str, str] = {
    **{event: "tool_name" for event in TOOL_EVENTS},
    "SessionStart": "source",
    "Setup": "trigger",
    "SessionEnd": "reason",
    "Notification": "notification_type",
    "SubagentStart": "agent_type",
    "SubagentStop": "agent_type",
    "PreCompact": "trigger",
    "PostCompact": "trigger",
    "ConfigChange": "source",
    "DirectoryAdded": "source",
    "FileChanged": "file_path",  # matched against the basename
    "StopFailure": "error",
    "InstructionsLoaded": "load_reason",
    "UserPromptExpansion": "command_name",
    "Elicitation": "mcp_server_name",
    "ElicitationResult": "mcp_server_name",
    "PreModelSwitch": "to_model",
    "PostModelSwitch": "to_model",
}
"""The stdin field each event's matcher is tested against; absent = no matcher support
(the matcher is then silently ignored, as Claude Code does)."""

EXIT2_BLOCKS = frozenset(
    {
        "PreToolUse",
        "UserPromptSubmit",
        "UserPromptExpansion",
        "Stop",
        "SubagentStop",
        "TeammateIdle",
        "TaskCreated",
        "TaskCompleted",
        "ConfigChange",
        "PostToolBatch",
        "PreCompact",
        "Elicitation",
        "ElicitationResult",
        "WorktreeCreate",
        "PreModelSwitch",  # 2.1.328: "Model switch blocked by a PreModelSwitch hook"
    }
)
"""Events where exit code 2 blocks ("Exit code 2 behavior per event")."""

ON_FAILURE_EVENTS = EXIT2_BLOCKS - {"Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"}
"""Where a handler's ``onFailure: "block"`` (2.1.328) turns a failure into a block."""

EXIT2_FEEDS_CLAUDE = frozenset({"PostToolUse", "PostToolUseFailure"})
"""Exit 2 shows stderr to Claude, but the tool already ran: a block in the sense of
PostToolUse's ``decision: "block"`` (the reason goes next to the tool result)."""

EXIT2_IGNORED = frozenset(
    {
        "PermissionRequest",
        "StopFailure",
        "PermissionDenied",
        "Notification",
        "InstructionsLoaded",
        "WorktreeRemove",
        "DirectoryAdded",
        "MessageDisplay",
    }
)

BLOCK_ENDS_TURN = frozenset({"UserPromptSubmit", "UserPromptExpansion", "PostToolBatch"})
"""Events where a block ends the turn: the agent stops ("PostToolBatch, UserPromptSubmit,
and UserPromptExpansion: the turn ends"; the real agent's PostToolBatch block ends with
``terminal_reason: hook_stopped``)."""

ACTION_STILL_RUNS_ON_STOP = frozenset({"PreToolUse"})
"""Events whose guarded action still happens under ``continue: false`` when nothing
blocked it: the agent runs the tool, then stops (tests/agents/claude)."""

TOP_LEVEL_DECISION = frozenset(
    {
        "UserPromptSubmit",
        "UserPromptExpansion",
        "PostToolUse",
        "PostToolUseFailure",
        "PostToolBatch",
        "Stop",
        "SubagentStop",
        "ConfigChange",
        "PreCompact",
        "TaskCreated",
    }
)
"""Events that honour top-level ``decision: "block"`` + ``reason``."""

PLAIN_STDOUT_IS_CONTEXT = frozenset({"UserPromptSubmit", "UserPromptExpansion", "SessionStart"})

OUTPUT_DISCARDED = frozenset({"StopFailure"})

ADDITIONAL_CONTEXT_EVENTS = frozenset(
    {
        "SessionStart",
        "Setup",
        "SubagentStart",
        "UserPromptSubmit",
        "UserPromptExpansion",
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "PostToolBatch",
        "Stop",
        "SubagentStop",
        "PostModelSwitch",  # 2.1.328
        "Notification",  # 2.1.328
    }
)

DEFAULT_TIMEOUT_S: dict[str, float] = {"UserPromptSubmit": 30.0, "MessageDisplay": 10.0}
ASYNC_REPLY_TIMEOUT_S = 15.0
"""The timeout of a hook that sent itself to the background without an ``asyncTimeout``
(2.1.328 logs "with timeout 15000ms" and then enforces none; hookd enforces it)."""
STAYS_IN_FOREGROUND = frozenset({"MessageDisplay"})
"""Events whose command hooks 2.1.328 runs with ``forceSyncExecution``: an ``{"async":
true}`` first line does not send them to the background."""
COMMAND_TIMEOUT_S = 600.0
SESSION_END_BUDGET_S = 1.5
SESSION_END_MAX_BUDGET_S = 60.0
SESSION_END_BUDGET_ENV = "CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS"

LEGACY_TOOL_NAMES: dict[str, str] = {
    "Task": "Agent",
    "KillShell": "TaskStop",
    "KillBash": "TaskStop",
    "ListPeers": "ListAgents",
    "Brief": "SendUserMessage",
    "ListMcpResources": "ListMcpResourcesTool",
    "ReadMcpResource": "ReadMcpResourceTool",
    "ReadMcpResourceDir": "ReadMcpResourceDirTool",
    "ProposeGoal": "SetGoal",
}
"""Old tool names and the tools they are now (2.1.328): a matcher naming the old name
still matches the tool, exactly or as a regex (``tests/agents/claude``: ``Task``,
``Write|Task`` and ``^Task$`` all match the Agent tool)."""
_OLD_NAMES: dict[str, tuple[str, ...]] = {
    new: tuple(old for old, now in LEGACY_TOOL_NAMES.items() if now == new)
    for new in LEGACY_TOOL_NAMES.values()
}
_MODEL_TAG = re.compile(r"\[[12]m\](?=\s*(?:[|,]|$))", re.IGNORECASE)
MODEL_EVENTS = frozenset({"PreModelSwitch", "PostModelSwitch"})

_EXACT = re.compile(r"^[A-Za-z0-9_\-, |]+$")
_EXACT_NARROW = re.compile(r"^[A-Za-z0-9_|]+$")
_NARROW_EVENTS = frozenset({"FileChanged", "StopFailure"})


def matcher_matches(event: str, matcher: str | None, value: str | None) -> bool:
    """Claude Code's matcher rule for one event.

    ``*``, empty or absent match everything. A matcher made only of letters, digits,
    ``_``, ``-``, spaces, ``,`` and ``|`` is an exact name or a list of exact names
    (``FileChanged``/``StopFailure``: letters, digits, ``_`` and ``|`` only); anything
    else is an unanchored regular expression. An invalid regex matches nothing.
    On tool events the tool's old names count too (``LEGACY_TOOL_NAMES``); on the model
    switch events a ``[1m]``/``[2m]`` tag after a model name is dropped first (2.1.328).
    """
    if matcher is None or matcher in ("", "*"):
        return True
    if value is None:
        return False
    if event in MODEL_EVENTS:  # a context-window tag such as [1m] is not matched on
        untagged = _MODEL_TAG.sub("", matcher)
        matcher = untagged if untagged.strip() else matcher
    if event in TOOL_EVENTS:
        names = (value, *_OLD_NAMES.get(value, ()))
        return any(_matches_one(event, matcher, name) for name in names)
    return _matches_one(event, matcher, value)


def union_matcher(event: str, matchers: list[Any]) -> str | None:
    """One matcher that matches whatever any of ``matchers`` matches (None: everything),
    for a relay entry standing for several groups: the agent then starts the relay only
    for the tools the adopted hooks are for. Exact name lists stay an exact list; with a
    regular expression among them, each part is a group of one unanchored alternation,
    which may match more than its parts (a longer tool name): hookd's own selection then
    runs nothing, never less. An invalid regular expression matches nothing here, as in
    the agent."""
    if event not in MATCHER_FIELD:
        return None
    parts: list[str] = []
    for matcher in matchers:
        if not isinstance(matcher, str) or matcher in ("", "*"):
            return None
        if not invalid_regex(matcher) and matcher not in parts:
            parts.append(matcher)
    if not parts:
        return None
    exact = _EXACT_NARROW if event in _NARROW_EVENTS else _EXACT
    if all(exact.match(part) for part in parts):
        names = [n.strip() for part in parts for n in re.split(r"[|,]", part) if n.strip()]
        return "|".join(dict.fromkeys(names))
    return "|".join(
        f"(?:{'|'.join(re.escape(n.strip()) for n in re.split(r'[|,]', part) if n.strip())})"
        if exact.match(part)
        else f"(?:{part})"
        for part in parts
    )


def _matches_one(event: str, matcher: str, value: str) -> bool:
    if event in _NARROW_EVENTS:
        if _EXACT_NARROW.match(matcher):
            return value in matcher.split("|")
    elif _EXACT.match(matcher):
        return value in {part.strip() for part in re.split(r"[|,]", matcher)}
    pattern = _compile(matcher)
    return pattern is not None and pattern.search(value) is not None


@lru_cache(maxsize=1024)
def _compile(matcher: str) -> re.Pattern[str] | None:
    try:
        return re.compile(matcher)
    except re.error:
        return None


def invalid_regex(matcher: str | None) -> bool:
    """True when ``matcher`` takes the regex path and does not compile."""
    if matcher is None or matcher in ("", "*") or _EXACT.match(matcher):
        return False
    return _compile(matcher) is None


DISCARDS_SYSTEM_MESSAGE = frozenset(
    {
        "InstructionsLoaded",
        "Notification",
        "WorktreeCreate",
        "WorktreeRemove",
        "PreCompact",
        "PostCompact",
        "SessionEnd",
        "MessageDisplay",
        "ConfigChange",
        "Elicitation",
        "ElicitationResult",
        "PermissionDenied",
    }
)
"""Events whose hooks' ``systemMessage`` Claude Code discards (each event's section;
PermissionDenied: "the only output this event reads is hookSpecificOutput.retry")."""

DISCARDS_CONTINUE = DISCARDS_SYSTEM_MESSAGE | {
    "CwdChanged",
    "FileChanged",
    "TaskCreated",
    "DirectoryAdded",
    "PermissionRequest",  # 2.1.328: the tool runs and the agent goes on
}
"""Events whose hooks' ``continue: false`` Claude Code discards or ignores."""

SPECIFIC_FIELDS: dict[str, dict[str, str]] = {
    "SessionStart": {
        "initialUserMessage": "join",
        "sessionTitle": "last",
        "watchPaths": "union",
        "reloadSkills": "any",
    },
    "PostToolUse": {
        "updatedToolOutput": "last",
        "updatedMCPToolOutput": "last",
        "classifierContext": "join",
    },
    "PermissionDenied": {"retry": "any"},
    "UserPromptSubmit": {"sessionTitle": "last", "suppressOriginalPrompt": "any"},
    "UserPromptExpansion": {"suppressOriginalPrompt": "any"},  # 2.1.328
    "CwdChanged": {"watchPaths": "union"},
    "FileChanged": {"watchPaths": "union"},
    "MessageDisplay": {"displayContent": "last"},
    "WorktreeCreate": {"worktreePath": "last"},
    "Elicitation": {"action": "strictest", "content": "with-action"},
    "ElicitationResult": {"action": "strictest", "content": "with-action"},
}
"""``hookSpecificOutput`` fields passed through to the agent, per event, and how the
values of several hooks merge: ``last`` in declaration order wins (a warning names the
others when they disagree), ``join`` with blank lines, ``union`` of lists in order,
``any`` true wins, ``strictest`` action (cancel > decline > accept) with the ``content``
of the hook whose action won."""

OUTPUT_TOP_LEVEL: dict[str, str] = {
    "continue": "boolean",
    "suppressOutput": "boolean",
    "stopReason": "string",
    "decision": "approve|block",
    "reason": "string",
    "systemMessage": "string",
    "terminalSequence": "string",
}
"""The top-level output fields and their types in 2.1.328's output schema (a value of
another type, or a ``decision`` other than approve/block, fails the whole output)."""

_CONTEXT = {"additionalContext": "string"}
OUTPUT_SPECIFIC: dict[str, dict[str, str]] = {
    "PreToolUse": {"permissionDecision": "allow|deny|ask|defer",
                   "permissionDecisionReason": "string", "updatedInput": "object", **_CONTEXT},
    "UserPromptSubmit": {**_CONTEXT, "sessionTitle": "string",
                         "suppressOriginalPrompt": "boolean"},
    "UserPromptExpansion": {**_CONTEXT, "suppressOriginalPrompt": "boolean"},
    "SessionStart": {**_CONTEXT, "initialUserMessage": "string", "sessionTitle": "string",
                     "watchPaths": "strings", "reloadSkills": "boolean"},
    "Setup": _CONTEXT,
    "PreModelSwitch": {"permissionDecision": "allow|deny|ask",
                       "permissionDecisionReason": "string"},
    "PostModelSwitch": _CONTEXT,
    "SubagentStart": _CONTEXT,
    "SubagentStop": _CONTEXT,
    "Stop": _CONTEXT,
    "Notification": _CONTEXT,
    "PostToolBatch": _CONTEXT,
    "PostToolUseFailure": _CONTEXT,
    "PostToolUse": {**_CONTEXT, "classifierContext": "string"},
    "PermissionDenied": {"retry": "boolean"},
    "PermissionRequest": {"decision": "permission-request"},
    "CwdChanged": {"watchPaths": "strings"},
    "FileChanged": {"watchPaths": "strings"},
    "MessageDisplay": {"displayContent": "string"},
    "WorktreeCreate": {"worktreePath": "string"},
    "Elicitation": {"action": "accept|decline|cancel", "content": "object"},
    "ElicitationResult": {"action": "accept|decline|cancel", "content": "object"},
}  # fmt: skip
"""``hookSpecificOutput``'s fields per event and their types in 2.1.328's output schema
(read from the agent; the tests/agents/claude cases pin it): a field of another type
makes the whole output no usable answer. Fields not listed are dropped by the agent."""

ELICITATION_RANK = {"accept": 0, "decline": 1, "cancel": 2}

ENV_FILE_EVENTS = frozenset({"SessionStart", "Setup", "CwdChanged", "FileChanged"})
"""Events whose hooks get ``CLAUDE_ENV_FILE``."""

CLIENT_HANDLER_TYPES = ("prompt", "agent", "mcp_tool")
"""Handler types that need a model or an MCP connection: the calling client runs them."""

PROMPT_EVENTS = frozenset(
    {
        "PermissionDenied",
        "PermissionRequest",
        "PostToolBatch",
        "PostToolUse",
        "PostToolUseFailure",
        "PreToolUse",
        "Stop",
        "SubagentStop",
        "TaskCompleted",
        "TaskCreated",
        "TeammateIdle",
        "UserPromptExpansion",
        "UserPromptSubmit",
    }
)
"""Events that support ``prompt`` and ``agent`` handlers ("Prompt-based hooks")."""

NO_HTTP_EVENTS = frozenset({"SessionStart", "Setup"})
"""Events that support only ``command`` and ``mcp_tool`` handlers."""

OUTPUT_CAP_CHARS = 10_000
"""additionalContext, systemMessage and plain stdout, each ("JSON output")."""

NO_VERDICT_REASON = "Auto mode could not evaluate this action and is blocking it for safety"
"""How a PermissionDenied ``reason`` starts when the classifier produced no verdict; then
``retry: true`` is ignored ("PermissionDenied decision control")."""
