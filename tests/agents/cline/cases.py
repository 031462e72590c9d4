"""Cline's original runner's cases (``cline@2.18.0``, the extension core), as a table a
person can read: each names the hook files (where, what each answers), what the scripted
model does and what it pins. Every case runs in the real agent and then through hookd
with the payload the agent gave its hooks; ``test_cline_agent.py`` compares the two.

Folders (``Hook.folder``): ``workspace`` = ``<ws>/.clinerules/hooks``, ``global`` = the
agent's global folder ``$(xdg-user-dir DOCUMENTS)/Cline/Hooks`` (``~/Cline/Hooks`` here:
no ``user-dirs.dirs``), ``documents`` = ``~/Documents/Cline/Hooks``, ``rules`` =
``~/Documents/Cline/Rules/Hooks``, ``hooksdir`` = the folder named by ``--hooks-dir``.
A hook file is named exactly like its event.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agents.harness.cline_cases import Hook, out


def answer(cancel: bool = False, context: str = "", message: str = "", **more: Any) -> str:
    return out({"cancel": cancel, "contextModification": context, "errorMessage": message,
                **more})  # fmt: skip


@dataclass(frozen=True)
class Case:
    id: str
    about: str
    hooks: tuple[Hook, ...]
    event: str = "PreToolUse"
    """The event hookd fires with the payload the agent gave (its hooks are compared)."""
    command: str = "touch {ws}/ran"
    """The command of the scripted ``execute_command``."""
    args: tuple[str, ...] = ()
    """More arguments for ``cline task``."""
    extra_files: dict[str, str] = field(default_factory=dict)
    global_state: dict[str, Any] = field(default_factory=dict)
    fire: dict[str, Any] = field(default_factory=dict)
    """More fire parameters for hookd (``hooksDirs``...)."""
    count_runs: bool = False
    """Compare how many times each hook ran (a folder named twice)."""
    slow: bool = False
    xfail: str | None = None


CANCEL = answer(cancel=True, message="policy says no")


def pre(name: str, stdout: str = "", **more: Any) -> Hook:
    return Hook(name, stdout=stdout, **more)


def ev(name: str, event: str, stdout: str = "", **more: Any) -> Hook:
    return Hook(name, event=event, stdout=stdout, **more)


CASES = [
    # --- PreToolUse --------------------------------------------------------------------
    Case("pre-silent", "no output, exit 0: the tool runs", (pre("a"),)),
    Case("pre-cancel", "cancel: the tool does not run", (pre("a", CANCEL),)),
    Case(
        "pre-cancel-no-reason",
        "cancel without a message: the tool does not run",
        (pre("a", answer(cancel=True)),),
    ),
    Case(
        "pre-context",
        "contextModification reaches the model with the tool result",
        (pre("a", answer(context="remember the tests")),),
    ),
    Case(
        "pre-cancel-false-message",
        "an errorMessage without cancel: the tool runs",
        (pre("a", answer(message="only a message")),),
    ),
    Case(
        "pre-debug-then-json",
        "debug lines before the JSON are tolerated",
        (pre("a", "checking...\nstill checking\n" + CANCEL),),
    ),
    Case("pre-json-then-debug", "text after the JSON", (pre("a", CANCEL + "\ntrailing words"),)),
    Case(
        "pre-invalid-json",
        "stdout that is not JSON: no answer, the tool runs",
        (pre("a", "{not json"),),
    ),
    Case("pre-empty-object", "{}: no answer fields, the tool runs", (pre("a", "{}"),)),
    Case(
        "pre-cancel-string", "cancel as a string is not true", (pre("a", out({"cancel": "true"})),)
    ),
    Case(
        "pre-should-continue",
        "the removed shouldContinue field",
        (pre("a", out({"shouldContinue": False})),),
    ),
    Case(
        "pre-context-not-string",
        "a contextModification that is not a string",
        (pre("a", out({"cancel": False, "contextModification": 5})),),
    ),
    # --- exit codes --------------------------------------------------------------------
    Case("pre-exit1-silent", "exit 1 without output", (pre("a", exit=1, stderr="oops"),)),
    Case("pre-exit1-cancel", "exit 1 with a valid cancel", (pre("a", CANCEL, exit=1),)),
    Case("pre-exit2-cancel", "exit 2 with a valid cancel", (pre("a", CANCEL, exit=2),)),
    Case(
        "pre-exit1-context",
        "exit 1 with a context",
        (pre("a", answer(context="exit ctx"), exit=1),),
    ),
    Case(
        "pre-killed",
        "a hook killed by a signal after printing a cancel",
        (
            pre(
                "a",
                raw='#!/bin/sh\ncat > "$HOOK_OUT/a.stdin.0"\n'
                f"printf '%s\\n' '{CANCEL}'\nkill -9 $$\n",
            ),
        ),
    ),
    Case(
        "pre-timeout",
        "a hook past Cline's 30 s timeout is stopped and fails open (its late cancel is lost)",
        (pre("a", CANCEL, sleep=32),),
        slow=True,
    ),
    # --- folders -------------------------------------------------------------------------
    Case(
        "global-folder",
        "the global folder is $(xdg-user-dir DOCUMENTS)/Cline/Hooks",
        (pre("g", CANCEL, folder="global"),),
    ),
    Case(
        "documents-folder-not-read",
        "~/Documents/Cline/Hooks is not read when xdg-user-dir names another folder",
        (pre("d", CANCEL, folder="documents"), pre("w")),
    ),
    Case(
        "rules-hooks-not-read",
        "~/Documents/Cline/Rules/Hooks is never read",
        (pre("r", CANCEL, folder="rules"), pre("w")),
    ),
    Case(
        "xdg-documents-dir",
        "a user-dirs.dirs naming another documents folder moves the global folder",
        (pre("x", CANCEL, folder="xdgdocs"), pre("w")),
        extra_files={"home/.config/user-dirs.dirs": 'XDG_DOCUMENTS_DIR="$HOME/Docs"\n'},
    ),
    Case(
        "hooks-dir-flag",
        "--hooks-dir is read, first",
        (
            pre("h", answer(context="from hooks dir"), folder="hooksdir"),
            pre("w", answer(context="from workspace")),
        ),
        args=("--hooks-dir", "{hooksdir}"),
        fire={"hooksDirs": ["{hooksdir}"]},
    ),
    Case(
        "hooks-dir-is-workspace-folder",
        "--hooks-dir naming the workspace's own hook folder: is the hook run twice?",
        (pre("w", answer(context="once or twice"), every_run=True),),
        args=("--hooks-dir", "{ws}/.clinerules/hooks"),
        fire={"hooksDirs": ["{ws}/.clinerules/hooks"]},
        count_runs=True,
    ),
    Case(
        "every-folder-contexts",
        "hooks in the hooks dir, global and workspace folders: contexts joined",
        (
            pre("h", answer(context="one"), folder="hooksdir"),
            pre("g", answer(context="two"), folder="global"),
            pre("w", answer(context="three")),
        ),
        args=("--hooks-dir", "{hooksdir}"),
        fire={"hooksDirs": ["{hooksdir}"]},
    ),
    Case(
        "two-folders-one-cancels",
        "one cancel among two hooks cancels",
        (pre("g", folder="global"), pre("w", CANCEL)),
    ),
    Case(
        "two-cancel-messages",
        "two cancels with messages",
        (
            pre("g", answer(cancel=True, message="first no"), folder="global"),
            pre("w", answer(cancel=True, message="second no")),
        ),
    ),
    Case(
        "concurrent",
        "hooks of different folders run at the same time (both start before either ends)",
        (
            pre(
                "g",
                folder="global",
                raw='#!/bin/sh\ncat > "$HOOK_OUT/g.stdin.0"\n'
                'touch "$HOOK_OUT/g.started"\nfor i in $(seq 50); do '
                '[ -e "$HOOK_OUT/w.started" ] && break; sleep 0.1; done\n'
                '[ -e "$HOOK_OUT/w.started" ] && echo \'{"contextModification": "overlapped"}\'\n',
            ),
            pre("w", raw='#!/bin/sh\ncat > "$HOOK_OUT/w.stdin.0"\ntouch "$HOOK_OUT/w.started"\n'),
        ),
    ),
    Case(
        "one-fails-other-cancels",
        "a hook that exits 1 beside another hook's cancel",
        (pre("g", exit=1, stderr="broken", folder="global"), pre("w", CANCEL)),
    ),
    # --- files ---------------------------------------------------------------------------
    Case(
        "no-exec-bit",
        "a hook file without the execute bit is no hook",
        (pre("a", CANCEL, mode=0o644), pre("g", folder="global")),
    ),
    Case(
        "symlink-followed",
        "a symlink to an executable hook is a hook",
        (pre("a", CANCEL, symlink=True),),
    ),
    Case(
        "lowercase-name-not-a-hook",
        "the name must be exact: pretooluse is no hook",
        (pre("a", CANCEL, file="pretooluse"), pre("g", folder="global")),
    ),
    Case(
        "extension-not-a-hook",
        "PreToolUse.sh is no hook",
        (pre("a", CANCEL, file="PreToolUse.sh"), pre("g", folder="global")),
    ),
    Case(
        "python-hook",
        "any executable runs: a Python script",
        (
            pre(
                "a",
                raw="#!/usr/bin/env python3\nimport json, os, sys\n"
                "open(os.environ['HOOK_OUT'] + '/a.stdin.0', 'wb').write(sys.stdin.buffer.read())\n"
                "print(json.dumps({'cancel': True, 'errorMessage': 'python says no'}))\n",
            ),
        ),
    ),
    Case(
        "stdin-non-ascii",
        "non-ASCII text in the tool input reaches the hook as UTF-8",
        (pre("a"),),
        command="touch {ws}/ran # héllo ✓ 日本",
    ),
    Case(
        "hook-cwd",
        "the hook runs in its workspace",
        (
            pre(
                "a",
                raw='#!/bin/sh\ncat > "$HOOK_OUT/a.stdin.0"\n'
                'printf \'{"contextModification": "cwd=%s"}\' "$(pwd)"\n',
            ),
        ),
    ),
    # --- other events --------------------------------------------------------------------
    Case(
        "start-context",
        "TaskStart context reaches the first request",
        (ev("s", "TaskStart", answer(context="start note")),),
        event="TaskStart",
    ),
    Case(
        "start-cancel",
        "TaskStart cancel: the task does not start",
        (ev("s", "TaskStart", CANCEL),),
        event="TaskStart",
    ),
    Case(
        "prompt-context",
        "UserPromptSubmit context reaches the first request",
        (ev("u", "UserPromptSubmit", answer(context="prompt note")),),
        event="UserPromptSubmit",
    ),
    Case(
        "prompt-cancel",
        "UserPromptSubmit cancel: the prompt is not sent",
        (ev("u", "UserPromptSubmit", CANCEL),),
        event="UserPromptSubmit",
    ),
    Case(
        "post-context",
        "PostToolUse context reaches the model",
        (ev("p", "PostToolUse", answer(context="post note")),),
        event="PostToolUse",
    ),
    Case(
        "post-cancel", "PostToolUse cancel", (ev("p", "PostToolUse", CANCEL),), event="PostToolUse"
    ),
    Case(
        "complete-cancel-ignored",
        "TaskComplete cannot be cancelled",
        (ev("c", "TaskComplete", CANCEL),),
        event="TaskComplete",
    ),
    Case(
        "cancel-event",
        "TaskCancel fires when the task ends after a cancel",
        (pre("a", CANCEL), ev("x", "TaskCancel", CANCEL)),
        event="TaskCancel",
    ),
    Case(
        "notification",
        "Notification fires at the completion",
        (ev("n", "Notification", CANCEL),),
        event="Notification",
    ),
]
