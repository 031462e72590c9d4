"""The reference's example hooks (``examples/``), installed as it says and fired through hookd.

``cline-sdk-file-hooks.md`` §Common Patterns gives seven hooks; each is copied to
``.cline/hooks/PreToolUse.<ext>`` and made executable, as the reference's ``cp`` and
``chmod +x`` lines do, then fired with a payload that takes each branch of it.
"""

from __future__ import annotations

import subprocess

import pytest

from conformance.cline_sdk._sdk import (
    DOC_TOOL_CALL_EVENT,
    EXAMPLES,
    HOOKS,
    SPEC,
    Case,
    Fire,
    Places,
    params,
    run,
    tool_call,
)

NOTHING = {"blocked": False, "reason": None, "context": None, "updatedInput": None, "native": {}}
RAN_CLEANLY = ({"error": None, "exitCode": 0, "timedOut": False},)


def example(name: str, install_as: str = "PreToolUse") -> tuple[tuple[str, str], ...]:
    """The example's text, to be installed as ``.cline/hooks/<install_as>.<its ext>``."""
    ext = name.rsplit(".", 1)[1]
    return ((f"{HOOKS}/{install_as}.{ext}", (EXAMPLES / name).read_text()),)


def git_repo_on(branch: str):
    def setup(places: Places) -> None:
        subprocess.run(["git", "init", "-q", "-b", branch, str(places.ws)], check=True)

    return setup


CASES = [
    Case(
        id="log-and-proceed",
        rule=f"{SPEC} §Common Patterns 'Log and proceed': the hook logs `Action: <tool>` to "
        "stderr and answers `{}`; §Output: an empty {} means 'do nothing'. Fired with the "
        "§Debugging 'Test a hook manually' stdin.",
        files=example("log_and_proceed.sh"),
        fires=(
            Fire(payload={"tool_call": {"name": "read_files", "input": {"filePath": "test.ts"}}}),
        ),
        expect=NOTHING,
        hooks=RAN_CLEANLY,
        mode=0o755,
    ),
    Case(
        id="inject-context-run-commands",
        rule=f"{SPEC} §Common Patterns 'Inject context into next turn': for run_commands the "
        "hook answers {context: 'Current branch: <git branch>'}; the hook runs in the "
        "workspace, so the branch is the workspace's.",
        files=example("inject_context.sh"),
        fires=(Fire(payload=tool_call("run_commands", commands=["npm test"])),),
        expect={
            "blocked": False,
            "context": "Current branch: feature/login",
            "native": {"context": "Current branch: feature/login"},
        },
        hooks=RAN_CLEANLY,
        needs=("git", "jq"),
        mode=0o755,
        setup=git_repo_on("feature/login"),
    ),
    Case(
        id="inject-context-other-tool",
        rule=f"{SPEC} §Common Patterns 'Inject context into next turn': any other tool gets {{}}.",
        files=example("inject_context.sh"),
        fires=(Fire(payload=DOC_TOOL_CALL_EVENT),),
        expect=NOTHING,
        hooks=RAN_CLEANLY,
        needs=("jq",),
        mode=0o755,
    ),
    Case(
        id="modify-input-home-path",
        rule=f"{SPEC} §Common Patterns 'Modify tool input before execution': a read_files path "
        "matching `~/*` is answered with {overrideInput: {filePath: <normalized>}}, which "
        "replaces the tool input. Bash expands the `~` of that pattern, so what matches is a "
        "path already under $HOME, and it comes back unchanged as the override.",
        files=example("modify_input.sh"),
        fires=(Fire(payload=tool_call(filePath="{home}/notes.txt")),),
        expect={
            "blocked": False,
            "context": None,
            "updatedInput": {"filePath": "{home}/notes.txt"},
            "updatedInputFrom": f"{HOOKS}/PreToolUse.sh",
            "native": {"overrideInput": {"filePath": "{home}/notes.txt"}},
        },
        hooks=RAN_CLEANLY,
        needs=("jq",),
        mode=0o755,
    ),
    Case(
        id="modify-input-literal-tilde",
        rule=f"{SPEC} §Common Patterns 'Modify tool input before execution' means to expand a "
        "literal `~/notes.txt`, but `[[ $file == ~/* ]]` compares with the tilde-expanded "
        "pattern, so the literal never matches and the answer is {} (the same under the "
        "SDK, which runs the same bash): no override.",
        files=example("modify_input.sh"),
        fires=(Fire(payload=tool_call(filePath="~/notes.txt")),),
        expect=NOTHING,
        hooks=RAN_CLEANLY,
        needs=("jq",),
        mode=0o755,
    ),
    Case(
        id="block-force-push",
        rule=f"{SPEC} §Common Patterns 'Block specific tools or commands': `git push --force` "
        "is answered {cancel: true, errorMessage: 'Force push is blocked.'}; §Output: cancel "
        "cancels the pending tool call, errorMessage surfaces to the agent.",
        files=example("block_commands.sh"),
        fires=(Fire(payload=tool_call("run_commands", command="git push --force origin main")),),
        expect={
            "blocked": True,
            "decision": "deny",
            "reason": "Force push is blocked.",
            "context": None,
            "native": {"cancel": True, "errorMessage": "Force push is blocked."},
        },
        hooks=({"error": None, "exitCode": 0, "blocked": True},),
        needs=("jq",),
        mode=0o755,
    ),
    Case(
        id="block-plain-push-allowed",
        rule=f"{SPEC} §Common Patterns 'Block specific tools or commands': other commands get {{}}.",
        files=example("block_commands.sh"),
        fires=(Fire(payload=tool_call("run_commands", command="git push origin main")),),
        expect=NOTHING,
        hooks=RAN_CLEANLY,
        needs=("jq",),
        mode=0o755,
    ),
    Case(
        id="require-review-critical-file",
        rule=f"{SPEC} §Common Patterns 'Require review for sensitive files': editing "
        "package.json is answered {review: true, context: ...}; §Output: review pauses for "
        "user review, context is injected. hookd passes `review` on in `native` (the SDK's "
        "file-hook adapter drops it: see Deliberate differences).",
        files=example("require_review.sh"),
        fires=(Fire(payload=tool_call("editor", filePath="/repo/package.json")),),
        expect={
            "blocked": False,
            "context": "This will modify a critical file",
            "native": {"context": "This will modify a critical file", "review": True},
        },
        hooks=RAN_CLEANLY,
        needs=("jq",),
        mode=0o755,
    ),
    Case(
        id="require-review-other-file",
        rule=f"{SPEC} §Common Patterns 'Require review for sensitive files': other files get {{}}.",
        files=example("require_review.sh"),
        fires=(Fire(payload=tool_call("write_file", filePath="/repo/src/app.ts")),),
        expect=NOTHING,
        hooks=RAN_CLEANLY,
        needs=("jq",),
        mode=0o755,
    ),
    Case(
        id="python-test-file-context",
        rule=f"{SPEC} §Common Patterns 'Python: Parse and manipulate JSON': reading a "
        "`.test.ts` file is answered {context: 'This is a test file'} (indentation restored, "
        "see examples/README.md).",
        files=example("parse_and_manipulate.py"),
        fires=(Fire(payload=tool_call(filePath="/repo/src/a.test.ts")),),
        expect={
            "blocked": False,
            "context": "This is a test file",
            "native": {"context": "This is a test file"},
        },
        hooks=RAN_CLEANLY,
        mode=0o755,
    ),
    Case(
        id="python-other-file",
        rule=f"{SPEC} §Common Patterns 'Python: Parse and manipulate JSON': other files get {{}}.",
        files=example("parse_and_manipulate.py"),
        fires=(Fire(payload=DOC_TOOL_CALL_EVENT),),
        expect=NOTHING,
        hooks=RAN_CLEANLY,
        mode=0o755,
    ),
    Case(
        id="typescript-branch-context",
        rule=f"{SPEC} §Common Patterns 'TypeScript: Type-safe hook with async operations': "
        "run under bun (its shebang), run_commands is answered {context: 'Branch: main'}.",
        files=example("type_safe_async.ts"),
        fires=(Fire(payload=tool_call("run_commands", commands=["ls"])),),
        expect={"context": "Branch: main", "native": {"context": "Branch: main"}},
        hooks=RAN_CLEANLY,
        needs=("bun",),
        mode=0o755,
    ),
    Case(
        id="typescript-other-tool",
        rule=f"{SPEC} §Common Patterns 'TypeScript: Type-safe hook with async operations': "
        "other tools get {}.",
        files=example("type_safe_async.ts"),
        fires=(Fire(payload=DOC_TOOL_CALL_EVENT),),
        expect=NOTHING,
        hooks=RAN_CLEANLY,
        needs=("bun",),
        mode=0o755,
    ),
]


@pytest.mark.parametrize("case", params(CASES))
async def test_example_hook(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)
