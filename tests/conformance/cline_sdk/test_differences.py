"""Where the Cline SDK's code, its docs and legacy Cline disagree, and hookd's choice.

``cline-implementation.md`` §9 lists the disagreements; for the SDK (runner C) hookd
follows the SDK's code, except where copying it would leave a hook unbounded or
silently lose information. Each case pins the choice; the Cline SDK section of ``docs/compatibility.md``
lists them under "Deliberate differences".
"""

from __future__ import annotations

import pytest

from conformance.cline_sdk._sdk import (
    GLOBAL_HOOKS,
    HOOKS,
    NOTES,
    Case,
    Fire,
    Has,
    Places,
    appends,
    control,
    params,
    prints,
    run,
)
from hookd_testing import process_gone, read_pids, wait_until

S9 = f"{NOTES} §9"

HANGS = "cat >/dev/null\nsleep 60 &\necho $! >> '{tmp}/pids'\necho $$ >> '{tmp}/pids'\nwait\n"
TERM_AWARE = (
    "trap 'echo term > \"{tmp}/term\"; exit 0' TERM\n"
    "cat >/dev/null\necho $$ >> '{tmp}/pids'\nsleep 60 &\necho $! >> '{tmp}/pids'\nwait\n"
)
FLOODS = (
    "import sys\nsys.stdin.read()\n"
    "for _ in range(12_000):\n    print('x' * 99)\n"
    'print(\'HOOK_CONTROL\\t{"cancel": true, "errorMessage": "past the cap"}\')\n'
)
"""Python: about 1.2 MB of debug lines, then the control line."""


def all_gone(places: Places) -> bool:
    pids = read_pids(places.tmp / "pids")
    return len(pids) == 2 and all(process_gone(pid) for pid in pids)


CASES = [
    Case(
        id="9.1-non-zero-exit-with-json-honoured",
        rule=f"{S9}.1: legacy Cline treats a non-zero exit as failure even with valid JSON; "
        "the SDK honours the JSON and ignores the exit code. hookd: as the SDK.",
        files=((f"{HOOKS}/PreToolUse.sh",
                control({"cancel": True, "errorMessage": "stop"}, exit_code=2)),),
        expect={"blocked": True, "reason": "stop"},
        hooks=({"exitCode": 2, "error": None, "blocked": True},),
    ),
    Case(
        id="9.2-crash-does-not-lose-a-cancel",
        rule=f"{S9}.2: legacy Cline's Promise.all loses another hook's cancel when one hook "
        "fails; the SDK skips the failing hook and keeps the others. hookd: as the SDK.",
        files=((f"{HOOKS}/PreToolUse", prints("Traceback: boom\n", exit_code=1)),
               (f"{HOOKS}/PreToolUse.sh", control({"cancel": True, "errorMessage": "kept"}))),
        expect={"blocked": True, "reason": "kept",
                "native": {"cancel": True, "errorMessage": "kept"}},
        hooks=({"exitCode": 1, "error": Has("invalid JSON")}, {"error": None, "blocked": True}),
    ),
    Case(
        id="9.4-lifecycle-hook-is-bounded",
        rule=f"{S9}.4 and §2C: the SDK detaches lifecycle hooks with no timeout at all. "
        "hookd awaits them and bounds them like every hook (120 s by default, the fire's "
        "timeoutMs here), killing the whole process group.",
        files=((f"{HOOKS}/TaskStart.sh", HANGS),),
        fires=(Fire("TaskStart", {"taskId": "conv-123"}, {"timeoutMs": 300}),),
        expect={"blocked": False, "native": {}},
        hooks=({"timedOut": True, "error": Has("timed out")},),
        check=lambda result, places: len(read_pids(places.tmp / "pids")) == 2,
    ),
    Case(
        id="9.4-timeout-sends-sigterm-first",
        rule=f"{S9}.4: the SDK kills a timed-out tool hook with SIGKILL at once. hookd sends "
        "SIGTERM to the hook's process group first and SIGKILL after a grace period, so a "
        "hook can clean up (it still counts as timed out and is skipped).",
        files=((f"{HOOKS}/PreToolUse.sh", TERM_AWARE),),
        fires=(Fire(params={"timeoutMs": 300}),),
        expect={"blocked": False},
        hooks=({"timedOut": True, "error": Has("timed out")},),
        check=lambda result, places: (places.tmp / "term").read_text() == "term\n",
    ),
    Case(
        id="9.5-one-layer-newline-join",
        rule=f"{S9}.5: legacy Cline joins contexts with a blank line, trimmed; the SDK joins "
        "file hooks (one layer, whatever folder) with a single \\n, untrimmed. hookd: as "
        "the SDK, for hooks from every folder.",
        files=((f"{GLOBAL_HOOKS}/PreToolUse.sh", control({"context": " global "})),
               (f"{HOOKS}/PreToolUse.sh", control({"context": "workspace\n"}))),
        expect={"context": " global \nworkspace\n", "native": {"context": " global \nworkspace\n"}},
    ),
    Case(
        id="9.9-documents-folder-not-xdg",
        rule=f"{S9}.9: legacy Cline finds the global folder through xdg-user-dir DOCUMENTS; "
        "the SDK uses $HOME/Documents/Cline/Hooks. hookd: as the SDK.",
        files=(("{home}/.config/user-dirs.dirs", 'XDG_DOCUMENTS_DIR="$HOME/Docs"\n'),
               ("{home}/Docs/Cline/Hooks/PreToolUse.sh", appends("xdg")),
               (f"{GLOBAL_HOOKS}/PreToolUse.sh", appends("documents"))),
        hooks=({"source": f"{GLOBAL_HOOKS}/PreToolUse.sh"},),
        check=lambda result, places: places.log.read_text().split() == ["documents"],
    ),
    Case(
        id="multi-root-runs-every-roots-hooks",
        rule=f"{NOTES} §1B: the SDK has one workspace path. hookd takes several roots and "
        "runs the hooks of each root's folders, in one localeCompare order.",
        files=(("{tmp}/b/.cline/hooks/PreToolUse.sh", control({"context": "b"})),
               ("{tmp}/a/.cline/hooks/PreToolUse.sh", control({"context": "a"}))),
        roots=("{tmp}/b", "{tmp}/a"),
        expect={"context": "a\nb"},
        hooks=({"source": "{tmp}/a/.cline/hooks/PreToolUse.sh"},
               {"source": "{tmp}/b/.cline/hooks/PreToolUse.sh"}),
    ),
    Case(
        id="control-line-past-output-cap-is-lost",
        rule=f"{NOTES} §2C: the SDK reads all of stdout. hookd keeps the first 1 MiB of each "
        "stream and says so (stdoutTruncated); a HOOK_CONTROL line after that is lost and "
        "the hook skipped as unparsable.",
        files=((f"{HOOKS}/PreToolUse.py", FLOODS),),
        expect={"blocked": False, "native": {}},
        hooks=({"stdoutTruncated": True, "error": Has("invalid JSON")},),
    ),
]  # fmt: skip


@pytest.mark.parametrize("case", params(CASES))
async def test_choice(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)
    if (places.tmp / "pids").exists():
        await wait_until(lambda: all_gone(places))
