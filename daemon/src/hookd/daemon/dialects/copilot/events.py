"""GitHub Copilot CLI's events (1.0.102, found by running it: ``copilot-research.md §2``,
``§3``).

Copilot reads two spellings of its events in one file format: camelCase keys
(``preToolUse``) get its own payload and answers; PascalCase keys (``PreToolUse``) get a
Claude-style snake_case payload and Claude-style matchers (``copilot-research.md §3.2``,
``§3.4``). Both are hookd events of the ``copilot`` dialect: a fire of a camelCase event
runs the hooks of both spellings (each given its own form of the payload, as the agent
does); a fire of a PascalCase event runs only the PascalCase hooks.
"""

from __future__ import annotations

CAMEL: tuple[str, ...] = (
    "sessionStart", "sessionEnd", "userPromptSubmitted", "userPromptTransformed",
    "preToolUse", "preMcpToolCall", "postToolUse", "postToolUseFailure", "errorOccurred",
    "agentStop", "subagentStop", "subagentStart", "preCompact", "permissionRequest",
    "notification",
)  # fmt: skip
"""The 15 camelCase keys of the agent's settings schema (``copilot-research.md §2``)."""

PASCAL: dict[str, str] = {
    "SessionStart": "sessionStart", "SessionEnd": "sessionEnd",
    "UserPromptSubmit": "userPromptSubmitted", "PreToolUse": "preToolUse",
    "PostToolUse": "postToolUse", "PostToolUseFailure": "postToolUseFailure",
    "Stop": "agentStop", "SubagentStart": "subagentStart", "SubagentStop": "subagentStop",
    "ErrorOccurred": "errorOccurred", "PreCompact": "preCompact",
    "PermissionRequest": "permissionRequest", "Notification": "notification",
}  # fmt: skip
"""The PascalCase keys that fire, and the agent event each is (``AgentStop`` and
``UserPromptTransformed`` never fire: ignored keys)."""
PASCAL_OF: dict[str, str] = {camel: pascal for pascal, camel in PASCAL.items()}

EVENTS: tuple[str, ...] = CAMEL + tuple(PASCAL)
AGENT_EVENT: dict[str, str] = {**{event: event for event in CAMEL}, **PASCAL}
"""Every key → the agent event it belongs to (its camelCase name)."""

TOOL_NAMES: dict[str, str] = {
    "bash": "Bash", "powershell": "Bash", "view": "Read", "create": "Write", "edit": "Edit",
    "glob": "Glob", "grep": "Grep", "task": "Agent", "web_fetch": "WebFetch",
    "ask_user": "AskUserQuestion", "update_todo": "TodoWrite",
}  # fmt: skip
"""A runtime tool name → the Claude name a PascalCase payload carries (others keep theirs)."""

TOOL_MATCHED = frozenset({"preToolUse", "postToolUse", "permissionRequest"})
"""Agent events whose matcher is tested against the tool's name (``postToolUseFailure``
ignores ``matcher``; ``copilot-research.md §3.4``)."""
AGENT_NAME_MATCHED = frozenset({"subagentStart"})
"""Agent events whose matcher is tested against ``agentName``."""

DEFAULT_TIMEOUT_S = 30.0

GUARD_EVENTS = frozenset(
    {"preToolUse", "PreToolUse", "permissionRequest", "PermissionRequest",
     "userPromptSubmitted", "UserPromptSubmit"}
)  # fmt: skip
"""Events whose hooks can keep an action from happening (a tool call, a prompt)."""

OUTPUT_IGNORED = frozenset({"sessionEnd", "errorOccurred", "preCompact", "notification"})
"""Agent events whose hooks' output Copilot does not read (``copilot-research.md §5.4``)."""
WARNS_ON_EXIT2 = frozenset(AGENT_EVENT.values()) - {"preToolUse", "permissionRequest",
                                                      "postToolUseFailure"}  # fmt: skip
"""Agent events where exit 2 with stderr shows the stderr as a warning (``§5.5``)."""
POLICY_FAILS_CLOSED = frozenset({"userPromptSubmitted", "agentStop", "postToolUse"})
"""Agent events where a failing policy hook blocks (``copilot-research.md §5.2``)."""
