"""Cline's per-event hook tests, rewritten as hookd cases (``cline-implementation.md``
§8.2 TaskStart, §8.3 TaskResume, §8.4 TaskCancel, §8.5 TaskComplete, §8.6
UserPromptSubmit, and the PreToolUse/PostToolUse fixtures listed at the end of §8.6).

Case ids start with the inventory number (``8.4-6`` is test 6 of §8.4). Cline's node
hooks become shell/jq hooks; a thrown runner error becomes a failed hook entry that fails
open. Fixture tests whose script is the same as an earlier test's are folded into it (the
rule says which). hookd's deliberate difference for §8.4 #6 and §8.5 #7: a cancel from
TaskCancel or TaskComplete is passed on as its errorMessage but does not block.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from conformance.cline._cline import (
    GLOBAL,
    HOOKS,
    NOTES,
    NOTHING,
    Case,
    Fire,
    Has,
    Places,
    answer,
    cancels,
    context_of,
    jq_answer,
    jq_context,
    params,
    pre_tool,
    prints,
    prompt,
    records,
    requires,
    run,
    task_cancel,
    task_complete,
    task_resume,
    task_start,
)

JQ = ("jq",)
COMMON = (
    ".clineVersion and .timestamp and .taskId and .workspaceRoots != null "
    "and .model.provider and .model.slug"
)
UNKNOWN_MODEL = {"provider": "unknown", "slug": "unknown"}


def failed(event: str) -> dict[str, Any]:
    return {**NOTHING, "hooks": [{"error": Has(event, "exited with code 1")}]}


def not_blocked_but(message: str, event: str) -> dict[str, Any]:
    """A cancel that does not block (TaskCancel, TaskComplete): the message is passed on."""
    return {
        "blocked": False,
        "reason": message or None,
        "native": {"cancel": False, "errorMessage": message},
        "hooks": [{"error": f"{event} cannot be cancelled; the hook's cancel was ignored"}],
    }


def both(event: str, global_body: str, workspace_body: str) -> tuple[tuple[str, str], ...]:
    return ((f"{GLOBAL}/{event}", global_body), (f"{HOOKS}/{event}", workspace_body))


def ms_ago(milliseconds: int) -> str:
    return str(int(time.time() * 1000) - milliseconds)


def resume(offset_ms: int = 120_000, **previous: Any) -> Callable[[], dict[str, Any]]:
    """A TaskResume payload whose lastMessageTs is taken at fire time, ``offset_ms`` ago."""
    return lambda: task_resume(lastMessageTs=ms_ago(offset_ms), **previous)


def jq_answer_or_cancel() -> str:
    """Cancel when the userPromptSubmit block is missing, else report the prompt length."""
    return jq_answer(
        'if has("userPromptSubmit") | not then {cancel: true, errorMessage: "no block"} '
        'else {cancel: false, contextModification: "Prompt length: \\(.userPromptSubmit'
        '.prompt | length)"} end'
    )


HOUR = 3_600_000
TS = ".taskResume.previousState.lastMessageTs"
COUNT = ".taskResume.previousState.messageCount"
AGE_HOURS = f"((now * 1000 - ({TS} | tonumber)) / {HOUR} | floor)"
LENGTH = (
    f'({COUNT} | tonumber) as $n | "Conversation length: '
    '\\(if $n < 5 then "short" elif $n < 20 then "medium" else "long" end) (\\($n) messages)"'
)

S82 = f"{NOTES} §8.2 taskstart.test.ts"
TASK_START = [
    Case(
        id="8.2-1-metadata",
        rule=f"{S82} #1: taskStart.taskMetadata has taskId, ulid and initialTask.",
        files=(
            (
                f"{HOOKS}/TaskStart",
                jq_context(
                    'if (.taskStart.taskMetadata | .taskId and .ulid and has("initialTask")) '
                    'then "All metadata present" else "Missing" end'
                ),
            ),
        ),
        fires=(Fire("TaskStart"),),
        expect={"context": "All metadata present"},
        needs=JQ,
    ),
    Case(
        id="8.2-2-common-fields",
        rule=f"{S82} #2: hookName 'TaskStart' and the common fields, model defaulting to "
        "'unknown'.",
        files=(
            (
                f"{HOOKS}/TaskStart",
                jq_context(
                    f'if .hookName == "TaskStart" and {COMMON} then "All fields present" '
                    'else "Missing" end'
                ),
            ),
        ),
        fires=(Fire("TaskStart", {**task_start(), "model": UNKNOWN_MODEL}),),
        expect={"context": "All fields present"},
        needs=JQ,
    ),
    Case(
        id="8.2-3-empty-initial-task",
        rule=f'{S82} #3: an empty initialTask is still there, as "".',
        files=(
            (
                f"{HOOKS}/TaskStart",
                jq_context('"Task length: \\(.taskStart.taskMetadata.initialTask | length)"'),
            ),
        ),
        fires=(Fire("TaskStart", task_start("")),),
        expect={"context": "Task length: 0"},
        needs=JQ,
    ),
    Case(
        id="8.2-4-allow-with-context",
        rule=f"{S82} #4 (and #13 fixture success): cancel false with a context.",
        files=(
            (
                f"{HOOKS}/TaskStart",
                answer(
                    {
                        "cancel": False,
                        "contextModification": "TaskStart hook executed successfully",
                        "errorMessage": "",
                    }
                ),
            ),
        ),
        fires=(Fire("TaskStart"),),
        expect={"blocked": False, "context": "TaskStart hook executed successfully"},
    ),
    Case(
        id="8.2-5-block",
        rule=f"{S82} #5 (and #13 fixture blocking): cancel true with an errorMessage blocks.",
        files=(
            (
                f"{HOOKS}/TaskStart",
                answer(
                    {
                        "cancel": True,
                        "contextModification": "",
                        "errorMessage": "Task execution blocked by hook",
                    }
                ),
            ),
        ),
        fires=(Fire("TaskStart"),),
        expect={"blocked": True, "reason": "Task execution blocked by hook", "context": None},
    ),
    Case(
        id="8.2-6-context-from-initial-task",
        rule=f"{S82} #6: the context may use the initial task.",
        files=(
            (
                f"{HOOKS}/TaskStart",
                jq_context(
                    "\"TASK_START: Task '\\(.taskStart.taskMetadata.initialTask)' beginning\""
                ),
            ),
        ),
        fires=(Fire("TaskStart"),),
        expect={"context": "TASK_START: Task 'Build a todo app' beginning"},
        needs=JQ,
    ),
    Case(
        id="8.2-7-script-error",
        rule=f"{S82} #7 (and #14 fixture error): stderr and exit 1: 'TaskStart ... exited "
        "with code 1'.",
        files=((f"{HOOKS}/TaskStart", prints("", exit_code=1, stderr="Hook execution error")),),
        fires=(Fire("TaskStart"),),
        expect={
            **failed("TaskStart"),
            "hooks": [{"error": "TaskStart hook exited with code 1: Hook execution error"}],
        },
    ),
    Case(
        id="8.2-8-malformed-json",
        rule=f"{S82} #8: malformed JSON is cancel false, no context.",
        files=((f"{HOOKS}/TaskStart", prints("not valid json\n")),),
        fires=(Fire("TaskStart"),),
        expect=NOTHING,
    ),
    Case(
        id="8.2-9-global-and-workspace",
        rule=f"{S82} #9: both hooks' contexts are present.",
        files=both(
            "TaskStart", context_of("GLOBAL: Task starting"), context_of("WORKSPACE: Task starting")
        ),
        fires=(Fire("TaskStart"),),
        expect={"blocked": False, "context": "GLOBAL: Task starting\n\nWORKSPACE: Task starting"},
    ),
    Case(
        id="8.2-10-global-blocks",
        rule=f"{S82} #10: the global hook blocks.",
        files=both(
            "TaskStart", cancels("Global policy blocks this task"), answer({"cancel": False})
        ),
        fires=(Fire("TaskStart"),),
        expect={"blocked": True, "reason": "Global policy blocks this task"},
    ),
    Case(
        id="8.2-11-workspace-blocks",
        rule=f"{S82} #11: the workspace hook blocks even when the global one allows.",
        files=both("TaskStart", answer({"cancel": False}), cancels("Workspace blocks")),
        fires=(Fire("TaskStart"),),
        expect={"blocked": True, "reason": "Workspace blocks"},
    ),
    Case(
        id="8.2-12-no-hook",
        rule=f"{S82} #12: no hook allows the task.",
        fires=(Fire("TaskStart"),),
        expect={**NOTHING, "hooks": []},
    ),
]

S83 = f"{NOTES} §8.3 taskresume.test.ts"
TASK_RESUME = [
    Case(
        id="8.3-1-resume-fields-are-strings",
        rule=f"{S83} #1: taskMetadata.taskId and previousState.messageCount are strings.",
        files=(
            (
                f"{HOOKS}/TaskResume",
                jq_context(
                    f'if (.taskResume.taskMetadata.taskId | type) == "string" and ({COUNT} | type) '
                    '== "string" then "All fields present" else "Wrong types" end'
                ),
            ),
        ),
        fires=(Fire("TaskResume"),),
        expect={"context": "All fields present"},
        needs=JQ,
    ),
    Case(
        id="8.3-2-common-fields",
        rule=f"{S83} #2: the common fields and the model.",
        files=((f"{HOOKS}/TaskResume", requires(f'.hookName == "TaskResume" and {COMMON}')),),
        fires=(Fire("TaskResume"),),
        expect=NOTHING,
        hooks=({"exitCode": 0, "error": None},),
        needs=JQ,
    ),
    *[
        Case(
            id=f"8.3-3-minutes-ago-{minutes}",
            rule=f"{S83} #3: the hook computes minutes since lastMessageTs (a ms string, "
            f"passed unchanged): {minutes}.",
            files=(
                (
                    f"{HOOKS}/TaskResume",
                    jq_context(
                        f'"Minutes ago: \\(((now * 1000 - ({TS} | tonumber)) / 60000) | floor)"'
                    ),
                ),
            ),
            fires=(Fire("TaskResume", resume(minutes * 60_000 + 5_000)),),
            expect={"context": f"Minutes ago: {minutes}"},
            needs=JQ,
        )
        for minutes in (2, 30, 90)
    ],
    Case(
        id="8.3-4-days-ago",
        rule=f"{S83} #4: seven days ago.",
        files=((f"{HOOKS}/TaskResume", jq_context(f'"Days ago: \\({AGE_HOURS} / 24 | floor)"')),),
        fires=(Fire("TaskResume", resume(7 * 24 * HOUR + 60_000)),),
        expect={"context": "Days ago: 7"},
        needs=JQ,
    ),
    Case(
        id="8.3-5-future-timestamp",
        rule=f"{S83} #5: a timestamp an hour ahead is seen as such.",
        files=(
            (
                f"{HOOKS}/TaskResume",
                jq_context(
                    f'if ({TS} | tonumber) > now * 1000 then "Future timestamp detected" '
                    'else "Past" end'
                ),
            ),
        ),
        fires=(Fire("TaskResume", resume(-HOUR)),),
        expect={"context": "Future timestamp detected"},
        needs=JQ,
    ),
    *[
        Case(
            id=f"8.3-6-message-count-{count}",
            rule=f"{S83} #6: message-count thresholds ({count} messages, {size}).",
            files=((f"{HOOKS}/TaskResume", jq_context(LENGTH)),),
            fires=(Fire("TaskResume", resume(messageCount=str(count))),),
            expect={"context": f"Conversation length: {size} ({count} messages)"},
            needs=JQ,
        )
        for count, size in ((2, "short"), (10, "medium"), (50, "long"))
    ],
    Case(
        id="8.3-7-zero-messages",
        rule=f'{S83} #7: messageCount "0" is an empty conversation.',
        files=(
            (
                f"{HOOKS}/TaskResume",
                jq_context(f'if {COUNT} == "0" then "Empty conversation" else "Not empty" end'),
            ),
        ),
        fires=(Fire("TaskResume", resume(messageCount="0")),),
        expect={"context": "Empty conversation"},
        needs=JQ,
    ),
    Case(
        id="8.3-8-long-pause-many-messages",
        rule=f"{S83} #8: paused 25 h with 30 messages.",
        files=(
            (
                f"{HOOKS}/TaskResume",
                jq_context(
                    f"if {AGE_HOURS} >= 24 and ({COUNT} | tonumber) >= 20 then "
                    '"STALE_TASK: Long conversation paused for extended time" else "Fresh" end'
                ),
            ),
        ),
        fires=(Fire("TaskResume", resume(25 * HOUR, messageCount="30")),),
        expect={"context": "STALE_TASK: Long conversation paused for extended time"},
        needs=JQ,
    ),
    Case(
        id="8.3-9-deleted-history",
        rule=f'{S83} #9: conversationHistoryDeleted "true" with 25 messages.',
        files=(
            (
                f"{HOOKS}/TaskResume",
                jq_context(
                    '.taskResume.previousState as $s | if $s.conversationHistoryDeleted == "true" '
                    'and ($s.messageCount | tonumber) > 20 then "CONTEXT_WARNING: Large '
                    'conversation with truncated history" else "Intact" end'
                ),
            ),
        ),
        fires=(Fire("TaskResume", resume(messageCount="25", conversationHistoryDeleted="true")),),
        expect={"context": "CONTEXT_WARNING: Large conversation with truncated history"},
        needs=JQ,
    ),
    Case(
        id="8.3-10-malformed-json",
        rule=f"{S83} #10: malformed JSON is cancel false, no context.",
        files=((f"{HOOKS}/TaskResume", prints("not valid json\n")),),
        fires=(Fire("TaskResume"),),
        expect=NOTHING,
    ),
    Case(
        id="8.3-11-invalid-timestamp",
        rule=f'{S83} #11: lastMessageTs "invalid" reaches the hook unchanged.',
        files=(
            (
                f"{HOOKS}/TaskResume",
                jq_context(
                    f'if ({TS} | test("^[0-9]+$")) then "Valid" else "Invalid timestamp" end'
                ),
            ),
        ),
        fires=(Fire("TaskResume", task_resume(lastMessageTs="invalid")),),
        expect={"context": "Invalid timestamp"},
        needs=JQ,
    ),
    Case(
        id="8.3-12-global-and-workspace",
        rule=f"{S83} #12: both hooks' contexts are present.",
        files=both(
            "TaskResume", context_of("GLOBAL: Task resumed"), context_of("WORKSPACE: Task resumed")
        ),
        fires=(Fire("TaskResume"),),
        expect={"context": "GLOBAL: Task resumed\n\nWORKSPACE: Task resumed"},
    ),
    Case(
        id="8.3-13-combined-with-analysis",
        rule=f"{S83} #13: a global policy context and a workspace note using the count.",
        files=both(
            "TaskResume",
            context_of("GLOBAL_POLICY: Review task context"),
            jq_context(f'"PROJECT_NOTE: \\({COUNT}) messages in history"'),
        ),
        fires=(Fire("TaskResume", resume(24 * HOUR, messageCount="15")),),
        expect={
            "context": "GLOBAL_POLICY: Review task context\n\nPROJECT_NOTE: 15 messages in history"
        },
        needs=JQ,
    ),
    Case(
        id="8.3-14-no-hook",
        rule=f"{S83} #14: no hook allows the resume.",
        fires=(Fire("TaskResume"),),
        expect={**NOTHING, "hooks": []},
    ),
    Case(
        id="8.3-15-fixture-message-count",
        rule=f"{S83} #15 fixture message-count: 'TASK_CONTEXT: Resuming task with 25 "
        "previous messages' (cancel false).",
        files=(
            (
                f"{HOOKS}/TaskResume",
                jq_context(f'"TASK_CONTEXT: Resuming task with \\({COUNT}) previous messages"'),
            ),
        ),
        fires=(Fire("TaskResume", resume(messageCount="25")),),
        expect={
            "blocked": False,
            "context": "TASK_CONTEXT: Resuming task with 25 previous messages",
        },
        needs=JQ,
    ),
    Case(
        id="8.3-15-fixture-context-injection",
        rule=f"{S83} #15 fixture context-injection: the task id in a WORKSPACE_RULES context.",
        files=(
            (
                f"{HOOKS}/TaskResume",
                jq_context(
                    '"WORKSPACE_RULES: Task \\(.taskResume.taskMetadata.taskId) resumed - review '
                    'previous context"'
                ),
            ),
        ),
        fires=(
            Fire(
                "TaskResume",
                lambda: {
                    **task_resume(),
                    "taskResume": {
                        **task_resume()["taskResume"],
                        "taskMetadata": {"taskId": "test-task", "ulid": "test-ulid"},
                    },
                },
            ),
        ),
        expect={"context": "WORKSPACE_RULES: Task test-task resumed - review previous context"},
        needs=JQ,
    ),
    Case(
        id="8.3-16-fixture-error",
        rule=f"{S83} #16: the error fixture: exited with code 1.",
        files=((f"{HOOKS}/TaskResume", prints("", exit_code=1, stderr="resume failed")),),
        fires=(Fire("TaskResume"),),
        expect=failed("TaskResume"),
    ),
]

S84 = f"{NOTES} §8.4 taskcancel.test.ts"
TASK_CANCEL = [
    Case(
        id="8.4-1-metadata-with-status",
        rule=f"{S84} #1: taskCancel.taskMetadata has taskId, ulid and completionStatus.",
        files=(
            (
                f"{HOOKS}/TaskCancel",
                requires(
                    ".taskCancel.taskMetadata | .taskId and .ulid and .completionStatus == "
                    '"cancelled"'
                ),
            ),
        ),
        fires=(Fire("TaskCancel"),),
        expect=NOTHING,
        hooks=({"error": None},),
        needs=JQ,
    ),
    Case(
        id="8.4-2-abandoned",
        rule=f"{S84} #2: completionStatus 'abandoned' is passed.",
        files=(
            (
                f"{HOOKS}/TaskCancel",
                requires('.taskCancel.taskMetadata.completionStatus == "abandoned"'),
            ),
        ),
        fires=(Fire("TaskCancel", task_cancel("abandoned")),),
        expect=NOTHING,
        hooks=({"error": None},),
        needs=JQ,
    ),
    Case(
        id="8.4-3-common-fields",
        rule=f"{S84} #3: hookName 'TaskCancel', the common fields and the model.",
        files=((f"{HOOKS}/TaskCancel", requires(f'.hookName == "TaskCancel" and {COMMON}')),),
        fires=(Fire("TaskCancel"),),
        expect=NOTHING,
        hooks=({"error": None},),
        needs=JQ,
    ),
    Case(
        id="8.4-4-context-per-run",
        rule=f"{S84} #4: the context is returned (the caller ignores it); the file rewritten "
        "between runs gives the new context.",
        files=(
            (
                f"{HOOKS}/TaskCancel",
                context_of("This is a context modification that should be ignored"),
            ),
        ),
        fires=(Fire("TaskCancel"), Fire("TaskCancel")),
        between=lambda places: (places.ws / ".clinerules/hooks/TaskCancel").write_text(
            context_of("Different context that is also ignored")
        ),
        expect={"blocked": False, "context": "Different context that is also ignored"},
    ),
    Case(
        id="8.4-5-succeeds-regardless",
        rule=f"{S84} #5: {{cancel: false, ...}} succeeds.",
        files=((f"{HOOKS}/TaskCancel", answer({"cancel": False, "contextModification": "x"})),),
        fires=(Fire("TaskCancel"),),
        expect={"blocked": False},
    ),
    Case(
        id="8.4-6-cancel-true-not-blocking",
        rule=f"{S84} #6: cancel true with 'Hook tried to block cancellation': Cline's runner "
        "passes it through, its caller ignores it. hookd: not blocked, message passed on.",
        files=((f"{HOOKS}/TaskCancel", cancels("Hook tried to block cancellation")),),
        fires=(Fire("TaskCancel"),),
        expect=not_blocked_but("Hook tried to block cancellation", "TaskCancel"),
    ),
    Case(
        id="8.4-7-cleanup-reads-status",
        rule=f"{S84} #7: a cleanup hook reads the status; it runs without errors.",
        files=((f"{HOOKS}/TaskCancel", records({"cancel": False})),),
        fires=(Fire("TaskCancel"),),
        stdin=({"taskCancel": {"taskMetadata": {"completionStatus": "cancelled"}}},),
        hooks=({"error": None, "exitCode": 0},),
    ),
    Case(
        id="8.4-8-error-surfaced",
        rule=f"{S84} #8 (and #17 fixture error): stderr + exit 1: 'TaskCancel ... exited with "
        "code 1' is surfaced.",
        files=((f"{HOOKS}/TaskCancel", prints("", exit_code=1, stderr="cleanup failed")),),
        fires=(Fire("TaskCancel"),),
        expect={
            **failed("TaskCancel"),
            "hooks": [{"error": "TaskCancel hook exited with code 1: cleanup failed"}],
        },
    ),
    Case(
        id="8.4-9-malformed-json",
        rule=f"{S84} #9: malformed JSON is cancel false, empty context.",
        files=((f"{HOOKS}/TaskCancel", prints("not valid json\n")),),
        fires=(Fire("TaskCancel"),),
        expect=NOTHING,
    ),
    Case(
        id="8.4-10-global-and-workspace",
        rule=f"{S84} #10: both hooks run.",
        files=both("TaskCancel", records({"cancel": False}), records({"cancel": False})),
        fires=(Fire("TaskCancel"),),
        expect=NOTHING,
        hooks=({"error": None}, {"error": None}),
        stdin=({"hookName": "TaskCancel"}, {"hookName": "TaskCancel"}),
    ),
    Case(
        id="8.4-11-both-abandoned",
        rule=f"{S84} #11: both hooks run with status 'abandoned'.",
        files=both("TaskCancel", records({"cancel": False}), records({"cancel": False})),
        fires=(Fire("TaskCancel", task_cancel("abandoned")),),
        expect=NOTHING,
        stdin=({"taskCancel": {"taskMetadata": {"completionStatus": "abandoned"}}},) * 2,
    ),
    Case(
        id="8.4-12-no-hook",
        rule=f"{S84} #12: no hook succeeds.",
        fires=(Fire("TaskCancel"),),
        expect={**NOTHING, "hooks": []},
    ),
    Case(
        id="8.4-13-cancel-no-error",
        rule=f"{S84} #13 (fixture 'false-no-error'): cancel true, errorMessage \"\".",
        files=((f"{HOOKS}/TaskCancel", answer({"cancel": True, "errorMessage": ""})),),
        fires=(Fire("TaskCancel"),),
        expect=not_blocked_but("", "TaskCancel"),
    ),
    Case(
        id="8.4-14-cancel-with-error",
        rule=f"{S84} #14 (fixture 'false-with-error'): cancel true, 'some error happened'.",
        files=((f"{HOOKS}/TaskCancel", cancels("some error happened")),),
        fires=(Fire("TaskCancel"),),
        expect=not_blocked_but("some error happened", "TaskCancel"),
    ),
    Case(
        id="8.4-15-allow-no-error",
        rule=f"{S84} #15 (fixture 'true-no-error'): cancel false, errorMessage \"\".",
        files=((f"{HOOKS}/TaskCancel", answer({"cancel": False, "errorMessage": ""})),),
        fires=(Fire("TaskCancel"),),
        expect={**NOTHING, "hooks": [{"error": None}]},
    ),
    Case(
        id="8.4-16-allow-with-error",
        rule=f"{S84} #16 (fixture 'true-with-error'): cancel false, 'some error happened' is "
        "passed through.",
        files=(
            (
                f"{HOOKS}/TaskCancel",
                answer({"cancel": False, "errorMessage": "some error happened"}),
            ),
        ),
        fires=(Fire("TaskCancel"),),
        expect={
            "blocked": False,
            "reason": "some error happened",
            "native": {"cancel": False, "errorMessage": "some error happened"},
        },
    ),
]

S85 = f"{NOTES} §8.5 taskcomplete.test.ts"
RESULT_75 = "I've successfully completed the task by implementing all required features."
TASK_COMPLETE = [
    Case(
        id="8.5-1-metadata",
        rule=f"{S85} #1: taskComplete.taskMetadata carries result and command.",
        files=(
            (
                f"{HOOKS}/TaskComplete",
                jq_context(
                    'if (.taskComplete.taskMetadata | .taskId and .ulid and .result == "Task '
                    'completed successfully" and .command == "npm start") then "All metadata '
                    'present" else "Missing" end'
                ),
            ),
        ),
        fires=(Fire("TaskComplete"),),
        expect={"context": "All metadata present"},
        needs=JQ,
    ),
    Case(
        id="8.5-2-empty-command",
        rule=f'{S85} #2: a completion without command has command "".',
        files=(
            (
                f"{HOOKS}/TaskComplete",
                jq_context("\"Command: '\\(.taskComplete.taskMetadata.command)'\""),
            ),
        ),
        fires=(Fire("TaskComplete", task_complete(command="")),),
        expect={"context": "Command: ''"},
        needs=JQ,
    ),
    Case(
        id="8.5-3-common-fields",
        rule=f"{S85} #3: hookName 'TaskComplete', the common fields and the model.",
        files=(
            (
                f"{HOOKS}/TaskComplete",
                jq_context(
                    f'if .hookName == "TaskComplete" and {COMMON} then "All fields present" '
                    'else "Missing" end'
                ),
            ),
        ),
        fires=(Fire("TaskComplete"),),
        expect={"context": "All fields present"},
        needs=JQ,
    ),
    Case(
        id="8.5-4-result-text",
        rule=f"{S85} #4: the result text arrives whole (75 characters).",
        files=(
            (
                f"{HOOKS}/TaskComplete",
                jq_context('"Result length: \\(.taskComplete.taskMetadata.result | length)"'),
            ),
        ),
        fires=(Fire("TaskComplete", task_complete(RESULT_75)),),
        expect={"context": "Result length: 75"},
        needs=JQ,
    ),
    Case(
        id="8.5-5-context",
        rule=f"{S85} #5 (and #13 fixture success): the context is captured.",
        files=((f"{HOOKS}/TaskComplete", context_of("TaskComplete hook executed successfully")),),
        fires=(Fire("TaskComplete"),),
        expect={"context": "TaskComplete hook executed successfully"},
    ),
    Case(
        id="8.5-6-context-for-logging",
        rule=f"{S85} #6: the context is captured for logging although the task is complete.",
        files=(
            (
                f"{HOOKS}/TaskComplete",
                jq_context(
                    "\"TASK_COMPLETE: Task '\\(.taskComplete.taskMetadata.taskId)' finished\""
                ),
            ),
        ),
        fires=(
            Fire(
                "TaskComplete",
                lambda: {
                    **task_complete(),
                    "taskComplete": {
                        "taskMetadata": {
                            **task_complete()["taskComplete"]["taskMetadata"],
                            "taskId": "test-task-id",
                        }
                    },
                },
            ),
        ),
        expect={"context": "TASK_COMPLETE: Task 'test-task-id' finished"},
        needs=JQ,
    ),
    Case(
        id="8.5-7-cancel-does-not-block",
        rule=f"{S85} #7: cancel true does not block completion (Cline's runner passes it, its "
        "caller ignores it). hookd: not blocked, message passed on.",
        files=((f"{HOOKS}/TaskComplete", cancels("Hook tried to block completion")),),
        fires=(Fire("TaskComplete"),),
        expect=not_blocked_but("Hook tried to block completion", "TaskComplete"),
    ),
    Case(
        id="8.5-8-script-error",
        rule=f"{S85} #8 (and #14 fixture error): exit 1: 'TaskComplete ... exited with code 1'.",
        files=((f"{HOOKS}/TaskComplete", prints("", exit_code=1)),),
        fires=(Fire("TaskComplete"),),
        expect=failed("TaskComplete"),
    ),
    Case(
        id="8.5-9-malformed-json",
        rule=f"{S85} #9: malformed JSON is cancel false, empty context.",
        files=((f"{HOOKS}/TaskComplete", prints("not valid json\n")),),
        fires=(Fire("TaskComplete"),),
        expect=NOTHING,
    ),
    Case(
        id="8.5-10-global-and-workspace",
        rule=f"{S85} #10: both contexts present.",
        files=both(
            "TaskComplete",
            context_of("GLOBAL: Task complete"),
            context_of("WORKSPACE: Task complete"),
        ),
        fires=(Fire("TaskComplete"),),
        expect={"context": "GLOBAL: Task complete\n\nWORKSPACE: Task complete"},
    ),
    Case(
        id="8.5-11-global-error-workspace-succeeds",
        rule=f"{S85} #11: Cline's whole combined call throws when the global hook fails, "
        "losing the workspace result (§9.2); so does hookd by default (cline_failure_policy "
        "'agent'), reporting the global hook's error.",
        files=both("TaskComplete", prints("", exit_code=1), context_of("Workspace succeeded")),
        fires=(Fire("TaskComplete"),),
        expect={"blocked": False, "context": None},
        hooks=({"error": Has("TaskComplete", "exited with code 1")}, {"error": None}),
    ),
    Case(
        id="8.5-12-no-hook",
        rule=f"{S85} #12: no hook succeeds.",
        fires=(Fire("TaskComplete"),),
        expect={**NOTHING, "hooks": []},
    ),
    Case(
        id="8.5-13-fixture-context-injection",
        rule=f"{S85} #13 fixture context-injection: 'COMPLETED: <result>'.",
        files=(
            (
                f"{HOOKS}/TaskComplete",
                jq_context('"COMPLETED: \\(.taskComplete.taskMetadata.result)"'),
            ),
        ),
        fires=(Fire("TaskComplete", task_complete("Build a todo app")),),
        expect={"context": "COMPLETED: Build a todo app"},
        needs=JQ,
    ),
]

S86 = f"{NOTES} §8.6 user-prompt-submit.test.ts"
SPECIAL = "Test @user #feature $cost"
PROMPT = ".userPromptSubmit.prompt"
USER_PROMPT = [
    Case(
        id="8.6-1-prompt-text",
        rule=f"{S86} #1: the prompt arrives as a non-empty string.",
        files=(
            (
                f"{HOOKS}/UserPromptSubmit",
                jq_context(
                    f'if ({PROMPT} | type) == "string" and ({PROMPT} | length) > 0 '
                    'then "Received prompt" else "No prompt" end'
                ),
            ),
        ),
        fires=(Fire("UserPromptSubmit"),),
        expect={"context": "Received prompt"},
        needs=JQ,
    ),
    Case(
        id="8.6-2-multiline",
        rule=f"{S86} #2 (and #12 fixture multiline): a three-line prompt keeps its lines.",
        files=(
            (
                f"{HOOKS}/UserPromptSubmit",
                jq_context(f'"Line count: \\({PROMPT} | split("\\n") | length)"'),
            ),
        ),
        fires=(Fire("UserPromptSubmit", prompt("Line 1\nLine 2\nLine 3")),),
        expect={"context": "Line count: 3"},
        needs=JQ,
    ),
    Case(
        id="8.6-3-large",
        rule=f"{S86} #3 (and #12 fixture large-prompt): a 10,000-character prompt arrives whole.",
        files=((f"{HOOKS}/UserPromptSubmit", jq_context(f'"Prompt size: \\({PROMPT} | length)"')),),
        fires=(Fire("UserPromptSubmit", prompt("x" * 10_000)),),
        expect={"context": "Prompt size: 10000"},
        needs=JQ,
    ),
    Case(
        id="8.6-4-common-fields",
        rule=f"{S86} #4: the common fields and the model.",
        files=(
            (
                f"{HOOKS}/UserPromptSubmit",
                jq_context(
                    f'if .hookName == "UserPromptSubmit" and {COMMON} then "All fields present" '
                    'else "Missing" end'
                ),
            ),
        ),
        fires=(Fire("UserPromptSubmit"),),
        expect={"context": "All fields present"},
        needs=JQ,
    ),
    Case(
        id="8.6-5-empty-prompt",
        rule=f'{S86} #5 (and #12 fixture empty-prompt): an empty prompt is sent as "" in the '
        "block (the only field Cline forces); the hook cancels if the block is missing.",
        files=((f"{HOOKS}/UserPromptSubmit", jq_answer_or_cancel()),),
        fires=(Fire("UserPromptSubmit", prompt("")),),
        expect={"blocked": False, "context": "Prompt length: 0"},
        needs=JQ,
    ),
    Case(
        id="8.6-6-special-characters",
        rule=f"{S86} #6 (and #12 fixture special-chars): @, #, $ are preserved.",
        files=(
            (
                f"{HOOKS}/UserPromptSubmit",
                jq_context(
                    f'if {PROMPT} == "{SPECIAL}" then "Special chars preserved" else "Changed" end'
                ),
            ),
        ),
        fires=(Fire("UserPromptSubmit", prompt(SPECIAL)),),
        expect={"context": "Special chars preserved"},
        needs=JQ,
    ),
    Case(
        id="8.6-7-malformed-json",
        rule=f"{S86} #7 (and #13 fixture malformed-json): cancel false, empty context.",
        files=((f"{HOOKS}/UserPromptSubmit", prints("not valid json\n")),),
        fires=(Fire("UserPromptSubmit"),),
        expect=NOTHING,
    ),
    Case(
        id="8.6-8-script-error",
        rule=f"{S86} #8 (and #14 fixture error): exit 1: 'exited with code 1'.",
        files=((f"{HOOKS}/UserPromptSubmit", prints("", exit_code=1)),),
        fires=(Fire("UserPromptSubmit"),),
        expect=failed("UserPromptSubmit"),
    ),
    Case(
        id="8.6-9-global-and-workspace",
        rule=f"{S86} #9: both contexts present.",
        files=both(
            "UserPromptSubmit",
            context_of("GLOBAL: Prompt received"),
            context_of("WORKSPACE: Prompt received"),
        ),
        fires=(Fire("UserPromptSubmit"),),
        expect={"context": "GLOBAL: Prompt received\n\nWORKSPACE: Prompt received"},
    ),
    Case(
        id="8.6-10-workspace-blocks",
        rule=f"{S86} #10: the workspace hook blocks even when the global one allows.",
        files=both("UserPromptSubmit", answer({"cancel": False}), cancels("Workspace blocks")),
        fires=(Fire("UserPromptSubmit"),),
        expect={"blocked": True, "reason": "Workspace blocks"},
    ),
    Case(
        id="8.6-11-no-hook",
        rule=f"{S86} #11: no hook allows the prompt.",
        fires=(Fire("UserPromptSubmit"),),
        expect={**NOTHING, "hooks": []},
    ),
    Case(
        id="8.6-12-fixture-success",
        rule=f"{S86} #12 fixture success: 'Prompt approved' for 'Create a feature'.",
        files=((f"{HOOKS}/UserPromptSubmit", context_of("Prompt approved")),),
        fires=(Fire("UserPromptSubmit", prompt("Create a feature")),),
        expect={"blocked": False, "context": "Prompt approved"},
    ),
    Case(
        id="8.6-12-fixture-blocking",
        rule=f"{S86} #12 fixture blocking: cancel true, 'Prompt violates policy'.",
        files=((f"{HOOKS}/UserPromptSubmit", cancels("Prompt violates policy")),),
        fires=(Fire("UserPromptSubmit"),),
        expect={"blocked": True, "reason": "Prompt violates policy"},
    ),
    Case(
        id="8.6-12-fixture-context-injection",
        rule=f"{S86} #12 fixture context-injection: 'CONTEXT_INJECTION: User is in plan mode'.",
        files=(
            (f"{HOOKS}/UserPromptSubmit", context_of("CONTEXT_INJECTION: User is in plan mode")),
        ),
        fires=(Fire("UserPromptSubmit"),),
        expect={"context": "CONTEXT_INJECTION: User is in plan mode"},
    ),
]

S86F = f"{NOTES} §8.6 (PreToolUse/PostToolUse fixtures, not loaded by Cline's tests)"
TOOL_FIXTURES = [
    Case(
        id="fixture-pretooluse-success",
        rule=f"{S86F}: pretooluse/success: 'PreToolUse hook executed successfully'.",
        files=((f"{HOOKS}/PreToolUse", context_of("PreToolUse hook executed successfully")),),
        expect={"blocked": False, "context": "PreToolUse hook executed successfully"},
    ),
    Case(
        id="fixture-pretooluse-blocking",
        rule=f"{S86F}: pretooluse/blocking: 'Tool execution blocked by hook'.",
        files=((f"{HOOKS}/PreToolUse", cancels("Tool execution blocked by hook")),),
        expect={"blocked": True, "reason": "Tool execution blocked by hook"},
    ),
    Case(
        id="fixture-pretooluse-context-injection",
        rule=f"{S86F}: pretooluse/context-injection: 'WORKSPACE_RULES: Tool <name> requires "
        "review'.",
        files=(
            (
                f"{HOOKS}/PreToolUse",
                jq_context('"WORKSPACE_RULES: Tool \\(.preToolUse.toolName) requires review"'),
            ),
        ),
        fires=(Fire(payload=pre_tool("execute_command", command="rm -rf build")),),
        expect={"context": "WORKSPACE_RULES: Tool execute_command requires review"},
        needs=JQ,
    ),
    Case(
        id="fixture-pretooluse-error",
        rule=f"{S86F}: pretooluse/error: stderr and exit 1.",
        files=((f"{HOOKS}/PreToolUse", prints("", exit_code=1, stderr="pre failed")),),
        expect=failed("PreToolUse"),
    ),
    Case(
        id="fixture-posttooluse-success",
        rule=f"{S86F}: posttooluse/success: 'PostToolUse hook executed successfully'.",
        files=((f"{HOOKS}/PostToolUse", context_of("PostToolUse hook executed successfully")),),
        fires=(Fire("PostToolUse"),),
        expect={"context": "PostToolUse hook executed successfully"},
    ),
    Case(
        id="fixture-posttooluse-error",
        rule=f"{S86F}: posttooluse/error: stderr and exit 1.",
        files=((f"{HOOKS}/PostToolUse", prints("", exit_code=1, stderr="post failed")),),
        fires=(Fire("PostToolUse"),),
        expect=failed("PostToolUse"),
    ),
]


ALL = TASK_START + TASK_RESUME + TASK_CANCEL + TASK_COMPLETE + USER_PROMPT + TOOL_FIXTURES


@pytest.mark.parametrize("case", params(ALL))
async def test_cline_event_suite(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)
