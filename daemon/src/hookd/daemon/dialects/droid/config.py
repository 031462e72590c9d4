"""Reading Factory Droid's hook files (``droid-research.md`` §1, §2).

* A settings folder (``.factory``) holds two files with hooks: ``settings.json`` (its
  ``hooks`` object) and ``hooks.json`` (the event map itself, no ``hooks`` wrapper; the
  legacy ``hooks/hooks.json`` is read in its place when there is none). Per event, the
  ``hooks.json`` list replaces ``settings.json``'s (``dialect.select``).
* Both are JSON with comments (a trailing comma is refused). A file that does not parse
  counts as absent; a hooks object that breaks the agent's schema (a handler whose
  ``type`` is not ``command``, no ``command`` string, a ``timeout`` that is no number, a
  ``matcher`` that is no string, an event that is no list) loads nothing at all: the
  agent says so only in its log, and so does hookd (``Loaded.error``).
* An unknown event key is skipped, the rest kept; unknown keys of a group or a handler
  are ignored.
* ``hooksDisabled`` (a key inside the hooks object) and the org layer's
  ``allowManagedHooksOnly`` are kept as settings for ``dialect.select``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from ...model import Dialect, HookSpec, Loaded, Source
from ..gemini.config import strip_json_comments
from ..settings_json import read_text, unknown_event
from .events import DEFAULT_TIMEOUT_S, EVENTS, NOT_EVENTS, SETTINGS_DISABLE

HOOKS_FILE = "hooks.json"
LEGACY_HOOKS_FILE = os.path.join("hooks", "hooks.json")
SETTINGS_FILE = "settings.json"
DECLARED = "declared"
"""``Loaded.settings`` key: the events a hooks file names (an empty list replaces too)."""
EXISTS = "exists"
"""``Loaded.settings`` key: the hooks file is there (even unreadable: the legacy file is
then not read)."""
_EVENT_SET = frozenset(EVENTS)


def is_hooks_file(path: str) -> bool:
    """A ``hooks.json`` (flat event map), not a ``settings.json``."""
    return os.path.basename(path) == HOOKS_FILE


def folder_of(path: str) -> str:
    """The settings folder a hooks file belongs to (``.factory``)."""
    folder = os.path.dirname(path)
    if path.endswith(os.sep + LEGACY_HOOKS_FILE):
        folder = os.path.dirname(folder)
    return folder


def load(source: Source) -> Loaded:
    text = read_text(source.path)
    if isinstance(text, Loaded) or text is None:
        return text or Loaded()
    flat = is_hooks_file(source.path)
    present = {EXISTS: True} if flat else {}
    try:
        data = json.loads(strip_json_comments(text)) if text.strip() else {}
    except (ValueError, RecursionError) as exc:
        return Loaded(error=f"{source.path}: invalid JSON ({exc}); Droid skips the file",
                      settings=present)  # fmt: skip
    if not isinstance(data, dict):
        return Loaded(error=f"{source.path}: not a JSON object; Droid skips the file",
                      settings=present)  # fmt: skip
    settings: dict[str, Any] = dict(present)
    if data.get("allowManagedHooksOnly") is True and not flat:
        settings["allowManagedHooksOnly"] = True
    events = data if flat else data.get("hooks")
    if events is None:
        return Loaded(settings=settings)
    return hooks_of(source, events, settings)


def hooks_of(source: Source, events: Any, settings: dict[str, Any]) -> Loaded:
    """The handlers of one hooks object, all or none (the agent's schema), in order."""
    if not isinstance(events, Mapping):
        return Loaded(error=f"{source.path}: the hooks must be an object; Droid loads none "
                            "of this file's hooks", settings=settings)  # fmt: skip
    found: dict[str, tuple[HookSpec, ...]] = {}
    notes: list[str] = []
    declared: list[str] = []
    try:
        for event, groups in events.items():
            if event in NOT_EVENTS:
                _switch(event, groups, settings)
                continue
            if event not in _EVENT_SET:
                notes.append(f"{source.path}: {unknown_event(event, _EVENT_SET)}: Droid "
                             "ignores it")  # fmt: skip
                continue
            declared.append(event)
            specs = _groups(source, event, groups)
            if specs:
                found[event] = specs
    except ValueError as exc:
        return Loaded(error=f"{source.path}: {exc}; Droid loads none of this file's hooks",
                      settings=settings)  # fmt: skip
    settings[DECLARED] = declared
    return Loaded(hooks=found, settings=settings, notes=tuple(notes))


def _switch(name: str, value: Any, settings: dict[str, Any]) -> None:
    if not isinstance(value, bool):
        raise ValueError(f'"{name}" must be true or false')
    if name == SETTINGS_DISABLE:
        settings[SETTINGS_DISABLE] = value


def _groups(source: Source, event: str, groups: Any) -> tuple[HookSpec, ...]:
    if not isinstance(groups, list):
        raise ValueError(f"{event}: expected a list of matcher groups")
    specs: list[HookSpec] = []
    for index, group in enumerate(groups):
        where = f"{event}[{index}]"
        if not isinstance(group, dict):
            raise ValueError(f"{where}: a matcher group must be an object")
        matcher, regex = group.get("matcher"), group.get("commandRegex")
        for key, value in (("matcher", matcher), ("commandRegex", regex)):
            if value is not None and not isinstance(value, str):
                raise ValueError(f'{where}: "{key}" must be a string')
        handlers = group.get("hooks")
        if not isinstance(handlers, list):
            raise ValueError(f'{where}: "hooks" must be a list of handlers')
        for h_index, handler in enumerate(handlers):
            place = f"{where}.hooks[{h_index}]"
            specs.append(_handler(source, event, matcher, regex, handler, place))
    return tuple(specs)


def _handler(source: Source, event: str, matcher: str | None, regex: str | None,
             handler: Any, where: str) -> HookSpec:  # fmt: skip
    if not isinstance(handler, dict):
        raise ValueError(f"{where}: a handler must be an object")
    if handler.get("type") != "command":
        raise ValueError(f'{where}: "type" must be "command" (Droid runs commands only)')
    command = handler.get("command")
    if not isinstance(command, str):
        raise ValueError(f'{where}: "command" must be a string')
    timeout = handler.get("timeout")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int | float)):
        raise ValueError(f'{where}: "timeout" must be a number of seconds')
    preserve = handler.get("preserveRiskLevel")
    if preserve is not None and not isinstance(preserve, bool):
        raise ValueError(f'{where}: "preserveRiskLevel" must be true or false')
    return HookSpec(
        dialect=Dialect.DROID,
        event=event,
        source=source.path,
        layer=source.layer,
        command=command,
        argv=None,
        timeout_s=_seconds(timeout),
        matcher=matcher,
        root=source.root,
        options={"commandRegex": regex, "preserveRiskLevel": preserve is True},
    )


def _seconds(timeout: float | None) -> float:
    """``timeout || 60`` seconds: missing or 0 is 60, fractions count; a negative one
    expires at once."""
    if not timeout:
        return DEFAULT_TIMEOUT_S
    return max(float(timeout), 0.001)
