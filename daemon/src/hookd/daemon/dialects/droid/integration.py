"""How Factory Droid reaches hookd: ``hookd adopt`` and the relay entries.

    hookd adopt --agent droid --scope user       # ~/.factory's hooks now run through hookd
    hookd unadopt --agent droid --scope project  # and back

A ``.factory`` folder holds hooks in two files; per event the agent reads the list of
``hooks.json`` when it names the event, else ``settings.json``'s (``config``). ``adopt``
moves each event's hooks from the file the agent reads them from into the hookd-owned
file of the layer (``dialect.adopted_path``) and leaves one relay entry in their place
(``<hookd-relay> droid <the .factory folder>``), so every hook runs once; a list the
agent never reads (replaced by ``hooks.json``) stays as it is, and so does an event name
``hooks.json`` gives (even with an empty list), which keeps replacing. A handler with
``preserveRiskLevel`` stays with the agent: the relay entry cannot say it for one hook.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from typing import Any

from hookd.protocol import FireResult

from ...edits import Plan, dump_settings, emptied, handed_over, not_relayed, nothing_adopted
from ...edits import read_settings as _read
from ...errors import UserError
from ...model import Dialect, FireRequest
from ..codex import integration as codex_integration
from ..integration import AdoptAction, HttpEntry, PlanOptions, RelayAnswer, RelayCall, RelayFacts
from ..matcher_union import alternation, compiles, distinct, exactly
from ..relay_entries import RELAY_COMMAND, shell_word
from . import config
from . import events as ev
from .dialect import adopted_path

DIALECT = Dialect.DROID
ADOPT_SCOPES: Mapping[str, str] = {
    "user": "~/.factory/settings.json and hooks.json",
    "project": "<project>/.factory/settings.json and hooks.json",
}
RELAY = RelayFacts(entry_args=1, event_key="hook_event_name")
HTTP_ENTRY: HttpEntry | None = None
RELAY_ARGUMENT = "droid"
RELAY_MARGIN_S = 10.0
"""How much longer the relay entry may run than the slowest hook it relays."""

relay_roots = codex_integration.relay_roots
"""The project of the session's folder: the nearest folder holding ``.git``, else the
folder itself (Droid's project rule is Codex's)."""


def relay_entry(call: RelayCall) -> str | None:
    """``hookd-relay droid <.factory folder>``: the folder the entry stands for."""
    return os.path.normpath(os.path.join(call.cwd, call.args[0])) if call.args else None


def relay_answer(request: FireRequest, result: FireResult) -> RelayAnswer:
    """One Droid hook's answer: the combined answer as JSON on stdout (read on every exit
    code); exit 1 with the PreToolUse warning on stderr (put before the tool's result),
    exit 2 with the PostToolUse feedback (``[Hook Feedback] ...``) or a skipped
    compaction's reason."""
    native = result["native"]
    stdout = json.dumps(native, ensure_ascii=False) if native else ""
    event = request.event
    if event == "PreToolUse" and result["context"] and result["action"] == "proceed":
        return RelayAnswer(stdout, result["context"], 1)
    if event == "PostToolUse" and result["reason"] and result["action"] == "proceed":
        return RelayAnswer(stdout, result["reason"], 2)
    if event == "PreCompact" and result["blocked"]:
        return RelayAnswer(stdout, result["reason"] or "", 2)
    return RelayAnswer(stdout, "", 0)


def failing_answer(message: str, block: bool) -> RelayAnswer:
    """Exit 1 with the message: a failing hook (before a tool's result the model sees it,
    elsewhere the agent logs it). Blocking adds a deny on stdout, which Droid reads on
    any exit code: a tool call is not run; a prompt, a stop or a compaction go on (exit 2
    would make a blocked stop go on forever)."""
    if block:
        deny = {"hookSpecificOutput": {"permissionDecision": "deny",
                                       "permissionDecisionReason": message}}  # fmt: skip
        return RelayAnswer(json.dumps(deny), message + "\n", 1)
    return RelayAnswer("", message + "\n", 1)


def plan(action: AdoptAction, home: str, scope: str, project: str, options: PlanOptions) -> Plan:
    folder = os.path.join(home if scope == "user" else project, ".factory")
    owned = adopted_path(home, scope, None if scope == "user" else project)
    return _ACTIONS[action](folder, owned, options)


class _Folder:
    """A ``.factory`` folder's two hook files, read for editing."""

    def __init__(self, folder: str) -> None:
        self.settings_path = os.path.join(folder, config.SETTINGS_FILE)
        self.flat_path = os.path.join(folder, config.HOOKS_FILE)
        self.settings, self.settings_text = _read(self.settings_path)
        self.flat, self.flat_text = _read(self.flat_path)
        hooks = self.settings.get("hooks")
        if hooks is not None and not isinstance(hooks, dict):
            raise UserError(f'{self.settings_path}: "hooks" is not an object; fix it first')
        self.by_settings: dict[str, Any] = hooks if isinstance(hooks, dict) else {}
        self.flat_events = [e for e in self.flat if e not in ev.NOT_EVENTS]

    def events(self) -> dict[str, Any]:
        """Each event's list in the file the agent reads it from."""
        found = {e: g for e, g in self.by_settings.items() if e not in ev.NOT_EVENTS}
        found.update({e: self.flat[e] for e in self.flat_events})
        for event, groups in found.items():
            if not isinstance(groups, list):
                raise UserError(f"{event}: not a list of matcher groups; fix it first")
        return found

    def home_of(self, event: str) -> dict[str, Any]:
        """The event map that holds ``event``'s list the agent reads."""
        flat_exists = self.flat_text is not None
        if event in self.flat_events or (flat_exists and event not in self.by_settings):
            return self.flat
        self.settings["hooks"] = self.by_settings
        return self.by_settings

    def writes(self) -> dict[str, tuple[str | None, str]]:
        found = {self.settings_path: (self.settings_text, dump_settings(self.settings))}
        if self.flat_text is not None:
            found[self.flat_path] = (self.flat_text, json.dumps(self.flat, indent=2) + "\n")
        return found


def _adopt(folder: str, owned_file: str, options: PlanOptions) -> Plan:
    """Move each event's handlers (all but the relay's and ``preserveRiskLevel`` ones)
    into the hookd-owned file; relay the events it then holds."""
    place = _Folder(folder)
    owned, owned_text = _read(owned_file)
    owned_hooks = owned.setdefault("hooks", {})
    adopted_before = bool(owned_hooks)
    notes: list[str] = []
    moved = 0
    for event, groups in place.events().items():
        kept = []
        for group in groups:
            if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
                kept.append(group)
                continue
            stay: list[Any] = []
            take: list[Any] = []
            for handler in group["hooks"]:
                why = _not_adoptable(handler)
                (take if why is None else stay).append(handler)
                if why:
                    notes.append(f"{event}: {handler.get('command')!r} stays with the agent: {why}")
            if take:
                owned_hooks.setdefault(event, []).append({**group, "hooks": take})
                moved += len(take)
            if stay:
                kept.append({**group, "hooks": stay})
        place.home_of(event)[event] = kept
    notes[:0] = handed_over(moved, folder, owned_file, adopted_before)
    _relay_entries(place, folder, owned_hooks, options)
    writes = {owned_file: (owned_text, dump_settings(owned)), **place.writes()}
    return Plan(writes, notes)


def _unadopt(folder: str, owned_file: str, options: PlanOptions) -> Plan:
    """Give the adopted hooks back (each event to the file the agent reads it from) and
    remove the relay entries."""
    place = _Folder(folder)
    _drop_relay(place)
    owned, owned_text = _read(owned_file)
    returned = 0
    for event, groups in _owned_hooks(owned, owned_file).items():
        events = place.home_of(event)
        events[event] = [*events.get(event, []), *groups]
        returned += sum(len(g.get("hooks", [])) for g in groups if isinstance(g, dict))
    owned.pop("hooks", None)
    plan = Plan(place.writes(), [f"{returned} hook(s) given back to {folder}"])
    emptied(plan, owned_file, owned, owned_text)
    return plan


def _install(folder: str, owned_file: str, options: PlanOptions) -> Plan:
    """The relay entries for the events of the adopted hooks and of the portable hooks of
    the scope."""
    place = _Folder(folder)
    owned, _ = _read(owned_file)
    hooks = _owned_hooks(owned, owned_file)
    if not hooks and not options.portable:
        raise UserError(nothing_adopted(owned_file))
    _relay_entries(place, folder, hooks, options)
    return Plan(place.writes(), [f"relaying {', '.join(sorted({*hooks, *options.portable}))}"])


def _uninstall(folder: str, owned_file: str, options: PlanOptions) -> Plan:
    place = _Folder(folder)
    _drop_relay(place)
    owned, _ = _read(owned_file)
    notes = [not_relayed(owned_file)] if _owned_hooks(owned, owned_file) else []
    return Plan(place.writes(), notes)


def _owned_hooks(owned: dict[str, Any], path: str) -> dict[str, list[Any]]:
    hooks = owned.get("hooks", {})
    if not isinstance(hooks, dict):
        raise UserError(f'{path}: "hooks" is not an object')
    return {e: g for e, g in hooks.items() if isinstance(g, list) and g}


def relay_command(relay: str, folder: str) -> str:
    """The relay entry's command line, quoted for ``sh -c``."""
    return f"{shell_word(relay)} {RELAY_ARGUMENT} {shell_word(folder)}"


def _relay_entries(
    place: _Folder, folder: str, owned: Mapping[str, Any], options: PlanOptions
) -> None:
    """One relay entry per event the hookd-owned file has hooks for or the portable hooks
    of the scope use (``options.portable``), at the end of the list the agent reads for
    that event."""
    _drop_relay(place)
    for event in dict.fromkeys([*owned, *options.portable]):
        adopted = [g for g in owned.get(event) or [] if isinstance(g, dict)]
        need = options.portable.get(event)
        if not adopted and need is None:
            continue
        timeouts = [_timeout(h) for g in adopted for h in g.get("hooks", [])]
        matchers = [g.get("matcher") for g in adopted]
        regexes = [g.get("commandRegex") for g in adopted]
        if need is not None:
            timeouts.append(need.timeout_s)
            matchers += portable_matchers(need.tools)
            regexes.append(None)  # the portable hooks run on every command
        longest = max(timeouts, default=ev.DEFAULT_TIMEOUT_S)
        entry = {"type": "command", "command": relay_command(options.relay, folder),
                 "timeout": longest + RELAY_MARGIN_S}  # fmt: skip
        group: dict[str, Any] = {"hooks": [entry]}
        regex = union_command_regex(regexes)
        if regex is not None:
            group = {"commandRegex": regex, **group}
        matcher = union_matcher(event, matchers)
        if matcher is not None:
            group = {"matcher": matcher, **group}
        events = place.home_of(event)
        events[event] = [*events.get(event, []), group]


def union_matcher(event: str, matchers: list[Any]) -> str | None:
    """A relay entry's matcher for an event's adopted groups (``dialect._applies``; None:
    no matcher): each matcher as the unanchored expression Droid tests, and as its exact
    name where the expression would miss it (Droid compares the name first)."""
    if event not in ev.MATCHER_FIELD:
        return None
    found = distinct(matchers, ("", "*"))
    if found is None or len(found) == 1:
        return found[0] if found else None
    pieces = [m for m in found if compiles(m)]
    pieces += [exactly(m) for m in found if not compiles(m) or re.search(m, m) is None]
    return alternation(pieces)


def portable_matchers(tools: frozenset[str] | None) -> list[str | None]:
    """The portable hooks' tools as matchers ``union_matcher`` joins: each name (a name
    with characters a regular expression reads otherwise, such as an MCP tool's dot,
    exactly); ``[None]`` (every tool) for an event without named tools."""
    if tools is None:
        return [None]
    return [t if re.escape(t) == t else exactly(t) for t in sorted(tools)]


def union_command_regex(regexes: list[Any]) -> str | None:
    """A relay entry's ``commandRegex`` for the adopted groups: only when every group has
    one (a group without matches any command), each as a group of one alternation (one
    that does not compile never matches in Droid, and adds nothing)."""
    found = distinct((r or None for r in regexes), ())
    usable = [r for r in found or () if compiles(r)]
    return alternation(usable) if found is not None and usable else None


def _timeout(handler: Any) -> float:
    value = handler.get("timeout") if isinstance(handler, dict) else None
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return float(value)
    return ev.DEFAULT_TIMEOUT_S


def _drop_relay(place: _Folder) -> None:
    """The relay entries out of both files; an event's key stays (in ``hooks.json`` an
    event named with an empty list still replaces ``settings.json``'s)."""
    for events in (place.by_settings, place.flat):
        for event in [e for e in events if e not in ev.NOT_EVENTS]:
            groups = events[event]
            if not isinstance(groups, list):
                continue
            left = []
            for group in groups:
                if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                    handlers = [h for h in group["hooks"] if _not_adoptable(h) != ""]
                    if handlers:
                        left.append({**group, "hooks": handlers})
                    continue
                left.append(group)
            events[event] = left


def _not_adoptable(handler: Any) -> str | None:
    """Why hookd cannot run this handler for the agent ("" for the relay itself)."""
    if not isinstance(handler, dict):
        return "not a handler object"
    command = handler.get("command")
    if handler.get("type") == "command" and RELAY_COMMAND.search(str(command or "")):
        return ""
    if handler.get("type") != "command" or not isinstance(command, str):
        return "Droid reads no such handler (only command handlers)"
    if handler.get("preserveRiskLevel") is True:
        return ("preserveRiskLevel applies to the handler the agent runs, and the relay "
                "entry answers for every adopted hook")  # fmt: skip
    return None


_ACTIONS: dict[AdoptAction, Callable[[str, str, PlanOptions], Plan]] = {
    "adopt": _adopt, "unadopt": _unadopt, "install": _install, "uninstall": _uninstall,
}  # fmt: skip
"""Each action's plan from (the agent's folder, the hookd-owned file, the command line's
options)."""
