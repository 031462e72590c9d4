"""Shared pieces of the Cline (legacy file hooks) conformance suite.

A ``Case`` lists the files to write (paths and bodies may use the placeholders ``{ws}``,
``{ws2}``, ``{home}``, ``{tmp}`` and ``{log}``), the fires to send through the real daemon
as agent ``cline``, and what the last fire result must contain. Cline runs a hook only
when it is an executable file named exactly like the event, so files are written 0755
with a ``#!/bin/sh`` shebang unless the case says otherwise.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookd_testing.cases import ABSENT, ANY, Absent, assert_subset, case_params

__all__ = ["ABSENT", "ANY", "Absent", "assert_subset", "params"]  # shared: hookd_testing.cases
params = case_params

DOC = "cline-hooks.md"
DESIGN = "cline-hooks-design.md"
NOTES = "cline-implementation.md"
EXAMPLES = Path(__file__).parent / "examples"

DOC_GLOBAL = "{home}/Documents/Cline/Rules/Hooks"
"""The global folder of ``cline-hooks.md``."""
GLOBAL = (
    "{home}/Cline/Hooks"
    if sys.platform == "linux" and shutil.which("xdg-user-dir")
    else "{home}/Documents/Cline/Hooks"
)
"""The global folder of cline 2.18.0: ``$(xdg-user-dir DOCUMENTS)/Cline/Hooks``, which is
``~/Cline/Hooks`` without a ``user-dirs.dirs`` (``~/Documents`` when the program is
missing); tests/agents/cline pins it against the real agent."""
HOOKS = "{ws}/.clinerules/hooks"
HOOKS2 = "{ws2}/.clinerules/hooks"

NOTHING = {
    "blocked": False,
    "decision": None,
    "reason": None,
    "context": None,
    "native": {"cancel": False, "contextModification": "", "errorMessage": ""},
}
"""A fire whose hooks allowed and said nothing (or that had no hook)."""

# payloads as Cline builds them (notes §3A) -------------------------------------------

MODEL = {"provider": "anthropic", "slug": "claude-sonnet-4.5"}


def base(**block: Any) -> dict[str, Any]:
    """The common fields the agent sends (taskId, userId, clineVersion, model), plus a
    per-event block. hookd adds ``hookName``, ``timestamp`` and ``workspaceRoots``."""
    return {
        "clineVersion": "3.36.0",
        "taskId": "task-1",
        "userId": "user-1",
        "model": MODEL,
        **block,
    }


def pre_tool(tool: str = "write_to_file", **parameters: Any) -> dict[str, Any]:
    return base(preToolUse={"toolName": tool, "parameters": parameters or {"path": "src/a.ts"}})


def post_tool(tool: str = "write_to_file", **fields: Any) -> dict[str, Any]:
    """A postToolUse payload; a field given as None is left out (proto3 omits defaults)."""
    block = {
        "toolName": tool,
        "parameters": {"path": "src/a.ts"},
        "result": "ok",
        "success": True,
        "executionTimeMs": 100,
        **fields,
    }
    return base(postToolUse={k: v for k, v in block.items() if v is not None})


def task_start(initial_task: str = "Build a todo app") -> dict[str, Any]:
    meta = {"taskId": "task-1", "ulid": "01JTEST", "initialTask": initial_task}
    return base(taskStart={"taskMetadata": meta})


def task_resume(**previous: Any) -> dict[str, Any]:
    state = {
        "lastMessageTs": "1767225600000",
        "messageCount": "5",
        "conversationHistoryDeleted": "false",
        **previous,
    }
    meta = {"taskId": "task-1", "ulid": "01JTEST"}
    return base(taskResume={"taskMetadata": meta, "previousState": state})


def task_cancel(status: str = "cancelled") -> dict[str, Any]:
    meta = {"taskId": "task-1", "ulid": "01JTEST", "completionStatus": status}
    return base(taskCancel={"taskMetadata": meta})


def task_complete(result: str = "Task completed successfully", command: str = "npm start"):
    meta = {"taskId": "task-1", "ulid": "01JTEST", "result": result, "command": command}
    return base(taskComplete={"taskMetadata": meta})


def prompt(text: str = "Create a todo app", attachments: list[str] | None = None):
    return base(userPromptSubmit={"prompt": text, "attachments": attachments or []})


def pre_compact() -> dict[str, Any]:
    return base(
        preCompact={
            "taskId": "task-1",
            "ulid": "01JTEST",
            "contextSize": 120000,
            "compactionStrategy": "auto-condense",
            "tokensIn": 1000,
        }
    )


def notification() -> dict[str, Any]:
    block = {
        "event": "user_attention",
        "source": "approval_request",
        "message": "Approve?",
        "waitingForUserInput": True,
        "eventVersion": "1",
        "eventId": "01JEVENT",
        "sourceType": "ask",
        "sourceId": "approval_request",
        "requiresUserAction": True,
        "severity": "info",
    }
    return base(notification=block)


PAYLOAD_FOR: dict[str, Callable[[], dict[str, Any]]] = {
    "TaskStart": task_start,
    "TaskResume": task_resume,
    "TaskCancel": task_cancel,
    "TaskComplete": task_complete,
    "UserPromptSubmit": prompt,
    "PreToolUse": pre_tool,
    "PostToolUse": post_tool,
    "PreCompact": pre_compact,
    "Notification": notification,
}
BLOCK_FOR = {
    "TaskStart": "taskStart",
    "TaskResume": "taskResume",
    "TaskCancel": "taskCancel",
    "TaskComplete": "taskComplete",
    "UserPromptSubmit": "userPromptSubmit",
    "PreToolUse": "preToolUse",
    "PostToolUse": "postToolUse",
    "PreCompact": "preCompact",
    "Notification": "notification",
}

# hook bodies (executable, #!/bin/sh) -------------------------------------------------

SH = "#!/bin/sh\n"


def prints(text: str, *, exit_code: int | None = None, stderr: str = "") -> str:
    """Read stdin, print ``text`` exactly (no newline added), optionally write ``stderr``
    and exit non-zero."""
    body = f"{SH}cat >/dev/null\nprintf '%s' {shlex.quote(text)}\n"
    if stderr:
        body += f"printf '%s\\n' {shlex.quote(stderr)} >&2\n"
    return body + (f"exit {exit_code}\n" if exit_code is not None else "")


def answer(value: object, *, exit_code: int | None = None, stderr: str = "") -> str:
    """Read stdin and answer ``value`` as JSON on one line."""
    return prints(json.dumps(value) + "\n", exit_code=exit_code, stderr=stderr)


def jq_answer(program: str) -> str:
    """Answer what the jq ``program`` makes of stdin (``jq -c``)."""
    return f"{SH}jq -c {shlex.quote(program)}\n"


def jq_context(expression: str) -> str:
    """Answer {cancel: false, contextModification: <jq expression over stdin>}."""
    return jq_answer(f"{{cancel: false, contextModification: ({expression})}}")


def requires(condition: str) -> str:
    """Exit 1 unless the jq ``condition`` holds for stdin; else answer {cancel: false}."""
    return (
        f"{SH}jq -e {shlex.quote(condition)} >/dev/null || exit 1\n"
        """echo '{"cancel": false}'\n"""
    )


def records(value: object = None) -> str:
    """Append stdin (one compact JSON line, in one write: concurrent hooks do not mix
    their lines) to ``{log}``, then answer ``value`` if given."""
    body = SH + "input=$(cat)\nprintf '%s\\n' \"$input\" >> '{log}'\n"
    return body + (
        f"printf '%s\\n' {shlex.quote(json.dumps(value))}\n" if value is not None else ""
    )


def appends(word: str, value: object = None) -> str:
    """Append ``word`` to ``{log}`` (the order of the lines is the order hooks ran)."""
    body = f"{SH}cat >/dev/null\necho {shlex.quote(word)} >> '{{log}}'\n"
    return body + (
        f"printf '%s\\n' {shlex.quote(json.dumps(value))}\n" if value is not None else ""
    )


def context_of(text: str) -> str:
    return answer({"cancel": False, "contextModification": text})


def cancels(message: str, context: str | None = None) -> str:
    value: dict[str, Any] = {"cancel": True, "errorMessage": message}
    if context is not None:
        value["contextModification"] = context
    return answer(value)


# matchers ----------------------------------------------------------------------------


class Has:
    """Equal to any string containing every one of ``parts``."""

    def __init__(self, *parts: str) -> None:
        self.parts = parts

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and all(part in other for part in self.parts)

    def __repr__(self) -> str:
        return f"Has{self.parts!r}"


# cases -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Places:
    """Where a case's placeholders point (all under the test's own tmp_path)."""

    ws: Path
    home: Path
    tmp: Path

    @property
    def ws2(self) -> Path:
        return self.tmp / "ws2"

    @property
    def log(self) -> Path:
        return self.tmp / "log"

    def fill(self, value: Any) -> Any:
        """``value`` with every placeholder replaced (strings, inside lists and dicts too)."""
        if isinstance(value, str):
            for name in ("ws2", "ws", "home", "tmp", "log"):
                value = value.replace("{" + name + "}", str(getattr(self, name)))
            return value
        if isinstance(value, Has):
            return Has(*(self.fill(part) for part in value.parts))
        if isinstance(value, list | tuple):
            return [self.fill(item) for item in value]
        if isinstance(value, Mapping):
            return {key: self.fill(item) for key, item in value.items()}
        return value

    def lines(self) -> list[dict[str, Any]]:
        """The stdin JSON objects recorded by ``records`` hooks, in order."""
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines() if line.strip()]

    def words(self) -> list[str]:
        """The words ``appends`` hooks wrote, in order."""
        return self.log.read_text().split() if self.log.exists() else []


@dataclass(frozen=True)
class Fire:
    event: str = "PreToolUse"
    payload: Mapping[str, Any] | Callable[[], Mapping[str, Any]] | None = None
    """None: the event's usual payload (``PAYLOAD_FOR``); a callable is called at fire time
    (for payloads holding the current time)."""
    params: Mapping[str, Any] = field(default_factory=dict)
    """Extra ``fire`` params (``timeoutMs``, ``env``, ``hooksDirs``)."""


File = tuple[str, str] | tuple[str, str, int]
"""(path, body) written 0755, or (path, body, mode)."""


@dataclass(frozen=True)
class Case:
    """One documented rule, pinned: files to write, fires to send, what must come back."""

    id: str
    rule: str
    """Reference document and section, and the documented rule the case pins."""
    files: tuple[File, ...] = ()
    fires: tuple[Fire, ...] = (Fire(),)
    roots: tuple[str, ...] = ("{ws}",)
    expect: Mapping[str, Any] = field(default_factory=dict)
    """A subset of the last fire result."""
    hooks: tuple[Mapping[str, Any], ...] | None = None
    """Subsets of the last result's ``hooks`` entries, in order (their count must match)."""
    stdin: tuple[Mapping[str, Any], ...] | None = None
    """Subsets of the JSON lines ``records`` hooks wrote, in order (count must match)."""
    check: Callable[[dict[str, Any], Places], bool] | None = None
    """A last, free-form check of the last result."""
    needs: tuple[str, ...] = ()
    """Commands that must be installed (the case is skipped otherwise)."""
    setup: Callable[[Places], None] | None = None
    """Anything else to prepare before the first fire (runs after the files are written)."""
    between: Callable[[Places], None] | None = None
    """Runs between consecutive fires (to change the hooks on disk)."""
    xfail: str | None = None
    """Known discrepancy outside the dialect module: what is wrong and where."""


def write(places: Places, path: str, body: str, mode: int = 0o755) -> Path:
    target = Path(places.fill(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(places.fill(body))
    target.chmod(mode)
    return target


def install(places: Places, files: tuple[File, ...]) -> None:
    for entry in files:
        write(places, *entry)


async def send(rpc: Any, places: Places, fire: Fire, roots: list[str]) -> dict[str, Any]:
    payload = fire.payload if fire.payload is not None else PAYLOAD_FOR[fire.event]
    if callable(payload):
        payload = payload()
    result: dict[str, Any] = await rpc.fire(
        "cline", fire.event, roots, places.fill(payload), **places.fill(fire.params)
    )
    return result


async def run(case: Case, rpc: Any, places: Places) -> dict[str, Any]:
    """Write the case's files, send its fires, check its expectations; the last result."""
    places.ws2.mkdir(exist_ok=True)
    install(places, case.files)
    if case.setup is not None:
        case.setup(places)
    roots = places.fill(list(case.roots))
    result: dict[str, Any] = {}
    for index, fire in enumerate(case.fires):
        if index and case.between is not None:
            case.between(places)
        result = await send(rpc, places, fire, roots)
    verify(case, result, places)
    return result


def verify(case: Case, result: dict[str, Any], places: Places) -> None:
    assert_subset(result, places.fill(case.expect))
    if case.hooks is not None:
        assert len(result["hooks"]) == len(case.hooks), result["hooks"]
        for index, (hook, expected) in enumerate(zip(result["hooks"], case.hooks, strict=True)):
            assert_subset(hook, places.fill(expected), f"hooks[{index}]")
    if case.stdin is not None:
        lines = places.lines()
        assert len(lines) == len(case.stdin), lines
        for index, (line, expected) in enumerate(zip(lines, case.stdin, strict=True)):
            assert_subset(line, places.fill(expected), f"stdin[{index}]")
    if case.check is not None:
        assert case.check(result, places), result
