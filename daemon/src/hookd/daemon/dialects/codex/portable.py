"""Codex CLI 0.171.0 and the portable hooks: Codex kept Claude Code's event names, payload
envelope and answer JSON (``codex-research.md`` §3, §5), so a portable hook's payload is
``claude_payload``'s and its answer ``claude_answer``'s. What differs, and is written
here: Codex reads that JSON strictly, and a field it will not honour makes the hook fail,
which never blocks (§5): a deny needs a reason, ``ask`` is refused (a portable ``ask`` is
a deny here), ``allow`` only comes with a rewrite and a rewrite only with ``allow``
(§5.1); and its file edits are patches.

Tools (§2.2): the shell is ``Bash`` ``{command}`` in the payload already; ``apply_patch``
sends ``{command: <the patch>}`` and no path. A patch that adds, changes or deletes one
file is given as Claude's ``Write`` (an added file, with its ``content``) or ``Edit``, with
that file's ``file_path`` (the patch's path from the session's ``cwd``), its
``command`` kept; a patch of several files (or a move) is an ``Edit`` with no
``file_path``: a Write/Edit guard reading only ``tool_input.file_path`` lets it through.
Every patch lists its files in ``tool_input.hookd_file_paths``. A rewrite of a patch is
carried as its ``command`` (the patch text; a rewritten ``file_path`` cannot be).
MCP tools keep their ``mcp__server__tool`` names (not run, §2.2).

Once per event (``runs_portable``): Codex runs the relay entry of every layer's
``hooks.json`` whose matcher matches, and ``hookd relay install`` writes the entries for
the user's portable file into the user's ``hooks.json`` and those for a project's into the
project's. A fire runs the portable hooks of both files (hookd selects them by their own
matchers) from the user's entry; from another entry only when the user's file has no relay
entry that Codex runs for this event and tool.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ...model import Dialect, FireRequest, Source
from ..claude.portable import claude_answer, claude_payload
from ..portable import (
    SHARED_EVENTS,
    AgentAnswer,
    AnswerField,
    PortableAnswer,
    lost_fields,
    plain_spec,
)
from ..relay_entries import is_relay_command
from . import config, events
from .config import HOOKS_FILE
from .dialect import matched_names

DIALECT = Dialect.CODEX

EVENTS: Mapping[str, str] = {e: e for e in SHARED_EVENTS if e in events.EVENTS}
"""Claude's events by the same names (§3); PostCompact, the model-request events and
Interrupt have no shared equivalent."""

TOOLS: Mapping[str, str] = {"Bash": "Bash", "apply_patch": "Edit"}
"""``apply_patch`` adding a single file is ``Write`` (see the module docstring)."""

PATCH = "apply_patch"
DENIED = "blocked by a portable hook"
"""The reason Codex needs for a deny (§5.1) when the portable hook gave none."""
_PATCH_FILE = re.compile(r"^\*\*\* (Add|Update|Delete) File: (.+)$", re.MULTILINE)
_MOVE = re.compile(r"^\*\*\* Move to: ", re.MULTILINE)

_SAID: frozenset[AnswerField] = frozenset({"block", "reason", "systemMessage"})
CARRIES: Mapping[str, frozenset[AnswerField]] = {
    # continue:false and stopReason make the hook fail (§5.1, §5.2)
    "PreToolUse": _SAID | {"context", "updatedInput"},
    "PermissionRequest": _SAID,  # updatedInput refused, additionalContext invalid (§5.2)
    "PostToolUse": _SAID | {"context", "stop"},  # §5.3
    "UserPromptSubmit": _SAID | {"context", "stop"},  # §5.4
    "Stop": _SAID | {"stop"},  # no hookSpecificOutput (§5.5)
    "SubagentStop": _SAID | {"stop"},
    "SessionStart": frozenset({"context", "stop", "systemMessage"}),  # §5.6
    "SubagentStart": frozenset({"context", "stop", "systemMessage"}),
    "PreCompact": frozenset({"systemMessage"}),  # what continue:false does: unverified (§5.7)
    "SessionEnd": frozenset(),  # output ignored (§5.7)
}

agent_spec = plain_spec


def runs_portable(request: FireRequest) -> bool:
    """A direct fire, the user's relay entry, an entry that names no file: yes; another
    layer's entry only when no relay entry of the user's ``hooks.json`` runs for this
    event and tool (the module docstring)."""
    if not request.relay or request.relay_entry is None:
        return True
    user = user_hooks_file(request.env)
    if user is None or os.path.normpath(request.relay_entry) == user:
        return True
    source = Source(DIALECT, "user", user, "settings")
    names = matched_names(request)
    return not any(
        is_relay_command(spec.command) and (names is None or config.matches(spec.matcher, names))
        for spec in config.load_hooks_json(source).hooks.get(request.event, ())
    )


def user_hooks_file(env: Mapping[str, str]) -> str | None:
    """The user's ``hooks.json`` in the agent's environment: ``$CODEX_HOME``'s, else
    ``~/.codex``'s (None: neither is known)."""
    moved = env.get("CODEX_HOME", "").strip()
    home = env.get("HOME", "")
    folder = moved if os.path.isabs(moved) else os.path.join(home, ".codex") if home else None
    return os.path.normpath(os.path.join(folder, HOOKS_FILE)) if folder else None


def shared_payload(request: FireRequest, event: str) -> dict[str, Any]:
    """Codex's payload with its patches as Claude's Write or Edit."""
    payload = claude_payload(request, TOOLS)
    tool_input = payload.get("tool_input")
    if payload.get("hookd_agent_tool") == PATCH and isinstance(tool_input, Mapping):
        patch = tool_input.get("command")
        if isinstance(patch, str):
            cwd = payload.get("cwd")
            folder = cwd if isinstance(cwd, str) else ""
            payload["tool_name"], payload["tool_input"] = _patch_as_shared(patch, folder)
    return payload


def _patch_as_shared(patch: str, folder: str) -> tuple[str, dict[str, Any]]:
    files = _PATCH_FILE.findall(patch)
    paths = [os.path.join(folder, path.strip()) for _kind, path in files]
    shared: dict[str, Any] = {"command": patch, "hookd_file_paths": paths}
    if len(files) != 1 or _MOVE.search(patch):
        return "Edit", shared
    shared["file_path"] = paths[0]
    if files[0][0] != "Add":
        return "Edit", shared
    added = patch.split("\n")
    start = next(i for i, line in enumerate(added) if _PATCH_FILE.match(line)) + 1
    lines = [line[1:] for line in added[start:] if line.startswith("+")]
    return "Write", {**shared, "content": "".join(line + "\n" for line in lines)}


def agent_answer(request: FireRequest, answer: PortableAnswer) -> AgentAnswer:
    """Claude's JSON, cut to what Codex accepts on the event (the module docstring)."""
    event = request.event
    lost = lost_fields(answer, CARRIES, event)
    if answer.error and not answer.asks():
        return claude_answer(event, answer, CARRIES)
    if "block" in answer.asks() and "block" not in lost:
        answer = replace(answer, blocks=True, decision="deny", reason=answer.reason or DENIED,
                         has_updated_input=False, updated_input=None)  # fmt: skip
    elif event == "PreToolUse":
        rewrite = _codex_input(request, answer.updated_input) if answer.has_updated_input else None
        if answer.has_updated_input and rewrite is None:
            lost += ("updatedInput",)
        answer = replace(answer, decision="allow" if rewrite is not None else None,
                         has_updated_input=rewrite is not None, updated_input=rewrite)  # fmt: skip
    elif "updatedInput" in lost:
        answer = replace(answer, has_updated_input=False, updated_input=None)
    return replace(claude_answer(event, answer, CARRIES), lost=lost)


def _codex_input(request: FireRequest, updated: Any) -> dict[str, Any] | None:
    """A rewrite as Codex takes it: a patch's ``command`` only."""
    if not isinstance(updated, Mapping):
        return None
    if request.payload.get("tool_name") != PATCH:
        return dict(updated)
    patch = updated.get("command")
    return {"command": patch} if isinstance(patch, str) else None
