"""What a finished hook means to Gemini CLI (0.61.0), and how several answers combine
(``gemini-research.md`` §5, §6; each rule pinned by ``tests/agents/gemini``).

One hook (§5.1): the text read is stdout, trimmed, or stderr when stdout is empty,
whatever the exit code. Text that parses as a JSON object (or array, or a JSON string
holding one) is the hook's answer on any exit code; other text becomes one by the exit
code: 0 a ``systemMessage``, 1 a ``systemMessage`` of ``Warning: <text>``, any other code
(2, 3, 127 of a missing command...) a ``deny`` with the text as the reason. Nothing
printed: no answer, whatever the code. A hook exiting other than 0 has failed (Gemini
says so) but its answer still counts. A timed-out hook has no answer: it fails open.

Several (§6), merged in the order the hooks are configured, never in the order they
finish: by OR on the tool, agent and ``SessionStart`` events (any block blocks, ``ask``
only while nothing blocks, every reason, message, stop reason and context joined with a
newline, ``hookSpecificOutput`` key by key with the later hook winning); field by field,
the later hook winning, on the model events; by the most restrictive tool mode and the
union of the tool names on ``BeforeToolSelection``; later wins on the others.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...jstext import JS_WHITESPACE, parse_json
from ...jswrite import js_number
from ...model import ProcessOutcome, Verdict
from .events import CONTEXT_EVENTS, DECIDING_EVENTS, OR_EVENTS, REPLACE_EVENTS

BLOCKING = ("block", "deny")
NO_REASON = "No reason provided"


def interpret(event: str, outcome: ProcessOutcome, timeout_s: float) -> Verdict:
    """One hook's answer as Gemini reads it; its raw answer (``output``) is kept in
    ``Verdict.native`` for the merge, which the dialect's ``refine`` does."""
    if outcome.timed_out:
        return Verdict(error=f"Hook timed out after {js_number(round(timeout_s * 1000))}ms")
    if outcome.spawn_error:
        return Verdict(error=f"could not start: {outcome.spawn_error}")
    code = outcome.exit_code or 0  # killed by a signal: read as 0 (Gemini's `exitCode || 0`)
    text = outcome.stdout_text.strip(JS_WHITESPACE) or outcome.stderr_text.strip(JS_WHITESPACE)
    output = read_answer(text, code) if text else None
    failed = f"hook exited with code {outcome.exit_code}" if outcome.exit_code != 0 else None
    if output is None:
        return Verdict(error=failed)
    return verdict_of(event, output, failed)


def read_answer(text: str, code: int) -> dict[str, Any] | None:
    """The hook's answer: its JSON object, else its text by exit code (None: nothing)."""
    try:
        parsed = parse_json(text)
        if isinstance(parsed, str):
            parsed = parse_json(parsed)
    except ValueError:
        if code == 0:
            return {"decision": "allow", "systemMessage": text}
        if code == 1:
            return {"decision": "allow", "systemMessage": f"Warning: {text}"}
        return {"decision": "deny", "reason": text}
    if isinstance(parsed, dict):
        return parsed
    if isinstance(parsed, list):  # an object to JavaScript: its fields are its indices
        return {str(index): value for index, value in enumerate(parsed)}
    return None


def verdict_of(event: str, output: Mapping[str, Any], error: str | None = None) -> Verdict:
    """One answer in hookd's terms (what the hook's entry in the result says)."""
    decision = output.get("decision")
    deciding = event in DECIDING_EVENTS
    blocks = deciding and decision in BLOCKING
    stops = deciding and output.get("continue") is False
    specific = _specific(output)
    context = specific.get("additionalContext") if event in CONTEXT_EVENTS else None
    rewrite = specific.get("tool_input") if event == "BeforeTool" else None
    rewrites = isinstance(rewrite, dict)
    asks = decision == "ask" and event == "BeforeTool"
    return Verdict(
        blocks=blocks,
        decision="deny" if blocks else ("ask" if asks else "allow"),
        reason=_text(output.get("reason")),
        context=context if isinstance(context, str) else None,
        has_updated_input=rewrites,
        updated_input=rewrite if rewrites else None,
        continue_=not stops,
        stop_reason=effective_reason(output) if stops else None,
        system_message=_text(output.get("systemMessage")),
        error=error,
        native={"output": dict(output)},
    )


def effective_reason(output: Mapping[str, Any]) -> str:
    """``stopReason || reason || "No reason provided"`` (Gemini's ``getEffectiveReason``)."""
    return _text(output.get("stopReason")) or _text(output.get("reason")) or NO_REASON


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _specific(output: Mapping[str, Any]) -> Mapping[str, Any]:
    specific = output.get("hookSpecificOutput")
    return specific if isinstance(specific, Mapping) else {}


# Several answers -------------------------------------------------------------------------


def merge(event: str, outputs: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """Gemini's ``HookAggregator.mergeOutputs``: the answers in configured order as one
    (None: no hook answered)."""
    if not outputs:
        return None
    if event in OR_EVENTS:
        return _or_merge(outputs)
    if event in REPLACE_EVENTS:
        merged: dict[str, Any] = {}
        for output in outputs:
            specific = {**_specific(merged), **_specific(output)}
            merged = {**merged, **output, "hookSpecificOutput": specific}
        return merged
    if event == "BeforeToolSelection":
        return _tool_selection(outputs)
    simple: dict[str, Any] = {}
    for output in outputs:
        simple.update(output)
    return simple


def _or_merge(outputs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    merged: dict[str, Any] = {"continue": True, "suppressOutput": False}
    stops, reasons, messages, contexts = [], [], [], []
    blocking = asking = stopped = False
    for output in outputs:
        if output.get("continue") is False:
            stopped = True
            merged["continue"] = False
            if _truthy(output.get("stopReason")):
                stops.append(output["stopReason"])
        decision = output.get("decision")
        if decision in BLOCKING:
            blocking = True
            merged["decision"] = decision
        elif decision == "ask":
            asking = True
            if not blocking:
                merged["decision"] = decision
        if _truthy(output.get("reason")):
            reasons.append(output["reason"])
        if _truthy(output.get("systemMessage")):
            messages.append(output["systemMessage"])
        if _truthy(output.get("suppressOutput")):
            merged["suppressOutput"] = True
        specific = output.get("hookSpecificOutput")
        if _truthy(specific) and isinstance(specific, Mapping):
            rest = {k: v for k, v in specific.items() if k != "clearContext"}
            if specific.get("clearContext") is True:
                rest["clearContext"] = True
            merged["hookSpecificOutput"] = {**merged.get("hookSpecificOutput", {}), **rest}
            if isinstance(specific.get("additionalContext"), str):
                contexts.append(specific["additionalContext"])
    if not (blocking or asking or stopped):
        merged["decision"] = "allow"
    for key, values in (("stopReason", stops), ("reason", reasons), ("systemMessage", messages)):
        if values:
            merged[key] = "\n".join(_js_string(v) for v in values)
    if contexts:
        merged["hookSpecificOutput"] = {**merged.get("hookSpecificOutput", {}),
                                        "additionalContext": "\n".join(contexts)}  # fmt: skip
    return merged


def _tool_selection(outputs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    names: set[str] = set()
    modes = set()
    for output in outputs:
        config = _specific(output).get("toolConfig")
        if not _truthy(config) or not isinstance(config, Mapping):
            continue
        modes.add(config.get("mode"))
        allowed = config.get("allowedFunctionNames")
        if isinstance(allowed, list):
            names.update(str(name) for name in allowed)
    mode = "NONE" if "NONE" in modes else ("ANY" if "ANY" in modes else "AUTO")
    chosen = [] if mode == "NONE" else sorted(names, key=_utf16)
    config = {"mode": mode, "allowedFunctionNames": chosen}
    return {"hookSpecificOutput": {"hookEventName": "BeforeToolSelection", "toolConfig": config}}


def _utf16(text: str) -> bytes:
    """JavaScript's default sort order: by UTF-16 code units."""
    return text.encode("utf-16-be", "surrogatepass")


def _truthy(value: Any) -> bool:
    """JavaScript truthiness of a JSON value."""
    return value not in (None, False, 0, "") or isinstance(value, dict | list)


def _js_string(value: Any) -> str:
    """``String(value)`` as ``Array.join`` writes it (a reason may be any JSON value)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return js_number(value)
    if isinstance(value, list):
        return ",".join("" if v is None else _js_string(v) for v in value)
    return "[object Object]"
