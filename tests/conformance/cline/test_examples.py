"""The example hooks of ``cline-hooks.md`` (``examples/``), installed where it says and fired.

Each example is copied verbatim to the hook path the document gives, made executable
(``chmod +x``, as the document says), and fired with payloads that take each branch.
"""

from __future__ import annotations

import json

import pytest

from conformance.cline._cline import (
    DOC,
    EXAMPLES,
    GLOBAL,
    HOOKS,
    NOTES,
    NOTHING,
    Case,
    Fire,
    Places,
    params,
    post_tool,
    pre_tool,
    run,
)

RAN_CLEANLY = {"error": None, "exitCode": 0, "timedOut": False}
NEEDS = ("bash", "jq")


def example(name: str, at: str) -> tuple[str, str]:
    return (at, (EXAMPLES / name).read_text())


def logged(result: dict, places: Places) -> bool:
    """The logging example's file holds one line per fire: the stdin JSON, whole."""
    lines = (places.home / ".cline" / "hook-logs" / "tool-usage.jsonl").read_text().splitlines()
    entries = [json.loads(line) for line in lines]
    return len(entries) == 2 and all(
        e["hookName"] == "PreToolUse" and e["preToolUse"]["toolName"] == "read_file"
        for e in entries
    )


def make_log_folder(places: Places) -> None:
    (places.home / ".cline" / "hook-logs").mkdir(parents=True)


PACKAGE_RULE = "Global policy: Cannot modify package.json"
TS_RULE = "Project rule: Use .ts files only"
GLOBAL_AND_WORKSPACE = (
    example("global_no_package_json.sh", f"{GLOBAL}/PreToolUse"),
    example("workspace_ts_only.sh", f"{HOOKS}/PreToolUse"),
)

CASES = [
    Case(
        id="context-format-snippet",
        rule=f"{DOC} §Context Modification Format: the example prints a "
        "`WORKSPACE_RULES:` contextModification with cancel false. It has no shebang; "
        "Cline runs hooks through a shell (§How It Works), which runs it as a sh script.",
        files=(example("context_modification_format.sh", f"{HOOKS}/PreToolUse"),),
        expect={
            "blocked": False,
            "context": "WORKSPACE_RULES: This is a TypeScript project. All new files must use "
            ".ts or .tsx extensions.",
        },
        hooks=(RAN_CLEANLY,),
    ),
    Case(
        id="validation-blocks-js-file",
        rule=f"{DOC} §Common Use Cases 1: write_to_file of a .js path answers cancel true "
        "with an errorMessage and a contextModification; §Output: cancel true blocks and "
        "shows the error.",
        files=(example("validation_block_js.sh", f"{HOOKS}/PreToolUse"),),
        fires=(Fire(payload=pre_tool(path="src/app.js", content="x")),),
        expect={
            "blocked": True,
            "decision": "deny",
            "reason": "Cannot create .js files in TypeScript project",
            "context": "WORKSPACE_RULES: Use .ts/.tsx extensions only",
            "native": {
                "cancel": True,
                "errorMessage": "Cannot create .js files in TypeScript project",
                "contextModification": "WORKSPACE_RULES: Use .ts/.tsx extensions only",
            },
        },
        hooks=({**RAN_CLEANLY, "blocked": True},),
        needs=NEEDS,
    ),
    Case(
        id="validation-allows-ts-file",
        rule=f"{DOC} §Common Use Cases 1: any other write answers {{cancel: false}}.",
        files=(example("validation_block_js.sh", f"{HOOKS}/PreToolUse"),),
        fires=(Fire(payload=pre_tool(path="src/app.ts")),),
        expect=NOTHING,
        hooks=(RAN_CLEANLY,),
        needs=NEEDS,
    ),
    Case(
        id="validation-other-tool",
        rule=f"{DOC} §Common Use Cases 1: only write_to_file is checked (read_file of a .js "
        "path is allowed).",
        files=(example("validation_block_js.sh", f"{HOOKS}/PreToolUse"),),
        fires=(Fire(payload=pre_tool("read_file", path="src/app.js")),),
        expect=NOTHING,
        needs=NEEDS,
    ),
    Case(
        id="validation-no-path-parameter",
        rule=f'{DOC} §Common Use Cases 1: `.parameters.path // ""` - a tool without a path '
        "parameter is allowed.",
        files=(example("validation_block_js.sh", f"{HOOKS}/PreToolUse"),),
        fires=(Fire(payload=pre_tool("execute_command", command="npm test")),),
        expect=NOTHING,
        needs=NEEDS,
    ),
    Case(
        id="context-building-success",
        rule=f"{DOC} §Common Use Cases 2: a successful write_to_file is answered with a "
        "FILE_OPERATIONS context naming the path; §Context Injection Timing: it is for the "
        "next request, nothing is blocked.",
        files=(example("context_building.sh", f"{HOOKS}/PostToolUse"),),
        fires=(Fire("PostToolUse", post_tool(parameters={"path": "src/app.ts"})),),
        expect={
            "blocked": False,
            "context": "FILE_OPERATIONS: Created 'src/app.ts'. Maintain consistency with this "
            "file's patterns in future operations.",
        },
        hooks=(RAN_CLEANLY,),
        needs=NEEDS,
    ),
    Case(
        id="context-building-failed-tool",
        rule=f"{DOC} §Common Use Cases 2: success false gives {{cancel: false}} and no context.",
        files=(example("context_building.sh", f"{HOOKS}/PostToolUse"),),
        fires=(Fire("PostToolUse", post_tool(success=False)),),
        expect=NOTHING,
        needs=NEEDS,
    ),
    Case(
        id="context-building-success-omitted",
        rule=f"{DOC} §Common Use Cases 2 with {NOTES} §3A: Cline's proto3 JSON leaves out "
        "`success` when false; the example then reads `null`, not `true`: no context.",
        files=(example("context_building.sh", f"{HOOKS}/PostToolUse"),),
        fires=(Fire("PostToolUse", post_tool(success=None)),),
        expect=NOTHING,
        needs=NEEDS,
    ),
    Case(
        id="performance-slow-tool",
        rule=f"{DOC} §Common Use Cases 3: executionTimeMs over 5000 is answered with a "
        "PERFORMANCE context naming the tool and the time.",
        files=(example("performance_monitoring.sh", f"{HOOKS}/PostToolUse"),),
        fires=(Fire("PostToolUse", post_tool("execute_command", executionTimeMs=6000)),),
        expect={
            "blocked": False,
            "context": "PERFORMANCE: Tool 'execute_command' took 6000ms. Consider optimizing "
            "future similar operations.",
        },
        hooks=(RAN_CLEANLY,),
        needs=NEEDS,
    ),
    Case(
        id="performance-exactly-5000",
        rule=f"{DOC} §Common Use Cases 3: the test is `-gt 5000`, so 5000 ms says nothing.",
        files=(example("performance_monitoring.sh", f"{HOOKS}/PostToolUse"),),
        fires=(Fire("PostToolUse", post_tool(executionTimeMs=5000)),),
        expect=NOTHING,
        hooks=(RAN_CLEANLY,),
        needs=NEEDS,
    ),
    Case(
        id="performance-time-omitted",
        rule=f"{DOC} §Common Use Cases 3 with {NOTES} §3A: executionTimeMs 0 is left out of "
        "the JSON; the example reads `null`, which is not over 5000.",
        files=(example("performance_monitoring.sh", f"{HOOKS}/PostToolUse"),),
        fires=(Fire("PostToolUse", post_tool(executionTimeMs=None)),),
        expect=NOTHING,
        hooks=(RAN_CLEANLY,),
        needs=NEEDS,
    ),
    Case(
        id="logging-appends-stdin",
        rule=f"{DOC} §Common Use Cases 4: the hook appends its stdin to "
        "~/.cline/hook-logs/tool-usage.jsonl and allows; the stdin is one line of JSON "
        "(JSON.stringify), so each fire adds one parseable line.",
        files=(example("logging_telemetry.sh", f"{HOOKS}/PreToolUse"),),
        fires=(Fire(payload=pre_tool("read_file", path="a.ts")),) * 2,
        expect=NOTHING,
        hooks=(RAN_CLEANLY,),
        setup=make_log_folder,
        check=logged,
        needs=("bash",),
    ),
    Case(
        id="logging-without-log-folder",
        rule=f"{DOC} §Common Use Cases 4: without the log folder the append fails (bash "
        "says so on stderr), the script goes on and allows: exit 0, cancel false.",
        files=(example("logging_telemetry.sh", f"{HOOKS}/PreToolUse"),),
        expect=NOTHING,
        hooks=(RAN_CLEANLY,),
        needs=("bash",),
    ),
    Case(
        id="global-workspace-package-json",
        rule=f"{DOC} §Example: Global + Workspace Hooks: the global hook blocks writes to "
        "package.json; §Hook Execution: if ANY hook blocks, execution is blocked.",
        files=GLOBAL_AND_WORKSPACE,
        fires=(Fire(payload=pre_tool(path="package.json")),),
        expect={"blocked": True, "reason": PACKAGE_RULE, "context": None},
        hooks=(
            {**RAN_CLEANLY, "blocked": True, "layer": "global"},
            {**RAN_CLEANLY, "blocked": False, "layer": "workspace"},
        ),
        needs=NEEDS,
    ),
    Case(
        id="global-workspace-js-file",
        rule=f"{DOC} §Example: Global + Workspace Hooks: the workspace hook blocks .js "
        "writes while the global one allows them.",
        files=GLOBAL_AND_WORKSPACE,
        fires=(Fire(payload=pre_tool(path="src/index.js")),),
        expect={"blocked": True, "reason": TS_RULE},
        hooks=({"blocked": False}, {"blocked": True}),
        needs=NEEDS,
    ),
    Case(
        id="global-workspace-both-block",
        rule=f"{DOC} §Result Combination: errorMessages are joined with a single newline "
        "(global first: hookd joins in folder order, whatever finishes first).",
        files=GLOBAL_AND_WORKSPACE,
        fires=(Fire(payload=pre_tool(path="src/package.json.js")),),
        expect={
            "blocked": True,
            "reason": f"{PACKAGE_RULE}\n{TS_RULE}",
            "native": {"cancel": True, "errorMessage": f"{PACKAGE_RULE}\n{TS_RULE}"},
        },
        hooks=({"blocked": True}, {"blocked": True}),
        needs=NEEDS,
    ),
    Case(
        id="global-workspace-all-allow",
        rule=f"{DOC} §Example: Global + Workspace Hooks: all hooks must allow for the tool "
        "to proceed; here both do.",
        files=GLOBAL_AND_WORKSPACE,
        fires=(Fire(payload=pre_tool(path="src/index.ts")),),
        expect=NOTHING,
        hooks=(RAN_CLEANLY, RAN_CLEANLY),
        needs=NEEDS,
    ),
    Case(
        id="global-example-in-code-global-folder",
        rule=f"{DOC} §Global Hooks gives ~/Documents/Cline/Rules/Hooks/; {NOTES} §1A: "
        "Cline's code reads <Documents>/Cline/Hooks. The same example works in either.",
        files=(example("global_no_package_json.sh", f"{GLOBAL}/PreToolUse"),),
        fires=(Fire(payload=pre_tool(path="package.json")),),
        expect={"blocked": True, "reason": PACKAGE_RULE},
        hooks=({"source": f"{GLOBAL}/PreToolUse", "layer": "global"},),
        needs=NEEDS,
    ),
]


@pytest.mark.parametrize("case", params(CASES))
async def test_example_hook(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)
