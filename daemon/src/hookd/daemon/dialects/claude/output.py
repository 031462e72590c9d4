"""What a finished Claude Code hook means: exit codes, JSON output, per-event fields.

Reference: ``claude-code-hooks-reference-v2.1.240.md``, "Hook input and output", "HTTP
response handling", each event's "decision control"/"output" section, and "Prompt-based
hooks" (the ``{ok, reason}`` answers of ``prompt`` and ``agent`` handlers).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
from dataclasses import replace
from typing import Any

from ...jstext import JS_WHITESPACE, is_positive_finite
from ...jstext import parse_json as js_parse
from ...model import FireRequest, HookSpec, ProcessOutcome, Verdict
from ...spill import cap_text, session_directory
from ...urls import UnusableUrl, split_url
from ..base import first_line, first_root, timeout_error
from . import rules

NO_STDERR = "No stderr output"
"""What Claude Code 2.1.328 tells the model for an exit 2 with nothing on stderr."""
_INCORRECT_EVENT = "Hook returned incorrect event name"
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
_TERMINAL_SEQUENCE = re.compile(
    r"(?:\x1b\](?:0|1|2|9|99|777);[^\x07\x1b]*(?:\x07|\x1b\\)|\x07)+", re.DOTALL
)


def hook_cwd(request: FireRequest) -> str:
    """Where a hook runs: the event's ``cwd`` when it is a directory, else the project."""
    cwd = request.payload.get("cwd")
    return cwd if isinstance(cwd, str) and os.path.isdir(cwd) else first_root(request)


def interpret(spec: HookSpec, request: FireRequest, outcome: ProcessOutcome) -> Verdict:
    verdict = _verdict(spec, request, outcome)
    if (
        request.event == "ConfigChange"
        and request.payload.get("source") == "policy_settings"
        and verdict.blocks
    ):  # "policy_settings changes can't be blocked"
        verdict = replace(verdict, blocks=False, decision=None)
    return _capped(verdict, request)


def _verdict(spec: HookSpec, request: FireRequest, outcome: ProcessOutcome) -> Verdict:
    blocked = _on_failure_block(spec, request.event, outcome)
    if blocked is not None:
        return blocked
    event = request.event
    kind = spec.options.get("type", "command")
    if kind == "http" and not outcome.timed_out:
        return _from_http(spec, event, request, outcome)
    failure = timeout_error(outcome)
    if failure:
        if event == "WorktreeCreate":
            return _worktree_failed(failure)
        return Verdict(error=failure)
    if event in rules.OUTPUT_DISCARDED:  # only terminalSequence is read
        obj, _ = parse_json(outcome.stdout_text)
        return Verdict(native=_terminal_sequence(obj))
    if kind in ("prompt", "agent"):
        return _from_model(spec, event, outcome)
    if kind == "mcp_tool":
        return _from_mcp_tool(event, request, outcome)
    return from_command(event, request, outcome, lenient=spec.background)


def _on_failure_block(spec: HookSpec, event: str, outcome: ProcessOutcome) -> Verdict | None:
    """Claude Code 2.1.328's ``onFailure: "block"`` (command, http and mcp_tool handlers):
    a hook that failed (``_failure``) blocks the guarded action as exit 2 would; not for
    background hooks, nor on Stop, SubagentStop, TaskCompleted and TeammateIdle. The
    reason is the agent's: how it failed, the rule, then what failed in its words."""
    handler = spec.options.get("handler", {})
    if (
        handler.get("onFailure") != "block"
        or spec.background
        or event not in rules.ON_FAILURE_EVENTS
        or spec.options.get("type", "command") not in ("command", "http", "mcp_tool")
    ):
        return None
    failed = _failure(spec, event, outcome)
    if failed is None:
        return None
    how, detail = failed
    reason = f'{how}; blocking because onFailure is "block"' + (f"\n{detail}" if detail else "")
    return Verdict(blocks=True, decision="deny", reason=reason, error=reason)


def _failure(spec: HookSpec, event: str, outcome: ProcessOutcome) -> tuple[str, str] | None:
    """How a hook failed ("timed out" or "failed") and what the agent says of it, or None
    when it gave a usable answer: a timeout; for an http hook, any ``http_problem`` (a
    refused URL or connection, a status other than 2xx, a body that is no valid output);
    for a command, a start that failed, an exit code other than 0 and 2, or output on
    exit 0 that is no valid output."""
    if outcome.timed_out:
        return "timed out", ""
    if spec.options.get("type") == "http":
        problem = http_problem(spec, event, outcome)
        return None if problem is None else ("failed", problem)
    if outcome.spawn_error:
        return "failed", outcome.spawn_error
    if outcome.exit_code not in (0, 2, None):
        return "failed", outcome.stderr_text.strip()
    if outcome.exit_code == 0 and (invalid := invalid_output(outcome.stdout_text, event)):
        return "failed", invalid
    return None


# command hooks -----------------------------------------------------------------------
def from_command(
    event: str, request: FireRequest, outcome: ProcessOutcome, *, lenient: bool = False
) -> Verdict:
    """Exit code 0 / 2 / other, JSON on stdout, plain stdout (reference "Exit code output").

    ``lenient`` (async hooks): a field of the wrong type is dropped, not the whole output
    ("drops any field whose value has the wrong type ... instead of delivering it")."""
    code = outcome.exit_code
    stdout = outcome.stdout_text
    stderr = outcome.stderr_text.strip()
    if event == "WorktreeCreate":
        if code != 0:
            return _worktree_failed(stderr or f"exit code {code}")
        return _worktree_path(stdout, request)
    obj, schema_error = parse_json(stdout, lenient=lenient, event=event)
    if obj is None and outcome.stdout_truncated and stdout.lstrip().startswith("{"):
        # JSON cut at the output cap is neither JSON nor the hook's plain text: say so
        # rather than hand a fragment to Claude as context or lose a decision silently.
        failure = "its JSON output was cut at the output cap (output_cap_bytes) and not used"
        return _exit_two(event, None, stderr) if code == 2 else _failed(event, failure)
    if code == 2:
        return _exit_two(event, obj, stderr)
    if obj is not None:
        return from_json(event, obj)
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
    base = from_json(event, obj) if obj is not None else Verdict()
    if event in ("Elicitation", "ElicitationResult"):
        # "Exit code 2 denies the elicitation" / "changes the effective action to decline";
        # "an exit-2 hook's hookSpecificOutput is ignored".
        native = {k: v for k, v in base.native.items() if k == "terminalSequence"}
        return replace(
            base,
            blocks=True,
            decision="deny",
            reason=stderr or None,
            native={**native, "action": "decline"},
        )
    if event in rules.EXIT2_BLOCKS:
        reason = base.reason if base.blocks and base.reason else stderr
        return replace(base, blocks=True, decision="deny", reason=reason or NO_STDERR)
    if event in rules.EXIT2_FEEDS_CLAUDE:
        # Stderr is shown to Claude next to the tool result: the effect of a top-level
        # "decision": "block", so it is one (a sibling's block never hides this reason),
        # and "the reason from your JSON's blocking decision when it makes one" wins.
        reason = base.reason if base.blocks and base.reason else stderr
        return replace(
            base, blocks=True, decision="deny", reason=reason or "blocked by hook (exit code 2)"
        )
    if event == "MessageDisplay":
        # "The original text is displayed": displayContent is dropped, side effects stay.
        native = {k: v for k, v in base.native.items() if k == "terminalSequence"}
        return replace(base, native=native)
    if event in rules.EXIT2_IGNORED:
        return base
    return replace(base, error=f"hook error: {first_line(stderr) or 'exit code 2, no stderr'}")


def parse_json(
    stdout: str, *, lenient: bool = False, event: str | None = None
) -> tuple[dict[str, Any] | None, str | None]:
    """Claude's rule: JSON only when stdout starts with ``{``; else plain text.

    Returns the object, or None and the schema error when a field has the wrong type
    (``lenient``: the object without the wrong-typed fields), or, given the ``event``,
    when ``hookSpecificOutput`` names another event (2.1.328 refuses the whole output).
    """
    obj = _object(stdout.lstrip())  # JSON.parse: NaN and Infinity make it plain text
    if obj is None:
        return None, None
    misnamed = _other_event(obj, event)
    if misnamed:
        return None, misnamed
    wrong = _wrong_types(obj, event)
    if not wrong:
        return obj, None
    if lenient:
        kept = {k: v for k, v in obj.items() if k not in wrong}
        if isinstance(kept.get("hookSpecificOutput"), dict):
            inner = {n.split(".", 1)[1] for n in wrong if n.startswith("hookSpecificOutput.")}
            kept["hookSpecificOutput"] = {
                k: v for k, v in kept["hookSpecificOutput"].items() if k not in inner
            }
        return kept, None
    name, kind = next(iter(wrong.items()))
    return None, f'no usable answer: "{name}" must be {_described(kind)}'


def _other_event(obj: dict[str, Any], event: str | None) -> str | None:
    """The agent's error when ``hookSpecificOutput`` is for another event than the one
    the hook ran for (2.1.328 throws it: the output is no usable answer)."""
    specific = obj.get("hookSpecificOutput")
    if event is None or not isinstance(specific, dict):
        return None
    named = specific.get("hookEventName")
    if named == event:
        return None
    return f"{_INCORRECT_EVENT}: expected '{event}' but got '{named}'"


def _wrong_types(obj: dict[str, Any], event: str | None = None) -> dict[str, str]:
    """Each field whose value 2.1.328's output schema refuses, with the type it wants
    (``rules.OUTPUT_TOP_LEVEL``; ``rules.OUTPUT_SPECIFIC`` for the event's
    ``hookSpecificOutput``, when the event is known)."""
    wrong = {name: kind for name, kind in rules.OUTPUT_TOP_LEVEL.items()
             if name in obj and not _has_kind(obj[name], kind)}  # fmt: skip
    specific = obj.get("hookSpecificOutput")
    if "hookSpecificOutput" in obj and not isinstance(specific, dict):
        wrong["hookSpecificOutput"] = "object"
    elif isinstance(specific, dict):
        # 2.1.328 validates strictly: a wrongly typed field inside makes the whole output
        # "no usable answer" (the agent then warns and lets the action go on).
        fields = {"hookEventName": "string", **rules.OUTPUT_SPECIFIC.get(event or "", {})}
        for name, kind in fields.items():
            if name in specific and not _has_kind(specific[name], kind):
                wrong[f"hookSpecificOutput.{name}"] = kind
    return wrong


def _has_kind(value: Any, kind: str) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "object":
        return isinstance(value, dict)
    if kind == "strings":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "permission-request":
        return _permission_request_ok(value)
    return value in kind.split("|")  # an enum


def _permission_request_ok(value: Any) -> bool:
    """PermissionRequest's ``decision``: ``{behavior: "allow", updatedInput?: object,
    updatedPermissions?: list}`` or ``{behavior: "deny", message?: string, interrupt?:
    boolean}``."""
    if not isinstance(value, dict):
        return False
    behavior = value.get("behavior")
    if behavior == "allow":
        wanted = {"updatedInput": "object"}
        if not isinstance(value.get("updatedPermissions", []), list):
            return False
    elif behavior == "deny":
        wanted = {"message": "string", "interrupt": "boolean"}
    else:
        return False
    return all(_has_kind(value[k], kind) for k, kind in wanted.items() if k in value)


def _described(kind: str) -> str:
    """``kind`` in the words of a "must be ..." message."""
    words = {"string": "a string", "boolean": "a boolean", "object": "an object",
             "strings": "a list of strings",
             "permission-request": 'an object with "behavior" allow or deny'}  # fmt: skip
    return words.get(kind) or "one of " + ", ".join(kind.split("|"))


def _expected(kind: str) -> str:
    """``kind`` as the agent's validation message names it."""
    words = {"strings": "array", "permission-request": "object"}
    if kind in ("string", "boolean", "object"):
        return kind
    return words.get(kind) or " | ".join(f"'{v}'" for v in kind.split("|"))


def _validation_error(stdout: str, event: str | None = None) -> str | None:
    """Why JSON output fails Claude Code's schema, in its words (None: it passes, or it
    is not JSON output at all)."""
    obj = _object(stdout.lstrip())
    if obj is None:
        return None
    misnamed = _other_event(obj, event)
    if misnamed:
        return misnamed
    for name, kind in _wrong_types(obj, event).items():
        received = _js_type(_field(obj, name))
        return f"{name}: expected {_expected(kind)}, received {received}"
    return None


def invalid_output(stdout: str, event: str | None = None) -> str | None:
    """What 2.1.328 says of JSON output it cannot use (None: usable, or not JSON): a
    ``hookSpecificOutput`` for another event is thrown as the hook failing to run, a
    field of the wrong type fails validation."""
    invalid = _validation_error(stdout, event)
    if invalid is None:
        return None
    if invalid.startswith(_INCORRECT_EVENT):
        return f"Failed to run: {invalid}"
    return f"Hook JSON output validation failed \u2014 {invalid}"


def _field(obj: dict[str, Any], dotted: str) -> Any:
    for part in dotted.split("."):
        obj = obj[part]
    return obj


def _js_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def from_json(event: str, obj: dict[str, Any]) -> Verdict:
    """The universal fields, the top-level decision and ``hookSpecificOutput``."""
    fields: dict[str, Any] = {
        "continue_": True if event in rules.DISCARDS_CONTINUE else obj.get("continue", True),
        "stop_reason": obj.get("stopReason"),
        "system_message": (
            None if event in rules.DISCARDS_SYSTEM_MESSAGE else obj.get("systemMessage")
        ),
    }
    specific = obj.get("hookSpecificOutput") or {}
    context = specific.get("additionalContext")
    if isinstance(context, str) and context and event in rules.ADDITIONAL_CONTEXT_EVENTS:
        fields["context"] = context
    decision = obj.get("decision")
    native = {**_terminal_sequence(obj), **_specific_fields(event, specific)}
    if event == "PreToolUse":
        fields.update(_pre_tool_use(specific, decision, obj.get("reason")))
    elif event == "PreModelSwitch":
        fields.update(_pre_model_switch(specific, obj.get("reason")))
    elif event == "PermissionRequest":
        permission, extra = _permission_request(specific)
        fields.update(permission)
        native.update(extra)
    elif decision == "block" and event in rules.TOP_LEVEL_DECISION:
        fields.update(blocks=True, decision="deny", reason=obj.get("reason") or "blocked by hook")
    return Verdict(**fields, native=native)


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
            # additionalContext, the reason and updatedInput are all ignored with defer
            fields["context"] = None
            fields["reason"] = None
    if "updatedInput" in specific and decision != "defer":
        fields["has_updated_input"] = True
        fields["updated_input"] = specific["updatedInput"]
    return fields


def _pre_model_switch(specific: dict[str, Any], top_reason: Any) -> dict[str, Any]:
    """2.1.328's PreModelSwitch: ``permissionDecision`` allow / deny / ask as on
    PreToolUse (ask: a headless session refuses); a deny without a reason reads
    ``reason``, else "Blocked by hook"."""
    decision = specific.get("permissionDecision")
    if decision not in ("allow", "deny", "ask"):
        return {}
    reason = specific.get("permissionDecisionReason") or None
    if decision == "deny":
        reason = reason or (top_reason if isinstance(top_reason, str) and top_reason else None)
        return {"decision": "deny", "blocks": True, "reason": reason or "Blocked by hook"}
    return {"decision": decision, "reason": reason}


def _permission_request(specific: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``decision.behavior`` allow/deny, with its allow-only and deny-only fields."""
    decision = specific.get("decision")
    if not isinstance(decision, dict):
        return {}, {}
    behavior = decision.get("behavior")
    fields: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    if behavior == "allow":
        fields.update(decision="allow")
        if "updatedInput" in decision:
            fields.update(has_updated_input=True, updated_input=decision["updatedInput"])
        if isinstance(decision.get("updatedPermissions"), list):
            extra["updatedPermissions"] = decision["updatedPermissions"]
    elif behavior == "deny":
        message = decision.get("message")
        fields.update(
            decision="deny", blocks=True, reason=message if isinstance(message, str) else None
        )
        if decision.get("interrupt") is True:
            extra["interrupt"] = True
    return fields, extra


def _specific_fields(event: str, specific: dict[str, Any]) -> dict[str, Any]:
    """The per-event ``hookSpecificOutput`` fields passed through (``SPECIFIC_FIELDS``),
    each kept only when its value has the documented type."""
    kept: dict[str, Any] = {}
    for name, how in rules.SPECIFIC_FIELDS.get(event, {}).items():
        if name not in specific:
            continue
        value = specific[name]
        if how == "union" and not (
            isinstance(value, list) and all(isinstance(v, str) for v in value)
        ):
            continue
        if how == "any" and not isinstance(value, bool):
            continue
        if how == "join" and not isinstance(value, str):
            continue
        if how == "strictest" and value not in rules.ELICITATION_RANK:
            continue
        kept[name] = value
    return kept


def _terminal_sequence(obj: dict[str, Any] | None) -> dict[str, Any]:
    """``terminalSequence`` when every byte of it is on the allowlist (OSC 0/1/2/9/99/777
    and BEL); "anything outside the allowlist" means the field is ignored."""
    value = (obj or {}).get("terminalSequence")
    if isinstance(value, str) and value and _TERMINAL_SEQUENCE.fullmatch(value):
        return {"terminalSequence": value}
    return {}


# WorktreeCreate ----------------------------------------------------------------------
def _failed(event: str, why: str) -> Verdict:
    """A hook that failed: a non-blocking error, except on WorktreeCreate ("If the hook
    fails or produces no path, worktree creation fails with an error")."""
    return _worktree_failed(why) if event == "WorktreeCreate" else Verdict(error=why)


def _worktree_failed(why: str) -> Verdict:
    return Verdict(blocks=True, decision="deny", reason=f"worktree creation failed: {why}")


def _worktree_path(stdout: str, request: FireRequest) -> Verdict:
    """ "Print the path as the last non-empty line of stdout" (ANSI codes stripped); a
    relative path resolves against the directory the hook ran in."""
    lines = [line.strip() for line in _ANSI.sub("", stdout).splitlines() if line.strip()]
    if not lines:
        return _worktree_failed("the hook printed no path")
    return _checked_worktree(lines[-1], request)


def _checked_worktree(path: str, request: FireRequest) -> Verdict:
    if os.path.isabs(path):
        parts = path.replace("\\", "/").split("/")
        if "." in parts or ".." in parts:
            return _worktree_failed(f"{path!r} is absolute and contains '.' or '..' segments")
        resolved = path
    else:
        resolved = os.path.normpath(os.path.join(hook_cwd(request), path))
    return Verdict(native={"worktreePath": resolved})


# HTTP hooks --------------------------------------------------------------------------
def _from_http(
    spec: HookSpec, event: str, request: FireRequest, outcome: ProcessOutcome
) -> Verdict:
    """ "HTTP response handling": 2xx empty = success, 2xx JSON object = read like a
    command's JSON, anything else (``http_problem``) = a non-blocking error (on
    WorktreeCreate a failure); events whose output is discarded read only
    ``terminalSequence``."""
    problem = http_problem(spec, event, outcome)
    if problem is not None:
        return _failed(event, f"HTTP hook: {problem}")
    obj = _object(outcome.stdout_text.strip(JS_WHITESPACE))
    if event == "WorktreeCreate":
        path = ((obj or {}).get("hookSpecificOutput") or {}).get("worktreePath")
        if not isinstance(path, str) or not path:
            return _worktree_failed("the response has no hookSpecificOutput.worktreePath")
        checked = _checked_worktree(path, request)
        # "An HTTP WorktreeCreate hook returns JSON and can include" terminalSequence.
        return replace(checked, native={**checked.native, **_terminal_sequence(obj)})
    if event in rules.OUTPUT_DISCARDED:
        return Verdict(native=_terminal_sequence(obj))
    return from_json(event, obj) if obj is not None else Verdict()


def http_problem(spec: HookSpec, event: str, outcome: ProcessOutcome) -> str | None:
    """Why an http hook gave no usable answer, in Claude Code 2.1.328's words (what it
    shows after the ``onFailure`` rule), or None: the URL refused by
    ``allowedHttpHookUrls`` or the request failing (``connect ECONNREFUSED host:port``),
    ``HTTP <status> from <url>`` for a status other than 2xx, then the body: empty is
    fine, text that is not a JSON object or does not parse, or JSON that fails the output
    schema, is not."""
    url = spec.options["handler"]["url"]
    if outcome.spawn_error:
        return _request_failed(url, outcome)
    status = outcome.http_status or 0
    if not 200 <= status < 300:
        return f"HTTP {status} from {url}"
    body = outcome.stdout_text.strip(JS_WHITESPACE)
    if not body:
        return None
    if not body.startswith("{"):
        shown = body if len(body) <= 200 else body[:200] + "\u2026"
        return f"HTTP hook must return JSON, but got non-JSON response body: {shown}"
    try:
        js_parse(body)
    except ValueError as exc:
        return f"HTTP hook must return valid JSON, but parsing failed: {exc}"
    return invalid_output(body, event)


_CONNECT_ERRORS = frozenset(
    {errno.ECONNREFUSED, errno.ECONNRESET, errno.EHOSTUNREACH, errno.ENETUNREACH}
)
"""Connection errors Node names as ``connect <CODE> <host>:<port>``."""


def _request_failed(url: str, outcome: ProcessOutcome) -> str:
    """A request that got no answer: a refused connection as Node words it (the agent's
    message), anything else as hookd found it."""
    code = outcome.spawn_errno
    if code in _CONNECT_ERRORS:
        with contextlib.suppress(UnusableUrl):
            _scheme, host, port, _target = split_url(url)
            return f"connect {errno.errorcode[code]} {host}:{port}"
    return outcome.spawn_error or "the request failed"


# handlers the client runs ------------------------------------------------------------
def _from_mcp_tool(event: str, request: FireRequest, outcome: ProcessOutcome) -> Verdict:
    """An MCP ``CallToolResult``: its text content is read like a command's stdout on
    exit 0; ``isError: true`` is a non-blocking error."""
    answer = _answer(outcome)
    if not isinstance(answer, dict) or not isinstance(answer.get("content", []), list):
        return _failed(event, "mcp_tool hook: the client's answer is not an MCP tool result")
    texts = [
        item["text"]
        for item in answer.get("content", [])
        if isinstance(item, dict)
        and item.get("type") == "text"
        and isinstance(item.get("text"), str)
    ]
    text = "\n".join(texts)
    if answer.get("isError") is True:
        return _failed(event, f"mcp_tool hook: the tool reported an error: {first_line(text)}")
    as_stdout = ProcessOutcome(0, text.encode(), b"", outcome.duration_ms)
    return from_command(event, request, as_stdout)


def _from_model(spec: HookSpec, event: str, outcome: ProcessOutcome) -> Verdict:
    """``{ok, reason, impossible}`` with the per-event meaning of ``ok: false``
    ("Response schema"); agent handlers act as ``continueOnBlock: true``."""
    answer = _answer(outcome)
    kind = spec.options.get("type")
    if not isinstance(answer, dict) or not isinstance(answer.get("ok"), bool):
        return Verdict(error=f'{kind} hook: the answer is not {{"ok": true|false, "reason": ...}}')
    if answer["ok"]:
        return Verdict()
    reason = answer.get("reason") if isinstance(answer.get("reason"), str) else None
    reason = reason or f"{kind} hook returned ok: false"
    handler = spec.options.get("handler", {})
    keep_going = kind == "agent" or handler.get("continueOnBlock") is True
    blocked = Verdict(blocks=True, decision="deny", reason=reason)
    ends_turn = Verdict(continue_=False, stop_reason=reason)
    if event in ("Stop", "SubagentStop"):
        if kind == "prompt" and answer.get("impossible") is True:
            return Verdict()  # the condition can never hold: let the turn end
        return blocked
    if event in ("PreToolUse", "PostToolUse", "TeammateIdle"):
        if keep_going:
            return blocked
        return (
            replace(blocked, continue_=False, stop_reason=reason)
            if event == "PreToolUse"
            else ends_turn
        )
    if event in ("PermissionRequest", "PermissionDenied"):
        return Verdict()  # "ok: false has no effect"
    return blocked


def _answer(outcome: ProcessOutcome) -> Any:
    try:
        return js_parse(outcome.stdout_text)
    except ValueError:
        return None


# output caps -------------------------------------------------------------------------
def _capped(verdict: Verdict, request: FireRequest) -> Verdict:
    """Each text over 10,000 characters goes to a file; a preview and the path stay."""
    changes: dict[str, Any] = {}
    spilled: list[dict[str, Any]] = []
    for attribute, field in (
        ("context", "additionalContext"),
        ("system_message", "systemMessage"),
        ("reason", "reason"),
        ("stop_reason", "stopReason"),
    ):
        text = getattr(verdict, attribute)
        if isinstance(text, str):
            changes[attribute] = cap_output(text, field, request, spilled)
    if not spilled:
        return verdict
    return replace(verdict, **changes, spilled=verdict.spilled + tuple(spilled))


# background hooks --------------------------------------------------------------------
def async_reply(line: bytes) -> float | None:
    """Whether a running command hook sends itself to the background, and its timeout
    then (seconds): 2.1.328 reads the first line of its stdout once, as soon as it holds
    a ``}``, and a JSON object with ``"async": true`` there backgrounds it (the fire goes
    on without it); ``asyncTimeout`` is in milliseconds, 15 s when missing."""
    obj = _object(line.decode("utf-8", errors="replace").strip(JS_WHITESPACE))
    if obj is None or obj.get("async") is not True:
        return None
    timeout = obj.get("asyncTimeout")
    if isinstance(timeout, int | float) and is_positive_finite(timeout):
        return timeout / 1000
    return rules.ASYNC_REPLY_TIMEOUT_S


def async_answer(stdout: str) -> dict[str, Any]:
    """The JSON answer of a hook that ran in the background (``async`` in its settings or
    on its first line), found where 2.1.328 looks: the rest of stdout after a first line
    that is an ``{"async": ...}`` object (else the whole of it), then each line alone; the
    first object without an ``async`` key wins. Plain text is no answer: {}."""
    lines = stdout.strip(JS_WHITESPACE).split("\n")
    head = _object(lines[0].strip(JS_WHITESPACE))
    rest = lines[1:] if head is not None and "async" in head else lines
    for text in ("\n".join(rest), *lines):
        obj = _object(text.strip(JS_WHITESPACE))
        if obj is not None and "async" not in obj:
            return obj
    return {}


def async_texts(answer: dict[str, Any]) -> tuple[str | None, str | None]:
    """What of a background hook's answer reaches the model, on any event: its
    ``hookSpecificOutput.additionalContext`` and its ``systemMessage`` when they are
    non-empty strings (2.1.328 drops a field of the wrong type, never the answer, and
    does not check ``hookEventName`` here)."""
    specific = answer.get("hookSpecificOutput")
    context = specific.get("additionalContext") if isinstance(specific, dict) else None
    message = answer.get("systemMessage")
    return (
        context if isinstance(context, str) and context else None,
        message if isinstance(message, str) and message else None,
    )


def _object(text: str) -> dict[str, Any] | None:
    """``text`` as a JSON object when it starts with ``{`` and parses as one."""
    if not text.startswith("{"):
        return None
    try:
        obj = js_parse(text)
    except ValueError:
        return None
    return obj if isinstance(obj, dict) else None


def cap_output(text: str, field: str, request: FireRequest, spilled: list[dict[str, Any]]) -> str:
    """``text`` within Claude's 10,000-character cap: the whole text saved in the session's
    folder when it is over, a preview naming the file returned, the file added to
    ``spilled``."""
    if len(text) <= rules.OUTPUT_CAP_CHARS // 2:
        return text  # within the cap even if every character took two UTF-16 units
    directory = session_directory(request.state_dir, "claude", request.session_id)
    capped = cap_text(text, cap=rules.OUTPUT_CAP_CHARS, field=field, directory=directory)
    if capped.spill is not None:
        spilled.append(capped.spill)
    return capped.text
