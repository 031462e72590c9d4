"""Whether each agent's relay entries are the ones ``hookd relay install`` would write
today: naming this installation's ``hookd-relay`` and carrying the events (and matchers)
of the hooks hookd holds for it.

No rule of any agent is repeated here: the agent's own ``integration.plan("install")`` is
computed (it writes nothing) and compared with what is on disk. An install plan that
would change nothing means the entries are right; one that would is the problem, and
``hookd relay install`` its fix. With nothing adopted, an ``uninstall`` plan that would
change something means relay entries are left that stand for no hook.
"""

from __future__ import annotations

import difflib
import json
import os
import re
from collections.abc import Mapping

from ..all_dialects import INTEGRATIONS, PORTABLE
from ..cli import relay_program
from ..cli.file_edits import differ
from ..dialects.integration import HttpInstall, IntegrationModule, PlanOptions
from ..dialects.portable_needs import Needs, scope_needs
from ..edits import Plan, Remove, WriteFile, nothing_adopted
from ..errors import UserError
from ..settings import Settings
from .findings import Finding

_NOTHING_ADOPTED = nothing_adopted("\0").split("\0")[0]
_NAMED_RELAY = re.compile(r"(?<![:/\w])(/[^\s\"'\\]*hookd-relay)(?![\w-])")
"""An absolute path of a relay program in a settings text or a relay file."""
_DIFF_LINES = 8


def check(
    home: str, projects: list[str], settings: Settings | None, environ: Mapping[str, str]
) -> list[Finding]:
    """Every adoptable agent's user scope, and its other scopes in each project (not the
    home folder: there a project's files are the user's)."""
    found: list[Finding] = []
    reported: set[tuple[str, ...]] = set()
    elsewhere = [p for p in projects if os.path.normpath(p) != os.path.normpath(home)]
    for dialect, integration in INTEGRATIONS.items():
        for scope in integration.ADOPT_SCOPES:
            for project in elsewhere if scope != "user" else [home]:
                for finding in _scope(dialect.value, integration, scope, home, project,
                                      settings, environ):  # fmt: skip
                    files = tuple(finding.details.get("files", ()))
                    if files and files in reported:
                        continue  # one relay file serves both Cline runners: said once
                    reported.add(files)
                    found.append(finding)
    if not found:
        found.append(Finding("relay", "ok", "no agent has hooks handed to hookd (hookd adopt)"))
    return found


def _scope(
    agent: str,
    integration: IntegrationModule,
    scope: str,
    home: str,
    project: str,
    settings: Settings | None,
    environ: Mapping[str, str],
) -> list[Finding]:
    where = f"{agent} {scope}" + ("" if scope == "user" else f" in {project}")
    command = f"hookd relay install --agent {agent} --scope {scope}" + (
        "" if scope == "user" else f" --project {project}"
    )
    ours = list(dict.fromkeys([relay_program.relay_path(), relay_program.python_relay()]))
    portable = scope_needs(PORTABLE.get(integration.DIALECT), scope, home, project)
    try:
        plans = [integration.plan("install", home, scope, project,
                                  PlanOptions(r, environ, portable=portable))
                 for r in ours]  # fmt: skip
        plans += _http_plans(integration, home, scope, project, ours[0], settings, environ,
                             portable)  # fmt: skip
    except UserError as exc:
        if not str(exc).startswith(_NOTHING_ADOPTED):
            return [Finding("relay", "problem", f"{where}: {exc}", command)]
        return _left_over(agent, integration, scope, home, project, environ, where)
    if any(not _changes(plan) for plan in plans):
        return [Finding("relay", "ok", f"{where}: the relay entries are this installation's "
                        "and carry the events and matchers of the hooks hookd holds")]  # fmt: skip
    closest = min(range(len(plans)), key=lambda i: len(_differences(plans[i], None)))
    plan = plans[closest]
    if closest < len(ours) and ours[closest] != relay_program.relay_path():
        command = f"{relay_program.CHOICE_ENV}=python {command}"
    stale = _stale_relays(plan, ours)
    if stale:
        said = f"{where}: the relay entries name " + "; ".join(stale)
    else:
        said = (f"{where}: the relay entries do not carry the events and matchers of the "
                "hooks hookd holds")  # fmt: skip
    return [Finding("relay", "problem", said, command, _details(plan))]


def _left_over(
    agent: str,
    integration: IntegrationModule,
    scope: str,
    home: str,
    project: str,
    environ: Mapping[str, str],
    where: str,
) -> list[Finding]:
    """Nothing adopted in the scope: relay entries there would stand for no hook."""
    try:
        plan = integration.plan("uninstall", home, scope, project,
                                _options(relay_program.relay_path(), environ))  # fmt: skip
    except UserError:
        return []
    if not _changes(plan):
        return []
    command = f"hookd relay uninstall --agent {agent} --scope {scope}" + (
        "" if scope == "user" else f" --project {project}"
    )
    said = f"{where}: relay entries are left, but no hook is adopted there for them to run"
    return [Finding("relay", "problem", said, command, _details(plan))]


def _details(plan: Plan) -> dict[str, list[str]]:
    """The files the plan would change and a few lines of how (``--json``)."""
    touched = [p for p, (old, new) in plan.writes.items() if differ(old, new)]
    touched += [step.path for step in plan.steps if isinstance(step, WriteFile | Remove)]
    return {"files": sorted(set(touched)), "differences": _differences(plan)}


def _options(relay: str, environ: Mapping[str, str]) -> PlanOptions:
    return PlanOptions(relay=relay, environ=environ)


def _http_plans(
    integration: IntegrationModule,
    home: str,
    scope: str,
    project: str,
    relay: str,
    settings: Settings | None,
    environ: Mapping[str, str],
    portable: Needs,
) -> list[Plan]:
    """The ``relay install --http`` plans (both error policies) for an agent with http
    entries, against the port of hookd's configuration."""
    if integration.HTTP_ENTRY is None or settings is None:
        return []
    return [integration.plan("install", home, scope, project,
                             PlanOptions(relay, environ, HttpInstall(settings.http_port, on),
                                         portable))
            for on in ("continue", "block")]  # fmt: skip


def _changes(plan: Plan) -> bool:
    return bool(plan.steps) or any(differ(old, new) for old, new in plan.writes.values())


def _stale_relays(plan: Plan, ours: list[str]) -> list[str]:
    """The relay programs the entries name that are not this installation's, each said
    with why (gone, or another installation's)."""
    texts = [old or "" for old, _new in plan.writes.values()]
    for step in plan.steps:
        if isinstance(step, WriteFile | Remove):
            texts.append(_read(step.path))
    named = dict.fromkeys(m for text in texts for m in _NAMED_RELAY.findall(text))
    said = []
    for path in named:
        if path in ours or "://" in path:
            continue
        why = "which does not exist" if not os.path.exists(path) else "another installation's"
        said.append(f"{path}, {why} (this installation's is {ours[0]})")
    return said


def _differences(plan: Plan, limit: int | None = _DIFF_LINES) -> list[str]:
    """What the plan would change: lines of diff (a few, for ``--json``)."""
    lines: list[str] = []
    for path, (old, new) in plan.writes.items():
        if differ(old, new):
            lines += [f"{path}:"] + [
                line for line in difflib.unified_diff(_lines(old), _lines(new), n=0, lineterm="")
                if line[:1] in "+-" and line[:3] not in ("+++", "---")]  # fmt: skip
    for step in plan.steps:
        if isinstance(step, WriteFile):
            lines.append(f"write the relay file {step.path}")
        elif isinstance(step, Remove):
            lines.append(f"remove {step.path}")
    return lines[:limit]


def _lines(text: str | None) -> list[str]:
    try:
        return json.dumps(json.loads(text or "{}"), indent=1, sort_keys=True).splitlines()
    except ValueError:
        return (text or "").splitlines()


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            return file.read(65536)
    except OSError:
        return ""
