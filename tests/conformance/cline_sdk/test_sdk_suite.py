"""The Cline SDK's own hook tests (``cline-implementation.md`` §8.12 to §8.14), for hookd.

Like the SDK's ``hook-file-hooks.test.ts``, hooks go in ``<ws>/.clinerules/hooks/``
written without chmod, and tool events use toolCallId ``call_1``, tool ``read_file``,
input ``{path: "README.md"}``, conversation ``conv_1``, iteration 1. Where the SDK test
asserts ``beforeTool``/``afterTool`` results (``{stop, reason}``, ``{appendContext}``),
the case asserts hookd's ``native`` answer, which uses the reference's own field names
(``cancel``, ``errorMessage``, ``context``). Cases that test SDK internals with no hookd
counterpart (the AgentExtension wrapper, runtime-hook layers, Windows launchers, the CLI's
printing) are rows marked "not applicable" in the Cline SDK section of ``docs/compatibility.md``.
"""

from __future__ import annotations

import json

import pytest

from conformance.cline_sdk._sdk import (
    NOTES,
    RULES_HOOKS,
    Case,
    Fire,
    Has,
    Places,
    control,
    params,
    prints,
    records,
    run,
)

S12 = f"{NOTES} §8.12"
S13 = f"{NOTES} §8.13"
S14 = f"{NOTES} §8.14"

TOOL = {
    "taskId": "conv_1",
    "agent_id": "agent_1",
    "parent_agent_id": None,
    "iteration": 1,
    "tool_call": {"id": "call_1", "name": "read_file", "input": {"path": "README.md"}},
}
RESULT = {
    "taskId": "conv_1",
    "agent_id": "agent_1",
    "parent_agent_id": None,
    "iteration": 1,
    "tool_result": {
        "id": "call_1",
        "name": "read_file",
        "input": {"path": "README.md"},
        "output": "ok",
        "durationMs": 37,
        "startedAt": "2026-01-01T00:00:00.000Z",
        "endedAt": "2026-01-01T00:00:00.037Z",
    },
}
PRE = Fire("PreToolUse", TOOL)
POST = Fire("PostToolUse", RESULT)


def js(value: object, prefix: str = "") -> str:
    """A node hook printing ``prefix`` + ``value`` as JSON (HOOK_CONTROL when prefixed)."""
    text = json.dumps(prefix + json.dumps(value))
    return f"require('fs').readFileSync(0);\nconsole.log({text});\n"


def js_records() -> str:
    """A node hook appending its stdin as one line to ``{log}``."""
    return (
        "const fs = require('fs');\n"
        "fs.appendFileSync('{log}', fs.readFileSync(0, 'utf8') + '\\n');\n"
    )


CONTROL = "HOOK_CONTROL\t"

CASES_8_12 = [
    Case(
        id="8.12-1-example-files-ignored",
        rule=f"{S12} #1 'ignores example hook files': PreToolUse.example is no hook, so "
        "nothing runs.",
        files=((f"{RULES_HOOKS}/PreToolUse.example", control({"cancel": True})),),
        fires=(PRE,),
        expect={"hooks": [], "blocked": False},
    ),
    Case(
        id="8.12-2-extensionless-via-bash",
        rule=f"{S12} #2 'executes extensionless legacy hook files via bash fallback': no "
        "extension, no shebang, no exec bit; its HOOK_CONTROL cancel stops the tool.",
        files=(
            (
                f"{RULES_HOOKS}/PreToolUse",
                f'echo \'{CONTROL}{{"cancel":true,"context":"legacy-ok"}}\'\n',
            ),
        ),
        fires=(PRE,),
        expect={"blocked": True, "native": {"cancel": True, "errorMessage": "legacy-ok"}},
    ),
    Case(
        id="8.12-4-shebang-honoured",
        rule=f"{S12} #4 'honors shebang interpreter when present': #!/usr/bin/env bash, "
        "cancel false with context → exactly {appendContext: 'shebang-ok'}.",
        files=(
            (
                f"{RULES_HOOKS}/PreToolUse",
                f'#!/usr/bin/env bash\necho \'{CONTROL}{{"cancel":false,"context":"shebang-ok"}}\'\n',
            ),
        ),
        fires=(PRE,),
        expect={"blocked": False, "native": {"context": "shebang-ok"}},
    ),
    Case(
        id="8.12-5-review-parsed",
        rule=f"{S12} #5 'parses review control from hook output': the SDK answers only "
        "{appendContext: 'needs-review'} (review dropped); hookd answers the context and "
        "passes review on (Deliberate differences).",
        files=(
            (
                f"{RULES_HOOKS}/PreToolUse.js",
                js({"review": True, "context": "needs-review"}, CONTROL),
            ),
        ),
        fires=(
            Fire(
                "PreToolUse",
                {
                    **TOOL,
                    "tool_call": {
                        "id": "call_1",
                        "name": "run_commands",
                        "input": {"commands": ["ls"]},
                    },
                },
            ),
        ),
        expect={
            "blocked": False,
            "context": "needs-review",
            "native": {"context": "needs-review", "review": True},
        },
        needs=("node",),
    ),
    Case(
        id="8.12-6-python-hook",
        rule=f"{S12} #6 'executes python hook files': PreToolUse.py prints HOOK_CONTROL "
        "{cancel: false, context: 'python-ok'}.",
        files=(
            (
                f"{RULES_HOOKS}/PreToolUse.py",
                "import sys\nsys.stdin.read()\n"
                'print(\'HOOK_CONTROL\\t{"cancel": false, "context": "python-ok"}\')\n',
            ),
        ),
        fires=(PRE,),
        expect={"native": {"context": "python-ok"}},
    ),
    Case(
        id="8.12-7-context-modification",
        rule=f"{S12} #7 'returns appendContext from legacy contextModification output'.",
        files=(
            (
                f"{RULES_HOOKS}/PreToolUse.js",
                js(
                    {
                        "cancel": False,
                        "contextModification": "WORKSPACE_NOTE: the codename is PREM-1188.",
                    }
                ),
            ),
        ),
        fires=(PRE,),
        expect={"native": {"context": "WORKSPACE_NOTE: the codename is PREM-1188."}},
        needs=("node",),
    ),
    Case(
        id="8.12-8-cancel-injects-no-context",
        rule=f"{S12} #8 'does not inject context when the hook cancels': exactly "
        "{stop: true, reason: 'blocked by policy'}.",
        files=(
            (
                f"{RULES_HOOKS}/PreToolUse.js",
                js({"cancel": True, "errorMessage": "blocked by policy"}),
            ),
        ),
        fires=(PRE,),
        expect={
            "blocked": True,
            "reason": "blocked by policy",
            "context": None,
            "native": {"cancel": True, "errorMessage": "blocked by policy"},
        },
        needs=("node",),
    ),
    Case(
        id="8.12-9-oversized-context-truncated",
        rule=f"{S12} #9 'truncates oversized hook context': 60 000 characters of "
        "contextModification come back starting with the text, marked truncated, under "
        "50 200 characters.",
        files=(
            (
                f"{RULES_HOOKS}/PreToolUse.js",
                "require('fs').readFileSync(0);\n"
                "console.log(JSON.stringify({ contextModification: 'x'.repeat(60000) }));\n",
            ),
        ),
        fires=(PRE,),
        check=lambda r, p: (
            r["context"].startswith("xxx")
            and "[hook context truncated" in r["context"]
            and len(r["context"]) < 50_200
            and r["native"]["context"] == r["context"]
        ),
        needs=("node",),
    ),
    Case(
        id="8.12-10-post-tool-use-context",
        rule=f"{S12} #10 'collects PostToolUse context and returns it from afterTool'.",
        files=(
            (
                f"{RULES_HOOKS}/PostToolUse.js",
                js({"context": "LINT_RESULTS: 3 errors in src/foo.ts"}),
            ),
        ),
        fires=(POST,),
        expect={"native": {"context": "LINT_RESULTS: 3 errors in src/foo.ts"}},
        needs=("node",),
    ),
    Case(
        id="8.12-11-post-tool-use-cancel",
        rule=f"{S12} #11 'honors PostToolUse cancel with the hook's error message as reason'.",
        files=(
            (
                f"{RULES_HOOKS}/PostToolUse.js",
                js({"cancel": True, "errorMessage": "post-hook says stop"}),
            ),
        ),
        fires=(POST,),
        expect={
            "blocked": True,
            "reason": "post-hook says stop",
            "native": {"cancel": True, "errorMessage": "post-hook says stop"},
        },
        needs=("node",),
    ),
    Case(
        id="8.12-12-error-message-over-context",
        rule=f"{S12} #12 'prefers errorMessage over context for a cancelling hook's reason'.",
        files=(
            (
                f"{RULES_HOOKS}/PreToolUse.sh",
                control(
                    {"cancel": True, "context": "some context", "errorMessage": "the actual error"}
                ),
            ),
        ),
        fires=(PRE,),
        expect={"blocked": True, "reason": "the actual error", "context": None},
    ),
    Case(
        id="8.12-13-blank-error-message-falls-back",
        rule=f"{S12} #13 'falls back to context for the reason when errorMessage is blank'.",
        files=(
            (
                f"{RULES_HOOKS}/PreToolUse.sh",
                control({"cancel": True, "context": "the real reason", "errorMessage": "   "}),
            ),
        ),
        fires=(PRE,),
        expect={
            "blocked": True,
            "reason": "the real reason",
            "native": {"cancel": True, "errorMessage": "the real reason"},
        },
    ),
    Case(
        id="8.12-14-other-context-not-the-reason",
        rule=f"{S12} #14 'keeps another hook's context out of a cancelling hook's reason': "
        "PostToolUse (bash) gives context, PostToolUse.js cancels → exactly {stop, reason}.",
        files=(
            (
                f"{RULES_HOOKS}/PostToolUse",
                prints('{"cancel":false,"contextModification":"unrelated lint context"}'),
            ),
            (
                f"{RULES_HOOKS}/PostToolUse.js",
                js({"cancel": True, "errorMessage": "post-hook says stop"}),
            ),
        ),
        fires=(POST,),
        expect={
            "blocked": True,
            "reason": "post-hook says stop",
            "native": {"cancel": True, "errorMessage": "post-hook says stop"},
        },
        needs=("node",),
    ),
    Case(
        id="8.12-18-powershell-hook",
        rule=f"{S12} #18 'executes PowerShell hook files' (win32 there; pwsh -File elsewhere, "
        f"{NOTES} §2C).",
        files=(
            (
                f"{RULES_HOOKS}/PreToolUse.ps1",
                'Write-Output \'HOOK_CONTROL\t{"cancel": false, "context": "powershell-ok"}\'\n',
            ),
        ),
        fires=(PRE,),
        expect={"native": {"context": "powershell-ok"}},
        needs=("pwsh",),
    ),
    Case(
        id="8.12-19-task-error-payload",
        rule=f"{S12} #19 'maps TaskError hook files to agent_error stop events': the hook "
        "reads hookName agent_error, error.message and taskId.",
        files=((f"{RULES_HOOKS}/TaskError.js", js_records()),),
        fires=(
            Fire(
                "TaskError",
                {
                    "taskId": "conv_1",
                    "iteration": 3,
                    "error": {
                        "name": "Error",
                        "message": "401 unauthorized",
                        "stack": "Error: 401 unauthorized",
                    },
                },
            ),
        ),
        stdin=(
            {
                "hookName": "agent_error",
                "taskId": "conv_1",
                "iteration": 3,
                "error": {"message": "401 unauthorized"},
            },
        ),
        needs=("node",),
    ),
    Case(
        id="8.12-20-tool-timing-payload",
        rule=f"{S12} #20 'writes audit tool timing and completed turn payloads' (the payload "
        "part; the audit log itself is not hookd's): tool_result has durationMs 37, "
        "startedAt, endedAt; postToolUse.executionTimeMs is 37; agent_end has turn.",
        files=(
            (f"{RULES_HOOKS}/PostToolUse.sh", records()),
            (f"{RULES_HOOKS}/TaskComplete.sh", records()),
        ),
        fires=(
            POST,
            Fire(
                "TaskComplete",
                {
                    "taskId": "conv_1",
                    "iteration": 1,
                    "turn": {"outputText": "done", "status": "completed"},
                },
            ),
        ),
        stdin=(
            {
                "hookName": "tool_result",
                "tool_result": {
                    "durationMs": 37,
                    "startedAt": "2026-01-01T00:00:00.000Z",
                    "endedAt": "2026-01-01T00:00:00.037Z",
                },
                "postToolUse": {"executionTimeMs": 37, "result": "ok", "success": True},
            },
            {"hookName": "agent_end", "turn": {"outputText": "done", "status": "completed"}},
        ),
    ),
    Case(
        id="8.12-22-start-and-prompt-once-each",
        rule=f"{S12} #22 'dispatches agent_start and prompt_submit exactly once when both are "
        "configured': one line each, hookNames agent_start and prompt_submit, the prompt as sent.",
        files=(
            (f"{RULES_HOOKS}/TaskStart.js", js_records()),
            (f"{RULES_HOOKS}/UserPromptSubmit.js", js_records()),
        ),
        fires=(
            Fire("TaskStart", {"taskId": "conv_1"}),
            Fire(
                "UserPromptSubmit",
                {
                    "taskId": "conv_1",
                    "userPromptSubmit": {"prompt": "real prompt", "attachments": []},
                },
            ),
        ),
        stdin=(
            {"hookName": "agent_start"},
            {"hookName": "prompt_submit", "userPromptSubmit": {"prompt": "real prompt"}},
        ),
        needs=("node",),
    ),
    Case(
        id="8.12-23-session-shutdown-payload",
        rule=f"{S12} #23 'returns hooks and dispatches abort shutdown when only "
        "SessionShutdown is configured': hookName session_shutdown with the reason.",
        files=((f"{RULES_HOOKS}/SessionShutdown.js", js_records()),),
        fires=(Fire("SessionShutdown", {"taskId": "conv_1", "reason": "user cancel"}),),
        stdin=({"hookName": "session_shutdown", "reason": "user cancel"},),
        needs=("node",),
    ),
]

BIG = {**TOOL, "tool_call": {**TOOL["tool_call"], "input": {"content": "y" * 65_536}}}

CASES_8_13 = [
    Case(
        id="8.13-1-exit-while-stdin-flushing",
        rule=f"{S13} 'does not lose close events from children that exit while stdin is "
        "flushing': 20 runs with a 64 KiB payload, the hook exits without reading: exit 0 each "
        "time, no hang, no error.",
        files=((f"{RULES_HOOKS}/PreToolUse.sh", "exit 0\n"),),
        fires=(Fire("PreToolUse", BIG),),
        repeat=20,
        hooks=({"exitCode": 0, "error": None, "timedOut": False},),
    ),
    Case(
        id="8.13-2-crlf-control-output",
        rule=f"{S13} 'parses CRLF-delimited hook control output'.",
        files=(
            (
                f"{RULES_HOOKS}/PreToolUse.sh",
                prints('diagnostic\r\nHOOK_CONTROL\t{"cancel":true}\r\n'),
            ),
        ),
        fires=(PRE,),
        expect={"blocked": True, "native": {"cancel": True}},
    ),
    Case(
        id="8.13-3-timeout-whole-lifecycle",
        rule=f"{S13} 'times out a child across its entire lifecycle': 64 KiB payload, a child "
        "that never exits, a 100 ms timeout → timedOut.",
        files=((f"{RULES_HOOKS}/PreToolUse.js", "setInterval(() => {}, 1000);\n"),),
        fires=(Fire("PreToolUse", BIG, {"timeoutMs": 100}),),
        hooks=({"timedOut": True, "error": Has("timed out")},),
        needs=("node",),
    ),
]

CASES_8_14 = [
    Case(
        id="8.14-2-start-then-prompt",
        rule=f"{S14} 'returns in-process hooks when dispatch is available': beforeRun then a "
        "user message give agent_start {taskId, workspaceRoots} then prompt_submit.",
        files=(
            (f"{RULES_HOOKS}/TaskStart.sh", records()),
            (f"{RULES_HOOKS}/UserPromptSubmit.sh", records()),
        ),
        fires=(
            Fire("TaskStart", {"taskId": "conversation-1"}),
            Fire(
                "UserPromptSubmit",
                {
                    "taskId": "conversation-1",
                    "userPromptSubmit": {"prompt": "hi", "attachments": []},
                },
            ),
        ),
        stdin=(
            {"hookName": "agent_start", "taskId": "conversation-1", "workspaceRoots": ["{ws}"]},
            {"hookName": "prompt_submit", "taskId": "conversation-1"},
        ),
    ),
    Case(
        id="8.14-3-tool-timing",
        rule=f"{S14} 'forwards runtime tool timing to tool_result hook payloads': durationMs "
        "42 with startedAt/endedAt, postToolUse.executionTimeMs 42.",
        files=((f"{RULES_HOOKS}/PostToolUse.sh", records()),),
        fires=(
            Fire(
                "PostToolUse",
                {
                    **RESULT,
                    "tool_result": {
                        **RESULT["tool_result"],
                        "durationMs": 42,
                        "endedAt": "2026-01-01T00:00:00.042Z",
                    },
                },
            ),
        ),
        stdin=(
            {
                "tool_result": {
                    "durationMs": 42,
                    "startedAt": "2026-01-01T00:00:00.000Z",
                    "endedAt": "2026-01-01T00:00:00.042Z",
                },
                "postToolUse": {"executionTimeMs": 42},
            },
        ),
    ),
]


@pytest.mark.parametrize("case", params(CASES_8_12 + CASES_8_13 + CASES_8_14))
async def test_sdk_case(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)


async def test_8_13_4_powershell_file_names(tmp_path) -> None:
    """cline-implementation.md §8.13 'recognizes PowerShell hook files':
    PreToolUse.ps1 is a PreToolUse hook and TaskError.ps1 a TaskError hook."""
    from hookd.daemon.dialects.cline_sdk import dialect as cline_sdk
    from hookd.daemon.model import Dialect, Source

    for name in ("PreToolUse.ps1", "TaskError.ps1"):
        (tmp_path / name).write_text("Write-Output '{}'\n")
    source = Source(Dialect.CLINE_SDK, "workspace", str(tmp_path), "hookdir", str(tmp_path))

    loaded = cline_sdk.load(source)

    assert {event: [s.source for s in specs] for event, specs in loaded.hooks.items()} == {
        "PreToolUse": [str(tmp_path / "PreToolUse.ps1")],
        "TaskError": [str(tmp_path / "TaskError.ps1")],
    }
