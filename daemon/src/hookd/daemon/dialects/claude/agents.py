"""Subagent definitions' frontmatter hooks, as Claude Code 2.1.328 runs them (pinned by
tests/agents/claude cases ``subagent-*``).

A subagent defined in ``<project>/.claude/agents/*.md`` or ``~/.claude/agents/*.md`` may
declare ``hooks:`` in its YAML frontmatter, in the settings format. The agent registers
them when that subagent starts, for its session only: they run on the events fired
inside it (their payload names it: ``agent_id`` and ``agent_type``, the definition's
``name``), and a ``Stop`` hook runs on its ``SubagentStop``; not on its
``SubagentStart``, fired before. A project definition wins over a user one of the same
name, and its hooks run only in a project the person trusted in Claude Code
(``projects[<project>].hasTrustDialogAccepted`` in ``~/.claude.json``); a handler also in
a settings file runs once.

Each folder is listed, and each file parsed, again only when its ``stat`` changes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from ...model import Dialect, FireRequest, HookSpec, Loaded, Source
from ...safe_read import HookdLimitReached, UnreadableFile, read_regular_file
from ...statcache import StatCache
from ..settings_json import HandlerFactory, hooks_from_object
from . import frontmatter

LAYER = "agent"
Definition = tuple[str | None, dict[str, tuple[HookSpec, ...]], str | None]
"""(name, hooks per event, problem) of one definition file."""
NOT_AFTER_START = frozenset({"SubagentStart"})
"""Fired before the subagent's hooks are registered: they never run there."""
_listings: StatCache[tuple[str, ...]] = StatCache()
_definitions: StatCache[Definition] = StatCache()
_trust: StatCache[frozenset[str]] = StatCache()
_CONFIG_MAX = 64 * 1024 * 1024
"""``~/.claude.json`` holds every project's state; read whole up to this size."""


def sources(home: str, project: str | None) -> list[Source]:
    """The project's agents folder (a workspace source: trust-gated), then the user's."""
    found = [] if project is None else [_folder(os.path.join(project, ".claude"), project)]
    return [*found, _folder(os.path.join(home, ".claude"), None)]


def _folder(claude_dir: str, project: str | None) -> Source:
    return Source(Dialect.CLAUDE, LAYER, os.path.join(claude_dir, "agents"), "hookdir", project)


def load(found: Source, known_events: frozenset[str], make_handler: HandlerFactory) -> Loaded:
    """The hooks of every definition in the folder, each spec naming its agent
    (``options["agent"]``); ``settings["agents"]`` maps each name to its file (the first
    in name order, for a name defined twice)."""
    names: dict[str, str] = {}
    hooks: dict[str, list[HookSpec]] = {}
    problems: list[str] = []
    for path in _listing(found.path):
        read = _definitions.get(path, partial(_definition, found, path, known_events, make_handler))
        name, declared, problem = read or (None, {}, None)
        if problem:
            problems.append(problem)
        if name is None or name in names:
            continue
        names[name] = path
        for event, specs in declared.items():
            hooks.setdefault(event, []).extend(specs)
    return Loaded(
        hooks={event: tuple(specs) for event, specs in hooks.items()},
        error="; ".join(problems) or None,
        settings={"agents": names},
    )


def _definition(
    found: Source, path: str, known_events: frozenset[str], make_handler: HandlerFactory
) -> Definition:
    name, declared, problem = _read(path)
    if name is None or not declared:
        return name, {}, problem
    where = replace(found, path=path, kind="settings")
    part = hooks_from_object(where, {"hooks": _as_subagent(declared)}, known_events, make_handler)
    hooks = {
        event: tuple(replace(spec, options={**spec.options, "agent": name}) for spec in specs)
        for event, specs in part.hooks.items()
    }
    return name, hooks, part.error


def _listing(folder: str) -> tuple[str, ...]:
    def markdown() -> tuple[str, ...]:
        try:
            names = sorted(n for n in os.listdir(folder) if n.endswith(".md"))
        except OSError:
            return ()
        return tuple(os.path.join(folder, n) for n in names)

    return _listings.get(folder, markdown) or ()


def _as_subagent(declared: dict[str, Any]) -> dict[str, Any]:
    """A subagent's ``Stop`` hooks run when it stops: on ``SubagentStop``."""
    converted = {k: v for k, v in declared.items() if k != "Stop"}
    if "Stop" in declared:
        converted["SubagentStop"] = [*_groups(declared.get("SubagentStop")),
                                     *_groups(declared["Stop"])]  # fmt: skip
    return converted


def _groups(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _read(path: str) -> tuple[str | None, dict[str, Any] | None, str | None]:
    """(name, hooks, problem) of one definition file: its YAML frontmatter's ``name`` and
    ``hooks``."""
    try:
        text = read_regular_file(path).decode("utf-8", errors="replace")
    except FileNotFoundError:
        return None, None, None
    except HookdLimitReached:
        raise  # hookd's own limit, not the file's fault: the registry says "never ran"
    except UnreadableFile as exc:
        return None, None, str(exc)
    front = frontmatter.block(text)
    if front is None:
        return None, None, None  # no frontmatter: not a subagent definition
    import yaml  # only once a definition is read: the daemon starts without it

    try:
        data = frontmatter.load(front)
    except yaml.YAMLError as exc:
        return None, None, f"{path}: the frontmatter is not valid YAML ({exc})"
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        return None, None, None
    declared = data.get("hooks")
    if declared is not None and not isinstance(declared, dict):
        return data["name"], None, f'{path}: "hooks" must be a mapping of events'
    return data["name"], declared, None


def select(
    loaded: Sequence[tuple[Source, Loaded]], request: FireRequest
) -> tuple[frozenset[str], list[str]]:
    """The files whose hooks this fire runs (the definition the fire's ``agent_type``
    names, when the fire comes from inside that subagent), and a warning saying why a
    definition's hooks do not run when the agent would not run them either (definitions
    that could not be read are the folder's error, reported on every fire)."""
    name = request.payload.get("agent_type")
    if (
        not isinstance(name, str)
        or not isinstance(request.payload.get("agent_id"), str)
        or request.event in NOT_AFTER_START
    ):
        return frozenset(), []
    folders = [(source, content) for source, content in loaded if source.layer == LAYER]
    for source, content in folders:  # the project's folder comes first
        path = _definitions_in(content).get(name)
        if path is None:
            continue
        if source.root is not None and not _trusted(loaded, source.root):
            return frozenset(), [
                f"{path}: the frontmatter hooks of subagent {name!r} were not run: Claude Code "
                f"runs them only in a project whose trust dialog was accepted (projects"
                f'["{source.root}"].hasTrustDialogAccepted in ~/.claude.json)',
            ]
        return frozenset({path}), []
    return frozenset(), []


def _definitions_in(content: Loaded) -> dict[str, str]:
    """Name -> file of a folder's definitions; from its hooks when hookd's trust check
    kept only those (the specs it refused, to report them)."""
    names: dict[str, str] | None = content.settings.get("agents")
    if names is not None:
        return names
    return {spec.options["agent"]: spec.source for specs in content.hooks.values()
            for spec in specs if "agent" in spec.options}  # fmt: skip


def _trusted(loaded: Sequence[tuple[Source, Loaded]], project: str) -> bool:
    """Whether Claude Code's own trust dialog was accepted for ``project``, as
    ``~/.claude.json`` records it (the home is the user agents folder's)."""
    homes = [os.path.dirname(os.path.dirname(s.path)) for s, _ in loaded
             if s.layer == LAYER and s.root is None]  # fmt: skip
    if not homes:
        return False
    trusted = _trust.get(os.path.join(homes[0], ".claude.json"), _trusted_projects(homes[0]))
    return os.path.normpath(project) in (trusted or frozenset())


def _trusted_projects(home: str) -> Callable[[], frozenset[str]]:
    def read() -> frozenset[str]:
        try:
            data = json.loads(read_regular_file(os.path.join(home, ".claude.json"), _CONFIG_MAX))
        except (OSError, UnreadableFile, ValueError):
            return frozenset()  # unreadable: no project counts as trusted
        projects = data.get("projects") if isinstance(data, dict) else None
        if not isinstance(projects, Mapping):
            return frozenset()
        return frozenset(
            os.path.normpath(path)
            for path, entry in projects.items()
            if isinstance(entry, Mapping) and entry.get("hasTrustDialogAccepted") is True
        )

    return read
