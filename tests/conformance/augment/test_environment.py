"""What a hook receives: its stdin JSON per event, its ``AUGMENT_*`` variables and its
working directory.

The daemon of these tests has ``LEAKED`` ``AUGMENT_*`` values in its own environment
(``conftest.py``): a hook sees the documented variables only as the event defines them
and never a value that leaked from hookd's environment.

Reference: ``augment-hooks.md`` § Hook Input (Common Fields, Event-Specific Fields),
§ Debugging Hooks (Environment Variables), § Hook Execution Details (Environment).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from conformance.augment.support import (
    CONVERSATION,
    EVENTS,
    LEAKED,
    MCP_TOOL,
    REFERENCE,
    TOOL,
    Augment,
    base_payload,
    group,
    params,
)

VARIABLES = f"{REFERENCE} § Debugging Hooks (Environment Variables)"
COMMON = f"{REFERENCE} § Common Fields (All Events)"
SPECIFIC = f"{REFERENCE} § Event-Specific Fields"
NAMES = (
    "AUGMENT_PROJECT_DIR",
    "AUGMENT_CONVERSATION_ID",
    "AUGMENT_HOOK_EVENT",
    "AUGMENT_TOOL_NAME",
    "AUGMENT_API_TOKEN",
)
WS = "$WS"
CWD = "$CWD"
SECOND = "$SECOND"


@dataclass(frozen=True)
class Case:
    id: str
    rule: str
    event: str
    payload: Mapping[str, Any]
    variables: Mapping[str, str | None]
    """Each of ``NAMES``: its value in the hook (``$WS`` etc. expanded), None: unset."""
    stdin: Mapping[str, Any] | None = None
    """The hook's whole stdin JSON (None: not checked)."""
    roots: str = "ws"
    """``ws``: the workspace; ``two``: the workspace then a second root; ``none``."""
    env: Mapping[str, str] = field(default_factory=dict)
    """The fire's ``env`` (the agent's own environment)."""
    cwd: str = WS
    xfail: str | None = None
    skip: str | None = None


def documented(
    event: str,
    tool: str | None = "launch-process",
    conversation: str | None = CONVERSATION,
    project: str = WS,
) -> dict[str, str | None]:
    return {
        "AUGMENT_PROJECT_DIR": project,
        "AUGMENT_CONVERSATION_ID": conversation,
        "AUGMENT_HOOK_EVENT": event,
        "AUGMENT_TOOL_NAME": tool if event in ("PreToolUse", "PostToolUse") else None,
        "AUGMENT_API_TOKEN": None,
    }


def common(event: str, roots: list[str] | None = None) -> dict[str, Any]:
    return {
        "hook_event_name": event,
        "conversation_id": CONVERSATION,
        "workspace_roots": [WS] if roots is None else roots,
    }


POST = {
    **TOOL,
    "tool_output": "On branch main",
    "tool_error": None,
    "file_changes": [
        {"path": "src/auth.ts", "changeType": "edit", "content": "new", "oldContent": "old"}
    ],
}

CASES: list[Case] = [
    *[
        Case(
            f"variables-{event}",
            f"{VARIABLES}: PROJECT_DIR (first root), CONVERSATION_ID and HOOK_EVENT on every "
            "event, TOOL_NAME on PreToolUse/PostToolUse only; never the daemon's own "
            "AUGMENT_* values",
            event,
            base_payload(event),
            documented(event),
        )
        for event in (*EVENTS, "Notification")
    ],
    Case(
        "variables-mcp-tool-name",
        f"{VARIABLES}: AUGMENT_TOOL_NAME is the tool name, MCP tools' full "
        "{toolName}_{serverName} included",
        "PreToolUse",
        MCP_TOOL,
        documented("PreToolUse", tool="search_my-server"),
    ),
    Case(
        "variables-no-conversation-id",
        f"{VARIABLES}: AUGMENT_CONVERSATION_ID is the current conversation's id: unset "
        "when the agent sent none (not the daemon's leaked value)",
        "SessionEnd",
        {},
        documented("SessionEnd", conversation=None),
        stdin={"hook_event_name": "SessionEnd", "workspace_roots": [WS]},
    ),
    Case(
        "variables-first-of-two-roots",
        f"{VARIABLES}: AUGMENT_PROJECT_DIR is the first workspace root directory; "
        f"{COMMON}: workspace_roots lists them all",
        "Stop",
        base_payload("Stop"),
        documented("Stop"),
        roots="two",
        stdin={**common("Stop", [WS, SECOND]), "agent_stop_cause": "end_turn"},
    ),
    Case(
        "variables-no-roots",
        f"{VARIABLES}: with no workspace root, process.cwd(): hookd cannot see the agent's "
        "working directory and uses its own (a deliberate difference)",
        "SessionStart",
        base_payload("SessionStart"),
        documented("SessionStart", project=CWD),
        roots="none",
        cwd=CWD,
        stdin=common("SessionStart", []),
    ),
    Case(
        "variables-from-the-agent-environment",
        f"{REFERENCE} § Hook Execution Details: hooks run with Auggie's environment: "
        "variables the agent passes in the fire's env reach the hook, its own AUGMENT_* "
        "ones included; auggie 0.36.0 sets the documented AUGMENT_* variables over its own "
        "environment's (tests/agents/augment)",
        "PreToolUse",
        TOOL,
        {**documented("PreToolUse"), "AUGMENT_API_TOKEN": "agent-token"},
        env={"AUGMENT_API_TOKEN": "agent-token", "AUGMENT_PROJECT_DIR": "/agent/project"},
    ),
    # --- stdin per event
    Case(
        "stdin-pre-tool-use",
        f"{COMMON}; {SPECIFIC} (PreToolUse): tool_name, tool_input, is_mcp_tool",
        "PreToolUse",
        TOOL,
        documented("PreToolUse"),
        stdin={**common("PreToolUse"), **TOOL},
    ),
    Case(
        "stdin-post-tool-use",
        f"{COMMON}; {SPECIFIC} (PostToolUse): tool_output, tool_error and file_changes too",
        "PostToolUse",
        POST,
        documented("PostToolUse"),
        stdin={**common("PostToolUse"), **POST},
    ),
    Case(
        "stdin-stop",
        f"{COMMON}; {SPECIFIC} (Stop Event): agent_stop_cause",
        "Stop",
        {"conversation_id": CONVERSATION, "agent_stop_cause": "interrupted"},
        documented("Stop"),
        stdin={**common("Stop"), "agent_stop_cause": "interrupted"},
    ),
    *[
        Case(
            f"stdin-{event}",
            f"{COMMON}; {SPECIFIC} (SessionStart / SessionEnd): no fields beyond the common ones",
            event,
            {"conversation_id": CONVERSATION},
            documented(event),
            stdin=common(event),
        )
        for event in ("SessionStart", "SessionEnd")
    ],
    Case(
        "stdin-hook-event-name-is-the-event",
        f"{COMMON}: hook_event_name is the type of event (whatever the client put there)",
        "SessionStart",
        {"conversation_id": CONVERSATION, "hook_event_name": "Bogus"},
        documented("SessionStart"),
        stdin=common("SessionStart"),
    ),
    Case(
        "stdin-client-workspace-roots-kept",
        f"{COMMON}: workspace_roots as the agent sends them; auggie 0.36.0 runs the hook "
        "in the payload's first root and names it in AUGMENT_PROJECT_DIR",
        "SessionStart",
        {"conversation_id": CONVERSATION, "workspace_roots": ["/"]},
        documented("SessionStart", project="/"),
        stdin=common("SessionStart", ["/"]),
        cwd="/",
    ),
]

PROBE = """\
cat > "$OUT/stdin.json"
pwd > "$OUT/cwd"
: > "$OUT/env"
for name in {names}; do
  eval "isset=\\${{$name+x}}"
  if [ -n "$isset" ]; then eval "printf '%s=%s\\n' $name \\"\\$$name\\"" >> "$OUT/env"; fi
done
"""


@pytest.mark.parametrize("case", params(CASES))
async def test_hook_input(augment: Augment, case: Case) -> None:
    out = augment.tmp / "out"
    out.mkdir()
    probe = augment.script("probe.sh", f"OUT='{out}'\n" + PROBE.format(names=" ".join(NAMES)))
    augment.write("user", **{case.event: [group(probe)]})  # read with or without roots
    second = augment.tmp / "second"
    second.mkdir()
    roots = {"ws": [str(augment.ws)], "two": [str(augment.ws), str(second)], "none": []}
    places = {WS: str(augment.ws), CWD: os.getcwd(), SECOND: str(second)}

    def expand(value: Any) -> Any:
        return json.loads(
            json.dumps(value)
            .replace(WS, places[WS])
            .replace(CWD, places[CWD])
            .replace(SECOND, places[SECOND])
        )

    result = await augment.fire(case.event, case.payload, roots=roots[case.roots], env=case.env)

    assert result["hooks"][0]["exitCode"] == 0, result
    seen = dict(line.split("=", 1) for line in (out / "env").read_text().splitlines())
    assert {n: seen.get(n) for n in NAMES} == expand(dict(case.variables))
    assert all(seen.get(n) != v for n, v in LEAKED.items())
    assert (out / "cwd").read_text().strip() == expand(case.cwd)
    if case.stdin is not None:
        assert json.loads((out / "stdin.json").read_text()) == expand(dict(case.stdin))


async def test_stdin_is_written_as_json_stringify_writes_it(augment: Augment) -> None:
    """augment-hooks.md § Hook Input: 'Hooks receive event data via stdin as a JSON
    object'; auggie 0.36.0 writes ``JSON.stringify(event, null, 2)`` (two-space indent,
    raw UTF-8; tests/agents/augment compares the bytes), so that a hook grepping its stdin
    for ``résumé`` finds it."""
    out = augment.tmp / "stdin.json"
    probe = augment.script("probe.sh", f"cat > '{out}'")
    augment.write("workspace", PreToolUse=[group(probe)])

    await augment.fire("PreToolUse", {"tool_name": "view", "tool_input": {"path": "résumé.md"}})

    raw = out.read_bytes().decode("utf-8")
    assert '"tool_input": {\n    "path": "résumé.md"\n  }' in raw
    assert raw.startswith('{\n  "tool_name": "view",\n')
