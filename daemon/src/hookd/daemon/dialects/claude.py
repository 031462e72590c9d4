"""Claude Code: ``settings.json`` hooks with matchers, exit codes and JSON decisions.

Reference: ``claude-code-hooks-reference-v2.1.240.md``. Locations, in declaration order:
``~/.claude/settings.json`` (user), ``<project>/.claude/settings.json`` (project),
``<project>/.claude/settings.local.json`` (local), managed policy settings (managed). The
project is the first workspace root, as ``CLAUDE_PROJECT_DIR``.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from ..combine_policy import CombinePolicy
from ..model import Dialect, FireRequest, HookSpec, ProcessOutcome, Verdict
from . import claude_rules as rules
from .base import Launch, Loaded, Source, first_line, first_root, hook_environment, timeout_error
from .claude_if import condition_allows
from .settings_json import load_settings_hooks, number_field

DIALECT = Dialect.CLAUDE
EVENTS = rules.EVENTS
_EVENT_SET = frozenset(EVENTS)
_HANDLER_TYPES = frozenset({"command", "http", "mcp_tool", "prompt", "agent"})
_PLACEHOLDERS = ("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA")
POLICY = CombinePolicy()


def sequential(request: FireRequest) -> bool:
    return False  # "All matching hooks run in parallel"


def canonical_event(event: str) -> str | None:
    return event if event in _EVENT_SET else None


def managed_settings_path(system_root: str) -> str:
    if sys.platform == "darwin":
        return os.path.join(
            system_root, "Library", "Application Support", "ClaudeCode", "managed-settings.json"
        )
    return os.path.join(system_root, "etc", "claude-code", "managed-settings.json")


def sources(home: str, system_root: str, roots: Sequence[str]) -> list[Source]:
    found = [Source(DIALECT, "user", os.path.join(home, ".claude", "settings.json"), "settings")]
    if roots:
        project = os.path.join(roots[0], ".claude")
        found.append(
            Source(DIALECT, "project", os.path.join(project, "settings.json"), "settings", roots[0])
        )
        found.append(
            Source(
                DIALECT, "local", os.path.join(project, "settings.local.json"), "settings", roots[0]
            )
        )
    found.append(Source(DIALECT, "managed", managed_settings_path(system_root), "settings"))
    return found


def load(source: Source) -> Loaded:
    return load_settings_hooks(source, _EVENT_SET, _make_handler, ("disableAllHooks",))


def _make_handler(
    source: Source,
    event: str,
    matcher: str | None,
    handler: Mapping[str, Any],
    group: Mapping[str, Any],
) -> HookSpec:
    kind = handler.get("type", "command")
    if kind not in _HANDLER_TYPES:
        raise ValueError(f"unknown handler type {kind!r}")
    condition = handler.get("if")
    if condition is not None and not isinstance(condition, str):
        raise ValueError('"if" must be a string holding one permission rule')
    default = rules.DEFAULT_TIMEOUT_S.get(event, rules.COMMAND_TIMEOUT_S)
    if kind == "prompt":
        default = 30.0
    elif kind == "agent":
        default = 60.0
    timeout = number_field(handler, "timeout", default)
    command, argv = _command(kind, handler)
    return HookSpec(
        dialect=DIALECT,
        event=event,
        source=source.path,
        layer=source.layer,
        command=command,
        argv=argv,
        timeout_s=timeout,
        matcher=matcher,
        condition=condition,
        root=source.root,
        options={
            "type": kind,
            "async": bool(handler.get("async") or handler.get("asyncRewake")),
            "handler": dict(handler),
        },
    )


def _command(kind: str, handler: Mapping[str, Any]) -> tuple[str, tuple[str, ...] | None]:
    if kind != "command":
        target = handler.get("url") or handler.get("prompt") or handler.get("tool") or ""
        return f"{kind}: {target}", None
    command = handler.get("command")
    if not isinstance(command, str) or not command.strip():
        raise ValueError('a command handler needs a non-empty "command" string')
    args = handler.get("args")
    if args is None:
        return command, None
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise ValueError('"args" must be a list of strings')
    return command, (command, *args)


def select(
    loaded: Sequence[tuple[Source, Loaded]], request: FireRequest
) -> tuple[list[HookSpec], list[str]]:
    disable_all = _disable_all_hooks(loaded)
    warnings: list[str] = []
    chosen: list[HookSpec] = []
    seen: set[tuple[object, ...]] = set()
    value = _matcher_value(request)
    for source, content in loaded:
        if disable_all and source.layer != "managed":
            continue
        if disable_all == "managed":
            continue
        for spec in content.hooks.get(request.event, ()):
            if not _applies(spec, request, value, warnings):
                continue
            if spec.identity in seen:
                continue  # the same handler in several settings files runs once
            seen.add(spec.identity)
            if spec.options.get("type") != "command" or spec.options.get("async"):
                warnings.append(_unsupported(spec))
                continue
            chosen.append(spec)
    return chosen, warnings


def _disable_all_hooks(loaded: Sequence[tuple[Source, Loaded]]) -> str | bool:
    """False, True (all but managed hooks) or "managed" (every hook).

    The value left after settings precedence counts (managed > local > project > user);
    only a managed ``true`` turns off managed hooks too.
    """
    by_layer = {source.layer: content.settings.get("disableAllHooks") for source, content in loaded}
    for layer in ("managed", "local", "project", "user"):  # highest precedence first
        value = by_layer.get(layer)
        if isinstance(value, bool):
            return "managed" if value and layer == "managed" else value
    return False


def _matcher_value(request: FireRequest) -> str | None:
    field = rules.MATCHER_FIELD.get(request.event)
    if field is None:
        return None
    value = request.payload.get(field)
    if not isinstance(value, str):
        return None
    return os.path.basename(value) if request.event == "FileChanged" else value


def _applies(spec: HookSpec, request: FireRequest, value: str | None, warnings: list[str]) -> bool:
    if request.event in rules.MATCHER_FIELD:
        if rules.invalid_regex(spec.matcher):
            warnings.append(
                f"{spec.source}: matcher {spec.matcher!r} is not a valid regular expression; "
                "the hook never matches"
            )
            return False
        if not rules.matcher_matches(request.event, spec.matcher, value):
            return False
    if spec.condition is not None:
        if request.event not in rules.TOOL_EVENTS:
            return False  # a hook with `if` never runs on non-tool events
        tool_name = request.payload.get("tool_name")
        return condition_allows(
            spec.condition,
            tool_name if isinstance(tool_name, str) else None,
            request.payload.get("tool_input"),
        )
    return True


def _unsupported(spec: HookSpec) -> str:
    what = "async command" if spec.options.get("type") == "command" else spec.options.get("type")
    return (
        f"{spec.source}: {what} hook {spec.command!r} was not run: this hookd does not run "
        f"{what} hooks yet"
    )


def prepare(spec: HookSpec, request: FireRequest, base_env: Mapping[str, str]) -> Launch:
    project = first_root(request)
    payload = dict(request.payload)
    payload["hook_event_name"] = request.event
    payload.setdefault("cwd", project)
    cwd = (
        payload["cwd"]
        if isinstance(payload["cwd"], str) and os.path.isdir(payload["cwd"])
        else project
    )
    extra = {"CLAUDE_PROJECT_DIR": project, **request.env}
    effort = payload.get("effort")
    if isinstance(effort, dict) and isinstance(effort.get("level"), str):
        extra.setdefault("CLAUDE_EFFORT", effort["level"])
    env = hook_environment(base_env, extra)
    if spec.argv is None:
        argv: tuple[str, ...] = ("/bin/sh", "-c", spec.command)
    else:
        argv = tuple(_substitute(part, env) for part in spec.argv)
    return Launch(argv=argv, stdin=json.dumps(payload).encode(), cwd=cwd, env=env)


def _substitute(text: str, env: Mapping[str, str]) -> str:
    for name in _PLACEHOLDERS:
        if name in env:
            text = text.replace("${" + name + "}", env[name])
    return text


def interpret(spec: HookSpec, request: FireRequest, outcome: ProcessOutcome) -> Verdict:
    failure = timeout_error(outcome)
    if failure:
        return Verdict(error=failure)
    event = request.event
    if event in rules.OUTPUT_DISCARDED:
        return Verdict()
    code = outcome.exit_code
    stdout = outcome.stdout_text
    stderr = outcome.stderr_text.strip()
    obj, schema_error = _parse_json(stdout)
    if event == "WorktreeCreate" and code != 0:
        return Verdict(blocks=True, decision="deny", reason=stderr or f"exit code {code}")
    if code == 2:
        return _exit_two(event, obj, stderr)
    if obj is not None:
        return _from_json(event, obj)
    truncated = " (stdout was truncated at the output cap)" if outcome.stdout_truncated else ""
    if schema_error:
        return Verdict(error=f"hook error: {schema_error}{truncated}")
    if code == 0:
        text = stdout.strip()
        if text and event in rules.PLAIN_STDOUT_IS_CONTEXT:
            return Verdict(context=text)
        return Verdict()
    detail = first_line(stderr) or f"exit code {code}"
    return Verdict(error=f"Failed with non-blocking status code {code}: {detail}{truncated}")


def _exit_two(event: str, obj: dict[str, Any] | None, stderr: str) -> Verdict:
    base = _from_json(event, obj) if obj is not None else Verdict()
    if event in rules.EXIT2_BLOCKS:
        reason = base.reason if base.blocks and base.reason else stderr
        return Verdict(
            blocks=True,
            decision="deny",
            reason=reason or "blocked by hook (exit code 2)",
            context=base.context,
            continue_=base.continue_,
            stop_reason=base.stop_reason,
            system_message=base.system_message,
        )
    if event in rules.EXIT2_FEEDS_CLAUDE:
        return Verdict(
            reason=stderr or None,
            context=base.context,
            continue_=base.continue_,
            stop_reason=base.stop_reason,
            system_message=base.system_message,
        )
    if event in rules.EXIT2_IGNORED:
        return base
    return Verdict(
        error=f"hook error: {first_line(stderr)}" if stderr else None,
        context=base.context,
        system_message=base.system_message,
        continue_=base.continue_,
        stop_reason=base.stop_reason,
    )


_BOOL_FIELDS = ("continue", "suppressOutput")
_STR_FIELDS = ("stopReason", "systemMessage", "reason", "decision", "terminalSequence")


def _parse_json(stdout: str) -> tuple[dict[str, Any] | None, str | None]:
    """Claude's rule: JSON only when stdout starts with ``{``; else plain text."""
    text = stdout.lstrip()
    if not text.startswith("{"):
        return None, None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError:
        return None, None
    if not isinstance(obj, dict):
        return None, None
    for name in _BOOL_FIELDS:
        if name in obj and not isinstance(obj[name], bool):
            return None, f'"{name}" must be a boolean'
    for name in _STR_FIELDS:
        if name in obj and not isinstance(obj[name], str):
            return None, f'"{name}" must be a string'
    if "hookSpecificOutput" in obj and not isinstance(obj["hookSpecificOutput"], dict):
        return None, '"hookSpecificOutput" must be an object'
    return obj, None


def _from_json(event: str, obj: dict[str, Any]) -> Verdict:
    fields: dict[str, Any] = {
        "continue_": obj.get("continue", True),
        "stop_reason": obj.get("stopReason"),
        "system_message": obj.get("systemMessage"),
    }
    specific = obj.get("hookSpecificOutput") or {}
    context = specific.get("additionalContext")
    if isinstance(context, str) and context and event in rules.ADDITIONAL_CONTEXT_EVENTS:
        fields["context"] = context
    decision = obj.get("decision")
    if event == "PreToolUse":
        fields.update(_pre_tool_use(specific, decision, obj.get("reason")))
    elif event == "PermissionRequest":
        fields.update(_permission_request(specific))
    elif decision == "block" and event in rules.TOP_LEVEL_DECISION:
        fields.update(blocks=True, decision="deny", reason=obj.get("reason") or "blocked by hook")
    return Verdict(**fields)


def _pre_tool_use(specific: dict[str, Any], legacy: Any, legacy_reason: Any) -> dict[str, Any]:
    decision = specific.get("permissionDecision")
    reason = specific.get("permissionDecisionReason")
    if decision is None and legacy in ("approve", "block"):  # deprecated top-level form
        decision, reason = ("allow" if legacy == "approve" else "deny"), legacy_reason
    fields: dict[str, Any] = {}
    if decision in ("allow", "deny", "ask", "defer"):
        fields["decision"] = decision
        fields["reason"] = reason if isinstance(reason, str) else None
        fields["blocks"] = decision == "deny"
        if decision == "defer":
            fields["context"] = None  # ignored with defer
    if "updatedInput" in specific and decision != "defer":
        fields["has_updated_input"] = True
        fields["updated_input"] = specific["updatedInput"]
    return fields


def _permission_request(specific: dict[str, Any]) -> dict[str, Any]:
    decision = specific.get("decision")
    if not isinstance(decision, dict):
        return {}
    behavior = decision.get("behavior")
    fields: dict[str, Any] = {}
    if behavior in ("allow", "deny"):
        fields["decision"] = behavior
        fields["blocks"] = behavior == "deny"
        message = decision.get("message")
        fields["reason"] = message if isinstance(message, str) else None
    if "updatedInput" in decision:
        fields["has_updated_input"] = True
        fields["updated_input"] = decision["updatedInput"]
    return fields


def native(request: FireRequest, combined: Mapping[str, Any]) -> dict[str, Any]:
    """The combined outcome as one Claude Code hook output object."""
    out: dict[str, Any] = {}
    if combined["continue"] is False:
        out["continue"] = False
        if combined["stopReason"]:
            out["stopReason"] = combined["stopReason"]
    if combined["systemMessage"]:
        out["systemMessage"] = combined["systemMessage"]
    event = request.event
    specific: dict[str, Any] = {}
    if event == "PreToolUse":
        if combined["decision"]:
            specific["permissionDecision"] = combined["decision"]
        if combined["reason"]:
            specific["permissionDecisionReason"] = combined["reason"]
        if combined["updatedInputFrom"] is not None:
            specific["updatedInput"] = combined["updatedInput"]
    elif event == "PermissionRequest" and combined["decision"] in ("allow", "deny"):
        decision: dict[str, Any] = {"behavior": combined["decision"]}
        if combined["reason"]:
            decision["message"] = combined["reason"]
        if combined["updatedInputFrom"] is not None:
            decision["updatedInput"] = combined["updatedInput"]
        specific["decision"] = decision
    elif combined["blocked"] and event in rules.TOP_LEVEL_DECISION:
        out["decision"] = "block"
        out["reason"] = combined["reason"]
    elif combined["reason"] and event in rules.EXIT2_FEEDS_CLAUDE:
        # Exit 2 feedback after a tool ran: the same effect as a top-level block.
        out["decision"] = "block"
        out["reason"] = combined["reason"]
    if combined["context"] and event in rules.ADDITIONAL_CONTEXT_EVENTS:
        specific["additionalContext"] = combined["context"]
    if specific:
        out["hookSpecificOutput"] = {"hookEventName": event, **specific}
    return out


def load_event(source: Source, event: str) -> tuple[HookSpec, ...]:
    return tuple(load(source).hooks.get(event, ()))
