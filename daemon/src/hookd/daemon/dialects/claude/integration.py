"""How Claude Code reaches hookd: ``hookd adopt``, the relay entries, the http entry.

    hookd adopt --agent claude --scope user        # my hooks now run through hookd
    hookd unadopt --agent claude --scope user      # and back

``adopt`` moves the command hooks of one of the agent's settings files into the
hookd-owned file of the same layer (``dialect.adopted_path``: read with the agent's
rules, at the same layer), then writes one relay entry per event in their place
(``<this installation's hookd-relay> claude``): the agent runs the relay, the relay's fire
runs only the adopted hooks, so every hook runs exactly once. ``relay install`` writes
the entries again for what is adopted (after you edit the hookd-owned file), ``relay
uninstall`` removes them; ``--http`` writes http entries instead (``http_relay``).

Hooks hookd cannot run for the agent stay where they are, and the plan says why:
``async`` hooks (their answer would come after the relay returned) and handlers other
than ``command`` (``http``, and those that need the agent's own model or MCP connections).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
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
from ...edits import hooks_section as _hooks
from ...edits import read_settings as _read
from ...errors import UserError
from ...model import Dialect
from .. import integration
from ..integration import (
    AdoptAction,
    HttpEntry,
    PlanOptions,
    RelayCall,
    RelayFacts,
    add_group,
    text,
)
from ..relay_entries import RELAY_COMMAND, shell_word
from . import http_relay, rules
from .dialect import adopted_path

DIALECT = Dialect.CLAUDE
ADOPT_SCOPES: Mapping[str, str] = {
    "user": "~/.claude/settings.json",
    "project": "<project>/.claude/settings.json",
    "local": "<project>/.claude/settings.local.json",
}
RELAY = RelayFacts(entry_args=0, event_key="hook_event_name")
HTTP_ENTRY: HttpEntry | None = HttpEntry(target=http_relay.target)
RELAY_ARGUMENT = "claude"
RELAY_MARGIN_S = 10.0
"""How much longer the relay entry may run than the slowest hook it relays."""
ASYNC_REPLY_NOTE = (
    'a moved hook that answers {"async": true} on its first line goes to hookd\'s '
    "background, and its later answer does not reach the agent through the relay (the "
    'audit log says so); give such a hook "async": true in the settings to keep it with '
    "the agent"
)
_FILES = {"user": "settings.json", "project": "settings.json", "local": "settings.local.json"}

relay_entry = integration.no_entry
relay_answer = integration.native_answer
failing_answer = integration.exit_code_failing


def plan(action: AdoptAction, home: str, scope: str, project: str, options: PlanOptions) -> Plan:
    agent_file, owned_file = paths(home, scope, project)
    if options.http is not None:
        return _install_http(agent_file, owned_file, options)
    return _ACTIONS[action](agent_file, owned_file, options.relay)


def relay_roots(call: RelayCall) -> tuple[str, ...]:
    """``hookd-relay claude``: the project is the agent's ``CLAUDE_PROJECT_DIR`` (else the
    event's ``cwd``)."""
    root = call.env.get("CLAUDE_PROJECT_DIR") or text(call.payload.get("cwd")) or call.cwd
    return (os.path.join(call.cwd, root),)


def paths(home: str, scope: str, project: str) -> tuple[str, str]:
    """The agent's settings file of ``scope`` and the hookd-owned file beside it."""
    folder = os.path.join(home if scope == "user" else project, ".claude")
    return os.path.join(folder, _FILES[scope]), adopted_path(home, scope, project)


def _adopt(agent_file: str, owned_file: str, relay: str) -> Plan:
    """Move the agent's command hooks into the hookd-owned file; relay their events."""
    agent, agent_text = _read(agent_file)
    owned, owned_text = _read(owned_file)
    notes: list[str] = []
    kept: dict[str, list[Any]] = {}
    moved = 0
    for event, groups in _hooks(agent, agent_file).items():
        for group in groups:
            stay, take = split_group(group, event, notes, _not_adoptable)
            if take:
                add_group(owned, event, {**group, "hooks": take})
                moved += len(take)
            if stay:
                kept.setdefault(event, []).append({**group, "hooks": stay})
    agent["hooks"] = kept
    notes[:0] = handed_over(moved, agent_file, owned_file, bool(_hooks(owned, owned_file)))
    if moved:
        notes.append(ASYNC_REPLY_NOTE)
    http = http_relay.installed(agent)
    _relay_entries(agent, owned, relay)
    if http is not None:  # the http entries stay http entries
        notes += http_relay.to_http(agent, *http, _command_entry(relay), _is_command_entry)
    writes = {owned_file: (owned_text, dump_settings(owned)),
              agent_file: (agent_text, dump_settings(agent))}  # fmt: skip
    return Plan(writes, notes)


def _unadopt(agent_file: str, owned_file: str, relay: str) -> Plan:
    """Give the adopted hooks back to the agent's file and remove the relay entries."""
    agent, agent_text = _read(agent_file)
    owned, owned_text = _read(owned_file)
    _drop_relay(agent)
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


def _install(agent_file: str, owned_file: str, relay: str) -> Plan:
    """Write the relay entries for the events the hookd-owned file has hooks for."""
    agent, agent_text = _read(agent_file)
    owned, _ = _read(owned_file)
    _relay_entries(agent, owned, relay)
    events = sorted(_hooks(owned, owned_file))
    if not events:
        raise UserError(nothing_adopted(owned_file))
    return Plan({agent_file: (agent_text, dump_settings(agent))}, [f"relaying {', '.join(events)}"])


def _install_http(agent_file: str, owned_file: str, options: PlanOptions) -> Plan:
    """``install --http``: the relay entries as Claude Code http hook entries, which reach
    the daemon's http entry with no process per event (``http_relay``)."""
    assert options.http is not None
    plan = _install(agent_file, owned_file, options.relay)
    agent = json.loads(plan.writes[agent_file][1])
    plan.notes += http_relay.to_http(agent, options.http.port, options.http.on_error,
                                     _command_entry(options.relay), _is_command_entry)  # fmt: skip
    plan.writes[agent_file] = (plan.writes[agent_file][0], dump_settings(agent))
    return plan


def _is_command_entry(handler: Any) -> bool:
    return _not_adoptable(handler) == "" and handler.get("type") == "command"


def relay_command(relay: str) -> str:
    """The relay entry's command line: ``relay`` (this installation's ``hookd-relay`` by
    its absolute path), quoted for the shell Claude Code runs it with."""
    return f"{shell_word(relay)} {RELAY_ARGUMENT}"


def _command_entry(relay: str) -> Any:
    def entry(timeout: float) -> dict[str, Any]:
        return {"type": "command", "command": relay_command(relay), "timeout": timeout}

    return entry


def _uninstall(agent_file: str, owned_file: str, relay: str) -> Plan:
    """Remove the relay entries (adopted hooks then do not run until re-installed)."""
    agent, agent_text = _read(agent_file)
    _drop_relay(agent)
    owned, _ = _read(owned_file)
    notes = []
    if _hooks(owned, owned_file):
        notes.append(not_relayed(owned_file))
    return Plan({agent_file: (agent_text, dump_settings(agent))}, notes)


def _not_adoptable(handler: Any) -> str | None:
    """Why hookd cannot run this handler for the agent ("" for the relay itself)."""
    if not isinstance(handler, dict):
        return "not a handler object"
    if handler.get("type") == "command" and RELAY_COMMAND.search(str(handler.get("command", ""))):
        return ""
    if http_relay.is_entry(handler):
        return ""
    if handler.get("type") != "command":
        return f"a {handler.get('type')!r} handler needs the agent itself"
    if handler.get("async") or handler.get("asyncRewake"):
        return "an async hook answers after the relay has returned"
    return None


def _relay_entries(agent: dict[str, Any], owned: dict[str, Any], relay: str) -> None:
    """One relay entry per event the hookd-owned file has hooks for, none for others."""
    _drop_relay(agent)
    hooks = agent.setdefault("hooks", {})
    entry = _command_entry(relay)
    for event, groups in _hooks(owned, "").items():
        timeouts = [_timeout(event, h) for g in groups for h in g.get("hooks", [])]
        longest = max(timeouts, default=_timeout(event, {}))
        group: dict[str, Any] = {"hooks": [entry(longest + RELAY_MARGIN_S)]}
        matcher = rules.union_matcher(event, [g.get("matcher") for g in groups])
        if matcher is not None:
            group = {"matcher": matcher, **group}
        hooks.setdefault(event, []).append(group)


def _timeout(event: str, handler: dict[str, Any]) -> float:
    value = handler.get("timeout")
    if isinstance(value, int | float) and value > 0:
        return float(value)
    return rules.DEFAULT_TIMEOUT_S.get(event, rules.COMMAND_TIMEOUT_S)


def _drop_relay(settings: dict[str, Any]) -> None:
    if isinstance(settings.get("hooks"), dict):
        settings["hooks"] = without_relay(settings["hooks"], _is_relay)


def _is_relay(handler: Any) -> bool:
    return _not_adoptable(handler) == ""


_ACTIONS: dict[AdoptAction, Callable[[str, str, str], Plan]] = {
    "adopt": _adopt, "unadopt": _unadopt, "install": _install, "uninstall": _uninstall,
}  # fmt: skip
"""Each action's plan from (the agent's file, the hookd-owned file, the relay's path)."""
