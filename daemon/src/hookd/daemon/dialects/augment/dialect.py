"""Augment, as auggie 0.36.0 runs its hooks (the judge; ``augment-hooks.md`` lags it).

Settings files, read in this order and merged: ``/etc/augment/settings.json`` (system),
``~/.augment/settings.json`` (user), ``<root>/.augment/settings.local.json``,
``<root>/.augment/settings.json``, then each plugin's ``hooks/*.json`` (the folders a
fire names in ``hooksDirs``, auggie's ``--plugin-dir``). Groups with the same matcher
merge across files, a handler with the same ``command`` and ``args`` runs once, and the
groups' ``metadata`` flags are OR-ed. An event's hooks run in parallel.

A command is spawned without a shell after ``${VAR}`` expansion, unless it starts with
``~`` or (without ``args``) contains one of ``|&;><$```, when ``bash -c`` runs it; a
command with spaces and no ``args`` is split into words. The hook's stdin is the event
as ``JSON.stringify(event, null, 2)``.

Results combine as auggie's ``combineResults`` and ``routeHookOutput`` do (``refine``):
exit 2 anywhere makes every hook's stderr the message; another failing exit code anywhere
makes the outcome a non-blocking error (a deny beside it is lost, unless the failing
hook's ``failurePolicy`` is ``"strict"``); otherwise JSON fields route to the agent or
the user. Only PreToolUse blocks (its message becomes the tool result) and applies
``updatedInput``; PostToolUse messages for the agent are appended to the tool result
(``context``); on every other event auggie acts on nothing but the user messages
(``systemMessage``).
"""

from __future__ import annotations

import errno
import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ...jstext import JS_WHITESPACE, is_positive_finite, parse_json, to_json_bytes
from ...model import (
    Combined,
    CombinePolicy,
    Dialect,
    FireRequest,
    HookReport,
    HookSpec,
    Launch,
    Loaded,
    ProcessOutcome,
    Source,
    Verdict,
)
from .. import base, relay_entries, windows
from ..base import first_root, hook_environment
from ..settings_json import read_json_object

DIALECT = Dialect.AUGMENT
EVENTS: tuple[str, ...] = (
    "PreToolUse",
    "PostToolUse",
    "Stop",
    "SessionStart",
    "SessionEnd",
    "Notification",
    "PromptSubmit",
)
_EVENT_SET = frozenset(EVENTS)
TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse"})
CURSOR_EVENTS: dict[str, tuple[str, str]] = {
    "beforeShellExecution": ("PreToolUse", "Bash"),
    "beforeMCPExecution": ("PreToolUse", "MCP:.*"),
    "beforeReadFile": ("PreToolUse", "Read"),
    "afterFileEdit": ("PostToolUse", "Edit|Write"),
    "afterShellExecution": ("PostToolUse", "Bash"),
    "afterMCPExecution": ("PostToolUse", "MCP:.*"),
    "stop": ("Stop", ""),
}
"""Cursor-style keys: a file whose hooks use only these is read as these native events
with these matchers (auggie's own mapping, matched against auggie's tool names)."""
DEFAULT_TIMEOUT_MS = 60_000
POLICY = CombinePolicy(reasons_from="all")
UNCANCELLABLE_EVENTS: frozenset[str] = frozenset()
GUARD_EVENTS = frozenset({"PreToolUse"})
"""The only event whose hooks guard an action in auggie (a Stop block is ignored)."""
TAKES_HOOKS_DIRS = True
"""``hooksDirs`` are plugin folders (auggie's ``--plugin-dir``)."""
HOOKS_DIR_ENV: str | None = None
PLUGIN_LAYER = "hooks-dir"
async_result = base.no_async_result
action = base.plain_action
hook_label = base.label_by_command
METADATA_FIELDS: dict[str, tuple[str, frozenset[str]]] = {
    "context": ("includeUserContext", _EVENT_SET),
    "mcp_metadata": ("includeMCPMetadata", TOOL_EVENTS),
    "conversation": ("includeConversationData", frozenset({"Stop"})),
}
"""Payload field -> (opt-in flag, events it may reach)."""
PROMPT_FLAG = "includeConversationData"
"""``user_prompt`` reaches a tool event's hooks only with this flag (always PromptSubmit's)."""
SHELL_CHARACTERS = re.compile(r"[|&;><$`]")
PLUGIN_ROOT_PLACEHOLDERS = (
    "${CLAUDE_PLUGIN_ROOT}",
    "${AUGMENT_PLUGIN_ROOT}",
    "${AUGGIE_PLUGIN_ROOT}",
)
ENV_REFERENCE = re.compile(r"(?<!\\)\$\{([a-zA-Z_][a-zA-Z0-9_]*)(?::-([\s\S]*?))?\}")
METADATA_SCOPES = ("fire", "own")
"""A handler's ``metadataScope`` (hookd's own key): ``"fire"`` (the default) gives it the
private fields any matched group opted in to, as auggie builds one payload per fire;
``"own"`` only those its own group opted in to."""
FAILURE_POLICIES = ("agent", "strict")
"""A handler's ``failurePolicy`` (hookd's own key; auggie ignores it): ``"agent"`` (the
default) fails as auggie does, ``"strict"`` keeps a block this hook gave or another hook
gave when this one fails."""


def canonical_event(event: str) -> str | None:
    return event if event in _EVENT_SET else None


# -- where hooks are declared ---------------------------------------------------------


def sources(home: str, system_root: str, roots: Sequence[str]) -> list[Source]:
    """The settings files in auggie's order, each of the user's and the workspaces'
    followed by the hookd-owned file of the hooks adopted from it (``hookd adopt``: read
    the same way, in the same place of the order)."""
    system = os.path.join(system_root, "etc", "augment", "settings.json")
    found = [Source(DIALECT, "system", system, "settings")]
    files: list[tuple[str, str, str | None]] = [("user", os.path.join(home, ".augment"), None)]
    files += [(layer, os.path.join(root, ".augment"), root)
              for root in roots for layer in ("workspace-local", "workspace")]  # fmt: skip
    for layer, folder, root in files:
        name = ADOPTED_FILES[layer]
        path = os.path.join(folder, name)
        found.append(Source(DIALECT, layer, path, "settings", root))
        owned = os.path.join(relay_entries.owned_folder(home, DIALECT.value, root), name)
        found.append(Source(DIALECT, layer, owned, "settings", root, adopted=True,
                            adopted_from=path))  # fmt: skip
    # One file is one source: with the home folder as a workspace root, the user file is
    # also the workspace file; it is read once, in the user file's place.
    unique: dict[str, Source] = {}
    for source in found:
        unique.setdefault(source.path, source)
    return list(unique.values())


ADOPTED_FILES = {
    "user": "settings.json", "workspace-local": "settings.local.json",
    "workspace": "settings.json",
}  # fmt: skip
"""Each layer's settings file name, the same in the hookd-owned folder
(``~/.config/hookd/augment/``, ``<root>/.hookd/augment/``)."""


def load(source: Source) -> Loaded:
    data, error = read_json_object(source.path)
    if data is None:
        return Loaded(error=error, unreadable=error is not None)
    return _from_settings(source, data, plugin_root=None)


def load_event(source: Source, event: str) -> Loaded:
    """A plugin folder's ``hooks/*.json`` files (a ``hooksDirs`` entry), in name order."""
    folder = os.path.join(source.path, "hooks")
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".json"))
    except OSError:
        return Loaded()
    hooks: list[HookSpec] = []
    problems: list[str] = []
    for name in names:
        path = os.path.join(folder, name)
        data, error = read_json_object(path)
        if data is None:
            if error:
                problems.append(error)
            continue
        file_source = replace(source, path=path, layer=PLUGIN_LAYER)
        content = _from_settings(file_source, data, plugin_root=source.path)
        hooks.extend(content.hooks.get(event, ()))
        if content.error:
            problems.append(content.error)
    return Loaded(hooks={event: tuple(hooks)} if hooks else {}, error="; ".join(problems) or None)


def _from_settings(source: Source, data: Mapping[str, Any], plugin_root: str | None) -> Loaded:
    """auggie's reading of one file: an event whose groups fail its schema is dropped
    whole (the file's other events stay); unknown keys are reported."""
    section = data.get("hooks")
    if section is None:
        return Loaded()
    if not isinstance(section, dict):
        return Loaded(error=f'{source.path}: "hooks" must be an object')
    problems: list[str] = []
    cursor_keys = [key for key in section if key in CURSOR_EVENTS]
    cursor_only = bool(section) and len(cursor_keys) == len(section)
    if cursor_keys and not cursor_only:
        return Loaded(
            error=f"{source.path}: Cursor-style keys ({', '.join(cursor_keys)}) beside other "
            "keys: auggie ignores this whole file; use one style per file"
        )
    hooks: dict[str, list[HookSpec]] = {}
    for key, groups in section.items():
        try:
            if cursor_only:
                event, matcher = CURSOR_EVENTS[key]
                specs = _cursor_specs(source, event, matcher, groups, plugin_root)
            elif key in _EVENT_SET:
                event = key
                specs = _native_specs(source, key, groups, plugin_root)
            else:
                why = "a Cursor-style key beside native events" if key in CURSOR_EVENTS else ""
                problems.append(
                    f"{key}: not an event auggie fires{' (' + why + ')' if why else ''}"
                )
                continue
        except ValueError as exc:
            problems.append(f"{key}: {exc}; auggie ignores this event's hooks in this file")
            continue
        hooks.setdefault(event, []).extend(specs)
    error = f"{source.path}: " + "; ".join(problems) if problems else None
    return Loaded(hooks={e: tuple(s) for e, s in hooks.items()}, error=error)


def event_problem(event: str, groups: object) -> str | None:
    """Why auggie ignores ``event``'s hooks in a settings file (its schema), or None."""
    source = Source(DIALECT, "user", "", "settings")
    try:
        _native_specs(source, event, groups, plugin_root=None)
    except ValueError as exc:
        return str(exc)
    return None


def _native_specs(
    source: Source, event: str, groups: object, plugin_root: str | None
) -> list[HookSpec]:
    if not isinstance(groups, list):
        raise ValueError("expected a list of matcher groups")
    specs: list[HookSpec] = []
    for index, group in enumerate(groups):
        if not isinstance(group, dict):
            raise ValueError(f"[{index}]: a matcher group must be an object")
        matcher = ""  # auggie drops a matcher outside the tool events
        if event in TOOL_EVENTS:
            raw = group.get("matcher", ".*")
            if not isinstance(raw, str):
                raise ValueError(f'[{index}]: "matcher" must be a string')
            problem = matcher_problem(raw)
            if problem:
                raise ValueError(f"[{index}]: invalid regex pattern {raw!r}: {problem}")
            matcher = raw
        metadata = group.get("metadata")
        if metadata is not None and not (
            isinstance(metadata, dict) and all(isinstance(v, bool) for v in metadata.values())
        ):
            raise ValueError(f'[{index}]: "metadata" must be an object of true/false flags')
        handlers = group.get("hooks")
        if not isinstance(handlers, list):
            raise ValueError(f'[{index}]: "hooks" must be a list of handlers')
        for h_index, handler in enumerate(handlers):
            where = f"[{index}].hooks[{h_index}]"
            if not isinstance(handler, dict) or handler.get("type") != "command":
                raise ValueError(f'{where}: only "type": "command" handlers are supported')
            specs.append(_spec(source, event, matcher, handler, metadata or {}, plugin_root, where))
    return specs


def _cursor_specs(
    source: Source, event: str, matcher: str, handlers: object, plugin_root: str | None
) -> list[HookSpec]:
    if not isinstance(handlers, list):
        raise ValueError("expected a list of handlers")
    specs = []
    for index, handler in enumerate(handlers):
        if not isinstance(handler, dict):
            raise ValueError(f"[{index}]: a handler must be an object")
        specs.append(_spec(source, event, matcher, handler, {}, plugin_root, f"[{index}]"))
    return specs


def _spec(
    source: Source,
    event: str,
    matcher: str,
    handler: Mapping[str, Any],
    metadata: Mapping[str, bool],
    plugin_root: str | None,
    where: str,
) -> HookSpec:
    command = handler.get("command")
    if not isinstance(command, str) or not command:
        raise ValueError(f'{where}: "command" must be a non-empty string')
    args = handler.get("args")
    if args is not None and not (isinstance(args, list) and all(isinstance(a, str) for a in args)):
        raise ValueError(f'{where}: "args" must be a list of strings')
    timeout = handler.get("timeout")
    if timeout is not None and not is_positive_finite(timeout):
        raise ValueError(f'{where}: "timeout" must be a positive number of milliseconds')
    policy = handler.get("failurePolicy", "agent")
    if policy not in FAILURE_POLICIES:
        raise ValueError(f'{where}: "failurePolicy" must be "agent" or "strict", not {policy!r}')
    scope = handler.get("metadataScope", "fire")
    if scope not in METADATA_SCOPES:
        raise ValueError(f'{where}: "metadataScope" must be "fire" or "own", not {scope!r}')
    return HookSpec(
        dialect=DIALECT,
        event=event,
        source=source.path,
        layer=source.layer,
        command=command,
        argv=None,
        timeout_s=(timeout or DEFAULT_TIMEOUT_MS) / 1000.0,
        matcher=matcher,
        root=source.root,
        options={
            "metadata": {k: v is True for k, v in metadata.items()},
            "args": tuple(args or ()),
            "plugin_root": plugin_root,
            "failure_policy": policy,
            "metadata_scope": scope,
        },
    )


switched_off = base.none_off


def kept_after_error(hooks: Mapping[str, tuple[HookSpec, ...]]) -> dict[str, tuple[HookSpec, ...]]:
    """The last good hooks of a file that no longer parses, kept so that a typo does not
    switch a policy hook off, but without their metadata opt-ins: the edit may have been
    the revocation of one, and private fields are default deny."""
    return {
        event: tuple(replace(spec, options={**spec.options, "metadata": {}}) for spec in specs)
        for event, specs in hooks.items()
    }


sequential = base.concurrent  # auggie: "Executing N hooks in parallel"
chained = base.unchained


# -- which hooks run --------------------------------------------------------------------


def matcher_matches(
    matcher: str | None, tool_name: str, is_mcp: bool, tool_event: bool = True
) -> bool:
    """auggie's matcher: empty matches everything; outside the tool events only ``.*``
    does; ``mcp:*`` and ``mcp:<regex>`` match MCP tools only, ``.*`` every tool, and any
    other (unanchored) regex only tools that are not MCP tools."""
    if not matcher:
        return True
    if not tool_event:
        return matcher == ".*"
    if matcher == "mcp:*":
        return is_mcp
    if matcher.startswith("mcp:"):
        return is_mcp and _search(matcher[4:], tool_name)
    if matcher == ".*":
        return True
    return not is_mcp and _search(matcher, tool_name)


def _search(pattern: str, text: str) -> bool:
    try:
        return re.search(pattern, text) is not None
    except re.error:
        return False


def matcher_problem(matcher: str | None) -> str | None:
    """Why ``matcher`` cannot compile as a regex, or None."""
    if not matcher:
        return None
    try:
        re.compile(matcher)
    except re.error as exc:
        return str(exc)
    return None


def select(
    loaded: Sequence[tuple[Source, Loaded]], request: FireRequest
) -> tuple[list[HookSpec], list[str]]:
    """auggie's merge, then its match: groups with one matcher merge across files (in
    file order: system, user, local, workspace, plugins), a handler with the same
    ``command`` and ``args`` runs once (the first declared), and every hook of the fire
    gets the OR of the matched groups' metadata flags (auggie builds one payload).

    hookd's relay entries never run. A relay fire runs only adopted hooks (of its entry's
    matcher), not one auggie runs itself, with the flags of every matched group, auggie's
    own included: the payload auggie gave the relay."""
    settings = [(s, c) for s, c in loaded if s.kind != "hookdir"]
    plugins = [(s, c) for s, c in loaded if s.kind == "hookdir"]
    groups: dict[str, list[HookSpec]] = {}
    flags: dict[str, dict[str, bool]] = {}
    seen: dict[str, set[tuple[str, tuple[str, ...]]]] = {}
    agent_runs = _agent_runs(settings + plugins, request) if request.relay else set()
    for source, content in [*settings, *plugins]:
        runs = source.adopted or not request.relay  # a relay fire: only adopted hooks
        for spec in content.hooks.get(request.event, ()):
            if relay_entries.is_relay_command(spec.command):
                continue  # hookd's own relay entry
            key = spec.matcher or ""
            merged = flags.setdefault(key, {})
            for flag, on in spec.options.get("metadata", {}).items():
                merged[flag] = merged.get(flag, False) or on
            identity = (spec.command, tuple(spec.options.get("args", ())))
            if identity in seen.setdefault(key, set()):
                continue
            seen[key].add(identity)
            if runs and (key, identity) not in agent_runs and _of_entry(key, request):
                groups.setdefault(key, []).append(spec)
    tool = request.payload.get("tool_name")
    tool_name = tool if isinstance(tool, str) else ""
    is_mcp = request.payload.get("is_mcp_tool") is True
    tool_event = request.event in TOOL_EVENTS
    matched = [k for k in flags if matcher_matches(k, tool_name, is_mcp, tool_event)]
    opted: dict[str, bool] = {}
    for key in matched:
        for flag, on in flags[key].items():
            opted[flag] = opted.get(flag, False) or on
    chosen = [
        spec if spec.options.get("metadata_scope") == "own"
        else replace(spec, options={**spec.options, "metadata": opted})
        for key in matched
        for spec in groups.get(key, ())
    ]  # fmt: skip
    return chosen, []


def _agent_runs(
    loaded: Sequence[tuple[Source, Loaded]], request: FireRequest
) -> set[tuple[str, tuple[str, tuple[str, ...]]]]:
    """(matcher, (command, args)) of the hooks auggie runs itself beside the relay: an
    adopted copy of one of them is the same hook to auggie, run once, by auggie."""
    return {
        (spec.matcher or "", (spec.command, tuple(spec.options.get("args", ()))))
        for source, content in loaded
        if not source.adopted
        for spec in content.hooks.get(request.event, ())
        if not relay_entries.is_relay_command(spec.command)
    }


def _of_entry(key: str, request: FireRequest) -> bool:
    """A relay group stands for the adopted groups of its matcher (auggie runs the relay
    once per matcher that matches: each runs that matcher's hooks)."""
    return request.relay_entry is None or key == request.relay_entry


# -- how a hook runs --------------------------------------------------------------------


def filtered_payload(spec: HookSpec, request: FireRequest) -> dict[str, Any]:
    """The event JSON for the fire's hooks: private fields only where opted in."""
    opted = spec.options.get("metadata", {})
    payload = {}
    for key, value in request.payload.items():
        rule = METADATA_FIELDS.get(key)
        if rule is not None:
            flag, events = rule
            if not opted.get(flag) or request.event not in events:
                continue
        if key == "user_prompt" and request.event in TOOL_EVENTS and not opted.get(PROMPT_FLAG):
            continue
        payload[key] = value
    payload["hook_event_name"] = request.event
    payload.setdefault("workspace_roots", list(request.roots))
    return payload


def expand_variables(text: str, env: Mapping[str, str]) -> str:
    """auggie's ``${NAME}`` / ``${NAME:-default}`` expansion: an unknown name without a
    default stays as written; ``\\${`` is a literal ``${``."""
    if "${" not in text:
        return text

    def one(match: re.Match[str]) -> str:
        name, default = match.group(1), match.group(2)
        if name in ("augmentToken", "workspaceFolder"):
            return match.group(0)
        if name in env:
            return env[name]
        return default if default is not None else match.group(0)

    return ENV_REFERENCE.sub(one, text).replace("\\${", "${")


def command_argv(command: str, args: Sequence[str]) -> tuple[str, ...]:
    """How auggie spawns a command on Unix: ``bash -c`` when it starts with ``~`` or,
    without ``args``, contains a shell character; split into words when it has spaces
    and no ``args``; else the command itself with its ``args``, without a shell. On
    Windows a script goes by its extension (``windows.script_argv``, experimental)."""
    if sys.platform == "win32":  # pragma: no cover - argv rules unit-tested on Linux
        words = [command, *args] if args else (split_words(command) or [command])
        return windows.script_argv(words[0], words[1:])
    if command.startswith("~") or (not args and SHELL_CHARACTERS.search(command)):
        return ("bash", "-c", f"{command} {' '.join(args)}" if args else command)
    if not args and " " in command:
        words = split_words(command)
        return tuple(words) if words else (command,)
    return (command, *args)


def split_words(command: str) -> list[str]:
    """auggie's word split: double- or single-quoted runs (quotes dropped), else runs of
    non-space characters."""
    pattern = re.compile(r"\"([^\"]*(?:\\.[^\"]*)*)\"|'([^']*(?:\\.[^']*)*)'|(\S+)")
    return [m.group(1) if m.group(1) is not None else m.group(2) if m.group(2) is not None
            else m.group(3) for m in pattern.finditer(command)]  # fmt: skip


def prepare(spec: HookSpec, request: FireRequest, base_env: Mapping[str, str]) -> Launch:
    """The hook's stdin, argv, cwd and environment, as auggie builds them.

    The daemon's own ``AUGMENT_*`` variables are dropped: a hook sees the documented ones
    only where the event defines them, never values that leaked from whatever started
    hookd. Variables the client passes in the fire's ``env`` (the agent's own
    environment) are kept, and ``${VAR}`` in the command and ``args`` expands from them.
    """
    payload = filtered_payload(spec, request)
    inherited = {k: v for k, v in base_env.items() if not k.startswith("AUGMENT_")}
    visible = {**inherited, **request.env}
    command = spec.command
    args = list(spec.options.get("args", ()))
    plugin_root = spec.options.get("plugin_root")
    if plugin_root:
        for placeholder in PLUGIN_ROOT_PLACEHOLDERS:
            command = command.replace(placeholder, plugin_root)
            args = [a.replace(placeholder, plugin_root) for a in args]
    command = expand_variables(command, visible)
    args = [expand_variables(a, visible) for a in args]
    roots = payload.get("workspace_roots")
    first = roots[0] if isinstance(roots, list) and roots and isinstance(roots[0], str) else ""
    cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else first
    cwd = cwd or first_root(request)
    extra = {"AUGMENT_PROJECT_DIR": first or cwd, "AUGMENT_HOOK_EVENT": request.event}
    conversation = payload.get("conversation_id")
    if isinstance(conversation, str):
        extra["AUGMENT_CONVERSATION_ID"] = conversation
    tool = payload.get("tool_name")
    if request.event in TOOL_EVENTS and isinstance(tool, str):
        extra["AUGMENT_TOOL_NAME"] = tool
    if plugin_root:
        for name in ("CLAUDE_PLUGIN_ROOT", "AUGMENT_PLUGIN_ROOT", "AUGGIE_PLUGIN_ROOT"):
            extra[name] = plugin_root
    return Launch(
        argv=command_argv(command, args),
        stdin=to_json_bytes(payload, indent=2),  # as auggie 0.36.0 writes it
        cwd=cwd,
        env=hook_environment(inherited, {**request.env, **extra}),
    )


# -- what a hook's answer means -----------------------------------------------------------


def hook_result(spec: HookSpec, request: FireRequest, outcome: ProcessOutcome) -> dict[str, Any]:
    """One hook's result as auggie's executor makes it (``parseResult``)."""
    if outcome.spawn_error or outcome.timed_out:
        why = (
            f"Hook execution timed out after {round(spec.timeout_s * 1000)}ms"
            if outcome.timed_out
            else _spawn_message(spec, outcome)
        )
        return {
            "continue": True,
            "exit": -1,
            "stdout": "",
            "stderr": f"Hook '{spec.command}' failed: {why}",
        }
    code = outcome.exit_code or 0  # killed by a signal: auggie reads exit code 0
    stdout, stderr = outcome.stdout_text, outcome.stderr_text
    result: dict[str, Any] = {
        "continue": True, "exit": code,
        "stdout": stdout.strip(JS_WHITESPACE), "stderr": stderr.strip(JS_WHITESPACE),
    }  # fmt: skip
    if code not in (0, 2):
        if spec.options.get("failure_policy") == "strict":
            obj = json_output(stdout)
            if obj is not None:  # hookd's stricter reading: a valid block still blocks
                _json_fields(obj, result)
        return result
    if code == 2 and request.event == "PreToolUse":
        result["continue"] = False
    obj = json_output(stdout)
    if obj is not None:
        _json_fields(obj, result)
    return result


def _spawn_message(spec: HookSpec, outcome: ProcessOutcome) -> str:
    """Node's wording: ``spawn <file> <ERRNO NAME>``."""
    code = errno.errorcode.get(outcome.spawn_errno or 0)
    if code is None:
        return str(outcome.spawn_error)
    return f"spawn {command_argv(spec.command, spec.options.get('args', ()))[0]} {code}"


def json_output(stdout: str) -> dict[str, Any] | None:
    """stdout as auggie's schema reads it: a JSON object whose known fields have the
    right types, else None (then it is plain text)."""
    text = stdout.strip(JS_WHITESPACE)
    if not text:
        return None
    try:
        value = parse_json(text)
    except ValueError:
        return None
    if not isinstance(value, dict) or not _valid(value):
        return None
    return value


_TOP_TYPES: dict[str, type] = {
    "continue": bool, "stopReason": str, "suppressOutput": bool, "systemMessage": str,
    "additionalContext": str,
}  # fmt: skip
_SPECIFIC_TYPES: dict[str, dict[str, Any]] = {
    "PreToolUse": {"permissionDecision": ("allow", "deny", "ask"),
                   "permissionDecisionReason": str, "updatedInput": dict},
    "PostToolUse": {"decision": ("block",), "reason": str, "additionalContext": str},
    "Stop": {"decision": ("block",), "reason": str},
    "SessionStart": {"additionalContext": str},
    "SessionEnd": {}, "Notification": {},
}  # fmt: skip


def _valid(obj: Mapping[str, Any]) -> bool:
    """auggie's zod schema: a known field may be absent, never ``null`` or mistyped."""
    for key, kind in _TOP_TYPES.items():
        if key in obj and not _is(obj[key], kind):
            return False
    if "hookSpecificOutput" not in obj:
        return True
    specific = obj["hookSpecificOutput"]
    if not isinstance(specific, dict):
        return False
    fields = _SPECIFIC_TYPES.get(specific.get("hookEventName"))  # type: ignore[arg-type]
    if fields is None:
        return False
    return all(key not in specific or _is(specific[key], kind) for key, kind in fields.items())


def _is(value: object, kind: Any) -> bool:
    if isinstance(kind, tuple):
        return value in kind
    if kind is bool:
        return isinstance(value, bool)
    if kind is dict:
        return isinstance(value, dict)
    return isinstance(value, kind)


def _json_fields(obj: Mapping[str, Any], result: dict[str, Any]) -> None:
    """auggie's ``parseJsonResult``: what a valid JSON answer sets."""
    result["json"] = True
    for key in ("stopReason", "systemMessage", "additionalContext"):
        if isinstance(obj.get(key), str):
            result[key] = obj[key]
    if isinstance(obj.get("continue"), bool):
        result["continue"] = obj["continue"]
    specific = obj.get("hookSpecificOutput")
    if not isinstance(specific, dict):
        return
    name = specific.get("hookEventName")
    if name == "PreToolUse":
        result["permissionDecision"] = specific.get("permissionDecision")
        result["permissionDecisionReason"] = specific.get("permissionDecisionReason")
        if isinstance(specific.get("updatedInput"), dict):
            result["updatedInput"] = specific["updatedInput"]
        if specific.get("permissionDecision") == "deny":
            result["continue"] = False
    elif name == "PostToolUse":
        result["blockTool"] = specific.get("decision") == "block"
        result["postReason"] = specific.get("reason")
        if specific.get("additionalContext"):
            result["additionalContext"] = specific["additionalContext"]
    elif name == "Stop":
        result["blockStop"] = specific.get("decision") == "block"
        result["stopBlockReason"] = specific.get("reason")
        if result["blockStop"]:
            result["continue"] = False
    elif name == "SessionStart":
        context = specific.get("additionalContext") or result.get("additionalContext")
        if context:
            result["sessionStartContext"] = context


def interpret(spec: HookSpec, request: FireRequest, outcome: ProcessOutcome) -> Verdict:
    """One hook on its own (for its report); ``refine`` decides the fire's outcome."""
    result = hook_result(spec, request, outcome)
    error = None
    if result["exit"] not in (0, 2):
        error = f"Failed with non-blocking status code {result['exit']}: " + (
            result["stderr"] or "No stderr output"
        )
    blocks = not result["continue"] and request.event == "PreToolUse"
    return Verdict(
        blocks=blocks,
        decision="deny" if blocks else None,
        reason=(result.get("permissionDecisionReason") or result["stderr"] or None)
        if blocks
        else None,
        error=error,
    )


def route(event: str, results: Sequence[Mapping[str, Any]]) -> tuple[list[str], list[str], bool]:
    """auggie's ``combineResults`` then ``routeHookOutput``: (messages for the agent,
    messages for the user, blocked)."""
    if not results:
        return [], [], False
    go_on = all(r["continue"] for r in results)
    stderr = "\n".join(r["stderr"] for r in results if r["stderr"])
    code = next((2 for r in results if r["exit"] == 2), None)
    if code is None:
        code = next((r["exit"] for r in results if r["exit"]), 0)
    agent: list[str] = []
    user: list[str] = []
    if code == 2:
        text = stderr.strip(JS_WHITESPACE) or "Hook blocked execution (no error message provided)"
        prefix = f"[hook:{event}]:"
        text = text if text.startswith(prefix) else f"{prefix} {text}"
        (agent if event in ("PreToolUse", "PostToolUse", "Stop") else user).append(text)
        return agent, user, not go_on
    if code != 0:
        text = stderr.strip(JS_WHITESPACE) or "No stderr output"
        return agent, [f"Failed with non-blocking status code {code}: {text}"], False
    first_stop = next((r for r in results if not r["continue"]), {})
    joined = {
        key: "\n".join(r[key] for r in results if r.get(key)) or None
        for key in ("systemMessage", "additionalContext", "sessionStartContext")
    }
    if joined["systemMessage"]:
        user.append(joined["systemMessage"])
    if first_stop.get("blockTool") and first_stop.get("postReason"):
        agent.append(first_stop["postReason"])
    if first_stop.get("blockStop") and first_stop.get("stopBlockReason"):
        agent.append(first_stop["stopBlockReason"])
    if joined["additionalContext"]:
        agent.append(joined["additionalContext"])
    if joined["sessionStartContext"]:
        agent.append(joined["sessionStartContext"])
    reason = first_stop.get("permissionDecisionReason")
    if reason:
        (agent if first_stop.get("permissionDecision") == "deny" else user).append(reason)
    stdout = "\n".join(r["stdout"] for r in results if r["stdout"])
    if not any(r.get("json") for r in results) and stdout.strip(JS_WHITESPACE):
        (agent if event == "SessionStart" else user).append(stdout.strip(JS_WHITESPACE))
    if stderr.strip(JS_WHITESPACE):
        user.extend(line for line in stderr.strip(JS_WHITESPACE).split("\n") if line.strip())
    return agent, user, not go_on


def refine(request: FireRequest, combined: Combined, reports: Sequence[HookReport]) -> Combined:
    """The fire's outcome as auggie acts on it (see the module docstring)."""
    ordered = sorted(reports, key=lambda r: r.spec.order)
    ran = [r for r in ordered if not r.outcome.never_ran]
    results = [hook_result(r.spec, request, r.outcome) for r in ran]
    strict_blocks = [
        res for r, res in zip(ran, results, strict=True)
        if r.spec.options.get("failure_policy") == "strict" and res["exit"] not in (0, 2)
    ]  # fmt: skip
    counted = [res for res in results if not any(res is s for s in strict_blocks)]
    agent, user, blocked = route(request.event, counted)
    if strict_blocks and request.event == "PreToolUse":
        stopped = [s for s in strict_blocks if not s["continue"]]
        if stopped and not blocked:
            blocked = True
            agent = [s.get("permissionDecisionReason") or s["stderr"] for s in stopped]
            agent = [a for a in agent if a]
        user = user + [
            f"Failed with non-blocking status code {s['exit']}: {s['stderr'] or 'No stderr output'}"
            for s in strict_blocks
        ]
    never_ran = [r.verdict for r in ordered if r.outcome.never_ran and r.verdict.blocks]
    fields: dict[str, Any] = {
        "blocked": False, "decision": None, "reason": None, "context": None,
        "updated_input": None, "updated_input_from": None, "continue_": True,
        "stop_reason": None, "system_message": None,
    }  # fmt: skip
    event = request.event
    if event == "PreToolUse" and (blocked or never_ran):
        message = "\n".join(agent) or "\n".join(user) or None
        reasons = [v.reason for v in never_ran if v.reason]
        fields.update(
            blocked=True,
            decision="deny",
            reason="\n".join([*reasons, *([message] if message else [])]) or None,
        )
    else:
        if event == "PreToolUse":
            rewrites = [
                (r, res) for r, res in zip(ran, results, strict=True) if "updatedInput" in res
            ]
            if rewrites:
                fields.update(updated_input=rewrites[-1][1]["updatedInput"],
                              updated_input_from=rewrites[-1][0].spec.source)  # fmt: skip
        if event == "PostToolUse" and agent:
            fields["context"] = "\n".join(agent)
        if user:
            fields["system_message"] = "\n".join(user)
    return replace(combined, **fields)


def native(request: FireRequest, combined: Combined) -> dict[str, Any]:
    """The outcome as one Augment hook answer."""
    out: dict[str, Any] = {}
    if combined.system_message:
        out["systemMessage"] = combined.system_message
    specific: dict[str, Any] = {}
    if request.event == "PreToolUse" and combined.blocked:
        specific["permissionDecision"] = "deny"
        if combined.reason:
            specific["permissionDecisionReason"] = combined.reason
    elif request.event == "PreToolUse" and combined.updated_input is not None:
        specific["updatedInput"] = combined.updated_input
    if combined.context:
        specific["additionalContext"] = combined.context
    if specific:
        out["hookSpecificOutput"] = {"hookEventName": request.event, **specific}
    return out


def fire_extras(request: FireRequest, reports: Sequence[HookReport]) -> dict[str, Any]:
    """None: auggie shows a hook's plain stdout to the user whether verbose or not, so it
    is in ``systemMessage``; ``verboseOutput`` stays for clients that read it."""
    return {"verboseOutput": None}
