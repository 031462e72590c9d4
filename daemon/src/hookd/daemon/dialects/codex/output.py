"""What a finished hook means to Codex CLI (0.171.0): exit codes, and its strict reading of
a hook's JSON, event by event (each rule and its words found by running the agent).

* Exit 0 reads stdout: nothing, a JSON object of the event's own fields (any other field,
  or a field of the wrong type, makes it ``invalid <event> JSON output``: a failed hook),
  or plain text (context on ``SessionStart``, ``SubagentStart`` and ``UserPromptSubmit``;
  ignored on most events; an error on ``Stop`` and ``Interrupt``).
* Exit 2 blocks where the event can block, with stderr as the reason (no reason: a failed
  hook); elsewhere it is a failure like any other exit code.
* Some fields Codex parses but will not honour on an event, and says so: the hook fails
  (``PreToolUse hook returned unsupported permissionDecision:ask``), and a failed hook
  never blocks: Codex goes on. Its ``additionalContext`` is dropped with it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ...jstext import parse_json
from ...model import ProcessOutcome, Verdict
from ..base import timeout_error
from .events import CONTEXT_EVENTS, TEXT_IS_CONTEXT

COMMON = {"continue": bool, "stopReason": str, "suppressOutput": bool, "systemMessage": str}
"""Fields every event's output may carry."""
_STR, _BOOL, _OBJ, _ANY = str, bool, dict, object
FIELDS: dict[str, dict[str, Any]] = {
    "PreToolUse": {"decision": ("approve", "block"), "reason": _STR},
    "PermissionRequest": {},
    "PostToolUse": {"decision": ("block",), "reason": _STR},
    "UserPromptSubmit": {"decision": ("block",), "reason": _STR},
    "Stop": {"decision": ("block",), "reason": _STR},
    "SubagentStop": {"decision": ("block",), "reason": _STR},
    "SessionStart": {},
    "SubagentStart": {},
    "PreCompact": {},
    "PostCompact": {},
}
"""Each event's own top-level fields (beside ``COMMON``; a tuple: its allowed values)."""
SPECIFIC: dict[str, dict[str, Any]] = {
    "PreToolUse": {"permissionDecision": ("allow", "deny", "ask"),
                   "permissionDecisionReason": _STR, "updatedInput": _ANY,
                   "additionalContext": _STR},
    "PermissionRequest": {"decision": _OBJ},
    "PostToolUse": {"additionalContext": _STR, "updatedMCPToolOutput": _ANY},
    "UserPromptSubmit": {"additionalContext": _STR},
    "SessionStart": {"additionalContext": _STR},
    "SubagentStart": {"additionalContext": _STR},
}  # fmt: skip
"""Each event's ``hookSpecificOutput`` fields (``hookEventName`` is required there)."""
PERMISSION_DECISION = {"behavior": ("allow", "deny"), "message": _STR, "updatedInput": _ANY,
                       "updatedPermissions": _ANY, "interrupt": _BOOL}  # fmt: skip
JSON_NAME = {
    "PreToolUse": "pre-tool-use", "PermissionRequest": "permission-request",
    "PostToolUse": "post-tool-use", "UserPromptSubmit": "user prompt submit",
    "SessionStart": "session start", "SubagentStart": "subagent start",
    "Stop": "stop hook", "SubagentStop": "subagent stop hook", "Interrupt": "interrupt hook",
    "PreCompact": "PreCompact hook", "PostCompact": "PostCompact hook",
}  # fmt: skip
"""How ``hook returned invalid <...> JSON output`` names each event."""
EXIT2_REASON = {
    "PreToolUse": "a blocking reason",
    "PermissionRequest": "a denial reason",
    "PostToolUse": "feedback",
    "UserPromptSubmit": "a blocking reason",
    "Stop": "a continuation prompt",
    "SubagentStop": "a continuation prompt",
}
"""Events where exit 2 blocks, and what its stderr must hold."""
IGNORED_OUTPUT = frozenset({"SessionEnd", "PreModelRequest", "PostModelRequest"})
"""Events whose hooks' stdout Codex does not read (only their exit code)."""
STDERR_IS_THE_ERROR = frozenset(
    {"PreModelRequest", "PostModelRequest", "PreCompact", "PostCompact"}
)
"""Events where a hook exiting other than 0 fails with its stderr as the error, not with
``hook exited with code N`` (which Codex does not show either when the stderr is empty:
hookd says it, so that a failure is never silent)."""


class Rejected(Exception):
    """Codex parses the output but will not take it: the hook fails with this text."""


def interpret(event: str, outcome: ProcessOutcome, timeout_s: float) -> Verdict:
    """The hook's verdict as Codex reads it; ``error`` is what Codex shows for a failed
    hook (and then nothing else of its output counts)."""
    if outcome.timed_out:
        return Verdict(error=f"hook timed out after {round(timeout_s)}s")
    failed = timeout_error(outcome)
    if failed:
        return Verdict(error=failed)
    stdout = outcome.stdout.decode("utf-8", "replace")
    stderr = outcome.stderr.decode("utf-8", "replace").strip()
    code = outcome.exit_code
    if code == 2 and event in EXIT2_REASON:
        if not stderr:
            return Verdict(error=f"{event} hook exited with code 2 but did not write "
                                 f"{EXIT2_REASON[event]} to stderr")  # fmt: skip
        return Verdict(blocks=True, decision="deny", reason=stderr)
    if code != 0 and event in STDERR_IS_THE_ERROR:
        return Verdict(error=stderr or f"hook exited with code {code}")
    if code != 0:
        return Verdict(error=f"hook exited with code {code}")
    if event in IGNORED_OUTPUT or not stdout.strip():
        return Verdict()
    try:
        parsed = parse_json(stdout.strip())
    except ValueError:
        parsed = None
    if not isinstance(parsed, dict):
        return _text(event, stdout)
    try:
        return _json(event, parsed)
    except Rejected as rejected:
        return Verdict(error=str(rejected))


def _text(event: str, stdout: str) -> Verdict:
    """Stdout that is no JSON object: context, ignored or an error, by event."""
    stripped = stdout.strip()
    if stripped.startswith(("{", "[")) or event in ("Stop", "SubagentStop"):
        return Verdict(error=f"hook returned invalid {JSON_NAME.get(event, event)} JSON output")
    if event == "Interrupt":
        return Verdict(error="Interrupt hook returned non-JSON stdout")
    if event in TEXT_IS_CONTEXT:
        return Verdict(context=stripped)
    return Verdict()


def _json(event: str, output: Mapping[str, Any]) -> Verdict:
    invalid = Rejected(f"hook returned invalid {JSON_NAME.get(event, event)} JSON output")
    if event == "Interrupt":
        if set(output) - {"systemMessage"} or not _typed(output, {"systemMessage": _STR}):
            raise invalid
        return Verdict(system_message=output.get("systemMessage"))
    fields = {**COMMON, **FIELDS.get(event, {})}
    specific = SPECIFIC.get(event)
    if specific is not None:
        fields["hookSpecificOutput"] = _OBJ
    if set(output) - set(fields) or not _typed(output, fields):
        raise invalid
    hook_specific = output.get("hookSpecificOutput")
    if hook_specific is not None:
        assert specific is not None
        allowed = {"hookEventName": _STR, **specific}
        if set(hook_specific) - set(allowed) or not _typed(hook_specific, allowed):
            raise invalid
        if not isinstance(hook_specific.get("hookEventName"), str):
            raise invalid  # required; another event's name is taken (0.171.0 does)
    return RULES.get(event, _common_only)(event, output, hook_specific or {})


def _typed(values: Mapping[str, Any], fields: Mapping[str, Any]) -> bool:
    """Every present field of its type or one of its values (JSON ``null``: absent)."""
    for key, value in values.items():
        wanted = fields[key]
        if value is None or wanted is _ANY:
            continue
        if isinstance(wanted, tuple):
            if value not in wanted:
                return False
        elif wanted is _BOOL:
            if not isinstance(value, bool):
                return False
        elif not isinstance(value, wanted) or isinstance(value, bool):
            return False
    return True


def _unsupported(event: str, output: Mapping[str, Any], fields: tuple[str, ...]) -> None:
    """The common fields this event parses but will not honour."""
    if "continue" in fields and output.get("continue") is False:
        raise Rejected(f"{event} hook returned unsupported continue:false")
    if "stopReason" in fields and output.get("stopReason") is not None:
        raise Rejected(f"{event} hook returned unsupported stopReason")
    if "suppressOutput" in fields and output.get("suppressOutput"):
        raise Rejected(f"{event} hook returned unsupported suppressOutput")


def _base(output: Mapping[str, Any], context: str | None = None) -> dict[str, Any]:
    """What every verdict carries: the user's message, context, ``continue: false``."""
    stop = output.get("continue") is False
    return {
        "system_message": output.get("systemMessage"),
        "context": context,
        "continue_": not stop,
        "stop_reason": output.get("stopReason") if stop else None,
    }


def _pre_tool_use(event: str, output: Mapping[str, Any], specific: Mapping[str, Any]) -> Verdict:
    _unsupported(event, output, ("continue", "stopReason", "suppressOutput"))
    decision = specific.get("permissionDecision")
    why = specific.get("permissionDecisionReason")
    has_input = specific.get("updatedInput") is not None
    context = specific.get("additionalContext")
    if decision is not None or why is not None or has_input:
        if has_input and decision != "allow":
            raise Rejected(f"{event} hook returned updatedInput without permissionDecision:allow")
        if decision == "allow" and not has_input:
            raise Rejected(f"{event} hook returned unsupported permissionDecision:allow")
        if decision == "ask":
            raise Rejected(f"{event} hook returned unsupported permissionDecision:ask")
        if decision == "deny":
            if not (isinstance(why, str) and why.strip()):
                raise Rejected(f"{event} hook returned permissionDecision:deny without a "
                               "non-empty permissionDecisionReason")  # fmt: skip
            return Verdict(blocks=True, decision="deny", reason=why.strip(),
                           **_base(output, context))  # fmt: skip
        if decision is None:
            raise Rejected(f"{event} hook returned permissionDecisionReason without "
                           "permissionDecision")  # fmt: skip
        rewrite = specific["updatedInput"]
        return Verdict(decision="allow", has_updated_input=True, updated_input=rewrite,
                       **_base(output, context))  # fmt: skip
    return _legacy_block(event, output, context, approve_rejected=True)


def _legacy_block(
    event: str, output: Mapping[str, Any], context: str | None, approve_rejected: bool = False
) -> Verdict:
    """``decision: "block"`` with a ``reason`` (PreToolUse, PostToolUse, Stop...)."""
    decision, reason = output.get("decision"), output.get("reason")
    if decision == "approve" and approve_rejected:
        raise Rejected(f"{event} hook returned unsupported decision:approve")
    if decision == "block":
        if not (isinstance(reason, str) and reason.strip()):
            raise Rejected(f"{event} hook returned decision:block without a non-empty reason")
        return Verdict(blocks=True, decision="deny", reason=reason.strip(),
                       **_base(output, context))  # fmt: skip
    if reason is not None and event != "UserPromptSubmit":
        raise Rejected(f"{event} hook returned reason without decision")
    return Verdict(**_base(output, context))


def _permission_request(
    event: str, output: Mapping[str, Any], specific: Mapping[str, Any]
) -> Verdict:
    _unsupported(event, output, ("continue", "stopReason", "suppressOutput"))
    decision = specific.get("decision")
    if decision is None:
        return Verdict(**_base(output))
    if set(decision) - set(PERMISSION_DECISION) or not _typed(decision, PERMISSION_DECISION):
        raise Rejected(f"hook returned invalid {JSON_NAME[event]} JSON output")
    if "behavior" not in decision:
        raise Rejected(f"hook returned invalid {JSON_NAME[event]} JSON output")
    for field in ("updatedInput", "updatedPermissions"):
        if decision.get(field) is not None:
            raise Rejected(f"{event} hook returned unsupported {field}")
    if decision.get("interrupt"):
        raise Rejected(f"{event} hook returned unsupported interrupt:true")
    if decision["behavior"] == "deny":
        message = decision.get("message")
        reason = message.strip() if isinstance(message, str) and message.strip() else None
        denied = reason or f"{event} hook denied approval"
        return Verdict(blocks=True, decision="deny", reason=denied, **_base(output))
    return Verdict(decision="allow", **_base(output))


def _post_tool_use(event: str, output: Mapping[str, Any], specific: Mapping[str, Any]) -> Verdict:
    _unsupported(event, output, ("suppressOutput",))
    if specific.get("updatedMCPToolOutput") is not None:
        raise Rejected(f"{event} hook returned unsupported updatedMCPToolOutput")
    verdict = _legacy_block(event, output, specific.get("additionalContext"))
    if not verdict.continue_ and not verdict.blocks:
        stopped = verdict.stop_reason or f"{event} hook stopped execution"
        return Verdict(reason=stopped, **{**_base(output, verdict.context),
                                          "stop_reason": stopped})  # fmt: skip
    return verdict


def _prompt(event: str, output: Mapping[str, Any], specific: Mapping[str, Any]) -> Verdict:
    return _legacy_block(event, output, specific.get("additionalContext"))


def _stop(event: str, output: Mapping[str, Any], specific: Mapping[str, Any]) -> Verdict:
    return _legacy_block(event, output, None)


def _start(event: str, output: Mapping[str, Any], specific: Mapping[str, Any]) -> Verdict:
    return Verdict(**_base(output, specific.get("additionalContext")))


def _common_only(event: str, output: Mapping[str, Any], specific: Mapping[str, Any]) -> Verdict:
    return Verdict(**_base(output))


RULES = {
    "PreToolUse": _pre_tool_use,
    "PermissionRequest": _permission_request,
    "PostToolUse": _post_tool_use,
    "UserPromptSubmit": _prompt,
    "Stop": _stop,
    "SubagentStop": _stop,
    "SessionStart": _start,
    "SubagentStart": _start,
}


def context_of(event: str, verdict: Verdict) -> str | None:
    """The context a verdict gives the model (none on events that take none)."""
    return verdict.context if event in CONTEXT_EVENTS else None


def dumps(value: Any) -> str:
    """One hook's answer as Codex reads it back (the relay's stdout)."""
    return json.dumps(value, ensure_ascii=False)
