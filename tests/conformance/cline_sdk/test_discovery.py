"""Which files are Cline SDK hooks, for which event, and in which order they run.

``cline-sdk-file-hooks.md`` §Getting Started and ``cline-implementation.md`` §1B: four
folders (``$HOME/Documents/Cline/Hooks``, ``~/.cline/hooks``, ``<ws>/.clinerules/hooks``,
``<ws>/.cline/hooks``), regular files named ``<Event>.<ext>`` with the event matched
case-insensitively, every matching file runs, sorted by full path with ``localeCompare``.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
import trio

from conformance.cline_sdk._sdk import (
    GLOBAL_HOOKS,
    HOOKS,
    NOTES,
    RULES_HOOKS,
    SPEC,
    USER_HOOKS,
    Case,
    Fire,
    Has,
    Places,
    appends,
    control,
    params,
    records,
    run,
    write,
)
from hookd.daemon.dialects.cline_sdk import dialect as cline_sdk

RAN = {"context": "ran"}
RUNS = control(RAN)


def only(folder: str, name: str = "PreToolUse.sh", runs: bool = True) -> dict:
    return {
        "hooks": [{"source": f"{folder}/{name}"}] if runs else [],
        "context": "ran" if runs else None,
    }


def folder_case(id: str, folder: str, runs: bool, rule: str) -> Case:
    return Case(id=id, rule=rule, files=((f"{folder}/PreToolUse.sh", RUNS),),
                expect=only(folder, runs=runs))  # fmt: skip


FOLDER_CASES = [
    folder_case("global-documents-folder", GLOBAL_HOOKS, True,
                f"{NOTES} §1B item 1: $HOME/Documents/Cline/Hooks is searched."),
    folder_case("user-cline-folder", USER_HOOKS, True,
                f"{NOTES} §1B item 2: <clineDir>/hooks, clineDir defaulting to ~/.cline."),
    folder_case("workspace-clinerules-folder", RULES_HOOKS, True,
                f"{NOTES} §1B item 3: <workspace>/.clinerules/hooks (deprecated, still searched)."),
    folder_case("workspace-cline-folder", HOOKS, True,
                f"{SPEC} §Getting Started: 'File hooks go in .cline/hooks/'."),
    folder_case("workspace-cline-dir-itself", "{ws}/.cline", False,
                f"{SPEC} §Getting Started: hooks live in .cline/hooks/, not .cline/."),
    folder_case("subfolder-not-searched", HOOKS + "/team", False,
                f"{NOTES} §1B: each folder is read with readdirSync, not recursively."),
    folder_case("legacy-rules-hooks-path", "{home}/Documents/Cline/Rules/Hooks", False,
                f"{NOTES} §1A/§1B: ~/Documents/Cline/Rules/Hooks is the old VS Code layout; "
                "the SDK does not search it."),
    folder_case("home-clinerules-not-searched", "{home}/.clinerules/hooks", False,
                f"{NOTES} §1B: only the four folders; there is no user-level .clinerules."),
]  # fmt: skip


@pytest.mark.parametrize("case", params(FOLDER_CASES))
async def test_hook_folder(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)


def name_case(id: str, name: str, runs: bool, rule: str, event: str = "PreToolUse") -> Case:
    return Case(id=id, rule=rule, files=((f"{HOOKS}/{name}", RUNS),), fires=(Fire(event),),
                expect=only(HOOKS, name, runs))  # fmt: skip


NAME_CASES = [
    name_case("exact-name-sh", "PreToolUse.sh", True,
              f"{SPEC} §Getting Started: files 'must be named after the event they handle'."),
    name_case("lowercase-stem", "pretooluse.sh", True,
              f"{NOTES} §1B: the stem is lowercased and matched case-insensitively."),
    name_case("uppercase-stem-no-extension", "PRETOOLUSE", True,
              f"{NOTES} §1B: '' is an accepted extension; the stem matches in any case."),
    name_case("stem-with-spaces-trimmed", " PreToolUse .sh", True,
              f"{NOTES} §1B: the basename without the extension is trimmed before matching."),
    name_case("uppercase-extension", "PreToolUse.SH", False,
              "cline 3.0.65 (tests/agents/cline_sdk::upper-extension): the lowercased "
              "extension passes the check, but basename(name, '.sh') cuts nothing off "
              "'PreToolUse.SH', so no event is named (notes §1B say it matches)."),
    name_case("example-suffix-ignored", "PreToolUse.example", False,
              f"{NOTES} §1B: '.example' is not an accepted extension (PreToolUse.example is ignored)."),
    name_case("variant-name-ignored", "PreToolUse_BlockDestructive.sh", False,
              f"{SPEC} §Examples: PreToolUse_BlockDestructive.sh must be copied *as* "
              "PreToolUse.sh; under its own name it is no hook."),
    name_case("backup-suffix-ignored", "PreToolUse.sh.bak", False,
              f"{NOTES} §1B: the extension is the last one ('.bak'), which is not accepted."),
    name_case("txt-extension-ignored", "PreToolUse.txt", False,
              f"{NOTES} §1B: accepted extensions are '' .sh .bash .zsh .js .mjs .cjs .ts .mts "
              ".cts .py .ps1 only."),
    name_case("sdk-event-name-is-no-file-name", "tool_call.sh", False,
              f"{NOTES} §1B: files are named after the file-hook names (PreToolUse...); "
              "the SDK's event name tool_call is not one."),
    name_case("fired-by-sdk-event-name", "PreToolUse.sh", True,
              f"{SPEC} §File Hooks vs Runtime Hooks: PreToolUse is the tool_call event "
              "(hookd accepts either name in a fire).", event="tool_call"),
    name_case("fired-in-other-case", "PreToolUse.sh", True,
              f"{NOTES} §1B: event names are case-insensitive.", event="PRETOOLUSE"),
]  # fmt: skip


@pytest.mark.parametrize("case", params(NAME_CASES))
async def test_hook_file_name(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)


EVENT_CASES = [
    Case(
        id=f"{name}-is-{hook_name}",
        rule=f"{SPEC} §File Hooks vs Runtime Hooks: a {name} file handles the {hook_name} "
        "event and gets hookName "
        f"'{hook_name}' on stdin (file named in lowercase, fired by the SDK name in upper case).",
        files=((f"{HOOKS}/{name.lower()}.sh", records()),),
        fires=(Fire(hook_name.upper(), {"taskId": "conv-123"}),),
        expect={"hooks": [{"source": f"{HOOKS}/{name.lower()}.sh", "error": None}]},
        stdin=({"hookName": hook_name, "taskId": "conv-123"},),
    )
    for name, hook_name in cline_sdk.SDK_EVENT.items()
    if name not in cline_sdk.NOT_WIRED
]


@pytest.mark.parametrize("case", params(EVENT_CASES))
async def test_event_name_mapping(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)


NOT_RUN = [
    Case(
        id=f"precompact-fired-as-{event}",
        rule=f"{SPEC} §File Hooks vs Runtime Hooks: 'PreCompact | not wired for file hooks "
        f"today'; {NOTES} §1B: PreCompact files are discovered but never run. hookd runs "
        "nothing and says so in warnings.",
        files=((f"{HOOKS}/PreCompact.sh", "touch '{tmp}/ran'\n"),),
        fires=(Fire(event, {"taskId": "conv-123"}),),
        expect={"hooks": [], "warnings": [Has("PreCompact file hooks are not run")]},
        check=lambda result, places: not (places.tmp / "ran").exists(),
    )
    for event in ("PreCompact", "pre_compact")
] + [
    Case(
        id="no-precompact-warning-without-files",
        rule=f"{SPEC} §File Hooks vs Runtime Hooks: PreCompact has no file hooks; with no "
        "file there is nothing to warn about.",
        files=(),
        fires=(Fire("PreCompact", {}),),
        expect={"hooks": [], "warnings": []},
    ),
    Case(
        id="same-folder-through-home-and-workspace",
        rule=f"{NOTES} §1B: the search paths are de-duplicated; with the workspace at $HOME, "
        "~/.cline/hooks and <ws>/.cline/hooks are one folder and its hook runs once.",
        files=((f"{USER_HOOKS}/PreToolUse.sh", appends("ran")),),
        roots=("{home}",),
        expect={"hooks": [{"source": f"{USER_HOOKS}/PreToolUse.sh"}]},
        check=lambda result, places: places.log.read_text().split() == ["ran"],
    ),
    Case(
        id="same-root-twice",
        rule=f"{NOTES} §1B: de-duplicated paths; a root named twice runs its hooks once.",
        files=((f"{HOOKS}/PreToolUse.sh", appends("ran")),),
        roots=("{ws}", "{ws}"),
        expect={"hooks": [{"source": f"{HOOKS}/PreToolUse.sh"}]},
        check=lambda result, places: places.log.read_text().split() == ["ran"],
    ),
    Case(
        id="hooks-is-a-file",
        rule=f"{NOTES} §1B: folders that do not exist (or cannot be listed) are skipped.",
        files=((HOOKS, RUNS),),
        expect={"hooks": [], "warnings": []},
    ),
]


@pytest.mark.parametrize("case", params(NOT_RUN))
async def test_not_run(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)


async def test_fifo_named_like_a_hook_is_ignored(rpc, places: Places) -> None:
    """cline-implementation.md §1B: only `entry.isFile()` entries are hooks; a FIFO named
    PreToolUse.sh is not one (and listing it must not block the daemon)."""
    folder = Path(places.fill(HOOKS))
    folder.mkdir(parents=True)
    os.mkfifo(folder / "PreToolUse.sh")
    write(places, f"{HOOKS}/PreToolUse", RUNS)

    result = await rpc.fire("cline-sdk", "PreToolUse", [str(places.ws)], {})

    assert [h["source"] for h in result["hooks"]] == [str(folder / "PreToolUse")]


EXTENSIONS = sorted(cline_sdk.EXTENSIONS)


async def test_every_accepted_extension_is_a_hook(rpc, places: Places) -> None:
    """cline-implementation.md §1B: '' .sh .bash .zsh .js .mjs .cjs .ts .mts .cts .py .ps1
    are all hook files (whether their interpreter is installed or not)."""
    folder = Path(places.fill(HOOKS))
    for ext in EXTENSIONS:
        write(places, f"{HOOKS}/PreToolUse{ext}", "")

    result = await rpc.fire("cline-sdk", "PreToolUse", [str(places.ws)], {})

    assert len(EXTENSIONS) == 12
    assert sorted(h["source"] for h in result["hooks"]) == sorted(
        str(folder / f"PreToolUse{ext}") for ext in EXTENSIONS
    )


# order ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class OrderCase:
    id: str
    rule: str
    event: str
    files: tuple[str, ...]
    sequential: bool


ACROSS_FOLDERS = (
    f"{HOOKS}/PreToolUse", f"{HOOKS}/pretooluse.bash", f"{HOOKS}/PRETOOLUSE.bash",
    f"{HOOKS}/ PreToolUse.sh", f"{HOOKS}/PreToolUse .sh", f"{HOOKS}/PreToolUse.zsh",
    f"{HOOKS}/PreToolUse.sh", f"{RULES_HOOKS}/pretooluse.sh", f"{USER_HOOKS}/PreToolUse.sh",
    f"{GLOBAL_HOOKS}/PRETOOLUSE", f"{GLOBAL_HOOKS}/PreToolUse",
)  # fmt: skip


def renamed(files: tuple[str, ...], event: str) -> tuple[str, ...]:
    return tuple(
        path.replace("PreToolUse", event).replace("pretooluse", event.lower())
        .replace("PRETOOLUSE", event.upper())
        for path in files
    )  # fmt: skip


ORDER_CASES = [
    OrderCase(
        id="pretooluse-across-four-folders",
        rule=f"{NOTES} §1B and §2C: every matching file runs, sorted by full path with "
        "localeCompare (case folded first, punctuation before letters), one after another "
        "for tool_call: the order they ran in is node's sort order.",
        event="PreToolUse",
        files=ACROSS_FOLDERS,
        sequential=True,
    ),
    OrderCase(
        id="posttooluse-across-four-folders",
        rule=f"{NOTES} §2C: tool_result hooks also run sequentially in sorted path order.",
        event="PostToolUse",
        files=renamed(ACROSS_FOLDERS, "PostToolUse"),
        sequential=True,
    ),
    OrderCase(
        id="taskstart-listed-in-sorted-order",
        rule=f"{NOTES} §1B: lifecycle hooks are also listed (and reported) in sorted path "
        "order, though they run concurrently.",
        event="TaskStart",
        files=renamed(ACROSS_FOLDERS, "TaskStart"),
        sequential=False,
    ),
]


async def node_sorted(paths: list[str]) -> list[str]:
    """``paths.sort((a, b) => a.localeCompare(b))`` in node: what the SDK does."""
    script = (
        "const a = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "a.sort((x, y) => x.localeCompare(y)); process.stdout.write(JSON.stringify(a));"
    )
    done = await trio.run_process(
        ["node", "-e", script], stdin=json.dumps(paths).encode(), capture_stdout=True
    )
    return list(json.loads(done.stdout))


@pytest.mark.skipif(shutil.which("node") is None, reason="node not installed")
@pytest.mark.parametrize("case", ORDER_CASES, ids=lambda case: case.id)
async def test_files_run_in_locale_compare_order(case: OrderCase, rpc, places: Places) -> None:
    paths = [places.fill(path) for path in case.files]
    expected = await node_sorted(paths)
    for path in paths:
        write(places, path, appends(path))

    result = await rpc.fire("cline-sdk", case.event, [str(places.ws)], {"taskId": "conv-123"})

    assert expected != sorted(paths), "the case must tell localeCompare from byte order"
    assert [h["source"] for h in result["hooks"]] == expected
    assert [h["error"] for h in result["hooks"]] == [None] * len(paths)
    ran = places.log.read_text().splitlines()
    if case.sequential:
        assert ran == expected
    else:
        assert sorted(ran) == sorted(expected)
