"""What a finished hook means to Qwen Code (0.24.4), and how several answers combine
(``qwen-research.md`` §5, §6; each rule pinned by ``tests/agents/qwen``).

One hook (§5.1). Exit code 2: only stderr is read; empty, it is no answer (nothing
blocks); JSON, it is the answer (so exit 2 may allow); other text is a ``deny`` with the
text as its reason. Any other code: the text is stdout, trimmed, else stderr; a JSON object
(or a JSON string holding one) is the answer whatever the code; text that starts with
``{`` and does not parse is a failed hook with no answer; other text (arrays and numbers
too) becomes an answer by the exit code: 0 a ``systemMessage`` (on SessionStart,
UserPromptSubmit and UserPromptExpansion stdout is context instead, as in Claude Code),
any other code a ``systemMessage`` of ``Warning: <text>``. So plain text never blocks
unless the code is 2. A hook that exited other than 0 has failed but its answer counts;
one that timed out or could not start has none (it fails open).

Several (§6), merged in the order the hooks are configured: by OR on the tool, prompt,
Stop, SubagentStop and todo events (any block or deny blocks, every reason and context
joined with a newline, any ``continue: false`` stops with the last ``stopReason``, the
other ``hookSpecificOutput`` keys and ``systemMessage`` from the later hook); on
PermissionRequest a deny beats an allow; a shallow merge, the later hook winning, with
contexts joined, on the rest.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ...jstext import JS_WHITESPACE, parse_json
from ...model import ProcessOutcome, Verdict
from .events import BLOCK_EVENTS, CONTINUE_EVENTS, OR_EVENTS, PLAIN_STDOUT_IS_CONTEXT

BLOCKING = ("block", "deny")
NO_REASON = "No reason provided"
_CONTROL = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|[\x00-\x08\x0b-\x1f\x7f]"
)
"""What Qwen strips from each line of plain context: ANSI sequences, control characters."""


def interpret(event: str, outcome: ProcessOutcome, timeout_s: float) -> Verdict:
    """One hook's answer as Qwen reads it; the raw answer (``output``) is kept in
    ``Verdict.native`` for the merge, which the dialect's ``refine`` does."""
    if outcome.timed_out:
        return Verdict(error=f"Hook timed out after {_seconds(timeout_s)}")
    if outcome.spawn_error:
        return Verdict(error=f"could not start: {outcome.spawn_error}")
    code = outcome.exit_code
    failed = f"hook exited with code {code}" if code != 0 else None
    if code is None:
        return Verdict(error="hook was killed by a signal")
    output = read_answer(event, code, outcome.stdout_text, outcome.stderr_text)
    if output is None:
        bad = code != 2 and _text_of(outcome).startswith("{")
        return Verdict(error="its output is not valid JSON" if bad and not failed else failed)
    return verdict_of(event, output, failed)


def _seconds(timeout_s: float) -> str:
    whole = int(timeout_s)
    return f"{whole}s" if whole == timeout_s else f"{round(timeout_s * 1000)}ms"


def _text_of(outcome: ProcessOutcome) -> str:
    return outcome.stdout_text.strip(JS_WHITESPACE) or outcome.stderr_text.strip(JS_WHITESPACE)


def read_answer(event: str, code: int, stdout: str, stderr: str) -> dict[str, Any] | None:
    """The hook's answer (``HookRunner`` and ``convertPlainTextToHookOutput``); None: none."""
    if code == 2:
        text = stderr.strip(JS_WHITESPACE)
        if not text:
            return None
        parsed = _json(text)
        if isinstance(parsed, dict):
            return parsed
        return {"decision": "deny", "reason": text}
    text = stdout.strip(JS_WHITESPACE) or stderr.strip(JS_WHITESPACE)
    if not text:
        return None
    parsed = _json(text)
    if isinstance(parsed, dict):
        return parsed
    if parsed is _INVALID and text.startswith("{"):
        return None
    if code == 0:
        if event in PLAIN_STDOUT_IS_CONTEXT and stdout.strip(JS_WHITESPACE):
            context = "\n".join(_CONTROL.sub("", line) for line in text.split("\n"))
            return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": context}}
        return {"decision": "allow", "systemMessage": text}
    return {"decision": "allow", "systemMessage": f"Warning: {text}"}


_INVALID = object()


def _json(text: str) -> Any:
    try:
        parsed = parse_json(text)
        if isinstance(parsed, str):
            parsed = parse_json(parsed)
    except ValueError:
        return _INVALID
    return parsed


def verdict_of(event: str, output: Mapping[str, Any], error: str | None = None) -> Verdict:
    """One answer as the hook's entry in the result tells it, a block only where the event
    reads one (what the agent does with the answers together is ``dialect.refine``'s)."""
    decision = output.get("decision")
    blocks = decision in BLOCKING and event in BLOCK_EVENTS
    stops = output.get("continue") is False and event in CONTINUE_EVENTS
    specific = _specific(output)
    context = specific.get("additionalContext")
    return Verdict(
        blocks=blocks,
        decision="deny" if blocks else ("ask" if decision == "ask" else "allow"),
        reason=nonempty(output.get("reason")),
        context=context if isinstance(context, str) else None,
        continue_=not stops,
        stop_reason=effective_reason(output) if stops else None,
        system_message=nonempty(output.get("systemMessage")),
        error=error,
        native={"output": dict(output)},
    )


def effective_reason(output: Mapping[str, Any]) -> str:
    """``stopReason || reason || "No reason provided"`` (``getEffectiveReason``)."""
    return nonempty(output.get("stopReason")) or nonempty(output.get("reason")) or NO_REASON


def nonempty(value: Any) -> str | None:
    """A field's text when it is a non-empty string (what Qwen's ``||`` keeps)."""
    return value if isinstance(value, str) and value else None


def specific_of(output: Mapping[str, Any]) -> Mapping[str, Any]:
    """The answer's ``hookSpecificOutput`` (none that is not an object)."""
    return _specific(output)


def _specific(output: Mapping[str, Any]) -> Mapping[str, Any]:
    specific = output.get("hookSpecificOutput")
    return specific if isinstance(specific, Mapping) else {}


# Several answers -------------------------------------------------------------------------


def merge(event: str, outputs: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """Qwen's ``HookAggregator``: the answers in configured order as one (None: no hook
    answered)."""
    if not outputs:
        return None
    if event in OR_EVENTS:
        return _or_merge(outputs)
    if event == "PermissionRequest":
        return _permission_merge(outputs)
    merged: dict[str, Any] = {}
    contexts: list[str] = []
    for output in outputs:
        merged.update(output)
        context = _specific(output).get("additionalContext")
        if isinstance(context, str):
            contexts.append(context)
    if len(contexts) > 1:
        joined = "\n".join(contexts)
        merged["hookSpecificOutput"] = {**_specific(merged), "additionalContext": joined}
    return merged


def _or_merge(outputs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    reasons: list[str] = []
    contexts: list[str] = []
    specific: dict[str, Any] = {}
    blocking = allowing = asking = False
    for output in outputs:
        decision = output.get("decision")
        blocking = blocking or decision in BLOCKING
        allowing = allowing or decision in ("allow", "approve")
        asking = asking or decision == "ask"
        if nonempty(output.get("reason")):
            reasons.append(output["reason"])
        if output.get("continue") is False:
            merged["continue"] = False
            if nonempty(output.get("stopReason")):
                merged["stopReason"] = output["stopReason"]
        for key in ("systemMessage", "suppressOutput"):
            if key in output:
                merged[key] = output[key]
        for key, value in _specific(output).items():
            if key == "additionalContext":
                if isinstance(value, str):
                    contexts.append(value)
            else:
                specific[key] = value
    if blocking:
        merged["decision"] = "block"
    elif asking:
        merged["decision"] = "ask"
    elif allowing:
        merged["decision"] = "allow"
    if reasons:
        merged["reason"] = "\n".join(reasons)
    if contexts:
        specific["additionalContext"] = "\n".join(contexts)
    if specific:
        merged["hookSpecificOutput"] = specific
    return merged


def _permission_merge(outputs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """PermissionRequest: deny beats allow, messages joined, the last ``updatedInput``,
    ``interrupt`` OR-ed, ``updatedPermissions`` added up."""
    decision: dict[str, Any] = {}
    messages: list[str] = []
    permissions: list[Any] = []
    merged: dict[str, Any] = {}
    for output in outputs:
        for key in ("systemMessage", "suppressOutput", "continue", "stopReason"):
            if key in output:
                merged[key] = output[key]
        given = _specific(output).get("decision")
        if not isinstance(given, Mapping):
            continue
        behavior = given.get("behavior")
        if behavior == "deny" or (behavior == "allow" and decision.get("behavior") != "deny"):
            decision["behavior"] = behavior
        if nonempty(given.get("message")):
            messages.append(given["message"])
        if "updatedInput" in given:
            decision["updatedInput"] = given["updatedInput"]
        if given.get("interrupt") is True:
            decision["interrupt"] = True
        if isinstance(given.get("updatedPermissions"), list):
            permissions += given["updatedPermissions"]
    if messages:
        decision["message"] = "\n".join(messages)
    if permissions:
        decision["updatedPermissions"] = permissions
    if decision:
        merged["hookSpecificOutput"] = {"hookEventName": "PermissionRequest", "decision": decision}
    return merged
