"""How Cline reads one hook's stdout: the JSON, its validation, and the context cap.

``cline-hooks.md`` §Output: ``{cancel, contextModification, errorMessage}``, cancel false or
omitted allows, true blocks; §Hook Execution Limits: context limited (50,000 characters in
the code). ``cline-implementation.md`` §2B: ``JSON.parse`` of the whole stdout, else a
brace scan from the end; ``shouldContinue`` or a wrong type makes the output ignored;
unknown keys ignored; missing fields default; a context over 50,000 characters is cut and
``\\n\\n[... context truncated due to size limit ...]`` appended.
"""

from __future__ import annotations

import json

import pytest

from conformance.cline._cline import (
    DOC,
    GLOBAL,
    HOOKS,
    NOTES,
    NOTHING,
    SH,
    Case,
    Has,
    Places,
    answer,
    params,
    prints,
    run,
)

S2B = f"{NOTES} §2B"
MARKER = "\n\n[... context truncated due to size limit ...]"
BLOCKED = {"blocked": True, "reason": "stop", "native": {"cancel": True, "errorMessage": "stop"}}
STOP = '{"cancel": true, "errorMessage": "stop"}'


def hook(body: str) -> tuple[tuple[str, str], ...]:
    return ((f"{HOOKS}/PreToolUse", body),)


def stdout(text: str) -> tuple[tuple[str, str], ...]:
    return hook(prints(text))


def ignored(why: str) -> dict:
    """The hook ran cleanly but its output counts as no JSON: allowed, and hookd says why."""
    return {**NOTHING, "hooks": [{"exitCode": 0, "blocked": False, "error": Has(why)}]}


PARSE_CASES = [
    Case(
        id="whole-stdout-json",
        rule=f"{DOC} §Output: the hook prints the JSON object; cancel true blocks and the "
        "errorMessage is shown.",
        files=stdout(STOP + "\n"),
        expect=BLOCKED,
    ),
    Case(
        id="pretty-printed-json",
        rule=f"{S2B}: JSON.parse of the whole stdout accepts any layout (the doc's examples "
        "use a heredoc over several lines).",
        files=stdout(json.dumps({"cancel": True, "errorMessage": "stop"}, indent=2)),
        expect=BLOCKED,
    ),
    Case(
        id="debug-lines-before-json",
        rule=f"{S2B}: failing that, the brace scan from the end finds the JSON after debug lines.",
        files=stdout("checking the path...\nall good?\n" + STOP + "\n"),
        expect=BLOCKED,
    ),
    Case(
        id="debug-text-same-line-before-json",
        rule=f"{S2B}: text before the first {{ on the JSON's line is cut away.",
        files=stdout("result: " + STOP + "\n"),
        expect=BLOCKED,
    ),
    Case(
        id="lines-after-json",
        rule=f"{S2B}: the scan starts at the last line holding a }}; lines after it are tolerated.",
        files=stdout(STOP + "\ndone.\nbye\n"),
        expect=BLOCKED,
    ),
    Case(
        id="text-after-brace-same-line",
        rule=f"{S2B}: text after the closing }} on the same line makes the parse fail: no "
        "JSON, so cancel false.",
        files=stdout(STOP + " done\n"),
        expect=NOTHING,
        hooks=({"exitCode": 0, "error": None},),
    ),
    Case(
        id="last-of-several-objects",
        rule=f"{S2B}: with several JSON objects on separate lines, the last one wins.",
        files=stdout(STOP + '\n{"cancel": false, "contextModification": "second"}\n'),
        expect={"blocked": False, "context": "second"},
    ),
    Case(
        id="two-objects-one-line",
        rule=f"{S2B}: two objects on one line are one block to the scan, which JSON.parse "
        "refuses: cancel false.",
        files=stdout('{"cancel": false} ' + STOP + "\n"),
        expect=NOTHING,
    ),
    Case(
        id="brace-in-string-whole-stdout",
        rule=f"{S2B}: a }} inside a string is fine when the whole stdout is the JSON.",
        files=stdout('{"cancel": true, "errorMessage": "use } here"}\n'),
        expect={"blocked": True, "reason": "use } here"},
    ),
    Case(
        id="brace-in-string-after-debug",
        rule=f"{S2B}: the scan counts braces naively, so after debug output a }} inside a "
        "string keeps the count from reaching 0; the scan then collects up to the top, "
        "cuts everything before the first {{ and parses that: blocked.",
        files=stdout('debug\n{"cancel": true, "errorMessage": "use } here"}\n'),
        expect={"blocked": True, "reason": "use } here"},
    ),
    Case(
        id="unbalanced-scan-fails-on-earlier-brace",
        rule=f"{S2B}: a scan that never reaches 0 collects to the top, so an unmatched {{ "
        "on a debug line above becomes the start of the text parsed, which fails: cancel "
        "false.",
        files=stdout('debug {\n{"cancel": true, "errorMessage": "use } here"}\n'),
        expect=NOTHING,
    ),
    Case(
        id="open-brace-below-json-counts",
        rule=f"{S2B}: the scan counts every brace from the bottom, also a {{ on a line "
        "below the JSON; the count then never returns to 0, the scan collects up to an "
        "earlier {{ and the parse fails: cancel false.",
        files=stdout("debug {\n" + STOP + "\n{\n"),
        expect=NOTHING,
    ),
    Case(
        id="line-separator-inside-string",
        rule=f"{S2B}: the scan splits lines on \\n only; a U+2028 inside a string after a "
        "debug line is part of the JSON.",
        files=stdout('debug\n{"cancel": true, "errorMessage": "a\u2028b"}\n'),
        expect={"blocked": True, "reason": "a\u2028b"},
    ),
    Case(
        id="next-line-inside-string",
        rule=f"{S2B}: U+0085 is no line break for Cline's split either.",
        files=stdout('debug\n{"cancel": true, "errorMessage": "a\u0085b"}\n'),
        expect={"blocked": True, "reason": "a\u0085b"},
    ),
    Case(
        id="trailing-js-whitespace-trimmed",
        rule=f"{S2B}: the scan right-trims each line as JavaScript's trimEnd does, so a "
        "no-break space after the closing }} does not spoil the parse.",
        files=stdout('debug\n{"cancel": true, "errorMessage": "stop"}\u00a0\n'),
        expect=BLOCKED,
    ),
    Case(
        id="crlf-line-endings",
        rule=f"{S2B}: CRLF output (a hook written on Windows) parses the same.",
        files=stdout("debug\r\n" + STOP + "\r\n"),
        expect=BLOCKED,
    ),
    Case(
        id="empty-stdout",
        rule=f"{S2B} decision table: exit 0 with empty stdout is {{cancel: false}}.",
        files=hook(SH + "cat >/dev/null\n"),
        expect=NOTHING,
        hooks=({"exitCode": 0, "error": None},),
    ),
    Case(
        id="not-json",
        rule=f"{S2B}, {NOTES} §8.1 #7: exit 0 with text that is no JSON is {{cancel: false}}.",
        files=stdout("I am not JSON\n"),
        expect=NOTHING,
        hooks=({"exitCode": 0, "error": None},),
    ),
    Case(
        id="empty-object",
        rule=f"{DOC} §Output: cancel false or omitted allows; {S2B}: {{}} gives the defaults.",
        files=stdout("{}\n"),
        expect=NOTHING,
    ),
    Case(
        id="json-array",
        rule=f"{S2B}: an array is accepted and gives the defaults (an object inside it is "
        "not read).",
        files=stdout('[{"cancel": true}]\n'),
        expect=NOTHING,
    ),
    Case(
        id="json-array-multiline-no-scan",
        rule=f"{S2B}: whole stdout that parses as an array gives the defaults, with no "
        "brace scan, so an object on a line of its own inside it is not read either.",
        files=stdout('[\n{"cancel": true}\n]\n'),
        expect=NOTHING,
    ),
    Case(
        id="json-array-on-exit-1",
        rule=f"{S2B}: an array is valid JSON but no answer; with exit 1 the hook failed, as "
        "in cline 2.18.0 (hookd's default cline_failure_policy).",
        files=hook(prints("[1]\n", exit_code=1)),
        expect=NOTHING,
        hooks=({"exitCode": 1, "error": Has("exited with code 1")},),
    ),
    Case(
        id="nan-is-not-json",
        rule=f"{S2B}: JSON.parse rejects NaN (and Infinity), so the output is no JSON: "
        "cancel false.",
        files=stdout('{"cancel": true, "n": NaN}\n'),
        expect=NOTHING,
        hooks=({"exitCode": 0, "error": None},),
    ),
    Case(
        id="infinity-after-debug-is-not-json",
        rule=f"{S2B}: the brace scan's JSON.parse rejects -Infinity too.",
        files=stdout('debug\n{"cancel": true, "n": -Infinity}\n'),
        expect=NOTHING,
    ),
    Case(
        id="json-on-stderr-not-read",
        rule=f"{NOTES} §2A/§2B: stderr is only for logs and error details, never parsed.",
        files=hook(SH + f"cat >/dev/null\necho '{STOP}' >&2\n"),
        expect=NOTHING,
    ),
    Case(
        id="invalid-utf8-before-json",
        rule=f"{S2B}: stdout is read as UTF-8 text; a bad byte in a debug line does not hide "
        "the JSON.",
        files=hook(SH + f"cat >/dev/null\nprintf 'caf\\351\\n'\necho '{STOP}'\n"),
        expect=BLOCKED,
    ),
    Case(
        id="context-without-cancel",
        rule=f"{DOC} §Output: contextModification is optional context for future decisions; "
        "cancel omitted allows.",
        files=stdout('{"contextModification": "TOOL_RESULT: ok"}\n'),
        expect={
            "blocked": False,
            "context": "TOOL_RESULT: ok",
            "native": {"cancel": False, "contextModification": "TOOL_RESULT: ok"},
        },
    ),
    Case(
        id="error-message-without-cancel",
        rule=f"{NOTES} §8.4 #16: an errorMessage without cancel is passed through; nothing "
        "is blocked.",
        files=stdout('{"cancel": false, "errorMessage": "some error happened"}\n'),
        expect={
            "blocked": False,
            "reason": "some error happened",
            "native": {"cancel": False, "errorMessage": "some error happened"},
        },
    ),
    Case(
        id="cancel-with-empty-error",
        rule=f'{NOTES} §8.4 #13: cancel true with errorMessage "" blocks with no message.',
        files=stdout('{"cancel": true, "errorMessage": ""}\n'),
        expect={"blocked": True, "reason": None, "native": {"cancel": True, "errorMessage": ""}},
    ),
    Case(
        id="unknown-keys-ignored",
        rule=f"{S2B}: unknown keys are ignored (Claude's decision/reason mean nothing here).",
        files=stdout('{"cancel": true, "decision": "approve", "reason": "r", "extra": 1}\n'),
        expect={"blocked": True, "reason": None},
    ),
    Case(
        id="cannot-modify-parameters",
        rule=f"{DOC} §Context Injection Timing: the hook cannot modify the tool's parameters; "
        "an overrideInput (the SDK's) or updatedInput (Claude's) is ignored.",
        files=stdout('{"overrideInput": {"path": "b.ts"}, "updatedInput": {"path": "c.ts"}}\n'),
        expect={**NOTHING, "updatedInput": None, "updatedInputFrom": None},
    ),
    Case(
        id="claude-style-block-ignored",
        rule=f'{S2B}: a Claude-style {{"decision": "block"}} has no cancel: allowed.',
        files=stdout('{"decision": "block", "reason": "no"}\n'),
        expect=NOTHING,
    ),
]

VALIDATION_CASES = [
    Case(
        id="should-continue-false",
        rule=f"{S2B}/{NOTES} §9.6: shouldContinue was removed; its presence makes the output "
        'ignored, so {{"shouldContinue": false}} does not block. hookd says why.',
        files=stdout('{"shouldContinue": false, "errorMessage": "stop"}\n'),
        expect=ignored("shouldContinue"),
    ),
    Case(
        id="should-continue-with-cancel",
        rule=f"{S2B}: shouldContinue of any value voids the whole output, cancel true too.",
        files=stdout('{"shouldContinue": true, "cancel": true, "errorMessage": "stop"}\n'),
        expect=ignored("shouldContinue"),
    ),
    Case(
        id="cancel-string",
        rule=f'{S2B}: cancel present but not a boolean ("true") voids the output.',
        files=stdout('{"cancel": "true", "contextModification": "lost"}\n'),
        expect=ignored('"cancel" must be true or false'),
    ),
    Case(
        id="cancel-null",
        rule=f"{S2B}: cancel null is not a boolean either.",
        files=stdout('{"cancel": null}\n'),
        expect=ignored('"cancel" must be true or false'),
    ),
    Case(
        id="cancel-number",
        rule=f"{S2B}: cancel 1 is not a boolean.",
        files=stdout('{"cancel": 1, "errorMessage": "stop"}\n'),
        expect=ignored('"cancel" must be true or false'),
    ),
    Case(
        id="context-not-a-string",
        rule=f"{S2B}: contextModification that is not a string voids the whole output, its "
        "cancel too.",
        files=stdout('{"cancel": true, "contextModification": {"rules": []}}\n'),
        expect=ignored('"contextModification" must be a string'),
    ),
    Case(
        id="error-message-not-a-string",
        rule=f"{S2B}: errorMessage that is not a string voids the whole output.",
        files=stdout('{"cancel": true, "errorMessage": ["a", "b"]}\n'),
        expect=ignored('"errorMessage" must be a string'),
    ),
    Case(
        id="context-null",
        rule=f"{S2B}: null is present and not a string.",
        files=stdout('{"cancel": true, "contextModification": null}\n'),
        expect=ignored('"contextModification" must be a string'),
    ),
]


@pytest.mark.parametrize("case", params(PARSE_CASES + VALIDATION_CASES))
async def test_output(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)


# --- the 50,000-character context cap ----------------------------------------------------


def context_hook(repeat: str, count: int, prefix: str = "") -> str:
    """Answer a contextModification of ``prefix`` + ``repeat`` times ``count`` (built by the shell,
    no interpreter start-up)."""
    return (
        SH + "cat >/dev/null\n"
        f'printf \'{{"contextModification": "{prefix}\'\n'
        f"yes '{repeat}' | head -n {count} | tr -d '\\n'\n"
        "printf '\"}\\n'\n"
    )


EMOJI = "\U0001f600"  # two UTF-16 code units
CAP_CASES = [
    Case(
        id="exactly-50000",
        rule=f"{S2B}: a context of exactly 50,000 characters is kept whole.",
        files=hook(context_hook("x", 50_000)),
        expect={"context": "x" * 50_000},
    ),
    Case(
        id="50001-truncated-with-marker",
        rule=f"{S2B}, {NOTES} §11: 50,001 characters are cut to 50,000 and the marker "
        "`\\n\\n[... context truncated due to size limit ...]` appended.",
        files=hook(context_hook("x", 50_001)),
        expect={
            "context": "x" * 50_000 + MARKER,
            "native": {"contextModification": "x" * 50_000 + MARKER},
        },
    ),
    Case(
        id="characters-not-bytes",
        rule=f"{DOC} §Hook Execution Limits says 50KB; the code counts string length. 50,000 "
        "two-byte characters (100,000 UTF-8 bytes) are kept whole.",
        files=hook(context_hook("é", 50_000)),
        expect={"context": "é" * 50_000},
    ),
    Case(
        id="astral-characters-count-twice",
        rule=f"{S2B}: the length is JavaScript's, in UTF-16 code units: 25,000 emoji are "
        "50,000 units (kept), 25,001 are cut after 25,000.",
        files=hook(context_hook(EMOJI, 25_001)),
        expect={"context": EMOJI * 25_000 + MARKER},
    ),
    Case(
        id="astral-at-the-cut-not-split",
        rule=f"{S2B}: cutting 'x' + 25,000 emoji at 50,000 units would split the last emoji; "
        "hookd keeps 49,999 units instead of half a character (see Deliberate differences).",
        files=hook(context_hook(EMOJI, 25_000, prefix="x")),
        expect={"context": "x" + EMOJI * 24_999 + MARKER},
    ),
    Case(
        id="error-message-not-capped",
        rule=f"{S2B}: only contextModification is capped; a 60,000-character errorMessage is "
        "passed whole.",
        files=hook(
            SH + 'cat >/dev/null\nprintf \'{"cancel": true, "errorMessage": "\'\n'
            "yes e | head -n 60000 | tr -d '\\n'\nprintf '\"}\\n'\n"
        ),
        expect={"blocked": True, "reason": "e" * 60_000},
    ),
    Case(
        id="cap-is-per-hook",
        rule=f"{S2B}/§5: each hook's context is capped on its own, then joined: two contexts "
        "of 30,000 characters give 60,002 characters, none truncated.",
        files=(
            (f"{HOOKS}/PreToolUse", context_hook("a", 30_000)),
            (f"{GLOBAL}/PreToolUse", context_hook("b", 30_000)),
        ),
        expect={"context": "b" * 30_000 + "\n\n" + "a" * 30_000},
    ),
    Case(
        id="capped-then-joined",
        rule=f"{S2B}/§5: an over-long context is cut (with its marker) before the join.",
        files=(
            (f"{HOOKS}/PreToolUse", context_hook("a", 50_010)),
            (f"{GLOBAL}/PreToolUse", answer({"contextModification": "g"})),
        ),
        expect={"context": "g\n\n" + "a" * 50_000 + MARKER},
    ),
]


@pytest.mark.parametrize("case", params(CAP_CASES))
async def test_context_cap(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)
