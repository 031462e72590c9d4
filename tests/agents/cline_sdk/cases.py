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
    args: tuple[str, ...] = ()
    """More CLI arguments (``{elsewhere}`` is a folder outside every hook folder)."""
    fire_env: dict[str, str] = field(default_factory=dict)
    """More env for hookd's fire (what the agent's hooks would see)."""
    xfail: str | None = None


CANCEL = control(cancel=True, errorMessage="policy says no")
PYTHON_CANCEL = (
    "#!/usr/bin/env python3\nimport json, os, sys\ndata = sys.stdin.buffer.read()\n"
    "open(os.environ['HOOK_OUT'] + '/py.stdin.0', 'wb').write(data)\n"
    "open(os.environ['HOOK_OUT'] + '/order', 'a').write('py\\n')\n"
    "print(json.dumps({'cancel': True, 'errorMessage': 'python says no'}))\n"
)


def pre(name: str, stdout: str = "", **more: Any) -> Hook:
    return Hook(name, stdout=stdout, **more)


CASES = [
    # --- PreToolUse: the answer --------------------------------------------------------
    Case("pre-silent", "no output, exit 0: the tool runs", (pre("a"),)),
    Case(
        "pre-cancel-reason",
        "cancel with errorMessage: the tool does not run and the run stops (the SDK's "
        "ControlledStopError carries the reason to its log)",
        (pre("a", CANCEL),),
    ),
    Case(
        "pre-cancel-no-reason",
        "cancel without a reason: the tool does not run",
        (pre("a", control(cancel=True)),),
    ),
    Case(
        "pre-cancel-context-is-reason",
        "cancel with only a context: the context is the cancel reason",
        (pre("a", control(cancel=True, context="context as reason")),),
    ),
    Case(
        "pre-cancel-blank-message",
        "a blank errorMessage is no message: the context is the reason",
        (pre("a", control(cancel=True, errorMessage="   ", context="ctx reason")),),
    ),
    Case(
        "pre-cancel-false",
        "cancel false with a context: the tool runs, the context reaches the model",
        (pre("a", control(cancel=False, context="carry on")),),
    ),
    Case(
        "pre-context",
        "context on a tool call reaches the model with the tool result",
        (pre("a", control(context="remember the tests")),),
    ),
    Case(
        "pre-context-modification",
        "contextModification is the older name of context",
        (pre("a", control(contextModification="older name")),),
    ),
    Case(
        "pre-context-shadows-alias",
        "context and contextModification: context wins",
        (pre("a", control(context="new", contextModification="old")),),
    ),
    Case(
        "pre-error-message-only",
        "errorMessage without cancel: it is the context",
        (pre("a", control(errorMessage="just a note")),),
    ),
    Case("pre-blank-context", "a blank context adds nothing", (pre("a", control(context="   ")),)),
    Case(
        "pre-override-input",
        "overrideInput replaces the tool's input",
        (pre("a", control(overrideInput={"commands": ["touch {ws}/rewritten"]})),),
    ),
    Case(
        "pre-override-and-context",
        "overrideInput and context together",
        (
            pre(
                "a",
                control(context="rewrote it", overrideInput={"commands": ["touch {ws}/rewritten"]}),
            ),
        ),
    ),
    Case(
        "pre-override-last-wins",
        "two rewrites: the last hook in path order wins",
        (
            pre(
                "a",
                control(overrideInput={"commands": ["touch {ws}/first"]}),
                file="PreToolUse.bash",
            ),
            pre(
                "b",
                control(overrideInput={"commands": ["touch {ws}/rewritten"]}),
                file="PreToolUse.sh",
            ),
        ),
    ),
    Case(
        "pre-unknown-keys",
        "JSON without a control key: no control, the tool runs",
        (pre("a", out({"decision": "block", "reason": "claude style"})),),
    ),
    Case("pre-json-array", "a JSON array is no control: the tool runs", (pre("a", "[true]"),)),
    Case(
        "pre-wrong-type-cancel",
        "cancel as a string fails the SDK's schema: the whole answer (its context too) is dropped",
        (pre("a", out({"cancel": "yes", "context": "dropped context"})),),
    ),
    Case(
        "pre-wrong-type-context",
        "a context that is not a string fails the schema: the cancel is dropped too",
        (pre("a", out({"cancel": True, "context": 5})),),
    ),
    Case(
        "pre-invalid-json",
        "stdout that is not JSON: the hook's answer is dropped, the tool runs",
        (pre("a", "{not json"),),
    ),
    Case(
        "pre-debug-before-json",
        "debug text before the JSON without HOOK_CONTROL: not JSON, the tool runs",
        (pre("a", "checking...\n" + CANCEL),),
    ),
    Case(
        "pre-hook-control-line",
        "a HOOK_CONTROL line among debug text is the answer",
        (pre("a", "checking...\nHOOK_CONTROL\t" + CANCEL + "\nbye\n"),),
    ),
    Case(
        "pre-hook-control-last-wins",
        "several HOOK_CONTROL lines: the last one counts",
        (pre("a", "HOOK_CONTROL\t" + CANCEL + "\nHOOK_CONTROL\t" + control(context="later line")),),
    ),
    # --- exit codes --------------------------------------------------------------------
    Case(
        "pre-exit1-cancel",
        "exit 1 with a cancel: the SDK reads stdout whatever the exit code",
        (pre("a", CANCEL, exit=1),),
    ),
    Case(
        "pre-exit2-silent",
        "exit 2 with stderr and no stdout: not a block, the tool runs",
        (pre("a", exit=2, stderr="exit two means nothing here"),),
    ),
    Case(
        "pre-killed-by-signal",
        "a hook killed by a signal after printing a cancel: its stdout still counts",
        (
            pre(
                "a",
                raw='#!/bin/sh\ncat > "$HOOK_OUT/a.stdin.0"\n'
                f"printf '%s' '{CANCEL}'\nkill -9 $$\n",
            ),
        ),
    ),
    Case(
        "pre-missing-interpreter",
        "a shebang naming no program: the hook cannot start, the tool runs",
        (pre("a", CANCEL, shebang="#!/nonexistent/interpreter"), pre("b", file="PreToolUse.bash")),
    ),
    # --- several hooks -----------------------------------------------------------------
    Case(
        "pre-two-contexts-join",
        "two contexts are joined with a newline, in path order",
        (
            pre("a", control(context="first note"), file="PreToolUse.bash"),
            pre("b", control(context="second note"), file="PreToolUse.sh"),
        ),
    ),
    Case(
        "pre-one-of-two-cancels",
        "one cancel among two hooks cancels",
        (pre("a", file="PreToolUse.bash"), pre("b", CANCEL, file="PreToolUse.sh")),
    ),
    Case(
        "pre-cancel-and-context",
        "a cancel and another hook's context: cancelled, the reason is the cancel's",
        (
            pre("a", control(context="ignored when cancelled"), file="PreToolUse.bash"),
            pre("b", CANCEL, file="PreToolUse.sh"),
        ),
    ),
    Case(
        "pre-sequential",
        "tool hooks run one after another (the second starts after the first ends)",
        (pre("a", sleep=0.3, file="PreToolUse.bash"), pre("b", file="PreToolUse.sh")),
    ),
    Case(
        "every-folder-order",
        "hooks in every folder the SDK reads all run, in localeCompare order of their paths",
        (
            pre("w", folder="workspace"),
            pre("r", folder="clinerules"),
            pre("u", folder="user"),
            pre("g", folder="global"),
        ),
    ),
    Case(
        "global-folder-cancels",
        "~/Documents/Cline/Hooks is read",
        (pre("g", CANCEL, folder="global"),),
    ),
    Case("user-folder-cancels", "~/.cline/hooks is read", (pre("u", CANCEL, folder="user"),)),
    Case(
        "clinerules-folder-cancels",
        "<ws>/.clinerules/hooks is read",
        (pre("r", CANCEL, folder="clinerules"),),
    ),
    Case(
        "hooks-dir-flag-ignored",
        "--hooks-dir names a folder nothing reads: its hooks never run",
        (pre("x", CANCEL, folder="elsewhere"), pre("w")),
        args=("--hooks-dir", "{elsewhere_hooks}"),
        fire_env={"CLINE_HOOKS_DIR": "{elsewhere_hooks}"},
    ),
    Case(
        "cline-dir-env",
        "CLINE_DIR moves the user folder: $CLINE_DIR/hooks is read, ~/.cline/hooks is not",
        (pre("c", CANCEL, folder="clinedir"), pre("u", CANCEL, folder="user"), pre("w")),
        env={"CLINE_DIR": "{clinedir}", "CLINE_DATA_DIR": "{home}/.cline/data"},
    ),
    Case(
        "global-folder-not-xdg",
        "the SDK's global folder is ~/Documents/Cline/Hooks even when user-dirs.dirs names "
        "another documents folder",
        (pre("x", CANCEL, folder="xdgdocs"), pre("g", folder="global")),
        extra_files={"home/.config/user-dirs.dirs": 'XDG_DOCUMENTS_DIR="$HOME/Docs"\n'},
    ),
    # --- file names, modes, links --------------------------------------------------------
    Case(
        "no-exec-bit",
        "a hook file without the execute bit still runs (through its shebang)",
        (pre("a", CANCEL, mode=0o644),),
    ),
    Case(
        "symlink-not-a-hook",
        "a symlinked hook file is not a hook (Dirent.isFile is false)",
        (pre("l", CANCEL, symlink=True), pre("b", file="PreToolUse.bash")),
    ),
    Case(
        "lowercase-name",
        "the event name is matched case-insensitively",
        (pre("a", CANCEL, file="pretooluse.sh"),),
    ),
    Case(
        "upper-extension",
        "an extension in capitals is not cut off before matching: PreToolUse.SH is no hook",
        (pre("a", CANCEL, file="PreToolUse.SH"), pre("b", file="PreToolUse.bash")),
    ),
    Case(
        "upper-name",
        "a name in capitals with a lowercase extension is a hook: PRETOOLUSE.sh",
        (pre("a", CANCEL, file="PRETOOLUSE.sh"),),
    ),
    Case(
        "no-extension", "a file named just like the event", (pre("a", CANCEL, file="PreToolUse"),)
    ),
    Case(
        "spaces-around-name",
        "the name is trimmed: ' PreToolUse .sh' is a PreToolUse hook",
        (pre("a", CANCEL, file=" PreToolUse .sh"),),
    ),
    Case(
        "unknown-extension-ignored",
        "PreToolUse.txt and the SDK's own name tool_call.sh are not hooks",
        (
            pre("t", CANCEL, file="PreToolUse.txt"),
            pre("s", CANCEL, file="tool_call.sh"),
            pre("b", file="PreToolUse.bash"),
        ),
    ),
    Case(
        "python-by-extension",
        "a .py file runs with python3",
        (
            Hook(
                "py",
                raw=PYTHON_CANCEL.replace("#!/usr/bin/env python3\n", ""),
                file="PreToolUse.py",
            ),
        ),
    ),
    Case(
        "shebang-beats-extension",
        "a .py file with a sh shebang runs with sh",
        (pre("a", CANCEL, file="PreToolUse.py"),),
    ),
    Case(
        "directory-named-like-hook",
        "a folder named PreToolUse.sh is no hook",
        (pre("b", file="PreToolUse.bash"),),
        extra_files={"ws/.cline/hooks/PreToolUse.sh/inner": "x"},
    ),
    # --- stdin, cwd ----------------------------------------------------------------------
    Case(
        "stdin-non-ascii",
        "non-ASCII text in the tool input reaches the hook as UTF-8, unescaped",
        (pre("a"),),
        commands=("touch {ws}/ran # héllo ✓ 日本",),
    ),
    Case(
        "hook-cwd-is-workspace",
        "the hook runs in the workspace folder",
        (
            pre(
                "a",
                raw='#!/bin/sh\ncat > "$HOOK_OUT/a.stdin.0"\n'
                'printf \'{"context": "cwd=%s"}\' "$(pwd)"\n',
            ),
        ),
    ),
    # --- PostToolUse ---------------------------------------------------------------------
    Case(
        "post-context",
        "PostToolUse context reaches the model",
        (Hook("p", event="PostToolUse", stdout=control(context="post note")),),
        event="PostToolUse",
    ),
    Case(
        "post-cancel",
        "PostToolUse cancel stops the run",
        (Hook("p", event="PostToolUse", stdout=CANCEL),),
        event="PostToolUse",
    ),
    Case(
        "post-override-ignored",
        "overrideInput on PostToolUse does nothing",
        (Hook("p", event="PostToolUse", stdout=control(overrideInput={"commands": ["x"]})),),
        event="PostToolUse",
    ),
    Case(
        "post-invalid-json",
        "PostToolUse output that is not JSON is dropped",
        (Hook("p", event="PostToolUse", stdout="nope"),),
        event="PostToolUse",
    ),
    # --- lifecycle -------------------------------------------------------------------------
    Case(
        "start-cancel-ignored",
        "TaskStart runs detached: its cancel is ignored",
        (Hook("s", event="TaskStart", stdout=CANCEL),),
        event="TaskStart",
    ),
    Case(
        "resume-env-ignored",
        "CLINE_HOOK_AGENT_RESUME=1 does not turn file hooks' TaskStart into TaskResume",
        (Hook("r", event="TaskResume", stdout=CANCEL), Hook("s", event="TaskStart")),
        event="TaskStart",
        env={"CLINE_HOOK_AGENT_RESUME": "1"},
    ),
    Case(
        "complete-fires",
        "TaskComplete fires after the run with the final text",
        (Hook("c", event="TaskComplete", stdout=control(cancel=True)),),
        event="TaskComplete",
    ),
    Case(
        "error-after-cancel",
        "a PreToolUse cancel ends the run as an error; the CLI exits before its detached "
        "TaskError and TaskCancel file hooks start",
        (pre("a", CANCEL), Hook("e", event="TaskError"), Hook("x", event="TaskCancel")),
    ),
]
