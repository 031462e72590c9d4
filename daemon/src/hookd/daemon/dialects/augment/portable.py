"""auggie 0.36.0 and the portable hooks: its events and tools in the shared (Claude)
vocabulary, and a portable answer written as an auggie hook's JSON, which is Claude's
hook JSON (auggie copied Claude's contract: ``claude_answer`` is reused, not copied).

Sources: ``augment-hooks.md`` (events, the tool names of §PreToolUse, ``tool_input``
examples: ``launch-process {command}``, ``str-replace-editor {path, old_str_1,
new_str_1}``, ``view {path}``), ``docs/sources/notes/real-agents.md`` (auggie applies
``updatedInput``) and the real-agent cases (tests/agents/augment/cases.py: what auggie
acts on per event). The real-agent matrix (tests/agents/portable/test_portable_augment.py)
confirms ``save-file {path, file_content}`` and found that 0.36.0's own schema, which the
model follows, nests an edit as ``str_replace_entries: [{old_str, new_str, ...}]``: read
here too. ``web-fetch {url}`` and ``web-search {query}`` are not in the documents'
examples nor in a real payload yet. An MCP tool's name (``search_example-server``) does
not say its server reliably, so it keeps its name (a ``mcp__...`` matcher does not see it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ...model import Dialect, FireRequest
from ..claude.portable import claude_answer
from ..portable import (
    AgentAnswer,
    AnswerField,
    PortableAnswer,
    agent_input,
    as_feedback,
    lost_fields,
    plain_spec,
    renamed_tool,
    shared_input,
)
from . import dialect as augment

DIALECT = Dialect.AUGMENT

EVENTS: Mapping[str, str] = {
    "PreToolUse": "PreToolUse",
    "PostToolUse": "PostToolUse",
    "PromptSubmit": "UserPromptSubmit",
    "Stop": "Stop",
    "SessionStart": "SessionStart",
    "SessionEnd": "SessionEnd",
    "Notification": "Notification",  # accepted, never fired by 0.36.0 (cases.py)
}

TOOLS: Mapping[str, str] = {
    "launch-process": "Bash",
    "view": "Read",
    "save-file": "Write",
    "str-replace-editor": "Edit",
    "web-fetch": "WebFetch",
    "web-search": "WebSearch",
}
"""``remove-files``, ``codebase-retrieval`` and the integrations have no shared equivalent."""

TOOL_KEYS: Mapping[str, Mapping[str, str]] = {
    "view": {"path": "file_path"},
    "save-file": {"path": "file_path", "file_content": "content"},
    "str-replace-editor": {
        "path": "file_path", "old_str_1": "old_string", "new_str_1": "new_string",
    },
}  # fmt: skip

_USER: frozenset[AnswerField] = frozenset({"systemMessage"})
CARRIES: Mapping[str, frozenset[AnswerField]] = {
    # deny and its reason, updatedInput applied; continue:false blocks the tool (not the
    # agent); additionalContext on an allowed call reaches nobody (pre-context-dropped)
    "PreToolUse": _USER | {"block", "reason", "updatedInput", "stop"},
    # additionalContext and a block's reason are appended to the tool result (post-*)
    "PostToolUse": _USER | {"block", "reason", "context"},
    "UserPromptSubmit": _USER,  # prompt-submit-cannot-block, prompt-submit-output
    "Stop": _USER,  # stop-block-ignored
    "SessionStart": _USER,  # session-start-context-dropped
    "SessionEnd": _USER,
    "Notification": _USER,
}
_BY_OWN_EVENT = {own: CARRIES[shared] for own, shared in EVENTS.items()}

agent_spec = plain_spec


def runs_portable(request: FireRequest) -> bool:
    """A direct fire runs the portable hooks; a relay fire only from the relay group of
    matcher ``.*`` (auggie runs one relay group per matcher that matches, and the same
    group in several settings files once), or from an entry that names no matcher (the
    other events' relay groups: auggie drops their matcher)."""
    return not request.relay or request.relay_entry in (None, ".*")


def shared_payload(request: FireRequest, event: str) -> dict[str, Any]:
    """auggie's payload in Claude's names, without the private fields a hook only gets
    when its group opts in (``metadata``): a portable hook has no such group."""
    payload = {
        key: value for key, value in request.payload.items()
        if key not in augment.METADATA_FIELDS and key != "hook_event_name"
    }  # fmt: skip
    if event != "UserPromptSubmit":
        payload.pop("user_prompt", None)
    roots = payload.get("workspace_roots")
    listed = [r for r in roots if isinstance(r, str)] if isinstance(roots, list) else []
    cwd = (listed or list(request.roots) or [""])[0]
    if cwd:
        payload.setdefault("cwd", cwd)
    if isinstance(payload.get("conversation_id"), str):
        payload["session_id"] = payload["conversation_id"]
    if "tool_name" in payload:
        own = payload["tool_name"]
        payload["hookd_agent_tool"] = own
        payload["tool_name"] = renamed_tool(TOOLS, own)
        keys = TOOL_KEYS.get(own, {}) if isinstance(own, str) else {}
        payload["tool_input"] = shared_input(keys, payload.get("tool_input"), cwd or None)
        if own == "str-replace-editor":
            payload["tool_input"] = {**_first_entry(payload["tool_input"]), **payload["tool_input"]}
    if event == "PostToolUse":
        payload["tool_response"] = payload.get("tool_output", payload.get("tool_error"))
    elif event == "UserPromptSubmit":
        payload["prompt"] = payload.get("user_prompt", "")
    elif event == "Stop":
        payload["stop_hook_active"] = False
    return payload


def agent_answer(request: FireRequest, answer: PortableAnswer) -> AgentAnswer:
    """Claude's hook JSON for auggie's event name, after two translations: a rewrite in
    the auggie tool's own input keys, and a PostToolUse block as the context auggie
    appends to the tool result (its ``decision: block`` is read inside
    ``hookSpecificOutput``, where Claude reads it at the top)."""
    if answer.has_updated_input:
        own = request.payload.get("tool_name")
        keys = TOOL_KEYS.get(own, {}) if isinstance(own, str) else {}
        original = request.payload.get("tool_input")
        updated = agent_input(keys, answer.updated_input, original)
        if own == "str-replace-editor":
            updated = _into_entry(updated, original)
        answer = replace(answer, updated_input=updated)
    lost = lost_fields(answer, _BY_OWN_EVENT, request.event)
    if request.event == "PostToolUse":
        answer = as_feedback(answer)
    written = claude_answer(request.event, answer, _BY_OWN_EVENT)
    return replace(written, lost=lost)


ENTRY_KEYS: Mapping[str, str] = {"old_str": "old_string", "new_str": "new_string"}
"""The first of ``str_replace_entries`` (auggie 0.36.0's schema) in the shared keys."""
FLAT_KEYS: Mapping[str, str] = {"old_str_1": "old_str", "new_str_1": "new_str"}
"""The documents' flat keys -> the entry's."""


def _first_entry(tool_input: Mapping[str, Any]) -> dict[str, Any]:
    """``old_string``/``new_string`` of a ``str_replace_entries`` edit's first entry."""
    entries = tool_input.get("str_replace_entries")
    first = entries[0] if isinstance(entries, list) and entries else None
    if not isinstance(first, Mapping):
        return {}
    return {shared: first[own] for own, shared in ENTRY_KEYS.items() if own in first}


def _into_entry(updated: object, original: object) -> object:
    """A rewrite of an edit that came as ``str_replace_entries`` (no flat keys): its
    ``old_str_1``/``new_str_1`` (``agent_input``'s) go back into the first entry."""
    if not isinstance(updated, dict) or not isinstance(original, Mapping):
        return updated
    entries = original.get("str_replace_entries")
    if not isinstance(entries, list) or not entries or any(k in original for k in FLAT_KEYS):
        return updated
    first = dict(entries[0]) if isinstance(entries[0], Mapping) else {}
    for flat, own in FLAT_KEYS.items():
        if flat in updated:
            first[own] = updated.pop(flat)
    return {**updated, "str_replace_entries": [first, *entries[1:]]}
