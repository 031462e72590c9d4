"""The hooks of the plugins Codex CLI installed and the user enabled (0.171.0, as the agent
does it: ``tests/agents/codex`` case ``plugin-hook``).

A plugin installed from a marketplace lives in ``<codex folder>/plugins/cache/<marketplace>/
<plugin>/<version>/`` (its manifest in ``.codex-plugin/plugin.json``, its hooks in
``hooks/hooks.json`` unless the manifest's ``hooks`` names another file) and runs when the
user's ``config.toml`` says ``[plugins."<plugin>@<marketplace>"] enabled = true``. Its hooks
come after every other source's; ``${PLUGIN_ROOT}``, ``${PLUGIN_DATA}`` and their
``CLAUDE_`` twins are replaced in a command when it is read, and set in the hook's
environment (``PLUGIN_DATA``: ``<codex folder>/plugins/data/<plugin>-<marketplace>``).
"""

from __future__ import annotations

import json
import os
import tomllib
from functools import partial
from typing import Any

from ...model import HookSpec, Loaded, Source
from ...statcache import StatCache
from . import config

CACHE = ("plugins", "cache")
DATA = ("plugins", "data")
MANIFEST = (".codex-plugin", "plugin.json")
DEFAULT_HOOKS = ("hooks", "hooks.json")
_enabled: StatCache[list[str]] = StatCache()
_hooks_files: StatCache[Loaded] = StatCache()


def load(source: Source) -> Loaded:
    """Every enabled plugin's hooks; ``source.path`` is the Codex folder (each file read
    again only when it changed)."""
    folder = source.path
    hooks: dict[str, list[HookSpec]] = {}
    said: list[str] = []
    config_path = os.path.join(folder, config.CONFIG_FILE)
    for plugin_id in _enabled.get(config_path, lambda: enabled(config_path)) or []:
        root = installed_root(folder, plugin_id)
        if root is None:
            said.append(f"plugin {plugin_id} is enabled in {folder}/config.toml but not "
                        f"installed under {os.path.join(folder, *CACHE)}")  # fmt: skip
            continue
        name, _, market = plugin_id.partition("@")
        values = {"PLUGIN_ROOT": root,
                  "PLUGIN_DATA": os.path.join(folder, *DATA, f"{name}-{market}")}  # fmt: skip
        values.update({f"CLAUDE_{k}": v for k, v in list(values.items())})
        hooks_file = Source(source.dialect, "plugin", _hooks_file(root), "settings")
        loaded = _hooks_files.get(hooks_file.path, partial(config.load_hooks_json, hooks_file))
        if loaded is None:
            continue
        if loaded.error:
            said.append(loaded.error)
        for event, specs in loaded.hooks.items():
            hooks.setdefault(event, []).extend(_in_plugin(spec, plugin_id, root, values)
                                               for spec in specs)  # fmt: skip
    return Loaded({e: tuple(s) for e, s in hooks.items()}, "\n".join(said) or None)


def enabled(config_path: str) -> list[str]:
    """The ids (``plugin@marketplace``) the user's ``config.toml`` enables, in its order."""
    try:
        with open(config_path, "rb") as file:
            data = tomllib.load(file)
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return []
    plugins = data.get("plugins")
    if not isinstance(plugins, dict):
        return []
    return [pid for pid, entry in plugins.items()
            if isinstance(entry, dict) and entry.get("enabled") is True]  # fmt: skip


def installed_root(folder: str, plugin_id: str) -> str | None:
    """The plugin's installed folder (its newest version), or None."""
    name, _, market = plugin_id.partition("@")
    versions = os.path.join(folder, *CACHE, market, name)
    try:
        found = sorted(os.listdir(versions), key=_version_key)
    except OSError:
        return None
    return os.path.join(versions, found[-1]) if found else None


def _version_key(text: str) -> tuple[tuple[int, str], ...]:
    return tuple((int(p), "") if p.isdigit() else (-1, p) for p in text.split("."))


def _hooks_file(root: str) -> str:
    """The manifest's ``hooks`` file (relative to the plugin), else ``hooks/hooks.json``."""
    try:
        with open(os.path.join(root, *MANIFEST), encoding="utf-8") as file:
            manifest: Any = json.load(file)
    except (OSError, ValueError):
        manifest = {}
    named = manifest.get("hooks") if isinstance(manifest, dict) else None
    if isinstance(named, str) and named and not os.path.isabs(named):
        return os.path.normpath(os.path.join(root, named))
    return os.path.join(root, *DEFAULT_HOOKS)


def _in_plugin(spec: HookSpec, plugin_id: str, root: str, values: dict[str, str]) -> HookSpec:
    command = spec.command
    for key, value in values.items():
        command = command.replace(f"${{{key}}}", value)
    relative = os.path.relpath(spec.source, root)
    key = spec.options["key"].replace(spec.source, f"{plugin_id}:{relative}", 1)
    options = {**spec.options, "key": key, "pluginEnv": values, "plugin": plugin_id}
    return HookSpec(
        dialect=spec.dialect, event=spec.event, source=spec.source, layer="plugin",
        command=command, argv=None, timeout_s=spec.timeout_s, matcher=spec.matcher,
        options=options, background=spec.background,
    )  # fmt: skip
