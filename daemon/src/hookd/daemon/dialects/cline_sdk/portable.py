"""The Cline SDK runner (cline 3.0.65) and the portable hooks: its events and tools in the
shared (Claude) vocabulary, a portable answer written as an SDK file hook's control
(``cline-implementation.md`` §1B the events, §3B the payload, §4 the output, §5 what
the runtime does with it).

What both Cline runners share (the task as the session, the answer's ``cancel``,
``contextModification`` and ``errorMessage``, which relay entry runs the portable hooks)
is imported from ``cline.portable``; the SDK adds its tools and ``overrideInput``.

The tools and their input keys are those of the SDK's tool schemas
(``sdk/packages/core/src/tools/schemas.ts`` in the cline/cline repository; not pinned to
3.0.65): ``run_commands {commands}`` is what the real-agent suite drives
(tests/agents/cline_sdk); ``read_files {files: [{path}]}``, ``editor {path, old_text,
new_text}``, ``fetch_web_content {requests: [{url, prompt}]}`` and ``search_codebase
{queries}`` are not yet seen in a real payload (the SDK's own hook examples read a
``filePath``, which is accepted too; phase B's matrix checks them). ``apply_patch`` has
no shared equivalent and keeps its name (a Write/Edit guard does not see it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...model import Dialect, FireRequest
from ..cline import portable as cline
from ..portable import (
    AgentAnswer,
    AnswerField,
    PortableAnswer,
    agent_input,
    lost_fields,
    plain_spec,
    renamed_tool,
    shared_input,
)
from . import dialect as sdk

DIALECT = Dialect.CLINE_SDK

EVENTS: Mapping[str, str] = {
    **{event: shared for event, shared in cline.EVENTS.items()
       if event in sdk.EVENTS and event not in ("TaskCancel", "PreCompact")},
    "SessionShutdown": "SessionEnd",
}  # fmt: skip
"""By the file hooks' names (hookd's canonical events), as the original runner's; but
TaskCancel (``agent_abort``) is always followed by ``session_shutdown`` (§3B), the
session's one end, and PreCompact is never run for file hooks (§1B). TaskError has no
shared event."""

TOOLS: Mapping[str, str] = {
    "run_commands": "Bash",
    "read_files": "Read",
    "editor": "Edit",
    "fetch_web_content": "WebFetch",
    "search_codebase": "Grep",
}

EDITOR_KEYS: Mapping[str, str] = {
    "path": "file_path", "filePath": "file_path", "old_text": "old_string",
    "new_text": "new_string",
}  # fmt: skip

_TOOL: frozenset[AnswerField] = frozenset({"block", "reason", "context", "stop"})
CARRIES: Mapping[str, frozenset[AnswerField]] = {
    "PreToolUse": _TOOL | {"updatedInput"},  # §4 overrideInput; §5 a cancel ends the run
    "PostToolUse": _TOOL,  # a block is feedback, as in Claude: its reason is context
    "UserPromptSubmit": frozenset(),  # §2C: lifecycle hooks run detached, output ignored
    "SessionStart": frozenset(),
    "Stop": frozenset(),
    "SessionEnd": frozenset(),
}

agent_spec = plain_spec
runs_portable = cline.runs_portable  # the global Cline/Hooks relay file, as the original runner


def shared_payload(request: FireRequest, event: str) -> dict[str, Any]:
    """Claude's payload from the SDK's: ``tool_call {name, input}`` (``tool_result {name,
    input, output, error}`` after the tool) becomes ``tool_name``/``tool_input``
    (``tool_response``); the rest as the original runner's (``task_payload``)."""
    payload = cline.task_payload(request, event)
    call = request.payload.get("tool_call" if event == "PreToolUse" else "tool_result")
    if event in ("PreToolUse", "PostToolUse") and isinstance(call, dict):
        name = call.get("name")
        own = name if isinstance(name, str) else ""
        payload["hookd_agent_tool"] = own
        payload["tool_name"] = renamed_tool(TOOLS, own)
        payload["tool_input"] = tool_input(own, call.get("input"), payload.get("cwd"))
        if event == "PostToolUse":
            payload["tool_response"] = {"output": call.get("output"), "error": call.get("error")}
    return payload


def tool_input(name: str, raw: object, root: str | None) -> dict[str, Any]:
    """One SDK tool's input in the shared shape (the SDK's own keys are kept beside)."""
    given = raw if isinstance(raw, dict) else {}
    if name == "run_commands":
        commands = _strings(given.get("commands") if isinstance(raw, dict) else raw)
        return {**given, "command": "\n".join(commands), "commands": commands}
    if name == "read_files":
        paths = _paths(raw)
        first = shared_input({}, {"file_path": paths[0]}, root) if paths else {}
        return {**given, **first}
    if name == "editor":
        return shared_input(EDITOR_KEYS, raw, root)
    if name == "fetch_web_content":
        requests = given.get("requests")
        first = requests[0] if isinstance(requests, list) and requests else {}
        return {**given, **(first if isinstance(first, dict) else {})}
    if name == "search_codebase":
        return {**given, "pattern": "|".join(_strings(given.get("queries", raw)))}
    return dict(given)


def _strings(value: object) -> list[str]:
    """A string or a list of strings (the SDK's union schemas accept either)."""
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _paths(raw: object) -> list[str]:
    """The paths of a ``read_files`` input, in any of the shapes its schema accepts."""
    if isinstance(raw, dict):
        if "files" in raw:
            return _paths(raw["files"])
        if "file_paths" in raw:
            return _strings(raw["file_paths"])
        path = raw.get("path", raw.get("filePath"))
        return [path] if isinstance(path, str) else []
    if isinstance(raw, list):
        return [p for item in raw for p in _paths(item)]
    return _strings(raw)


def agent_answer(request: FireRequest, answer: PortableAnswer) -> AgentAnswer:
    """A file hook's control JSON (the SDK reads the original runner's fields, §4), with
    a rewrite as ``overrideInput`` in the SDK tool's own input."""
    event = EVENTS.get(request.event, "")
    more: dict[str, Any] = {}
    if answer.has_updated_input and "updatedInput" not in lost_fields(answer, CARRIES, event):
        call = request.payload.get("tool_call")
        call = call if isinstance(call, dict) else {}
        name = call.get("name")
        more["overrideInput"] = own_input(name if isinstance(name, str) else "",
                                          answer.updated_input, call.get("input"))  # fmt: skip
    return cline.cline_answer(event, answer, CARRIES, more)


def own_input(name: str, updated: object, original: object) -> object:
    """A rewritten shared input as the SDK tool's input (``tool_input`` reversed)."""
    if not isinstance(updated, dict):
        return updated
    if name == "run_commands" and isinstance(updated.get("command"), str):
        return {"commands": [updated["command"]]}
    if name == "read_files" and isinstance(updated.get("file_path"), str):
        return {"files": [{"path": updated["file_path"]}]}
    if name == "editor":
        keys = {own: shared for own, shared in EDITOR_KEYS.items() if own != "filePath"}
        return agent_input(keys, updated, original)
    return updated
