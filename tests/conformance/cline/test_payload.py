"""The JSON a Cline hook reads on stdin, its working directory and its environment.

``cline-hooks.md`` §Input: every hook gets ``clineVersion``, ``hookName``, ``timestamp``,
``taskId``, ``workspaceRoots``, ``userId`` and exactly one camelCase block for its event;
``cline-implementation.md`` §3A adds ``model``, the ``notification`` block, the epoch-ms
string timestamp and proto3's omission of default values. The agent builds the blocks and
sends them as the fire's payload; hookd fills ``hookName``, ``timestamp`` (when the agent
sent none) and ``workspaceRoots``, and passes the rest through unchanged.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from conformance.cline._cline import (
    ABSENT,
    BLOCK_FOR,
    DOC,
    GLOBAL,
    HOOKS,
    HOOKS2,
    MODEL,
    NOTES,
    PAYLOAD_FOR,
    SH,
    Case,
    Fire,
    Has,
    Places,
    base,
    params,
    pre_tool,
    prompt,
    records,
    run,
    write,
)
from hookd.daemon.dialects.cline import dialect as cline


class Digits:
    """An epoch-milliseconds string within a minute of now."""

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, str)
            and other.isdigit()
            and abs(int(other) - time.time() * 1000) < 60_000
        )

    def __repr__(self) -> str:
        return "Digits()"


def event_case(event: str) -> Case:
    block = BLOCK_FOR[event]
    payload = PAYLOAD_FOR[event]()
    others = {name: ABSENT for name in BLOCK_FOR.values() if name != block}
    return Case(
        id=f"stdin-{event}",
        rule=f"{DOC} §Input (and {NOTES} §3A for {event}): the hook gets the common fields, "
        f"hookName {event!r}, a ms-string timestamp, the fire's roots as workspaceRoots, "
        f"and only the `{block}` block, as the agent sent it.",
        files=((f"{HOOKS}/{event}", records()),),
        fires=(Fire(event),),
        stdin=(
            {
                "clineVersion": "3.36.0",
                "hookName": event,
                "timestamp": Digits(),
                "taskId": "task-1",
                "workspaceRoots": ["{ws}"],
                "userId": "user-1",
                "model": MODEL,
                block: payload[block],
                **others,
            },
        ),
    )


def raw_stdin(places: Places) -> bytes:
    return (places.tmp / "raw").read_bytes()


def compact_utf8(result: dict[str, Any], places: Places) -> bool:
    raw = raw_stdin(places)
    parsed = json.loads(raw)
    as_js = json.dumps(parsed, separators=(",", ":"), ensure_ascii=False).encode()
    return raw == as_js and "café ✓".encode() in raw


def lone_surrogate_escaped(result: dict[str, Any], places: Places) -> bool:
    raw = raw_stdin(places)
    raw.decode("utf-8")  # valid UTF-8 all the same
    return b"\\ud800" in raw and json.loads(raw)["userPromptSubmit"]["prompt"] == "a\ud800b"


DESIGN_REF = "cline-hooks-design.md §Input and Output"
SAVE_RAW = SH + "cat > '{tmp}/raw'\n"

CASES = [event_case(event) for event in cline.EVENTS] + [
    Case(
        id="hook-name-is-the-event",
        rule=f"{DOC} §Input: hookName names the hook being run; hookd sets it from the "
        "fired event, over anything the payload says.",
        files=((f"{HOOKS}/PreToolUse", records()),),
        fires=(Fire(payload={**pre_tool(), "hookName": "PostToolUse"}),),
        stdin=({"hookName": "PreToolUse"},),
    ),
    Case(
        id="agent-timestamp-kept",
        rule=f"{NOTES} §3A: timestamp is Date.now().toString() taken by the agent; hookd "
        "keeps the agent's value.",
        files=((f"{HOOKS}/PreToolUse", records()),),
        fires=(Fire(payload={**pre_tool(), "timestamp": "1767225600123"}),),
        stdin=({"timestamp": "1767225600123"},),
    ),
    Case(
        id="multi-root-workspace-roots",
        rule=f"{DOC} §Input: workspaceRoots lists every root, in the workspace's order; the "
        "fire's roots replace what the payload says.",
        files=((f"{HOOKS}/PreToolUse", records()),),
        fires=(Fire(payload={**pre_tool(), "workspaceRoots": ["/elsewhere"]}),),
        roots=("{ws}", "{ws2}"),
        stdin=({"workspaceRoots": ["{ws}", "{ws2}"]},),
    ),
    Case(
        id="no-roots-no-workspace-roots",
        rule=f"{NOTES} §3A: proto3 JSON leaves out empty arrays, so with no workspace root "
        "there is no workspaceRoots field (global hooks still run).",
        files=((f"{GLOBAL}/PreToolUse", records()),),
        roots=(),
        stdin=({"workspaceRoots": ABSENT, "hookName": "PreToolUse"},),
    ),
    Case(
        id="missing-cline-version-left-out",
        rule=f"{NOTES} §3A: Cline's proto3 JSON leaves out an empty clineVersion; hookd "
        "cannot know the agent's version, so without one in the payload it sends none.",
        files=((f"{HOOKS}/PreToolUse", records()),),
        fires=(Fire(payload={"taskId": "t", "preToolUse": {"toolName": "x"}}),),
        stdin=({"clineVersion": ABSENT, "taskId": "t", "userId": ABSENT, "model": ABSENT},),
    ),
    Case(
        id="empty-cline-version-left-out",
        rule=f"{NOTES} §3A: proto3 JSON omits empty strings, so an empty clineVersion from "
        "the agent is left out too.",
        files=((f"{HOOKS}/TaskStart", records()),),
        fires=(Fire("TaskStart", {"clineVersion": "", "taskStart": {"taskMetadata": {}}}),),
        stdin=({"clineVersion": ABSENT, "hookName": "TaskStart"},),
    ),
    Case(
        id="omitted-defaults-stay-omitted",
        rule=f"{NOTES} §3A: Cline leaves out proto3 defaults (success false, "
        "executionTimeMs 0, empty parameters); hookd adds nothing the agent left out.",
        files=((f"{HOOKS}/PostToolUse", records()),),
        fires=(Fire("PostToolUse", base(postToolUse={"toolName": "read_file", "result": ""})),),
        stdin=(
            {
                "postToolUse": {
                    "toolName": "read_file",
                    "result": "",
                    "success": ABSENT,
                    "executionTimeMs": ABSENT,
                    "parameters": ABSENT,
                }
            },
        ),
    ),
    Case(
        id="parameters-map-of-strings",
        rule=f"{DESIGN_REF} PreToolUseData: parameters is map<string, string>; values reach "
        "the hook as the agent sent them (multi-line content too).",
        files=((f"{HOOKS}/PreToolUse", records()),),
        fires=(Fire(payload=pre_tool(path="a.ts", content="line 1\nline 2\n", regex="[{}]")),),
        stdin=(
            {
                "preToolUse": {
                    "toolName": "write_to_file",
                    "parameters": {"path": "a.ts", "content": "line 1\nline 2\n", "regex": "[{}]"},
                }
            },
        ),
    ),
    Case(
        id="stdin-is-json-stringify",
        rule=f"{NOTES} §2A/§3A: the stdin is HookInput.toJSON through JSON.stringify: compact, "
        "non-ASCII as UTF-8, written once and closed.",
        files=((f"{HOOKS}/UserPromptSubmit", SAVE_RAW),),
        fires=(Fire("UserPromptSubmit", prompt("café ✓")),),
        check=compact_utf8,
    ),
    Case(
        id="lone-surrogate-escaped",
        rule=f"{NOTES} §3A: JSON.stringify writes a lone surrogate as a \\uXXXX escape; hookd "
        "does the same instead of failing to encode the payload.",
        files=((f"{HOOKS}/UserPromptSubmit", SAVE_RAW),),
        fires=(Fire("UserPromptSubmit", prompt("a\ud800b")),),
        check=lone_surrogate_escaped,
    ),
    Case(
        id="large-stdin-never-read",
        rule=f"{NOTES} §2A/§11: the JSON is written once and stdin closed; a hook that never "
        "reads a 1 MB payload still answers (no EPIPE crash, no hang).",
        files=(
            (
                f"{HOOKS}/UserPromptSubmit",
                SH + """echo '{"cancel": true, "errorMessage": "unread"}'\n""",
            ),
        ),
        fires=(Fire("UserPromptSubmit", prompt("x" * 1_000_000)),),
        expect={"blocked": True, "reason": "unread"},
        hooks=({"error": None, "exitCode": 0},),
    ),
]


@pytest.mark.parametrize("case", params(CASES))
async def test_stdin(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)


# --- working directory ------------------------------------------------------------------

CWD = SH + "cat >/dev/null\npwd -P > '{tmp}/cwd-%s'\necho '{}'\n"


def cwds(places: Places, *names: str) -> list[str]:
    return [(places.tmp / f"cwd-{name}").read_text().strip() for name in names]


def real(path: Path) -> str:
    return os.path.realpath(path)


CWD_CASES = [
    Case(
        id="workspace-hook-in-its-root",
        rule=f"{NOTES} §2A determineHookCwd, §8.1 #2: a workspace hook runs in the workspace "
        "root whose .clinerules/hooks it is in.",
        files=((f"{HOOKS}/PreToolUse", CWD % "ws"), (f"{HOOKS2}/PreToolUse", CWD % "ws2")),
        roots=("{ws}", "{ws2}"),
        check=lambda r, p: cwds(p, "ws", "ws2") == [real(p.ws), real(p.ws2)],
    ),
    Case(
        id="global-hooks-in-primary-root",
        rule=f"{NOTES} §2A, §8.1 #24: a global hook runs in the primary (first) workspace root.",
        files=((f"{GLOBAL}/PreToolUse", CWD % "code"),),
        roots=("{ws2}", "{ws}"),
        check=lambda r, p: cwds(p, "code") == [real(p.ws2)],
    ),
    Case(
        id="hooks-dir-hook-in-primary-root",
        rule=f"{NOTES} §1A/§2A: the runtime hooks dir (`--hooks-dir`, hookd's hooksDirs) is "
        "no workspace's folder: its hook runs in the primary root.",
        files=(("{tmp}/extra/PreToolUse", CWD % "extra"),),
        fires=(Fire(params={"hooksDirs": ["{tmp}/extra"]}),),
        roots=("{ws2}", "{ws}"),
        check=lambda r, p: cwds(p, "extra") == [real(p.ws2)],
    ),
]


@pytest.mark.parametrize("case", params(CWD_CASES))
async def test_working_directory(case: Case, rpc, places: Places) -> None:
    result = await run(case, rpc, places)
    assert all(h["error"] is None for h in result["hooks"])


# --- environment ------------------------------------------------------------------------


async def test_environment_is_inherited_plus_the_fires(rpc, places: Places) -> None:
    """cline-hooks.md §Security Considerations: hooks can access environment variables;
    cline-implementation.md §2A: the environment is inherited unchanged, nothing added.
    hookd: the daemon's environment plus the fire's ``env`` (the agent's variables),
    HOOKD_SOCKET and HOOKD_HOOK_ID (which hook a process belongs to: how hookd finds
    escapees and nested fires); no CLINE_* variable is invented."""
    write(places, f"{HOOKS}/PreToolUse", SH + "cat >/dev/null\nenv -0 > '{tmp}/env'\necho '{}'\n")

    await rpc.fire(
        "cline", "PreToolUse", [str(places.ws)], pre_tool(), env={"AGENT_VAR": "from the agent"}
    )

    pairs = (places.tmp / "env").read_bytes().decode().split("\0")
    env = dict(pair.split("=", 1) for pair in pairs if pair)
    assert env["AGENT_VAR"] == "from the agent"
    assert env["HOME"] == str(places.home)
    allowed = set(os.environ) | {"AGENT_VAR", "HOOKD_SOCKET", "HOOKD_HOOK_ID", "PWD"}
    assert set(env) <= allowed, set(env) - allowed


# --- events -----------------------------------------------------------------------------


@pytest.mark.parametrize("event", ["TaskError", "SessionShutdown", "pretooluse", "tool_call"])
async def test_only_clines_nine_events(event: str, rpc, places: Places) -> None:
    """cline-implementation.md §1A VALID_HOOK_TYPES: TaskStart, TaskResume, TaskCancel,
    TaskComplete, PreToolUse, PostToolUse, UserPromptSubmit, Notification, PreCompact,
    spelled exactly. Other names (the SDK's, another case) are refused with the list."""
    request_id = await rpc.start(
        "fire", {"agent": "cline", "event": event, "workspaceRoots": [str(places.ws)]}
    )
    response = await rpc.recv_response(request_id)

    assert response["error"]["code"] == -32602
    meant = " (did you mean PreToolUse?)" if event == "pretooluse" else ""
    assert response["error"]["data"] == Has(
        f"{event!r} is not an event of cline{meant}; its events: ", *cline.EVENTS
    )


def test_event_list_is_clines() -> None:
    """cline-implementation.md §1A: the nine valid hook names, no more, each with its
    camelCase stdin block."""
    assert sorted(cline.EVENTS) == sorted(BLOCK_FOR)
