"""Reading Qwen Code's hook files (0.24.4, ``qwen-research.md`` §1, §2): the ``hooks`` and
``disableAllHooks`` of a ``settings.json``.

* A settings file is JSON with comments (read as Gemini CLI reads its own, whose settings
  loader Qwen forked). A project file that does not parse is set aside by Qwen (it saves a
  ``.corrupted`` copy and starts with empty project settings): none of its hooks run. A
  user or system file that does not parse is fatal (exit 1): hookd runs none of the
  agent's hooks and says why.
* Every row stands on its own (§1.4): an unknown event is skipped in silence (names are
  case-sensitive), an event that is not a list, a group with no ``hooks`` list, a handler
  whose ``type`` is not ``command``, ``http``, ``function`` or ``prompt``, a command
  without ``command``: skipped, with Qwen's debug-log line, the rest of the file kept.
  ``function`` handlers never come from a file (skipped). ``http`` and ``prompt`` handlers
  are Qwen's to run: hookd says so and runs the command hooks.
* Timeouts are seconds (60 unless given); a value of 1000 or more is milliseconds; a
  numeric string counts as its number; zero, a negative number or anything else is 60 s.
* ``hooks.enabled``, ``hooks.disabled`` and ``hooks.notifications`` are not events
  (Gemini's switches, which Qwen skips in silence).

What a command means is decided per fire (``dialect.select``): every string of a settings
file is expanded with the agent's environment (§2).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from ...model import HookSpec, Loaded, Source
from ..gemini.config import CONFIG_FIELDS, group_specs, strip_json_comments
from ..settings_json import read_text
from .events import DEFAULT_TIMEOUT_S, EVENTS, MS_FROM

SETTINGS_FILE = "settings.json"
HANDLER_TYPES = ("command", "http", "function", "prompt")
AGENT_HANDLERS = ("http", "prompt")
"""Handler types Qwen runs that are not commands (hookd leaves them to the agent)."""
_EVENT_SET = frozenset(EVENTS)


def load_settings(source: Source) -> Loaded:
    """One settings file: its hooks per event, its ``disableAllHooks`` and folder-trust
    switch in ``Loaded.settings``."""
    text = read_text(source.path)
    if isinstance(text, Loaded) or text is None:
        return text or Loaded()
    try:
        data = json.loads(strip_json_comments(text)) if text.strip() else {}
    except (ValueError, RecursionError) as exc:
        return _broken(source, f"invalid JSON ({exc})")
    if not isinstance(data, dict):
        return _broken(source, "the settings must be a JSON object")
    settings: dict[str, Any] = {}
    if "disableAllHooks" in data:
        settings["disableAllHooks"] = data["disableAllHooks"]
    security = data.get("security")
    trust = security.get("folderTrust") if isinstance(security, dict) else None
    if isinstance(trust, dict) and "enabled" in trust:
        settings["folderTrust"] = trust["enabled"]
    loaded = hooks_of(source, data.get("hooks"))
    return Loaded(loaded.hooks, loaded.error, settings)


def _broken(source: Source, why: str) -> Loaded:
    if source.layer == "project":
        return Loaded(error=f"{source.path}: {why}; Qwen Code replaces it with empty settings "
                      "(keeping a .corrupted copy), so none of its hooks run")  # fmt: skip
    return Loaded(error=f"{source.path}: {why}; Qwen Code will not start with it (exit 1), "
                  "so none of its hooks run", unreadable=True)  # fmt: skip


def hooks_of(source: Source, events: Any) -> Loaded:
    """The command handlers of a ``hooks`` object, in order, with Qwen's debug-log lines for
    the rows it skips."""
    if not isinstance(events, Mapping):
        return Loaded()
    found: dict[str, list[HookSpec]] = {}
    said: list[str] = []
    layer = source.layer
    for event, groups in events.items():
        if event in CONFIG_FIELDS or event not in _EVENT_SET:
            continue
        if not isinstance(groups, list):
            said.append(f'Hook definitions for event "{event}" from source "{layer}" is not '
                        "an array. Skipping.")  # fmt: skip
            continue
        for group in groups:
            found.setdefault(event, []).extend(
                group_specs(source, event, group, layer, said, _spec)
            )
    return Loaded({e: tuple(s) for e, s in found.items() if s}, "\n".join(said) or None)


def _spec(
    source: Source,
    event: str,
    matcher: str | None,
    sequential: bool,
    handler: Any,
    said_as: str,
    said: list[str],
) -> HookSpec | None:
    kind = handler.get("type") if isinstance(handler, Mapping) else None
    if not isinstance(handler, Mapping) or kind not in HANDLER_TYPES:
        said.append(f"Invalid hook {event} from {said_as} type: {kind}")
        return None
    if kind in AGENT_HANDLERS:
        said.append(f"{source.path}: a {kind} hook on {event}: Qwen Code runs it, hookd runs "
                    "command hooks only")  # fmt: skip
        return None
    command = handler.get("command")
    if kind == "function" or not isinstance(command, str) or not command:
        what = "missing or invalid callback" if kind == "function" else "missing command field"
        said.append(f"Invalid hook {event} from {said_as}: {what}")
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
        timeout_s=timeout_s(handler.get("timeout")),
        matcher=matcher,
        root=source.root,
        options={
            "name": name if isinstance(name, str) and name else None,
            "env": {k: v for k, v in env.items() if isinstance(v, str)}
            if isinstance(env, Mapping)
            else {},
            "sequential": sequential,
            "shell": handler.get("shell") if isinstance(handler.get("shell"), str) else None,
        },
        background=handler.get("async") is True,
    )


def timeout_s(given: Any) -> float:
    """A handler's timeout in seconds (``hook-timeout.ts``): seconds, a value of 1000 or more
    milliseconds, a string by ``Number()``; zero, negative or not a number: 60."""
    if isinstance(given, str):
        try:
            given = float(given.strip()) if given.strip() else 0.0
        except ValueError:
            given = None
    if isinstance(given, bool) or not isinstance(given, int | float):
        return DEFAULT_TIMEOUT_S
    if not math.isfinite(given) or given <= 0:
        return DEFAULT_TIMEOUT_S
    return float(given) / 1000 if given >= MS_FROM else float(given)
