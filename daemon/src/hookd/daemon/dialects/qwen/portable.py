"""Qwen Code 0.24.4 and the portable hooks: Qwen kept Claude Code's event names, payload
envelope and reading of a hook's JSON (``qwen-research.md`` §3, §5.1, §9), so a portable
hook's payload is ``claude_payload``'s and its answer ``claude_answer``'s; what differs is
what Qwen acts on, event by event (``CARRIES``).

Its tools are Gemini CLI's ids (``run_shell_command``, ``read_file``, ``write_file`` ...)
but ``edit`` for Gemini's ``replace``, and their shared names are Qwen's own Claude
aliases (``events.TOOL_ALIASES``, §2.1). Input keys seen from the real agent:
``run_shell_command`` ``{command, description}`` and ``read_file`` ``{file_path}`` (§3.1),
``write_file`` ``{file_path, content}`` (``tests/agents/qwen``, ``match-write-alias``),
``edit`` ``{file_path, old_string, new_string}`` (``tests/agents/portable``, the matrix).
Not confirmed: ``glob``, ``grep_search``, ``web_fetch`` and ``agent``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...model import Dialect, FireRequest
from ..claude.portable import claude_answer, claude_payload
from ..portable import (
    SHARED_EVENTS,
    SHARED_TOOLS,
    AgentAnswer,
    AnswerField,
    PortableAnswer,
    every_fire,
    plain_spec,
)
from . import events

DIALECT = Dialect.QWEN

EVENTS: Mapping[str, str] = {e: e for e in SHARED_EVENTS if e in events.EVENTS}
"""Claude's events keep their names in Qwen (§3); its thirteen others (PostToolBatch,
UserPromptExpansion, PermissionDenied, the todo events ...) have no shared equivalent."""

TOOLS: Mapping[str, str] = {
    tool: alias
    for tool, aliases in events.TOOL_ALIASES.items()
    for alias in aliases
    if alias in SHARED_TOOLS
}
"""Each tool by the alias of Claude's that Qwen's matchers give it (``agent`` is ``Task``)."""

CARRIES: Mapping[str, frozenset[AnswerField]] = {
    # updatedInput and additionalContext ignored; systemMessage only in the debug log;
    # continue:false keeps the tool from running, the turn goes on (§5.2)
    "PreToolUse": frozenset({"block", "reason", "stop"}),
    "PermissionRequest": frozenset({"block", "reason", "updatedInput"}),  # §5.9
    "PostToolUse": frozenset({"context", "stop"}),  # decision:block ignored (§5.3)
    "PostToolUseFailure": frozenset({"context"}),  # §5.4
    "UserPromptSubmit": frozenset({"block", "context", "stop"}),  # the reason shown nowhere (§5.6)
    "Stop": frozenset({"block", "reason"}),  # continue:false continues (§5.7)
    "SubagentStop": frozenset({"block", "reason"}),  # as Stop (§5.9, code only)
    "SessionStart": frozenset({"context"}),  # §5.8
    "SubagentStart": frozenset({"context"}),  # §5.9, its effect unverified
    "Notification": frozenset(),  # §5.9: its context goes to the UI only
    "PreCompact": frozenset(),  # §5.9: output ignored
    "SessionEnd": frozenset(),
}

runs_portable = every_fire  # one relay entry per event (``integration.no_entry``)
agent_spec = plain_spec


def shared_payload(request: FireRequest, event: str) -> dict[str, Any]:
    """Qwen's payload has Claude's fields (``last_assistant_message`` and
    ``stop_hook_active`` on Stop too): only the tool is renamed."""
    return claude_payload(request, TOOLS)


def agent_answer(request: FireRequest, answer: PortableAnswer) -> AgentAnswer:
    """A Claude hook's JSON, which Qwen reads as Claude does (on exit 1 a failure's text
    becomes Qwen's ``Warning:`` message)."""
    return claude_answer(request.event, answer, CARRIES)
