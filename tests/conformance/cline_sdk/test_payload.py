"""The JSON a Cline SDK hook reads on stdin, per event, with the legacy blocks beside it.

``cline-sdk-file-hooks.md`` §Input shows the PreToolUse, PostToolUse and lifecycle events;
``cline-implementation.md`` §3B lists what the SDK really sends: the base fields
(``clineVersion`` from $CLINE_VERSION, ``hookName``, an ISO ``timestamp``, ``taskId``,
``workspaceRoots``, ``userId`` from $CLINE_USER_ID/$USER, no ``model``), the event's own
block, and the older camelCase block (``preToolUse``, ``postToolUse``, ``taskStart``...)
for hooks written against the legacy format. The agent's own fields come from the fire's
payload; hookd fills the rest.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from conformance.cline_sdk._sdk import (
    ANY,
    DOC_TOOL_CALL_EVENT,
    HOOKS,
    NOTES,
    SPEC,
    Case,
    Fire,
    Places,
    params,
    records,
    run,
    tool_call,
    tool_result,
)

ISO_MS = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


class Matches:
    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and self.pattern.fullmatch(other) is not None

    def __repr__(self) -> str:
        return f"Matches({self.pattern.pattern!r})"


def stdin_case(
    id: str,
    rule: str,
    event: str,
    payload: dict[str, Any],
    expect: dict[str, Any],
    absent: tuple[str, ...] = (),
    env: dict[str, str] | None = None,
) -> Case:
    """A hook for ``event`` records its stdin; ``expect`` must be in it, ``absent`` not."""
    return Case(
        id=id,
        rule=rule,
        files=((f"{HOOKS}/{event}.sh", records()),),
        fires=(Fire(event, payload, {"env": env} if env else {}),),
        hooks=({"error": None},),
        stdin=(expect,),
        check=lambda result, places: not set(absent) & set(places.lines()[0]),
    )


PRE_TOOL = {"toolName": "read_files", "parameters": {"filePath": "/path/to/file.ts"}}
TIMED = tool_result(
    "read_file",
    durationMs=42,
    startedAt="2026-01-01T00:00:00.000Z",
    endedAt="2026-01-01T00:00:00.042Z",
)

CASES = [
    stdin_case(
        "tool-call-documented-event",
        f"{SPEC} §Input 'PreToolUse event': hookName tool_call with the tool_call block; "
        f"{NOTES} §3B: plus preToolUse {{toolName, parameters}}. The agent's fields "
        "(clineVersion, userId, taskId...) pass through as sent.",
        "PreToolUse",
        DOC_TOOL_CALL_EVENT,
        {**DOC_TOOL_CALL_EVENT, "preToolUse": PRE_TOOL, "timestamp": "2026-01-15T10:30:00Z"},
        absent=("model",),
    ),
    stdin_case(
        "tool-call-parameters-stringified",
        f"{NOTES} §3B: preToolUse.parameters is the input with non-string values "
        "JSON-encoded (mapParams), compact as JSON.stringify writes them.",
        "PreToolUse",
        tool_call(
            "run_commands",
            command="ls",
            timeout=30,
            argv=["-l", "é"],
            opts={"a": True},
            nothing=None,
        ),
        {
            "preToolUse": {
                "toolName": "run_commands",
                "parameters": {
                    "command": "ls",
                    "timeout": "30",
                    "argv": '["-l","é"]',
                    "opts": '{"a":true}',
                    "nothing": "null",
                },
            }
        },
    ),
    stdin_case(
        "tool-call-non-object-input",
        f"{NOTES} §3B (mapParams): an input that is not an object gives parameters {{}}.",
        "PreToolUse",
        {"tool_call": {"id": "c", "name": "echo", "input": "raw text"}},
        {"tool_call": {"input": "raw text"}, "preToolUse": {"toolName": "echo", "parameters": {}}},
    ),
    stdin_case(
        "tool-call-legacy-block-from-agent-kept",
        f"{NOTES} §3B: the agent builds preToolUse; when it sends one, the hook gets it as sent.",
        "PreToolUse",
        {**tool_call(), "preToolUse": {"toolName": "custom", "parameters": {"x": "1"}}},
        {"preToolUse": {"toolName": "custom", "parameters": {"x": "1"}}},
    ),
    stdin_case(
        "tool-result-documented-event",
        f"{SPEC} §Input 'PostToolUse event': hookName tool_result with the tool_result block "
        f"(error null); {NOTES} §3B: plus postToolUse {{toolName, parameters, result, "
        "success: !error, executionTimeMs}.",
        "PostToolUse",
        {
            "tool_result": {
                "id": "call-456",
                "name": "read_files",
                "input": {"filePath": "/path/to/file.ts"},
                "output": "file contents here",
                "error": None,
                "durationMs": 45,
            }
        },
        {
            "hookName": "tool_result",
            "tool_result": {"error": None, "durationMs": 45},
            "postToolUse": {
                **PRE_TOOL,
                "result": "file contents here",
                "success": True,
                "executionTimeMs": 45,
            },
        },
    ),
    stdin_case(
        "tool-result-timing",
        f"{NOTES} §8.14 'forwards runtime tool timing to tool_result hook payloads' and §8.12 "
        "#20: tool_result keeps durationMs, startedAt, endedAt; postToolUse.executionTimeMs "
        "is the duration.",
        "PostToolUse",
        TIMED,
        {
            "tool_result": {
                "durationMs": 42,
                "startedAt": "2026-01-01T00:00:00.000Z",
                "endedAt": "2026-01-01T00:00:00.042Z",
            },
            "postToolUse": {
                "toolName": "read_file",
                "result": "ok",
                "success": True,
                "executionTimeMs": 42,
            },
        },
    ),
    stdin_case(
        "tool-result-failed-object-output",
        f"{NOTES} §3B: postToolUse.result is the output JSON-encoded when it is not a string; "
        "success is false when the record has an error.",
        "PostToolUse",
        tool_result(output={"lines": 3}, error="exit status 1"),
        {"postToolUse": {"result": '{"lines":3}', "success": False}},
    ),
    stdin_case(
        "agent-start",
        f"{SPEC} §Input 'TaskStart and other lifecycle events': hookName agent_start, taskId, "
        f"workspaceRoots, userId; {NOTES} §3B: taskStart {{taskMetadata: {{}}}} beside it.",
        "TaskStart",
        {"taskId": "conv-123"},
        {
            "hookName": "agent_start",
            "taskId": "conv-123",
            "workspaceRoots": ["{ws}"],
            "userId": ANY,
            "taskStart": {"taskMetadata": {}},
        },
        absent=("model", "tool_call", "preToolUse"),
    ),
    stdin_case(
        "agent-resume",
        f"{NOTES} §3B: agent_resume carries taskResume {{taskMetadata: {{}}, previousState: {{}}}}.",
        "TaskResume",
        {"taskId": "conv-123"},
        {"hookName": "agent_resume", "taskResume": {"taskMetadata": {}, "previousState": {}}},
    ),
    stdin_case(
        "agent-end",
        f"{NOTES} §3B: agent_end carries iteration, turn {{outputText, status}} and "
        "taskComplete {taskMetadata: {}}.",
        "TaskComplete",
        {
            "taskId": "conv-123",
            "iteration": 2,
            "turn": {"outputText": "done", "status": "completed"},
        },
        {
            "hookName": "agent_end",
            "iteration": 2,
            "turn": {"outputText": "done", "status": "completed"},
            "taskComplete": {"taskMetadata": {}},
        },
    ),
    stdin_case(
        "agent-abort",
        f"{NOTES} §3B: agent_abort carries reason and taskCancel {{taskMetadata: {{}}}}.",
        "TaskCancel",
        {"taskId": "conv-123", "reason": "user cancel"},
        {"hookName": "agent_abort", "reason": "user cancel", "taskCancel": {"taskMetadata": {}}},
    ),
    stdin_case(
        "agent-error",
        f"{NOTES} §3B: agent_error carries iteration and error {{name, message, stack}}; file "
        "hooks get no legacy block for it.",
        "TaskError",
        {
            "taskId": "conv-123",
            "iteration": 3,
            "error": {"name": "Error", "message": "401 unauthorized", "stack": "Error: 401"},
        },
        {"hookName": "agent_error", "error": {"message": "401 unauthorized"}},
        absent=("taskCancel", "taskComplete", "taskError"),
    ),
    stdin_case(
        "prompt-submit",
        f"{NOTES} §3B: prompt_submit carries userPromptSubmit {{prompt, attachments: []}}, "
        "which only the agent knows (passed through).",
        "UserPromptSubmit",
        {"taskId": "conv-123", "userPromptSubmit": {"prompt": "real prompt", "attachments": []}},
        {
            "hookName": "prompt_submit",
            "userPromptSubmit": {"prompt": "real prompt", "attachments": []},
        },
    ),
    stdin_case(
        "session-shutdown",
        f"{NOTES} §3B: session_shutdown carries reason and no legacy block.",
        "SessionShutdown",
        {"taskId": "conv-123", "reason": "user cancel"},
        {"hookName": "session_shutdown", "reason": "user cancel"},
        absent=("taskCancel",),
    ),
    stdin_case(
        "base-fields-filled",
        f"{NOTES} §3B: timestamp is ISO-8601 (toISOString: milliseconds, Z); workspaceRoots is "
        "the workspace; clineVersion is $CLINE_VERSION trimmed; userId is $CLINE_USER_ID; "
        "there is no model.",
        "PreToolUse",
        tool_call(),
        {
            "hookName": "tool_call",
            "timestamp": Matches(ISO_MS),
            "workspaceRoots": ["{ws}"],
            "clineVersion": "2.4.0",
            "userId": "ci-bot",
        },
        absent=("model",),
        env={"CLINE_VERSION": " 2.4.0\n", "CLINE_USER_ID": "ci-bot", "USER": "alice"},
    ),
    stdin_case(
        "user-id-falls-back-to-user",
        f"{NOTES} §3B: userId is $CLINE_USER_ID, then $USER (blank values skipped).",
        "PreToolUse",
        tool_call(),
        {"userId": "alice", "clineVersion": ""},
        env={"CLINE_USER_ID": "  ", "USER": "alice", "CLINE_VERSION": ""},
    ),
    stdin_case(
        "user-id-unknown",
        f"{NOTES} §3B: with neither $CLINE_USER_ID nor $USER, userId is 'unknown'.",
        "PreToolUse",
        tool_call(),
        {"userId": "unknown"},
        env={"CLINE_USER_ID": "", "USER": ""},
    ),
    stdin_case(
        "hook-name-is-always-the-events",
        f"{NOTES} §3B: hookName is the SDK event name, whatever the agent put there.",
        "PreToolUse",
        {**tool_call(), "hookName": "PreToolUse"},
        {"hookName": "tool_call"},
    ),
]


@pytest.mark.parametrize("case", params(CASES))
async def test_stdin(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)


NODE_CHECK = (
    "const raw = require('fs').readFileSync(0, 'utf8');\n"
    "const same = JSON.stringify(JSON.parse(raw)) === raw;\n"
    "console.log(JSON.stringify({ context: same ? 'JSON.stringify' : raw }));\n"
)

BYTES_CASES = [
    Case(
        id=f"stdin-bytes-as-json-stringify-{name}",
        rule=f"{NOTES} §2C: stdin is `JSON.stringify(payload)`: compact, non-ASCII text as "
        "UTF-8; a node hook re-serialising what it read gets the same bytes.",
        files=((f"{HOOKS}/PreToolUse.js", NODE_CHECK),),
        fires=(Fire(payload=payload),),
        expect={"context": "JSON.stringify"},
        needs=("node",),
    )
    for name, payload in (
        ("ascii", tool_call(filePath="/src/a.ts", lines=[1, 2])),
        ("non-ascii", tool_call(filePath="/src/café ✓.ts", note="日本語")),
    )
]


@pytest.mark.parametrize("case", params(BYTES_CASES))
async def test_stdin_bytes(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)


async def test_hook_runs_in_the_workspace(rpc, places: Places) -> None:
    """cline-implementation.md §2C: the hook's cwd is the session's workspace, whatever
    folder the hook file is in (here the user-level ~/.cline/hooks)."""
    hook = places.home / ".cline" / "hooks" / "PreToolUse.sh"
    hook.parent.mkdir(parents=True)
    hook.write_text(f"cat >/dev/null; pwd > '{places.tmp}/cwd'\n")

    await rpc.fire("cline-sdk", "PreToolUse", [str(places.ws)], tool_call())

    assert (places.tmp / "cwd").read_text().strip() == str(places.ws)
