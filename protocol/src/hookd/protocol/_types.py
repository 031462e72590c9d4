"""Wire types: JSON values and the params/results of hookd's methods as TypedDicts.

The field names here are a contract with agents and editor extensions; see
``protocol/README.md`` and the OpenRPC document served by ``rpc.discover``.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypeAlias, TypedDict, get_args

JsonValue: TypeAlias = "bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None"
JsonObject: TypeAlias = "dict[str, JsonValue]"

Agent = Literal[
    "claude", "cline", "cline-sdk", "augment", "codex", "gemini", "copilot", "droid", "qwen"
]
"""Every agent hookd speaks, by its wire name: adding one is one name here (and its
package in the daemon: ``docs/design.md``, "Adding an agent")."""
AGENTS: tuple[Agent, ...] = get_args(Agent)

Decision = Literal["allow", "deny", "ask", "defer"]


class FireParams(TypedDict):
    """Params of ``fire`` (``null`` for an optional param means "not given")."""

    agent: Agent
    event: str
    workspaceRoots: NotRequired[list[str]]
    payload: NotRequired[JsonObject]
    timeoutMs: NotRequired[float]
    slowThresholdMs: NotRequired[float]
    workDoneToken: NotRequired[int | str]
    env: NotRequired[dict[str, str]]
    clientHandlers: NotRequired[list[Literal["prompt", "agent", "mcp_tool"]]]
    hooksDirs: NotRequired[list[str]]
    relay: NotRequired[bool]
    relayEntry: NotRequired[str]


class HookRun(TypedDict):
    """One hook that ran during a fire, in declaration order."""

    index: int
    dialect: str
    source: str
    layer: str
    command: str
    exitCode: int | None
    durationMs: float
    timeoutMs: int
    timedOut: bool
    error: str | None
    blocked: bool
    decision: Decision | None
    stdoutTruncated: bool
    stderrTruncated: bool
    spilled: list[JsonObject]
    startMs: NotRequired[float]
    queuedMs: NotRequired[float]
    stdoutTail: NotRequired[str]
    stdoutTailCut: NotRequired[bool]
    stderrTail: NotRequired[str]
    stderrTailCut: NotRequired[bool]


class Slowest(TypedDict):
    """The slowest hook of a fire (the Cline design notes ask for it)."""

    index: int
    source: str
    command: str
    durationMs: float


Action = Literal["proceed", "block", "ask", "stop", "proceed-then-stop"]
"""What the agent does next, by its own rules, given a fire's combined outcome."""
ACTIONS: tuple[Action, ...] = ("proceed", "block", "ask", "stop", "proceed-then-stop")

FireResult = TypedDict(
    "FireResult",
    {
        "action": Action,
        "blocked": bool,
        "decision": "Decision | None",
        "reason": "str | None",
        "context": "str | None",
        "updatedInput": JsonValue,
        "updatedInputFrom": "str | None",
        "continue": bool,
        "stopReason": "str | None",
        "systemMessage": "str | None",
        "native": JsonObject,
        "hooks": "list[HookRun]",
        "slowest": "Slowest | None",
        "durationMs": float,
        "warnings": "list[str]",
        "asyncStarted": "list[JsonObject]",
        "asyncResults": "list[JsonObject]",
        "envFile": "NotRequired[str | None]",
        "verboseOutput": "NotRequired[str | None]",
    },
)
"""Result of ``fire``: the combined outcome of every matching hook (``continue`` is a
Python keyword, hence the functional form)."""


ProgressKind = Literal["fire/begin", "hook/started", "hook/slow", "hook/finished", "fire/end"]
