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

``adopt`` and ``relay install`` also relay the events the scope's portable hooks use
(``PlanOptions.portable``: the user's file at user scope, the project's in the local
settings file): the same one entry per event, its matcher covering their tools too, its
timeout theirs. The user's and the local file's entries are one command, which Claude
Code runs once per event, so the portable hooks run once (``portable.runs_portable``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ...edits import (
    Plan,
    SettingsFiles,
    dump_settings,
    emptied,
    handed_over,
    not_relayed,
    nothing_adopted,
    split_group,
    without_relay,
    write_or_drop,
)
from ...edits import hooks_section as _hooks
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
from ..portable_needs import Needs
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
    where = places(home, scope, project)
    if options.http is not None:
        return _install_http(where, options)
    plan = _ACTIONS[action](where, options.relay, options.portable)
    if where.relay != where.agent:
        plan.unshared.add(where.relay)
    return plan


@dataclass(frozen=True, slots=True)
class Places:
    """The files of one scope's plan: the agent's file whose hooks move (``agent``), the
    hookd-owned file they move to (``owned``), the agent's file the relay entries go to
    (``relay``), and the hookd-owned files those entries stand for (``feeds``).

    A project's shared ``.claude/settings.json`` gets no relay entry: an entry names this
    machine's ``hookd-relay`` by its absolute path, so the project's and the local scope's
    entries both go to ``.claude/settings.local.json`` (the file Claude Code keeps out of
    the team's repository), one per event either scope adopted."""

    agent: str
    owned: str
    relay: str
    feeds: tuple[str, ...]


def relay_roots(call: RelayCall) -> tuple[str, ...]:
    """``hookd-relay claude``: the project is the agent's ``CLAUDE_PROJECT_DIR`` (else the
    event's ``cwd``)."""
    root = call.env.get("CLAUDE_PROJECT_DIR") or text(call.payload.get("cwd")) or call.cwd
    return (os.path.join(call.cwd, root),)


def paths(home: str, scope: str, project: str) -> tuple[str, str]:
    """The agent's settings file of ``scope`` and the hookd-owned file beside it."""
    folder = os.path.join(home if scope == "user" else project, ".claude")
    return os.path.join(folder, _FILES[scope]), adopted_path(home, scope, project)


def places(home: str, scope: str, project: str) -> Places:
    agent, owned = paths(home, scope, project)
    if scope == "user":
        return Places(agent, owned, agent, (owned,))
    local, local_owned = paths(home, "local", project)
    return Places(agent, owned, local, (adopted_path(home, "project", project), local_owned))


def _adopt(where: Places, relay: str, portable: Needs) -> Plan:
    """Move the agent's command hooks into the hookd-owned file; relay their events (and
    the portable hooks')."""
    files = SettingsFiles()
    agent, owned = files[where.agent], files[where.owned]
    notes: list[str] = []
    kept: dict[str, list[Any]] = {}
    moved = 0
    for event, groups in _hooks(agent, where.agent).items():
        for group in groups:
            stay, take = split_group(group, event, notes, _not_adoptable)
            if take:
                add_group(owned, event, {**group, "hooks": take})
                moved += len(take)
            if stay:
                kept.setdefault(event, []).append({**group, "hooks": stay})
    agent["hooks"] = kept
    notes[:0] = handed_over(moved, where.agent, where.owned, bool(_hooks(owned, where.owned)))
    if moved:
        notes.append(ASYNC_REPLY_NOTE)
    notes += _relayed(files, where, relay, portable)
    return Plan(files.writes(where.owned, where.agent, where.relay), notes)


def _unadopt(where: Places, relay: str, portable: Needs) -> Plan:
    """Give the adopted hooks back to the agent's file and remove their relay entries
    (those of the other scope sharing the relay file stay)."""
    files = SettingsFiles()
    agent, owned = files[where.agent], files[where.owned]
    owned_text = files.text(where.owned)
    returned = 0
    for event, groups in _hooks(owned, where.owned).items():
        for group in groups:
            add_group(agent, event, group)
            returned += len(group.get("hooks", []))
    owned.pop("hooks", None)
    _relayed(files, where, relay, portable)
    plan = Plan(files.writes(where.agent), [f"{returned} hook(s) given back to {where.agent}"])
    _relay_file(plan, files, where)
    emptied(plan, where.owned, owned, owned_text)
    return plan


def _install(where: Places, relay: str, portable: Needs) -> Plan:
    """Write the relay entries for the events the hookd-owned files have hooks for and
    those the portable hooks use."""
    files = SettingsFiles()
    events = sorted({*_hooks(files[where.owned], where.owned), *portable})
    if not events:
        raise UserError(nothing_adopted(where.owned))
    notes = [f"relaying {', '.join(events)}", *_relayed(files, where, relay, portable)]
    return Plan(files.writes(where.agent, where.relay), notes)


def _install_http(where: Places, options: PlanOptions) -> Plan:
    """``install --http``: the relay entries as Claude Code http hook entries, which reach
    the daemon's http entry with no process per event (``http_relay``)."""
    assert options.http is not None
    plan = _install(where, options.relay, options.portable)
    agent = json.loads(plan.writes[where.relay][1])
    plan.notes += http_relay.to_http(agent, options.http.port, options.http.on_error,
                                     _command_entry(options.relay), _is_command_entry)  # fmt: skip
    plan.writes[where.relay] = (plan.writes[where.relay][0], dump_settings(agent))
    if where.relay != where.agent:
        plan.unshared.add(where.relay)
    return plan


def _uninstall(where: Places, relay: str, portable: Needs) -> Plan:
    """Remove the relay entries of the scope's hooks (adopted hooks then do not run until
    re-installed; those of the other scope sharing the relay file stay)."""
    files = SettingsFiles()
    _relayed(files, where, relay, portable, without=where.owned)
    plan = Plan(files.writes(where.agent))
    _relay_file(plan, files, where)
    if _hooks(files[where.owned], where.owned):
        plan.notes.append(not_relayed(where.owned))
    return plan


def _relayed(
    files: SettingsFiles, where: Places, relay: str, portable: Needs, without: str = ""
) -> list[str]:
    """Rewrite the relay entries: none left in the agent's file where they do not belong
    (a project's shared file, from before they moved), one per event of the hookd-owned
    files they stand for (less ``without``) and of the ``portable`` hooks in the relay
    file, http entries where http entries were; returns what it says of the http entries."""
    target = files[where.relay]
    http = http_relay.installed(target) or http_relay.installed(files[where.agent])
    _drop_relay(files[where.agent])
    feeds = [files[owned] for owned in where.feeds if owned != without]
    _relay_entries(target, feeds, relay, portable)
    if http is None or not (portable or any(_hooks(owned, "") for owned in feeds)):
        return []
    return http_relay.to_http(target, *http, _command_entry(relay), _is_command_entry)


def _relay_file(plan: Plan, files: SettingsFiles, where: Places) -> None:
    """The relay file after its entries were taken out, when it is not the agent's file:
    written, or removed when hookd made it and nothing is left in it."""
    if where.relay != where.agent:
        write_or_drop(plan, where.relay, files.text(where.relay), files[where.relay])


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


def _relay_entries(
    agent: dict[str, Any], feeds: list[dict[str, Any]], relay: str, portable: Needs
) -> None:
    """One relay entry per event the hookd-owned files or the portable hooks have hooks
    for, none for others; its matcher matches whatever the adopted groups' matchers and
    the portable hooks' tools match, its timeout covers theirs."""
    _drop_relay(agent)
    hooks = agent.setdefault("hooks", {})
    entry = _command_entry(relay)
    adopted: dict[str, list[dict[str, Any]]] = {}
    for owned in feeds:
        for event, groups in _hooks(owned, "").items():
            adopted.setdefault(event, []).extend(groups)
    for event, need in sorted(portable.items()):
        matcher = "|".join(sorted(need.tools)) if need.tools is not None else None
        handler = {"timeout": need.timeout_s}
        adopted.setdefault(event, []).append({"matcher": matcher, "hooks": [handler]})
    for event, groups in adopted.items():
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


_ACTIONS: dict[AdoptAction, Callable[[Places, str, Needs], Plan]] = {
    "adopt": _adopt, "unadopt": _unadopt, "install": _install, "uninstall": _uninstall,
}  # fmt: skip
"""Each action's plan from the scope's files, the relay's path and the portable hooks'
needs (read by adopt and install)."""
