"""Codex CLI's hooks (``@openai/codex`` 0.171.0), judged by the real agent
(``tests/agents/codex``; the rules' sources: ``docs/compatibility.md``, "Codex CLI").

Where: first the managed requirements' ``[hooks]`` (``/etc/codex/requirements.toml``; its
``allow_managed_hooks_only`` leaves out the user's and the projects' hooks), then for each
configuration layer, lowest precedence first, its ``hooks.json`` and then the ``[hooks]``
of its ``config.toml`` (both load: Codex warns and keeps both): the system's
``/etc/codex/``, the user's ``~/.codex/`` (``CODEX_HOME`` in the agent's environment moves
it), a workspace's ``<root>/.codex/``. Each is followed by the hookd-owned file of the hooks
``hookd adopt`` took from it. An identical handler in two files runs twice (no dedup).

How: every matching hook of an event starts at once (``/bin/bash -c``, whatever ``$SHELL``
says, in the session's folder, with the agent's environment), each with its timeout in
whole seconds; results are read in the order the hooks are written. Several answers:
blocked when any hook blocks, with the first blocking hook's reason (in written order);
the input rewrite of the hook that finished last; every context, in written order.

Codex's own hook review (hooks pinned by a hash in the user's ``config.toml``, skipped in
silence until reviewed) is not hookd's: under hookd a workspace's hooks run once ``hookd
allow`` trusts them, and ``hookd adopt`` marks its relay entries reviewed in Codex
(``integration``). A hook the user switched off there (``enabled = false``) stays off.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from hookd.protocol import Action

from ...model import (
    ClientLaunch,
    Combined,
    CombinePolicy,
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
from ...serdewrite import serde_json_bytes
from ...statcache import StatCache
from .. import base, relay_entries
from ..base import first_root, hook_environment
from . import config, events, output, plugins
from .events import MATCHED_FIELD, TOOL_ALIASES

DIALECT = Dialect.CODEX
EVENTS: tuple[str, ...] = events.EVENTS
GUARD_EVENTS: frozenset[str] = events.GUARD_EVENTS
POLICY = CombinePolicy(context_separator="\n\n", reason_separator="\n\n")
UNCANCELLABLE_EVENTS: frozenset[str] = frozenset()
TAKES_HOOKS_DIRS = True
HOOKS_DIR_ENV: str | None = "CODEX_HOME"
"""``CODEX_HOME`` in the agent's environment: its user folder, read instead of
``~/.codex`` (also a fire's ``hooksDirs``: Codex folders read as the user's)."""
SHELL = "/bin/bash"
MANAGED_LAYERS = frozenset({"managed", "system"})
"""The requirements' hooks and the system configuration's: what ``allow_managed_hooks_only``
in ``/etc/codex/requirements.toml`` keeps (user and project hooks are left out)."""
_EVENT_SET = frozenset(EVENTS)
_hooks_files: StatCache[Loaded] = StatCache()
_config_files: StatCache[Loaded] = StatCache()

kept_after_error = base.keep_none
switched_off = base.none_off
fire_extras = base.no_extras
hook_label = base.label_by_command


def canonical_event(event: str) -> str | None:
    return event if event in _EVENT_SET else None


sequential = base.concurrent
chained = base.unchained


def sources(home: str, system_root: str, roots: Sequence[str]) -> list[Source]:
    """The managed requirements, every layer's two files in Codex's order (each agent
    file followed by the hookd-owned file of what ``hookd adopt`` took from it), then the
    user's plugins."""
    system = os.path.join(system_root, "etc", "codex")
    found = [Source(DIALECT, "managed", os.path.join(system, config.REQUIREMENTS_FILE), "settings")]
    found += _layer("system", system, None, None)
    found += _layer("user", os.path.join(home, ".codex"), None, home)
    for root in roots:
        found += _layer("project", os.path.join(root, ".codex"), root, home)
    found.append(Source(DIALECT, "plugin", os.path.join(home, ".codex"), "hookdir"))
    return found


def _layer(layer: str, folder: str, root: str | None, home: str | None) -> list[Source]:
    hooks_json = os.path.join(folder, config.HOOKS_FILE)
    found = [Source(DIALECT, layer, hooks_json, "settings", root)]
    if home is not None:
        owned = adopted_path(home, root)
        found.append(Source(DIALECT, layer, owned, "settings", root, adopted=True,
                            adopted_from=hooks_json))  # fmt: skip
    found.append(Source(DIALECT, layer, os.path.join(folder, config.CONFIG_FILE), "settings", root))
    return found


def adopted_path(home: str, root: str | None) -> str:
    """The hookd-owned ``hooks.json`` of the hooks adopted from the user's (``root``
    None) or a workspace's ``hooks.json``: read with Codex's rules at the same place."""
    return os.path.join(relay_entries.owned_folder(home, DIALECT.value, root), config.HOOKS_FILE)


def load(source: Source) -> Loaded:
    if source.kind == "hookdir":
        return _folder(source)
    if os.path.basename(source.path) in (config.CONFIG_FILE, config.REQUIREMENTS_FILE):
        return config.load_config_toml(source)
    return config.load_hooks_json(source)


def load_event(source: Source, event: str) -> tuple[HookSpec, ...] | Loaded:
    return _folder(source)


def _folder(source: Source) -> Loaded:
    """The user's plugins (``plugins``); a Codex folder named by the fire (``CODEX_HOME``,
    ``hooksDirs``): both its files, read again when either changes."""
    if source.layer == "plugin":
        return plugins.load(source)
    hooks_json, config_toml = config.folder_files(source)
    json_part = _hooks_files.get(hooks_json.path, lambda: config.load_hooks_json(hooks_json))
    toml_part = _config_files.get(config_toml.path, lambda: config.load_config_toml(config_toml))
    return config.merged(json_part or Loaded(), toml_part or Loaded())


def select(
    loaded: Sequence[tuple[Source, Loaded]], request: FireRequest
) -> tuple[list[HookSpec], list[str]]:
    """The event's hooks in Codex's order: a folder the fire names (``CODEX_HOME``) in
    place of ``~/.codex``; matchers; the user's switches; what needs the agent itself."""
    ordered, warnings = _in_order(loaded, request)
    if any(c.settings.get("allow_managed_hooks_only") for s, c in ordered if s.layer == "managed"):
        ordered = [(s, c) for s, c in ordered if s.layer in MANAGED_LAYERS]
    switched_off = _switched_off(ordered)
    names = matched_names(request)
    chosen: list[HookSpec] = []
    for source, content in ordered:
        if not relay_entries.runs_in(source, request):
            continue
        for spec in content.hooks.get(request.event, ()):
            if relay_entries.is_relay_command(spec.command):
                continue  # hookd's own relay entry
            if names is not None and not config.matches(spec.matcher, names):
                continue
            if spec.options.get("key") in switched_off:
                continue
            if spec.layer != source.layer:  # a folder the fire names, in the user's place
                spec = replace(spec, layer=source.layer)
            if spec.options.get("type") == "mcp_tool" and "mcp_tool" not in request.client_handlers:
                warnings.append(f"{spec.source}: {spec.command} not run: an mcp_tool hook "
                                "needs Codex's MCP connections; a client that has them "
                                'offers "mcp_tool" in the fire\'s clientHandlers')  # fmt: skip
                continue
            chosen.append(spec)
    return chosen, warnings


def _in_order(
    loaded: Sequence[tuple[Source, Loaded]], request: FireRequest
) -> tuple[list[tuple[Source, Loaded]], list[str]]:
    """The sources in Codex's order: folders the fire names stand in the user's place
    (and the user's own files, which ``CODEX_HOME`` moves away from, are not read)."""
    named = [(s, c) for s, c in loaded if s.kind == "hookdir" and s.layer != "plugin"]
    warnings = [c.error for s, c in loaded if s.kind == "hookdir" and c.error]
    if not named:
        return list(loaded), warnings
    ordered: list[tuple[Source, Loaded]] = []
    for source, content in loaded:
        if source.kind == "hookdir" and source.layer != "plugin":
            continue
        if source.layer == "plugin":  # the plugins of the folder the fire names instead
            for folder, _content in named:
                theirs = replace(folder, layer="plugin")
                found = plugins.load(theirs)
                warnings += [found.error] if found.error else []
                ordered.append((theirs, found))
            continue
        if source.layer == "user" and not source.adopted:
            if named:
                ordered += [(replace(s, layer="user"), c) for s, c in named]
                named = []
            continue
        ordered.append((source, content))
    return ordered, warnings


def _switched_off(loaded: Sequence[tuple[Source, Loaded]]) -> frozenset[str]:
    """Trust keys of hooks the user switched off (``enabled = false`` in the
    ``[hooks.state]`` of the user's ``config.toml``, or of a folder the fire names)."""
    off = set()
    for source, content in loaded:
        if source.layer != "user":
            continue
        state = content.settings.get("state")
        for key, entry in (state or {}).items():
            if isinstance(entry, Mapping) and entry.get("enabled") is False:
                off.add(key)
    return frozenset(off)


def matched_names(request: FireRequest) -> tuple[str, ...] | None:
    """What this event's matchers are tested against (None: matchers are ignored)."""
    field = MATCHED_FIELD.get(request.event)
    if field is None:
        return None
    value = request.payload.get(field)
    if not isinstance(value, str):
        return ("",) if field != "tool_name" else ()
    return (value, *TOOL_ALIASES.get(value, ())) if field == "tool_name" else (value,)


def prepare(spec: HookSpec, request: FireRequest, base_env: Mapping[str, str]) -> Prepared:
    payload = request.payload
    if payload.get("hook_event_name") != request.event:
        payload = {**payload, "hook_event_name": request.event}
    if spec.options.get("type") == "mcp_tool":
        return _mcp_tool(spec, request, payload)
    cwd = _session_folder(request)
    env = hook_environment(base_env, {**request.env, **spec.options.get("pluginEnv", {})})
    # serde_json's compact form, no final newline (tests/agents/codex: byte for byte)
    stdin = serde_json_bytes(payload)
    return Launch(argv=(SHELL, "-c", spec.command), stdin=stdin, cwd=cwd, env=env)


def _session_folder(request: FireRequest) -> str:
    cwd = request.payload.get("cwd")
    if isinstance(cwd, str) and os.path.isabs(cwd) and os.path.isdir(cwd):
        return cwd
    return first_root(request)


def _mcp_tool(spec: HookSpec, request: FireRequest, payload: Mapping[str, Any]) -> ClientLaunch:
    handler = spec.options["handler"]
    params = {
        "agent": request.dialect.value, "fireId": request.fire_id, "type": "mcp_tool",
        "event": request.event, "source": spec.source, "layer": spec.layer,
        "sessionId": request.session_id, "handler": handler, "hookInput": payload,
        "server": handler["server"], "tool": handler["tool"], "input": handler.get("input") or {},
    }  # fmt: skip
    return ClientLaunch(handler_type="mcp_tool", params=params)


def interpret(spec: HookSpec, request: FireRequest, outcome: ProcessOutcome) -> Verdict:
    return output.interpret(request.event, outcome, spec.timeout_s)


def async_result(report: HookReport, request: FireRequest) -> dict[str, Any]:
    """What a finished ``async`` hook tells the agent: its ``additionalContext`` (to the
    model, after the tool's output) and ``systemMessage`` (a warning), read as any answer
    of the event; decisions have no effect; a hook that failed says nothing."""
    verdict = report.verdict
    said = verdict.error is None
    return {
        "context": verdict.context if said else None,
        "systemMessage": verdict.system_message if said else None,
        "rewake": False,
        "rewakeMessage": None,
        "spilled": [],
    }


def refine(request: FireRequest, combined: Combined, reports: Sequence[HookReport]) -> Combined:
    """Codex's own way with several answers: on a tool or permission event the first
    blocking hook's reason (in written order), not every one's; the input rewrite of the
    hook that finished last; no rewrite at all when something blocks."""
    blockers = [r for r in reports if r.verdict.blocks and r.verdict.reason]
    first_only = request.event in ("PreToolUse", "PermissionRequest")
    reason = blockers[0].verdict.reason if blockers and first_only else combined.reason
    rewrites = [r for r in reports if r.verdict.has_updated_input]
    warnings = tuple(w for w in combined.warnings if "rewrote the tool input" not in w)
    if combined.blocked or not rewrites:
        return replace(combined, reason=reason, updated_input=None, updated_input_from=None,
                       warnings=warnings)  # fmt: skip
    last = max(rewrites, key=lambda r: (r.outcome.duration_ms, r.index))
    if any(r.verdict.updated_input != last.verdict.updated_input for r in rewrites):
        warnings += (f"{len(rewrites)} hooks rewrote the tool input; the one that finished "
                     f"last ({last.spec.source}) was used, as Codex does",)  # fmt: skip
    return replace(combined, reason=reason, updated_input=last.verdict.updated_input,
                   updated_input_from=last.spec.source, warnings=warnings)  # fmt: skip


def action(request: FireRequest, combined: Combined) -> Action:
    """What Codex does next: a blocked tool is not run (PreToolUse, PermissionRequest) or
    its output replaced (PostToolUse) and the turn goes on; a blocked prompt ends the turn
    with no model request; a blocked Stop is no stop (``block``, as for Claude Code: the
    agent goes on with the reason as a new prompt); ``continue: false`` ends the turn (on
    PostToolUse it only replaces the output)."""
    event = request.event
    if not combined.continue_ and event != "PostToolUse":
        return "stop"
    if combined.blocked:  # on Stop: the stop is blocked, the agent goes on
        return "stop" if event == "UserPromptSubmit" else "block"
    if not combined.continue_:
        return "block"
    return "proceed"


def native(request: FireRequest, combined: Combined) -> dict[str, Any]:
    """The combined outcome as one Codex hook's JSON answer (what the relay prints)."""
    event = request.event
    answer: dict[str, Any] = {}
    if combined.system_message:
        answer["systemMessage"] = combined.system_message
    if event == "Interrupt":
        return answer
    specific: dict[str, Any] = {}
    context = combined.context if event in output.SPECIFIC else None
    if event == "PreToolUse":
        if combined.blocked:
            specific.update(permissionDecision="deny",
                            permissionDecisionReason=combined.reason or "blocked")  # fmt: skip
        elif combined.updated_input is not None:
            specific.update(permissionDecision="allow", updatedInput=combined.updated_input)
    elif event == "PermissionRequest" and (combined.blocked or combined.decision == "allow"):
        behavior = {"behavior": "deny", "message": combined.reason} if combined.blocked else {
            "behavior": "allow"}  # fmt: skip
        specific["decision"] = behavior
    elif combined.blocked and event in output.EXIT2_REASON:
        answer.update(decision="block", reason=combined.reason or "blocked")
    if not combined.continue_ and event not in ("PreToolUse", "PermissionRequest"):
        answer["continue"] = False
        if combined.stop_reason:
            answer["stopReason"] = combined.stop_reason
    if context and "additionalContext" in output.SPECIFIC.get(event, {}):
        specific["additionalContext"] = context
    if specific:
        answer["hookSpecificOutput"] = {"hookEventName": event, **specific}
    return answer
