"""How auggie (0.36.0) reaches hookd: ``hookd adopt``, its relay entries, and what a
relayed event fires and answers.

auggie merges the groups of every settings file by matcher, runs a command with the same
``args`` once per matcher, and builds one payload per event with the OR of the matched
groups' ``metadata`` flags. ``adopt`` moves the command hooks of one settings file into
the hookd-owned file of the same layer (``augment.sources``: read the same way, in the
same place of the order) and writes, per event and per matcher of the adopted groups,
one relay group with that matcher and those groups' flags:

    {"matcher": "launch-process", "hooks": [{"type": "command",
      "command": "/home/me/.venv/bin/hookd-relay", "args": ["augment", "launch-process"],
      "timeout": 70000}]}

The command is this installation's relay by its absolute path (``PlanOptions.relay``); with
``args`` auggie runs it without a shell, so it needs no quoting.

auggie runs it once whenever that matcher matches (the same relay group in two files is
one hook to it) and hands it the payload its own groups would have had; the relay's fire
runs the adopted hooks of that matcher. A file of Cursor-style keys, and an event auggie
ignores in a file (a handler that is not a command, an invalid matcher), stay as written.

The portable hooks (``PlanOptions.portable``) run on a relay fire only from the relay
group of matcher ``.*`` or from one naming no matcher (``augment.portable.runs_portable``:
auggie runs one relay group per matcher that matches, the same group in several files
once), so ``install`` and ``adopt`` add, per tool event they use, the ``.*`` group (args
``["augment", ".*"]``: it relays every tool call, since a narrower matcher in each scope's
file would be two groups to auggie and run them twice), and per other event the unmatched
group; each shared with the adopted hooks' group of that matcher, its timeout covering
both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ...edits import (
    Plan,
    SettingsFiles,
    emptied,
    handed_over,
    not_relayed,
    nothing_adopted,
    without_relay,
    write_or_drop,
)
from ...edits import hooks_section as _hooks
from ...errors import UserError
from ...model import Dialect, Source
from .. import integration, relay_entries
from ..integration import (
    AdoptAction,
    HttpEntry,
    PlanOptions,
    RelayCall,
    RelayFacts,
    listed_roots,
)
from ..portable_needs import Needs
from . import dialect as augment

DIALECT = Dialect.AUGMENT
ADOPT_SCOPES: Mapping[str, str] = {
    "user": "~/.augment/settings.json",
    "project": "<project>/.augment/settings.json",
    "local": "<project>/.augment/settings.local.json",
}
RELAY = RelayFacts(entry_args=1, event_key="hook_event_name")
HTTP_ENTRY: HttpEntry | None = None
SCOPES = {"user": "user", "project": "workspace", "local": "workspace-local"}
"""``--scope`` -> the layer of the settings file it names."""
RELAY_MARGIN_MS = 10_000
"""How much longer a relay entry may run than the slowest hook it relays."""


relay_answer = integration.native_answer
failing_answer = integration.exit_code_failing


def plan(action: AdoptAction, home: str, scope: str, project: str, options: PlanOptions) -> Plan:
    where = places(home, scope, project)
    needs = options.portable if action in ("adopt", "install") else {}
    plan = _ACTIONS[action](where, options.relay, needs)
    if where.relay != where.agent:
        plan.unshared.add(where.relay)
    return plan


@dataclass(frozen=True, slots=True)
class Places:
    """The files of one scope's plan: auggie's file whose hooks move (``agent``), the
    hookd-owned file they move to (``owned``), auggie's file the relay groups go to
    (``relay``), and the hookd-owned files those groups stand for (``feeds``). A
    project's relay groups name this machine's ``hookd-relay``, so they go to
    ``.augment/settings.local.json`` ("personal project overrides, not committed to
    source control", ``augment-hooks.md``) with the local scope's, never to the shared
    ``settings.json``."""

    agent: str
    owned: str
    relay: str
    feeds: tuple[str, ...]


def places(home: str, scope: str, project: str) -> Places:
    agent, owned = paths(home, scope, project)
    if scope == "user":
        return Places(agent, owned, agent, (owned,))
    local, local_owned = paths(home, "local", project)
    return Places(agent, owned, local, (paths(home, "project", project)[1], local_owned))


def relay_roots(call: RelayCall) -> tuple[str, ...]:
    """The payload's ``workspace_roots`` (else ``AUGMENT_PROJECT_DIR``)."""
    return listed_roots(call, "workspace_roots", "AUGMENT_PROJECT_DIR")


def relay_entry(call: RelayCall) -> str | None:
    """``hookd-relay augment [MATCHER]``: a relay group names its matcher."""
    return call.args[0] if call.args else None


def paths(home: str, scope: str, project: str) -> tuple[str, str]:
    """auggie's settings file of ``scope`` and the hookd-owned file beside it."""
    layer = SCOPES[scope]
    found: dict[bool, Source] = {
        source.adopted: source
        for source in augment.sources(home, "/", [project])
        if source.layer == layer
    }
    return found[False].path, found[True].path


def _adopt(where: Places, relay: str, needs: Needs) -> Plan:
    """Move the file's command hooks into the hookd-owned file; relay their matchers."""
    files = SettingsFiles()
    agent, owned = files[where.agent], files[where.owned]
    hooks = _hooks(agent, where.agent)
    notes: list[str] = []
    cursor = [key for key in hooks if key in augment.CURSOR_EVENTS]
    if cursor:
        notes.append(f"{where.agent} uses Cursor-style keys ({', '.join(cursor)}): auggie reads "
                     "such a file only as a whole, so it stays with the agent")  # fmt: skip
        return Plan(notes=notes)
    kept: dict[str, Any] = {}
    moved = 0
    for event, groups in hooks.items():
        why = _not_adoptable(where.agent, event, groups)
        if why:
            notes.append(f"{event} stays with the agent: {why}")
            kept[event] = groups
            continue
        for group in groups:
            take = [h for h in group.get("hooks", []) if not _is_relay(h)]
            if take:
                owned.setdefault("hooks", {}).setdefault(event, []).append({**group, "hooks": take})
                moved += len(take)
    agent["hooks"] = kept
    _relayed(files, where, relay, needs=needs)
    notes[:0] = handed_over(moved, where.agent, where.owned, bool(_hooks(owned, where.owned)))
    return Plan(files.writes(where.owned, where.agent, where.relay), notes)


def _unadopt(where: Places, relay: str, needs: Needs) -> Plan:
    """Give the adopted groups back to the agent's file and remove their relay groups
    (those of the other scope sharing the relay file stay)."""
    files = SettingsFiles()
    agent, owned = files[where.agent], files[where.owned]
    owned_text = files.text(where.owned)
    hooks = _without_relay(_hooks(agent, where.agent))
    returned = 0
    for event, groups in _hooks(owned, where.owned).items():
        hooks.setdefault(event, []).extend(groups)
        returned += sum(len(g.get("hooks", [])) for g in groups)
    agent["hooks"] = hooks
    owned.pop("hooks", None)
    _relayed(files, where, relay)
    plan = Plan(writes=files.writes(where.agent),
                notes=[f"{returned} hook(s) given back to {where.agent}"])  # fmt: skip
    _relay_file(plan, files, where)
    emptied(plan, where.owned, owned, owned_text)
    return plan


def _install(where: Places, relay: str, needs: Needs) -> Plan:
    """Write the relay groups for what the hookd-owned files hold and the portable hooks
    use."""
    files = SettingsFiles()
    adopted = sorted(_hooks(files[where.owned], where.owned))
    if not adopted and not needs:
        raise UserError(nothing_adopted(where.owned))
    _relayed(files, where, relay, needs=needs)
    notes = [f"relaying {', '.join(adopted)}"] if adopted else []
    if needs:
        notes.append(f"relaying {', '.join(sorted(needs))} for the portable hooks")
    return Plan(writes=files.writes(where.agent, where.relay), notes=notes)


def _uninstall(where: Places, relay: str, needs: Needs) -> Plan:
    """Remove the scope's relay groups (the adopted hooks then do not run until
    re-installed)."""
    files = SettingsFiles()
    _relayed(files, where, relay, without=where.owned)
    plan = Plan(writes=files.writes(where.agent))
    _relay_file(plan, files, where)
    if _hooks(files[where.owned], where.owned):
        plan.notes.append(not_relayed(where.owned))
    return plan


def _relayed(
    files: SettingsFiles, where: Places, relay: str, without: str = "", needs: Needs | None = None
) -> None:
    """No relay group left in the agent's file where none belongs (a project's shared
    file, from before they moved); in the relay file, the groups of the hookd-owned
    files they stand for (less ``without``) and those the portable hooks need."""
    for path in dict.fromkeys((where.agent, where.relay)):
        settings = files[path]
        settings["hooks"] = _without_relay(_hooks(settings, path))
    adopted: dict[str, list[dict[str, Any]]] = {}
    for owned in where.feeds:
        if owned != without:
            for event, groups in _hooks(files[owned], owned).items():
                adopted.setdefault(event, []).extend(groups)
    target = files[where.relay]
    for event, groups in _relay_groups(adopted, relay).items():
        target["hooks"].setdefault(event, []).extend(groups)
    for event, need in sorted((needs or {}).items()):
        _portable_group(target["hooks"].setdefault(event, []), event, need.timeout_s, relay)


def _portable_group(groups: list[dict[str, Any]], event: str, timeout_s: float, relay: str) -> None:
    """The relay group the portable hooks of ``event`` run from (``.*`` for a tool event,
    the unmatched group for the others): the adopted hooks' one when there is one, its
    timeout covering theirs plus the margin; else a new one."""
    tool_event = event in augment.TOOL_EVENTS
    key = ".*" if tool_event else ""
    timeout = round(timeout_s * 1000) + RELAY_MARGIN_MS
    for group in groups:
        handler = (group.get("hooks") or [None])[0]
        if _is_relay(handler) and str(group.get("matcher", "")) == key:
            handler["timeout"] = max(int(handler.get("timeout") or 0), timeout)
            return
    args = ["augment", key] if tool_event else ["augment"]
    handler = {"type": "command", "command": relay, "args": args, "timeout": timeout}
    groups.append({"matcher": key, "hooks": [handler]} if tool_event else {"hooks": [handler]})


def _relay_file(plan: Plan, files: SettingsFiles, where: Places) -> None:
    """The relay file, when it is not the agent's file: written, or removed when hookd
    made it and nothing is left in it."""
    if where.relay != where.agent:
        write_or_drop(plan, where.relay, files.text(where.relay), files[where.relay])


def _not_adoptable(path: str, event: str, groups: list[dict[str, Any]]) -> str | None:
    """Why hookd leaves an event of the file with the agent (auggie's reading of it)."""
    if event not in augment.EVENTS:
        return "auggie fires no such event"
    problem = augment.event_problem(event, groups)
    return f"auggie ignores it in {path} ({problem})" if problem else None


def _relay_groups(
    hooks: dict[str, list[dict[str, Any]]], relay: str
) -> dict[str, list[dict[str, Any]]]:
    """Per event, one relay group per matcher of the adopted groups (in their order),
    with the OR of those groups' metadata flags and the slowest hook's timeout plus a
    margin."""
    found: dict[str, list[dict[str, Any]]] = {}
    for event, groups in hooks.items():
        tool_event = event in augment.TOOL_EVENTS
        by_matcher: dict[str, list[dict[str, Any]]] = {}
        for group in groups:
            key = str(group.get("matcher", ".*")) if tool_event else ""
            by_matcher.setdefault(key, []).append(group)
        for key, same in by_matcher.items():
            flags = sorted({f for g in same for f, on in (g.get("metadata") or {}).items() if on})
            timeouts = [h.get("timeout") or augment.DEFAULT_TIMEOUT_MS
                        for g in same for h in g.get("hooks", [])]  # fmt: skip
            handler = {
                "type": "command", "command": relay,
                "args": ["augment", key] if tool_event else ["augment"],
                "timeout": max(timeouts, default=augment.DEFAULT_TIMEOUT_MS) + RELAY_MARGIN_MS,
            }  # fmt: skip
            entry: dict[str, Any] = {"matcher": key} if tool_event else {}
            if flags:
                entry["metadata"] = dict.fromkeys(flags, True)
            found.setdefault(event, []).append({**entry, "hooks": [handler]})
    return found


def _without_relay(hooks: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    return without_relay(hooks, _is_relay)


def _is_relay(handler: Any) -> bool:
    return isinstance(handler, dict) and relay_entries.is_relay_command(
        str(handler.get("command", ""))
    )


_ACTIONS: dict[AdoptAction, Callable[[Places, str, Needs], Plan]] = {
    "adopt": _adopt, "unadopt": _unadopt, "install": _install, "uninstall": _uninstall,
}  # fmt: skip
"""Each action's plan from the scope's files, the relay's path and the portable needs."""
