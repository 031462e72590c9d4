"""Claude Code plugins' hooks, found as the agent finds them (2.1.328; the harness installs
plugins into the real agent from a local marketplace: tests/agents/claude).

* Installed plugins: ``~/.claude/plugins/installed_plugins.json`` (version 2:
  ``plugins[id]`` lists installs, each with a ``scope`` and an ``installPath``; project
  and local installs name their ``projectPath``).
* Where a plugin lives: its ``installPath``, except that a plugin of a ``directory``
  marketplace (``known_marketplaces.json``) runs from that folder itself, at the
  ``source`` its ``.claude-plugin/marketplace.json`` gives it (the agent's
  ``CLAUDE_PLUGIN_ROOT`` is the live folder, not the cached copy).
* Its hooks: ``hooks/hooks.json``, plus what ``.claude-plugin/plugin.json``'s ``hooks``
  names: a path relative to the plugin, an inline object, or a list of either.
* Which run, and with what (``select`` and ``prepare``): the plugins ``enabledPlugins``
  turns on over the settings layers; ``CLAUDE_PLUGIN_ROOT``, ``CLAUDE_PLUGIN_DATA``
  (``~/.claude/plugins/data/<id>``, made on first use) and ``CLAUDE_PLUGIN_OPTION_<KEY>``
  from ``pluginConfigs[id].options``.

The folder is read on every fire (one ``stat`` when nothing is installed); a file is
parsed again only when its signature changes.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ...model import Dialect, HookSpec, Loaded, Source
from ...statcache import StatCache
from ..settings_json import HandlerFactory, hooks_from_object, read_json_object

LAYER = "plugin"
INSTALLED = "installed_plugins.json"
MARKETPLACES = "known_marketplaces.json"
_PROJECT_SCOPES = ("project", "local")
_OPTION_KEY = re.compile(r"[^A-Za-z0-9_]")
_DATA_ID = re.compile(r"[^a-zA-Z0-9\-_]")
USER_CONFIG = re.compile(r"\$\{user_config\.([A-Za-z_]\w*)\}")

_cache: StatCache[tuple[dict[str, Any] | None, str | None]] = StatCache()


def folder(home: str) -> str:
    return os.path.join(home, ".claude", "plugins")


def source(home: str, project: str | None) -> Source:
    """The plugins folder as one source of the project (``hookdir``: read every fire)."""
    return Source(Dialect.CLAUDE, LAYER, folder(home), "hookdir", project)


def data_dir(plugins_folder: str, plugin_id: str) -> str:
    """``CLAUDE_PLUGIN_DATA``: the plugin's own folder, named as the agent names it."""
    return os.path.join(plugins_folder, "data", _DATA_ID.sub("-", plugin_id))


def option_env(options: Mapping[str, Any]) -> dict[str, str]:
    """``CLAUDE_PLUGIN_OPTION_<KEY>`` for each configured option (key upper-cased, other
    characters than letters, digits and ``_`` made ``_``; the value as JavaScript's
    ``String()`` writes it)."""
    return {f"CLAUDE_PLUGIN_OPTION_{_OPTION_KEY.sub('_', key).upper()}": js_string(value)
            for key, value in options.items()}  # fmt: skip


def js_string(value: Any) -> str:
    """A setting's value as JavaScript's ``String()`` writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(js_string(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def load(found: Source, known_events: frozenset[str], make_handler: HandlerFactory) -> Loaded:
    """Every hook of every plugin installed for this project, enabled or not (``select``
    reads ``enabledPlugins`` from the settings). Each spec names its plugin in
    ``options``: ``plugin`` (the id), ``pluginRoot``, ``pluginsFolder``."""
    installed, error = _read(os.path.join(found.path, INSTALLED))
    if installed is None:
        return Loaded(error=error)
    plugins = installed.get("plugins")
    if not isinstance(plugins, dict):
        return Loaded(error=f'{os.path.join(found.path, INSTALLED)}: "plugins" is not an object')
    marketplaces = _read(os.path.join(found.path, MARKETPLACES))[0] or {}
    hooks: dict[str, list[HookSpec]] = {}
    problems: list[str] = []
    for plugin_id, installs in plugins.items():
        install = _install_for(installs, found.root)
        if install is None:
            continue
        root = _plugin_root(plugin_id, install, marketplaces)
        for path, data, problem in _hook_files(root):
            if problem:
                problems.append(problem)
            if data is None:
                continue
            part = hooks_from_object(replace(found, path=path, kind="settings"), data,
                                     known_events, make_handler)  # fmt: skip
            if part.error:
                problems.append(part.error)
            for event, specs in part.hooks.items():
                hooks.setdefault(event, []).extend(
                    _owned(spec, plugin_id, root, found.path) for spec in specs
                )
    return Loaded(
        hooks={event: tuple(specs) for event, specs in hooks.items()},
        error="; ".join(problems) or None,
    )


def _owned(spec: HookSpec, plugin_id: str, root: str, plugins_folder: str) -> HookSpec:
    """The spec marked as the plugin's, with an identity of its own: a plugin's copy of
    a handler is never "the same handler" as a settings file's copy or another plugin's,
    so both run (tests/agents/claude ``[plugin-same-handler-as-settings]``)."""
    identity = json.dumps([plugin_id, spec.options.get("identity")])
    options = {**spec.options, "identity": identity, "plugin": plugin_id, "pluginRoot": root,
               "pluginsFolder": plugins_folder}  # fmt: skip
    return replace(spec, options=options)


def _install_for(installs: object, project: str | None) -> dict[str, Any] | None:
    """The install that applies to this project: a project or local install of this
    project first, else a user or managed one."""
    if not isinstance(installs, list):
        return None
    entries = [i for i in installs if isinstance(i, dict) and isinstance(i.get("installPath"), str)]
    for entry in entries:
        if (
            entry.get("scope") in _PROJECT_SCOPES
            and project is not None
            and (os.path.normpath(str(entry.get("projectPath", ""))) == os.path.normpath(project))
        ):
            return entry
    return next((e for e in entries if e.get("scope") not in _PROJECT_SCOPES), None)


def _plugin_root(plugin_id: str, install: dict[str, Any], marketplaces: dict[str, Any]) -> str:
    name, _, market = plugin_id.partition("@")
    known = marketplaces.get(market)
    location = _directory_marketplace(known) if isinstance(known, dict) else None
    if location is not None:
        manifest, _ = _read(os.path.join(location, ".claude-plugin", "marketplace.json"))
        for entry in (manifest or {}).get("plugins", ()):
            if isinstance(entry, dict) and entry.get("name") == name:
                where = entry.get("source")
                if isinstance(where, str):
                    return os.path.normpath(os.path.join(location, where))
    return str(install["installPath"])


def _directory_marketplace(known: dict[str, Any]) -> str | None:
    """The folder of a marketplace added from a local directory, else None."""
    origin = known.get("source")
    if not isinstance(origin, dict) or origin.get("source") != "directory":
        return None
    location = known.get("installLocation") or origin.get("path")
    return location if isinstance(location, str) else None


def _hook_files(root: str) -> list[tuple[str, dict[str, Any] | None, str | None]]:
    """(path, hooks object, problem) for ``hooks/hooks.json`` and each hooks entry of
    ``plugin.json`` (an inline object is reported under plugin.json's path)."""
    found: list[tuple[str, dict[str, Any] | None, str | None]] = []
    default = os.path.join(root, "hooks", "hooks.json")
    data, error = _read(default)
    if data is not None or error:
        found.append((default, data, error))
    manifest_path = os.path.join(root, ".claude-plugin", "plugin.json")
    manifest, error = _read(manifest_path)
    if error:
        found.append((manifest_path, None, error))
    declared = (manifest or {}).get("hooks")
    for entry in declared if isinstance(declared, list) else [declared] if declared else []:
        if isinstance(entry, dict):
            found.append((manifest_path, entry, None))
        elif isinstance(entry, str):
            path = os.path.normpath(os.path.join(root, entry))
            if path != default:
                data, error = _read(path)
                found.append((path, data, error or (None if data else f"{path}: not found")))
    return found


def _read(path: str) -> tuple[dict[str, Any] | None, str | None]:
    """``read_json_object``, parsed again only when the file may have changed."""
    return _cache.get(path, lambda: read_json_object(path)) or (None, None)
