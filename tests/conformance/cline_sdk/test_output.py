"""What a Cline SDK hook's stdout and exit mean, alone and combined with other hooks.

``cline-sdk-file-hooks.md`` §Output: a JSON object on stdout, ``{}`` meaning "do nothing";
fields ``cancel``, ``review``, ``context``, ``errorMessage``, ``overrideInput``.
``cline-implementation.md`` §2C (``parseStdout``: the last ``HOOK_CONTROL\\t`` line, else
the whole trimmed stdout; the exit code ignored), §4 (``parseHookControl``) and §5
(``mergeHookControls``). Only the tool events' output counts: lifecycle hooks run
detached and their output is never read.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from conformance.cline_sdk._sdk import (
    HOOKS,
    NOTES,
    SPEC,
    Case,
    Fire,
    Has,
    Places,
    control,
    params,
    prints,
    run,
    tool_result,
)

NOTHING = {"blocked": False, "reason": None, "context": None, "updatedInput": None, "native": {}}
MARKER = "\n[hook context truncated: exceeded 50000 characters]"
EMOJI = "\U0001f600"  # two UTF-16 code units


def native_is(expected: dict) -> Callable[[dict, Places], bool]:
    """A ``check`` that the result's native is exactly ``expected`` (``expect`` only
    checks a subset)."""
    return lambda result, _places: result["native"] == expected


def one(id: str, rule: str, body: str, expect: dict, error: object = None,
        event: str = "PreToolUse", check: Callable[[dict, Places], bool] | None = None,
        ) -> Case:  # fmt: skip
    """One hook answering with ``body``; ``error`` is what its report's error must be."""
    payload = tool_result() if event == "PostToolUse" else Fire().payload
    return Case(id=id, rule=rule, files=((f"{HOOKS}/{event}.sh", body),),
                fires=(Fire(event, payload),), expect=expect, hooks=({"error": error},),
                check=check)  # fmt: skip


def context_of(repeat: str, count: int, prefix: str = "") -> str:
    """Answer a context of ``prefix`` + ``repeat`` times ``count``, built by the shell."""
    return (f"cat >/dev/null\nprintf '{{\"context\": \"{prefix}'\n"
            f"yes '{repeat}' | head -n {count} | tr -d '\\n'\nprintf '\"}}\\n'\n")  # fmt: skip


FIELD_CASES = [
    one("empty-object", f"{SPEC} §Output: 'Empty {{}} means \"do nothing.\"'", control({}), NOTHING),
    one("empty-stdout", f"{NOTES} §2C: empty (trimmed) stdout is no control, not an error.",
        prints("  \n\n"), NOTHING),
    one("cancel-alone", f"{SPEC} §Output: cancel (boolean) 'Cancels the pending tool call'.",
        control({"cancel": True}),
        {"blocked": True, "decision": "deny", "reason": None, "native": {"cancel": True}}),
    one("cancel-false-with-context", f"{SPEC} §Output: context 'Injects context into agent's "
        "next turn'; cancel false cancels nothing.", control({"cancel": False, "context": "c"}),
        {"blocked": False, "context": "c", "native": {"context": "c"}}),
    one("cancel-error-message-is-reason", f"{SPEC} §Output: errorMessage 'Surfaces an error to "
        f"the agent'; {NOTES} §4: a cancelling hook injects no context, its reason is "
        "errorMessage.", control({"cancel": True, "errorMessage": "e", "context": "c"}),
        {"blocked": True, "reason": "e", "context": None,
         "native": {"cancel": True, "errorMessage": "e"}}),
    one("review-passed-on", f"{SPEC} §Output: review 'Pauses and prompts for user review'. "
        "hookd passes review: true on in native and does not pause itself (the SDK drops it: "
        "Deliberate differences).", control({"review": True}),
        {"blocked": False, "context": None, "native": {"review": True}}),
    one("context-on-post-tool-use", f"{SPEC} §Output: context applies to PostToolUse too.",
        control({"context": "lint: 3 errors"}),
        {"blocked": False, "context": "lint: 3 errors", "native": {"context": "lint: 3 errors"}},
        event="PostToolUse"),
    one("override-input", f"{SPEC} §Output: overrideInput (object) 'Replaces tool input before "
        "execution'.", control({"overrideInput": {"filePath": "/b.ts"}}),
        {"blocked": False, "updatedInput": {"filePath": "/b.ts"},
         "updatedInputFrom": f"{HOOKS}/PreToolUse.sh",
         "native": {"overrideInput": {"filePath": "/b.ts"}}}),
    one("override-input-any-json", f"{NOTES} §4: overrideInput is any JSON value (checked with "
        "hasOwn), not only an object.", control({"overrideInput": ["a", "b"]}),
        {"updatedInput": ["a", "b"], "native": {"overrideInput": ["a", "b"]}}),
    one("context-modification-alias", f"{NOTES} §4: contextModification is accepted as an alias "
        "of context.", control({"contextModification": "legacy"}),
        {"context": "legacy", "native": {"context": "legacy"}}),
    one("cancel-must-be-boolean", f"{NOTES} §4 (parseHookControl): cancel counts only as a "
        "boolean; \"true\" cancels nothing, the other fields still count.",
        control({"cancel": "true", "context": "kept"}),
        {"blocked": False, "context": "kept", "native": {"context": "kept"}}),
    one("should-continue-ignored", f"{NOTES} §4: shouldContinue is not an SDK field.",
        control({"shouldContinue": False}), NOTHING),
    one("claude-decision-fields-ignored", f"{NOTES} §4: only the SDK's fields count; a Claude "
        "style {decision: block, reason} blocks nothing here.",
        control({"decision": "block", "reason": "no"}), NOTHING),
    one("blank-context-injects-nothing", f"{NOTES} §5 (beforeToolResultFromControl): context "
        "is appended only when its trimmed text is non-empty.", control({"context": "  \n "}),
        NOTHING, check=native_is({})),
    one("review-and-override-pre-tool-use-only", f"{SPEC} §Output: review and overrideInput "
        "are PreToolUse fields; on PostToolUse they rewrite nothing and are not passed on "
        "(hookd says so), while context still counts.",
        control({"overrideInput": {"a": 1}, "review": True, "context": "c"}),
        {"context": "c", "updatedInput": None, "updatedInputFrom": None},
        Has("only count on PreToolUse"), event="PostToolUse", check=native_is({"context": "c"})),
    one("context-cap-counts-utf16-units", f"{NOTES} §4: the 50 000 cap is JavaScript's "
        "string length, in UTF-16 code units: 25 001 emoji (50 002 units) are cut after "
        "25 000.", context_of(EMOJI, 25_001), {"context": EMOJI * 25_000 + MARKER}),
    one("context-cap-keeps-surrogate-pairs", f"{NOTES} §4: cutting 'x' + 25 000 emoji at "
        "50 000 units would split the last emoji; hookd keeps 49 999 units instead of half "
        "a character.", context_of(EMOJI, 25_000, prefix="x"),
        {"context": "x" + EMOJI * 24_999 + MARKER}),
]  # fmt: skip

CONTROL_CASES = [
    one("control-line-after-debug-output", f"{NOTES} §2C: a line starting HOOK_CONTROL\\t "
        "carries the JSON; other output lines are ignored.",
        prints('checking...\nHOOK_CONTROL\t{"context": "c"}\ndone\n'), {"context": "c"}),
    one("control-line-indented", f"{NOTES} §2C: lines are trimmed before the HOOK_CONTROL\\t "
        "check.", prints('  HOOK_CONTROL\t{"cancel": true}\n'), {"blocked": True}),
    one("control-prefix-needs-a-tab", f"{NOTES} §2C: the prefix is HOOK_CONTROL plus a tab; "
        "with a space it is ordinary output, and the whole stdout is not JSON.",
        prints('HOOK_CONTROL {"cancel": true}\n'), NOTHING, Has("invalid JSON")),
    one("last-control-line-must-parse", f"{NOTES} §2C: only the last HOOK_CONTROL line is "
        "parsed; when it is not JSON the hook is skipped, even after a good one.",
        prints('HOOK_CONTROL\t{"cancel": true}\nHOOK_CONTROL\toops\n'), NOTHING,
        Has("invalid JSON")),
    one("pretty-printed-json", f"{NOTES} §2C: without HOOK_CONTROL lines the whole trimmed "
        "stdout is the JSON, so multi-line (jq-style) output works.",
        prints('\n{\n  "context": "pretty"\n}\n\n'), {"context": "pretty"}),
    one("debug-text-before-json", f"{NOTES} §2C: without HOOK_CONTROL, debug text before the "
        "JSON makes the whole stdout invalid: the hook is skipped (legacy Cline scanned for "
        "braces; the SDK does not).", prints('starting\n{"cancel": true}\n'), NOTHING,
        Has("invalid JSON")),
    one("crlf-control-line", f"{NOTES} §8.13 'parses CRLF-delimited hook control output'.",
        prints('diagnostic\r\nHOOK_CONTROL\t{"cancel":true}\r\n'), {"blocked": True}),
    one("bom-before-json-trimmed", f"{NOTES} §2C: stdout is trimmed by JavaScript's trim(), "
        "which strips a byte-order mark too, so the JSON after it counts.",
        prints('\ufeff{"cancel": true, "errorMessage": "no"}\n'),
        {"blocked": True, "reason": "no"}),
    one("bom-before-control-line-trimmed", f"{NOTES} §2C: each line is trimmed (JavaScript's "
        "trim()) before the HOOK_CONTROL\\t check, byte-order mark included.",
        prints('debug\n\ufeffHOOK_CONTROL\t{"cancel": true}\n'), {"blocked": True}),
]  # fmt: skip

BAD_OUTPUT_CASES = [
    one("not-json", f"{NOTES} §2C: output that is not JSON: the hook is skipped (logged) and "
        "has no effect; hookd reports it.", prints("not json at all\n"), NOTHING,
        Has("invalid JSON")),
    one("json-array", f"{NOTES} §4: a JSON value that is not an object controls nothing "
        "(hookd also says why).", prints("[1, 2]\n"), NOTHING, Has("must be a JSON object")),
    one("json-string", f"{NOTES} §4: a JSON string controls nothing.", prints('"cancel"\n'),
        NOTHING, Has("must be a JSON object")),
    one("json-null", f"{NOTES} §4: null controls nothing.", prints("null\n"), NOTHING,
        Has("must be a JSON object")),
    one("nan-is-invalid-json", f"{NOTES} §2C: JSON.parse rejects NaN, so the hook is "
        "skipped like any invalid JSON.", prints('{"cancel": true, "n": NaN}\n'), NOTHING,
        Has("invalid JSON")),
    one("infinity-in-control-line-is-invalid-json", f"{NOTES} §2C: a HOOK_CONTROL line with "
        "Infinity is invalid JSON too.", prints('HOOK_CONTROL\t{"cancel": true, "n": '
        'Infinity}\n'), NOTHING, Has("invalid JSON")),
    one("exit-1-empty", f"{NOTES} §2C: the exit code is ignored: exit 1 with no output is "
        "just no control.", prints("", exit_code=1), NOTHING),
    one("exit-3-with-context", f"{NOTES} §2C: a non-zero exit with valid JSON is honoured.",
        control({"context": "c"}, exit_code=3), {"context": "c", "native": {"context": "c"}}),
    one("killed-by-signal-after-answering", f"{NOTES} §2C: the result is read at close "
        "whatever ended the process; a hook killed by a signal after answering still cancels.",
        control({"cancel": True, "errorMessage": "late"}) + "kill -9 $$\n",
        {"blocked": True, "reason": "late"}),
]  # fmt: skip


@pytest.mark.parametrize("case", params(FIELD_CASES + CONTROL_CASES + BAD_OUTPUT_CASES))
async def test_single_hook_output(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)


def several(id: str, rule: str, bodies: dict[str, str], expect: dict,
            event: str = "PreToolUse", check: Callable[[dict, Places], bool] | None = None,
            ) -> Case:  # fmt: skip
    """Hooks named ``<event><suffix>``; bash-run suffixes sort "" < .bash < .sh < .zsh."""
    files = tuple((f"{HOOKS}/{event}{suffix}", body) for suffix, body in bodies.items())
    return Case(id=id, rule=rule, files=files, fires=(Fire(event),), expect=expect,
                check=check)  # fmt: skip


MERGE_CASES = [
    several("cancel-reasons-join-with-newline", f"{NOTES} §5: cancel is OR'ed; the cancel "
            "reasons join with \"\\n\" in path order.",
            {"": control({"cancel": True, "errorMessage": "first"}),
             ".sh": control({"cancel": True, "context": "second"})},
            {"blocked": True, "reason": "first\nsecond",
             "native": {"cancel": True, "errorMessage": "first\nsecond"}}),
    several("native-drops-context-when-another-cancels", f"{NOTES} §5 "
            "(beforeToolResultFromControl): a cancel drops the context of the whole merge; "
            "another hook's context is not the reason either.",
            {"": control({"context": "lint ok"}), ".sh": control({"cancel": True})},
            {"blocked": True, "reason": None, "native": {"cancel": True}}),
    several("result-context-empty-when-another-cancels", f"{NOTES} §5 "
            "(beforeToolResultFromControl): when the merge cancels, no context is injected, "
            "so the fire result's `context` is null too (CombinePolicy.context_when_blocked).",
            {"": control({"context": "lint ok"}), ".sh": control({"cancel": True})},
            {"blocked": True, "context": None}),
    several("review-ored", f"{NOTES} §5: review is OR'ed across hooks.",
            {"": control({"review": True}), ".sh": control({"context": "c"})},
            {"native": {"context": "c", "review": True}}),
    several("override-from-earlier-hook-kept", f"{NOTES} §5: overrideInput is the last hook "
            "that set one; a later hook without the field leaves it.",
            {"": control({"overrideInput": {"a": 1}}), ".sh": control({"context": "c"})},
            {"updatedInput": {"a": 1}, "updatedInputFrom": f"{HOOKS}/PreToolUse",
             "native": {"context": "c", "overrideInput": {"a": 1}}}),
    several("skipped-hook-does-not-count", f"{NOTES} §5: a hook with invalid output is "
            "skipped and the merge goes on with the others.",
            {"": control({"context": "one"}), ".bash": prints("oops"),
             ".sh": control({"context": "three"})},
            {"context": "one\nthree"}),
    several("blank-context-still-joins", f"{NOTES} §5: mergeHookControls drops only empty "
            "contexts (length 0), so a blank one joins the others with \"\\n\".",
            {"": control({"context": "one"}), ".sh": control({"context": "  "})},
            {"context": "one\n  ", "native": {"context": "one\n  "}}),
    several("blank-contexts-only-inject-nothing", f"{NOTES} §5 "
            "(beforeToolResultFromControl): blank contexts merge into blank text, which is "
            "not appended.", {"": control({"context": " "}), ".sh": control({"context": "\t"})},
            {"context": None}, check=native_is({})),
]  # fmt: skip


@pytest.mark.parametrize("case", params(MERGE_CASES))
async def test_merged_output(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)


LOUD = {"cancel": True, "errorMessage": "stop", "context": "c", "overrideInput": {"x": 1},
        "review": True}  # fmt: skip

LIFECYCLE_CASES = [
    Case(
        id=f"{event}-output-ignored",
        rule=f"{NOTES} §2C: {event} runs as a fire-and-forget (async) hook whose stdout is "
        f"ignored; {SPEC} §Output lists every field for PreToolUse/PostToolUse only. "
        "Nothing it prints cancels, adds context or rewrites, and unparsable output is no "
        "error.",
        files=((f"{HOOKS}/{event}", control(LOUD)), (f"{HOOKS}/{event}.sh", prints("not json"))),
        fires=(Fire(event, {"taskId": "conv-123"}),),
        expect=NOTHING,
        hooks=({"error": None, "blocked": False}, {"error": None}),
    )
    for event in ("TaskStart", "TaskResume", "UserPromptSubmit", "TaskComplete", "TaskError",
                  "TaskCancel", "SessionShutdown")
]  # fmt: skip


@pytest.mark.parametrize("case", params(LIFECYCLE_CASES))
async def test_lifecycle_output_ignored(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)
