"""Where Cline looks for hooks and what counts as one.

``cline-hooks.md`` §Overview/§Global vs Workspace Hooks: the global folder and
``.clinerules/hooks/`` of each workspace root; §Hook Files: no extension, a shebang, the
executable bit. ``cline-implementation.md`` §1A: the file named exactly like the event,
a regular file (``stat`` follows symlinks) passing ``access(X_OK)``, one per folder; the
folders in order runtime dir, global, each root; ENOENT, EACCES and ENOTDIR are "no hook".
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conformance.cline._cline import (
    DESIGN,
    DOC,
    DOC_GLOBAL,
    GLOBAL,
    HOOKS,
    HOOKS2,
    NOTES,
    NOTHING,
    SH,
    Case,
    Fire,
    Has,
    Places,
    answer,
    appends,
    context_of,
    params,
    run,
    write,
)

RAN = {"blocked": True, "reason": "ran"}
RUNS = answer({"cancel": True, "errorMessage": "ran"})
"""A hook whose running shows in the result."""
NONE_RAN = {**NOTHING, "hooks": [], "warnings": []}


def link(target: str, name: str):
    def setup(places: Places) -> None:
        path = Path(places.fill(name))
        path.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(places.fill(target), path)

    return setup


def fifo(name: str):
    def setup(places: Places) -> None:
        path = Path(places.fill(name))
        path.parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(path)

    return setup


FOLDER_CASES = [
    Case(
        id="doc-global-folder",
        rule=f"{DOC} §Global Hooks says ~/Documents/Cline/Rules/Hooks/<Hook> applies to all "
        "workspaces; cline 2.18.0 never reads that folder (tests/agents/cline::"
        "rules-hooks-not-read), so hookd does not either.",
        files=((f"{DOC_GLOBAL}/PreToolUse", RUNS),),
        expect=NONE_RAN,
    ),
    Case(
        id="code-global-folder",
        rule=f"{NOTES} §1A: Cline's code (since 2026) reads <Documents>/Cline/Hooks; hookd "
        "searches it as well as the documented folder.",
        files=((f"{GLOBAL}/PreToolUse", RUNS),),
        expect=RAN,
        hooks=({"layer": "global", "source": f"{GLOBAL}/PreToolUse"},),
    ),
    Case(
        id="both-global-folders-in-order",
        rule=f"{DOC} §Global Hooks and {NOTES} §1A name two global folders; cline 2.18.0 "
        "reads only <Documents>/Cline/Hooks: only its hook runs.",
        files=(
            (f"{GLOBAL}/PreToolUse", context_of("code")),
            (f"{DOC_GLOBAL}/PreToolUse", context_of("doc")),
        ),
        expect={"context": "code"},
        hooks=({"source": f"{GLOBAL}/PreToolUse"},),
    ),
    Case(
        id="global-runs-without-workspace",
        rule=f"{DOC} §Global Hooks: global hooks apply to all workspaces, also a fire with "
        "no workspace root.",
        files=((f"{GLOBAL}/PreToolUse", RUNS),),
        roots=(),
        expect=RAN,
    ),
    Case(
        id="lowercase-rules-hooks-folder",
        rule=f"{DESIGN} §Hook Discovery says `<global Cline rules folder>/hooks`; {DOC} and "
        "the code say `Hooks`. hookd follows the docs and the code: `Rules/hooks` is not "
        "searched.",
        files=(("{home}/Documents/Cline/Rules/hooks/PreToolUse", RUNS),),
        expect=NONE_RAN,
    ),
    Case(
        id="workspace-folder",
        rule=f"{DOC} §Workspace Hooks: .clinerules/hooks/<Hook> in the workspace root.",
        files=((f"{HOOKS}/PreToolUse", RUNS),),
        expect=RAN,
        hooks=({"layer": "workspace", "source": f"{HOOKS}/PreToolUse"},),
    ),
    Case(
        id="dot-cline-hooks-not-searched",
        rule=f"{DESIGN} §Cline Hooks mentions `.cline/hooks`; Cline's legacy runner ({NOTES} "
        "§1A) and the docs use `.clinerules/hooks` only (`.cline/hooks` is the SDK's: "
        "dialect cline-sdk).",
        files=(("{ws}/.cline/hooks/PreToolUse", RUNS), ("{home}/.cline/hooks/PreToolUse", RUNS)),
        expect=NONE_RAN,
    ),
    Case(
        id="home-clinerules-not-searched",
        rule=f"{DOC} §Workspace Hooks: the folder is per workspace root; ~/.clinerules/hooks "
        "is not a global folder.",
        files=(("{home}/.clinerules/hooks/PreToolUse", RUNS),),
        expect=NONE_RAN,
    ),
    Case(
        id="subfolder-of-root-not-searched",
        rule=f"{NOTES} §1A: only <root>/.clinerules/hooks, not a nested project's folder.",
        files=(("{ws}/packages/app/.clinerules/hooks/PreToolUse", RUNS),),
        expect=NONE_RAN,
    ),
    Case(
        id="multi-root-each-roots-folder",
        rule=f"{DOC} §Multi-Root Workspaces: each root's .clinerules/hooks runs; any cancel "
        "blocks, contexts are concatenated (root order).",
        files=(
            (f"{HOOKS}/PreToolUse", context_of("first")),
            (
                f"{HOOKS2}/PreToolUse",
                answer({"cancel": True, "contextModification": "second", "errorMessage": "no"}),
            ),
        ),
        roots=("{ws}", "{ws2}"),
        expect={"blocked": True, "reason": "no", "context": "first\n\nsecond"},
        hooks=({"source": f"{HOOKS}/PreToolUse"}, {"source": f"{HOOKS2}/PreToolUse"}),
    ),
    Case(
        id="same-root-twice-runs-once",
        rule=f"{NOTES} §1A: the folder list is de-duplicated (new Set).",
        files=((f"{HOOKS}/PreToolUse", appends("once")),),
        roots=("{ws}", "{ws}"),
        hooks=({"error": None},),
        check=lambda result, places: places.words() == ["once"],
    ),
    Case(
        id="root-with-trailing-slash",
        rule=f"{NOTES} §8.10: a root with a trailing separator still gives root/.clinerules/hooks.",
        files=((f"{HOOKS}/PreToolUse", RUNS),),
        roots=("{ws}/",),
        expect=RAN,
        hooks=({"source": f"{HOOKS}/PreToolUse"},),
    ),
    Case(
        id="hooks-dir-first",
        rule=f"{NOTES} §1A getAllHooksDirs: the runtime hooks dir (`--hooks-dir`; hookd's "
        "hooksDirs) comes first, then global, then the roots.",
        files=(
            ("{tmp}/extra/PreToolUse", context_of("runtime")),
            (f"{GLOBAL}/PreToolUse", context_of("global")),
            (f"{HOOKS}/PreToolUse", context_of("workspace")),
        ),
        fires=(Fire(params={"hooksDirs": ["{tmp}/extra"]}),),
        expect={"context": "runtime\n\nglobal\n\nworkspace"},
        hooks=({"layer": "hooks-dir"}, {"layer": "global"}, {"layer": "workspace"}),
    ),
    Case(
        id="hooks-dir-missing-is-skipped",
        rule=f"{NOTES} §8.10 getAllHooksDirs: the runtime hooks dir is left out when it does "
        "not exist; no error.",
        files=((f"{HOOKS}/PreToolUse", RUNS),),
        fires=(Fire(params={"hooksDirs": ["{tmp}/missing"]}),),
        expect={**RAN, "warnings": []},
        hooks=({"layer": "workspace"},),
    ),
    Case(
        id="cline-hooks-dir-env",
        rule=f"{NOTES} §1B: the CLI's --hooks-dir only sets CLINE_HOOKS_DIR, which Cline "
        "never reads. hookd reads it from the fire's env as a runtime hooks dir (an "
        "addition: without it nothing changes).",
        files=(("{tmp}/extra/PreToolUse", RUNS),),
        fires=(Fire(params={"env": {"CLINE_HOOKS_DIR": "{tmp}/extra"}}),),
        expect=RAN,
        hooks=({"layer": "hooks-dir", "source": "{tmp}/extra/PreToolUse"},),
    ),
]


@pytest.mark.parametrize("case", params(FOLDER_CASES))
async def test_folders(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)


def file_case(id: str, rule: str, name: str, runs: bool, mode: int = 0o755, **extra) -> Case:
    return Case(
        id=id,
        rule=rule,
        files=((f"{HOOKS}/{name}", RUNS, mode),) if name else (),
        expect=RAN if runs else NONE_RAN,
        **extra,
    )


S1A = f"{NOTES} §1A findHookInHooksDir"
FILE_CASES = [
    file_case(
        "exact-name",
        f"{DOC} §Hook Files: named exactly like the hook, no extension.",
        "PreToolUse",
        True,
    ),
    file_case(
        "sh-extension",
        f"{DOC} §Hook Files: no file extensions (.sh is not the hook).",
        "PreToolUse.sh",
        False,
    ),
    file_case(
        "ps1-on-unix",
        f"{S1A}, §8.1 #13: .ps1 hooks are Windows-only, ignored on Unix.",
        "PreToolUse.ps1",
        False,
    ),
    file_case("lowercase-name", f"{S1A}: the name is case-sensitive.", "pretooluse", False),
    file_case("uppercase-name", f"{S1A}: the name is case-sensitive.", "PRETOOLUSE", False),
    file_case("backup-suffix", f"{S1A}: only the exact name.", "PreToolUse~", False),
    file_case(
        "not-executable",
        f"{DOC} §Enabling Hooks 4 / §Hook Files: hooks must be "
        "executable; {NOTES} §7: chmod 644 is Cline's per-hook off switch; no error.",
        "PreToolUse",
        False,
        mode=0o644,
    ),
    file_case(
        "group-executable-only",
        f"{S1A}: access(X_OK) decides; hookd runs as root "
        "here, so any execute bit counts, as it does for Cline under root.",
        "PreToolUse",
        os.geteuid() == 0,
        mode=0o654,
    ),
    Case(
        id="directory-named-like-hook",
        rule=f"{S1A}: a directory is not a regular file: ignored.",
        setup=lambda p: (p.ws / ".clinerules" / "hooks" / "PreToolUse").mkdir(parents=True),
        expect=NONE_RAN,
    ),
    Case(
        id="fifo-named-like-hook",
        rule=f"{S1A}: only a regular file is a hook (a FIFO is neither opened nor run).",
        setup=fifo(f"{HOOKS}/PreToolUse"),
        expect=NONE_RAN,
    ),
    Case(
        id="symlink-to-executable",
        rule=f"{S1A}: stat and access follow symlinks: a link to an executable file is a hook.",
        files=(("{tmp}/real/hook", RUNS),),
        setup=link("{tmp}/real/hook", f"{HOOKS}/PreToolUse"),
        expect=RAN,
        hooks=({"source": f"{HOOKS}/PreToolUse"},),
    ),
    Case(
        id="symlink-to-non-executable",
        rule=f"{S1A}: a link to a file without an execute bit is no hook.",
        files=(("{tmp}/real/hook", RUNS, 0o644),),
        setup=link("{tmp}/real/hook", f"{HOOKS}/PreToolUse"),
        expect=NONE_RAN,
    ),
    Case(
        id="dangling-symlink",
        rule=f"{S1A}, {NOTES} §11: a dangling symlink gives ENOENT: ignored silently.",
        setup=link("{tmp}/missing", f"{HOOKS}/PreToolUse"),
        expect=NONE_RAN,
    ),
    Case(
        id="symlinked-hooks-folder",
        rule=f"{NOTES} §1A: isDirectory follows symlinks: a linked .clinerules/hooks works.",
        files=(("{tmp}/shared-hooks/PreToolUse", RUNS),),
        setup=link("{tmp}/shared-hooks", HOOKS),
        expect=RAN,
    ),
    Case(
        id="hooks-is-a-file",
        rule=f"{NOTES} §1A, §8.10: a plain file named `hooks` is no folder: skipped, no error.",
        files=(("{ws}/.clinerules/hooks", "not a folder\n", 0o644),),
        expect=NONE_RAN,
    ),
    Case(
        id="clinerules-is-a-file",
        rule=f"{DOC} §Hook Execution Limits: not a directory (ENOTDIR) is an expected error, "
        "handled silently.",
        files=(("{ws}/.clinerules", "rules as a single file\n", 0o644),),
        expect=NONE_RAN,
    ),
    Case(
        id="symlink-loop-is-reported",
        rule=f"{DOC} §Hook Execution Limits: unexpected file system errors are propagated "
        f"(not swallowed). {NOTES} §1A: Cline's cache then drops every hook of the event. "
        "hookd reports it in warnings and still runs the other folders' hooks.",
        files=((f"{GLOBAL}/PreToolUse", RUNS),),
        setup=link(f"{HOOKS}/PreToolUse", f"{HOOKS}/PreToolUse"),
        expect={**RAN, "warnings": [Has("unexpected error", f"{HOOKS}/PreToolUse")]},
        hooks=({"layer": "global"},),
    ),
]


@pytest.mark.parametrize("case", params(FILE_CASES))
async def test_hook_files(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)


def chmod(mode: int):
    def change(places: Places) -> None:
        (places.ws / ".clinerules" / "hooks" / "PreToolUse").chmod(mode)

    return change


def rewrite(body: str):
    def change(places: Places) -> None:
        write(places, f"{HOOKS}/PreToolUse", body)

    return change


CHANGE_CASES = [
    Case(
        id="created-after-first-fire",
        rule=f"{NOTES} §1A/§9.8: Cline caches a hook name found empty and misses a hook "
        "created later; hookd looks at every fire, so the new hook runs at the next one.",
        fires=(Fire(), Fire()),
        between=rewrite(RUNS),
        expect=RAN,
    ),
    Case(
        id="edited-between-fires",
        rule=f"{NOTES} §8.4 #4: the same hook path is re-read at each run; the edited file's "
        "answer counts.",
        files=((f"{HOOKS}/PreToolUse", context_of("before")),),
        fires=(Fire(), Fire()),
        between=rewrite(context_of("after")),
        expect={"context": "after"},
    ),
    Case(
        id="disabled-by-chmod",
        rule=f"{NOTES} §7: the UI's toggle is chmod 644: the hook stops running at once.",
        files=((f"{HOOKS}/PreToolUse", RUNS),),
        fires=(Fire(), Fire()),
        between=chmod(0o644),
        expect=NONE_RAN,
    ),
    Case(
        id="enabled-by-chmod",
        rule=f"{NOTES} §7: chmod 755 turns a hook (created 0644 by the UI) on.",
        files=((f"{HOOKS}/PreToolUse", RUNS, 0o644),),
        fires=(Fire(), Fire()),
        between=chmod(0o755),
        expect=RAN,
    ),
    Case(
        id="hook-deletes-itself",
        rule=f"{DESIGN} §Stability & Evolution: hook use must be hardened against concurrent "
        "modification by the hooks themselves. A hook that deletes its own file while "
        "running still answers; the next fire has no hook.",
        files=(
            (f"{HOOKS}/PreToolUse", SH + "cat >/dev/null\nrm -- \"$0\"\necho ran >> '{log}'\n"),
        ),
        fires=(Fire(), Fire()),
        expect=NONE_RAN,
        check=lambda result, places: places.words() == ["ran"],
    ),
    Case(
        id="deleted-between-fires",
        rule=f"{NOTES} §1A: a deleted hook no longer runs.",
        files=((f"{HOOKS}/PreToolUse", RUNS),),
        fires=(Fire(), Fire()),
        between=lambda p: (p.ws / ".clinerules" / "hooks" / "PreToolUse").unlink(),
        expect=NONE_RAN,
    ),
]


@pytest.mark.parametrize("case", params(CHANGE_CASES))
async def test_changes_between_fires(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)


async def test_hooks_list_shows_cline_hooks_with_30_second_timeout(rpc, places: Places) -> None:
    """cline-hooks.md §Hook Execution Limits: 30 s timeout. hooks/list shows each Cline hook
    with its event, layer, source and timeoutMs 30000; a non-executable file is not listed;
    an unexpected lookup error is listed under errors."""
    write(places, f"{GLOBAL}/TaskStart", RUNS)
    write(places, f"{HOOKS}/PreToolUse", RUNS)
    write(places, f"{HOOKS}/PostToolUse", RUNS, 0o644)
    link(f"{HOOKS}/PreCompact", f"{HOOKS}/PreCompact")(places)

    listing = await rpc.call("hooks/list", {"roots": [str(places.ws)]})

    mine = sorted(
        (
            (h["event"], h["layer"], h["source"], h["timeoutMs"])
            for h in listing["hooks"]
            if h["dialect"] == "cline"
        ),
    )
    assert mine == [
        ("PreToolUse", "workspace", places.fill(f"{HOOKS}/PreToolUse"), 30_000),
        ("TaskStart", "global", places.fill(f"{GLOBAL}/TaskStart"), 30_000),
    ]
    errors = [e for e in listing["errors"] if e["dialect"] == "cline"]
    assert errors == [
        {
            "dialect": "cline",
            "source": places.fill(HOOKS),
            "error": Has("unexpected error", "PreCompact"),
        }
    ]
