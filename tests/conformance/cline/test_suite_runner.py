"""Cline's own runner tests, rewritten as hookd cases (``cline-implementation.md`` §8.1,
§8.10 and §8.15).

Each case id starts with the inventory number (``8.1-3`` is test 3 of §8.1). Cline's tests
call its runner directly with node hook scripts; here the hooks are small shell/jq
scripts fired through the real daemon, and the assertion is on the fire result. Where
Cline's runner throws (a failing hook), hookd reports the failure on the hook's entry and
fails open, which is what Cline's callers do with the exception.

Not rewritten: §8.1 #10-#12 and §8.7 #1, #3-#7 (Windows and PowerShell launching: hookd
runs on Unix; #13, .ps1 ignored on Unix, is kept); §8.10 "isDirectory rejects
Permission denied" (the suite runs as root, where no folder is unreadable) and the
readDirectory exclusion (Cline's Rules feature, not hooks); §8.11 (UI management) and
§8.12-§8.14 (the SDK: ``tests/conformance/cline_sdk/``). §8.7 #2 (Unix launch) is
``test_execution::test_hook_leads_its_own_process_group``, §8.8 (hooksEnabled) is
``test_switches``, §8.9 (shell escaping) is ``test_execution::path-*``.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from conformance.cline._cline import (
    GLOBAL,
    HOOKS,
    HOOKS2,
    NOTES,
    NOTHING,
    SH,
    Case,
    Fire,
    Has,
    Places,
    answer,
    base,
    cancels,
    context_of,
    jq_context,
    params,
    post_tool,
    pre_tool,
    prints,
    prompt,
    run,
    write,
)
from hookd_testing import Gate, process_gone, read_pids, wait_until

S81 = f"{NOTES} §8.1 hook-factory.test.ts"
S810 = f"{NOTES} §8.10 disk.test.ts"
S815 = f"{NOTES} §8.15"
JQ = ("jq",)
MARKER = "\n\n[... context truncated due to size limit ...]"
NO_HOOK = {**NOTHING, "hooks": [], "warnings": []}
FAILED = {**NOTHING, "hooks": [{"error": Has("exited with code 1")}]}


def cwd_is(root: str):
    def check(result: dict[str, Any], places: Places) -> bool:
        return result["context"] == "CWD: " + os.path.realpath(places.fill(root))

    return check


CWD_HOOK = SH + 'cat >/dev/null\nprintf \'{"contextModification": "CWD: %s"}\' "$(pwd -P)"\n'
ALL_FIELDS = (
    "if (.clineVersion and .hookName and .timestamp and .taskId and .workspaceRoots != null "
    'and .model.provider == "openai" and .model.slug == "gpt-5") '
    'then "All fields present" else "Missing fields" end'
)

RUNNER_CASES = [
    Case(
        id="8.1-1-no-hook-noop",
        rule=f"{S81} #1: no hook found: the NoOp runner answers cancel false, no context, "
        "and runs nothing.",
        expect=NO_HOOK,
    ),
    Case(
        id="8.1-2-workspace-hook-cwd",
        rule=f"{S81} #2: a workspace hook runs in its workspace root.",
        files=((f"{HOOKS}/PreToolUse", CWD_HOOK),),
        check=cwd_is("{ws}"),
    ),
    Case(
        id="8.1-3-parse-output",
        rule=f"{S81} #3: the hook's contextModification is returned exactly.",
        files=((f"{HOOKS}/PreToolUse", context_of("TEST_CONTEXT: Added by hook")),),
        expect={"blocked": False, "context": "TEST_CONTEXT: Added by hook"},
    ),
    Case(
        id="8.1-4-blocks",
        rule=f"{S81} #4: cancel true blocks; errorMessage exact.",
        files=((f"{HOOKS}/PreToolUse", cancels("Hook blocked execution")),),
        expect={
            "blocked": True,
            "reason": "Hook blocked execution",
            "native": {"cancel": True, "errorMessage": "Hook blocked execution"},
        },
    ),
    Case(
        id="8.1-5-truncate-60000",
        rule=f"{S81} #5: a 60,000-character context is truncated (under 60,000 + marker: "
        "exactly 50,000 characters and `[... context truncated due to size limit ...]`).",
        files=(
            (
                f"{HOOKS}/PreToolUse",
                SH + 'cat >/dev/null\nprintf \'{"contextModification": "\'\n'
                "yes x | head -n 60000 | tr -d '\\n'\nprintf '\"}'\n",
            ),
        ),
        expect={"context": "x" * 50_000 + MARKER},
    ),
    Case(
        id="8.1-6-script-error",
        rule=f"{S81} #6: exit 1 with no output is an error 'exited with code 1' (thrown in "
        "Cline, reported per hook in hookd); nothing is blocked.",
        files=((f"{HOOKS}/PreToolUse", prints("", exit_code=1)),),
        expect=FAILED,
    ),
    Case(
        id="8.1-7-malformed-json",
        rule=f"{S81} #7: 'not valid json' with exit 0 is cancel false, no context.",
        files=((f"{HOOKS}/PreToolUse", prints("not valid json\n")),),
        expect=NOTHING,
    ),
    Case(
        id="8.1-8-stdin-tool-name",
        rule=f"{S81} #8: the hook input reaches the hook on stdin (preToolUse.toolName).",
        files=((f"{HOOKS}/PreToolUse", jq_context('"Received tool: " + .preToolUse.toolName')),),
        fires=(Fire(payload=pre_tool("my_test_tool")),),
        expect={"context": "Received tool: my_test_tool"},
        needs=JQ,
    ),
    Case(
        id="8.1-9-post-tool-use-result",
        rule=f"{S81} #9: PostToolUse receives the execution results (success true).",
        files=((f"{HOOKS}/PostToolUse", jq_context('"Tool succeeded: \\(.postToolUse.success)"')),),
        fires=(Fire("PostToolUse", post_tool(result="success", executionTimeMs=100)),),
        expect={"context": "Tool succeeded: true"},
        needs=JQ,
    ),
    Case(
        id="8.1-13-ps1-ignored-on-unix",
        rule=f"{S81} #13: PreToolUse.ps1 alone is no hook on Unix.",
        files=((f"{HOOKS}/PreToolUse.ps1", answer({"cancel": True})),),
        expect=NO_HOOK,
    ),
    Case(
        id="8.1-14-executable-found",
        rule=f"{S81} #14: a 0755 file is found and run.",
        files=((f"{HOOKS}/PreToolUse", answer({"cancel": False}), 0o755),),
        expect=NOTHING,
        hooks=({"exitCode": 0, "error": None},),
    ),
    Case(
        id="8.1-15-non-executable-not-found",
        rule=f"{S81} #15: the same file 0644 is not found: NoOp.",
        files=((f"{HOOKS}/PreToolUse", answer({"cancel": True}), 0o644),),
        expect=NO_HOOK,
    ),
    Case(
        id="8.1-16-17-missing-hooks-silent",
        rule=f"{S81} #16/#17: no hooks folder at all (ENOENT) is handled silently.",
        roots=("{ws2}",),
        expect=NO_HOOK,
    ),
    Case(
        id="8.1-16-17-missing-root-warned",
        rule=f"{S81} #16/#17 (hookd): a workspace root that does not exist gives no hooks and "
        "no error either, but a warning: a typo would otherwise run nothing unsaid.",
        roots=("{tmp}/no-such-root",),
        expect={
            **NO_HOOK,
            "warnings": [
                "workspace root {tmp}/no-such-root is not an existing folder: no hooks from it ran "
                "(a typo, or a folder deleted under the agent?)"
            ],
        },
    ),
    Case(
        id="8.1-18-all-fields",
        rule=f"{S81} #18: clineVersion, hookName, timestamp, taskId, workspaceRoots and the "
        "model (provider, slug) all reach the hook.",
        files=((f"{HOOKS}/PreToolUse", jq_context(ALL_FIELDS)),),
        fires=(
            Fire(
                payload={**pre_tool(key="value"), "model": {"provider": "openai", "slug": "gpt-5"}}
            ),
        ),
        expect={"context": "All fields present"},
        needs=JQ,
    ),
    Case(
        id="8.1-19-global-and-workspace",
        rule=f"{S81} #19: both the global and the workspace hook run; both contexts kept.",
        files=(
            (f"{GLOBAL}/PreToolUse", context_of("GLOBAL: Context added")),
            (f"{HOOKS}/PreToolUse", context_of("WORKSPACE: Context added")),
        ),
        expect={"blocked": False, "context": "GLOBAL: Context added\n\nWORKSPACE: Context added"},
    ),
    Case(
        id="8.1-20-global-blocks",
        rule=f"{S81} #20: the global hook's cancel blocks although the workspace allows.",
        files=(
            (f"{GLOBAL}/PreToolUse", cancels("Global policy violation")),
            (f"{HOOKS}/PreToolUse", answer({"cancel": False})),
        ),
        expect={"blocked": True, "reason": "Global policy violation"},
    ),
    Case(
        id="8.1-21-only-global",
        rule=f"{S81} #21: with only a global hook its context is returned exactly.",
        files=((f"{GLOBAL}/PreToolUse", context_of("Global hook only")),),
        expect={"context": "Global hook only"},
    ),
    Case(
        id="8.1-22-workspace-blocks-global-context-kept",
        rule=f"{S81} #22: the workspace cancel blocks; the global hook's context is kept.",
        files=(
            (f"{GLOBAL}/PreToolUse", context_of("Global allows")),
            (f"{HOOKS}/PreToolUse", cancels("Workspace blocks")),
        ),
        expect={"blocked": True, "reason": "Workspace blocks", "context": "Global allows"},
    ),
    Case(
        id="8.1-23-errors-combined",
        rule=f"{S81} #23: both cancel; the error messages are joined with a newline.",
        files=(
            (f"{GLOBAL}/PreToolUse", cancels("Global error")),
            (f"{HOOKS}/PreToolUse", cancels("Workspace error")),
        ),
        expect={"blocked": True, "reason": "Global error\nWorkspace error"},
    ),
    Case(
        id="8.1-24-global-hook-cwd",
        rule=f"{S81} #24: a global hook runs in the primary workspace root.",
        files=((f"{GLOBAL}/PreToolUse", CWD_HOOK),),
        roots=("{ws}", "{ws2}"),
        check=cwd_is("{ws}"),
    ),
    Case(
        id="8.1-25-global-post-tool-use",
        rule=f"{S81} #25: global PostToolUse hooks work (they see success).",
        files=(
            (f"{GLOBAL}/PostToolUse", jq_context('"Global observed: \\(.postToolUse.success)"')),
        ),
        fires=(Fire("PostToolUse"),),
        expect={"context": "Global observed: true"},
        needs=JQ,
    ),
]

DISK_CASES = [
    Case(
        id="8.10-no-roots",
        rule=f"{S810} getWorkspaceHooksDirs: no roots (or an empty list) gives no workspace "
        "folder: a root's hook is not found without the root.",
        files=((f"{HOOKS}/PreToolUse", answer({"cancel": True})),),
        roots=(),
        expect=NO_HOOK,
    ),
    Case(
        id="8.10-root-without-folder",
        rule=f"{S810}: a root without .clinerules/hooks gives nothing.",
        files=(("{ws}/.clinerules/rules.md", "# rules\n", 0o644),),
        expect=NO_HOOK,
    ),
    Case(
        id="8.10-existing-folder",
        rule=f"{S810}: an existing folder is used; it ends in .clinerules/hooks.",
        files=((f"{HOOKS}/PreToolUse", answer({"cancel": True})),),
        expect={"blocked": True},
        hooks=({"source": Has("/.clinerules/hooks/PreToolUse")},),
    ),
    Case(
        id="8.10-hooks-is-a-file",
        rule=f"{S810}: `hooks` as a file gives nothing.",
        files=(("{ws}/.clinerules/hooks", "#!/bin/sh\n"),),
        expect=NO_HOOK,
    ),
    Case(
        id="8.10-multi-root",
        rule=f"{S810}: multi-root gives both folders.",
        files=(
            (f"{HOOKS}/PreToolUse", context_of("one")),
            (f"{HOOKS2}/PreToolUse", context_of("two")),
        ),
        roots=("{ws}", "{ws2}"),
        expect={"context": "one\n\ntwo"},
    ),
    Case(
        id="8.10-three-roots-first-and-third",
        rule=f"{S810}: of three roots only the first and third have folders: exactly those "
        "two, in root order.",
        files=(
            (f"{HOOKS}/PreToolUse", context_of("one")),
            ("{tmp}/three/.clinerules/hooks/PreToolUse", context_of("three")),
        ),
        roots=("{ws}", "{ws2}", "{tmp}/three"),
        expect={"context": "one\n\nthree"},
        hooks=(
            {"source": f"{HOOKS}/PreToolUse"},
            {"source": "{tmp}/three/.clinerules/hooks/PreToolUse"},
        ),
    ),
    Case(
        id="8.10-trailing-separator",
        rule=f"{S810}: a root with a trailing separator still gives root/.clinerules/hooks.",
        files=((f"{HOOKS}/PreToolUse", answer({"cancel": True})),),
        roots=("{ws}/",),
        hooks=({"source": f"{HOOKS}/PreToolUse"},),
    ),
    Case(
        id="8.10-runtime-dir-included",
        rule=f"{S810} getAllHooksDirs: the runtime hooks dir is included when it exists.",
        files=(("{tmp}/runtime/PreToolUse", context_of("runtime")),),
        fires=(Fire(params={"hooksDirs": ["{tmp}/runtime"]}),),
        expect={"context": "runtime"},
        hooks=({"layer": "hooks-dir"},),
    ),
    Case(
        id="8.10-runtime-dir-excluded",
        rule=f"{S810} getAllHooksDirs: it is left out when it does not exist.",
        fires=(Fire(params={"hooksDirs": ["{tmp}/runtime"]}),),
        expect=NO_HOOK,
    ),
]

EXECUTE_CASES = [
    Case(
        id="8.15-no-hook",
        rule=f"{S815} executeHook: no hook returns exactly 'not cancelled', nothing else.",
        fires=(Fire("TaskStart"),),
        expect=NO_HOOK,
    ),
    Case(
        id="8.15-success-with-context",
        rule=f"{S815}: a successful hook gives cancel false and its context.",
        files=((f"{HOOKS}/TaskStart", context_of("started")),),
        fires=(Fire("TaskStart"),),
        expect={"blocked": False, "context": "started"},
    ),
    Case(
        id="8.15-hook-cancel",
        rule=f"{S815}: a hook cancel ({{cancel, ctx 'Cancelling task', error 'Task cancelled "
        "by hook'}}) returns cancel true with both fields.",
        files=((f"{HOOKS}/TaskStart", cancels("Task cancelled by hook", "Cancelling task")),),
        fires=(Fire("TaskStart"),),
        expect={"blocked": True, "reason": "Task cancelled by hook", "context": "Cancelling task"},
    ),
    Case(
        id="8.15-exit-1-does-not-throw",
        rule=f"{S815}: exit 1 does not throw and does not cancel; the failure is recorded.",
        files=((f"{HOOKS}/UserPromptSubmit", prints("", exit_code=1)),),
        fires=(Fire("UserPromptSubmit"),),
        expect=FAILED,
    ),
    Case(
        id="8.15-notification-context",
        rule=f"{S815}: a Notification hook's context 'Notification received' is returned.",
        files=((f"{HOOKS}/Notification", context_of("Notification received")),),
        fires=(Fire("Notification"),),
        expect={"context": "Notification received"},
    ),
    Case(
        id="8.15-notification-hook-fails-open",
        rule=f"{S815} notification-hook.test: a Notification hook that fails fails open.",
        files=((f"{HOOKS}/Notification", prints("", exit_code=1)),),
        fires=(Fire("Notification"),),
        expect=FAILED,
    ),
    Case(
        id="8.15-empty-context",
        rule=f'{S815}: an empty context is "" or undefined.',
        files=((f"{HOOKS}/TaskResume", context_of("")),),
        fires=(Fire("TaskResume"),),
        expect={"context": None, "native": {"contextModification": ""}},
    ),
    Case(
        id="8.15-missing-optional-field",
        rule=f"{S815}: a payload without an optional field (no attachments) is fine.",
        files=(
            (
                f"{HOOKS}/UserPromptSubmit",
                jq_context('"attachments: \\(.userPromptSubmit.attachments // "none")"'),
            ),
        ),
        fires=(Fire("UserPromptSubmit", base(userPromptSubmit={"prompt": "hi"})),),
        expect={"context": "attachments: none"},
        needs=JQ,
    ),
    Case(
        id="8.15-failed-tool-post-hook",
        rule=f"{S815} tool-executor-hooks.test: PostToolUse runs for a failed tool and sees "
        "its failure and metrics.",
        files=(
            (
                f"{HOOKS}/PostToolUse",
                jq_context(
                    '"\\(.postToolUse.toolName) failed: \\(.postToolUse.success) '
                    'after \\(.postToolUse.executionTimeMs) ms"'
                ),
            ),
        ),
        fires=(
            Fire(
                "PostToolUse",
                post_tool("execute_command", success=False, executionTimeMs=42, result="exit 2"),
            ),
        ),
        expect={"context": "execute_command failed: false after 42 ms"},
        needs=JQ,
    ),
    Case(
        id="8.15-prompt-runs",
        rule=f"{S815}: TaskResume, UserPromptSubmit and TaskCancel hooks run.",
        files=((f"{HOOKS}/UserPromptSubmit", context_of("ran")),),
        fires=(Fire("UserPromptSubmit", prompt("feedback")),),
        expect={"context": "ran"},
    ),
]


@pytest.mark.parametrize("case", params(RUNNER_CASES + DISK_CASES + EXECUTE_CASES))
async def test_cline_runner_suite(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)


async def test_8_15_hook_status_reported(rpc, places: Places) -> None:
    """cline-implementation.md §8.15: executeHook says "hook_status" running, then updates
    it to completed. hookd: progress reports hook/started, then hook/finished (exit 0)."""
    write(places, f"{HOOKS}/PreToolUse", context_of("ok"))

    fire_id = await rpc.start(
        "fire",
        {
            "agent": "cline",
            "event": "PreToolUse",
            "workspaceRoots": [str(places.ws)],
            "payload": pre_tool(),
            "workDoneToken": "w",
        },
    )
    await rpc.recv_response(fire_id)

    reports = [v["hookd"] for v in rpc.progress("w") if v["kind"] == "report"]
    assert [r["type"] for r in reports] == ["hook/started", "hook/finished"]
    assert reports[1]["exitCode"] == 0


async def test_8_15_user_abort_kills_the_hook(rpc, places: Places) -> None:
    """cline-implementation.md §8.15: a running hook aborted by the user (AbortSignal)
    ends at once as cancelled. hookd: $/cancelRequest answers -32800 and the hook's
    process is gone."""
    gate = Gate(places.tmp / "gate")
    write(
        places,
        f"{HOOKS}/PreToolUse",
        SH + f"cat >/dev/null\necho $$ > '{places.tmp}/pids'\n{gate.wait_command}\n",
    )

    fire_id = await rpc.start(
        "fire",
        {
            "agent": "cline",
            "event": "PreToolUse",
            "workspaceRoots": [str(places.ws)],
            "payload": {},
        },
    )
    await wait_until(lambda: len(read_pids(places.tmp / "pids")) == 1)
    await rpc.send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": fire_id}})

    assert (await rpc.recv_response(fire_id))["error"]["code"] == -32800
    await wait_until(lambda: process_gone(read_pids(places.tmp / "pids")[0]))
