"""How Cline starts a hook, how long it lets it run, and what its exit means.

``cline-hooks.md`` §How It Works: hooks are run "like git hooks" through a shell that honours
the shebang; §Hook Execution Limits: 30 s timeout. ``cline-implementation.md`` §2A: the
path is single-quoted for ``sh -c`` (a file without a shebang runs as a sh script), the
child is detached into its own process group, exit 0 resolves and any other exit is an
error; §8.9: paths with spaces, quotes, ``$``, backticks... must still run.
"""

from __future__ import annotations

import pytest

from conformance.cline._cline import (
    DOC,
    GLOBAL,
    HOOKS,
    NOTES,
    NOTHING,
    SH,
    Case,
    Fire,
    Has,
    Places,
    answer,
    params,
    run,
    write,
)
from hookd_testing import Gate, kill_leftovers, process_gone, read_pids, wait_until

STOP = {"cancel": True, "errorMessage": "ran"}
RAN = {"blocked": True, "reason": "ran"}
STOP_JSON = '{"cancel": true, "errorMessage": "ran"}'
FAILED_OPEN = {**NOTHING, "hooks": [{"blocked": False, "error": Has("exited with code")}]}

LAUNCH_CASES = [
    Case(
        id="bash-shebang",
        rule=f"{DOC} §Hook Files: the shebang picks the interpreter (#!/usr/bin/env bash, "
        "bash syntax allowed).",
        files=(
            (
                f"{HOOKS}/PreToolUse",
                "#!/usr/bin/env bash\ncat >/dev/null\n"
                f"[[ -n $BASH_VERSION ]] && echo '{STOP_JSON}'\n",
            ),
        ),
        expect=RAN,
        needs=("bash",),
    ),
    Case(
        id="node-shebang",
        rule=f"{DOC} §Hook Files: #!/usr/bin/env node (Cline's own tests write node hooks, "
        f"{NOTES} §8).",
        files=(
            (
                f"{HOOKS}/PreToolUse",
                "#!/usr/bin/env node\nlet s='';process.stdin.on('data',d=>s+=d)"
                ".on('end',()=>{const i=JSON.parse(s);console.log(JSON.stringify("
                "{cancel:true,errorMessage:i.hookName==='PreToolUse'?'ran':'wrong'}))})\n",
            ),
        ),
        expect=RAN,
        needs=("node",),
    ),
    Case(
        id="python-shebang",
        rule=f"{DOC} §How It Works: any scripting language (python, ...).",
        files=(
            (
                f"{HOOKS}/PreToolUse",
                "#!/usr/bin/env python3\nimport json, sys\njson.load(sys.stdin)\n"
                f"print('{STOP_JSON}')\n",
            ),
        ),
        expect=RAN,
        needs=("python3",),
    ),
    Case(
        id="shebang-with-argument",
        rule=f"{NOTES} §2A: the kernel reads the shebang, arguments included: under "
        "#!/bin/sh -e the hook stops at `false` before answering (exit 1, no JSON: fails open).",
        files=(
            (f"{HOOKS}/PreToolUse", f"#!/bin/sh -e\ncat >/dev/null\nfalse\necho '{STOP_JSON}'\n"),
        ),
        expect={**FAILED_OPEN, "hooks": [{"exitCode": 1}]},
    ),
    Case(
        id="no-shebang-runs-as-sh",
        rule=f"{NOTES} §2A: Cline runs the file through /bin/sh -c, so a file without a "
        "shebang runs as a sh script (ENOEXEC fallback).",
        files=((f"{HOOKS}/PreToolUse", f"cat >/dev/null\necho '{STOP_JSON}'\n"),),
        expect=RAN,
        hooks=({"exitCode": 0, "error": None},),
    ),
    Case(
        id="missing-interpreter",
        rule=f"{NOTES} §2A/§2B: an interpreter that does not exist makes the hook fail (the "
        "shell's exit 127 in Cline): fail open, and Promise.all loses the other hooks' "
        "answers too (the default cline_failure_policy). hookd names the interpreter.",
        files=(
            (f"{HOOKS}/PreToolUse", "#!/nonexistent/interpreter\n"),
            (f"{GLOBAL}/PreToolUse", answer({"contextModification": "other"})),
        ),
        expect={"blocked": False, "context": None},
        hooks=(
            {"error": None},
            {"error": "could not start: its interpreter #!/nonexistent/interpreter was not found"},
        ),
    ),
    Case(
        id="crlf-shebang",
        rule=f"{DOC} §Hook Files (shebang required, same script on all platforms): a hook "
        "saved with CRLF line endings names '/bin/sh\\r', which does not exist; it fails "
        "open in Cline as in hookd, where the error says why.",
        files=((f"{HOOKS}/PreToolUse", f"#!/bin/sh\r\necho '{STOP_JSON}'\r\n"),),
        expect=NOTHING,
        hooks=({"error": Has("#!/bin/sh was not found", "carriage return")},),
    ),
    Case(
        id="limits-are-not-environment-variables",
        rule=f"{DOC} §Hook Execution Limits: 'configurable via HOOK_EXECUTION_TIMEOUT_MS' and "
        "'MAX_CONTEXT_MODIFICATION_SIZE': constants in Cline's code, not variables it reads. "
        "hookd reads neither from the fire's env: 30 s and 50,000 characters stay.",
        files=(
            (
                f"{HOOKS}/PreToolUse",
                SH + 'cat >/dev/null\nprintf \'{"contextModification": "\'\n'
                "yes x | head -n 50001 | tr -d '\\n'\nprintf '\"}'\n",
            ),
        ),
        fires=(
            Fire(
                params={
                    "env": {"HOOK_EXECUTION_TIMEOUT_MS": "1", "MAX_CONTEXT_MODIFICATION_SIZE": "9"}
                }
            ),
        ),
        expect={"context": Has("x" * 50_000 + "\n\n[... context truncated")},
        hooks=({"timeoutMs": 30_000, "timedOut": False},),
    ),
]

SPECIAL_NAMES = [
    ("space", "My Project"),
    ("spaces", "a   b"),
    ("single-quote", "it's"),
    ("several-single-quotes", "'a' 'b'"),
    ("double-quote", 'say "hi"'),
    ("dollar", "$HOME cost"),
    ("backtick", "run `id`"),
    ("parens", "(copy)"),
    ("ampersand", "a&b"),
    ("semicolon", "a;b"),
    ("pipe", "a|b"),
    ("newline", "line\nbreak"),
    ("tab", "tab\there"),
    ("non-ascii", "Projekt ü ✓"),
]


def special_path_case(label: str, name: str, shebang: bool) -> Case:
    body = (SH if shebang else "") + f"cat >/dev/null\necho '{STOP_JSON}'\n"
    kind = "shebang" if shebang else "no-shebang"
    return Case(
        id=f"path-{label}-{kind}",
        rule=f"{NOTES} §8.9 escapeShellPath: a hook under a workspace path holding "
        f"{name!r} still runs (hookd passes the path as one argument, never through a "
        "shell command line).",
        files=((f"{{tmp}}/{name}/.clinerules/hooks/PreToolUse", body),),
        roots=(f"{{tmp}}/{name}",),
        expect=RAN,
        hooks=({"error": None, "source": f"{{tmp}}/{name}/.clinerules/hooks/PreToolUse"},),
    )


PATH_CASES = [special_path_case(label, name, True) for label, name in SPECIAL_NAMES] + [
    special_path_case(label, name, False)
    for label, name in SPECIAL_NAMES
    if label in ("space", "single-quote", "dollar", "newline")
]

EXIT_CASES = [
    Case(
        id="exit-0-with-json",
        rule=f"{NOTES} §2B decision table: exit 0 + valid JSON is that output.",
        files=((f"{HOOKS}/PreToolUse", answer(STOP)),),
        expect=RAN,
        hooks=({"exitCode": 0, "error": None},),
    ),
    Case(
        id="exit-1-no-output",
        rule=f"{NOTES} §2B, §8.1 #6: a non-zero exit without JSON is an error "
        "('<Hook> hook exited with code N'); the caller fails open.",
        files=((f"{HOOKS}/PreToolUse", SH + "cat >/dev/null\nexit 1\n"),),
        expect={
            **FAILED_OPEN,
            "hooks": [{"exitCode": 1, "error": "PreToolUse hook exited with code 1"}],
        },
    ),
    Case(
        id="exit-1-stderr-in-error",
        rule=f"{NOTES} §2B: the error carries the hook's stderr as its details.",
        files=(
            (
                f"{HOOKS}/PreToolUse",
                SH + "cat >/dev/null\necho 'Hook execution error' >&2\nexit 1\n",
            ),
        ),
        expect={
            **FAILED_OPEN,
            "hooks": [{"error": "PreToolUse hook exited with code 1: Hook execution error"}],
        },
    ),
    Case(
        id="exit-3-not-json",
        rule=f"{NOTES} §2B: any non-zero code is an error, whatever the stdout says.",
        files=((f"{HOOKS}/PreToolUse", SH + "cat >/dev/null\necho oops\nexit 3\n"),),
        expect={**FAILED_OPEN, "hooks": [{"exitCode": 3}]},
    ),
    Case(
        id="killed-by-signal",
        rule=f"{NOTES} §2A: a hook killed by a signal is an error (Cline says 'code 1, "
        "signal ...'); hookd names the signal.",
        files=((f"{HOOKS}/PreToolUse", SH + "cat >/dev/null\nkill -KILL $$\n"),),
        expect={
            **NOTHING,
            "hooks": [{"exitCode": -9, "error": "PreToolUse hook was killed by SIGKILL"}],
        },
    ),
]


@pytest.mark.parametrize("case", params(LAUNCH_CASES + PATH_CASES + EXIT_CASES))
async def test_launch(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)


async def test_hook_leads_its_own_process_group(rpc, places: Places) -> None:
    """cline-implementation.md §2A/§8.7: on Unix the hook is spawned detached, in a new
    process group. hookd: the hook leads its own session (so its whole tree can be
    killed)."""
    write(
        places,
        f"{HOOKS}/PreToolUse",
        SH + "cat >/dev/null\ncat /proc/$$/stat > '{tmp}/stat'\necho '{}'\n",
    )

    await rpc.fire("cline", "PreToolUse", [str(places.ws)], {"taskId": "t"})

    fields = (places.tmp / "stat").read_text().rsplit(")", 1)[1].split()
    pid = int((places.tmp / "stat").read_text().split()[0])
    pgrp, session = int(fields[2]), int(fields[3])
    assert pgrp == session == pid


# --- the 30 s timeout -------------------------------------------------------------------

HANGS = SH + "cat >/dev/null\necho $$ >> '{tmp}/pids'\nsleep 60 &\necho $! >> '{tmp}/pids'\nwait\n"
"""A hook that never ends on its own, with a child of its own (both pids recorded)."""


async def test_default_timeout_is_30_seconds(rpc, places: Places) -> None:
    """cline-hooks.md §Hook Execution Limits: hooks must complete within 30 seconds
    (HOOK_EXECUTION_TIMEOUT_MS = 30000). Every hook entry of a fire shows it."""
    write(places, f"{HOOKS}/PreToolUse", answer({}))
    write(places, f"{GLOBAL}/PreToolUse", answer({}))

    result = await rpc.fire("cline", "PreToolUse", [str(places.ws)], {"taskId": "t"})

    assert [h["timeoutMs"] for h in result["hooks"]] == [30_000, 30_000]


async def test_timeout_kills_the_hook_and_its_children(rpc, places: Places) -> None:
    """cline-hooks.md §Hook Execution Limits: a hook past its timeout is stopped and
    counts as failed (Cline: "<Hook> hook execution timed out"). Tested with a short
    ``timeoutMs`` on the fire instead of 30 s. hookd kills the whole process group: the
    hook's own child is gone too (Cline SIGTERMs the direct child only, notes §2A)."""
    write(places, f"{HOOKS}/PreToolUse", HANGS)
    try:
        result = await rpc.fire(
            "cline", "PreToolUse", [str(places.ws)], {"taskId": "t"}, timeoutMs=300
        )

        assert (result["blocked"], result["native"]["cancel"]) == (False, False)
        (hook,) = result["hooks"]
        assert (hook["timedOut"], hook["error"]) == (True, Has("timed out"))
        assert hook["durationMs"] < 10_000
        await wait_until(lambda: len(read_pids(places.tmp / "pids")) == 2)
        await wait_until(lambda: all(map(process_gone, read_pids(places.tmp / "pids"))))
    finally:
        kill_leftovers(read_pids(places.tmp / "pids"))


async def test_work_moved_to_the_background_is_left_running(rpc, places: Places) -> None:
    """cline-hooks.md §Troubleshooting "Hook Timing Out": consider moving complex logic to
    a background process. A hook that starts a background job (output redirected) and
    answers returns at once; the job is not killed and finishes its work later."""
    gate = Gate(places.tmp / "gate")
    marker = places.tmp / "done"
    write(
        places,
        f"{HOOKS}/PostToolUse",
        SH + "cat >/dev/null\n"
        f"( {gate.wait_command}; echo finished > {marker} ) >/dev/null 2>&1 &\n"
        """echo '{"cancel": false, "contextModification": "queued"}'\n""",
    )

    result = await rpc.fire(
        "cline", "PostToolUse", [str(places.ws)], {"taskId": "t"}, timeoutMs=20_000
    )

    assert result["context"] == "queued"
    assert result["hooks"][0]["error"] is None
    assert not marker.exists()
    await gate.open()
    await wait_until(lambda: marker.exists() and marker.read_text() == "finished\n")
