"""How an agent reaches hookd: the second half of the agent contract, beside the fire
rules of ``base.DialectModule``.

Each agent's package (``dialects/<agent>/``) holds a ``dialect`` module (reading its hooks,
running them, reading their answers) and an ``integration`` module fulfilling
``IntegrationModule``: which of its sources ``hookd adopt`` can hand to hookd and where
they move (``ADOPT_SCOPES``, ``plan``), what its relay entries pass and how a relayed
event names itself (``RELAY``: data), its roots and which entry it came through
(``relay_roots``, ``relay_entry``), the exact stdout, stderr and exit code the agent must
read back (``relay_answer``), what a hook that failed answers (``failing_answer``: when
hookd refuses the event, and, as a table generated from ``RELAY`` and it, when
hookd-relay cannot reach hookd at all) and whether it has an http entry
(``HTTP_ENTRY``). ``all_dialects.AGENT_PACKAGES`` lists the packages; the CLI, the relay
door and the http entry look an agent up there and never name one.

An agent whose hooks cannot be handed over says so with an empty ``ADOPT_SCOPES`` and
assigns ``cannot_plan``: ``hookd adopt`` then refuses with a message naming the agents
that can.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from hookd.protocol import FireResult

from ..edits import Plan
from ..errors import UserError
from ..model import Dialect, FireRequest
from .portable_needs import Needs

AdoptAction = Literal["adopt", "unadopt", "install", "uninstall"]
"""What a plan is for: ``hookd adopt``, ``unadopt``, ``relay install``, ``uninstall``."""


@dataclass(frozen=True, slots=True)
class HttpInstall:
    """``relay install --http``: the daemon's http entry port, and what the agent does
    when hookd cannot be reached or refuses (``continue`` or ``block``)."""

    port: int
    on_error: str


@dataclass(frozen=True, slots=True)
class PlanOptions:
    """What a plan needs from the command line and this installation."""

    relay: str
    """This installation's ``hookd-relay``, by its absolute path (``cli/relay_program``)."""
    environ: Mapping[str, str]
    """The caller's environment (variables that move an agent's folders)."""
    http: HttpInstall | None = None
    """``relay install --http`` (only for an agent with an ``HTTP_ENTRY``)."""
    portable: Needs = field(default_factory=dict)
    """The agent's events the portable hooks of this scope use (the user's file at user
    scope, the project's at project scope): ``relay install`` and ``adopt`` write relay
    entries for them too, matching their tools, their timeout covering theirs."""


@dataclass(frozen=True, slots=True)
class RelayCall:
    """One run of a relay entry, as ``hookd-relay`` sends it: nothing interpreted yet."""

    agent: str
    """The entry's first argument (``hookd-relay AGENT ...``)."""
    args: tuple[str, ...]
    """The entry's other arguments (a Cline relay file's own path, an auggie matcher)."""
    payload: dict[str, Any]
    """The event the agent wrote on the relay's stdin."""
    env: Mapping[str, str]
    """The relay's environment (the agent's), less hookd's own variables."""
    cwd: str
    """The relay's working folder (the agent's)."""


@dataclass(frozen=True, slots=True)
class RelayFacts:
    """What a run of the agent's relay entry passes and how its event names itself: plain
    data, so that ``hookd-relay`` answers from a table generated from it when it cannot
    reach hookd (``hookd/_relay_table.py``)."""

    entry_args: int
    """How many arguments its entries pass after the agent's name (a Cline relay file its
    own path, an auggie relay group its matcher; Claude's none)."""
    event_key: str
    """The payload field naming the event."""
    runners: Mapping[str, Dialect] = field(default_factory=dict)
    """Event names (in ``event_key``) another agent sends through the same entry: one
    relay file in ``.clinerules/hooks`` serves both Cline runners."""
    event_arg: int | None = None
    """The entry argument (counted after the agent's name, from 0) that names the event,
    for an agent whose payloads do not all name theirs (Copilot CLI's camelCase events):
    ``event_key`` is then not read."""


@dataclass(frozen=True, slots=True)
class RelayTarget:
    """What a relayed event fires: whose hooks, which event, for which roots, and which
    relay entry (None: every adopted hook of the event)."""

    dialect: Dialect
    event: str
    roots: tuple[str, ...]
    entry: str | None = None


@dataclass(frozen=True, slots=True)
class RelayAnswer:
    """What the relay writes back for the agent to read, byte for byte."""

    stdout: str
    stderr: str
    exit_code: int

    def wire(self) -> dict[str, Any]:
        """The ``relay`` method's result."""
        return {"stdout": self.stdout, "stderr": self.stderr, "exitCode": self.exit_code}


class RelayRefused(ValueError):
    """The relayed call is not one hookd can fire (bad entry arguments, an event that is
    not the agent's); the message says what is wrong and what to do."""


@dataclass(frozen=True, slots=True)
class HttpEntry:
    """An agent that can post its events to the daemon's http entry (Claude Code's http
    hooks): how a posted event becomes a fire. ``target`` raises ``RelayRefused``."""

    target: Callable[[Mapping[str, Any]], RelayTarget]


class IntegrationModule(Protocol):
    """What every agent package's ``integration`` module provides: all of it, always."""

    DIALECT: Dialect
    ADOPT_SCOPES: Mapping[str, str]
    """``--scope`` values ``hookd adopt`` takes for this agent, each with what it names
    (empty: its hooks cannot be handed over)."""
    RELAY: RelayFacts
    HTTP_ENTRY: HttpEntry | None
    """How a posted event fires, for an agent with http hook entries (None: none)."""

    def plan(
        self, action: AdoptAction, home: str, scope: str, project: str, options: PlanOptions
    ) -> Plan:
        """The edits of ``action`` for the agent's configuration of ``scope`` (a scope of
        ``ADOPT_SCOPES``). Raises ``UserError`` for what the person must fix first."""

    def relay_roots(self, call: RelayCall) -> tuple[str, ...]:
        """The workspace roots of a relayed event (absolute paths)."""

    def relay_entry(self, call: RelayCall) -> str | None:
        """Which adopted hooks the entry stands for (None: every adopted hook of the
        event); ``call.args`` has at most ``RELAY.entry_args`` arguments."""

    def relay_answer(self, request: FireRequest, result: FireResult) -> RelayAnswer:
        """The fire's outcome as one of the agent's hooks answers it."""

    def failing_answer(self, message: str, block: bool) -> RelayAnswer:
        """A hook that failed with ``message``: what the agent reads when hookd cannot
        run the event (``block``: the ``HOOKD_RELAY_ON_ERROR=block`` policy, so the action
        an event guards does not go on)."""


# Defaults an agent assigns to the members it has no use for -------------------------


NO_SCOPES: Mapping[str, str] = {}


def cannot_plan(
    action: AdoptAction, home: str, scope: str, project: str, options: PlanOptions
) -> Plan:
    """``plan`` for an agent whose hooks cannot be handed over (never called: the CLI
    refuses first, by ``ADOPT_SCOPES``)."""
    raise UserError(f"hookd cannot {action} this agent's hooks")


def no_entry(call: RelayCall) -> str | None:
    """``relay_entry`` for agents whose entries stand for every adopted hook."""
    return None


def native_answer(request: FireRequest, result: FireResult) -> RelayAnswer:
    """``relay_answer`` where one hook's answer is the combined outcome in the agent's own
    vocabulary (``native``) as JSON on stdout, exit 0; nothing to say: no output."""
    native = result["native"]
    return RelayAnswer(json.dumps(native) if native else "", "", 0)


def exit_code_failing(message: str, block: bool) -> RelayAnswer:
    """``failing_answer`` for agents where exit 1 is a failing hook (the action goes on)
    and exit 2 blocks the action with stderr as the reason (Claude Code, auggie)."""
    return RelayAnswer("", message + "\n", 2 if block else 1)


# Helpers the integrations share ----------------------------------------------------------


def text(value: object) -> str | None:
    """A non-empty string from the payload, else None."""
    return value if isinstance(value, str) and value else None


def listed_roots(call: RelayCall, key: str, variable: str | None = None) -> tuple[str, ...]:
    """Roots from a payload list (Cline's ``workspaceRoots``, auggie's
    ``workspace_roots``), else the agent's variable, else the payload's ``cwd``, else the
    relay's working folder; each made absolute against that folder."""
    listed = call.payload.get(key)
    found: list[str] = []
    if isinstance(listed, list):
        found = [root for root in listed if isinstance(root, str) and root]
    if not found:
        fallback = call.env.get(variable) if variable else None
        found = [fallback or text(call.payload.get("cwd")) or call.cwd]
    return tuple(os.path.join(call.cwd, root) for root in found)


def add_group(settings: dict[str, Any], event: str, group: dict[str, Any]) -> None:
    """Append a matcher group's handlers to the settings' group with the same matcher
    (each handler once), or the group itself: how ``unadopt`` gives hooks back."""
    groups = settings.setdefault("hooks", {}).setdefault(event, [])
    same = next((g for g in groups if g.get("matcher") == group.get("matcher")), None)
    if same is None:
        groups.append(dict(group))
        return
    present = same.get("hooks", [])
    same["hooks"] = [*present, *(h for h in group.get("hooks", []) if h not in present)]
