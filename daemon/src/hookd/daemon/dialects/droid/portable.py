"""Factory Droid 0.225.2 and the portable hooks: Droid kept Claude Code's event names,
payload envelope and answer fields (``droid-research.md`` §3, §5.0), so a portable hook's
payload is ``claude_payload``'s and its answer ``claude_answer``'s. What differs, and is
written here: its tool names and Edit's input keys (``old_str``, ``new_str``); a block,
which is also said as exit code 2 with the reason on stderr (Droid reads the JSON on
every exit code): Droid ignores ``decision: "block"`` on PostToolUse and UserPromptSubmit
(§5.2, §5.4), and on PreToolUse it takes the first hook's ``permissionDecision``, so that
a deny written as JSON alone would lose to another hook's earlier allow, where exit 2
blocks whatever the others said (§5.1: a deny wins, as in Claude Code); and what it acts
on, event by event (``CARRIES``).

Tools and inputs seen from the real agent (§3.2): ``Execute`` ``{command, riskLevel,
riskLevelReason}``, ``Create`` ``{file_path, content}``, ``Edit`` ``{file_path, old_str,
new_str}``, ``Read`` ``{file_path}``, ``Grep`` ``{pattern, path}``, ``Glob`` ``{patterns,
folder}`` (given as Droid sends it: a list is no Claude ``pattern``). ``FetchUrl`` and
``WebSearch`` are named by Droid's documentation only; their inputs are not confirmed.

Once per event (``runs_portable``): Droid runs the relay entry of both ``.factory``
folders (the project's and the user's) when its matcher applies, and ``hookd relay
install`` writes the entries for the user's portable file into ``~/.factory`` and those
for a project's into the project's. A fire runs the portable hooks of both files (hookd
selects them by their own matchers) from the user's entry; from the project's only when
no relay entry of ``~/.factory`` runs for this event and tool.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ...model import Dialect, FireRequest
from ..claude.portable import claude_answer, claude_payload
from ..portable import (
    SHARED_EVENTS,
    AgentAnswer,
    AnswerField,
    PortableAnswer,
    plain_spec,
)
from . import events
from .dialect import relay_entry_runs

DIALECT = Dialect.DROID

EVENTS: Mapping[str, str] = {e: e for e in SHARED_EVENTS if e in events.EVENTS}
"""Droid's nine events are Claude's, by the same names (§3)."""

TOOLS: Mapping[str, str] = {
    "Execute": "Bash",
    "Read": "Read",
    "Create": "Write",
    "Edit": "Edit",
    "Glob": "Glob",
    "Grep": "Grep",
    "FetchUrl": "WebFetch",
    "WebSearch": "WebSearch",
}

INPUT_KEYS: Mapping[str, Mapping[str, str]] = {
    "Edit": {"old_str": "old_string", "new_str": "new_string"}
}
"""Droid's input keys by Claude's name, per tool, where they differ (§3.2)."""

CARRIES: Mapping[str, frozenset[AnswerField]] = {
    # additionalContext and systemMessage ignored; continue:false ends the turn (§5.1)
    "PreToolUse": frozenset({"block", "reason", "updatedInput", "stop"}),
    "PostToolUse": frozenset({"block", "reason", "context", "stop"}),  # §5.2
    "UserPromptSubmit": frozenset({"block", "reason", "context", "stop"}),  # §5.4
    "Stop": frozenset({"block", "reason"}),  # the turn ends anyway (§5.3)
    "SessionStart": frozenset({"context"}),  # §5.5
    "PreCompact": frozenset({"block"}),  # exit 2 skips the compaction (§5.6, code only)
    "SubagentStop": frozenset(),  # §5.6: results not read
    "Notification": frozenset(),
    "SessionEnd": frozenset(),
}

agent_spec = plain_spec


def runs_portable(request: FireRequest) -> bool:
    """A direct fire, the user's relay entry, an entry that names no folder: yes; the
    project's entry only when no relay entry of ``~/.factory`` runs for this fire (the
    module docstring)."""
    if not request.relay or request.relay_entry is None:
        return True
    home = request.env.get("HOME", "")
    if not os.path.isabs(home):
        return True
    user = os.path.join(os.path.normpath(home), ".factory")
    return os.path.normpath(request.relay_entry) == user or not relay_entry_runs(user, request)


def shared_payload(request: FireRequest, event: str) -> dict[str, Any]:
    """Droid's payload in Claude's names: the tool, and its input keys (``INPUT_KEYS``)."""
    payload = claude_payload(request, TOOLS)
    keys = INPUT_KEYS.get(payload.get("hookd_agent_tool", ""))
    tool_input = payload.get("tool_input")
    if keys and isinstance(tool_input, Mapping):
        payload["tool_input"] = {keys.get(k, k): v for k, v in tool_input.items()}
    return payload


def agent_answer(request: FireRequest, answer: PortableAnswer) -> AgentAnswer:
    """Claude's JSON (Droid reads it on every exit code), the rewrite in Droid's input
    keys, and a block said as exit 2 with the reason on stderr too."""
    tool = request.payload.get("tool_name")
    keys = INPUT_KEYS.get(tool, {}) if isinstance(tool, str) else {}
    if keys and answer.has_updated_input and isinstance(answer.updated_input, Mapping):
        droid_keys = {shared: own for own, shared in keys.items()}
        rewrite = {droid_keys.get(k, k): v for k, v in answer.updated_input.items()}
        answer = replace(answer, updated_input=rewrite)
    said = claude_answer(request.event, answer, CARRIES)
    if "block" not in answer.asks() or "block" in said.lost:
        return said
    return replace(said, exit_code=2, stderr=answer.reason or "")
