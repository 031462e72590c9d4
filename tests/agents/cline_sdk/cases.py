"""The Cline SDK runner's cases (``cline@3.0.65``), as a table a person can read: each
names the hook files (where, what each answers), the tool call the scripted model makes
and what it pins. Every case runs in the real agent and then through hookd with the
payload the agent gave its hooks; ``test_cline_sdk_agent.py`` compares the two.

Folders (``Hook.folder``): ``workspace`` = ``<ws>/.cline/hooks``, ``clinerules`` =
``<ws>/.clinerules/hooks``, ``user`` = ``~/.cline/hooks``, ``global`` =
``~/Documents/Cline/Hooks``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agents.harness.cline_cases import Hook, out


def control(**fields: Any) -> str:
    return out(fields)


@dataclass(frozen=True)
class Case:
    id: str
    about: str
    hooks: tuple[Hook, ...]
    event: str = "PreToolUse"
    """The event hookd fires with the payload the agent gave (its hooks are compared)."""
    commands: tuple[str, ...] = ("touch {ws}/ran",)
    """The commands of the scripted ``run_commands`` call."""
    env: dict[str, str] = field(default_factory=dict)
    extra_files: dict[str, str] = field(default_factory=dict)
    """Other files to create (path under the case root: text), e.g. a decoy folder."""
    xfail: str | None = None


CASES = [
    # --- PreToolUse: cancel, context, rewrite -------------------------------------------
    Case("pre-silent", "no output, exit 0: the tool runs", (Hook("a"),)),
    Case(
        "pre-cancel-reason",
        "cancel with errorMessage: the tool does not run; the reason reaches the model",
        (Hook("a", stdout=control(cancel=True, errorMessage="policy says no")),),
    ),
    Case(
        "pre-cancel-no-reason",
        "cancel without a reason: the tool does not run",
        (Hook("a", stdout=control(cancel=True)),),
    ),
    Case(
        "pre-context",
        "context on a tool call reaches the model with the tool result",
        (Hook("a", stdout=control(context="remember the tests")),),
    ),
    Case(
        "pre-override-input",
        "overrideInput replaces the tool's input",
        (Hook("a", stdout=control(overrideInput={"commands": ["touch {ws}/rewritten"]})),),
    ),
    Case(
        "pre-invalid-json",
        "stdout that is not JSON: an error, the hook's answer is dropped, the tool runs",
        (Hook("a", stdout="{not json"),),
    ),
    Case(
        "pre-exit1-cancel",
        "exit 1 with a cancel: the SDK reads stdout whatever the exit code",
        (Hook("a", exit=1, stdout=control(cancel=True, errorMessage="exit one")),),
    ),
    Case(
        "post-context",
        "PostToolUse context reaches the model",
        (Hook("p", event="PostToolUse", stdout=control(context="post note")),),
        event="PostToolUse",
    ),
    Case(
        "post-cancel",
        "PostToolUse cancel stops the run",
        (Hook("p", event="PostToolUse", stdout=control(cancel=True, errorMessage="stop now")),),
        event="PostToolUse",
    ),
    Case(
        "start-cancel-ignored",
        "TaskStart runs detached: its cancel is ignored",
        (Hook("s", event="TaskStart", stdout=control(cancel=True, errorMessage="no start")),),
        event="TaskStart",
    ),
    Case(
        "complete-fires",
        "TaskComplete fires after the run with the final text",
        (Hook("c", event="TaskComplete", stdout=control(cancel=True)),),
        event="TaskComplete",
    ),
    Case(
        "two-folders-order",
        "hooks in every folder the SDK reads all run, in localeCompare order of their paths",
        (
            Hook("w", folder="workspace"),
            Hook("r", folder="clinerules"),
            Hook("u", folder="user"),
            Hook("g", folder="global"),
        ),
    ),
]
