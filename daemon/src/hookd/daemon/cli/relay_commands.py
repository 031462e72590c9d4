"""``hookd adopt`` / ``unadopt`` and ``hookd relay install`` / ``uninstall``: hand an
agent's hooks to hookd and put the relay in their place.

    hookd adopt --agent claude --scope user        # my hooks now run through hookd
    hookd unadopt --agent claude --scope user      # and back

What moves where, and which relay entries take its place, is the agent's own business
(its package's ``integration.plan``: ``dialects/<agent>/integration.py``); this command
checks the arguments against what the agent declares, gives the plan this installation's
relay (``relay_program``), and carries it out (``file_edits``: atomic, with backups, or
shown with ``--dry-run``). It names no agent.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Mapping

from ..all_dialects import ADOPTABLE, INTEGRATIONS, PORTABLE
from ..dialects.integration import AdoptAction, HttpInstall, IntegrationModule, PlanOptions
from ..dialects.portable_needs import Needs, scope_needs
from ..edits import Plan
from ..errors import UserError
from ..model import Dialect
from ..settings import Settings, load_settings
from . import relay_program, team_files
from .file_edits import carry_out, differ, without_backups
from .http_readiness import readiness


def run(args: argparse.Namespace) -> int:
    home = os.path.abspath(args.home or os.path.expanduser("~"))
    project = os.path.abspath(args.project or os.getcwd())
    _existing_folder(home, "--home", "the home folder whose agent settings to change")
    if args.project or args.scope != "user":
        _existing_folder(project, "--project", "the project whose agent settings to change")
    action = _ACTIONS[getattr(args, "relay_action", None) or args.command]
    integration = _adoptable(args.agent, action, args.scope)
    http = action == "install" and getattr(args, "http", False)
    if getattr(args, "on_error", "continue") != "continue" and not http:
        raise UserError("--on-error is for --http entries; the command relay reads "
                        "HOOKD_RELAY_ON_ERROR=block from the agent's environment")  # fmt: skip
    settings: Settings | None = None
    portable = _portable(args.agent, action, args.scope, home, project)
    options = PlanOptions(relay_program.relay_path(), os.environ, portable=portable)
    if http:
        if integration.HTTP_ENTRY is None:
            takers = [d.value for d, i in INTEGRATIONS.items() if i.HTTP_ENTRY is not None]
            raise UserError(f"--http is for agents with http hook entries ("
                            f"{', '.join(takers)}); {args.agent} runs its hooks as commands: "
                            "leave out --http")  # fmt: skip
        settings = load_settings(args.config)
        options = PlanOptions(options.relay, options.environ,
                              HttpInstall(settings.http_port, args.on_error),
                              options.portable)  # fmt: skip
    words = _Commands(args)
    try:
        plan = integration.plan(action, home, args.scope, project, options)
    except UserError as exc:
        raise UserError(words.exact(str(exc))) from None
    if settings is not None:
        plan.notes += readiness(settings, args.config, dry_run=args.dry_run)
    if action in ("adopt", "install") and (plan.steps or plan.writes):
        for warning in relay_program.warnings(options.relay):
            print(f"hookd: warning: {warning}", file=sys.stderr)
        if not http:
            plan.notes.append(f"the relay entries run {relay_program.describe(options.relay)}")
    if action == "unadopt" and args.scope != "user" and (plan.steps or _changes(plan)):
        plan.notes.append(f"the project's hook files changed: run 'hookd allow {project}' "
                          "so that hookd runs its hooks again on a direct fire ('hookd "
                          "fire'; the agent runs them itself now)")  # fmt: skip
    if action == "unadopt":
        without_backups(plan)
    if action in ("adopt", "install") and args.scope != "user":
        team_files.advise(plan, project, args.agent, words.of("relay install"), args.gitignore)
    elif args.gitignore:
        raise UserError("--gitignore is for 'adopt' and 'relay install' of a project's hooks "
                        "(--scope project or local): leave it out")  # fmt: skip
    plan.notes = [words.exact(note) for note in plan.notes]
    carry_out(plan, args.dry_run)
    return 0


def _portable(agent: str, action: AdoptAction, scope: str, home: str, project: str) -> Needs:
    """What the relay entries this action writes must carry for the portable hooks."""
    if action not in ("adopt", "install"):
        return {}
    return scope_needs(PORTABLE.get(Dialect(agent)), scope, home, project)


class _Commands:
    """hookd's commands as this run names them: a note's bare ``'hookd unadopt'`` (the
    words an agent's plan uses) becomes the exact command, with this run's ``--agent``,
    ``--scope`` and folders, so an undo line can be run as it is written."""

    VERBS = ("adopt", "unadopt", "relay install", "relay uninstall")

    def __init__(self, args: argparse.Namespace) -> None:
        flags = [f"--agent {args.agent}"]
        if args.scope != "user":
            flags.append(f"--scope {args.scope}")
        flags += [f"--{name} {shlex.quote(getattr(args, name))}"
                  for name in ("project", "home") if getattr(args, name)]  # fmt: skip
        self.flags = " ".join(flags)

    def of(self, verb: str) -> str:
        return f"hookd {verb} {self.flags}"

    def exact(self, text: str) -> str:
        for verb in self.VERBS:
            text = text.replace(f"'hookd {verb}'", f"'{self.of(verb)}'")
        return text


_ACTIONS: dict[str, AdoptAction] = {
    "adopt": "adopt", "unadopt": "unadopt", "install": "install", "uninstall": "uninstall",
}  # fmt: skip


def _adoptable(agent: str, action: str, scope: str) -> IntegrationModule:
    """The agent's integration, if it can be adopted in ``scope``; else a user error that
    says which agents and scopes can."""
    integration = INTEGRATIONS[Dialect(agent)]
    scopes = integration.ADOPT_SCOPES
    if not scopes:
        raise UserError(f"hookd cannot {action} {agent}'s hooks yet: it has no relay entries. "
                        f"Agents whose hooks can be handed to hookd: {', '.join(ADOPTABLE)}. "
                        f"hookd still runs {agent}'s hooks when the agent (or 'hookd fire') "
                        "fires its events")  # fmt: skip
    if scope not in scopes:
        named = " or ".join(f"{name} ({what})" for name, what in scopes.items())
        raise UserError(f"--scope {scope} is not a {agent} scope: use {named}")
    return integration


CHOICES_HEADER = '''"""What the command line offers of the agent table: every ``--scope`` value
and the scopes each agent takes. Generated by ``python scripts/regenerate.py``
(``relay_commands.render_choices``) so that the parser loads no agent's package; do not
edit."""

'''


def render_choices(integrations: Mapping[Dialect, IntegrationModule]) -> str:
    """The text of ``cli/agent_choices.py``."""
    scopes = dict.fromkeys(scope for i in integrations.values() for scope in i.ADOPT_SCOPES)
    return (f"{CHOICES_HEADER}ADOPT_SCOPES = {tuple(scopes)!r}\n"
            f"SCOPES_HELP = {scopes_help(integrations)!r}\n")  # fmt: skip


def scopes_help(integrations: Mapping[Dialect, IntegrationModule]) -> str:
    """The ``--help`` sentence naming each agent's scopes."""
    agents_by_scopes: dict[tuple[str, ...], list[str]] = {}
    for dialect, integration in integrations.items():
        agents_by_scopes.setdefault(tuple(integration.ADOPT_SCOPES), []).append(dialect.value)
    said = [f"{' and '.join(agents)} {', '.join(scopes)}"
            for scopes, agents in agents_by_scopes.items() if scopes]  # fmt: skip
    return f"Scopes: {'; '.join(said)}."


def _changes(plan: Plan) -> bool:
    return any(differ(old, new) for old, new in plan.writes.values())


def _existing_folder(path: str, option: str, what: str) -> None:
    """A home or project that is not a folder is a typo, not a place without hooks."""
    if not os.path.isdir(path):
        why = "is not a folder" if os.path.exists(path) else "does not exist"
        raise UserError(f"{option} {path} {why}: name {what} (an existing folder)")
