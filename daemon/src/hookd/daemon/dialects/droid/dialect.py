"""Factory Droid's hooks (``@factory/cli-linux-x64`` 0.225.2), judged by the real agent
(``tests/agents/droid``; the rules' sources: ``droid-research.md`` and
``docs/compatibility.md``, "Factory Droid").

Where, highest priority first (the order of an event's merged list, ``§1.1``): the org's
``/etc/factory/settings.json``; the project's ``.factory`` folder (the first root; none
when that root is the home folder); the user's ``~/.factory``. Each folder gives
``hooks.json`` (else the legacy ``hooks/hooks.json``) and ``settings.json``'s ``hooks``,
the former's list replacing the latter's per event (``config``). Each agent folder is
followed by the hookd-owned file of the hooks ``hookd adopt`` took from it. Nothing is
de-duplicated. ``hooksDisabled: true`` in the highest layer that sets it turns every hook
off; ``allowManagedHooksOnly`` in the org layer keeps only the org's.

How: every matched hook at once, each by ``sh -c`` (``sh`` from ``PATH``) in the
session's folder, given the event as compact JSON without a final newline, with the
agent's environment plus ``FACTORY_PROJECT_DIR``, ``DROID_PROJECT_DIR``,
``CLAUDE_PROJECT_DIR`` (the session's folder), the plugin-root placeholders and every
top-level scalar of the payload as a variable; ``timeout`` seconds (60 when missing or
0). What the answers mean: ``output``.

Droid has no trust step of its own in ``droid exec``: under hookd a root's hooks run once
``hookd allow`` trusts them.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from hookd.protocol import Action

from ...jstext import to_json_bytes
from ...jswrite import js_number
from ...model import (
    Combined,
    CombinePolicy,
    Decision,
    Dialect,
    FireRequest,
    HookReport,
    HookSpec,
    Launch,
    Loaded,
    Prepared,
    ProcessOutcome,
    Source,
    Verdict,
)
from .. import base, relay_entries
from ..base import first_root, hook_environment
from . import config, output
from . import events as ev

DIALECT = Dialect.DROID
EVENTS: tuple[str, ...] = ev.EVENTS
GUARD_EVENTS: frozenset[str] = ev.GUARD_EVENTS
POLICY = CombinePolicy()
UNCANCELLABLE_EVENTS: frozenset[str] = frozenset()
TAKES_HOOKS_DIRS = False
HOOKS_DIR_ENV: str | None = None
ORG_SETTINGS = ("etc", "factory", "settings.json")
PROJECT_VARIABLES = ("FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR", "CLAUDE_PROJECT_DIR")
PLUGIN_VARIABLES = ("DROID_PLUGIN_ROOT", "CLAUDE_PLUGIN_ROOT")
SANDBOX_PREFIX = "DROID_WHOLE_PROCESS_SANDBOX_"
_EXPORTED_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")
_EVENT_SET = frozenset(EVENTS)

kept_after_error = base.keep_none  # a file the agent cannot read gives no hooks
sequential = base.concurrent  # Promise.all (§4)
chained = base.unchained
fire_extras = base.no_extras
async_result = base.no_async_result
hook_label = base.label_by_command


def canonical_event(event: str) -> str | None:
    return event if event in _EVENT_SET else None


def sources(home: str, system_root: str, roots: Sequence[str]) -> list[Source]:
    found = [Source(DIALECT, "org", os.path.join(system_root, *ORG_SETTINGS), "settings")]
    project = roots[0] if roots else None
    if project is not None and os.path.normpath(project) != os.path.normpath(home):
        found += _folder(home, "project", os.path.join(project, ".factory"), project)
    found += _folder(home, "user", os.path.join(home, ".factory"), None)
    return found


def _folder(home: str, layer: str, folder: str, root: str | None) -> list[Source]:
    """A settings folder's files, then the hookd-owned file of the hooks adopted from it
    (its relay entries name the folder)."""
    names = (config.HOOKS_FILE, config.LEGACY_HOOKS_FILE, config.SETTINGS_FILE)
    found = [Source(DIALECT, layer, os.path.join(folder, name), "settings", root) for name in names]
    found.append(Source(DIALECT, layer, adopted_path(home, layer, root), "settings", root,
                        adopted=True, adopted_from=folder))  # fmt: skip
    return found


def adopted_path(home: str, layer: str, project: str | None) -> str:
    """The hookd-owned file holding the hooks ``hookd adopt`` took from a layer:
    ``~/.config/hookd/droid/settings.json`` (user), ``<project>/.hookd/droid/settings.json``
    (project); read with the agent's rules, at the same layer."""
    if layer == "user" or project is None:
        return os.path.join(home, ".config", "hookd", "droid", "settings.json")
    return os.path.join(project, ".hookd", "droid", "settings.json")


def load(source: Source) -> Loaded:
    return config.load(source)


def load_event(source: Source, event: str) -> Loaded:
    return config.load(source)


def _policy(loaded: Sequence[tuple[Source, Loaded]]) -> tuple[bool, bool]:
    """(every hook off, only the org's hooks): ``hooksDisabled`` from the highest layer
    that sets it; ``allowManagedHooksOnly`` from the org layer."""
    disabled = next((content.settings[ev.SETTINGS_DISABLE] for _source, content in loaded
                     if ev.SETTINGS_DISABLE in content.settings), False)  # fmt: skip
    org_only = any(content.settings.get("allowManagedHooksOnly") is True
                   for source, content in loaded if source.layer == "org")  # fmt: skip
    return bool(disabled), org_only


def _in_force(loaded: Sequence[tuple[Source, Loaded]]) -> list[tuple[Source, Loaded, set[str]]]:
    """Each source with the events it gives: a folder's ``hooks.json`` replaces its
    ``settings.json`` per event, and the legacy ``hooks/hooks.json`` counts only when
    there is no ``hooks.json``."""
    replaced: dict[str, set[str]] = {}
    present: set[str] = set()
    for source, content in loaded:
        if config.is_hooks_file(source.path) and content.settings.get(config.EXISTS):
            folder = config.folder_of(source.path)
            if not source.path.endswith(config.LEGACY_HOOKS_FILE):
                present.add(folder)
            elif folder in present:
                continue
            if content.error is None:
                replaced.setdefault(folder, set()).update(content.settings.get(config.DECLARED, ()))
    kept: list[tuple[Source, Loaded, set[str]]] = []
    for source, content in loaded:
        folder = config.folder_of(source.path)
        if source.path.endswith(config.LEGACY_HOOKS_FILE) and folder in present:
            continue
        events = set(content.hooks)
        if not config.is_hooks_file(source.path) and not source.adopted:
            events -= replaced.get(folder, set())
        kept.append((source, content, events))
    return kept


def switched_off(loaded: Sequence[tuple[Source, Loaded]]) -> list[tuple[HookSpec, str]]:
    """Every hook when ``hooksDisabled`` is in force; the hooks of other layers when the
    org allows its own only; a ``settings.json`` list its folder's ``hooks.json`` replaces."""
    disabled, org_only = _policy(loaded)
    off: list[tuple[HookSpec, str]] = []
    in_force = {id(content): events for _source, content, events in _in_force(loaded)}
    for source, content in loaded:
        events = in_force.get(id(content), set())
        for event, specs in content.hooks.items():
            why = None
            if disabled:
                why = "hooksDisabled is set in the settings"
            elif org_only and source.layer != "org":
                why = "the org settings allow their own hooks only (allowManagedHooksOnly)"
            elif event not in events:
                why = f"{event} of hooks.json in the same folder replaces this list"
            off += [(spec, why) for spec in specs] if why else []
    return off


def select(
    loaded: Sequence[tuple[Source, Loaded]], request: FireRequest
) -> tuple[list[HookSpec], list[str]]:
    disabled, org_only = _policy(loaded)
    if disabled:
        return [], []
    chosen: list[HookSpec] = []
    warnings: list[str] = []
    value = _matcher_value(request)
    command = _command(request)
    for source, content, events in _in_force(loaded):
        if request.event not in events or (org_only and source.layer != "org"):
            continue
        if not relay_entries.runs_in(source, request):
            continue
        for spec in content.hooks.get(request.event, ()):
            if relay_entries.is_relay_command(spec.command):
                continue  # hookd's own relay entry
            if _applies(spec, request.event, value, command, warnings):
                chosen.append(spec)
    return chosen, warnings


def relay_entry_runs(folder: str, request: FireRequest) -> bool:
    """Whether Droid runs a relay entry of the ``.factory`` ``folder`` for this fire: one
    in the list in force for the event (``_in_force``) whose matcher and ``commandRegex``
    apply."""
    names = (config.HOOKS_FILE, config.LEGACY_HOOKS_FILE, config.SETTINGS_FILE)
    sources = [Source(DIALECT, "user", os.path.join(folder, name), "settings") for name in names]
    value, command = _matcher_value(request), _command(request)
    for _source, content, events in _in_force([(s, config.load(s)) for s in sources]):
        specs = content.hooks.get(request.event, ()) if request.event in events else ()
        for spec in specs:
            if relay_entries.is_relay_command(spec.command) and _applies(
                spec, request.event, value, command, []
            ):
                return True
    return False


def _matcher_value(request: FireRequest) -> str | None:
    name = ev.MATCHER_FIELD.get(request.event)
    value = request.payload.get(name) if name else None
    return value if isinstance(value, str) else None


def _command(request: FireRequest) -> str | None:
    """The Execute tool's command (``commandRegex`` is tested on it; seg094 ``Io``)."""
    if request.event not in ev.TOOL_EVENTS:
        return None
    if request.payload.get("tool_name") != ev.COMMAND_TOOL:
        return None
    tool_input = request.payload.get("tool_input")
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    return command if isinstance(command, str) else None


def _applies(spec: HookSpec, event: str, value: str | None, command: str | None,
             warnings: list[str]) -> bool:  # fmt: skip
    """seg094 ``cF`` and ``Kb``: no matcher, ``*``, an empty matcher or an empty value
    match; else the same name, else an unanchored, case-sensitive regular expression (an
    invalid one never matches). A group's ``commandRegex`` needs an Execute command it
    matches, on every event."""
    matcher = spec.matcher
    if event in ev.MATCHER_FIELD and matcher and matcher != "*" and value and matcher != value:
        pattern = _compiled(matcher)
        if pattern is None:
            warnings.append(f"{spec.source}: matcher {matcher!r} is not a valid regular "
                            "expression; Droid never matches it")  # fmt: skip
            return False
        if pattern.search(value) is None:
            return False
    regex = spec.options.get("commandRegex")
    if regex:
        if not command:
            return False
        pattern = _compiled(regex)
        if pattern is None:
            warnings.append(f"{spec.source}: commandRegex {regex!r} is not a valid regular "
                            "expression; Droid never matches it")  # fmt: skip
            return False
        return pattern.search(command) is not None
    return True


@lru_cache(maxsize=512)
def _compiled(pattern: str) -> re.Pattern[str] | None:
    try:
        return re.compile(pattern)
    except re.error:
        return None


def prepare(spec: HookSpec, request: FireRequest, base_env: Mapping[str, str]) -> Prepared:
    payload = request.payload
    if payload.get("hook_event_name") != request.event:
        payload = {**payload, "hook_event_name": request.event}
    cwd = payload.get("cwd")
    folder = cwd if isinstance(cwd, str) and os.path.isabs(cwd) else first_root(request)
    env = hook_environment(base_env, request.env)
    env.update(dict.fromkeys(PROJECT_VARIABLES, folder))
    env.update(dict.fromkeys(PLUGIN_VARIABLES, ev.PLUGIN_ROOT_UNSET))
    env.update(exported(payload))
    for name in [n for n in env if n.startswith(SANDBOX_PREFIX)]:
        del env[name]
    env["NODE_USE_SYSTEM_CA"] = "1"
    home = env.get("HOME", os.path.expanduser("~"))
    env["NODE_EXTRA_CA_CERTS"] = os.path.join(home, ".factory", "cache", "certs",
                                              "factory-cli-child-certs.pem")  # fmt: skip
    shell = shutil.which("sh", path=env.get("PATH")) or "/bin/sh"
    return Launch(argv=(shell, "-c", spec.command), stdin=to_json_bytes(payload), cwd=folder,
                  env=env)  # fmt: skip


def exported(payload: Mapping[str, Any]) -> dict[str, str]:
    """Every top-level string, number or boolean of the payload whose key is a shell name,
    as JavaScript's ``String()`` writes it (seg094 ``executeCommand``)."""
    found: dict[str, str] = {}
    for key, value in payload.items():
        if not _EXPORTED_NAME.match(key):
            continue
        if isinstance(value, bool):
            found[key] = "true" if value else "false"
        elif isinstance(value, int | float):
            found[key] = js_number(value)
        elif isinstance(value, str):
            found[key] = value
    return found


def interpret(spec: HookSpec, request: FireRequest, outcome: ProcessOutcome) -> Verdict:
    return output.interpret(spec, outcome)


def refine(request: FireRequest, combined: Combined, reports: Sequence[HookReport]) -> Combined:
    """Droid's own combination (``output.combine``) in place of the general one; a hook
    hookd could not run (never ran, or refused by ``hookd allow``) blocks on the events
    that guard an action."""
    found = output.combine(request.event, reports)
    never_ran = [r for r in reports if r.verdict.blocks and not r.verdict.native]
    if never_ran and not found.blocked and not found.abort and request.event in GUARD_EVENTS:
        found.blocked, found.decision, found.update = True, "deny", None
        found.reason = "\n\n".join(r.verdict.reason or "" for r in never_ran) or ev.BLOCKED
    updated = None
    if found.update is not None:
        if request.event == "PreToolUse":
            payload = request.payload
            updated = output.effective_input(payload.get("tool_name"), payload.get("tool_input"),
                                             found.update, found.update_preserves)  # fmt: skip
        else:
            updated = found.update
    decision: Decision | None = "deny" if found.blocked and request.event == "PreToolUse" else (
        "allow" if found.decision == "allow" else None)  # fmt: skip
    reason = found.reason if found.blocked else found.feedback
    context = found.warning if request.event == "PreToolUse" else found.context
    answer: dict[str, Any] = {"update": found.update}
    return replace(
        combined, blocked=found.blocked, decision=decision, reason=reason, context=context,
        updated_input=updated, updated_input_from=None if updated is None else "droid",
        continue_=not found.abort, stop_reason=found.abort_reason if found.abort else None,
        system_message=None, natives=(answer,),
        warnings=tuple(w for w in combined.warnings if "rewrote the tool input" not in w),
    )  # fmt: skip


def action(request: FireRequest, combined: Combined) -> Action:
    """What Droid does next: ``continue: false`` or exit 3 on a tool event ends the turn
    (``stop``; after PostToolUse the tool has run); a denied tool is not run (``block``);
    a blocked prompt is never sent (``stop``); a blocked stop makes the agent go on
    (``block``); a blocked compaction is skipped (``block``)."""
    if not combined.continue_:
        return "stop"
    if combined.blocked:
        return "stop" if request.event == "UserPromptSubmit" else "block"
    return "proceed"


def native(request: FireRequest, combined: Combined) -> dict[str, Any]:
    """The combined outcome as one Droid hook's JSON answer (what the relay prints on
    stdout; its exit code and stderr: ``integration.relay_answer``)."""
    event = request.event
    out: dict[str, Any] = {}
    if not combined.continue_:
        out["continue"] = False
        if combined.stop_reason:
            out["stopReason"] = combined.stop_reason
        return out
    update = combined.natives[0].get("update") if combined.natives else None
    specific: dict[str, Any] = {}
    if event == "PreToolUse":
        if combined.blocked:
            specific["permissionDecision"] = "deny"
            specific["permissionDecisionReason"] = combined.reason or ev.DENIED
        else:
            if combined.decision == "allow":
                specific["permissionDecision"] = "allow"
            if update is not None:
                specific["updatedInput"] = update
    elif event == "Stop" and combined.blocked:
        out.update(decision="block", reason=combined.reason)
    elif event == "UserPromptSubmit":
        if combined.blocked:
            return {"continue": False, "stopReason": combined.reason or ev.PROMPT_BLOCKED}
        if update is not None:
            specific["updatedInput"] = update
    if combined.context and event in ("PostToolUse", "UserPromptSubmit", "SessionStart"):
        specific["additionalContext"] = combined.context
    if specific:
        out["hookSpecificOutput"] = {"hookEventName": event, **specific}
    return out
