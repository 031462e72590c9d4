"""Cline 2.18.0 (the original runner) and the portable hooks: its events and tools in the
shared (Claude) vocabulary, and a portable answer written as a Cline hook's
``{cancel, contextModification, errorMessage}``.

Sources: ``docs/sources/notes/cline-implementation.md`` (§3A the payload, §4 the output,
§6 what Cline does with each event's answer) and ``cline-hooks.md`` (the tool
parameters: ``preToolUse.parameters`` is a map of strings, ``path`` relative to the
workspace root). The tool names are the ones the real-agent suite scripts
(``execute_command``) and the conformance cases and documents use (``write_to_file``,
``read_file``); the parameter keys of ``replace_in_file`` (``path``, ``diff``),
``search_files`` (``path``, ``regex``, ``file_pattern``) and ``web_fetch`` (``url``) are
Cline's tool format, not yet seen in a real payload (phase B's matrix checks them).

The Cline SDK runner (``cline_sdk.portable``) reads the same answer fields and sends the
same prompt block: it imports what the two share from here.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from typing import Any

from ...model import Dialect, FireRequest
from ..portable import (
    AgentAnswer,
    AnswerField,
    PortableAnswer,
    as_feedback,
    lost_fields,
    plain_spec,
    renamed_tool,
    shared_input,
)

DIALECT = Dialect.CLINE

EVENTS: Mapping[str, str] = {
    "PreToolUse": "PreToolUse",
    "PostToolUse": "PostToolUse",
    "UserPromptSubmit": "UserPromptSubmit",
    "TaskStart": "SessionStart",
    "TaskResume": "SessionStart",
    "TaskComplete": "Stop",
    "TaskCancel": "SessionEnd",
    "PreCompact": "PreCompact",
    "Notification": "Notification",
}
"""Every Cline event has a shared one: a task is Claude's session (TaskResume is a
SessionStart with ``source: resume``), TaskComplete its Stop, TaskCancel its end."""

TOOLS: Mapping[str, str] = {
    "execute_command": "Bash",
    "read_file": "Read",
    "write_to_file": "Write",
    "replace_in_file": "Edit",
    "search_files": "Grep",
    "web_fetch": "WebFetch",
}
"""``list_files``, ``list_code_definition_names``, ``browser_action``, ``new_task``... have
no shared equivalent and keep their names; ``use_mcp_tool`` becomes ``mcp__server__tool``."""

TOOL_KEYS: Mapping[str, Mapping[str, str]] = {
    "write_to_file": {"path": "file_path"},
    "read_file": {"path": "file_path"},
    "replace_in_file": {"path": "file_path"},
    "search_files": {"regex": "pattern", "file_pattern": "glob"},
}
"""Parameter keys renamed to Claude's (``command``, ``content``, ``url`` are already);
``replace_in_file``'s SEARCH/REPLACE ``diff`` stays as it is (no ``old_string``)."""

_TASK: frozenset[AnswerField] = frozenset({"block", "reason", "context", "stop"})
CARRIES: Mapping[str, frozenset[AnswerField]] = {
    "PreToolUse": _TASK,  # §6: cancel ends the task; context reaches the next request
    "PostToolUse": _TASK,  # a block is feedback, as in Claude: its reason is context
    "UserPromptSubmit": _TASK,  # §6: <hook_context source="UserPromptSubmit">
    "SessionStart": frozenset({"context", "stop"}),  # §6: TaskStart/TaskResume context
    "PreCompact": frozenset({"block", "reason", "stop"}),  # §6: its context is only logged
    "Stop": frozenset(),  # TaskComplete: not cancellable, answer ignored (§6)
    "SessionEnd": frozenset(),  # TaskCancel: not cancellable, answer ignored (§6)
    "Notification": frozenset(),  # answer ignored with a warning (§6)
}
"""No ``updatedInput`` anywhere ("The hook cannot modify those parameters",
``cline-hooks.md``), no ``systemMessage`` (no channel to the user alone). A Claude
``continue: false`` is Cline's ``cancel``, which ends the whole task."""

agent_spec = plain_spec

GLOBAL_FOLDER = re.compile(r"(?:^|[/\\])cline[/\\]hooks$", re.IGNORECASE)
"""Cline's own test for a global hook folder (``determineHookCwd``: ``/cline/hooks/i``):
``<Documents>/Cline/Hooks``, which both runners read."""


def runs_portable(request: FireRequest) -> bool:
    """A direct fire runs the portable hooks; a relay fire only from the relay file in the
    global ``Cline/Hooks`` folder: Cline runs one relay file per hook folder (global,
    each root's ``.clinerules/hooks``, ``--hooks-dir``), and the portable hooks must run
    once per event. A relay file that does not name itself (no entry) cannot be told
    apart: it runs them."""
    if not request.relay or request.relay_entry is None:
        return True
    folder = os.path.normpath(request.relay_entry)
    if GLOBAL_FOLDER.search(folder) is None:
        folder = os.path.dirname(folder)  # the entry named as the relay file itself
    return GLOBAL_FOLDER.search(folder) is not None


def shared_payload(request: FireRequest, event: str) -> dict[str, Any]:
    """Claude's payload from Cline's (§3A): the task is the session, the first workspace
    root the cwd; a tool event's ``preToolUse``/``postToolUse`` block becomes
    ``tool_name``/``tool_input`` (``tool_response`` after it)."""
    payload = task_payload(request, event)
    block = request.payload.get("preToolUse" if event == "PreToolUse" else "postToolUse")
    if event in ("PreToolUse", "PostToolUse") and isinstance(block, dict):
        name = block.get("toolName")
        params = block.get("parameters")
        payload.update(tool_fields(name, params if isinstance(params, dict) else {},
                                   payload.get("cwd")))  # fmt: skip
        if event == "PostToolUse":
            payload["tool_response"] = {
                "result": block.get("result", ""), "success": block.get("success", False),
            }  # fmt: skip
    return payload


def tool_fields(name: object, params: Mapping[str, Any], root: str | None) -> dict[str, Any]:
    """``tool_name``, ``tool_input`` and ``hookd_agent_tool`` of one of Cline's tool calls."""
    own = name if isinstance(name, str) else ""
    fields: dict[str, Any] = {"hookd_agent_tool": own}
    if own == "use_mcp_tool":
        arguments = params.get("arguments")
        try:
            parsed = json.loads(arguments) if isinstance(arguments, str) else arguments
        except ValueError:
            parsed = {"arguments": arguments}
        fields["tool_name"] = f"mcp__{params.get('server_name', '')}__{params.get('tool_name', '')}"
        fields["tool_input"] = parsed if isinstance(parsed, dict) else {"arguments": parsed}
        return fields
    fields["tool_name"] = renamed_tool(TOOLS, own)
    fields["tool_input"] = shared_input(TOOL_KEYS.get(own, {}), params, root)
    return fields


def task_payload(request: FireRequest, event: str) -> dict[str, Any]:
    """What both Cline runners' payloads give every shared event: ``session_id`` (the
    task), ``cwd`` (the first workspace root), and the event's own Claude fields from
    the blocks both send (``userPromptSubmit``, ``taskComplete``...)."""
    payload: dict[str, Any] = {}
    task = request.payload.get("taskId")
    if isinstance(task, str):
        payload["session_id"] = task
    roots = request.payload.get("workspaceRoots")
    listed = [r for r in roots if isinstance(r, str)] if isinstance(roots, list) else []
    cwd = (listed or list(request.roots) or [""])[0]
    if cwd:
        payload["cwd"] = cwd
    if event == "UserPromptSubmit":
        payload["prompt"] = _field(request.payload, "userPromptSubmit", "prompt")
    elif event == "SessionStart":
        payload["source"] = "resume" if request.event == "TaskResume" else "startup"
    elif event == "Stop":
        payload["stop_hook_active"] = False
        result = _field(request.payload, "taskComplete", "taskMetadata")
        if isinstance(result, dict) and isinstance(result.get("result"), str):
            payload["last_assistant_message"] = result["result"]
    elif event == "SessionEnd":
        payload["reason"] = "other"
    elif event == "PreCompact":
        payload["trigger"] = "auto"
    elif event == "Notification":
        message = _field(request.payload, "notification", "message")
        payload["message"] = message if isinstance(message, str) else ""
    return payload


def _field(payload: Mapping[str, Any], block: str, key: str) -> Any:
    found = payload.get(block)
    return found.get(key, "") if isinstance(found, dict) else ""


def agent_answer(request: FireRequest, answer: PortableAnswer) -> AgentAnswer:
    event = EVENTS.get(request.event, "")
    return cline_answer(event, answer, CARRIES, {})


def cline_answer(
    event: str,
    answer: PortableAnswer,
    carries: Mapping[str, frozenset[AnswerField]],
    more: Mapping[str, Any],
) -> AgentAnswer:
    """``answer`` as a Cline hook's JSON (both runners read ``cancel``,
    ``contextModification`` and ``errorMessage``), plus ``more`` fields: a deny, an ask
    or a stop is ``cancel`` with its reason; a PostToolUse block, Claude's feedback to the
    model, is context. A failure is exit 1 with its text, which Cline counts as its own
    hooks' failures."""
    lost = lost_fields(answer, carries, event)
    if answer.error and not answer.asks():
        return AgentAnswer(1, "", answer.error + "\n", lost)
    if event == "PostToolUse":
        answer = as_feedback(answer)
    out: dict[str, Any] = {}
    blocks = (answer.blocks or answer.decision in ("deny", "ask")) and "block" not in lost
    stops = not answer.continue_ and "stop" not in lost
    if blocks or stops:
        out["cancel"] = True
        message = answer.reason if blocks else answer.stop_reason
        if message and ("reason" not in lost or not blocks):
            out["errorMessage"] = message
    if answer.context and "context" not in lost:
        out["contextModification"] = answer.context
    out.update(more)
    return AgentAnswer(0, json.dumps(out) if out else "", "", lost)
