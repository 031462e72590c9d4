"""The third part of the agent contract: how an agent's events meet the portable hooks.

Portable hooks are written once, in Claude Code's settings format, with Claude's event
and tool names as the shared vocabulary (``~/.config/hookd/hooks.json``,
``<project>/.hookd/hooks.json``), and run in every agent hookd speaks. Each agent's
package holds a ``portable`` module fulfilling ``PortableModule``:

* which of its events is which shared event (``EVENTS``) and which of its tools is which
  shared tool (``TOOLS``): data, from which the README's support matrix is generated;
* what a portable hook reads for one of its fires (``shared_payload``): the
  Claude-shaped event (``Bash {command}``, ``Write {file_path, content}`` ...);
* what a portable hook's answer becomes (``agent_answer``): the exit code, stdout and
  stderr one of the agent's own hooks would have written to say the same, which the
  agent's own rules then read and combine with its other hooks, exactly as they would an
  answer of its own. What the agent cannot carry on that event (no input rewrite, no
  context) is named, never dropped in silence (``AgentAnswer.lost``, ``CARRIES``).

A portable module imports ``model``, this module and its own package only.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol

from ..model import Dialect, FireRequest, HookSpec, Source, Verdict

AnswerField = Literal["block", "reason", "context", "updatedInput", "stop", "systemMessage"]
"""What a portable answer can say, by its name in the support matrix."""
ANSWER_FIELDS: tuple[AnswerField, ...] = (
    "block", "reason", "context", "updatedInput", "stop", "systemMessage",
)  # fmt: skip

SHARED_EVENTS: tuple[str, ...] = (
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest",
    "UserPromptSubmit", "SessionStart", "SessionEnd", "Stop", "SubagentStart",
    "SubagentStop", "PreCompact", "Notification",
)  # fmt: skip
"""The shared event names a portable file may use (Claude Code's): the rows of the
support matrix. An agent maps some of its events to them."""

SHARED_TOOLS: tuple[str, ...] = (
    "Bash", "Read", "Write", "Edit", "Glob", "Grep", "WebFetch", "WebSearch", "Task",
)  # fmt: skip
"""The shared tool names (Claude Code's): MCP tools keep the ``mcp__server__tool`` form."""


@dataclass(frozen=True, slots=True)
class PortableAnswer:
    """A portable hook's answer, read by Claude Code's rules: what it asks for."""

    blocks: bool = False
    decision: str | None = None
    reason: str | None = None
    context: str | None = None
    updated_input: Any = None
    """The rewritten tool input in the shared shape (``{"command": ...}`` for Bash)."""
    has_updated_input: bool = False
    continue_: bool = True
    stop_reason: str | None = None
    system_message: str | None = None
    error: str | None = None
    """The hook failed without answering (Claude: a non-blocking error, exit 1)."""

    @classmethod
    def of(cls, verdict: Verdict) -> PortableAnswer:
        return cls(
            blocks=verdict.blocks,
            decision=verdict.decision,
            reason=verdict.reason,
            context=verdict.context,
            updated_input=verdict.updated_input,
            has_updated_input=verdict.has_updated_input,
            continue_=verdict.continue_,
            stop_reason=verdict.stop_reason,
            system_message=verdict.system_message,
            error=verdict.error,
        )

    def asks(self) -> tuple[AnswerField, ...]:
        """The fields this answer uses."""
        used: list[AnswerField] = []
        if self.blocks or self.decision in ("deny", "ask"):
            used.append("block")
        if self.reason:
            used.append("reason")
        if self.context:
            used.append("context")
        if self.has_updated_input:
            used.append("updatedInput")
        if not self.continue_:
            used.append("stop")
        if self.system_message:
            used.append("systemMessage")
        return tuple(used)


@dataclass(frozen=True, slots=True)
class AgentAnswer:
    """What one of the agent's own hooks would have written to say a portable answer."""

    exit_code: int
    stdout: str = ""
    stderr: str = ""
    lost: tuple[AnswerField, ...] = ()
    """Fields of the portable answer the agent cannot carry on this event."""


class PortableModule(Protocol):
    """What every agent package's ``portable`` module provides: all of it, always."""

    DIALECT: Dialect
    EVENTS: Mapping[str, str]
    """The agent's event name -> the shared event it is (agent events with no shared
    equivalent are absent: no portable hook runs on them)."""
    TOOLS: Mapping[str, str]
    """The agent's tool name -> the shared tool name (tools absent keep their name)."""
    CARRIES: Mapping[str, frozenset[AnswerField]]
    """Per shared event (of ``EVENTS``' values): the answer fields the agent acts on."""

    def runs_portable(self, request: FireRequest) -> bool:
        """Whether this fire runs the portable hooks: a relay entry that stands for only
        some adopted hooks (one of several an event has) may leave them to another entry,
        so that they run once per event."""

    def shared_payload(self, request: FireRequest, event: str) -> dict[str, Any]:
        """The Claude-shaped payload of one of the agent's fires, for shared ``event``: a
        new dict (the fire adds ``hook_event_name``, ``hookd_agent`` and
        ``hookd_agent_event``); on a tool event it names the agent's own tool in
        ``hookd_agent_tool``."""

    def agent_answer(self, request: FireRequest, answer: PortableAnswer) -> AgentAnswer:
        """``answer`` as one of the agent's own hooks would give it for this fire."""

    def agent_spec(self, spec: HookSpec, request: FireRequest) -> HookSpec:
        """The portable hook as one of the agent's own (what its ``interpret`` reads)."""


def portable_sources(home: str, roots: Sequence[str]) -> list[Source]:
    """The portable hook files of a fire: the user's, then its first root's (a workspace
    file, run only once the workspace is allowed, like the agents' own project files)."""
    found = [Source(Dialect.CLAUDE, "user", user_file(home), "settings", portable=True)]
    if roots:
        project = os.path.join(roots[0], ".hookd", "hooks.json")
        found.append(Source(Dialect.CLAUDE, "project", project, "settings", roots[0],
                            portable=True))  # fmt: skip
    return found


def user_file(home: str) -> str:
    """``~/.config/hookd/hooks.json``: the user's portable hooks."""
    return os.path.join(home, ".config", "hookd", "hooks.json")


def coverage(
    mappings: Mapping[Dialect, PortableModule], event: str, matcher: str | None
) -> dict[str, Any]:
    """Where a portable hook of ``event`` runs: the agents that have the event
    (``runs``) and, for the others or a tool its matcher names that the agent lacks,
    why not (``cannot``): what ``hookd hooks`` shows per portable hook."""
    runs: list[str] = []
    cannot: dict[str, str] = {}
    named = _plain_names(matcher) if event in TOOL_EVENTS else ()
    for dialect, mapping in mappings.items():
        own = [agent for agent, shared in mapping.EVENTS.items() if shared == event]
        if not own:
            cannot[dialect.value] = f"has no {event} event"
            continue
        missing = [tool for tool in named if agent_tool(mapping.TOOLS, tool) is None]
        if missing and len(missing) == len(named):
            cannot[dialect.value] = f"has no {' or '.join(missing)} tool"
            continue
        runs.append(dialect.value)
        if missing:
            cannot[dialect.value] = f"runs, but has no {' or '.join(missing)} tool"
    return {"runs": runs, "cannot": cannot}


TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"})
"""The shared events whose matchers name tools."""


def _plain_names(matcher: str | None) -> tuple[str, ...]:
    """The shared tool names a matcher lists as plain alternatives (``Bash|Write``); none
    for a pattern (``mcp__.*``), no matcher or ``*``."""
    if not matcher or matcher == "*":
        return ()
    names = tuple(part.strip() for part in matcher.split("|"))
    return names if all(n in SHARED_TOOLS for n in names) else ()


# Helpers the portable modules share -----------------------------------------------------


def every_fire(request: FireRequest) -> bool:
    """``runs_portable`` for agents whose relay entries each stand for the whole event."""
    return True


def plain_spec(spec: HookSpec, request: FireRequest) -> HookSpec:
    """``agent_spec`` for agents whose ``interpret`` reads nothing of a spec's options."""
    return replace(spec, dialect=request.dialect, event=request.event, options={},
                   matcher=None, condition=None)  # fmt: skip


def lost_fields(
    answer: PortableAnswer, carries: Mapping[str, frozenset[AnswerField]], event: str
) -> tuple[AnswerField, ...]:
    """The fields ``answer`` uses that the agent does not act on at ``event``."""
    carried = carries.get(event, frozenset())
    return tuple(f for f in answer.asks() if f not in carried)


def spelled(mapping: PortableModule, event: str) -> str:
    """The agent event ``event`` spells: itself, unless the agent's hook files take two
    keys for one event (Copilot's ``preToolUse`` and ``PreToolUse``) and its module maps
    each key to the event in an optional ``SPELLINGS``; a relay entry under either key
    carries it."""
    spellings: Mapping[str, str] = getattr(mapping, "SPELLINGS", {})
    return spellings.get(event, event)


def renamed_tool(tools: Mapping[str, str], name: object) -> str:
    """The shared name of an agent's tool (unknown tools keep their own name)."""
    if not isinstance(name, str):
        return ""
    return tools.get(name, name)


def agent_tool(tools: Mapping[str, str], shared: str) -> str | None:
    """The agent's name for a shared tool (the first that maps to it), or None."""
    return next((own for own, name in tools.items() if name == shared), None)


def shared_input(keys: Mapping[str, str], tool_input: object, root: str | None) -> dict[str, Any]:
    """An agent's tool input in the shared shape: its keys renamed by ``keys`` (the agent's
    key -> the shared key; other keys kept), a relative ``file_path`` made absolute against
    ``root`` (Claude's file tools take absolute paths)."""
    if not isinstance(tool_input, Mapping):
        return {}
    shared = {keys.get(key, key): value for key, value in tool_input.items()}
    path = shared.get("file_path")
    if isinstance(path, str) and path and root and not os.path.isabs(path):
        shared["file_path"] = os.path.join(root, path)
    return shared


def agent_input(keys: Mapping[str, str], updated: object, original: object) -> object:
    """A rewritten shared input (``updatedInput``) in the agent's keys, over the tool's
    original input: a key the rewrite leaves out keeps its value (``shared_input`` reversed)."""
    if not isinstance(updated, Mapping):
        return updated
    back = {shared: own for own, shared in keys.items()}
    base = dict(original) if isinstance(original, Mapping) else {}
    return {**base, **{back.get(key, key): value for key, value in updated.items()}}


def as_feedback(answer: PortableAnswer) -> PortableAnswer:
    """A PostToolUse block as what it is in Claude, feedback to the model (the tool has
    run): its reason becomes context, before the answer's own, for agents whose block
    there means something else (Cline's ``cancel`` ends the task)."""
    if not (answer.blocks or answer.decision in ("deny", "ask")):
        return answer
    feedback = "\n".join(text for text in (answer.reason, answer.context) if text)
    return replace(answer, blocks=False, decision=None, reason=None, context=feedback or None)
