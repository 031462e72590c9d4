"""Reading Gemini CLI's hook files (0.61.0, ``gemini-research.md`` §1, §2): the ``hooks``
and ``hooksConfig`` of a ``settings.json``, and an extension's ``hooks/hooks.json``.

* A settings file is JSON with comments. One that does not parse, or is not an object, is
  fatal to Gemini (it will not start, exit 52): hookd runs none of its hooks and says why.
* Every row stands on its own (§1.4): an unknown event (a Claude Code name such as
  ``PreToolUse`` included), an event that is not a list, a group that is no object or has
  no ``hooks`` list, a handler whose ``type`` is not ``command``, ``plugin`` or ``runtime``,
  a command handler without ``command``: that row is skipped with Gemini's warning, the
  rest of the file kept. A ``plugin`` handler with a ``command`` runs as a command.
* Timeouts are milliseconds (60000 unless given; a numeric string counts as its number).
* ``hooks.enabled``, ``hooks.disabled`` and ``hooks.notifications`` are not events: they are
  skipped in silence (the switches that work live in ``hooksConfig``, §1.2).

What a command means is decided per fire (``dialect.select``): the settings files' strings
are expanded with the agent's environment (§2.3 step 1), an extension's with its own
variables (§2.3 step 3).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from typing import Any

from ...model import Dialect, HookSpec, Loaded, Source
from ..settings_json import read_text
from .events import DEFAULT_TIMEOUT_MS, EVENTS

SETTINGS_FILE = "settings.json"
EXTENSION_MANIFEST = "gemini-extension.json"
EXTENSION_HOOKS = os.path.join("hooks", "hooks.json")
ENABLEMENT_FILE = "extension-enablement.json"
INSTALL_METADATA = ".gemini-extension-install.json"
HANDLER_TYPES = ("command", "plugin", "runtime")
CONFIG_FIELDS = ("enabled", "disabled", "notifications")
"""Keys of a ``hooks`` object that are settings, not events (skipped in silence)."""
_EVENT_SET = frozenset(EVENTS)


def load_settings(source: Source) -> Loaded:
    """One settings file: its hooks per event, and its ``hooksConfig`` in
    ``Loaded.settings``."""
    text = read_text(source.path)
    if isinstance(text, Loaded) or text is None:
        return text or Loaded()
    try:
        data = json.loads(strip_json_comments(text)) if text.strip() else {}
    except (ValueError, RecursionError) as exc:
        return _fatal(f"{source.path}: invalid JSON ({exc}); Gemini CLI will not start with "
                      "it (exit 52), so none of its hooks run")  # fmt: skip
    if not isinstance(data, dict):
        return _fatal(f"{source.path}: the settings must be a JSON object; Gemini CLI will not "
                      "start with it (exit 52), so none of its hooks run")  # fmt: skip
    settings: dict[str, Any] = {}
    hooks_config = data.get("hooksConfig")
    if isinstance(hooks_config, dict):
        settings["hooksConfig"] = hooks_config
    loaded = hooks_of(source, data.get("hooks"), "project")
    return Loaded(loaded.hooks, loaded.error, settings)


def hooks_of(source: Source, events: Any, said_as: str) -> Loaded:
    """The handlers of a ``hooks`` object, in order, with Gemini's warnings for the rows it
    skips (``said_as``: how Gemini names the source in them: ``project`` for every
    settings file, ``extensions``)."""
    if not isinstance(events, Mapping):
        return Loaded()
    found: dict[str, list[HookSpec]] = {}
    said: list[str] = []
    for event, groups in events.items():
        if event in CONFIG_FIELDS:
            continue
        if event not in _EVENT_SET:
            said.append(f'Invalid hook event name: "{event}" from {said_as} config. Skipping.')
            continue
        if not isinstance(groups, list):
            said.append(f'Hook definitions for event "{event}" from source "{said_as}" is not '
                        "an array. Skipping.")  # fmt: skip
            continue
        for group in groups:
            found.setdefault(event, []).extend(group_specs(source, event, group, said_as, said))
    return Loaded({e: tuple(s) for e, s in found.items() if s}, "\n".join(said) or None)


SpecMaker = Callable[[Source, str, str | None, bool, Any, str, list[str]], HookSpec | None]
"""(source, event, matcher, sequential, handler, said_as, said) -> the handler's spec, or
None (what is skipped appended to ``said``)."""


def group_specs(
    source: Source,
    event: str,
    group: Any,
    said_as: str,
    said: list[str],
    make: SpecMaker | None = None,
) -> list[HookSpec]:
    """A matcher group's specs, in order (``make``: the agent's rule for one handler, Gemini
    CLI's by default; Qwen Code, which forked these files, has its own); a group that is no
    object or has no ``hooks`` list is discarded with Gemini's words."""
    make = make or _spec
    if not isinstance(group, Mapping) or not isinstance(group.get("hooks"), list):
        said.append(f"Discarding invalid hook definition for {event} from {said_as}: "
                    f"{json.dumps(group)}")  # fmt: skip
        return []
    matcher = group.get("matcher")
    sequential = group.get("sequential") is True
    specs = []
    for handler in group["hooks"]:
        spec = make(source, event, matcher if isinstance(matcher, str) else None, sequential,
                    handler, said_as, said)  # fmt: skip
        if spec is not None:
            specs.append(spec)
    return specs


def _spec(
    source: Source,
    event: str,
    matcher: str | None,
    sequential: bool,
    handler: Any,
    said_as: str,
    said: list[str],
) -> HookSpec | None:
    if not isinstance(handler, Mapping) or handler.get("type") not in HANDLER_TYPES:
        kind = handler.get("type") if isinstance(handler, Mapping) else None
        said.append(f"Invalid hook {event} from {said_as} type: {kind}")
        return None
    command = handler.get("command")
    if not isinstance(command, str) or not command:
        if handler.get("type") == "command":
            said.append(f"Command hook {event} from {said_as} missing command field")
        else:
            said.append(f"{source.path}: a {handler.get('type')} hook on {event} without a "
                        "command: hookd cannot run it")  # fmt: skip
        return None
    name = handler.get("name")
    env = handler.get("env")
    return HookSpec(
        dialect=source.dialect,
        event=event,
        source=source.path,
        layer=source.layer,
        command=command,
        argv=None,
        timeout_s=timeout_ms(handler.get("timeout")) / 1000,
        matcher=matcher,
        root=source.root,
        options={
            "name": name if isinstance(name, str) else None,
            "env": {k: v for k, v in env.items() if isinstance(v, str)}
            if isinstance(env, Mapping)
            else {},
            "sequential": sequential,
        },
    )


def timeout_ms(given: Any) -> float:
    """A handler's timeout in milliseconds: a number, or a string of one (coerced as
    Gemini's settings schema coerces it), else the default."""
    if isinstance(given, str):
        try:
            given = float(given.strip()) if given.strip() else None
        except ValueError:
            given = None
    if isinstance(given, bool) or not isinstance(given, int | float) or given != given:
        return DEFAULT_TIMEOUT_MS
    return max(float(given), 0.0)


# Extensions --------------------------------------------------------------------------


def extension_hooks(folder: str) -> tuple[Loaded, str | None, str]:
    """One installed extension (``~/.gemini/extensions/<dir>``): its hooks, its name (None:
    Gemini does not load it) and the folder its ``${extensionPath}`` names (a linked
    extension's source)."""
    manifest = read_text(os.path.join(folder, EXTENSION_MANIFEST))
    if not isinstance(manifest, str):
        return Loaded(), None, folder
    try:
        config = json.loads(strip_json_comments(manifest))
    except ValueError:
        return Loaded(), None, folder
    if not isinstance(config, dict) or not config.get("name") or not config.get("version"):
        return Loaded(), None, folder
    where = _linked_source(folder) or folder
    path = os.path.join(where, EXTENSION_HOOKS)
    text = read_text(path)
    if not isinstance(text, str):
        return Loaded(), str(config["name"]), where
    try:
        data = json.loads(text)
    except ValueError:
        return (
            Loaded(error=f"Failed to load extension hooks from {path}"),
            str(config["name"]),
            where,
        )
    hooks = data.get("hooks") if isinstance(data, dict) else None
    if not isinstance(hooks, dict):
        return (Loaded(error=f'Invalid hooks configuration in {path}: "hooks" property must be '
                       "an object"), str(config["name"]), where)  # fmt: skip
    source = Source(Dialect.GEMINI, "extension", path, "settings")
    return hooks_of(source, hooks, "extensions"), str(config["name"]), where


def _linked_source(folder: str) -> str | None:
    """A linked extension's source folder (``gemini extensions link``)."""
    text = read_text(os.path.join(folder, INSTALL_METADATA))
    if not isinstance(text, str):
        return None
    try:
        meta = json.loads(text)
    except ValueError:
        return None
    if (
        isinstance(meta, dict)
        and meta.get("type") == "link"
        and isinstance(meta.get("source"), str)
    ):
        return str(meta["source"])
    return None


def enabled_extension(enablement: Any, name: str, cwd: str) -> bool:
    """Whether ``extension-enablement.json`` leaves the extension on in ``cwd``: its
    ``overrides`` are path globs, ``!`` switching off, the last matching rule winning."""
    entry = enablement.get(name) if isinstance(enablement, dict) else None
    rules = entry.get("overrides") if isinstance(entry, dict) else None
    enabled = True
    path = _slashed(cwd)
    for rule in rules if isinstance(rules, list) else []:
        if not isinstance(rule, str):
            continue
        disable = rule.startswith("!")
        base = rule[1:] if disable else rule
        subdirs = base.endswith("*")
        base = base[:-1] if subdirs else base
        pattern = re.sub(
            r"[.+?^${}()|[\]\\]", lambda m: "\\" + m.group(0), base + ("*" if subdirs else "")
        )
        pattern = re.sub(r"(/?)\*", lambda m: f"({m.group(1)}.*)?", pattern)
        if re.fullmatch(pattern, path):
            enabled = not disable
    return enabled


def _slashed(path: str) -> str:
    path = path.replace("\\", "/")
    return ("" if path.startswith("/") else "/") + path + ("" if path.endswith("/") else "/")


def hydrate(value: str, variables: Mapping[str, str]) -> str:
    """An extension's ``${name}`` placeholders filled from ``variables``; an unknown one is
    left as it is (bash then expands it, §2.3 step 3)."""
    if "${" not in value:
        return value
    return re.sub(r"\$\{(.*?)\}", lambda m: variables.get(m.group(1), m.group(0)), value)


# Text ----------------------------------------------------------------------------------


def strip_json_comments(text: str) -> str:
    """``//`` and ``/* */`` comments outside strings blanked out (strip-json-comments, which
    Gemini reads its settings through)."""
    if "/" not in text:
        return text
    out: list[str] = []
    index, size = 0, len(text)
    in_string = False
    while index < size:
        char = text[index]
        if in_string:
            out.append(char)
            if char == "\\" and index + 1 < size:
                out.append(text[index + 1])
                index += 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
            out.append(char)
        elif text.startswith("//", index):
            end = text.find("\n", index)
            end = size if end < 0 else end
            out.append(" " * (end - index))
            index = end
            continue
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            end = size if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[index:end]))
            index = end
            continue
        else:
            out.append(char)
        index += 1
    return "".join(out)


def _fatal(why: str) -> Loaded:
    return Loaded(error=why, unreadable=True)
