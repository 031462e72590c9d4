"""What a finished hook means to GitHub Copilot CLI (1.0.102), and how several answers
combine (``copilot-research.md §5``).

* stdout is read on exit 0 and exit 2: lines that are exactly ``{"type": "progress"...}``
  dropped, the rest trimmed and parsed as one JSON object; anything else is no answer.
* Exit 2: on ``preToolUse`` a deny (stdout's fields over it), on ``permissionRequest`` a
  deny later hooks may override, on ``postToolUseFailure`` its stderr is the context;
  elsewhere stderr is a warning for the user and stdout still counts.
* Any other exit, a signal, a spawn error: ``preToolUse`` denies (``(hook errored)``) and
  ``permissionRequest`` denies (``Permission request hook failed``), both ending the
  chain; elsewhere the hook is ignored, except a policy hook on ``userPromptSubmitted``,
  ``agentStop`` and ``postToolUse``, which blocks (``Policy hook failed``).
* A timeout is as if the hook had not run, on every event.

Combination (``combine``): ``preToolUse`` stops at the first deny, passes each
``modifiedArgs`` on, joins contexts; ``permissionRequest``, ``userPromptSubmitted``,
``agentStop``, ``subagentStop`` merge the answers key by key, the later winning;
``postToolUse`` passes ``modifiedResult`` on and stops at a ``block``; contexts of
``sessionStart``, ``subagentStart``, ``postToolUse`` and ``postToolUseFailure`` are joined.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...jstext import parse_json
from ...model import HookReport, HookSpec, ProcessOutcome, Verdict
from .events import AGENT_EVENT, OUTPUT_IGNORED, PASCAL, POLICY_FAILS_CLOSED, WARNS_ON_EXIT2

POST_CONTEXT_CAP = 10240
"""``postToolUse`` contexts are cut at this many characters, in silence."""
NO_REASON = "No reason provided"
PERMISSION_DENIED = "Permission denied by hook."
PERMISSION_FAILED = "Permission request hook failed"
POLICY_FAILED = "Policy hook failed"
PERMISSION_PREFIX = "Permission denied by a PermissionRequest hook: "


def answer_of(stdout: str) -> dict[str, Any] | None:
    """The hook's JSON object, read the agent's way; None when there is none."""
    kept = []
    for line in stdout.splitlines():
        stripped = line.strip()
        if stripped.startswith("{") and '"progress"' in stripped:
            try:
                parsed = json.loads(stripped)
            except ValueError:
                parsed = None
            if isinstance(parsed, dict) and parsed.get("type") == "progress":
                continue
        kept.append(line)
    text = "\n".join(kept).strip().lstrip("\ufeff").strip()
    if not text:
        return None
    try:
        value = parse_json(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def interpret(spec: HookSpec, outcome: ProcessOutcome) -> Verdict:
    """One hook's answer; ``native`` keeps what ``combine`` needs (its answer, whether
    it failed, its exit code, its stderr)."""
    event = AGENT_EVENT[spec.event]
    label = spec.options.get("label", spec.source)
    stderr = outcome.stderr_text.strip()
    if outcome.timed_out:
        shown = spec.command if len(spec.command) <= 80 else spec.command[:80] + "…"
        seconds = f"{spec.timeout_s:g}"
        return Verdict(error=f"HookTimeoutError: Hook command timed out after {seconds} "
                             f"seconds: {shown}", native={"skip": True})  # fmt: skip
    if outcome.http_status is not None:
        code = 0 if 200 <= outcome.http_status < 300 else 1
    elif outcome.spawn_error:
        code = None
    else:
        code = outcome.exit_code
    if code is None or code not in (0, 2):
        if outcome.spawn_error and code is None:
            what = f"Error: spawn {outcome.spawn_error}"
        else:
            what = f"Error: Hook command failed with code {code if code is not None else 1}"
        if stderr:
            what += f"\nStderr: {stderr}"
        failed = {"failed": True, "label": label, "policy": spec.layer == "policy"}
        return Verdict(error=what, native=failed, **_failed_verdict(event, spec, label))
    output = None if event in OUTPUT_IGNORED else answer_of(outcome.stdout_text)
    if spec.options.get("form") == "pascal" and spec.event == "PreToolUse" and output:
        output = _with_specific(output)
    native: dict[str, Any] = {"output": output, "code": code, "stderr": stderr, "label": label}
    return Verdict(native=native)


def _failed_verdict(event: str, spec: HookSpec, label: str) -> dict[str, Any]:
    if event == "preToolUse":
        return {"blocks": True, "decision": "deny",
                "reason": f'Denied by preToolUse hook from "{label}" (hook errored)'}  # fmt: skip
    if event == "permissionRequest":
        return {"blocks": True, "decision": "deny", "reason": PERMISSION_PREFIX + PERMISSION_FAILED}
    return {}


def _with_specific(output: Mapping[str, Any]) -> dict[str, Any]:
    """PascalCase ``PreToolUse`` also reads Claude's ``hookSpecificOutput`` (its
    ``updatedInput`` as ``modifiedArgs``; ``hookEventName`` not checked)."""
    specific = output.get("hookSpecificOutput")
    merged = dict(output)
    if isinstance(specific, Mapping):
        for key in ("permissionDecision", "permissionDecisionReason", "additionalContext"):
            if key in specific:
                merged[key] = specific[key]
        if "updatedInput" in specific:
            merged["modifiedArgs"] = specific["updatedInput"]
    return merged


@dataclass
class Outcome:
    """The combined outcome, as Copilot acts on it, and as one hook's answer (``answer``:
    what the relay prints)."""

    blocked: bool = False
    decision: str | None = None
    reason: str | None = None
    contexts: list[str] = field(default_factory=list)
    updated_input: Any = None
    has_updated_input: bool = False
    stop: bool = False
    warnings: list[str] = field(default_factory=list)
    answer: dict[str, Any] = field(default_factory=dict)
    errored: bool = False


def combine(event_key: str, reports: Sequence[HookReport]) -> Outcome:
    """The chain's answers (in the order they ran) combined by the agent's rule."""
    event = AGENT_EVENT[event_key]
    result = Outcome()
    merged: dict[str, Any] = {}
    for report in reports:
        native = report.verdict.native
        if native.get("skip"):
            continue
        if native.get("failed"):
            _failed(event, native, result)
            if result.blocked:
                return result
            continue
        output: dict[str, Any] = native.get("output") or {}
        code = native.get("code")
        if code == 2 and event in WARNS_ON_EXIT2 and native.get("stderr"):
            result.warnings.append(native["stderr"])
        if event == "preToolUse":
            if _pre_tool_use(output, code, result):
                return result
        elif event == "postToolUse":
            if _post_tool_use(output, result):
                return result
        elif event == "postToolUseFailure":
            text = native.get("stderr") if code == 2 else output.get("additionalContext")
            if isinstance(text, str) and text:
                result.contexts.append(text)
        elif event in ("sessionStart", "subagentStart"):
            if isinstance(output.get("additionalContext"), str) and output["additionalContext"]:
                result.contexts.append(output["additionalContext"])
        elif event == "permissionRequest":
            merged.update({"behavior": "deny"} if code == 2 else {})
            merged.update(output)
        elif event in ("userPromptSubmitted", "userPromptTransformed", "agentStop", "subagentStop"):
            merged.update(output)
    if event == "permissionRequest":
        _permission(merged, result)
    elif event == "userPromptSubmitted":
        _prompt(merged, result)
    elif event == "userPromptTransformed":
        if isinstance(merged.get("modifiedTransformedPrompt"), str):
            result.answer["modifiedTransformedPrompt"] = merged["modifiedTransformedPrompt"]
    elif event in ("agentStop", "subagentStop"):
        _stop(event, merged, result)
    if result.contexts and event in ("sessionStart", "subagentStart", "postToolUseFailure"):
        result.answer["additionalContext"] = "\n\n".join(result.contexts)
    return result


def _failed(event: str, native: Mapping[str, Any], result: Outcome) -> None:
    if event == "preToolUse":
        result.blocked, result.decision, result.errored = True, "deny", True
        result.reason = f'Denied by preToolUse hook from "{native["label"]}" (hook errored)'
    elif event == "permissionRequest":
        result.blocked, result.decision, result.errored = True, "deny", True
        result.reason = PERMISSION_PREFIX + PERMISSION_FAILED
    elif native.get("policy") and event in POLICY_FAILS_CLOSED:
        result.blocked, result.errored = True, True
        result.reason = ("Tool result blocked: " + POLICY_FAILED if event == "postToolUse"
                         else POLICY_FAILED)  # fmt: skip
        if event == "userPromptSubmitted":
            result.stop = True


def _pre_tool_use(output: Mapping[str, Any], code: Any, result: Outcome) -> bool:
    """One ``preToolUse`` answer; True when it ends the chain (a deny)."""
    context = output.get("additionalContext")
    if isinstance(context, str) and context:
        result.contexts.append(context)
        result.answer["additionalContext"] = "\n\n".join(result.contexts)
    decision = "deny" if code == 2 else output.get("permissionDecision")
    if "modifiedArgs" in output and code != 2:
        result.updated_input, result.has_updated_input = output["modifiedArgs"], True
        result.answer["modifiedArgs"] = output["modifiedArgs"]
    if decision == "deny":
        why = output.get("permissionDecisionReason")
        if why is None:
            why = "hook exited with code 2" if code == 2 else NO_REASON
        reason = why if isinstance(why, str) else json.dumps(why)
        result.blocked, result.decision = True, "deny"
        result.reason = f"Denied by preToolUse hook: {reason}"
        result.updated_input, result.has_updated_input = None, False
        result.answer.pop("modifiedArgs", None)
        result.answer.update(permissionDecision="deny", permissionDecisionReason=reason)
        return True
    if decision == "ask":
        why = output.get("permissionDecisionReason")
        reason = NO_REASON if why is None else (why if isinstance(why, str) else json.dumps(why))
        result.decision = "ask"
        result.reason = f"Denied by preToolUse hook (unable to ask user for confirmation): {reason}"
        result.answer.update(permissionDecision="ask", permissionDecisionReason=reason)
    elif decision == "allow" and result.decision is None:
        result.decision = "allow"
        result.answer["permissionDecision"] = "allow"
    return False


def _post_tool_use(output: Mapping[str, Any], result: Outcome) -> bool:
    """One ``postToolUse`` answer; True when it ends the chain (a ``block``)."""
    if isinstance(output.get("modifiedResult"), Mapping):
        result.updated_input, result.has_updated_input = output["modifiedResult"], True
        result.answer["modifiedResult"] = output["modifiedResult"]
    context = output.get("additionalContext")
    if isinstance(context, str) and context:
        result.contexts.append(context[:POST_CONTEXT_CAP])
        result.answer["additionalContext"] = "\n\n".join(result.contexts)
    if output.get("decision") == "block" and isinstance(output.get("reason"), str):
        result.blocked, result.decision = True, "deny"
        result.reason = "Tool result blocked: " + output["reason"]
        result.answer.update(decision="block", reason=output["reason"])
        return True
    return False


def _permission(merged: Mapping[str, Any], result: Outcome) -> None:
    behavior = merged.get("behavior")
    if behavior == "deny":
        message = merged.get("message")
        text = message if isinstance(message, str) and message else PERMISSION_DENIED
        result.blocked, result.decision = True, "deny"
        result.reason = PERMISSION_PREFIX + text
        result.answer = {"behavior": "deny", "message": text}
        if merged.get("interrupt") is True:
            result.stop = True
            result.answer["interrupt"] = True
    elif behavior == "allow":
        result.decision = "allow"
        result.answer = {"behavior": "allow"}


def _prompt(merged: Mapping[str, Any], result: Outcome) -> None:
    if merged.get("decision") == "block" and isinstance(merged.get("reason"), str):
        result.blocked, result.decision, result.stop = True, "deny", True
        result.reason = merged["reason"]
        result.answer.update(decision="block", reason=merged["reason"])
        return
    response = merged.get("responseContent")
    if merged.get("handled") is True and isinstance(response, str) and response:
        result.stop = True
        result.reason = response
        result.answer.update(handled=True, responseContent=response)
        return
    if isinstance(merged.get("modifiedPrompt"), str):
        result.updated_input, result.has_updated_input = merged["modifiedPrompt"], True
        result.answer["modifiedPrompt"] = merged["modifiedPrompt"]
    context = merged.get("additionalContext")
    if isinstance(context, str) and context:
        result.contexts = [context]  # the last one wins
        result.answer["additionalContext"] = context


def _stop(event: str, merged: Mapping[str, Any], result: Outcome) -> None:
    if event == "subagentStop" and isinstance(merged.get("modifiedResponse"), str):
        result.updated_input, result.has_updated_input = merged["modifiedResponse"], True
        result.answer["modifiedResponse"] = merged["modifiedResponse"]
    if merged.get("decision") == "block" and isinstance(merged.get("reason"), str):
        result.blocked, result.decision = True, "deny"
        result.reason = merged["reason"]
        result.answer.update(decision="block", reason=merged["reason"])


def chain_ends(event_key: str, report: HookReport) -> bool:
    """Whether Copilot runs no later hook after this one (``preToolUse``: a deny or a
    failure; ``permissionRequest``: a failure; ``postToolUse``: a ``block``)."""
    event = AGENT_EVENT[event_key]
    native = report.verdict.native
    if report.verdict.blocks and not native:
        return True  # hookd could not run it (or may not): its block ends the chain too
    if native.get("skip"):
        return False
    if native.get("failed"):
        return event in ("preToolUse", "permissionRequest") or (
            bool(native.get("policy")) and event in POLICY_FAILS_CLOSED)  # fmt: skip
    output = native.get("output") or {}
    if event == "preToolUse":
        return native.get("code") == 2 or output.get("permissionDecision") == "deny"
    if event == "postToolUse":
        return output.get("decision") == "block" and isinstance(output.get("reason"), str)
    return False


PASCAL_KEYS = frozenset(PASCAL)
