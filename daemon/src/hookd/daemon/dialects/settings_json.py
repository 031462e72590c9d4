"""Reading the settings-file dialects (Claude Code, Augment): event → matcher groups → handlers.

A settings file that cannot be read or parsed yields ``Loaded(error=...)``; the registry
then keeps the last good hooks of that file and shows the error in ``status`` and
``hooks/list`` (never a silent drop).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Mapping
from typing import Any

from ..jstext import is_positive_finite
from ..model import HookSpec, Loaded, Source
from ..safe_read import HookdLimitReached, UnreadableFile, read_regular_file

HandlerFactory = Callable[[Source, str, str | None, Mapping[str, Any], Mapping[str, Any]], HookSpec]
"""(source, event, matcher, handler, group) -> HookSpec; raises ValueError when invalid."""


def read_json_object(path: str) -> tuple[dict[str, Any] | None, str | None]:
    """The file's top-level object, or an error message that says where it went wrong."""
    try:
        raw = read_regular_file(path)
    except FileNotFoundError:
        return None, None
    except HookdLimitReached:
        raise  # hookd's own limit, not the file's fault: the registry says "never ran"
    except UnreadableFile as exc:
        return None, str(exc)
    if not raw.strip():
        return {}, None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        return None, f"{path}: {json_error(exc)}"
    except UnicodeDecodeError as exc:
        return None, f"{path}: not UTF-8 text ({exc.reason})"
    except RecursionError:
        return None, f"{path}: nested too deeply to read (over ~1,000 levels)"
    if not isinstance(data, dict):
        return None, f"{path}: the top level must be a JSON object, not {type(data).__name__}"
    return data, None


def json_error(exc: json.JSONDecodeError) -> str:
    """Where and why a JSON text does not parse, naming the commonest slip, a trailing
    comma (JSON allows none; the agents' own readers refuse it too)."""
    where = f"invalid JSON at line {exc.lineno} column {exc.colno}"
    before = exc.doc[: exc.pos].rstrip()
    if before.endswith(",") and exc.doc[exc.pos : exc.pos + 1] in ("}", "]"):
        line = exc.doc.count("\n", 0, len(before) - 1) + 1
        return f"{where}: a trailing comma (line {line}) before '{exc.doc[exc.pos]}': remove it"
    return f"{where}: {exc.msg}"


def unknown_event(event: str, known: frozenset[str]) -> str:
    """An unknown event, with the known one it most likely meant (a letter-case slip,
    a typo), else the list."""
    by_case = [name for name in known if name.lower() == event.lower()]
    meant = by_case or difflib.get_close_matches(event, sorted(known), n=1, cutoff=0.75)
    if meant:
        return f"unknown event {event!r} (did you mean {meant[0]!r}?)"
    return f"unknown event {event!r} (known: {', '.join(sorted(known))})"


def load_settings_hooks(
    source: Source,
    known_events: frozenset[str],
    make_handler: HandlerFactory,
    keep_settings: tuple[str, ...] = (),
) -> Loaded:
    """Parse ``source`` into hooks per event; problems are collected, not raised.

    Unknown events and invalid handlers are reported in ``Loaded.error`` (one line each)
    while every valid handler of the file is still loaded.
    """
    data, error = read_json_object(source.path)
    if data is None:
        return Loaded(error=error, unreadable=error is not None)
    return hooks_from_object(source, data, known_events, make_handler, keep_settings)


def hooks_from_object(
    source: Source,
    data: Mapping[str, Any],
    known_events: frozenset[str],
    make_handler: HandlerFactory,
    keep_settings: tuple[str, ...] = (),
) -> Loaded:
    """``load_settings_hooks`` for an object already read (a plugin's ``hooks.json``)."""
    settings = {key: data[key] for key in keep_settings if key in data}
    hooks_section = data.get("hooks", {})
    if not isinstance(hooks_section, dict):
        return Loaded(error=f'{source.path}: "hooks" must be an object', settings=settings)
    problems: list[str] = []
    notes: list[str] = []
    hooks: dict[str, tuple[HookSpec, ...]] = {}
    for event, groups in hooks_section.items():
        if event not in known_events:
            problems.append(unknown_event(event, known_events))
            continue
        specs = _load_groups(source, event, groups, make_handler, problems)
        notes += _unknown_group_keys(source, event, groups)
        if specs:
            hooks[event] = tuple(specs)
    error = f"{source.path}: " + "; ".join(problems) if problems else None
    return Loaded(hooks=hooks, error=error, settings=settings, notes=tuple(notes))


GROUP_KEYS = ("matcher", "hooks")
"""What a matcher group may hold; the agent ignores any other key (a misspelled
``"matchers"`` leaves the group without a matcher: it runs for every tool)."""


def _unknown_group_keys(source: Source, event: str, groups: object) -> list[str]:
    """A note per unknown key of a matcher group, with the key it likely meant."""
    if not isinstance(groups, list):
        return []
    notes = []
    for index, group in enumerate(groups):
        for key in group if isinstance(group, dict) else ():
            if key in GROUP_KEYS:
                continue
            meant = difflib.get_close_matches(key, GROUP_KEYS, n=1, cutoff=0.7)
            hint = f" (did you mean {meant[0]!r}?)" if meant else ""
            effect = (": the agent ignores it, so this group has no matcher and runs for every "
                      "tool" if meant == ["matcher"] and "matcher" not in group
                      else ": the agent ignores it")  # fmt: skip
            notes.append(f"{source.path}: {event}[{index}]: unknown key {key!r}{hint}{effect}")
    return notes


def _load_groups(
    source: Source,
    event: str,
    groups: object,
    make_handler: HandlerFactory,
    problems: list[str],
) -> list[HookSpec]:
    if not isinstance(groups, list):
        problems.append(f"{event}: expected a list of matcher groups")
        return []
    specs: list[HookSpec] = []
    for g_index, group in enumerate(groups):
        where = f"{event}[{g_index}]"
        if not isinstance(group, dict):
            problems.append(f"{where}: a matcher group must be an object")
            continue
        matcher = group.get("matcher")
        if matcher is not None and not isinstance(matcher, str):
            problems.append(f'{where}: "matcher" must be a string')
            continue
        handlers = group.get("hooks")
        if not isinstance(handlers, list):
            problems.append(f'{where}: "hooks" must be a list of handlers')
            continue
        for h_index, handler in enumerate(handlers):
            if not isinstance(handler, dict):
                problems.append(f"{where}.hooks[{h_index}]: a handler must be an object")
                continue
            try:
                specs.append(make_handler(source, event, matcher, handler, group))
            except ValueError as exc:
                problems.append(f"{where}.hooks[{h_index}]: {exc}")
    return specs


def number_field(handler: Mapping[str, Any], name: str, default: float) -> float:
    """A positive number from the handler, or ``default`` when absent."""
    value = handler.get(name)
    if value is None:
        return default
    if not is_positive_finite(value):
        raise ValueError(f'"{name}" must be a positive finite number, not {value!r}')
    return float(value)


def read_text(path: str) -> str | Loaded | None:
    """A hook file's text; None when there is none; a ``Loaded`` error when it cannot be
    read (a file that is no UTF-8 text too: no hooks from it)."""
    try:
        return read_regular_file(path).decode("utf-8")
    except FileNotFoundError:
        return None
    except HookdLimitReached:
        raise  # hookd's own limit: the registry says "never ran"
    except UnreadableFile as exc:
        return Loaded(error=str(exc), unreadable=True)
    except UnicodeDecodeError as exc:
        return Loaded(error=f"{path}: not UTF-8 text ({exc.reason})", unreadable=True)
