"""How the SDK runs several hooks for one event, and how long it lets each run.

``cline-implementation.md`` §2C: tool_call and tool_result hooks run one after another in
sorted path order (an ``await`` in a ``for`` loop), each with ``toolCallTimeoutMs ?? 120000``
and SIGKILL; the lifecycle events' hooks are started together (detached, or awaited with
``Promise.all``). PreToolUse sequencing and TaskStart concurrency are pinned in
``tests/daemon/dialects/test_cline_sdk.py``; the other events are pinned here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from conformance.cline_sdk._sdk import (
    HOOKS,
    NOTES,
    Case,
    Fire,
    Has,
    Places,
    control,
    params,
    run,
    write,
)
from hookd.daemon.dialects.cline_sdk import dialect as cline_sdk
from hookd.daemon.model import Dialect, Source
from hookd_testing import Gate, fire_in_flight, process_gone, read_pids, wait_until


@dataclass(frozen=True)
class ConcurrencyCase:
    id: str
    rule: str
    event: str
    sequential: bool


CONCURRENCY_CASES = [
    ConcurrencyCase("posttooluse-one-after-another", f"{NOTES} §2C: tool_result is a blocking "
                    "event: its hooks run sequentially, the next starting after the previous "
                    "ended.", "PostToolUse", True),
] + [
    ConcurrencyCase(f"{event.lower()}-together", f"{NOTES} §2C: {event} is an async event: its "
                    "hooks are all started without waiting for one another.", event, False)
    for event in ("TaskResume", "UserPromptSubmit", "TaskComplete", "TaskError", "TaskCancel",
                  "SessionShutdown")
]  # fmt: skip


@pytest.mark.parametrize("case", CONCURRENCY_CASES, ids=lambda case: case.id)
async def test_sequential_or_concurrent(case: ConcurrencyCase, rpc, places: Places) -> None:
    """The first hook (by path) waits on a gate. Concurrent: the second hook opens it.
    Sequential: the second must not have started until the test opens it."""
    gate = Gate(places.tmp / "gate")
    log = places.log
    first = (
        f"cat >/dev/null; echo first-start >> {log}; {gate.wait_command}; echo first-end >> {log}\n"
    )
    second = (
        f"cat >/dev/null; echo second-start >> {log}\n"
        if case.sequential
        else f"cat >/dev/null; echo second-start >> {log}; echo go > {gate.path}\n"
    )
    write(places, f"{HOOKS}/{case.event}.bash", first)
    write(places, f"{HOOKS}/{case.event}.sh", second)
    fire_params = {"agent": "cline-sdk", "event": case.event, "workspaceRoots": [str(places.ws)],
              "payload": {"taskId": "conv-123", **Fire().payload}, "timeoutMs": 20_000}  # fmt: skip

    fire_id = await rpc.start("fire", fire_params)
    if case.sequential:
        await wait_until(lambda: log.exists() and log.read_text() == "first-start\n")
        in_flight = await fire_in_flight(rpc)
        assert len(in_flight["running"]) == 1
        assert log.read_text() == "first-start\n"
        await gate.open()
    result = (await rpc.recv_response(fire_id))["result"]

    assert [h["timedOut"] for h in result["hooks"]] == [False, False]
    assert [h["exitCode"] for h in result["hooks"]] == [0, 0]
    lines = log.read_text().split()
    if case.sequential:
        assert lines == ["first-start", "first-end", "second-start"]
    else:
        assert lines.index("second-start") < lines.index("first-end")


@pytest.mark.parametrize("event", cline_sdk.EVENTS)
def test_default_timeout_is_120_seconds(event: str, tmp_path: Path) -> None:
    """cline-implementation.md §2C: tool hooks get `toolCallTimeoutMs ?? 120000`. hookd gives
    every event's hooks the same 120 s (lifecycle hooks have none in the SDK: see
    Deliberate differences)."""
    (tmp_path / f"{event}.sh").write_text("true\n")
    source = Source(Dialect.CLINE_SDK, "workspace", str(tmp_path), "hookdir", str(tmp_path))

    (spec,) = cline_sdk.load_event(source, event)

    assert spec.timeout_s == 120.0


HANGS = "cat >/dev/null\nsleep 60 &\necho $! >> '{tmp}/pids'\necho $$ >> '{tmp}/pids'\nwait\n"
"""A hook that never ends on its own, with a child of its own (both pids recorded)."""


def group_killed(places: Places) -> bool:
    pids = read_pids(places.tmp / "pids")
    return len(pids) == 2 and all(process_gone(pid) for pid in pids)


TIMEOUT_CASES = [
    Case(
        id="timed-out-tool-hook-skipped",
        rule=f"{NOTES} §2C/§5: a hook that times out is killed and skipped (logged); the "
        "hooks that answered still count. hookd kills the hook's whole process group "
        "(the SDK SIGKILLs the child only) and reports timedOut.",
        files=(
            (f"{HOOKS}/PreToolUse", control({"cancel": True, "errorMessage": "answered"})),
            (f"{HOOKS}/PreToolUse.sh", HANGS),
        ),
        fires=(Fire(params={"timeoutMs": 300}),),
        expect={"blocked": True, "reason": "answered", "native": {"cancel": True,
                                                                  "errorMessage": "answered"}},
        hooks=({"timedOut": False, "error": None},
               {"timedOut": True, "error": Has("timed out"), "blocked": False}),
    ),
    Case(
        id="timed-out-post-tool-hook-skipped",
        rule=f"{NOTES} §2C: tool_result hooks have the same timeout and the same skip.",
        files=(
            (f"{HOOKS}/PostToolUse", control({"context": "answered"})),
            (f"{HOOKS}/PostToolUse.sh", HANGS),
        ),
        fires=(Fire("PostToolUse", params={"timeoutMs": 300}),),
        expect={"context": "answered"},
        hooks=({"timedOut": False}, {"timedOut": True, "error": Has("timed out")}),
    ),
]  # fmt: skip


@pytest.mark.parametrize("case", params(TIMEOUT_CASES))
async def test_timeout(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)
    await wait_until(lambda: group_killed(places))
