"""GitHub Copilot CLI 1.0.102 and the portable hooks: its events (both spellings) and
tools in the shared (Claude) vocabulary, and a portable answer written as a Copilot
hook's flat JSON (``copilot-research.md`` §3, §5).

The payload a portable hook reads is Claude's: the snake_case fields Copilot itself gives
its PascalCase keys (§3.2), made from the camelCase payload where the fire is of a
camelCase key, with the tool renamed (§3.4) and its arguments renamed to Claude's
(``view {path}`` → ``Read {file_path}``, ``create {path, file_text}`` → ``Write
{file_path, content}``, ``edit {path, old_str, new_str}`` → ``Edit {file_path,
old_string, new_string}``); a rewrite is renamed back, as ``modifiedArgs``. The argument
names are the tool schemas the agent offers its model (§6); that ``toolArgs`` carries
them as they are is seen for ``bash`` (§3.1) and, in the real-agent matrix
(``tests/agents/portable/test_portable_copilot.py``), for ``create`` and ``edit``;
``view`` is inferred, ``grep``/``glob``/``web_fetch``/``powershell`` not confirmed (kept
as they are). ``toolArgs`` given as JSON text (Copilot's documents
say so; 1.0.102 sends an object) is read as the object it holds.

Once per agent event: Copilot runs every relay entry of every hook file (§1.1: nothing is
merged), so in a relay fire the portable hooks run only in the first entry Copilot runs
for the event (the user's folder before the project's, each folder in its file order, a
file's camelCase key before its PascalCase one: §1.1; of those, the first whose matcher
matches the tool, since Copilot runs no other), never again in the others.
``hookd relay install`` puts the portable hooks' tools into the matcher of the first entry
of each event (``integration._add_entries``), so the first entry that runs is that one
wherever a scope relays alone; with both scopes relayed, a tool only the project's
portable hooks name runs them in the project's entry.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Mapping
from typing import Any

from ...model import Dialect, FireRequest, Source
from ..portable import (
    SHARED_EVENTS,
    AgentAnswer,
    AnswerField,
    PortableAnswer,
    lost_fields,
    plain_spec,
    renamed_tool,
)
from ..relay_entries import is_relay_command
from . import config, payload
from .dialect import matches
from .events import AGENT_EVENT, PASCAL, PASCAL_OF, TOOL_NAMES
from .output import NO_REASON

DIALECT = Dialect.COPILOT

EVENTS: Mapping[str, str] = {
    key: pascal
    for pascal, camel in PASCAL.items()
    if pascal in SHARED_EVENTS
    for key in (camel, pascal)
}
"""Both spellings of each event (§2, §3.2: a relay entry may stand for either key); the
PascalCase keys are Claude's event names already. ``userPromptTransformed``,
``errorOccurred``/``ErrorOccurred`` have no shared equivalent; ``preMcpToolCall`` is
unverified (§9)."""

SPELLINGS: Mapping[str, str] = AGENT_EVENT
"""Each key → its agent event (camelCase): a relay entry under either key carries it
(``dialects.portable.spelled``: ``hookd status`` and a relay fire's warnings)."""

TOOLS: Mapping[str, str] = {
    "bash": "Bash", "powershell": "Bash", "view": "Read", "create": "Write", "edit": "Edit",
    "glob": "Glob", "grep": "Grep", "web_fetch": "WebFetch", "task": "Task",
}  # fmt: skip
"""Copilot's runtime tool names (§3.4: ``bash``, ``view``, ``create``, ``edit``, ``glob``,
``grep``, ``task`` seen; ``powershell`` and ``web_fetch`` from the agent's documents'
table only). ``task`` is Claude's ``Task`` (Copilot's own PascalCase payload says
``Agent``)."""

ARGUMENTS: Mapping[str, Mapping[str, str]] = {
    "view": {"path": "file_path"},
    "create": {"path": "file_path", "file_text": "content"},
    "edit": {"path": "file_path", "old_str": "old_string", "new_str": "new_string"},
}
"""A tool's argument names → Claude's (§6: the tool schemas the model is offered)."""

_WARN: frozenset[AnswerField] = frozenset({"systemMessage"})
"""Exit 2 with the text on stderr: shown to the user as ``! <text>`` while stdout still
counts, on every event but preToolUse, permissionRequest, postToolUseFailure (§5.2, §5.5)."""
CARRIES: Mapping[str, frozenset[AnswerField]] = {
    "PreToolUse": frozenset({"block", "reason", "context", "updatedInput"}),  # §5.3
    "PermissionRequest": frozenset({"block", "reason"}),  # §5.4: behavior, message
    "PostToolUse": _WARN | {"block", "reason", "context"},  # §5.4: block, additionalContext
    "PostToolUseFailure": frozenset({"context"}),  # §5.4
    "UserPromptSubmit": _WARN | {"block", "reason", "context"},  # §5.4
    "SessionStart": _WARN | {"context"},  # §5.4
    "SubagentStart": _WARN | {"context"},  # §5.4: cannot block
    "Stop": _WARN | {"block", "reason"},  # §5.4
    "SubagentStop": _WARN | {"block", "reason"},  # §5.4
    "SessionEnd": _WARN,  # §5.4: output ignored
    "PreCompact": _WARN,
    "Notification": _WARN,  # additionalContext not seen to reach the model (§5.4)
}
"""What Copilot acts on per shared event. ``continue: false`` (stop) is ignored everywhere
(§5.1), and so is ``systemMessage`` (carried as an exit-2 warning instead)."""

agent_spec = plain_spec
_RUNTIME = {claude: runtime for runtime, claude in reversed(TOOL_NAMES.items())}
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_RENAMED = {"tool_args": "tool_input", "tool_result": "tool_response",
            "response": "last_assistant_message"}  # fmt: skip


# -- what a portable hook reads ----------------------------------------------------------


def shared_payload(request: FireRequest, event: str) -> dict[str, Any]:
    """Copilot's fire in Claude's words: every field snake_case (Copilot's own PascalCase
    form, §3.2, for the events that have one), the tool and its arguments renamed;
    ``source: new`` is Claude's ``startup``."""
    body = request.payload
    forms = (
        [body]
        if request.event in PASCAL
        else [payload.pascal(AGENT_EVENT[request.event], body), body]
    )
    shared: dict[str, Any] = {}
    for form in forms:  # Copilot's own snake_case form first, then what it leaves out
        for key, value in form.items():
            shared.setdefault(_RENAMED.get(_snake(key), _snake(key)), value)
    shared.pop("hook_name", None)
    shared.pop("hook_event_name", None)
    own = _own_tool(request)
    if own:
        shared["hookd_agent_tool"] = own
        shared["tool_name"] = renamed_tool(TOOLS, own)
        shared["tool_input"] = _claude_input(own, _object(shared.get("tool_input")))
    if event == "SessionStart" and shared.get("source") == "new":
        shared["source"] = "startup"
    return shared


def _snake(key: str) -> str:
    return _CAMEL.sub("_", key).lower()


def _runtime_tool(name: Any, key: str) -> str | None:
    """The agent's own name of the tool: the PascalCase payloads carry Claude's names
    (§3.4), but not PermissionRequest's."""
    if not isinstance(name, str):
        return None
    if key in PASCAL and key != "PermissionRequest":
        return _RUNTIME.get(name, name)
    return name


def _object(value: Any) -> Any:
    """Tool arguments given as JSON text: the object in it."""
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except ValueError:
            return value
        return parsed if isinstance(parsed, dict) else value
    return value


def _claude_input(tool: str, arguments: Any) -> Any:
    names = ARGUMENTS.get(tool)
    if not names or not isinstance(arguments, dict):
        return arguments
    return {names.get(k, k): v for k, v in arguments.items()}


def _agent_input(tool: str, arguments: Any) -> Any:
    names = {claude: own for own, claude in ARGUMENTS.get(tool, {}).items()}
    if not names or not isinstance(arguments, dict):
        return arguments
    return {names.get(k, k): v for k, v in arguments.items()}


# -- what it answers ---------------------------------------------------------------------


def agent_answer(request: FireRequest, answer: PortableAnswer) -> AgentAnswer:
    """A Copilot hook's answer: its flat fields as one JSON object on stdout (§5.1), exit
    0, or exit 2 with a warning for the user on stderr (stdout still read, §5.2). A hook
    that failed without answering (Claude: a non-blocking error) is exit 1 where Copilot
    ignores a failure, and no answer on preToolUse and permissionRequest, where a failure
    would deny (§5.2): Claude's reading of the hook is kept."""
    agent_event = AGENT_EVENT[request.event]
    lost = lost_fields(answer, CARRIES, EVENTS.get(request.event, ""))
    if answer.error and not answer.asks():
        if agent_event in ("preToolUse", "permissionRequest"):
            return AgentAnswer(0, "", "", lost)
        return AgentAnswer(1, "", answer.error + "\n", lost)
    out: dict[str, Any] = {}
    blocks = (answer.blocks or answer.decision in ("deny", "ask")) and "block" not in lost
    reason = answer.reason if "reason" not in lost else None
    if agent_event == "preToolUse":
        if blocks:
            ask = answer.decision == "ask" and not answer.blocks
            out["permissionDecision"] = "ask" if ask else "deny"
            if reason is not None:
                out["permissionDecisionReason"] = reason
        elif answer.decision == "allow":
            out["permissionDecision"] = "allow"
        if answer.has_updated_input and "updatedInput" not in lost and not blocks:
            out["modifiedArgs"] = _agent_input(_own_tool(request), answer.updated_input)
    elif agent_event == "permissionRequest":
        if blocks:
            out["behavior"] = "deny"
            if reason:
                out["message"] = reason
        elif answer.decision == "allow":
            out["behavior"] = "allow"
    elif blocks:  # postToolUse, userPromptSubmitted, agentStop, subagentStop
        out["decision"] = "block"
        out["reason"] = reason if reason is not None else NO_REASON  # no reason: no block
    if answer.context and "context" not in lost:
        out["additionalContext"] = answer.context
    stdout = json.dumps(out, ensure_ascii=False) if out else ""
    if answer.system_message and "systemMessage" not in lost:
        return AgentAnswer(2, stdout, answer.system_message + "\n", lost)
    return AgentAnswer(0, stdout, "", lost)


def _own_tool(request: FireRequest) -> str:
    body = request.payload
    return _runtime_tool(body.get("toolName", body.get("tool_name")), request.event) or ""


# -- once per agent event ----------------------------------------------------------------


def runs_portable(request: FireRequest) -> bool:
    """A direct fire stands for the whole event; a relay fire runs the portable hooks only
    when its entry is the first Copilot runs for the event (see the module docstring)."""
    if not request.relay or request.relay_entry is None:
        return True
    first = first_entry(request)
    return first is None or first == (os.path.normpath(request.relay_entry), request.event)


def first_entry(request: FireRequest) -> tuple[str, str] | None:
    """The hook file and key of the first ``hookd-relay copilot`` entry of the fire's
    event that Copilot runs for it (its matcher matches), in Copilot's order, up to the
    fire's own file; None when none is found."""
    event = AGENT_EVENT[request.event]
    keys = (event, PASCAL_OF[event]) if event in PASCAL_OF else (event,)
    own = os.path.normpath(request.relay_entry or "")
    for path in _entry_files(request):
        source = Source(DIALECT, "user", path, "hookdir")
        hooks = config.hook_file(source, path, path, None, 0).hooks
        for key in keys:
            if any(_is_copilot_entry(spec.command) and matches(spec, request)
                   for spec in hooks.get(key, ())):  # fmt: skip
                return path, key
        if path == own:
            break
    return None


def _entry_files(request: FireRequest) -> list[str]:
    """The hook files of the user's folder (``$COPILOT_HOME/hooks``, else
    ``~/.copilot/hooks`` of the agent's environment) and of the project's
    ``.github/hooks``, in Copilot's order (§1.1)."""
    folders = []
    moved = request.env.get("COPILOT_HOME", "")
    home = request.env.get("HOME", "")
    if os.path.isabs(moved):
        folders.append(os.path.join(moved, "hooks"))
    elif os.path.isabs(home):
        folders.append(os.path.join(home, ".copilot", "hooks"))
    folders += [os.path.join(root, ".github", "hooks") for root in request.roots]
    return [os.path.normpath(path) for folder in folders for path in config.folder_files(folder)]


def _is_copilot_entry(command: str) -> bool:
    """``hookd-relay copilot <file> <key>`` (``integration._entry``)."""
    if not is_relay_command(command):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    at = next((i for i, w in enumerate(words) if os.path.basename(w) == "hookd-relay"), None)
    return at is not None and words[at + 1 : at + 2] == ["copilot"]
