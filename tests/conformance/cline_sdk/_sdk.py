"""Shared pieces of the Cline SDK conformance suite: places, hook bodies, one case runner.

A ``Case`` lists the files to write (paths and bodies may use the placeholders ``{ws}``,
``{home}``, ``{tmp}`` and ``{log}``), the fires to send through the real daemon, and what
the last fire result must contain. Hook bodies without a shebang or exec bit are the
normal case: the SDK infers the interpreter and never needs ``chmod +x``.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookd_testing.cases import ANY, assert_subset, case_params

__all__ = ["ANY", "assert_subset", "params"]  # shared: hookd_testing.cases
params = case_params

SPEC = "cline-sdk-file-hooks.md"
NOTES = "cline-implementation.md"
EXAMPLES = Path(__file__).parent / "examples"

GLOBAL_HOOKS = "{home}/Documents/Cline/Hooks"
USER_HOOKS = "{home}/.cline/hooks"
RULES_HOOKS = "{ws}/.clinerules/hooks"
HOOKS = "{ws}/.cline/hooks"

DOC_TOOL_CALL_EVENT: dict[str, Any] = {
    "hookName": "tool_call",
    "clineVersion": "1.0.0",
    "timestamp": "2026-01-15T10:30:00Z",
    "taskId": "conv-123",
    "workspaceRoots": ["/path/to/repo"],
    "userId": "user",
    "iteration": 1,
    "tool_call": {
        "id": "call-456",
        "name": "read_files",
        "input": {"filePath": "/path/to/file.ts"},
    },
}
"""The PreToolUse event of the reference (§Input), verbatim."""


def tool_call(name: str = "read_files", **tool_input: Any) -> dict[str, Any]:
    """A tool_call payload as the SDK builds it (ids from the reference's example)."""
    return {
        "taskId": "conv-123",
        "iteration": 1,
        "tool_call": {"id": "call-456", "name": name, "input": tool_input},
    }


def tool_result(name: str = "read_files", output: Any = "ok", **extra: Any) -> dict[str, Any]:
    record = {"id": "call-456", "name": name, "input": {"filePath": "/src/a.ts"}, "output": output}
    return {"taskId": "conv-123", "iteration": 1, "tool_result": {**record, **extra}}


# hook bodies (bash, no shebang) ------------------------------------------------------


def prints(text: str, *, exit_code: int | None = None) -> str:
    """Read stdin, print ``text`` exactly (no newline added), optionally exit non-zero."""
    body = f"cat >/dev/null\nprintf '%s' {shlex.quote(text)}\n"
    return body + (f"exit {exit_code}\n" if exit_code is not None else "")


def control(value: object, *, exit_code: int | None = None) -> str:
    """Read stdin and answer ``value`` as JSON on one line."""
    return prints(json.dumps(value) + "\n", exit_code=exit_code)


def records(value: object = None) -> str:
    """Append stdin (one compact JSON line) to ``{log}``, then answer ``value`` if given."""
    body = "cat >> '{log}'\necho >> '{log}'\n"
    return body + (
        f"printf '%s\\n' {shlex.quote(json.dumps(value))}\n" if value is not None else ""
    )


def appends(word: str) -> str:
    """Append ``word`` to ``{log}``: the order of the lines is the order the hooks ran."""
    return f"cat >/dev/null\necho {shlex.quote(word)} >> '{{log}}'\necho '{{}}'\n"


# matchers ----------------------------------------------------------------------------


class Has:
    """Equal to any string containing ``part``."""

    def __init__(self, part: str) -> None:
        self.part = part

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and self.part in other

    def __repr__(self) -> str:
        return f"Has({self.part!r})"


# cases -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Places:
    """Where a case's placeholders point (all under the test's own tmp_path)."""

    ws: Path
    home: Path
    tmp: Path

    @property
    def log(self) -> Path:
        return self.tmp / "log"

    def fill(self, value: Any) -> Any:
        """``value`` with every placeholder replaced (strings, inside lists and dicts too)."""
        if isinstance(value, str):
            for name in ("ws", "home", "tmp", "log"):
                value = value.replace("{" + name + "}", str(getattr(self, name)))
            return value
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


@dataclass(frozen=True)
class Fire:
    event: str = "PreToolUse"
    payload: Mapping[str, Any] = field(default_factory=tool_call)
    params: Mapping[str, Any] = field(default_factory=dict)
    """Extra ``fire`` params (``timeoutMs``, ``env``)."""


@dataclass(frozen=True)
class Case:
    """One documented rule, pinned: files to write, fires to send, what must come back."""

    id: str
    rule: str
    """Reference document and section, and the documented rule the case pins."""
    files: tuple[tuple[str, str], ...]
    """(path, body) pairs; paths like ``HOOKS + "/PreToolUse.sh"``; written mode 0644."""
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
    repeat: int = 1
    mode: int = 0o644
    """File mode of the written hooks (the SDK needs no exec bit; the README says chmod +x)."""
    setup: Callable[[Places], None] | None = None
    """Anything else to prepare before the first fire (runs after the files are written)."""
    xfail: str | None = None
    """Known discrepancy outside the dialect module: what is wrong and where."""


def write(places: Places, path: str, body: str, mode: int = 0o644) -> Path:
    target = Path(places.fill(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(places.fill(body))
    target.chmod(mode)
    return target


async def run(case: Case, rpc: Any, places: Places) -> dict[str, Any]:
    """Write the case's files, send its fires, check its expectations; the last result."""
    for path, body in case.files:
        write(places, path, body, case.mode)
    if case.setup is not None:
        case.setup(places)
    roots = places.fill(list(case.roots))
    result: dict[str, Any] = {}
    for _ in range(case.repeat):
        for fire in case.fires:
            result = await rpc.fire(
                "cline-sdk",
                fire.event,
                roots,
                places.fill(fire.payload),
                **places.fill(fire.params),
            )
        verify(case, result, places)
    if case.stdin is not None:
        lines = places.lines()
        assert len(lines) == len(case.stdin), lines
        for index, (line, expected) in enumerate(zip(lines, case.stdin, strict=True)):
            assert_subset(line, places.fill(expected), f"stdin[{index}]")
    return result


def verify(case: Case, result: dict[str, Any], places: Places) -> None:
    assert_subset(result, places.fill(case.expect))
    if case.hooks is not None:
        assert len(result["hooks"]) == len(case.hooks), result["hooks"]
        for index, (hook, expected) in enumerate(zip(result["hooks"], case.hooks, strict=True)):
            assert_subset(hook, places.fill(expected), f"hooks[{index}]")
    if case.check is not None:
        assert case.check(result, places), result
