"""Where Cline's code, tests and docs disagree (``cline-implementation.md`` §9), and hookd's
choice for each; also where hookd deliberately does better than Cline's legacy runner.

hookd follows the documentation where the code contradicts it, and never copies a bug
that loses information: a failing hook cannot cost another hook's cancel, and a timeout
takes the whole process tree. Each case pins the choice; the Cline section of ``docs/compatibility.md``
lists them under "Deliberate differences". Choices pinned in other modules:
§9.3 concurrency (``test_combination::test_hooks_run_concurrently_and_join_in_folder_order``),
§9.5 separators (``test_combination::contexts-blank-line-trimmed``), §9.6 shouldContinue
(``test_output::should-continue-false``), §9.8 the cache gap
(``test_discovery::created-after-first-fire``), §9.10 TaskCancel's errorMessage
(``test_combination::test_which_events_a_cancel_blocks``).
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance.cline._cline import (
    DOC,
    GLOBAL,
    HOOKS,
    NOTES,
    SH,
    Case,
    Fire,
    Has,
    Places,
    answer,
    cancels,
    context_of,
    params,
    prints,
    prompt,
    run,
    task_start,
    write,
)
from hookd_testing import kill_leftovers, process_gone, read_pids, wait_until

S9 = f"{NOTES} §9"
PIDS = "'{tmp}/pids'"
HANGS = SH + f"cat >/dev/null\necho $$ >> {PIDS}\nsleep 60 &\necho $! >> {PIDS}\nwait\n"
IGNORES_TERM = (
    SH + f"trap '' TERM\ncat >/dev/null\necho $$ >> {PIDS}\n"
    f"sleep 60 &\necho $! >> {PIDS}\nwhile :; do wait; done\n"
)
FLOODS = (
    SH + "cat >/dev/null\nyes 'debug line padding padding padding padding' | head -n 30000\n"
    """echo '{"cancel": true, "errorMessage": "past the cap"}'\n"""
)
"""About 1.4 MB of debug lines, then the JSON."""


def all_gone(places: Places) -> bool:
    pids = read_pids(places.tmp / "pids")
    return len(pids) == 2 and all(process_gone(pid) for pid in pids)


def global_folder_absent(result: dict[str, Any], places: Places) -> bool:
    return not (places.home / "Documents").exists()


CASES = [
    Case(
        id="9.1-non-zero-exit-with-json-ignored",
        rule=f"{S9}.1: Cline's runner treats any non-zero exit as a failure (fail open) even "
        "with valid JSON; its own comment and docs say the JSON is honoured regardless of "
        "the exit code. cline 2.18.0 fails open (tests/agents/cline::pre-exit2-cancel): so "
        "does hookd by default; cline_failure_policy = 'strict' follows the docs "
        "(tests/daemon/dialects/test_cline.py::test_strict_failure_policy_honours_json_on_any_exit).",
        files=(
            (f"{HOOKS}/PreToolUse", answer({"cancel": True, "errorMessage": "stop"}, exit_code=2)),
        ),
        expect={"blocked": False, "reason": None},
        hooks=({"exitCode": 2, "error": Has("exited with code 2", "ignored"), "blocked": False},),
    ),
    Case(
        id="9.1-killed-after-answering",
        rule=f"{S9}.1: the same for a hook that answered and was then killed by a signal "
        "(tests/agents/cline::pre-killed).",
        files=(
            (
                f"{HOOKS}/PreToolUse",
                SH + """cat >/dev/null\necho '{"cancel": true, "errorMessage": "stop"}'\n"""
                "kill -KILL $$\n",
            ),
        ),
        expect={"blocked": False},
        hooks=({"exitCode": -9, "blocked": False, "error": Has("SIGKILL", "ignored")},),
    ),
    Case(
        id="9.2-crash-loses-other-cancel",
        rule=f"{S9}.2, §8.5 #11: Cline's Promise.all rejects when one hook fails, so another "
        "hook's cancel is lost (fail open); cline 2.18.0 does so (tests/agents/cline::"
        "one-fails-other-cancels) and so does hookd by default, with a warning; "
        "cline_failure_policy = 'strict' keeps the cancel (tests/daemon/dialects/"
        "test_cline.py).",
        files=(
            (f"{GLOBAL}/PreToolUse", prints("", exit_code=1, stderr="boom")),
            (f"{HOOKS}/PreToolUse", cancels("kept", "ctx")),
        ),
        expect={
            "blocked": False,
            "reason": None,
            "context": None,
            "native": {"cancel": False, "errorMessage": "", "contextModification": ""},
            "warnings": [Has("no hook's answer counts")],
        },
        hooks=({"error": "PreToolUse hook exited with code 1: boom"}, {"blocked": True}),
    ),
    Case(
        id="9.2-timeout-loses-other-cancel",
        rule=f"{S9}.2/§9.4: a hook that times out rejects Promise.all like a crash: the other "
        "hooks' answers are lost (the agent's default policy).",
        files=((f"{GLOBAL}/PreToolUse", HANGS), (f"{HOOKS}/PreToolUse", cancels("kept"))),
        fires=(Fire(params={"timeoutMs": 300}),),
        expect={"blocked": False, "reason": None},
        hooks=({"timedOut": True, "error": Has("timed out")}, {"timedOut": False}),
    ),
    Case(
        id="9.2-invalid-output-keeps-other-cancel",
        rule=f"{S9}.2/§9.6: an output voided by validation does not void the others'.",
        files=(
            (f"{GLOBAL}/PreToolUse", answer({"shouldContinue": False})),
            (f"{HOOKS}/PreToolUse", cancels("kept")),
        ),
        expect={"blocked": True, "reason": "kept"},
        hooks=({"error": Has("shouldContinue")}, {"blocked": True}),
    ),
    Case(
        id="9.4-timeout-term-ignored-still-killed",
        rule=f"{S9}.4: Cline sends SIGTERM to the direct child only, with no SIGKILL, so a "
        "hook ignoring SIGTERM keeps running after the timeout. hookd sends SIGTERM to the "
        "process group, then SIGKILL after a grace: the hook and its child are gone.",
        files=((f"{HOOKS}/PreToolUse", IGNORES_TERM),),
        fires=(Fire(params={"timeoutMs": 300}),),
        expect={"blocked": False},
        hooks=({"timedOut": True, "error": Has("timed out", "process group was killed")},),
    ),
    Case(
        id="9.9-xdg-documents-read",
        rule=f"{S9}.9: Cline's discovery asks xdg-user-dir for the Documents folder, its UI "
        "and the docs use ~/Documents. cline 2.18.0 reads $(xdg-user-dir DOCUMENTS)/Cline/"
        "Hooks (tests/agents/cline::xdg-documents-dir); so does hookd.",
        files=(
            ("{home}/.config/user-dirs.dirs", 'XDG_DOCUMENTS_DIR="$HOME/Docs"\n', 0o644),
            ("{home}/Docs/Cline/Hooks/PreToolUse", cancels("xdg")),
            ("{home}/Documents/Cline/Hooks/PreToolUse", context_of("documents")),
        ),
        expect={"blocked": True, "reason": "xdg", "context": None},
        hooks=({"source": "{home}/Docs/Cline/Hooks/PreToolUse"},),
        needs=("xdg-user-dir",),
    ),
    Case(
        id="global-folder-not-created",
        rule=f"{DOC} §Setting Up Global Hooks: the global folder is created automatically "
        f"(by Cline: mkdir -p on every lookup, {NOTES} §1A). hookd only reads: it never "
        "creates folders in the user's home.",
        files=((f"{HOOKS}/PreToolUse", answer({})),),
        hooks=({"error": None},),
        check=global_folder_absent,
    ),
    Case(
        id="9.12-task-start-context-returned",
        rule=f"{S9}.12, §10 #2: Cline 4.x discards TaskStart/UserPromptSubmit context (a bug, "
        "issue #13554); the docs and Cline 3.x inject it. hookd returns it.",
        files=((f"{HOOKS}/TaskStart", context_of("TASK_START: go")),),
        fires=(Fire("TaskStart", task_start()),),
        expect={"context": "TASK_START: go"},
    ),
    Case(
        id="9.12-prompt-context-returned",
        rule=f"{S9}.12: the same for UserPromptSubmit.",
        files=((f"{HOOKS}/UserPromptSubmit", context_of("PROMPT: ctx")),),
        fires=(Fire("UserPromptSubmit", prompt()),),
        expect={"context": "PROMPT: ctx"},
    ),
    Case(
        id="json-past-output-cap-is-reported",
        rule=f"{NOTES} §2A: Cline caps only the streamed lines at 1 MB and parses all of "
        "stdout. hookd keeps the first 1 MiB of each stream (stdoutTruncated): a JSON after "
        "that is lost, and the hook's error says why instead of allowing in silence.",
        files=((f"{HOOKS}/PreToolUse", FLOODS),),
        expect={"blocked": False},
        hooks=({"stdoutTruncated": True, "exitCode": 0, "error": Has("output cap")},),
    ),
]


@pytest.mark.parametrize("case", params(CASES))
async def test_choice(case: Case, rpc, places: Places) -> None:
    try:
        await run(case, rpc, places)
        if (places.tmp / "pids").exists():
            await wait_until(lambda: all_gone(places))
    finally:
        kill_leftovers(read_pids(places.tmp / "pids"))


async def test_background_child_holding_stdout_does_not_hang_the_fire(rpc, places: Places) -> None:
    """cline-implementation.md §2A: Cline waits for the 'close' event, i.e. for every
    holder of the hook's stdout, so a hook that leaves a background child attached to its
    output hangs until the 30 s timeout and then fails open. hookd's hook is done when its
    main process exits (plus a short drain): the answer counts and the error names the
    background process."""
    write(
        places,
        f"{HOOKS}/PreToolUse",
        SH + f"cat >/dev/null\nsleep 60 &\necho $! >> {PIDS}\n"
        """echo '{"cancel": true, "errorMessage": "answered"}'\n""",
    )
    try:
        result = await rpc.fire("cline", "PreToolUse", [str(places.ws)], {"taskId": "t"})

        assert (result["blocked"], result["reason"]) == (True, "answered")
        (hook,) = result["hooks"]
        assert (hook["exitCode"], hook["timedOut"]) == (0, False)
        assert hook["error"] == Has("background process kept the hook's output pipes open")
        assert hook["durationMs"] < 10_000
    finally:
        kill_leftovers(read_pids(places.tmp / "pids"))


async def test_no_op_answer_still_reports_the_hook_finished(rpc, places: Places) -> None:
    """cline-implementation.md §9.7: in Cline 3.x a hook answering exactly {"cancel":
    false} leaves its status stuck on "Running" (an early return, issue #9337). hookd
    reports every hook's end in progress and in the result, whatever it answered."""
    write(places, f"{HOOKS}/PreToolUse", answer({"cancel": False}))

    fire_id = await rpc.start(
        "fire",
        {
            "agent": "cline",
            "event": "PreToolUse",
            "workspaceRoots": [str(places.ws)],
            "payload": {"taskId": "t"},
            "workDoneToken": "w",
        },
    )
    result = (await rpc.recv_response(fire_id))["result"]

    kinds = [value["hookd"]["type"] for value in rpc.progress("w")]
    assert kinds == ["fire/begin", "hook/started", "hook/finished", "fire/end"]
    finished = rpc.progress("w")[2]["hookd"]
    assert (finished["exitCode"], finished["error"]) == (0, None)
    assert result["hooks"][0]["exitCode"] == 0
