"""What Factory Droid makes of its hooks' answers (``droid-research.md`` §5; the judge:
``tests/agents/droid``).

One hook's result (``interpret``): its exit code (a timeout, a signal or a failed start
count as 1), its stdout and stderr as they came, and its JSON answer when stdout, trimmed,
starts with ``{`` and the whole of it parses: read on **every** exit code, only the
fields the agent keeps. The event's hooks all run, then each rule takes the **first**
hook (in declaration order) that has what it looks for (``combine``); there is no
precedence of deny over allow as in Claude Code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...jstext import JS_WHITESPACE, parse_json
from ...model import HookReport, HookSpec, ProcessOutcome, Verdict
from . import events as ev

_KEPT = ("continue", "stopReason", "systemMessage", "decision", "reason")
_KEPT_SPECIFIC = ("permissionDecision", "permissionDecisionReason", "additionalContext",
                  "updatedInput")  # fmt: skip


def interpret(spec: HookSpec, outcome: ProcessOutcome) -> Verdict:
    """One hook's result, kept whole in ``native`` for ``combine``."""
    failed = outcome.timed_out or outcome.cancelled or outcome.spawn_error is not None
    code = 1 if failed or outcome.exit_code is None else outcome.exit_code
    stderr = outcome.stderr_text
    if outcome.spawn_error and not stderr:
        stderr = outcome.spawn_error
    stdout = outcome.stdout_text
    native: dict[str, Any] = {"code": code, "stdout": stdout, "stderr": stderr,
                              "answer": answer_of(stdout)}  # fmt: skip
    if spec.options.get("preserveRiskLevel"):
        native["preserveRiskLevel"] = True
    error = None
    if outcome.timed_out:
        error = f"timed out after {spec.timeout_s:g} s (Droid reads it as exit 1)"
    elif outcome.spawn_error:
        error = f"could not start: {outcome.spawn_error}"
    return Verdict(native=native, error=error)


def answer_of(stdout: str) -> dict[str, Any] | None:
    """The JSON answer as the agent keeps it: the known fields only (``suppressOutput``
    only when a boolean), ``hookSpecificOutput`` cut down to its four fields (its
    ``hookEventName`` is never checked)."""
    if not stdout.strip(JS_WHITESPACE).startswith("{"):
        return None
    try:
        data = parse_json(stdout)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    kept = {key: data[key] for key in _KEPT if data.get(key) is not None}
    specific = data.get("hookSpecificOutput")
    if isinstance(specific, dict):
        kept["hookSpecificOutput"] = {key: specific[key] for key in _KEPT_SPECIFIC
                                      if specific.get(key) is not None}  # fmt: skip
    return kept


def has_known_key(stdout: str) -> bool:
    """A JSON object with at least one answer key: not context (SessionStart,
    UserPromptSubmit)."""
    try:
        data = parse_json(stdout)
    except ValueError:
        return False
    return isinstance(data, dict) and any(key in ev.KNOWN_OUTPUT_KEYS for key in data)


@dataclass(slots=True)
class Outcome:
    """An event's hooks, combined by the agent's rules."""

    abort: bool = False
    """The turn ends now (``continue: false`` or exit 3 on a tool event)."""
    abort_reason: str | None = None
    blocked: bool = False
    decision: str | None = None
    reason: str | None = None
    """The text the model (or, for a prompt, the user) is given."""
    context: str | None = None
    warning: str | None = None
    """PreToolUse: the first exit-1 hook's stderr, put before the tool's result."""
    feedback: str | None = None
    """PostToolUse: the first exit-2 hook's stderr, sent as ``[Hook Feedback] ...``."""
    update: dict[str, Any] | None = None
    """The winning ``updatedInput`` as the hook wrote it."""
    update_preserves: bool = False
    answers: list[Mapping[str, Any]] = field(default_factory=list)


def _specific(result: Mapping[str, Any]) -> Mapping[str, Any]:
    answer = result.get("answer") or {}
    specific = answer.get("hookSpecificOutput")
    return specific if isinstance(specific, Mapping) else {}


def _first(results: Sequence[Mapping[str, Any]], test: Any) -> Mapping[str, Any] | None:
    return next((r for r in results if test(r)), None)


def _continue_false(result: Mapping[str, Any]) -> bool:
    return (result.get("answer") or {}).get("continue") is False


def combine(event: str, reports: Sequence[HookReport]) -> Outcome:
    ordered = sorted(reports, key=lambda r: r.spec.order)
    results = [r.verdict.native for r in ordered if r.verdict.native]
    found = Outcome()
    rule = _RULES.get(event)
    if rule is not None and results:
        rule(results, found)
    return found


def _pre_tool_use(results: Sequence[Mapping[str, Any]], found: Outcome) -> None:
    """seg108 ``vs``: continue:false, exit 3, the first permissionDecision, exit 2, the
    first updatedInput, the first exit-1 stderr."""
    if _tool_abort(results, found, "Hook requested to stop execution",
                   "Agent aborted by PreToolUse hook"):  # fmt: skip
        return
    decided = _first(results, lambda r: _specific(r).get("permissionDecision"))
    if decided is not None:
        specific = _specific(decided)
        if specific["permissionDecision"] == "deny":
            found.blocked, found.decision = True, "deny"
            found.reason = specific.get("permissionDecisionReason") or ev.DENIED
            return
        if specific["permissionDecision"] == "allow":
            found.decision = "allow"
            if isinstance(specific.get("updatedInput"), dict):
                found.update = specific["updatedInput"]
                found.update_preserves = bool(decided.get("preserveRiskLevel"))
    blocking = _first(results, lambda r: r["code"] == 2)
    if blocking is not None:
        found.blocked, found.decision, found.update = True, "deny", None
        found.reason = blocking["stderr"] or ev.BLOCKED
        return
    rewrite = _first(results, lambda r: _specific(r).get("updatedInput"))
    decided_rewrote = decided is not None and _specific(decided).get("updatedInput")
    if rewrite is not None and not decided_rewrote:
        update = _specific(rewrite)["updatedInput"]
        if isinstance(update, dict):
            found.update = update
            found.update_preserves = bool(rewrite.get("preserveRiskLevel"))
    warned = _first(results, lambda r: r["code"] == 1)
    if warned is not None and warned["stderr"]:
        found.warning = warned["stderr"]


def _tool_abort(results: Sequence[Mapping[str, Any]], found: Outcome, said: str,
                aborted: str) -> bool:  # fmt: skip
    stopping = _first(results, _continue_false)
    if stopping is not None:
        found.abort, found.abort_reason = True, stopping["answer"].get("stopReason") or said
        return True
    exit3 = _first(results, lambda r: r["code"] == 3)
    if exit3 is not None:
        found.abort, found.abort_reason = True, exit3["stderr"] or aborted
        return True
    return False


def _post_tool_use(results: Sequence[Mapping[str, Any]], found: Outcome) -> None:
    """seg122: continue:false, the first additionalContext, exit 3, exit 2."""
    if _first(results, _continue_false) is not None:
        _tool_abort(results, found, "Hook requested to stop execution", "")
        return
    context = _first(results, lambda r: _specific(r).get("additionalContext"))
    if context is not None:
        found.context = str(_specific(context)["additionalContext"])
    if _tool_abort(results, found, "", "Agent aborted by PostToolUse hook"):
        return
    blocking = _first(results, lambda r: r["code"] == 2)
    if blocking is not None:
        found.feedback = blocking["stderr"] or ev.POST_FEEDBACK


def _stop(results: Sequence[Mapping[str, Any]], found: Outcome) -> None:
    """seg122: the first ``decision: "block"`` decides (with a reason the agent goes on
    with it as the next user message; without one nothing happens, and exit 2 is not
    looked at); else the first exit 2 (its stderr, or the agent's text)."""
    block = _first(results, lambda r: (r.get("answer") or {}).get("decision") == "block")
    if block is not None:
        reason = block["answer"].get("reason")
        if isinstance(reason, str) and reason:
            found.blocked, found.reason = True, reason
        return
    blocking = _first(results, lambda r: r["code"] == 2)
    if blocking is not None:
        found.blocked, found.reason = True, blocking["stderr"] or ev.STOP_CONTINUE


def _user_prompt_submit(results: Sequence[Mapping[str, Any]], found: Outcome) -> None:
    """seg123: in order, the first hook that blocks (exit 2, ``continue: false``, exit 3)
    ends it; the first context (additionalContext, or plain stdout on exit 0); the last
    ``updatedInput.prompt``."""
    for result in results:
        answer = result.get("answer") or {}
        stderr = result["stderr"]
        if result["code"] == 2:
            found.blocked, found.reason = True, stderr or ev.PROMPT_BLOCKED
        elif answer.get("continue") is False:
            found.blocked = True
            found.reason = (stderr or answer.get("stopReason") or answer.get("systemMessage")
                            or ev.PROMPT_BLOCKED)  # fmt: skip
        elif result["code"] == 3:
            found.blocked, found.reason = True, stderr or ev.PROMPT_ABORTED
        if found.blocked:
            return
    for result in results:
        context = _context(result, "additionalContext", plain=True)
        if context:
            found.context = context
            break
    for result in results:
        update = _specific(result).get("updatedInput")
        if isinstance(update, dict) and isinstance(update.get("prompt"), str):
            found.update = {"prompt": update["prompt"]}


def _context(result: Mapping[str, Any], key: str, *, plain: bool) -> str | None:
    """A hook's context: its ``additionalContext`` when a non-empty string, else (exit 0)
    its trimmed stdout unless that is a JSON object with an answer key."""
    value = _specific(result).get(key)
    if isinstance(value, str) and value:
        return value
    if not plain or result["code"] != 0:
        return None
    text: str = result["stdout"].strip(JS_WHITESPACE)
    if not text or has_known_key(result["stdout"]):
        return None
    return text


def _session_start(results: Sequence[Mapping[str, Any]], found: Outcome) -> None:
    """seg094 ``applySessionStartHookResults``: every exit-0 hook's context, joined by a
    blank line; nothing else counts."""
    contexts = [c for r in results if r["code"] == 0
                and (c := _context(r, "additionalContext", plain=True))]  # fmt: skip
    found.context = "\n\n".join(contexts) or None


def _pre_compact(results: Sequence[Mapping[str, Any]], found: Outcome) -> None:
    """seg107 (code only): exit 2 or 3 from any hook skips the compaction."""
    blocking = _first(results, lambda r: r["code"] in (2, 3))
    if blocking is not None:
        found.blocked, found.reason = True, blocking["stderr"] or None


_RULES = {
    "PreToolUse": _pre_tool_use,
    "PostToolUse": _post_tool_use,
    "Stop": _stop,
    "UserPromptSubmit": _user_prompt_submit,
    "SessionStart": _session_start,
    "PreCompact": _pre_compact,
}
"""SessionEnd, Notification and SubagentStop: the agent reads no answer."""


def effective_input(tool_name: object, original: object, update: Mapping[str, Any],
                    preserve: bool) -> dict[str, Any]:  # fmt: skip
    """The tool input the agent runs with: ``{...original, ...update}``, and for Execute
    a changed ``command`` drops ``riskLevel`` and ``riskLevelReason`` unless the handler
    says ``preserveRiskLevel`` (seg108 ``gs``)."""
    base = dict(original) if isinstance(original, Mapping) else {}
    merged = {**base, **update}
    if (not preserve and tool_name == ev.COMMAND_TOOL
            and merged.get("command") != base.get("command")):  # fmt: skip
        for name in ev.RISK_FIELDS:
            merged.pop(name, None)
    return merged
