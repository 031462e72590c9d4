"""Settings files, precedence, script extensions, timeouts, execution order and the
switches that turn hooks off.

Precedence, as ``augment-hooks.md`` § Settings File Locations states it: system
(``/etc/augment/settings.json``, immutable, highest: here under the test's
``system_root``), then ``<workspace>/.augment/settings.local.json``, then
``<workspace>/.augment/settings.json``, then ``~/.augment/settings.json``. For hooks,
precedence does not mean override: the files "coexist" (§ Configuration), so every
file's hooks run; a lower file can neither remove nor undo a system hook, and the order
of execution follows precedence (system first), then definition order inside a file.

Every hook here appends its name to a log file, so the order is proven by real side
effects, not by the result's bookkeeping.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
import trio

from conformance.augment.support import (
    REFERENCE,
    TOOL,
    Augment,
    commands,
    group,
    hook,
    params,
)
from hookd.daemon.app import serve
from hookd.daemon.settings import Settings
from hookd_testing import (
    Gate,
    RpcClient,
    wait_until,
    write_executable,
    write_json,
)

LOCATIONS = f"{REFERENCE} § Settings File Locations"
STRUCTURE = f"{REFERENCE} § Structure"
DETAILS = f"{REFERENCE} § Hook Execution Details"
DENIAL = "blocked by the deny hook"


@dataclass(frozen=True)
class Layout:
    id: str
    rule: str
    files: Mapping[str, Any]
    """Layer → its settings: a ``{event: [groups]}`` mapping whose groups list hook
    *names* (``"a"`` runs the logging hook ``a.sh``), or a raw JSON value (``RAW``)."""
    order: tuple[str, ...]
    """The hooks that must run, in this order (from the log they write)."""
    event: str = "PreToolUse"
    payload: Mapping[str, Any] = field(default_factory=lambda: dict(TOOL))
    expect: Mapping[str, Any] = field(default_factory=dict)
    warning: str | None = None
    two_roots: bool = False
    logged: tuple[str, ...] | None = None
    """The hooks that write to the log, when not all of ``order`` (some cannot start)."""
    xfail: str | None = None
    skip: str | None = None


@dataclass(frozen=True)
class Raw:
    """A settings file written as is (no hook names to expand)."""

    content: Any


def names(*hooks: str, matcher: str | None = None, **fields: Any) -> dict[str, Any]:
    """A matcher group of logging hooks, by name."""
    found: dict[str, Any] = {"hooks": list(hooks), **fields}
    if matcher is not None:
        found["matcher"] = matcher
    return found


LAYOUTS: list[Layout] = [
    Layout(
        "every-layer-runs-in-precedence-order",
        f"{LOCATIONS}: system, workspace local, workspace, user (highest first); "
        f"{REFERENCE} § Configuration: hooks of every file coexist; auggie 0.36.0 reads "
        "system, user, settings.local.json, settings.json (tests/agents/augment)",
        {
            "user": {"PreToolUse": [names("user")]},
            "workspace": {"PreToolUse": [names("workspace")]},
            "system": {"PreToolUse": [names("system")]},
            "workspace-local": {"PreToolUse": [names("local")]},
        },
        ("system", "user", "local", "workspace"),
    ),
    Layout(
        "local-before-workspace",
        f"{LOCATIONS}: settings.local.json (personal overrides) outranks settings.json",
        {
            "workspace": {"PreToolUse": [names("shared")]},
            "workspace-local": {"PreToolUse": [names("personal")]},
        },
        ("personal", "shared"),
    ),
    Layout(
        "user-alone-runs",
        f"{LOCATIONS}: ~/.augment/settings.json is read (lowest precedence, still a source)",
        {"user": {"PreToolUse": [names("user")]}},
        ("user",),
    ),
    Layout(
        "same-event-and-matcher-merge-not-override",
        f"{REFERENCE} § Configuration: files coexist; a lower file declaring the same "
        "event and matcher adds its hooks, it does not replace the system's",
        {
            "system": {"PreToolUse": [names("policy", matcher="launch-process")]},
            "workspace": {"PreToolUse": [names("project", matcher="launch-process")]},
        },
        ("policy", "project"),
    ),
    Layout(
        "empty-lower-files-cannot-remove-system-hooks",
        f"{LOCATIONS}: system settings cannot be overridden by any other source: an empty "
        "event list or hooks object below leaves the system hook in place",
        {
            "system": {"PreToolUse": [names("policy")]},
            "workspace-local": Raw({"hooks": {"PreToolUse": []}}),
            "workspace": Raw({"hooks": {}}),
            "user": Raw({}),
        },
        ("policy",),
    ),
    Layout(
        "lower-files-cannot-undo-a-system-block",
        f"{LOCATIONS}: system settings are immutable: its block stands although a lower "
        "hook says allow (which Augment does not implement anyway)",
        {"system": {"PreToolUse": [names("deny")]}, "user": {"PreToolUse": [names("allow")]}},
        ("deny", "allow"),
        expect={"blocked": True, "reason": f"[hook:PreToolUse]: {DENIAL}"},
    ),
    Layout(
        "lower-file-may-add-a-block",
        f"{REFERENCE} § Configuration: project hooks coexist with system policy: a "
        "project hook's exit 2 blocks too",
        {"system": {"PreToolUse": [names("system")]}, "workspace": {"PreToolUse": [names("deny")]}},
        ("system", "deny"),
        expect={"blocked": True, "reason": f"[hook:PreToolUse]: {DENIAL}"},
    ),
    Layout(
        "identical-handler-in-two-files-runs-once",
        f"{REFERENCE} § Configuration: files coexist and the document describes no "
        "de-duplication; auggie 0.36.0 merges groups with one matcher across files and runs "
        "a handler with the same command and args once",
        {"system": {"PreToolUse": [names("same")]}, "user": {"PreToolUse": [names("same")]}},
        ("same",),
    ),
    Layout(
        "definition-order-inside-a-file",
        f"{DETAILS}: hooks execute in the order they are defined (groups, then handlers)",
        {"workspace": {"PreToolUse": [names("a", "b"), names("c"), names("d", "e")]}},
        ("a", "b", "c", "d", "e"),
    ),
    Layout(
        "definition-order-skips-non-matching-groups",
        f"{DETAILS}: order of definition among the groups whose matcher matches",
        {
            "workspace": {
                "PreToolUse": [
                    names("view", matcher="view"),
                    names("any", matcher=".*"),
                    names("default"),
                    names("launch", matcher="launch"),
                ]
            }
        },
        ("any", "default", "launch"),
    ),
    Layout(
        "events-are-separate",
        f"{STRUCTURE}: hooks are organized by event type",
        {
            "workspace": {
                "PostToolUse": [names("post")],
                "PreToolUse": [names("pre")],
                "Stop": [names("stop")],
            }
        },
        ("pre",),
    ),
    Layout(
        "every-workspace-root-is-read",
        f"{LOCATIONS}: <workspace>/.augment/... (the document names one workspace; "
        "hookd reads each root's files, in root order, local before shared)",
        {
            "workspace": {"PreToolUse": [names("first")]},
            "second-root": {"PreToolUse": [names("second")]},
        },
        ("first", "second"),
        two_roots=True,
    ),
    Layout(
        "augment-has-no-disable-switch",
        f"{REFERENCE} (whole document): Augment documents no setting that turns hooks "
        "off; a disableAllHooks key (Claude Code's switch) in Augment settings means "
        "nothing and every hook still runs",
        {
            "system": Raw({"disableAllHooks": True}),
            "workspace": {"PreToolUse": [names("runs")]},
            "workspace-local": Raw({"disableAllHooks": True, "hooks": {}}),
        },
        ("runs",),
    ),
    Layout(
        "only-command-type-is-supported",
        f'{STRUCTURE}: type: currently only "command" is supported (other handlers are '
        "reported and skipped)",
        {
            "workspace": Raw(
                {
                    "hooks": {
                        "PreToolUse": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:9/"}]}]
                    }
                }
            ),
            "user": {"PreToolUse": [names("command")]},
        },
        ("command",),
        warning='only "type": "command" handlers are supported',
    ),
    Layout(
        "any-command-runs",
        f"{STRUCTURE}: command must use a supported script extension (.ps1, .cmd, .bat or "
        ".sh); auggie 0.36.0 spawns any command (these two do not exist: they fail to start)",
        {
            "workspace": Raw(
                {
                    "hooks": {
                        "PreToolUse": [
                            {
                                "hooks": [
                                    {"type": "command", "command": "$HOOKS/check.py"},
                                    {"type": "command", "command": "$HOOKS/check"},
                                ]
                            }
                        ]
                    }
                }
            ),
            "user": {"PreToolUse": [names("sh")]},
        },
        ("sh", "check.py", "check"),
        logged=("sh",),
    ),
]


def logging_hook(augment: Augment, name: str, log: Path) -> Path:
    """``name.sh``: appends its name to ``log``; ``deny`` also exits 2, ``allow`` answers
    permissionDecision allow."""
    body = f"cat >/dev/null\necho {name} >> '{log}'"
    if name == "deny":
        body += f"\necho '{DENIAL}' >&2\nexit 2"
    if name == "allow":
        body += '\necho \'{"hookSpecificOutput": {"permissionDecision": "allow"}}\''
    return hook(augment.hooks / f"{name}.sh", body)


def expand(augment: Augment, content: Any, log: Path) -> Any:
    if isinstance(content, Raw):
        text = json.dumps(content.content).replace("$HOOKS", str(augment.hooks))
        return json.loads(text)
    return {
        "hooks": {
            event: [
                {
                    **g,
                    "hooks": [
                        {"type": "command", "command": str(logging_hook(augment, n, log))}
                        for n in g["hooks"]
                    ],
                }
                for g in groups
            ]
            for event, groups in content.items()
        }
    }


@pytest.mark.parametrize("case", params(LAYOUTS))
async def test_layout(augment: Augment, case: Layout) -> None:
    log = augment.tmp / "log"
    second = augment.tmp / "second-root"
    second.mkdir()
    for layer, content in case.files.items():
        if layer == "second-root":
            path = augment.settings_path("workspace", second)
        else:
            path = augment.settings_path(layer)
        write_json(path, expand(augment, content, log))
    roots = [str(augment.ws), str(second)] if case.two_roots else None

    result = await augment.fire(case.event, case.payload, roots=roots)

    logged = case.order if case.logged is None else case.logged
    # auggie runs an event's hooks in parallel: the log proves which ran, the result's
    # hooks[] (declaration order) proves the order
    assert sorted(log.read_text().split() if log.exists() else []) == sorted(logged)
    assert [name.removesuffix(".sh") for name in commands(result)] == list(case.order)
    for key, want in case.expect.items():
        assert result[key] == want, (key, result)
    if case.warning:
        assert any(case.warning in w for w in result["warnings"]), result["warnings"]
    else:
        assert result["warnings"] == []


@pytest.mark.parametrize("twice", ["home-as-workspace", "root-listed-twice"])
async def test_one_file_runs_once(augment: Augment, twice: str) -> None:
    """A settings file is one source: the home folder opened as the workspace makes
    ``~/.augment/settings.json`` both the user and the workspace file, and a root named
    twice names its files twice; either way each hook runs once."""
    log = augment.tmp / "log"
    root = augment.home if twice == "home-as-workspace" else augment.ws
    augment.write("workspace", root, SessionStart=[group(augment.script(
        "once.sh", f"cat >/dev/null; echo ran >> {log}"))])  # fmt: skip

    result = await augment.fire("SessionStart", {}, roots=[str(root), str(root)])

    assert log.read_text().split() == ["ran"]
    assert len(result["hooks"]) == 1


async def test_parallel_across_files(augment: Augment) -> None:
    """augment-hooks.md § Limitations says hook execution is sequential; auggie 0.36.0
    runs an event's hooks in parallel (tests/agents/augment::pre-parallel), across files
    too: while the system hook waits on a gate, the user hook has started and ended."""
    log = augment.tmp / "log"
    gate = Gate(augment.tmp / "gate")
    first = augment.script(
        "first.sh", f"echo start-system >> {log}; {gate.wait_command}; echo end-system >> {log}"
    )
    second = augment.script("second.sh", f"echo start-user >> {log}; echo end-user >> {log}")
    augment.write("system", PreToolUse=[group(first)])
    augment.write("user", PreToolUse=[group(second)])

    fire_id = await augment.rpc.start(
        "fire",
        {
            "agent": "augment",
            "event": "PreToolUse",
            "workspaceRoots": [str(augment.ws)],
            "payload": TOOL,
        },
    )
    await wait_until(
        lambda: log.exists() and {"end-user", "start-system"} <= set(log.read_text().split())
    )
    before_gate = log.read_text().split()
    await gate.open()
    result = (await augment.rpc.recv_response(fire_id))["result"]

    assert sorted(before_gate) == ["end-user", "start-system", "start-user"]
    assert log.read_text().split()[-1] == "end-system"
    assert [h["layer"] for h in result["hooks"]] == ["system", "user"]


# --- script extensions ------------------------------------------------------------------


@dataclass(frozen=True)
class Extension:
    id: str
    rule: str
    file: str
    """The hook's file name."""
    text: str
    """Its content (a shebang here is ignored for .ps1/.bat/.cmd)."""
    interpreter: str | None = None
    """A stub for the interpreter hookd must dispatch to (recording its argv)."""
    argv: tuple[str, ...] = ()
    """The stub's expected argv, ``$SCRIPT`` for the hook's path."""
    expect: Mapping[str, Any] = field(default_factory=dict)
    error: str | None = None
    path: str | None = None
    """The hooks' PATH, when not the stub folder plus the test's PATH."""
    executable: bool = True
    shebang_runs: bool = False
    """The file ran by its own shebang (it touches ``SHEBANG_MARKER``), not the stub."""
    xfail: str | None = None
    skip: str | None = None


SCRIPTS = f"{REFERENCE} § Script Requirements"
SHEBANG_MARKER = "shebang-ran"
EXTENSIONS: list[Extension] = [
    Extension(
        "sh-node-shebang",
        f"{SCRIPTS}: .sh is executed directly; the shebang selects the interpreter (Node.js here)",
        "policy.sh",
        "#!/usr/bin/env node\nlet s='';process.stdin.on('data',d=>s+=d).on('end',()=>{\n"
        "const e=JSON.parse(s);process.stderr.write('node sees '+e.tool_name);"
        "process.exit(2);});\n",
        expect={"blocked": True, "reason": "[hook:PreToolUse]: node sees launch-process"},
        skip=None if shutil.which("node") else "node is not installed",
    ),
    Extension(
        "sh-bash-shebang",
        f"{SCRIPTS}: .sh with a bash shebang runs under bash (bash-only syntax works)",
        "policy.sh",
        '#!/usr/bin/env bash\nEVENT=$(cat)\nif [[ "$EVENT" == *launch-process* ]]; then\n'
        "  echo 'bash [[ ]] ran' >&2; exit 2\nfi\n",
        expect={"blocked": True, "reason": "[hook:PreToolUse]: bash [[ ]] ran"},
    ),
    Extension(
        "sh-without-shebang-runs-with-sh",
        f"{SCRIPTS}: a .sh must have a valid shebang; what happens without one is not "
        "documented: hookd runs it with /bin/sh (as execvp does)",
        "noshebang.sh",
        "cat >/dev/null\necho 'no shebang' >&2\nexit 2\n",
        expect={"blocked": True, "reason": "[hook:PreToolUse]: no shebang"},
    ),
    Extension(
        "ps1-dispatched-to-powershell",
        f"{SCRIPTS}: .ps1 files are always run with PowerShell; auggie 0.36.0 does so on "
        "Windows only: on Unix it spawns the file, whose shebang decides",
        "check.ps1",
        f"#!/bin/sh\ntouch {SHEBANG_MARKER}\n",
        interpreter="pwsh",
        shebang_runs=True,
    ),
    *[
        Extension(
            f"{ext}-dispatched-to-cmd",
            f"{SCRIPTS}: .bat and .cmd files are always run with cmd.exe /c; auggie 0.36.0 "
            "does so on Windows only: on Unix it spawns the file, whose shebang decides",
            f"check.{ext}",
            f"#!/bin/sh\ntouch {SHEBANG_MARKER}\n",
            interpreter="cmd.exe",
            shebang_runs=True,
        )
        for ext in ("bat", "cmd")
    ],
    Extension(
        "ps1-needs-no-exec-bit",
        f"{SCRIPTS}: the executable bit is required of Unix .sh scripts only; auggie "
        "0.36.0 spawns a .ps1 on Unix too, so without the bit it cannot start (non-blocking)",
        "check.ps1",
        "Write-Error 'not executable'\n",
        interpreter="pwsh",
        executable=False,
        error="EACCES",
        expect={"blocked": False},
    ),
    Extension(
        "ps1-without-powershell-runs-its-shebang",
        f"{SCRIPTS}: .ps1 needs PowerShell; auggie 0.36.0 on Unix spawns it directly, so "
        "its shebang runs it even where there is no PowerShell",
        "check.ps1",
        f"#!/bin/sh\ntouch {SHEBANG_MARKER}\nexit 2\n",
        path="/usr/bin:/bin",
        shebang_runs=True,
        expect={"blocked": True},
    ),
    Extension(
        "ps1-real-powershell",
        f"{SCRIPTS}: .ps1 runs under PowerShell for real",
        "check.ps1",
        "$null = [Console]::In.ReadToEnd()\n[Console]::Error.WriteLine('ps1')\nexit 2\n",
        expect={"blocked": True, "reason": "ps1"},
        skip=None if shutil.which("pwsh") else "pwsh (PowerShell) is not installed",
    ),
]


@pytest.mark.parametrize("case", params(EXTENSIONS))
async def test_script_extension(augment: Augment, case: Extension) -> None:
    script = write_executable(augment.hooks / case.file, case.text)
    if not case.executable:
        script.chmod(0o644)
    calls = augment.tmp / "interpreter.argv"
    if case.interpreter:
        augment.stub(
            case.interpreter,
            f'cat >/dev/null\nprintf "%s\\n" "$@" > {calls}\necho \'interpreter stub\' >&2\nexit 2',
        )
    augment.write("workspace", PreToolUse=[group(script)])
    env = {"PATH": case.path} if case.path else None

    result = await augment.fire("PreToolUse", env=env)

    for key, want in case.expect.items():
        assert result[key] == want, (key, result)
    error = result["hooks"][0]["error"]
    assert error is None if case.error is None else case.error in error, result
    if case.argv:
        argv = [a.replace("$SCRIPT", str(script)) for a in case.argv]
        assert calls.read_text().splitlines() == argv
    else:  # auggie 0.36.0 on Unix never hands a file to an interpreter by its extension
        assert not calls.exists()
    assert (augment.ws / SHEBANG_MARKER).exists() is case.shebang_runs


# --- timeouts ---------------------------------------------------------------------------


async def test_timeout_is_milliseconds_per_command(augment: Augment) -> None:
    """augment-hooks.md § Structure: timeout is in milliseconds, per command: 250 kills a
    hook stuck on a gate within seconds (as seconds it would take minutes), reported as a
    non-blocking failure, and the next hook (its own timeout) still runs; auggie 0.36.0
    then reports the whole fire as that failure (the first failing exit code wins)."""
    gate = Gate(augment.tmp / "gate")
    stuck = augment.script("stuck.sh", f"cat >/dev/null; {gate.wait_command}; exit 2")
    after = augment.script("after.sh", "cat >/dev/null; echo after >&2")
    augment.write(
        "workspace",
        PreToolUse=[
            {
                "hooks": [
                    {"type": "command", "command": str(stuck), "timeout": 250},
                    {"type": "command", "command": str(after), "timeout": 5000},
                ]
            }
        ],
    )

    with trio.fail_after(20):
        result = await augment.fire("PreToolUse")

    stuck_run, after_run = result["hooks"]
    assert stuck_run["timedOut"] is True
    assert "timed out" in stuck_run["error"]
    assert 250 <= stuck_run["durationMs"] < 10_000
    assert (after_run["timedOut"], after_run["exitCode"]) == (False, 0)
    assert result["blocked"] is False
    assert result["systemMessage"] == (
        f"Failed with non-blocking status code -1: Hook '{stuck}' failed: "
        "Hook execution timed out after 250ms\nafter"
    )


@pytest.mark.parametrize(
    ("handler", "timeout_ms"),
    [
        pytest.param({}, 60_000, id="default-60000"),
        pytest.param({"timeout": 5000}, 5000, id="explicit-5000"),
    ],
)
async def test_declared_timeout(augment: Augment, handler: dict[str, Any], timeout_ms: int) -> None:
    """augment-hooks.md § Structure: timeout (optional) in milliseconds, default 60000;
    § Troubleshooting: hooks have a 60-second timeout by default (as hooks/list shows)."""
    script = augment.script("h.sh", "exit 0")
    augment.write(
        "workspace",
        PreToolUse=[{"hooks": [{"type": "command", "command": str(script), **handler}]}],
    )

    listing = await augment.rpc.call("hooks/list", {"roots": [str(augment.ws)]})

    (entry,) = [h for h in listing["hooks"] if h["dialect"] == "augment"]
    assert entry["timeoutMs"] == timeout_ms


async def test_invalid_timeout_is_reported(augment: Augment) -> None:
    """augment-hooks.md § Structure: timeout is a number of milliseconds: "5000" (a
    string) is not one; the handler is reported in the fire's warnings and skipped."""
    script = augment.script("h.sh", "exit 0")
    augment.write(
        "workspace",
        PreToolUse=[{"hooks": [{"type": "command", "command": str(script), "timeout": "5000"}]}],
    )

    result = await augment.fire("PreToolUse")

    assert result["hooks"] == []
    assert any('"timeout" must be a positive number' in w for w in result["warnings"])


# --- hookd's own switches ---------------------------------------------------------------


SWITCHES = [
    pytest.param(
        {"disabled_dialects": frozenset({"augment"})},
        "disabled_dialects",
        True,
        id="disabled-dialects-augment",
    ),
    pytest.param(
        {"disabled_dialects": frozenset({"claude", "cline"})},
        None,
        False,
        id="other-dialects-disabled",
    ),
    pytest.param({"disable_all_hooks": True}, "disable_all_hooks", True, id="disable-all-hooks"),
]


@pytest.mark.parametrize(("switch", "says", "off"), SWITCHES)
async def test_hookd_switches(
    settings: Settings,
    workspace: Path,
    tmp_path: Path,
    switch: dict[str, Any],
    says: str | None,
    off: bool,
) -> None:
    """hookd's disabled_dialects / disable_all_hooks (Augment has no switch of its own):
    with augment switched off no Augment hook runs, not even a system one, the fire
    answers normally and a warning names the switch; disabling other dialects changes
    nothing for Augment."""
    marker = tmp_path / "ran"
    script = hook(tmp_path / "hooks" / "h.sh", f"cat >/dev/null; touch {marker}; exit 2")
    system = Path(settings.system_root) / "etc" / "augment" / "settings.json"
    write_json(system, {"hooks": {"PreToolUse": [group(script)]}})
    async with trio.open_nursery() as nursery:
        daemon = await nursery.start(serve, replace(settings, **switch))
        client = await RpcClient.connect(settings.socket_path)
        result = await client.fire("augment", "PreToolUse", [str(workspace)], dict(TOOL))
        await client.aclose()
        daemon.request_shutdown("test over")

    assert result["blocked"] is not off
    assert marker.exists() is not off
    assert len(result["hooks"]) == (0 if off else 1)
    if says:
        assert says in result["warnings"][0]
