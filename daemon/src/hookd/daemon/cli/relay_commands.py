"""``hookd adopt`` / ``unadopt`` and ``hookd relay install`` / ``uninstall``: hand an
agent's hooks to hookd and put the relay in their place.

    hookd adopt --agent claude --scope user        # my hooks now run through hookd
    hookd unadopt --agent claude --scope user      # and back

``adopt`` moves the hooks of one of the agent's settings files or hook folders into a
hookd-owned file or folder (the dialect's ``adopted_path`` / ``Source.adopted_from``: read
with the agent's rules, at the same layer), then writes relay entries (``hookd-relay
AGENT``) in their place: the agent runs the relay, the relay's fire runs only the adopted
hooks, so every hook runs exactly once. ``relay install`` writes the relay entries again
for what is adopted (after you edit the hookd-owned file), ``relay uninstall`` removes
them. Claude Code's settings are handled here; Augment's in ``adopt_augment``, Cline's
hook folders in ``adopt_folders``; the edits themselves in ``file_edits``.

Every edit is atomic (a temporary file renamed over the old one, same mode), keeps
backups of the agent's settings file (``<file>.hookd.orig`` as it was before hookd first
changed it, ``<file>.hookd.bak`` the last version), is idempotent, and
``--dry-run`` shows the diff instead. Hooks hookd cannot run for the agent stay where they
are, and the command says why: ``async`` hooks (their answer would come after the relay
returned) and handlers other than ``command`` (``http``, and those that need the agent's
own model or MCP connections).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from ..dialects.claude import dialect as claude
from ..dialects.claude import rules
from ..errors import UserError
from ..settings import load_settings
from . import adopt_augment, adopt_folders, relay_http, relay_program
from .file_edits import Plan, carry_out, differ, emptied, handed_over, nothing_adopted
from .file_edits import dump_settings as _dump
from .file_edits import hooks_section as _hooks
from .file_edits import read_settings as _read

RELAY_ARGUMENT = "claude"
RELAY_MARGIN_S = 10.0
"""How much longer the relay entry may run than the slowest hook it relays."""
ASYNC_REPLY_NOTE = (
    'a moved hook that answers {"async": true} on its first line goes to hookd\'s '
    "background, and its later answer does not reach the agent through the relay (the "
    'audit log says so); give such a hook "async": true in the settings to keep it with '
    "the agent"
)
_SCOPES = {"user": "settings.json", "project": "settings.json", "local": "settings.local.json"}


def run(args: argparse.Namespace) -> int:
    home = os.path.abspath(args.home or os.path.expanduser("~"))
    project = os.path.abspath(args.project or os.getcwd())
    _existing_folder(home, "--home", "the home folder whose agent settings to change")
    if args.project or args.scope != "user":
        _existing_folder(project, "--project", "the project whose agent settings to change")
    action = getattr(args, "relay_action", None) or args.command
    http = action == "install" and getattr(args, "http", False)
    if getattr(args, "on_error", "continue") != "continue" and not http:
        raise UserError("--on-error is for --http entries; the command relay reads "
                        "HOOKD_RELAY_ON_ERROR=block from the agent's environment")  # fmt: skip
    if http and args.agent != "claude":
        raise UserError(f"--http is for Claude Code's http hook entries; {args.agent} runs "
                        "its hooks as commands: leave out --http")  # fmt: skip
    if http:
        plan = install_http(*paths(home, args.scope, project), args)
    elif args.agent == "claude":
        plan = claude_plan(action, home, args.scope, project)
    elif args.agent == "augment":
        plan = adopt_augment.plan(action, home, args.scope, project)
    else:
        plan = adopt_folders.plan(action, args.agent, home, args.scope, project, os.environ)
    if action in ("adopt", "install") and (plan.steps or plan.writes):
        for warning in relay_program.warnings(relay_program.relay_path()):
            print(f"hookd: warning: {warning}", file=sys.stderr)
    if action == "unadopt" and args.scope != "user" and (plan.steps or _changes(plan)):
        plan.notes.append(f"the project's hook files changed: run 'hookd allow {project}' "
                          "so that hookd runs its hooks again on a direct fire ('hookd "
                          "fire'; the agent runs them itself now)")  # fmt: skip
    carry_out(plan, args.dry_run)
    return 0


def _changes(plan: Plan) -> bool:
    return any(differ(old, new) for old, new in plan.writes.values())


def _existing_folder(path: str, option: str, what: str) -> None:
    """A home or project that is not a folder is a typo, not a place without hooks."""
    if not os.path.isdir(path):
        why = "is not a folder" if os.path.exists(path) else "does not exist"
        raise UserError(f"{option} {path} {why}: name {what} (an existing folder)")


def claude_plan(action: str, home: str, scope: str, project: str) -> Plan:
    agent_file, owned_file = paths(home, scope, project)
    return ACTIONS[action](agent_file, owned_file)


def paths(home: str, scope: str, project: str) -> tuple[str, str]:
    """The agent's settings file of ``scope`` and the hookd-owned file beside it."""
    folder = os.path.join(home if scope == "user" else project, ".claude")
    return os.path.join(folder, _SCOPES[scope]), claude.adopted_path(home, scope, project)


def adopt(agent_file: str, owned_file: str) -> Plan:
    """Move the agent's command hooks into the hookd-owned file; relay their events."""
    agent, agent_text = _read(agent_file)
    owned, owned_text = _read(owned_file)
    notes: list[str] = []
    kept: dict[str, list[Any]] = {}
    moved = 0
    for event, groups in _hooks(agent, agent_file).items():
        for group in groups:
            stay, take = _split(group, event, notes)
            if take:
                _add_group(owned, event, {**group, "hooks": take})
                moved += len(take)
            if stay:
                kept.setdefault(event, []).append({**group, "hooks": stay})
    agent["hooks"] = kept
    notes[:0] = handed_over(moved, agent_file, owned_file, bool(_hooks(owned, owned_file)))
    if moved:
        notes.append(ASYNC_REPLY_NOTE)
    http = relay_http.installed(agent)
    _relay_entries(agent, owned)
    if http is not None:  # the http entries stay http entries
        notes += relay_http.to_http(agent, *http, _command_entry, _is_command_entry)
    return Plan({owned_file: (owned_text, _dump(owned)), agent_file: (agent_text, _dump(agent))},
                notes)  # fmt: skip


def unadopt(agent_file: str, owned_file: str) -> Plan:
    """Give the adopted hooks back to the agent's file and remove the relay entries."""
    agent, agent_text = _read(agent_file)
    owned, owned_text = _read(owned_file)
    _drop_relay(agent)
    returned = 0
    for event, groups in _hooks(owned, owned_file).items():
        for group in groups:
            _add_group(agent, event, group)
            returned += len(group.get("hooks", []))
    owned.pop("hooks", None)
    plan = Plan({agent_file: (agent_text, _dump(agent))},
                [f"{returned} hook(s) given back to {agent_file}"])  # fmt: skip
    emptied(plan, owned_file, owned, owned_text)
    return plan


def install(agent_file: str, owned_file: str) -> Plan:
    """Write the relay entries for the events the hookd-owned file has hooks for."""
    agent, agent_text = _read(agent_file)
    owned, _ = _read(owned_file)
    _relay_entries(agent, owned)
    events = sorted(_hooks(owned, owned_file))
    if not events:
        raise UserError(nothing_adopted(owned_file))
    return Plan({agent_file: (agent_text, _dump(agent))}, [f"relaying {', '.join(events)}"])


def install_http(agent_file: str, owned_file: str, args: argparse.Namespace) -> Plan:
    """``install --http``: the relay entries as Claude Code http hook entries, which reach
    the daemon's http entry with no process per event (``relay_http``)."""
    settings = load_settings(args.config)
    plan = install(agent_file, owned_file)
    agent = json.loads(plan.writes[agent_file][1])
    if _hooks(_read(owned_file)[0], owned_file):
        plan.notes += relay_http.to_http(agent, settings.http_port, args.on_error,
                                         _command_entry, _is_command_entry)  # fmt: skip
        plan.notes += relay_http.readiness(settings, args.config, dry_run=args.dry_run)
    plan.writes[agent_file] = (plan.writes[agent_file][0], _dump(agent))
    return plan


def _is_command_entry(handler: Any) -> bool:
    return _not_adoptable(handler) == "" and handler.get("type") == "command"


def relay_command() -> str:
    """The relay entry's command line: this installation's ``hookd-relay`` by its
    absolute path (``relay_program``), quoted for the shell Claude Code runs it with."""
    return f"{relay_program.shell_word(relay_program.relay_path())} {RELAY_ARGUMENT}"


def _command_entry(timeout: float) -> dict[str, Any]:
    return {"type": "command", "command": relay_command(), "timeout": timeout}


def uninstall(agent_file: str, owned_file: str) -> Plan:
    """Remove the relay entries (adopted hooks then do not run until re-installed)."""
    agent, agent_text = _read(agent_file)
    _drop_relay(agent)
    owned, _ = _read(owned_file)
    notes = []
    if _hooks(owned, owned_file):
        notes.append(f"the hooks adopted in {owned_file} will not run inside the agent until "
                     "'hookd relay install' (or 'hookd unadopt' gives them back)")  # fmt: skip
    return Plan({agent_file: (agent_text, _dump(agent))}, notes)


def _split(group: dict[str, Any], event: str, notes: list[str]) -> tuple[list[Any], list[Any]]:
    """The group's handlers that stay with the agent, and those hookd takes."""
    stay: list[Any] = []
    take: list[Any] = []
    for handler in group.get("hooks", []):
        why = _not_adoptable(handler)
        if why is None:
            take.append(handler)
            continue
        stay.append(handler)
        if why:
            notes.append(f"{event}: {handler.get('command') or handler.get('type')!r} stays "
                         f"with the agent: {why}")  # fmt: skip
    return stay, take


def _not_adoptable(handler: Any) -> str | None:
    """Why hookd cannot run this handler for the agent ("" for the relay itself)."""
    if not isinstance(handler, dict):
        return "not a handler object"
    if handler.get("type") == "command" and claude.RELAY_COMMAND.search(
        str(handler.get("command", ""))
    ):
        return ""
    if relay_http.is_entry(handler):
        return ""
    if handler.get("type") != "command":
        return f"a {handler.get('type')!r} handler needs the agent itself"
    if handler.get("async") or handler.get("asyncRewake"):
        return "an async hook answers after the relay has returned"
    return None


def _relay_entries(agent: dict[str, Any], owned: dict[str, Any]) -> None:
    """One relay entry per event the hookd-owned file has hooks for, none for others."""
    _drop_relay(agent)
    hooks = agent.setdefault("hooks", {})
    for event, groups in _hooks(owned, "").items():
        timeouts = [_timeout(event, h) for g in groups for h in g.get("hooks", [])]
        longest = max(timeouts, default=_timeout(event, {}))
        hooks.setdefault(event, []).append({"hooks": [_command_entry(longest + RELAY_MARGIN_S)]})


def _timeout(event: str, handler: dict[str, Any]) -> float:
    value = handler.get("timeout")
    if isinstance(value, int | float) and value > 0:
        return float(value)
    return rules.DEFAULT_TIMEOUT_S.get(event, rules.COMMAND_TIMEOUT_S)


def _drop_relay(settings: dict[str, Any]) -> None:
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return
    for event in list(hooks):
        groups = [
            {**g, "hooks": [h for h in g.get("hooks", []) if _not_adoptable(h) != ""]}
            for g in hooks[event] if isinstance(g, dict)
        ]  # fmt: skip
        hooks[event] = [g for g in groups if g["hooks"]]
        if not hooks[event]:
            del hooks[event]


def _add_group(settings: dict[str, Any], event: str, group: dict[str, Any]) -> None:
    """Append the group's handlers to a group with the same matcher (each handler once)."""
    groups = settings.setdefault("hooks", {}).setdefault(event, [])
    same = next((g for g in groups if g.get("matcher") == group.get("matcher")), None)
    if same is None:
        groups.append(dict(group))
        return
    present = same.get("hooks", [])
    same["hooks"] = [*present, *(h for h in group.get("hooks", []) if h not in present)]


ACTIONS = {"adopt": adopt, "unadopt": unadopt, "install": install, "uninstall": uninstall}
