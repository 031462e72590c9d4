"""Augment: ``settings.json`` hooks run one after another, timeouts in milliseconds.

Reference: ``augment-hooks.md``. Locations, highest precedence first (and run in that
order): ``/etc/augment/settings.json`` (system), ``<root>/.augment/settings.local.json``
(workspace-local), ``<root>/.augment/settings.json`` (workspace), ``~/.augment/settings.json``
(user). The ``context``, ``mcp_metadata`` and ``conversation`` fields reach a hook only
when its matcher group opts in through ``metadata`` (a privacy guarantee).

Where the fire result puts what the communication matrix routes: to the agent,
``reason`` (exit-2 stderr on PreToolUse, PostToolUse and Stop; ``permissionDecisionReason``
of a deny; ``reason`` of ``decision: "block"``) and ``context`` (``additionalContext``,
SessionStart stdout); to the user, ``systemMessage`` (JSON ``systemMessage``, stderr of a
hook that exited 0, the reason of an ``allow``/``ask``), ``stopReason``, each hook's
``error`` (exit 2 on session events, other exit codes, timeouts) and ``verboseOutput``
(stdout Augment shows only in verbose mode).
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..jstext import JS_WHITESPACE, parse_json, to_json_bytes
from ..model import (
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
from . import base, windows
from .base import first_root, hook_environment, timeout_error
from .settings_json import load_settings_hooks, number_field

DIALECT = Dialect.AUGMENT
EVENTS: tuple[str, ...] = (
    "PreToolUse",
    "PostToolUse",
    "Stop",
    "SessionStart",
    "SessionEnd",
    "Notification",
)
_EVENT_SET = frozenset(EVENTS)
TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse"})
DEFAULT_TIMEOUT_MS = 60_000
POLICY = CombinePolicy(reasons_from="all")
UNCANCELLABLE_EVENTS: frozenset[str] = frozenset()
GUARD_EVENTS = frozenset({"PreToolUse", "Stop"}) & _EVENT_SET
TAKES_HOOKS_DIRS = False
HOOKS_DIR_ENV: str | None = None
refine = base.unrefined
async_result = base.no_async_result
hook_label = base.label_by_command
"""Every ``reason`` an Augment hook gives goes to the agent (a Stop hook's exit-2 stderr
still reaches it when another hook blocks), so none is dropped when combining."""
METADATA_FIELDS: dict[str, tuple[str, frozenset[str]]] = {
    "context": ("includeUserContext", _EVENT_SET),
    "mcp_metadata": ("includeMCPMetadata", TOOL_EVENTS),
    "conversation": ("includeConversationData", frozenset({"Stop"})),
}
"""Payload field → (opt-in flag, events it may reach)."""
SCRIPT_EXTENSIONS = (".sh", ".ps1", ".cmd", ".bat")


def canonical_event(event: str) -> str | None:
    return event if event in _EVENT_SET else None


def sources(home: str, system_root: str, roots: Sequence[str]) -> list[Source]:
    found = [
        Source(
            DIALECT,
            "system",
            os.path.join(system_root, "etc", "augment", "settings.json"),
            "settings",
        )
    ]
    for root in roots:
        folder = os.path.join(root, ".augment")
        found.append(
            Source(
                DIALECT,
                "workspace-local",
                os.path.join(folder, "settings.local.json"),
                "settings",
                root,
            )
        )
        found.append(
            Source(DIALECT, "workspace", os.path.join(folder, "settings.json"), "settings", root)
        )
    found.append(
        Source(DIALECT, "user", os.path.join(home, ".augment", "settings.json"), "settings")
    )
    # One file is one source: with the home folder as a workspace root, the user file is
    # also the workspace file; it runs once, in the workspace file's place in the order.
    unique: dict[str, Source] = {}
    for source in found:
        unique.setdefault(source.path, source)
    return list(unique.values())


def load(source: Source) -> Loaded:
    return load_settings_hooks(source, _EVENT_SET, _make_handler)


def _make_handler(
    source: Source,
    event: str,
    matcher: str | None,
    handler: Mapping[str, Any],
    group: Mapping[str, Any],
) -> HookSpec:
    kind = handler.get("type", "command")
    if kind != "command":
        raise ValueError(f'only "command" hooks are supported by Augment, not {kind!r}')
    command = handler.get("command")
    if not isinstance(command, str) or not command.strip():
        raise ValueError('a command handler needs a non-empty "command" string')
    if not script_path(command).lower().endswith(SCRIPT_EXTENSIONS):
        raise ValueError(
            f'"command" must be the path of a script with a supported extension '
            f"({', '.join(SCRIPT_EXTENSIONS)}), not {command!r}: Augment runs no other file"
        )
    group_metadata = group.get("metadata") or {}
    handler_metadata = handler.get("metadata") or {}
    if not isinstance(group_metadata, dict) or not isinstance(handler_metadata, dict):
        raise ValueError('"metadata" must be an object')
    # The handler's own words win over its group's, key by key: a "false" there is never
    # overridden by a "true" on the group.
    metadata = {**group_metadata, **handler_metadata}
    timeout_ms = number_field(handler, "timeout", DEFAULT_TIMEOUT_MS)
    return HookSpec(
        dialect=DIALECT,
        event=event,
        source=source.path,
        layer=source.layer,
        command=command,
        argv=None,
        timeout_s=timeout_ms / 1000.0,
        matcher=matcher,
        root=source.root,
        # Only a JSON ``true`` opts in: "false", 1 or "yes" must never release private fields.
        options={"metadata": {k: v is True for k, v in metadata.items()}},
    )


def kept_after_error(hooks: Mapping[str, tuple[HookSpec, ...]]) -> dict[str, tuple[HookSpec, ...]]:
    """The last good hooks of a file that no longer parses, kept so that a typo does not
    switch a policy hook off, but without their metadata opt-ins: the edit may have been
    the revocation of one, and private fields are default deny."""
    return {
        event: tuple(replace(spec, options={**spec.options, "metadata": {}}) for spec in specs)
        for event, specs in hooks.items()
    }


def sequential(request: FireRequest) -> bool:
    return True  # "Hook execution is sequential, not parallel"


def matcher_matches(matcher: str | None, tool_name: str, is_mcp: bool) -> bool:
    """Augment's matcher: an unanchored regex; ``mcp:`` restricts it to MCP tools."""
    if matcher is None or matcher == "":
        return True
    if matcher.startswith("mcp:"):
        if not is_mcp:
            return False
        pattern = matcher[4:]
        if pattern == "*":
            return True
    else:
        pattern = matcher
    try:
        return re.search(pattern, tool_name) is not None
    except re.error:
        return False


def matcher_problem(matcher: str | None) -> str | None:
    """Why ``matcher`` (or the regex after its ``mcp:`` prefix) cannot compile, or None."""
    if not matcher:
        return None
    pattern = matcher[4:] if matcher.startswith("mcp:") else matcher
    if matcher.startswith("mcp:") and pattern == "*":
        return None
    try:
        re.compile(pattern)
    except re.error as exc:
        return str(exc)
    return None


def select(
    loaded: Sequence[tuple[Source, Loaded]], request: FireRequest
) -> tuple[list[HookSpec], list[str]]:
    chosen: list[HookSpec] = []
    warnings: list[str] = []
    tool = request.payload.get("tool_name")
    tool_name = tool if isinstance(tool, str) else ""
    is_mcp = request.payload.get("is_mcp_tool") is True
    for _source, content in loaded:
        for spec in content.hooks.get(request.event, ()):
            if request.event in TOOL_EVENTS:
                problem = matcher_problem(spec.matcher)
                if problem:
                    warnings.append(
                        f"{spec.source}: matcher {spec.matcher!r} is not a valid regular "
                        f"expression ({problem}); the hook never matches"
                    )
                    continue
                if not matcher_matches(spec.matcher, tool_name, is_mcp):
                    continue
            chosen.append(spec)
    return chosen, warnings


def filtered_payload(spec: HookSpec, request: FireRequest) -> dict[str, Any]:
    """The event JSON for one hook: metadata fields only where the hook opted in."""
    opted = spec.options.get("metadata", {})
    payload = {}
    for key, value in request.payload.items():
        rule = METADATA_FIELDS.get(key)
        if rule is not None:
            flag, events = rule
            if not opted.get(flag) or request.event not in events:
                continue
        payload[key] = value
    payload["hook_event_name"] = request.event
    payload.setdefault("workspace_roots", list(request.roots))
    return payload


def prepare(spec: HookSpec, request: FireRequest, base_env: Mapping[str, str]) -> Launch:
    """The hook's stdin, argv, cwd and environment.

    The daemon's own ``AUGMENT_*`` variables are dropped: a hook sees the documented ones
    only where the event defines them (``AUGMENT_TOOL_NAME`` on tool events alone), never
    values that leaked from whatever environment started hookd. Variables the client
    passes in the fire's ``env`` (the agent's own environment) are kept.
    """
    payload = filtered_payload(spec, request)
    extra = {
        "AUGMENT_PROJECT_DIR": first_root(request),
        "AUGMENT_HOOK_EVENT": request.event,
    }
    conversation = request.payload.get("conversation_id")
    if isinstance(conversation, str):
        extra["AUGMENT_CONVERSATION_ID"] = conversation
    tool = request.payload.get("tool_name")
    if request.event in TOOL_EVENTS and isinstance(tool, str):
        extra["AUGMENT_TOOL_NAME"] = tool
    return Launch(
        argv=script_argv(spec.command),
        stdin=to_json_bytes(payload, indent=2),  # as auggie 0.36.0 writes it
        cwd=first_root(request),
        env=hook_environment(
            {k: v for k, v in base_env.items() if not k.startswith("AUGMENT_")},
            {**extra, **request.env},
        ),
    )


def _words(command: str) -> list[str]:
    """The script path and its arguments (a path with spaces may be given unquoted)."""
    if os.path.isfile(command) or command.lower().endswith(SCRIPT_EXTENSIONS):
        return [command]
    try:
        words = shlex.split(command)
    except ValueError:
        return [command]
    return words or [command]


def script_path(command: str) -> str:
    """The script a ``command`` names (its first word unless the whole is a script)."""
    return _words(command)[0]


def script_argv(command: str) -> tuple[str, ...]:
    """How Augment runs a script: ``.sh`` directly (its shebang picks the interpreter),
    ``.ps1`` with PowerShell and ``.bat``/``.cmd`` with ``cmd.exe`` (a shebang in those is
    ignored)."""
    words = _words(command)
    script = words[0]
    ext = os.path.splitext(script)[1].lower()
    if sys.platform == "win32":  # pragma: no cover - argv rules unit-tested on Linux
        return windows.script_argv(script, words[1:])
    if ext == ".ps1":
        return ("pwsh", "-NoProfile", "-File", script, *words[1:])
    if ext in (".cmd", ".bat"):
        return ("cmd.exe", "/c", script, *words[1:])
    return (script, *words[1:])


def interpret(spec: HookSpec, request: FireRequest, outcome: ProcessOutcome) -> Verdict:
    """One hook's outcome by Augment's exit codes and communication matrix.

    Exit 2 blocks PreToolUse only; its stderr goes to the agent on tool events and Stop,
    and to the user (as the hook's error) on session events. Other exit codes are
    non-blocking errors whose stderr the user sees. On exit 0, stderr is a warning for the
    user, SessionStart stdout is context for the agent, and JSON on stdout is honoured.
    """
    failure = timeout_error(outcome)
    if failure:
        return Verdict(error=failure)
    event = request.event
    code = outcome.exit_code
    stderr = outcome.stderr_text.strip()
    stdout = outcome.stdout_text.strip(JS_WHITESPACE)  # JavaScript's trim()
    if code == 2:
        if event == "PreToolUse":
            return Verdict(blocks=True, decision="deny", reason=stderr or "blocked by hook")
        if event in ("PostToolUse", "Stop"):
            return Verdict(reason=stderr or None)  # stderr reaches the agent
        return Verdict(error=f"hook failed (exit code 2): {stderr}" if stderr else "hook failed")
    if code != 0:
        return Verdict(error=f"exit code {code}" + (f": {stderr}" if stderr else ""))
    obj = _json_object(stdout)
    if obj is None:
        context = stdout if event == "SessionStart" and stdout else None
        return Verdict(context=context, system_message=stderr or None)
    return _from_json(event, obj, stderr)


def _json_object(text: str) -> dict[str, Any] | None:
    """The JSON object on stdout, as ``JSON.parse`` reads it (``NaN`` makes it plain text)."""
    if not text.startswith("{"):
        return None
    try:
        value = parse_json(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _from_json(event: str, obj: dict[str, Any], stderr: str) -> Verdict:
    raw_specific = obj.get("hookSpecificOutput")
    specific: dict[str, Any] = raw_specific if isinstance(raw_specific, dict) else {}
    user = [_str(obj.get("systemMessage"))]  # then an allow/ask reason, then stderr
    fields: dict[str, Any] = {
        "continue_": obj.get("continue", True) is not False,
        "stop_reason": _str(obj.get("stopReason")),
    }
    context = _str(specific.get("additionalContext"))
    if context and event in ("PostToolUse", "SessionStart"):
        fields["context"] = context
    if event == "PreToolUse":
        permission = specific.get("permissionDecision")
        permission_reason = _str(specific.get("permissionDecisionReason"))
        if permission == "deny":
            fields.update(
                blocks=True, decision="deny", reason=permission_reason or "denied by hook"
            )
        elif permission in ("allow", "ask"):
            # Not implemented by Augment as decisions; their reason is routed to the user.
            user.append(permission_reason)
    decision = specific.get("decision", obj.get("decision"))
    reason = _str(specific.get("reason")) or _str(obj.get("reason"))
    if decision == "block" and event == "Stop":
        fields.update(blocks=True, decision="deny", reason=reason or "blocked by hook")
    elif decision == "block" and event == "PostToolUse":
        fields["reason"] = reason
    messages = [text for text in [*user, stderr] if text]
    fields["system_message"] = "\n".join(messages) if messages else None
    return Verdict(**fields)


def _str(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def native(request: FireRequest, combined: Combined) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if combined.continue_ is False:
        out["continue"] = False
        if combined.stop_reason:
            out["stopReason"] = combined.stop_reason
    if combined.system_message:
        out["systemMessage"] = combined.system_message
    specific: dict[str, Any] = {}
    if request.event == "PreToolUse" and combined.blocked:
        specific.update(permissionDecision="deny", permissionDecisionReason=combined.reason)
    elif request.event == "Stop" and combined.blocked:
        specific.update(decision="block", reason=combined.reason)
    elif request.event == "PostToolUse" and combined.reason:
        # Augment's way to hand a PostToolUse reason to the agent (it never blocks).
        specific.update(decision="block", reason=combined.reason)
    if combined.context:
        specific["additionalContext"] = combined.context
    if specific:
        out["hookSpecificOutput"] = {"hookEventName": request.event, **specific}
    return out


def fire_extras(request: FireRequest, reports: Sequence[HookReport]) -> dict[str, Any]:
    """``verboseOutput``: the stdout Augment shows the user in verbose mode only.

    That is the stdout of each hook that exited 0, in declaration order, except on
    SessionStart (whose stdout is the agent's context) and except a JSON answer with
    ``"suppressOutput": true``. None when there is none.
    """
    texts: list[str] = []
    if request.event != "SessionStart":
        for report in sorted(reports, key=lambda r: r.spec.order):
            outcome = report.outcome
            stdout = outcome.stdout_text.strip(JS_WHITESPACE)
            if outcome.exit_code != 0 or outcome.timed_out or not stdout:
                continue
            obj = _json_object(stdout)
            if obj is not None and obj.get("suppressOutput") is True:
                continue
            texts.append(stdout)
    return {"verboseOutput": "\n".join(texts) if texts else None}


def load_event(source: Source, event: str) -> tuple[HookSpec, ...]:
    return tuple(load(source).hooks.get(event, ()))
