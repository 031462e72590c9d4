"""Several hooks for one event: how they run together and how their answers combine.

``cline-hooks.md`` §Hook Execution / §Result Combination: all hooks run concurrently
(``Promise.all``), order not guaranteed; cancel if ANY hook cancels; contexts joined with
``\\n\\n``; errorMessages with ``\\n``. ``cline-implementation.md`` §5: texts trimmed and
empties dropped, a single hook's answer passed as it is; the join order is the folder
order. §6: which events a cancel affects (TaskCancel, TaskComplete and Notification
ignore it). ``cline-hooks-design.md`` §Classes: CombinedHookRunner records the slowest hook;
§User Experience: tell the user when hooks are slow, and which one was slowest.
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance.cline._cline import (
    DOC,
    GLOBAL,
    HOOKS,
    HOOKS2,
    NOTES,
    PAYLOAD_FOR,
    SH,
    Case,
    Has,
    Places,
    answer,
    cancels,
    context_of,
    params,
    run,
    write,
)
from hookd.daemon.dialects.cline import dialect as cline
from hookd_testing import Gate, RpcClient

S5 = f"{NOTES} §5"
THREE = ("{ws}", "{ws2}")

COMBINE_CASES = [
    Case(
        id="any-cancel-blocks",
        rule=f"{DOC} §Result Combination: if ANY hook returns cancel true, execution is "
        "blocked (here the middle one of three).",
        files=(
            (f"{GLOBAL}/PreToolUse", context_of("g")),
            (f"{HOOKS}/PreToolUse", cancels("ws blocks")),
            (f"{HOOKS2}/PreToolUse", answer({"cancel": False})),
        ),
        roots=THREE,
        expect={
            "blocked": True,
            "decision": "deny",
            "reason": "ws blocks",
            "context": "g",
            "native": {"cancel": True, "errorMessage": "ws blocks", "contextModification": "g"},
        },
        hooks=({"blocked": False}, {"blocked": True}, {"blocked": False}),
    ),
    Case(
        id="all-allow-proceeds",
        rule=f"{DOC} §Hook Execution: if ALL hooks allow (cancel false), the tool proceeds.",
        files=(
            (f"{GLOBAL}/PreToolUse", answer({"cancel": False})),
            (f"{HOOKS}/PreToolUse", answer({})),
        ),
        expect={"blocked": False, "decision": None},
    ),
    Case(
        id="contexts-blank-line-trimmed",
        rule=f"{DOC} §Result Combination: contexts concatenated with \\n\\n; {S5}: each "
        "trimmed, empty ones dropped.",
        files=(
            (f"{GLOBAL}/PreToolUse", context_of("  first  \n")),
            (f"{HOOKS}/PreToolUse", context_of("   ")),
            (f"{HOOKS2}/PreToolUse", context_of("\nsecond")),
        ),
        roots=THREE,
        expect={"context": "first\n\nsecond", "native": {"contextModification": "first\n\nsecond"}},
    ),
    Case(
        id="errors-single-newline-trimmed",
        rule=f"{DOC} §Result Combination: error messages concatenated with \\n; {S5}: trimmed, "
        "empty ones dropped.",
        files=(
            (f"{GLOBAL}/PreToolUse", cancels("  e1 ")),
            (f"{HOOKS}/PreToolUse", cancels("")),
            (f"{HOOKS2}/PreToolUse", cancels("e2\n")),
        ),
        roots=THREE,
        expect={"blocked": True, "reason": "e1\ne2", "native": {"errorMessage": "e1\ne2"}},
    ),
    Case(
        id="errors-of-allowing-hooks-joined-too",
        rule=f"{S5}: errorMessage joins every hook's message, a non-cancelling hook's too.",
        files=(
            (f"{GLOBAL}/PreToolUse", answer({"cancel": False, "errorMessage": "note"})),
            (f"{HOOKS}/PreToolUse", cancels("stop")),
        ),
        expect={"blocked": True, "reason": "note\nstop"},
    ),
    Case(
        id="single-hook-verbatim",
        rule=f"{S5}: a single hook's answer is returned as it is, not trimmed.",
        files=(
            (
                f"{HOOKS}/PreToolUse",
                answer(
                    {"cancel": True, "contextModification": "  padded\n", "errorMessage": " e "}
                ),
            ),
        ),
        expect={
            "context": "  padded\n",
            "reason": " e ",
            "native": {"contextModification": "  padded\n", "errorMessage": " e "},
        },
    ),
    Case(
        id="context-kept-when-another-cancels",
        rule=f"{S5}, {NOTES} §8.1 #22: context of non-cancelling hooks is kept when another "
        "hook cancels.",
        files=(
            (f"{GLOBAL}/PreToolUse", context_of("Global allows")),
            (f"{HOOKS}/PreToolUse", cancels("Workspace blocks", "ws context")),
        ),
        expect={"blocked": True, "context": "Global allows\n\nws context"},
    ),
]


@pytest.mark.parametrize("case", params(COMBINE_CASES))
async def test_combination(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)


CANCEL_EFFECT = {
    event: event not in {"TaskCancel", "TaskComplete", "Notification"} for event in cline.EVENTS
}


@pytest.mark.parametrize("event", cline.EVENTS)
async def test_which_events_a_cancel_blocks(event: str, rpc, places: Places) -> None:
    """cline-implementation.md §6: cancel true cancels the task on TaskStart, TaskResume,
    UserPromptSubmit, PreToolUse, PostToolUse and PreCompact; TaskCancel ("NOT
    cancellable", cline-hooks.md §TaskCancel), TaskComplete and Notification ignore it.
    hookd: ``blocked`` false there, the hook's error says the cancel was ignored, and
    its errorMessage and context are still returned."""
    write(places, f"{HOOKS}/{event}", cancels("hook says stop", "ctx"))

    result = await rpc.fire("cline", event, [str(places.ws)], PAYLOAD_FOR[event]())

    blocks = CANCEL_EFFECT[event]
    assert result["blocked"] is blocks
    assert result["native"] == {
        "cancel": blocks,
        "contextModification": "ctx",
        "errorMessage": "hook says stop",
    }
    assert result["reason"] == "hook says stop"
    (hook,) = result["hooks"]
    assert hook["blocked"] is blocks
    if blocks:
        assert hook["error"] is None
    else:
        assert hook["error"] == f"{event} cannot be cancelled; the hook's cancel was ignored"


async def test_hooks_run_concurrently_and_join_in_folder_order(rpc, places: Places) -> None:
    """cline-hooks.md §Hook Execution: hooks run concurrently (Promise.all); the order is
    not guaranteed. The first hook (global) waits until the second (workspace) has
    answered and opens its gate, which only works if both run at once; the contexts still
    join in folder order, not in finish order (hookd's combination is deterministic)."""
    gate = Gate(places.tmp / "gate")
    write(
        places,
        f"{GLOBAL}/PreToolUse",
        SH
        + f"cat >/dev/null\n{gate.wait_command}\n"
        + """echo '{"contextModification": "global"}'\n""",
    )
    write(
        places,
        f"{HOOKS}/PreToolUse",
        SH + """cat >/dev/null\necho '{"contextModification": "workspace"}'\n"""
        f"echo go > {gate.path}\n",
    )

    result = await rpc.fire(
        "cline", "PreToolUse", [str(places.ws)], PAYLOAD_FOR["PreToolUse"](), timeoutMs=20_000
    )

    assert [h["timedOut"] for h in result["hooks"]] == [False, False]
    assert result["context"] == "global\n\nworkspace"


async def test_a_cancel_does_not_stop_other_hooks(rpc, places: Places) -> None:
    """cline-hooks-design.md §Non-goals: in-progress hooks are not cancelled when one
    hook stops the action. The cancelling hook answers, then lets the other finish; both
    answers count."""
    gate = Gate(places.tmp / "gate")
    write(
        places,
        f"{GLOBAL}/PreToolUse",
        SH + """cat >/dev/null\necho '{"cancel": true, "errorMessage": "stop"}'\n"""
        f"echo go > {gate.path}\n",
    )
    write(
        places,
        f"{HOOKS}/PreToolUse",
        SH
        + f"cat >/dev/null\n{gate.wait_command}\n"
        + """echo '{"contextModification": "late"}'\n""",
    )

    result = await rpc.fire(
        "cline", "PreToolUse", [str(places.ws)], PAYLOAD_FOR["PreToolUse"](), timeoutMs=20_000
    )

    assert (result["blocked"], result["reason"], result["context"]) == (True, "stop", "late")
    assert [(h["exitCode"], h["timedOut"]) for h in result["hooks"]] == [(0, False), (0, False)]


async def collect_until(rpc: RpcClient, token: str, kind: str) -> None:
    """Read messages (keeping them for ``recv_response``) until progress ``kind`` arrives."""
    while not any(v["hookd"]["type"] == kind for v in rpc.progress(token)):
        message: dict[str, Any] = await rpc.recv()
        if "method" in message:
            rpc.notifications.append(message)
        else:
            rpc.responses[message.get("id")] = message


async def test_slow_hook_notice_and_slowest_hook(rpc, places: Places) -> None:
    """cline-hooks-design.md §User Experience: when hooks run slowly, show that they are
    running; when done, show the slowest hook and its time (§Classes: CombinedHookRunner
    records the slowest). Cline itself has neither (cline-implementation.md §5). hookd:
    a hook/slow progress report past slowThresholdMs, and ``slowest`` in the result and
    the end report."""
    gate = Gate(places.tmp / "gate")
    write(places, f"{GLOBAL}/PreToolUse", answer({}))
    slow = write(places, f"{HOOKS}/PreToolUse", SH + f"cat >/dev/null\n{gate.wait_command}\n")
    fire_id = await rpc.start(
        "fire",
        {
            "agent": "cline",
            "event": "PreToolUse",
            "workspaceRoots": [str(places.ws)],
            "payload": PAYLOAD_FOR["PreToolUse"](),
            "workDoneToken": "w",
            "slowThresholdMs": 50,
            "timeoutMs": 20_000,
        },
    )

    await collect_until(rpc, "w", "hook/slow")
    await gate.open()
    result = (await rpc.recv_response(fire_id))["result"]

    (notice,) = [v for v in rpc.progress("w") if v["hookd"]["type"] == "hook/slow"]
    assert notice["hookd"]["source"] == str(slow)
    assert notice["message"] == Has("PreToolUse is slow")
    assert result["slowest"]["source"] == str(slow)
    assert result["slowest"]["durationMs"] == max(h["durationMs"] for h in result["hooks"])
    end = rpc.progress("w")[-1]
    assert (end["kind"], end["hookd"]["slowest"]["source"]) == ("end", str(slow))
    assert end["message"] == Has("slowest: PreToolUse")


async def test_task_cancel_fire_is_not_cancellable_in_progress(rpc, places: Places) -> None:
    """cline-hooks.md §TaskCancel: "This hook is NOT cancellable"; cline-implementation.md
    §6: no Abort button for TaskCancel (nor TaskComplete). LSP's begin report says whether
    the client should offer to cancel the work (`cancellable`)."""
    write(places, f"{HOOKS}/TaskCancel", answer({}))
    fire_id = await rpc.start(
        "fire",
        {
            "agent": "cline",
            "event": "TaskCancel",
            "workspaceRoots": [str(places.ws)],
            "payload": PAYLOAD_FOR["TaskCancel"](),
            "workDoneToken": "w",
        },
    )
    await rpc.recv_response(fire_id)

    begin = rpc.progress("w")[0]
    assert begin["kind"] == "begin"
    assert begin["cancellable"] is False


async def test_task_cancel_hook_completes_while_the_task_is_aborted(daemon, places: Places) -> None:
    """cline-hooks.md §TaskCancel: the hook "will complete even if the task is being
    aborted". The agent cancels its in-flight PreToolUse fire ($/cancelRequest) and fires
    TaskCancel: the PreToolUse hook is killed, the TaskCancel hook runs to its end."""
    gate = Gate(places.tmp / "gate")
    write(places, f"{HOOKS}/PreToolUse", SH + "cat >/dev/null\nsleep 30\n")
    write(
        places,
        f"{HOOKS}/TaskCancel",
        SH + f"cat >/dev/null\n{gate.wait_command}\necho cleaned > '{places.tmp}/cleanup'\n",
    )
    agent = await daemon.connect()
    try:
        roots = [str(places.ws)]
        tool = await agent.start(
            "fire",
            {
                "agent": "cline",
                "event": "PreToolUse",
                "workspaceRoots": roots,
                "payload": PAYLOAD_FOR["PreToolUse"](),
            },
        )
        cancel = await agent.start(
            "fire",
            {
                "agent": "cline",
                "event": "TaskCancel",
                "workspaceRoots": roots,
                "payload": PAYLOAD_FOR["TaskCancel"](),
            },
        )
        await agent.send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": tool}})
        assert (await agent.recv_response(tool))["error"]["code"] == -32800
        await gate.open()
        result = (await agent.recv_response(cancel))["result"]
    finally:
        await agent.aclose()

    assert result["hooks"][0]["exitCode"] == 0
    assert (places.tmp / "cleanup").read_text() == "cleaned\n"
