"""Settings layers and how hooks are started: de-duplication, ``disableAllHooks`` at each
layer, managed settings (and ``managed-settings.d/`` drop-ins), ``allowManagedHooksOnly``,
``CLAUDE_PROJECT_DIR`` and the working directory, exec form and placeholders, shell form,
the ``shell`` field, the environment hooks inherit, and the timeout defaults.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import trio

from conformance.claude.support import (
    REFERENCE,
    Claude,
    Probe,
    Recorder,
    command,
    echo_json,
    have,
    managed_settings_path,
    params,
)
from hookd_testing import Gate, write_json

LOCATIONS = f"{REFERENCE} 'Hook locations'"
HANDLERS = f"{REFERENCE} 'Hook handler fields'"
DISABLE = f"{REFERENCE} 'Disable or remove hooks'"


def stop(*commands: str | dict[str, Any], **top: Any) -> dict[str, Any]:
    handlers = [command(c) if isinstance(c, str) else c for c in commands]
    return {"hooks": {"Stop": [{"hooks": handlers}]}, **top}


EVERY_LAYER = (
    ("user", stop("echo user")),
    ("project", stop("echo project")),
    ("local", stop("echo local")),
    ("managed", stop("echo managed")),
)


def with_top(files: tuple[tuple[str, dict[str, Any]], ...], **by_layer: dict[str, Any]) -> Any:
    """``files`` with extra top-level keys merged into the named layers."""
    return tuple((layer, {**data, **by_layer.get(layer, {})}) for layer, data in files)


@dataclass(frozen=True)
class Layers:
    id: str
    rule: str
    files: tuple[tuple[str, dict[str, Any]], ...]
    ran: tuple[str, ...]
    event: str = "Stop"
    payload: dict[str, Any] = field(default_factory=dict)
    layers: tuple[str, ...] | None = None
    warns: str | None = None
    xfail: str | None = None


SAME = command("echo same")
LAYER_CASES = [
    Layers(
        "merge-every-layer", f"{LOCATIONS}: 'Hook entries merge across settings levels rather "
        "than replacing each other'", EVERY_LAYER,
        ("echo user", "echo project", "echo local", "echo managed"),
        layers=("user", "project", "local", "managed"),
    ),
    Layers(
        "dedup-project-and-local", f"{HANDLERS}: 'If you define the same handler in more than "
        "one settings file, it runs once'", (("project", stop(SAME)), ("local", stop(SAME))),
        ("echo same",), layers=("project",),
    ),
    Layers(
        "dedup-user-and-managed", f"{HANDLERS}: the same handler in user and managed settings "
        "runs once", (("user", stop(SAME)), ("managed", stop(SAME))), ("echo same",),
    ),
    Layers(
        "different-if-not-deduplicated", f"{HANDLERS}: handlers that differ (here in their if "
        "rule) are different handlers",
        (("user", {"hooks": {"PreToolUse": [{"hooks": [
            command("echo same", **{"if": "Bash(git *)"})]}]}}),
         ("project", {"hooks": {"PreToolUse": [{"hooks": [
             command("echo same", **{"if": "Bash(git push *)"})]}]}})),
        ("echo same", "echo same"), event="PreToolUse",
        payload={"tool_name": "Bash", "tool_input": {"command": "git push"}},
    ),
    Layers(
        "exec-and-shell-form-differ", f"{REFERENCE} 'Exec form and shell form': a handler with "
        "args is a different handler from the same command without",
        (("user", stop("true")), ("project", stop({"type": "command", "command": "true",
                                                    "args": []}))),
        ("true", "true"),
    ),
    Layers(
        "http-headers-differ-not-deduplicated", f"{HANDLERS}: 'the same handler' is the handler "
        "as written: an http hook to the same URL with other headers is another handler",
        (("user", stop({"type": "http", "url": "http://127.0.0.1:9/h",
                        "headers": {"X-Team": "a"}})),
         ("project", stop({"type": "http", "url": "http://127.0.0.1:9/h",
                           "headers": {"X-Team": "b"}}))),
        ("http: http://127.0.0.1:9/h", "http: http://127.0.0.1:9/h"),
    ),
    Layers(
        "timeout-alone-still-the-same", f"{HANDLERS}: a copy that differs only in its timeout "
        "or statusMessage is the same handler and runs once",
        (("user", stop(SAME)), ("project", stop({**SAME, "timeout": 5,
                                                 "statusMessage": "checking"}))),
        ("echo same",), layers=("user",),
    ),
    Layers(
        "disable-user", f"{DISABLE}: disableAllHooks in user settings turns off user, project "
        "and local hooks; managed hooks still run",
        with_top(EVERY_LAYER, user={"disableAllHooks": True}), ("echo managed",),
    ),
    Layers(
        "disable-project", f"{DISABLE}: disableAllHooks in project settings",
        with_top(EVERY_LAYER, project={"disableAllHooks": True}), ("echo managed",),
    ),
    Layers(
        "disable-user-overridden-by-project", f"{DISABLE}: 'a \"disableAllHooks\": false in a "
        "project's .claude/settings.json overrides a true in your user settings'",
        with_top(EVERY_LAYER, user={"disableAllHooks": True}, project={"disableAllHooks": False}),
        ("echo user", "echo project", "echo local", "echo managed"),
    ),
    Layers(
        "disable-project-overridden-by-local", f"{DISABLE}: the value left after settings "
        "precedence (local over project) applies",
        with_top(EVERY_LAYER, project={"disableAllHooks": True}, local={"disableAllHooks": False}),
        ("echo user", "echo project", "echo local", "echo managed"),
    ),
    Layers(
        "disable-local", f"{DISABLE}: disableAllHooks in local settings",
        with_top(EVERY_LAYER, local={"disableAllHooks": True}), ("echo managed",),
    ),
    Layers(
        "disable-managed", f"{DISABLE}: 'Only disableAllHooks set at the managed settings level "
        "can disable managed hooks'", with_top(EVERY_LAYER, managed={"disableAllHooks": True}),
        (),
    ),
    Layers(
        "managed-false-wins", f"{DISABLE}: managed settings have the highest precedence, so a "
        "managed false is the value left",
        with_top(EVERY_LAYER, managed={"disableAllHooks": False},
                 project={"disableAllHooks": True}),
        ("echo user", "echo project", "echo local", "echo managed"),
    ),
    Layers(
        "managed-only", f"{LOCATIONS}: allowManagedHooksOnly: 'Your user, project, local, and "
        "plugin hooks are blocked'", with_top(EVERY_LAYER, managed={"allowManagedHooksOnly": True}),
        ("echo managed",), warns="allowManagedHooksOnly",
    ),
    Layers(
        "managed-only-shared-handler-runs", f"{LOCATIONS}: allowManagedHooksOnly blocks user "
        f"hooks, and {HANDLERS}: the same handler in two files runs once: the managed copy runs",
        (("user", stop(SAME)), ("managed", {**stop(SAME), "allowManagedHooksOnly": True})),
        ("echo same",), layers=("managed",),
    ),
    Layers(
        "managed-only-outside-managed", f"{LOCATIONS}: allowManagedHooksOnly is a managed "
        "setting ('Enterprise administrators'); in project settings it has no effect",
        with_top(EVERY_LAYER, project={"allowManagedHooksOnly": True}),
        ("echo user", "echo project", "echo local", "echo managed"),
    ),
    Layers(
        "managed-drop-ins", f"{REFERENCE} 'ConfigChange': managed policy is managed-settings.json "
        "and the files in managed-settings.d/ (drop-ins merge after it, in name order)",
        (("managed", stop("echo managed")), ("dropin:20-b.json", stop("echo b")),
         ("dropin:10-a.json", stop("echo a"))),
        ("echo managed", "echo a", "echo b"), layers=("managed", "managed", "managed"),
    ),
]  # fmt: skip


def install(claude: Claude, layer: str, data: dict[str, Any]) -> None:
    if layer.startswith("dropin:"):
        folder = managed_settings_path(claude.system).parent / "managed-settings.d"
        write_json(folder / layer.split(":", 1)[1], data)
    else:
        claude.write_settings(data, layer)


@pytest.mark.parametrize("case", params(LAYER_CASES))
async def test_settings_layers(claude: Claude, case: Layers) -> None:
    for layer, data in case.files:
        install(claude, layer, data)

    result = await claude.fire(case.event, case.payload)

    assert tuple(h["command"] for h in result["hooks"]) == case.ran
    if case.layers is not None:
        assert tuple(h["layer"] for h in result["hooks"]) == case.layers
    if case.warns is not None:
        assert any(case.warns in w for w in result["warnings"]), result["warnings"]


# --- how a hook is started: directory, environment, argv ------------------------------------


@dataclass(frozen=True)
class Start:
    id: str
    rule: str
    handler: Callable[[Claude, Probe], dict[str, Any]]
    check: Callable[[Claude, Probe, dict[str, Any]], None]
    event: str = "PreToolUse"
    payload: dict[str, Any] = field(
        default_factory=lambda: {"tool_name": "Bash", "tool_input": {"command": "ls"}}
    )
    roots: tuple[str, ...] = ("{ws}",)
    env: dict[str, str] = field(default_factory=dict)
    fires: int = 1
    skip: str | None = None
    xfail: str | None = None


def shell(claude: Claude, probe: Probe) -> dict[str, Any]:
    return command(probe.command)


def argv_script(claude: Claude, name: str = "show-argv") -> Path:
    """A script printing its argv, one per line, into ``<tmp>/<name>.out``."""
    out = claude.tmp / f"{name}.out"
    return claude.file(f"{{ws}}/.claude/hooks/{name}.sh",
                       f'#!/bin/sh\nprintf "%s\\n" "$0" "$@" > {shlex.quote(str(out))}\n',
                       executable=True)  # fmt: skip


def argv_of(claude: Claude, name: str = "show-argv") -> list[str]:
    return (claude.tmp / f"{name}.out").read_text().splitlines()


def _exec_handler(claude: Claude, probe: Probe) -> dict[str, Any]:
    argv_script(claude)
    return {"type": "command", "command": "${CLAUDE_PROJECT_DIR}/.claude/hooks/show-argv.sh",
            "args": ["a b", "$HOME", "`date`", "it's", "$(touch {tmp}/pwned)".replace(
                "{tmp}", str(claude.tmp)), "${CLAUDE_PROJECT_DIR}/x", "${UNKNOWN}"]}  # fmt: skip


def _exec_check(claude: Claude, probe: Probe, result: dict[str, Any]) -> None:
    script = f"{claude.ws}/.claude/hooks/show-argv.sh"
    assert argv_of(claude) == [
        script, "a b", "$HOME", "`date`", "it's", f"$(touch {claude.tmp}/pwned)",
        f"{claude.ws}/x", "${UNKNOWN}",
    ]  # fmt: skip
    assert not (claude.tmp / "pwned").exists()


def _plugin_handler(claude: Claude, probe: Probe) -> dict[str, Any]:
    claude.file("{tmp}/plugin/bin/tool", "#!/bin/sh\n" + probe.command + "\n", executable=True)
    return {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/bin/tool",
            "args": ["${CLAUDE_PLUGIN_DATA}/db"]}  # fmt: skip


def _plugin_check(claude: Claude, probe: Probe, result: dict[str, Any]) -> None:
    env = probe.env()
    assert env["CLAUDE_PLUGIN_ROOT"] == f"{claude.tmp}/plugin"
    assert env["CLAUDE_PLUGIN_DATA"] == f"{claude.tmp}/data"
    assert result["hooks"][0]["exitCode"] == 0


def _path_lookup_handler(claude: Claude, probe: Probe) -> dict[str, Any]:
    claude.stub("mytool")
    return {"type": "command", "command": "mytool", "args": ["--fix", "${CLAUDE_PROJECT_DIR}"]}


def _path_lookup_check(claude: Claude, probe: Probe, result: dict[str, Any]) -> None:
    assert Recorder(claude.tmp / "stub-mytool.log").calls() == [["--fix", str(claude.ws)]]


def _bare_name_handler(claude: Claude, probe: Probe) -> dict[str, Any]:
    claude.stub("mytool")
    return {"type": "command", "command": "mytool --fix", "args": []}


def _bare_name_check(claude: Claude, probe: Probe, result: dict[str, Any]) -> None:
    assert not (claude.tmp / "stub-mytool.log").exists()
    assert result["hooks"][0]["error"]
    assert result["blocked"] is False


def _shell_features(claude: Claude, probe: Probe) -> dict[str, Any]:
    out = claude.tmp / "shell.out"
    return command(f'echo abc | tr a x > {out} && echo "${{CLAUDE_PROJECT_DIR}}" >> {out}')


def _shell_features_check(claude: Claude, probe: Probe, result: dict[str, Any]) -> None:
    assert (claude.tmp / "shell.out").read_text() == f"xbc\n{claude.ws}\n"


def _quoted_project_script(claude: Claude, probe: Probe) -> dict[str, Any]:
    claude.file("{ws}/.claude/hooks/check.sh", "#!/bin/sh\n" + probe.command + "\n",
                executable=True)  # fmt: skip
    return command('"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh')


def _ran_in_project(claude: Claude, probe: Probe, result: dict[str, Any]) -> None:
    assert probe.ran
    assert probe.env()["CLAUDE_PROJECT_DIR"] == str(claude.ws)
    assert not list(claude.tmp.rglob("pwned"))


def _worktree_check(claude: Claude, probe: Probe, result: dict[str, Any]) -> None:
    worktree = claude.ws / ".claude" / "worktrees" / "feature-auth"
    assert probe.cwd() == str(worktree)
    assert probe.stdin()["cwd"] == str(worktree)
    assert probe.env()["CLAUDE_PROJECT_DIR"] == str(claude.ws)


def _added_fields_check(claude: Claude, probe: Probe, result: dict[str, Any]) -> None:
    stdin = probe.stdin()
    assert stdin == {"tool_name": "Bash", "tool_input": {"command": "ls"},
                     "hook_event_name": "PreToolUse", "cwd": str(claude.ws)}  # fmt: skip
    assert probe.cwd() == str(claude.ws)


def _first_root_check(claude: Claude, probe: Probe, result: dict[str, Any]) -> None:
    assert probe.env()["CLAUDE_PROJECT_DIR"] == str(claude.ws)


def _env_check(claude: Claude, probe: Probe, result: dict[str, Any]) -> None:
    env = probe.env()
    assert env["HOOKD_CONFORMANCE_MARKER"] == "from-the-daemon"
    assert not [name for name in env if name.startswith("OTEL_")]


def _agent_env_check(claude: Claude, probe: Probe, result: dict[str, Any]) -> None:
    env = probe.env()
    assert env["AGENT_MARKER"] == "from-the-agent"
    assert not [name for name in env if name.startswith("OTEL_")]


def _effort_check(claude: Claude, probe: Probe, result: dict[str, Any]) -> None:
    assert probe.env()["CLAUDE_EFFORT"] == "high"


def _session_handler(claude: Claude, probe: Probe) -> dict[str, Any]:
    out = claude.tmp / "stat"
    return command(f"echo $$ > {out}; cut -d')' -f2- /proc/$$/stat >> {out}")


def _session_check(claude: Claude, probe: Probe, result: dict[str, Any]) -> None:
    pid, stat = (claude.tmp / "stat").read_text().splitlines()
    fields = stat.split()  # state ppid pgrp session tty_nr ...
    assert fields[3] == pid  # its own session (the shell is the session leader)
    assert fields[4] == "0"  # no controlling terminal


def _shell_bash(claude: Claude, probe: Probe) -> dict[str, Any]:
    return command(probe.command, shell="bash")


def _ran(claude: Claude, probe: Probe, result: dict[str, Any]) -> None:
    assert probe.ran
    assert result["hooks"][0]["error"] is None


def _shell_ignored_with_args(claude: Claude, probe: Probe) -> dict[str, Any]:
    argv_script(claude)
    return {"type": "command", "shell": "powershell", "args": ["x"],
            "command": "${CLAUDE_PROJECT_DIR}/.claude/hooks/show-argv.sh"}  # fmt: skip


def _shell_ignored_check(claude: Claude, probe: Probe, result: dict[str, Any]) -> None:
    assert argv_of(claude)[1:] == ["x"]


def _powershell(claude: Claude, probe: Probe) -> dict[str, Any]:
    return {"type": "command", "shell": "powershell", "command": "Write-Host 'File written'"}


def _once_handler(claude: Claude, probe: Probe) -> dict[str, Any]:
    return command(f"echo x >> {claude.tmp / 'count'}", once=True, statusMessage="Checking...")


def _once_check(claude: Claude, probe: Probe, result: dict[str, Any]) -> None:
    assert (claude.tmp / "count").read_text() == "x\n" * 2  # fired twice, ran twice


START = [
    Start("exec-form-verbatim-args", f"{REFERENCE} 'Exec form and shell form': 'each args "
          "element is one argument exactly as written, and path placeholders ... are "
          "substituted ... Special characters such as apostrophes, $, and backticks pass through "
          "verbatim'", _exec_handler, _exec_check, roots=("{tmp}/my project",)),
    Start("exec-form-plugin-placeholders", f"{REFERENCE} 'Exec form and shell form': "
          "${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_DATA} are substituted and 'both export them "
          "as the environment variables' (the client gives their values in the fire's env)",
          _plugin_handler, _plugin_check,
          env={"CLAUDE_PLUGIN_ROOT": "{tmp}/plugin", "CLAUDE_PLUGIN_DATA": "{tmp}/data"}),
    Start("exec-form-path-lookup", f"{REFERENCE} 'Exec form and shell form': 'Claude Code "
          "resolves command as an executable on PATH and spawns it directly'",
          _path_lookup_handler, _path_lookup_check),
    Start("exec-form-bare-name-with-space", f"{REFERENCE} 'Exec form and shell form' (note): a "
          "bare command name with whitespace alongside args cannot be spawned: 'there is no "
          "executable named node script.js' (a non-blocking error)", _bare_name_handler,
          _bare_name_check),
    Start("shell-form-features", f"{REFERENCE} 'Exec form and shell form': shell form 'expands "
          "variables, and interprets pipes, &&, redirects'", _shell_features,
          _shell_features_check),
    Start("shell-form-quoted-project-dir", f"{REFERENCE} 'Reference scripts by path': 'In shell "
          "form, wrap each placeholder in double quotes' (a project path with spaces and shell "
          "metacharacters stays one word)", _quoted_project_script, _ran_in_project,
          roots=("{tmp}/my proj; touch pwned",)),
    Start("project-dir-is-first-root", f"{REFERENCE} 'Reference scripts by path': "
          "CLAUDE_PROJECT_DIR is 'the project root where the session started' (hookd: the first "
          "workspace root)", shell, _first_root_check, roots=("{ws}", "{tmp}")),
    Start("worktree-cwd", f"{REFERENCE} 'Reference scripts by path' (Worktrees are different): "
          "'${CLAUDE_PROJECT_DIR} stays put' while 'cwd follows Claude' (and handlers 'run in "
          "the current directory')", shell, _worktree_check,
          payload={"tool_name": "Bash", "tool_input": {},
                   "cwd": "{ws}/.claude/worktrees/feature-auth"}),
    Start("added-fields", f"{REFERENCE} 'Common input fields': hook_event_name is the event "
          "that fired; hookd adds it, and cwd when the client sent none", shell,
          _added_fields_check),
    Start("event-name-corrected", f"{REFERENCE} 'Common input fields': hook_event_name is "
          "'Name of the event that fired' (a wrong value from the client is replaced)", shell,
          lambda c, p, r: _assert_eq(p.stdin()["hook_event_name"], "PreToolUse"),
          payload={"hook_event_name": "Stop", "tool_name": "Bash"}),
    Start("inherited-environment", f"{REFERENCE} 'Hook handler fields': handlers run 'with "
          "Claude Code's environment'; 'Common input fields': OTEL_* exporter variables are "
          "removed from every subprocess", shell, _env_check),
    Start("otel-from-the-agent-removed", f"{REFERENCE} 'Common input fields': OTEL_* removed "
          "from every subprocess, also when the agent passes them in the fire's env", shell,
          _agent_env_check, env={"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318",
                                 "AGENT_MARKER": "from-the-agent"}),
    Start("effort-variable", f"{REFERENCE} 'Common input fields': effort.level 'is also "
          "available to hook commands ... as the $CLAUDE_EFFORT environment variable'", shell,
          _effort_check,
          payload={"tool_name": "Bash", "tool_input": {}, "effort": {"level": "high"}}),
    Start("own-session-no-tty", f"{REFERENCE} 'Hook input and output': 'command hooks run in "
          "their own session without a controlling terminal'", _session_handler,
          _session_check),
    Start("shell-bash", f"{REFERENCE} 'Command hook fields': shell \"bash\" is the default "
          "(shell form runs 'sh -c on macOS and Linux')", _shell_bash, _ran),
    Start("shell-ignored-with-args", f"{REFERENCE} 'Command hook fields': shell is 'Ignored when "
          "args is set'", _shell_ignored_with_args, _shell_ignored_check),
    Start("shell-powershell", f"{REFERENCE} 'Windows PowerShell tool': shell \"powershell\" runs "
          "the command via PowerShell", _powershell, _ran,
          skip=None if have("pwsh") else "pwsh is not installed (PowerShell hooks are "
          "documented for Windows)"),
    Start("once-ignored-in-settings", f"{REFERENCE} 'Common fields': once 'Only honored for "
          "hooks declared in skill frontmatter; ignored in settings files' (statusMessage is "
          "accepted too)", _once_handler, _once_check, fires=2),
]  # fmt: skip


def _assert_eq(actual: Any, expected: Any) -> None:
    assert actual == expected


@pytest.mark.parametrize("case", params(START))
async def test_how_hooks_start(claude: Claude, case: Start) -> None:
    roots = [r.replace("{ws}", str(claude.ws)).replace("{tmp}", str(claude.tmp))
             for r in case.roots]  # fmt: skip
    for root in roots:
        os.makedirs(root, exist_ok=True)
    claude.ws = Path(roots[0])
    (claude.ws / ".claude" / "worktrees" / "feature-auth").mkdir(parents=True, exist_ok=True)
    probe = claude.probe()
    claude.hooks(case.event, case.handler(claude, probe))
    env = {k: v.replace("{tmp}", str(claude.tmp)) for k, v in case.env.items()}

    for _ in range(case.fires):
        result = await claude.fire(case.event, case.payload, roots=roots, env=env)

    assert len(result["hooks"]) == 1
    case.check(claude, probe, result)


# --- timeouts ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Timeout:
    id: str
    rule: str
    event: str
    handler: dict[str, Any]
    ms: int
    xfail: str | None = None


TIMEOUT_RULE = f"{REFERENCE} 'Common fields' (timeout)"
TIMEOUTS = [
    Timeout("command-default", f"{TIMEOUT_RULE}: 600 for command", "Stop", command("true"),
            600_000),
    Timeout("http-default", f"{TIMEOUT_RULE}: 600 for http", "Stop",
            {"type": "http", "url": "http://127.0.0.1:9/x"}, 600_000),
    Timeout("mcp-tool-default", f"{TIMEOUT_RULE}: 600 for mcp_tool", "Stop",
            {"type": "mcp_tool", "server": "s", "tool": "t"}, 600_000),
    Timeout("prompt-default", f"{TIMEOUT_RULE}: 30 for prompt", "Stop",
            {"type": "prompt", "prompt": "p"}, 30_000),
    Timeout("agent-default", f"{TIMEOUT_RULE}: 60 for agent", "Stop",
            {"type": "agent", "prompt": "p"}, 60_000),
    Timeout("async-default", f"{REFERENCE} 'Configure an async hook': 'async hooks use the same "
            "10-minute default as sync hooks'", "PostToolUse", command("true", **{"async": True}),
            600_000),
    Timeout("user-prompt-submit-command", f"{TIMEOUT_RULE}: UserPromptSubmit lowers the command "
            "default to 30", "UserPromptSubmit", command("true"), 30_000),
    Timeout("user-prompt-submit-http", f"{TIMEOUT_RULE}: ... and the http default",
            "UserPromptSubmit", {"type": "http", "url": "http://127.0.0.1:9/x"}, 30_000),
    Timeout("user-prompt-submit-mcp-tool", f"{TIMEOUT_RULE}: ... and the mcp_tool default",
            "UserPromptSubmit", {"type": "mcp_tool", "server": "s", "tool": "t"}, 30_000),
    Timeout("message-display-command", f"{TIMEOUT_RULE}: MessageDisplay lowers it to 10",
            "MessageDisplay", command("true"), 10_000),
    Timeout("explicit-seconds", f"{TIMEOUT_RULE}: 'Seconds before canceling'", "Stop",
            command("true", timeout=45), 45_000),
    Timeout("explicit-on-user-prompt-submit", f"{REFERENCE} 'UserPromptSubmit': 'If your hook "
            "needs more time, set the timeout field'", "UserPromptSubmit",
            command("true", timeout=120), 120_000),
]  # fmt: skip


@pytest.mark.parametrize("case", params(TIMEOUTS))
async def test_timeout_defaults(claude: Claude, case: Timeout) -> None:
    claude.hooks(case.event, case.handler)

    listing = await claude.listing()

    assert [h["timeoutMs"] for h in listing] == [case.ms]


@dataclass(frozen=True)
class TimedOut:
    id: str
    rule: str
    event: str
    handler: Callable[[Gate], dict[str, Any]]
    payload: dict[str, Any]
    max_s: float
    max_ms: float | None = None
    """The hook must have been stopped within this many milliseconds."""
    env: dict[str, str] = field(default_factory=dict)
    slow: bool = False
    xfail: str | None = None


TIMED_OUT = [
    TimedOut(
        "user-prompt-submit-output-discarded", f"{REFERENCE} 'UserPromptSubmit': a hook 'that "
        "reaches its timeout is canceled and its output, including any additionalContext, is "
        "discarded'", "UserPromptSubmit",
        lambda gate: command(echo_json({"hookSpecificOutput": {
            "hookEventName": "UserPromptSubmit", "additionalContext": "late"}})
            + f"; {gate.wait_command}", timeout=0.3), {"prompt": "hi"}, 5.0,
    ),
    TimedOut(
        "pre-tool-use-no-decision", f"{REFERENCE} 'Timeouts': 'A timed-out command ... hook "
        "doesn't block the tool call'", "PreToolUse",
        lambda gate: command("echo 'no' >&2; " + gate.wait_command + "; exit 2", timeout=0.3),
        {"tool_name": "Bash", "tool_input": {"command": "ls"}}, 5.0,
    ),
    TimedOut(
        "session-end-budget", f"{REFERENCE} 'SessionEnd': 'SessionEnd hooks have a default "
        "timeout of 1.5 seconds' (a shared budget)", "SessionEnd",
        lambda gate: command(gate.wait_command), {"reason": "other"}, 10.0, 5000, slow=True,
    ),
    TimedOut(
        "session-end-budget-variable", f"{REFERENCE} 'SessionEnd': 'To override the budget "
        "explicitly, set the CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS environment variable' (in "
        "the agent's environment, which the client passes in the fire's env)", "SessionEnd",
        lambda gate: command(gate.wait_command), {"reason": "other"}, 10.0, 1000,
        env={"CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS": "300"}, slow=True,
    ),
]  # fmt: skip


@pytest.mark.parametrize("case", params(TIMED_OUT))
async def test_timed_out_hooks(claude: Claude, case: TimedOut) -> None:
    gate = Gate(claude.tmp / "gate")
    claude.hooks(case.event, case.handler(gate))

    with trio.fail_after(case.max_s):
        result = await claude.fire(case.event, case.payload, env=case.env)

    hook = result["hooks"][0]
    assert hook["timedOut"] is True
    assert result["blocked"] is False
    assert result["context"] is None
    assert result["decision"] is None
    if case.max_ms is not None:
        assert hook["durationMs"] < case.max_ms
    if case.id == "session-end-budget":
        assert hook["durationMs"] >= 1400
