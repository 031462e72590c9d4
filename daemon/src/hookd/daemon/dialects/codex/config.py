"""Reading Codex CLI's hook files: a layer's ``hooks.json`` and the ``[hooks]`` table of its
``config.toml``, with the agent's own strictness (0.171.0, found by running it).

* ``hooks.json``: only ``description`` and ``hooks`` at the top; JSON that does not parse,
  another top-level key, a handler ``type`` other than ``command``, ``mcp_tool``,
  ``prompt``, ``agent``, a missing ``type`` or a value of the wrong type: the whole file is
  skipped, with a warning. An unknown event, and unknown keys in a group or a handler, are
  ignored in silence.
* A handler Codex cannot run is skipped with a warning and the rest of the file kept:
  ``prompt`` and ``agent`` handlers, an empty command, an ``mcp_tool`` with no server or
  tool; a group whose matcher is not a valid regular expression (on an event that reads
  matchers).
* Timeouts are whole seconds: 600 unless given, 0 counts as 1; ``SessionEnd`` and
  ``Interrupt`` hooks get 1 s unless given and at most 3 s (said). An ``async`` hook runs in
  the background (not on ``SessionEnd``: said, and run in the foreground).
* Every handler keeps its trust key, ``<file>:<event label>:<group>:<handler>`` (the
  indices count what is written, skipped handlers included): the user's ``config.toml``
  ``[hooks.state."<key>"] enabled = false`` switches it off.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Mapping
from typing import Any

from ...model import HookSpec, Loaded, Source
from ..settings_json import read_text
from .events import (
    CONTEXT_EVENTS,
    DEFAULT_TIMEOUT_S,
    EVENTS,
    MATCHED_FIELD,
    SHORT_CAP_S,
    SHORT_DEFAULT_S,
    SHORT_EVENTS,
    SNAKE,
)

HANDLER_TYPES = ("command", "mcp_tool", "prompt", "agent")
HOOKS_FILE = "hooks.json"
CONFIG_FILE = "config.toml"
REQUIREMENTS_FILE = "requirements.toml"
EXACT_MATCHER = re.compile(r"[A-Za-z0-9_|]*")
"""A matcher of only these characters is a list of exact names; any other a regex."""
_EVENT_SET = frozenset(EVENTS)


class FileSkipped(ValueError):
    """The whole file is skipped (what Codex says, as near as hookd can word it)."""


def load_hooks_json(source: Source) -> Loaded:
    """One ``hooks.json`` source."""
    raw = read_text(source.path)
    if raw is None:
        return Loaded()
    if isinstance(raw, Loaded):
        return raw
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        return _skipped(f"failed to parse hooks config {source.path}: {_json_error(exc)}")
    if not isinstance(data, dict):
        return _skipped(f"failed to parse hooks config {source.path}: invalid type: "
                        f"{_kind(data)}, expected struct HooksFile")  # fmt: skip
    unknown = [key for key in data if key not in ("description", "hooks")]
    if unknown:
        return _skipped(f"failed to parse hooks config {source.path}: unknown field "
                        f"`{unknown[0]}`, expected `description` or `hooks`")  # fmt: skip
    try:
        return hooks_of(source, data.get("hooks") or {})
    except FileSkipped as exc:
        return _skipped(f"failed to parse hooks config {source.path}: {exc}")


def load_config_toml(source: Source) -> Loaded:
    """One ``config.toml`` (or the managed ``requirements.toml``) source: its ``[hooks]``
    events, its ``hooks.state`` (the user's switches) in ``Loaded.settings["state"]``,
    and ``allow_managed_hooks_only``."""
    raw = read_text(source.path)
    if raw is None:
        return Loaded()
    if isinstance(raw, Loaded):
        return raw
    try:
        data = tomllib.loads(raw)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        return _skipped(f"{source.path}: invalid configuration ({exc}); Codex uses its "
                        "defaults, so none of this file's hooks run")  # fmt: skip
    only_managed = data.get("allow_managed_hooks_only") is True
    hooks = data.get("hooks")
    if hooks is None:
        return Loaded(settings={"allow_managed_hooks_only": True} if only_managed else {})
    if not isinstance(hooks, dict):
        return _skipped(f"{source.path}: invalid type for `hooks`: expected a table; Codex "
                        "uses its defaults, so none of this file's hooks run")  # fmt: skip
    state = hooks.get("state")
    settings: dict[str, Any] = {"state": state} if isinstance(state, dict) else {}
    if only_managed:
        settings["allow_managed_hooks_only"] = True
    events = {event: groups for event, groups in hooks.items() if event != "state"}
    try:
        loaded = hooks_of(source, events)
    except FileSkipped as exc:
        return _skipped(f"failed to parse TOML hooks in {source.path}: {exc}")
    return Loaded(loaded.hooks, loaded.error, settings)


def folder_files(folder: Source) -> tuple[Source, Source]:
    """A Codex folder's two files (``CODEX_HOME`` named by the agent's environment)."""
    return _inside(folder, HOOKS_FILE), _inside(folder, CONFIG_FILE)


def merged(json_part: Loaded, toml_part: Loaded) -> Loaded:
    """A folder's ``hooks.json`` hooks, then its ``config.toml``'s, as one reading."""
    hooks: dict[str, tuple[HookSpec, ...]] = dict(json_part.hooks)
    for event, specs in toml_part.hooks.items():
        hooks[event] = (*hooks.get(event, ()), *specs)
    errors = [e for e in (json_part.error, toml_part.error) if e]
    return Loaded(hooks, "\n".join(errors) or None, toml_part.settings)


def _inside(folder: Source, name: str) -> Source:
    return Source(folder.dialect, folder.layer, os.path.join(folder.path, name), "settings",
                  folder.root)  # fmt: skip


def hooks_of(source: Source, events: Mapping[str, Any]) -> Loaded:
    """The handlers of an events table, in order; ``FileSkipped`` for what skips the file."""
    if not isinstance(events, Mapping):
        raise FileSkipped(f"invalid type: {_kind(events)}, expected a map of events")
    found: dict[str, list[HookSpec]] = {}
    said: list[str] = []
    for event, groups in events.items():
        if event not in _EVENT_SET:
            continue  # Codex ignores an event it does not know, in silence
        if not isinstance(groups, list):
            raise FileSkipped(f"invalid type: {_kind(groups)}, expected a sequence")
        for group_index, group in enumerate(groups):
            specs = _group(source, event, group_index, group, said)
            found.setdefault(event, []).extend(specs)
    return Loaded({e: tuple(s) for e, s in found.items() if s}, "\n".join(said) or None)


def _group(source: Source, event: str, index: int, group: Any, said: list[str]) -> list[HookSpec]:
    if not isinstance(group, Mapping):
        raise FileSkipped(f"invalid type: {_kind(group)}, expected struct MatcherGroup")
    matcher = group.get("matcher")
    if matcher is not None and not isinstance(matcher, str):
        raise FileSkipped(f"invalid type: {_kind(matcher)}, expected a string")
    handlers = group.get("hooks", [])
    if not isinstance(handlers, list):
        raise FileSkipped(f"invalid type: {_kind(handlers)}, expected a sequence")
    parsed = [_handler(h) for h in handlers]  # every handler checked: one bad skips the file
    if event not in MATCHED_FIELD:
        matcher = None  # ignored on this event: not even checked
    elif matcher is not None and not valid_matcher(matcher):
        said.append(f"invalid matcher {json.dumps(matcher)} in {source.path}: "
                    f"{_regex_error(matcher)}")  # fmt: skip
        return []
    specs = []
    for handler_index, handler in enumerate(parsed):
        key = f"{source.path}:{SNAKE[event]}:{index}:{handler_index}"
        spec = _spec(source, event, matcher, handler, key, said)
        if spec is not None:
            specs.append(spec)
    return specs


def _handler(handler: Any) -> dict[str, Any]:
    """A handler object checked as Codex's types check it (``FileSkipped`` when not)."""
    if not isinstance(handler, Mapping):
        raise FileSkipped(f"invalid type: {_kind(handler)}, expected internally tagged enum")
    kind = handler.get("type")
    if kind is None:
        raise FileSkipped("missing field `type`")
    if kind not in HANDLER_TYPES:
        expected = ", ".join(f"`{t}`" for t in HANDLER_TYPES)
        raise FileSkipped(f"unknown variant `{kind}`, expected one of {expected}")
    checks: dict[str, type | tuple[type, ...]] = {
        "command": str, "commandWindows": str, "command_windows": str, "statusMessage": str,
        "server": str, "tool": str, "async": bool, "input": dict,
    }  # fmt: skip
    for key, wanted in checks.items():
        if key in handler and not isinstance(handler[key], wanted):
            raise FileSkipped(f"invalid type: {_kind(handler[key])} for `{key}`")
    for key in ("timeout", "additionalContextLimit"):
        value = handler.get(key)
        if value is not None and (type(value) is not int or value < 0):
            raise FileSkipped(f"invalid value: {_kind(value)} for `{key}`, expected u64")
    if kind == "command" and "command" not in handler:
        raise FileSkipped("missing field `command`")
    return dict(handler)


def _spec(
    source: Source,
    event: str,
    matcher: str | None,
    handler: dict[str, Any],
    key: str,
    said: list[str],
) -> HookSpec | None:
    """The hook of one handler, or None (skipped, with what Codex says in ``said``)."""
    kind = handler["type"]
    where = source.path
    if kind in ("prompt", "agent"):
        said.append(f"skipping {kind} hook in {where}: {kind} hooks are not supported yet")
        return None
    if kind == "mcp_tool":
        if not handler.get("server") or not handler.get("tool"):
            said.append(f"skipping MCP tool hook in {where}: server and tool must not be empty")
            return None
        if event == "SessionEnd":
            said.append(f"skipping MCP tool hook in {where}: {event} MCP hooks are not supported")
            return None
        command = f"mcp_tool: {handler['server']}/{handler['tool']}"
    else:
        command = handler["command"]
        if not command.strip():
            said.append(f"skipping empty hook command in {where}")
            return None
    limit = handler.get("additionalContextLimit")
    if limit is not None and event not in CONTEXT_EVENTS:
        said.append(f"ignoring additionalContextLimit for {event} hook in {where}: this "
                    "event cannot emit additionalContext")  # fmt: skip
        limit = None
    background = bool(handler.get("async")) and kind == "command"
    if background and event == "SessionEnd":
        said.append(f"running async SessionEnd hook synchronously in {where}")
        background = False
    return HookSpec(
        dialect=source.dialect,
        event=event,
        source=source.path,
        layer=source.layer,
        command=command,
        argv=None,
        timeout_s=float(_timeout(event, handler.get("timeout"), where, said)),
        matcher=matcher,
        root=source.root,
        options={"type": kind, "key": key, "handler": handler, "contextLimit": limit},
        background=background,
    )


def _timeout(event: str, given: int | None, where: str, said: list[str]) -> int:
    if event in SHORT_EVENTS:
        seconds = SHORT_DEFAULT_S if given is None else max(given, 1)
        if seconds > SHORT_CAP_S:
            said.append(f"clamping {event} hook timeout to {SHORT_CAP_S}s in {where}")
            seconds = SHORT_CAP_S
        return seconds
    return DEFAULT_TIMEOUT_S if given is None else max(given, 1)


def matches(matcher: str | None, names: tuple[str, ...]) -> bool:
    """Codex's matcher: none, ``""`` or ``*`` match everything; letters, digits, ``_`` and
    ``|`` only are exact names (``Ba`` does not match ``Bash``); anything else is a regular
    expression searched anywhere in the name (``^Ba`` matches ``Bash``)."""
    if matcher is None or matcher in ("", "*"):
        return True
    if EXACT_MATCHER.fullmatch(matcher):
        wanted = set(matcher.split("|"))
        return any(name in wanted for name in names)
    try:
        pattern = re.compile(matcher)
    except re.error:
        return False
    return any(pattern.search(name) for name in names)


def valid_matcher(matcher: str) -> bool:
    if matcher in ("", "*") or EXACT_MATCHER.fullmatch(matcher):
        return True
    try:
        re.compile(matcher)
    except re.error:
        return False
    return True


def _regex_error(matcher: str) -> str:
    try:
        re.compile(matcher)
    except re.error as exc:
        return f"regex parse error: {exc}"
    return "regex parse error"


def _skipped(why: str) -> Loaded:
    """A file Codex skips whole: no hooks from it (``kept_after_error`` keeps none)."""
    return Loaded(error=why, unreadable=True)


def _json_error(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} at line {exc.lineno} column {exc.colno}"
    return "nested too deeply"


def _kind(value: object) -> str:
    names = {bool: "boolean", int: "integer", float: "floating point", str: "string",
             list: "sequence", dict: "map", type(None): "null"}  # fmt: skip
    return names.get(type(value), type(value).__name__)
