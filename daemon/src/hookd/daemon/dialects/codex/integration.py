"""How Codex CLI reaches hookd: ``hookd adopt --agent codex``, its relay entries, its review.

    hookd adopt --agent codex --scope user        # ~/.codex/hooks.json (CODEX_HOME moves it)
    hookd adopt --agent codex --scope project     # <project>/.codex/hooks.json

``adopt`` moves the command hooks of the scope's ``hooks.json`` into the hookd-owned file
of the same layer (``dialect.adopted_path``: read with Codex's rules at the same place),
then writes one relay entry per event in their place (``<this installation's
hookd-relay> codex``), and pins each relay entry as reviewed in the user's
``config.toml`` (``review``): Codex runs a hook of a user's or a project's files only
once it is reviewed, and skips it in silence before. Hooks hookd cannot run for the agent
stay where they are, and the plan says why: ``async`` hooks (their answer comes after the
relay returned), ``mcp_tool`` handlers (Codex's MCP connections), handlers Codex itself
skips; the ``[hooks]`` of ``config.toml`` stay too (move them to ``hooks.json`` to hand
them over).
"""

from __future__ import annotations

import json
import math
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
    RelayAnswer,
    RelayCall,
    RelayFacts,
    add_group,
    text,
)
from ..matcher_union import alternation, distinct, exactly
from ..relay_entries import RELAY_COMMAND, shell_word
from . import review
from .config import CONFIG_FILE, EXACT_MATCHER, HOOKS_FILE, valid_matcher
from .dialect import adopted_path
from .events import DEFAULT_TIMEOUT_S, MATCHED_FIELD, SHORT_CAP_S, SHORT_EVENTS

DIALECT = Dialect.CODEX
ADOPT_SCOPES: Mapping[str, str] = {
    "user": "~/.codex/hooks.json ($CODEX_HOME/hooks.json)",
    "project": "<project>/.codex/hooks.json",
}
RELAY = RelayFacts(entry_args=1, event_key="hook_event_name")
"""An entry names its own ``hooks.json``: Codex runs the relay entry of every file (it
never merges identical hooks), and each must run only the hooks adopted from its file."""
HTTP_ENTRY: HttpEntry | None = None
RELAY_ARGUMENT = "codex"
RELAY_MARGIN_S = 10
"""How much longer the relay entry may run than the slowest hook it relays."""
relay_answer = integration.native_answer


def failing_answer(message: str, block: bool) -> RelayAnswer:
    """Blocking: exit 2 with the line on stderr (Codex blocks a tool, a prompt or a stop
    with it). Letting the action go on: the line as a ``systemMessage``, which Codex shows
    the user as a warning (a plain failing hook would show only ``hook exited with code
    1``)."""
    if block:
        return RelayAnswer("", message + "\n", 2)
    return RelayAnswer(json.dumps({"systemMessage": message}), message + "\n", 0)


def relay_entry(call: RelayCall) -> str | None:
    """``hookd-relay codex <hooks.json>``: the file the entry stands for (older entries
    name none: every adopted hook)."""
    return os.path.normpath(os.path.join(call.cwd, call.args[0])) if call.args else None


def relay_roots(call: RelayCall) -> tuple[str, ...]:
    """The project of the session's folder (the event's ``cwd``): the nearest folder
    holding ``.git``, as Codex finds its project, else the folder itself."""
    cwd = os.path.join(call.cwd, text(call.payload.get("cwd")) or call.cwd)
    folder = os.path.normpath(cwd)
    while True:
        if os.path.lexists(os.path.join(folder, ".git")):
            return (folder,)
        parent = os.path.dirname(folder)
        if parent == folder:
            return (os.path.normpath(cwd),)
        folder = parent


def plan(action: AdoptAction, home: str, scope: str, project: str, options: PlanOptions) -> Plan:
    user_folder = _user_folder(home, options.environ)
    folder = user_folder if scope == "user" else os.path.join(project, ".codex")
    agent_file = os.path.join(folder, HOOKS_FILE)
    owned_file = adopted_path(home, None if scope == "user" else project)
    config_file = os.path.join(user_folder, CONFIG_FILE)
    return _ACTIONS[action](agent_file, owned_file, config_file, options)


def _user_folder(home: str, environ: Mapping[str, str]) -> str:
    """``$CODEX_HOME`` when it names a folder path, else ``~/.codex``."""
    moved = environ.get("CODEX_HOME", "").strip()
    return moved if os.path.isabs(moved) else os.path.join(home, ".codex")


def _adopt(agent_file: str, owned_file: str, config_file: str, options: PlanOptions) -> Plan:
    """Move the file's command hooks into the hookd-owned file; relay their events."""
    agent, agent_text = _read(agent_file)
    owned, owned_text = _read(owned_file)
    notes: list[str] = []
    kept: dict[str, list[Any]] = {}
    moved = 0
    for event, groups in _hooks(agent, agent_file).items():
        for group in groups:
            stay, take = split_group(group, event, notes, _not_adoptable)
            if take:
                owned.setdefault("hooks", {}).setdefault(event, []).append({**group, "hooks": take})
                moved += len(take)
            if stay:
                kept.setdefault(event, []).append({**group, "hooks": stay})
    agent["hooks"] = _without_relay(kept)
    notes[:0] = handed_over(moved, agent_file, owned_file, bool(_hooks(owned, owned_file)))
    plan = _relayed(agent, agent_file, agent_text, owned, config_file, options, notes)
    plan.writes[owned_file] = (owned_text, dump_settings(owned))
    _toml_hooks_note(config_file, agent_file, plan)
    return plan


def _unadopt(agent_file: str, owned_file: str, config_file: str, options: PlanOptions) -> Plan:
    """Give the adopted hooks back to the agent's file; take out the relay entries and
    their review."""
    agent, agent_text = _read(agent_file)
    owned, owned_text = _read(owned_file)
    agent["hooks"] = _without_relay(_hooks(agent, agent_file))
    returned = 0
    for event, groups in _hooks(owned, owned_file).items():
        for group in groups:
            add_group(agent, event, group)
            returned += len(group.get("hooks", []))
    owned.pop("hooks", None)
    plan = Plan({agent_file: (agent_text, dump_settings(agent))},
                [f"{returned} hook(s) given back to {agent_file}"])  # fmt: skip
    _unpinned(config_file, agent_file, plan)
    emptied(plan, owned_file, owned, owned_text)
    return plan


def _install(agent_file: str, owned_file: str, config_file: str, options: PlanOptions) -> Plan:
    """Write the relay entries (and their review) for the events hookd holds hooks for
    and the events the portable hooks of the scope use."""
    agent, agent_text = _read(agent_file)
    owned, _ = _read(owned_file)
    adopted = _hooks(owned, owned_file)
    if not adopted and not options.portable:
        raise UserError(nothing_adopted(owned_file))
    agent["hooks"] = _without_relay(_hooks(agent, agent_file))
    notes = [f"relaying {', '.join(sorted({*adopted, *options.portable}))}"]
    return _relayed(agent, agent_file, agent_text, owned, config_file, options, notes)


def _uninstall(agent_file: str, owned_file: str, config_file: str, options: PlanOptions) -> Plan:
    """Remove the relay entries and their review (adopted hooks then do not run)."""
    agent, agent_text = _read(agent_file)
    agent["hooks"] = _without_relay(_hooks(agent, agent_file))
    owned, _ = _read(owned_file)
    notes = []
    if _hooks(owned, owned_file):
        notes.append(not_relayed(owned_file))
    plan = Plan({agent_file: (agent_text, dump_settings(agent))}, notes)
    _unpinned(config_file, agent_file, plan)
    return plan


def _relayed(
    agent: dict[str, Any],
    agent_file: str,
    agent_text: str | None,
    owned: dict[str, Any],
    config_file: str,
    options: PlanOptions,
    notes: list[str],
) -> Plan:
    """The agent's file with one relay entry per event of the adopted hooks and of the
    portable hooks (``options.portable``), and their review."""
    hooks = agent.setdefault("hooks", {})
    command = f"{shell_word(options.relay)} {RELAY_ARGUMENT} {shell_word(agent_file)}"
    pins: dict[str, str] = {}
    adopted = _hooks(owned, "")
    for event in dict.fromkeys([*adopted, *options.portable]):
        groups = adopted.get(event, [])
        need = options.portable.get(event)
        matchers = [g.get("matcher") for g in groups]
        if need is not None:
            groups = [*groups, {"hooks": [{"timeout": math.ceil(need.timeout_s)}]}]
            matchers += portable_matchers(need.tools)
        timeout = _relay_timeout(event, groups)
        group: dict[str, Any] = {"hooks": [{"type": "command", "command": command,
                                            "timeout": timeout}]}  # fmt: skip
        matcher = union_matcher(event, matchers)
        if matcher is not None:
            group = {"matcher": matcher, **group}
        hooks.setdefault(event, []).append(group)
        where = review.key(agent_file, event, len(hooks[event]) - 1, 0)
        pins[where] = review.trusted_hash(event, matcher, command, _effective(event, timeout))
    config_text = _text_of(config_file)
    new_config, said = review.with_pins(config_text, pins, config_file, agent_file)
    plan = Plan({agent_file: (agent_text, dump_settings(agent))}, notes + said)
    if new_config != (config_text or ""):
        plan.writes[config_file] = (config_text, new_config)
    if pins:
        plan.notes.append(f"the relay entries are marked reviewed for Codex in {config_file}")
    return plan


def union_matcher(event: str, matchers: list[Any]) -> str | None:
    """A relay entry's matcher, matching whatever the adopted groups' matchers match
    (``config.matches``; None: every tool). Exact name lists stay one exact list; with a
    regular expression among them, each exact list becomes an anchored expression beside
    it. A group whose expression does not compile never runs in Codex, so it adds
    nothing."""
    if event not in MATCHED_FIELD:
        return None
    found = distinct(matchers, ("", "*"))
    usable = [m for m in found or () if valid_matcher(m)]
    if found is None or not usable:
        return None
    if all(EXACT_MATCHER.fullmatch(m) for m in usable):
        return "|".join(dict.fromkeys(n for m in usable for n in m.split("|") if n)) or None
    return alternation([f"^(?:{m})$" if EXACT_MATCHER.fullmatch(m) else m for m in usable])


def portable_matchers(tools: frozenset[str] | None) -> list[str | None]:
    """The portable hooks' tools as matchers ``union_matcher`` joins: each name exactly
    (a name that is no plain word, such as an MCP tool's with a dot, as an anchored
    expression); ``[None]`` (every tool) for an event without named tools. A shared name
    the agent has no tool of (``Write``) stays: Codex's matcher takes it as
    ``apply_patch``'s alias (``events.TOOL_ALIASES``)."""
    if tools is None:
        return [None]
    return [t if EXACT_MATCHER.fullmatch(t) else exactly(t) for t in sorted(tools)]


def _unpinned(config_file: str, agent_file: str, plan: Plan) -> None:
    """Take hookd's review blocks for ``agent_file``'s relay entries out of the config."""
    config_text = _text_of(config_file)
    if config_text is None:
        return
    remaining = review.without_pins(config_text, agent_file)
    if remaining != config_text:
        plan.writes[config_file] = (config_text, remaining)


def _toml_hooks_note(config_file: str, agent_file: str, plan: Plan) -> None:
    """Hooks in the ``[hooks]`` of the layer's ``config.toml`` stay with Codex: say so."""
    layer_config = os.path.join(os.path.dirname(agent_file), CONFIG_FILE)
    text_ = _text_of(layer_config)
    if text_ is not None and "[hooks." in text_.replace("[hooks.state", ""):
        plan.notes.append(f"the [hooks] of {layer_config} stay with Codex: move them to "
                          f"{agent_file} and adopt again to hand them over")  # fmt: skip


def _text_of(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read {path}: {exc}") from None


def _relay_timeout(event: str, groups: list[dict[str, Any]]) -> int:
    timeouts = [_effective(event, h.get("timeout")) for g in groups for h in g.get("hooks", [])]
    longest = max(timeouts, default=_effective(event, None))
    return longest + RELAY_MARGIN_S if event not in SHORT_EVENTS else SHORT_CAP_S


def _effective(event: str, given: Any) -> int:
    """The timeout Codex gives a handler that says ``given`` (seconds)."""
    seconds = given if type(given) is int and given >= 0 else None
    if event in SHORT_EVENTS:
        return min(max(seconds if seconds is not None else 1, 1), SHORT_CAP_S)
    return max(seconds, 1) if seconds is not None else DEFAULT_TIMEOUT_S


def _not_adoptable(handler: Any) -> str | None:
    """Why hookd cannot run this handler for the agent ("" for the relay itself)."""
    if not isinstance(handler, dict):
        return "not a handler object"
    if handler.get("type") == "command" and RELAY_COMMAND.search(str(handler.get("command", ""))):
        return ""
    if handler.get("type") != "command":
        return f"a {handler.get('type')!r} handler needs the agent itself"
    if handler.get("async"):
        return "an async hook answers after the relay has returned"
    return None


def _without_relay(hooks: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    return without_relay(hooks, lambda handler: _not_adoptable(handler) == "")


_ACTIONS: dict[AdoptAction, Callable[[str, str, str, PlanOptions], Plan]] = {
    "adopt": _adopt, "unadopt": _unadopt, "install": _install, "uninstall": _uninstall,
}  # fmt: skip
"""Each action's plan from (the agent's file, the hookd-owned file, the user's
``config.toml``, the command line's options)."""
