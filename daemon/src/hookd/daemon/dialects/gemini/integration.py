"""How Gemini CLI reaches hookd: ``hookd adopt --agent gemini`` and its relay entries.

    hookd adopt --agent gemini --scope user      # ~/.gemini/settings.json
    hookd adopt --agent gemini --scope project   # <project>/.gemini/settings.json

(``GEMINI_CLI_HOME`` moves the user's ``.gemini`` folder.)

``adopt`` moves the command hooks of the scope's ``settings.json`` (its ``hooks``; every
other setting stays) into the hookd-owned file of the same layer (``dialect.adopted_path``:
read with Gemini's rules at the same place), then writes one relay entry per event in their
place: ``<this installation's hookd-relay> gemini``, named ``hookd``, its timeout the
longest of the hooks it may run plus 10 s (milliseconds). The entries of the user's and a
project's file are the same name and command, which Gemini runs once (it merges identical
hooks across its files, §1.3): that one run fires every adopted hook of the event, which
hookd merges as Gemini would have (the same hook adopted from both files runs once). Hooks
Gemini itself would skip stay where they are, and the plan says why; so do the system
files' hooks (root's, the administrator's) and extensions' (the extension's own).

``adopt`` and ``relay install`` also relay the events the scope's portable hooks use
(``PlanOptions.portable``): the same one entry per event, its matcher covering their tools
too, its timeout theirs; the one run per event fires them (``portable.runs_portable``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ...edits import (
    Plan,
    dump_settings,
    emptied,
    handed_over,
    not_relayed,
    nothing_adopted,
    split_group,
    without_relay,
)
from ...edits import read_settings as _read
from ...errors import UserError
from ...model import Dialect
from .. import integration
from ..integration import (
    AdoptAction,
    HttpEntry,
    PlanOptions,
    RelayAnswer,
    RelayCall,
    RelayFacts,
    add_group,
    text,
)
from ..matcher_union import alternation, compiles, distinct, exactly
from ..portable_needs import Needs
from ..relay_entries import RELAY_COMMAND, shell_word
from .config import CONFIG_FIELDS, HANDLER_TYPES, SETTINGS_FILE, timeout_ms
from .dialect import adopted_path
from .events import MATCHED_FIELD, TOOL_EVENTS

DIALECT = Dialect.GEMINI
ADOPT_SCOPES: Mapping[str, str] = {
    "user": "~/.gemini/settings.json ($GEMINI_CLI_HOME/.gemini/settings.json)",
    "project": "<project>/.gemini/settings.json",
}
RELAY = RelayFacts(entry_args=0, event_key="hook_event_name")
"""An entry names nothing: the user's and a project's entries are one hook to Gemini, which
runs it once for every adopted hook of the event."""
HTTP_ENTRY: HttpEntry | None = None
RELAY_ARGUMENT = "gemini"
RELAY_NAME = "hookd"
RELAY_MARGIN_MS = 10000
"""How much longer the relay entry may run than the slowest hook it relays."""
relay_answer = integration.native_answer
relay_entry = integration.no_entry


@dataclass(frozen=True, slots=True)
class Shape:
    """What the adopt plans of a Gemini-style ``settings.json`` (Gemini CLI's, and Qwen
    Code's, which forked it) need of the agent: the relay's argument, why a handler stays
    with the agent (``""``: it is the relay itself), and the relay entry's ``timeout``
    covering the given groups' hooks, in the agent's unit, and its matcher.

    An entry's matcher covers the groups adopted from its own file only: the agent drops
    a duplicate entry (the user's and a project's) after matching, so the entry of each
    file whose groups match starts the one run, which fires every adopted hook whose
    matcher matches."""

    argument: str
    not_adoptable: Callable[[Any], str | None]
    relay_timeout: Callable[[list[dict[str, Any]]], int | float]
    union_matcher: Callable[[str, list[Any]], str | None]
    """The relay entry's matcher for an event's adopted groups (None: no matcher)."""
    timeout_value: Callable[[float], float]
    """A handler's ``timeout`` in the agent's unit for so many seconds (a portable hook's)."""


def failing_answer(message: str, block: bool) -> RelayAnswer:
    """Blocking: a deny that also ends the run (``continue: false``), so that no guarded
    action goes on and a blocked ``AfterAgent`` does not ask the model again and again while
    hookd is away. Letting the action go on: exit 1 with the line on stderr, which Gemini
    shows as ``Warning: <line>`` with a failed hook's warning."""
    if block:
        answer = {"decision": "deny", "reason": message, "continue": False, "stopReason": message}
        return RelayAnswer(json.dumps(answer), message + "\n", 0)
    return RelayAnswer("", message + "\n", 1)


def relay_roots(call: RelayCall) -> tuple[str, ...]:
    """The session's folder (the event's ``cwd``): the one folder whose
    ``.gemini/settings.json`` Gemini reads, with no walk up to a parent or a git root."""
    cwd = os.path.join(call.cwd, text(call.payload.get("cwd")) or call.cwd)
    return (os.path.normpath(cwd),)


def plan(action: AdoptAction, home: str, scope: str, project: str, options: PlanOptions) -> Plan:
    user_owned = adopted_path(home, None)
    others: tuple[str, ...]
    if scope == "user":
        moved = options.environ.get("GEMINI_CLI_HOME", "").strip()
        base = moved if os.path.isabs(moved) else home
        agent_file = os.path.join(base, ".gemini", SETTINGS_FILE)
        owned_file, others = user_owned, ()
    else:
        agent_file = os.path.join(project, ".gemini", SETTINGS_FILE)
        owned_file, others = adopted_path(home, project), (user_owned,)
    return settings_plan(action, agent_file, owned_file, options, others, GEMINI)


def settings_plan(
    action: AdoptAction,
    agent_file: str,
    owned_file: str,
    options: PlanOptions,
    others: tuple[str, ...],
    shape: Shape,
) -> Plan:
    """One action's plan for a Gemini-style settings file (``agent_file``), its hookd-owned
    file, this installation's relay and the portable hooks' needs (``options``), and the
    other hookd-owned files a relay entry there may run."""
    where = _Files(agent_file, owned_file, options.relay, others, options.portable)
    return _ACTIONS[action](where, shape)


@dataclass(frozen=True, slots=True)
class _Files:
    """What a plan works on: the agent's file, the hookd-owned file, the relay's path, the
    other hookd-owned files a relay entry there may run, and the events the portable
    hooks of the scope need relayed."""

    agent: str
    owned: str
    relay: str
    others: tuple[str, ...]
    portable: Needs


def _hooks(settings: dict[str, Any], path: str) -> dict[str, list[dict[str, Any]]]:
    """A settings file's ``hooks`` events (its ``enabled``/``disabled`` keys are no events)."""
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict):
        raise UserError(f'{path}: "hooks" is not an object; fix it first (hookd changes '
                        "nothing in a file it cannot read)")  # fmt: skip
    events = {event: groups for event, groups in hooks.items() if event not in CONFIG_FIELDS}
    if not all(isinstance(groups, list) for groups in events.values()):
        raise UserError(f'{path}: "hooks" is not an object of lists of hook groups; fix it '
                        "first (hookd changes nothing in a file it cannot read)")  # fmt: skip
    return {event: [g for g in groups if isinstance(g, dict)] for event, groups in events.items()}


def _with_hooks(settings: dict[str, Any], events: dict[str, list[dict[str, Any]]]) -> None:
    """``settings["hooks"]`` holding ``events`` and the switches it had (none left: gone)."""
    hooks = settings.get("hooks")
    kept = {k: v for k, v in hooks.items() if k in CONFIG_FIELDS} if isinstance(hooks, dict) else {}
    if events or kept:
        settings["hooks"] = {**kept, **events}
    else:
        settings.pop("hooks", None)


def _adopt(where: _Files, shape: Shape) -> Plan:
    """Move the file's command hooks into the hookd-owned file; relay their events (and
    the portable hooks')."""
    agent_file, owned_file = where.agent, where.owned
    agent, agent_text = _read(agent_file)
    owned, owned_text = _read(owned_file)
    notes: list[str] = []
    kept: dict[str, list[Any]] = {}
    moved = 0
    owned_hooks = _hooks(owned, owned_file)
    for event, groups in _hooks(agent, agent_file).items():
        for group in groups:
            stay, take = split_group(group, event, notes, shape.not_adoptable)
            if take:
                owned_hooks.setdefault(event, []).append({**group, "hooks": take})
                moved += len(take)
            if stay:
                kept.setdefault(event, []).append({**group, "hooks": stay})
    owned["hooks"] = owned_hooks
    _with_hooks(agent, _without_relay(kept, shape))
    notes[:0] = handed_over(moved, agent_file, owned_file, bool(_hooks(owned, owned_file)))
    plan = _relayed(agent, agent_text, owned, notes, where, shape)
    plan.writes[owned_file] = (owned_text, dump_settings(owned))
    return plan


def _unadopt(where: _Files, shape: Shape) -> Plan:
    """Give the adopted hooks back to the agent's file; take out the relay entries."""
    agent_file, owned_file = where.agent, where.owned
    agent, agent_text = _read(agent_file)
    owned, owned_text = _read(owned_file)
    _with_hooks(agent, _without_relay(_hooks(agent, agent_file), shape))
    returned = 0
    for event, groups in _hooks(owned, owned_file).items():
        for group in groups:
            add_group(agent, event, group)
            returned += len(group.get("hooks", []))
    owned.pop("hooks", None)
    plan = Plan({agent_file: (agent_text, dump_settings(agent))},
                [f"{returned} hook(s) given back to {agent_file}"])  # fmt: skip
    emptied(plan, owned_file, owned, owned_text)
    return plan


def _install(where: _Files, shape: Shape) -> Plan:
    """Write the relay entries for the events hookd holds hooks for (adopted or portable)."""
    agent, agent_text = _read(where.agent)
    owned, _ = _read(where.owned)
    events = {*_hooks(owned, where.owned), *where.portable}
    if not events:
        raise UserError(nothing_adopted(where.owned))
    _with_hooks(agent, _without_relay(_hooks(agent, where.agent), shape))
    notes = [f"relaying {', '.join(sorted(events))}"]
    return _relayed(agent, agent_text, owned, notes, where, shape)


def _uninstall(where: _Files, shape: Shape) -> Plan:
    """Remove the relay entries (adopted and portable hooks then do not run)."""
    agent_file, owned_file = where.agent, where.owned
    agent, agent_text = _read(agent_file)
    _with_hooks(agent, _without_relay(_hooks(agent, agent_file), shape))
    owned, _ = _read(owned_file)
    notes = [not_relayed(owned_file)] if _hooks(owned, owned_file) else []
    return Plan({agent_file: (agent_text, dump_settings(agent))}, notes)


def _relayed(
    agent: dict[str, Any],
    agent_text: str | None,
    owned: dict[str, Any],
    notes: list[str],
    where: _Files,
    shape: Shape,
) -> Plan:
    """The agent's file with one relay entry per adopted or portable event: its timeout
    covers the hooks of the other adopted files it may also run (the user's, for a
    project's) and the portable hooks', its matcher their tools too."""
    events = _hooks(agent, where.agent)
    command = f"{shell_word(where.relay)} {shape.argument}"
    more = [_read(other)[0] for other in where.others]
    adopted = _hooks(owned, "")
    for event in [*adopted, *sorted(set(where.portable) - set(adopted))]:
        groups = adopted.get(event, [])
        also = [g for other in more for g in _hooks(other, "").get(event, [])]
        matchers = [g.get("matcher") for g in groups]
        need = where.portable.get(event)
        if need is not None:
            seconds = {"timeout": shape.timeout_value(need.timeout_s)}
            also.append({"hooks": [seconds]})
            matchers += sorted(need.tools) if need.tools is not None else [""]
        entry = {"type": "command", "name": RELAY_NAME, "command": command,
                 "timeout": shape.relay_timeout(groups + also)}  # fmt: skip
        group: dict[str, Any] = {"hooks": [entry]}
        matcher = shape.union_matcher(event, matchers)
        if matcher is not None:
            group = {"matcher": matcher, **group}
        events.setdefault(event, []).append(group)
    _with_hooks(agent, events)
    return Plan({where.agent: (agent_text, dump_settings(agent))}, notes)


def _relay_timeout(groups: list[dict[str, Any]]) -> int:
    timeouts = [timeout_ms(h.get("timeout")) for g in groups for h in g.get("hooks", [])
                if isinstance(h, dict)]  # fmt: skip
    return int(max(timeouts, default=timeout_ms(None))) + RELAY_MARGIN_MS


def _not_adoptable(handler: Any) -> str | None:
    """Why hookd cannot run this handler for the agent ("" for the relay itself)."""
    if not isinstance(handler, dict):
        return "not a handler object"
    command = handler.get("command")
    if isinstance(command, str) and RELAY_COMMAND.search(command):
        return ""
    if handler.get("type") not in HANDLER_TYPES or handler.get("type") == "runtime":
        return f"a {handler.get('type')!r} handler is not a command Gemini runs"
    if not isinstance(command, str) or not command:
        return "no command: Gemini skips it"
    return None


def _without_relay(
    hooks: dict[str, list[dict[str, Any]]], shape: Shape
) -> dict[str, list[dict[str, Any]]]:
    return without_relay(hooks, lambda handler: shape.not_adoptable(handler) == "")


def union_matcher(event: str, matchers: list[Any]) -> str | None:
    """Gemini's union (``dialect._matches``, §2.2): on the tool events each matcher as an
    unanchored expression (one that does not compile, which Gemini compares as text, as
    that exact name); on the events matched by exact text, the one value they all name
    (different values: none, every value)."""
    if event not in MATCHED_FIELD:
        return None
    found = distinct(matchers, ("", "*"), strip=True)
    if found is None or len(found) == 1:
        return found[0] if found else None
    if event not in TOOL_EVENTS:
        return None
    return alternation([m if compiles(m) else exactly(m) for m in found])


GEMINI = Shape(RELAY_ARGUMENT, _not_adoptable, _relay_timeout, union_matcher,
               lambda seconds: seconds * 1000)  # fmt: skip

_ACTIONS: dict[AdoptAction, Callable[[_Files, Shape], Plan]] = {
    "adopt": _adopt, "unadopt": _unadopt, "install": _install, "uninstall": _uninstall,
}  # fmt: skip
"""Each action's plan from its files and the agent's shape."""
