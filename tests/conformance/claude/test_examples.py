"""Every example hook and settings block of the reference and the guide, run under hookd.

The examples are stored verbatim under ``examples/`` (``test_example_files.py`` checks
that against the documents). Each case installs one example where Claude Code reads it,
fires the event the example is written for, and checks the outcome the document gives.

What a case may change, always said in its ``note``:

* a placeholder path such as ``/path/to/lint-check.sh`` is pointed at a real script
  (a recording stub, or the stored example script);
* an external tool (``osascript``, ``notify-send``, ``npx``, ``git``, ``svn``, ``npm``,
  ``direnv``, ``powershell.exe``...) is a recording stub first on the hooks' ``PATH``
  (given in the fire's ``env``): it records its working directory and argv;
* a URL (``http://localhost:8080``) is pointed at a local endpoint the test runs;
* the shared ``/tmp`` is replaced by the test's own folder where an example deletes files.

Scripts a document names but does not show (``check-style.sh``, ``block-rm-rf.sh``...)
are written by the test from the document's description.
"""

from __future__ import annotations

import inspect
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import trio

from conformance.claude.support import (
    GUIDE,
    REFERENCE,
    Claude,
    HttpEndpoint,
    Recorder,
    Reply,
    Stub,
    documented_input,
    example_json,
    example_text,
    fill,
    fire_as_client,
    have,
    next_notification,
    params,
)
from hookd_testing import wait_until


@dataclass
class Ctx:
    claude: Claude
    result: dict[str, Any]
    asked: list[dict[str, Any]]
    endpoint: HttpEndpoint | None

    def calls(self, stub: str) -> list[list[str]]:
        return Recorder(self.claude.tmp / f"stub-{stub}.log").calls()

    def path(self, template: str) -> Path:
        return Path(fill(template, self.claude.names))


@dataclass(frozen=True)
class Example:
    id: str
    rule: str
    settings: str | dict[str, Any] | None
    """A stored example (settings block, or a lone handler with ``wrap``), or settings the
    test writes (for example scripts the documents give without settings)."""
    event: str
    payload: dict[str, Any] | None = None
    """The event input (``{ws}``-style names filled in); default: the documented input."""
    note: str = ""
    layer: str = "project"
    wrap: str | None = None
    """The stored example is one handler: put it in a matcher group with this matcher."""
    replace: tuple[tuple[str, str], ...] = ()
    scripts: tuple[tuple[str, str], ...] = ()
    """(stored example script, where it goes)."""
    files: tuple[tuple[str, str], ...] = ()
    """(path, content) the test writes; ``.sh`` files are made executable."""
    stubs: tuple[Stub, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    roots: tuple[str, ...] = ("{ws}",)
    ran: int | None = None
    """How many hooks ran (None: not checked)."""
    expect: dict[str, Any] = field(default_factory=dict)
    native: dict[str, Any] | None = None
    calls: dict[str, list[list[str]]] = field(default_factory=dict)
    """Expected recorded calls per stub (exactly; [] = never called)."""
    outputs: dict[str, str | None] = field(default_factory=dict)
    """Files and their expected content afterwards (None: must not exist)."""
    client: Callable[[dict[str, Any]], Any] | None = None
    """Answer ``hook/run`` requests as a client running prompt/agent/mcp_tool handlers."""
    http: Reply | None = None
    """Run a local HTTP endpoint answering every request with this reply."""
    check: Callable[[Ctx], Any] | None = None
    skip: str | None = None
    xfail: str | None = None


def ps1_args(script: str) -> list[str]:
    return ["-NoProfile", "-ExecutionPolicy", "Bypass", "-File", f"{{ws}}/.claude/hooks/{script}"]


def recorder_script(name: str) -> tuple[str, str]:
    """A stand-in for a script the documents name but do not show: records its stdin."""
    return (f"{{ws}}/.claude/hooks/{name}", f"#!/bin/sh\ncat > {{tmp}}/{name}.stdin\n")


def bash(text: str) -> dict[str, Any]:
    return {"tool_name": "Bash", "tool_input": {"command": text}}


def edit(path: str) -> dict[str, Any]:
    return {"cwd": "{ws}", "tool_name": "Edit",
            "tool_input": {"file_path": path, "old_string": "a", "new_string": "b"}}  # fmt: skip


def write(path: str) -> dict[str, Any]:
    return {"cwd": "{ws}", "tool_name": "Write", "tool_input": {"file_path": path, "content": ""}}


def deny(reason: str) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                   "permissionDecisionReason": reason}}  # fmt: skip


STUB_TOOLS = "external tools are recording stubs on the hooks' PATH"
PLACEHOLDER = "the placeholder script path points at a recording stub"
NO_PWSH = "powershell.exe is a recording stub (no PowerShell here): checks the exec-form argv"
OSASCRIPT_ARG = 'display notification "Claude Code needs your attention" with title "Claude Code"'
PS_COMMAND = (
    "[System.Reflection.Assembly]::LoadWithPartialName('System.Windows.Forms'); "
    "[System.Windows.Forms.MessageBox]::Show('Claude Code needs your attention', 'Claude Code')"
)
BLOCK_RM_RF = (
    "#!/bin/bash\n"
    'if jq -r .tool_input.command | grep -q "rm -rf"; then\n'
    '  echo "Blocked: rm -rf is not allowed" >&2\n  exit 2\nfi\nexit 0\n'
)
NVM = 'nvm() { export NVM_BIN="$HOME/.nvm/versions/node/v20/bin"; }\n'


def _format_js(ctx: Ctx) -> None:
    recorded = json.loads((ctx.claude.tmp / "format.argv").read_text())
    assert recorded == ["--fix"]


def _async_stub_ran(ctx: Ctx) -> Any:
    async def wait() -> None:
        assert len(ctx.result["asyncStarted"]) == 1
        await wait_until(lambda: (ctx.claude.tmp / "stub-run-tests.sh.log").exists())

    return wait()


def _async_tests_passed(ctx: Ctx) -> Any:
    async def wait() -> None:
        message = await next_notification(ctx.claude.rpc, "hook/asyncResult")
        assert message["params"]["context"] == f"Tests passed after editing {ctx.claude.ws}/a.ts"

    return wait()


def _audit_line(ctx: Ctx) -> None:
    line = json.loads(ctx.path("{home}/claude-config-audit.log").read_text())
    assert (line["source"], line["file"]) == ("project_settings", str(ctx.claude.ws) + "/s.json")
    assert line["timestamp"].endswith("Z")


def _env_file(*lines: str) -> Callable[[Ctx], None]:
    def check(ctx: Ctx) -> None:
        text = Path(ctx.result["envFile"]).read_text()
        for line in lines:
            assert line in text.splitlines(), text

    return check


def _prompt_asked(fragment: str) -> Callable[[Ctx], None]:
    def check(ctx: Ctx) -> None:
        (asked,) = ctx.asked
        assert fragment in asked["prompt"]
        assert '"hook_event_name":"Stop"' in asked["prompt"]

    return check


def _mcp_scan(ctx: Ctx) -> None:
    (asked,) = ctx.asked
    assert (asked["server"], asked["tool"]) == ("my_server", "security_scan")
    assert asked["input"] == {"file_path": f"{ctx.claude.ws}/src/a.ts"}


def _http_seen(path: str, authorization: str) -> Callable[[Ctx], None]:
    def check(ctx: Ctx) -> None:
        assert ctx.endpoint is not None
        (request,) = ctx.endpoint.requests
        assert (request.method, request.target) == ("POST", path)
        assert request.headers["authorization"] == authorization
        assert request.headers["content-type"] == "application/json"
        assert "hook_event_name" in request.json()

    return check


SKILL_AS_SETTINGS = {
    "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "./scripts/security-check.sh"}]}]}
}  # fmt: skip


def _skill_same_hooks(ctx: Ctx) -> None:
    text = example_text("reference/skill-secure-operations.md")
    assert '    - matcher: "Bash"' in text
    assert '          command: "./scripts/security-check.sh"' in text


R_RESOLVE = f"{REFERENCE} 'How a hook resolves'"
R_EXIT2 = f"{REFERENCE} 'Exit code 2' (example script)"
G_NOTIFY = f"{GUIDE} 'Get notified when Claude needs input'"
G_FORMAT = f"{GUIDE} 'Auto-format code after edits'"
G_PROTECT = f"{GUIDE} 'Block edits to protected files'"

EXAMPLES = [
    # --- reference: How a hook resolves ---------------------------------------------------------
    Example("block-rm-deny", f"{R_RESOLVE}: Bash 'rm -rf /tmp/build' passes the matcher and the "
            "if rule; block-rm.sh denies with its reason", "reference/block-rm-if.json",
            "PreToolUse", bash("rm -rf /tmp/build"),
            scripts=(("reference/block-rm.sh", "{ws}/.claude/hooks/block-rm.sh"),), ran=1,
            expect={"blocked": True, "decision": "deny",
                    "reason": "Destructive command blocked by hook"},
            native=deny("Destructive command blocked by hook")),
    Example("block-rm-no-decision", f"{R_RESOLVE}: 'rm file.txt' runs the script, which exits 0: "
            "no decision, the normal permission flow applies", "reference/block-rm-if.json",
            "PreToolUse", bash("rm file.txt"),
            scripts=(("reference/block-rm.sh", "{ws}/.claude/hooks/block-rm.sh"),), ran=1,
            expect={"blocked": False, "decision": None}, native={}),
    Example("block-rm-not-spawned", f"{R_RESOLVE}: with 'npm test' the if check fails and "
            "block-rm.sh never runs", "reference/block-rm-if.json", "PreToolUse",
            bash("npm test"),
            scripts=(("reference/block-rm.sh", "{ws}/.claude/hooks/block-rm.sh"),), ran=0),
    Example("block-rm-windows-bash", f"{R_RESOLVE} (Windows tab): the Bash(rm *) handler runs "
            "powershell.exe with the script; the PowerShell rule's handler does not",
            "reference/block-rm-if-windows.json", "PreToolUse", bash("rm -rf /tmp/build"),
            note=NO_PWSH, stubs=(Stub("powershell.exe"),), ran=1,
            scripts=(("reference/block-rm.ps1", "{ws}/.claude/hooks/block-rm.ps1"),),
            calls={"powershell.exe": [ps1_args("block-rm.ps1")]}),
    Example("block-rm-windows-powershell", f"{R_RESOLVE} (Windows tab): the "
            "PowerShell(Remove-Item *) handler runs for the PowerShell tool",
            "reference/block-rm-if-windows.json", "PreToolUse",
            {"tool_name": "PowerShell", "tool_input": {"command": "Remove-Item -Recurse build"}},
            note=NO_PWSH, stubs=(Stub("powershell.exe"),), ran=1,
            calls={"powershell.exe": [ps1_args("block-rm.ps1")]}),
    # --- reference: matchers ----------------------------------------------------------------------
    Example("lint-check-edit", f"{REFERENCE} 'Matcher patterns' (example): the lint script runs "
            "only when Claude writes or edits a file", "reference/lint-check.json",
            "PostToolUse", edit("{ws}/a.py"), note=PLACEHOLDER,
            replace=(("/path/to/lint-check.sh", "{bin}/lint-check.sh"),),
            stubs=(Stub("lint-check.sh"),), ran=1, calls={"lint-check.sh": [[]]}),
    Example("lint-check-bash", f"{REFERENCE} 'Matcher patterns' (example): not for Bash",
            "reference/lint-check.json", "PostToolUse", bash("ls"), note=PLACEHOLDER,
            replace=(("/path/to/lint-check.sh", "{bin}/lint-check.sh"),),
            stubs=(Stub("lint-check.sh"),), ran=0, calls={"lint-check.sh": []}),
    Example("mcp-memory-log", f"{REFERENCE} 'Match MCP tools' (example): memory server "
            "operations are logged", "reference/mcp-matchers.json", "PreToolUse",
            {"tool_name": "mcp__memory__create_entities", "tool_input": {}}, note=PLACEHOLDER,
            replace=(("/home/user/scripts/validate-mcp-write.py", "{bin}/validate-mcp-write.py"),),
            stubs=(Stub("validate-mcp-write.py"),), ran=1,
            outputs={"{home}/mcp-operations.log": "Memory operation initiated\n"},
            calls={"validate-mcp-write.py": []}),
    Example("mcp-write-validated", f"{REFERENCE} 'Match MCP tools' (example): write operations "
            "from any MCP server are validated", "reference/mcp-matchers.json", "PreToolUse",
            {"tool_name": "mcp__filesystem__write_file", "tool_input": {}}, note=PLACEHOLDER,
            replace=(("/home/user/scripts/validate-mcp-write.py", "{bin}/validate-mcp-write.py"),),
            stubs=(Stub("validate-mcp-write.py"),), ran=1,
            outputs={"{home}/mcp-operations.log": None}, calls={"validate-mcp-write.py": [[]]}),
    # --- reference: exec form, placeholders, plugins, skills ------------------------------------
    Example("exec-form-node", f"{REFERENCE} 'Exec form and shell form': 'Exec form passes the "
            "resolved script path as one argument with no quoting'",
            "reference/exec-form-handler.json", "PostToolUse", write("{ws}/a.js"), wrap="",
            note="the plugin root (with a space) is given in the fire's env",
            env={"CLAUDE_PLUGIN_ROOT": "{tmp}/my plugin"},
            files=(("{tmp}/my plugin/scripts/format.js",
                    "require('fs').writeFileSync(process.env.CLAUDE_PLUGIN_ROOT + "
                    "'/../format.argv', JSON.stringify(process.argv.slice(2)))\n"),),
            ran=1, expect={"blocked": False}, check=_format_js,
            skip=None if have("node") else "node is not installed"),
    Example("shell-form-node", f"{REFERENCE} 'Exec form and shell form': 'The equivalent shell "
            "form needs quoting to handle paths with spaces'",
            "reference/shell-form-handler.json", "PostToolUse", write("{ws}/a.js"), wrap="",
            note="the plugin root (with a space) is given in the fire's env",
            env={"CLAUDE_PLUGIN_ROOT": "{tmp}/my plugin"},
            files=(("{tmp}/my plugin/scripts/format.js",
                    "require('fs').writeFileSync(process.env.CLAUDE_PLUGIN_ROOT + "
                    "'/../format.argv', JSON.stringify(process.argv.slice(2)))\n"),),
            ran=1, check=_format_js, skip=None if have("node") else "node is not installed"),
    Example("project-script", f"{REFERENCE} 'Reference scripts by path' (Project scripts): "
            "${CLAUDE_PROJECT_DIR}/.claude/hooks/check-style.sh runs after Write or Edit",
            "reference/project-script-check-style.json", "PostToolUse",
            write("{ws}/src/a.ts"), roots=("{tmp}/my project",),
            note="check-style.sh is not shown: a stand-in records its stdin",
            files=(recorder_script("check-style.sh"),), ran=1,
            check=lambda ctx: _stdin_tool(ctx, "check-style.sh", "Write")),
    Example("plugin-hooks", f"{REFERENCE} 'Reference scripts by path' (Plugin scripts): "
            "hooks/hooks.json with a top-level description; ${CLAUDE_PLUGIN_ROOT} scripts run",
            "reference/plugin-hooks.json", "PostToolUse", edit("{ws}/a.py"),
            note="hookd has no plugin source: the file is installed as project settings and the "
            "plugin root is given in the fire's env", env={"CLAUDE_PLUGIN_ROOT": "{tmp}/plugin"},
            files=(("{tmp}/plugin/scripts/format.sh",
                    "#!/bin/sh\ncat > {tmp}/format.sh.stdin\n"),),
            ran=1, expect={"warnings": []},
            check=lambda ctx: _stdin_tool(ctx, "format.sh", "Edit")),
    Example("skill-frontmatter-hooks", f"{REFERENCE} 'Hooks in skills and agents': frontmatter "
            "hooks use 'the same configuration format as settings-based hooks'",
            SKILL_AS_SETTINGS, "PreToolUse", {"cwd": "{ws}", **bash("ls")},
            note="hookd reads no skill files: the frontmatter's hooks are written as settings "
            "(the check compares them with the stored skill); the relative script path runs "
            "from the working directory",
            files=(("{ws}/scripts/security-check.sh", "#!/bin/sh\ncat > {tmp}/security.stdin\n"),),
            ran=1, check=lambda ctx: (_skill_same_hooks(ctx), _stdin_tool(ctx, "security", "Bash"))),
    # --- reference: exit code 2, terminal sequences, SessionStart --------------------------------
    Example("exit-2-blocks-rm", f"{R_EXIT2}: 'Blocking error: tool call is prevented'",
            {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "{ws}/.claude/hooks/block-rm-exit2.sh"}]}]}},
            "PreToolUse", bash("rm -rf build"),
            scripts=(("reference/block-rm-exit2.sh", "{ws}/.claude/hooks/block-rm-exit2.sh"),),
            expect={"blocked": True, "reason": "Blocked: rm commands are not allowed"}),
    Example("exit-2-allows-ls", f"{R_EXIT2}: 'No decision: the normal permission flow applies'",
            {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "{ws}/.claude/hooks/block-rm-exit2.sh"}]}]}},
            "PreToolUse", bash("ls"),
            scripts=(("reference/block-rm-exit2.sh", "{ws}/.claude/hooks/block-rm-exit2.sh"),),
            ran=1, expect={"blocked": False, "decision": None}, native={}),
    Example("terminal-sequence", f"{REFERENCE} 'Emit terminal notifications': the Notification "
            "hook's terminalSequence is emitted (OSC 777 is on the allowlist)",
            {"hooks": {"Notification": [{"hooks": [
                {"type": "command", "command": "{ws}/.claude/hooks/notify.sh"}]}]}},
            "Notification", documented_input("Notification"),
            scripts=(("reference/notification-terminal-sequence.sh",
                      "{ws}/.claude/hooks/notify.sh"),),
            native={"terminalSequence": "\x1b]777;notify;Claude Code;Claude needs your "
                                        "permission\x07"}),
    Example("reload-skills", f"{REFERENCE} 'SessionStart decision control': the reloadSkills "
            "example; the failed clone's stderr on exit 0 is informational 'so the reloadSkills "
            "request still applies'",
            {"hooks": {"SessionStart": [{"hooks": [
                {"type": "command", "command": "{ws}/.claude/hooks/sync-skills.sh"}]}]}},
            "SessionStart", note=STUB_TOOLS + " (git fails like the placeholder URL does)",
            scripts=(("reference/session-start-reload-skills.sh",
                      "{ws}/.claude/hooks/sync-skills.sh"),),
            stubs=(Stub("git", exit=128, stderr="fatal: unable to access repository\n"),),
            ran=1, native={"hookSpecificOutput": {"hookEventName": "SessionStart",
                                                  "reloadSkills": True}},
            calls={"git": [["-C", "{home}/.claude/skills/team-skills", "pull", "--quiet"],
                           ["clone", "--quiet", "https://git.example.com/your-org/team-skills.git",
                            "{home}/.claude/skills/team-skills"]]},
            check=lambda ctx: _no_errors(ctx)),
    Example("env-file-exports", f"{REFERENCE} 'Persist environment variables': export lines "
            "appended to CLAUDE_ENV_FILE",
            {"hooks": {"SessionStart": [{"hooks": [
                {"type": "command", "command": "{ws}/.claude/hooks/env.sh"}]}]}},
            "SessionStart", scripts=(("reference/session-start-env-file.sh",
                                      "{ws}/.claude/hooks/env.sh"),),
            check=_env_file("export NODE_ENV=production", "export DEBUG_LOG=true",
                            'export PATH="$PATH:./node_modules/.bin"')),
    Example("env-file-diff", f"{REFERENCE} 'Persist environment variables': 'To capture all "
            "environment changes from setup commands, compare the exported variables'",
            {"hooks": {"SessionStart": [{"hooks": [
                {"type": "command", "command": "{ws}/.claude/hooks/env-diff.sh"}]}]}},
            "SessionStart", note="nvm is a stub ~/.nvm/nvm.sh that exports NVM_BIN",
            scripts=(("reference/session-start-env-diff.sh", "{ws}/.claude/hooks/env-diff.sh"),),
            files=(("{home}/.nvm/nvm.sh", NVM),),
            check=lambda ctx: _env_diff(ctx)),
    # --- reference: MessageDisplay ---------------------------------------------------------------
    Example("plain-display", f"{REFERENCE} 'MessageDisplay output': the script strips bold "
            "markers and backticks from delta and returns displayContent",
            "reference/message-display-plain.json", "MessageDisplay",
            {**documented_input("MessageDisplay"), "delta": "**Bold** and `code`\n"},
            scripts=(("reference/plain-display.sh", "{ws}/.claude/hooks/plain-display.sh"),),
            native={"hookSpecificOutput": {"hookEventName": "MessageDisplay",
                                           "displayContent": "Bold and code\n"}}),
    Example("plain-display-windows", f"{REFERENCE} 'MessageDisplay output' (Windows tab): the "
            "script runs through powershell.exe", "reference/message-display-plain-windows.json",
            "MessageDisplay", note=NO_PWSH, stubs=(Stub("powershell.exe"),),
            scripts=(("reference/plain-display.ps1", "{ws}/.claude/hooks/plain-display.ps1"),),
            ran=1, native={}, calls={"powershell.exe": [ps1_args("plain-display.ps1")]}),
    # --- reference: Notification, tasks, teammates, config -----------------------------------
    Example("notification-permission", f"{REFERENCE} 'Notification' (example): separate "
            "matchers run different handlers", "reference/notification-matchers.json",
            "Notification", note=PLACEHOLDER,
            replace=(("/path/to/", "{bin}/"),),
            stubs=(Stub("permission-alert.sh"), Stub("idle-notification.sh")), ran=1,
            calls={"permission-alert.sh": [[]], "idle-notification.sh": []}),
    Example("notification-idle", f"{REFERENCE} 'Notification' (example): idle_prompt",
            "reference/notification-matchers.json", "Notification",
            {**documented_input("Notification"), "notification_type": "idle_prompt"},
            note=PLACEHOLDER, replace=(("/path/to/", "{bin}/"),),
            stubs=(Stub("permission-alert.sh"), Stub("idle-notification.sh")), ran=1,
            calls={"permission-alert.sh": [], "idle-notification.sh": [[]]}),
    Example("task-subject-blocked", f"{REFERENCE} 'TaskCreated decision control' (example): "
            "exit 2 'returns the stderr text as the message'",
            {"hooks": {"TaskCreated": [{"hooks": [
                {"type": "command", "command": "{ws}/.claude/hooks/ticket.sh"}]}]}},
            "TaskCreated", scripts=(("reference/task-created-ticket.sh",
                                     "{ws}/.claude/hooks/ticket.sh"),),
            expect={"blocked": True, "reason": "Task subject must start with a ticket number, "
                                               "e.g. '[TICKET-123] Add feature'"}),
    Example("task-subject-ok", f"{REFERENCE} 'TaskCreated decision control' (example)",
            {"hooks": {"TaskCreated": [{"hooks": [
                {"type": "command", "command": "{ws}/.claude/hooks/ticket.sh"}]}]}},
            "TaskCreated", {**documented_input("TaskCreated"),
                            "task_subject": "[TICKET-123] Add feature"},
            scripts=(("reference/task-created-ticket.sh", "{ws}/.claude/hooks/ticket.sh"),),
            ran=1, expect={"blocked": False}),
    Example("task-tests-fail", f"{REFERENCE} 'TaskCompleted decision control' (example): failing "
            "tests block completion with the stderr message",
            {"hooks": {"TaskCompleted": [{"hooks": [
                {"type": "command", "command": "{ws}/.claude/hooks/tests.sh"}]}]}},
            "TaskCompleted", note=STUB_TOOLS, stubs=(Stub("npm", exit=1, stdout="1 failing\n"),),
            scripts=(("reference/task-completed-tests.sh", "{ws}/.claude/hooks/tests.sh"),),
            expect={"blocked": True, "reason": "Tests not passing. Fix failing tests before "
                                               "completing: Implement user authentication"},
            calls={"npm": [["test"]]}),
    Example("task-tests-pass", f"{REFERENCE} 'TaskCompleted decision control' (example)",
            {"hooks": {"TaskCompleted": [{"hooks": [
                {"type": "command", "command": "{ws}/.claude/hooks/tests.sh"}]}]}},
            "TaskCompleted", note=STUB_TOOLS, stubs=(Stub("npm", stdout="all passing\n"),),
            scripts=(("reference/task-completed-tests.sh", "{ws}/.claude/hooks/tests.sh"),),
            expect={"blocked": False}),
    Example("teammate-artifact-missing", f"{REFERENCE} 'TeammateIdle decision control' "
            "(example): exit 2 keeps the teammate working",
            {"hooks": {"TeammateIdle": [{"hooks": [
                {"type": "command", "command": "{ws}/.claude/hooks/artifact.sh"}]}]}},
            "TeammateIdle", {**documented_input("TeammateIdle"), "cwd": "{ws}"},
            scripts=(("reference/teammate-idle-artifact.sh", "{ws}/.claude/hooks/artifact.sh"),),
            expect={"blocked": True,
                    "reason": "Build artifact missing. Run the build before stopping."}),
    Example("teammate-artifact-present", f"{REFERENCE} 'TeammateIdle decision control' (example)",
            {"hooks": {"TeammateIdle": [{"hooks": [
                {"type": "command", "command": "{ws}/.claude/hooks/artifact.sh"}]}]}},
            "TeammateIdle", {**documented_input("TeammateIdle"), "cwd": "{ws}"},
            scripts=(("reference/teammate-idle-artifact.sh", "{ws}/.claude/hooks/artifact.sh"),),
            files=(("{ws}/dist/output.js", ""),), ran=1, expect={"blocked": False}),
    Example("config-change-audit", f"{REFERENCE} 'ConfigChange' (example): every configuration "
            "change reaches the audit script", "reference/config-change-audit.json",
            "ConfigChange", note="audit-config-change.sh is not shown: a stand-in records stdin",
            files=(recorder_script("audit-config-change.sh"),), ran=1,
            check=lambda ctx: _stdin_field(ctx, "audit-config-change.sh", "source",
                                           "project_settings")),
    # --- reference: FileChanged, worktrees -------------------------------------------------------
    Example("normalize-line-endings", f"{REFERENCE} 'FileChanged' (example): data.csv ends up "
            "with LF endings", "reference/file-changed-data-csv.json", "FileChanged",
            {"cwd": "{ws}", "file_path": "{ws}/data.csv", "event": "change"},
            note="the placeholder path points at the stored example script",
            replace=(("/path/to/normalize-line-endings.sh",
                      "{ws}/.claude/hooks/normalize-line-endings.sh"),),
            scripts=(("reference/normalize-line-endings.sh",
                      "{ws}/.claude/hooks/normalize-line-endings.sh"),),
            files=(("{ws}/data.csv", "a,b\r\n1,2\r\n"),), ran=1,
            outputs={"{ws}/data.csv": "a,b\n1,2\n"}),
    Example("normalize-other-file", f"{REFERENCE} 'FileChanged' (example): the matcher filters "
            "on the changed file's basename", "reference/file-changed-data-csv.json",
            "FileChanged", {"cwd": "{ws}", "file_path": "{ws}/notes.txt", "event": "change"},
            replace=(("/path/to/normalize-line-endings.sh",
                      "{ws}/.claude/hooks/normalize-line-endings.sh"),), ran=0),
    Example("worktree-svn", f"{REFERENCE} 'WorktreeCreate' (example): the echoed directory is "
            "the worktree path", "reference/worktree-create-svn.json", "WorktreeCreate",
            note=STUB_TOOLS, stubs=(Stub("svn", body='mkdir -p "$3"'),), ran=1,
            expect={"blocked": False},
            native={"hookSpecificOutput": {"hookEventName": "WorktreeCreate",
                                           "worktreePath": "{home}/.claude/worktrees/feature-auth"}},
            calls={"svn": [["checkout", "https://svn.example.com/repo/trunk",
                            "{home}/.claude/worktrees/feature-auth"]]}),
    Example("worktree-svn-fails", f"{REFERENCE} 'WorktreeCreate output': 'If the hook fails or "
            "produces no path, worktree creation fails'", "reference/worktree-create-svn.json",
            "WorktreeCreate", note=STUB_TOOLS + " (svn fails)",
            stubs=(Stub("svn", exit=1, stderr="svn: E170013: Unable to connect\n"),),
            expect={"blocked": True}),
    Example("worktree-remove", f"{REFERENCE} 'WorktreeRemove' (example): the worktree_path "
            "directory is removed", "reference/worktree-remove.json", "WorktreeRemove",
            {"worktree_path": "{ws}/.claude/worktrees/feature-auth"},
            files=(("{ws}/.claude/worktrees/feature-auth/file", "x"),), ran=1,
            outputs={"{ws}/.claude/worktrees/feature-auth/file": None}),
    # --- reference: prompt, agent, http, mcp_tool, async -------------------------------------
    Example("prompt-stop", f"{REFERENCE} 'Prompt hook configuration' (example): ok false keeps "
            "Claude working", "reference/prompt-stop.json", "Stop",
            client=lambda p: {"ok": False, "reason": "the docs are not updated"}, ran=1,
            expect={"blocked": True, "reason": "the docs are not updated"},
            check=_prompt_asked("Evaluate if Claude should stop: {")),
    Example("prompt-stop-conditions", f"{REFERENCE} 'Check multiple conditions before stopping'",
            "reference/prompt-stop-conditions.json", "Stop",
            client=lambda p: {"ok": True}, ran=1, expect={"blocked": False},
            check=_prompt_asked("Context: {")),
    Example("agent-stop", f"{REFERENCE} 'Agent hook configuration' (example, also in the guide)",
            "reference/agent-stop.json", "Stop",
            client=lambda p: {"ok": False, "reason": "2 unit tests fail"}, ran=1,
            expect={"blocked": True, "reason": "2 unit tests fail"},
            check=_prompt_asked("Verify that all unit tests pass.")),
    Example("http-pre-tool-use", f"{REFERENCE} 'HTTP hook fields' (example): the token from "
            "MY_TOKEN authenticates; a JSON deny blocks", "reference/http-pre-tool-use.json",
            "PreToolUse", note="the URL points at a local endpoint; MY_TOKEN is in the fire's env",
            replace=(("http://localhost:8080", "{url}"),), env={"MY_TOKEN": "t0ken"},
            http=Reply(200, json.dumps(deny("from the service")).encode()), ran=1,
            expect={"blocked": True, "reason": "from the service"},
            check=_http_seen("/hooks/pre-tool-use", "Bearer t0ken")),
    Example("mcp-tool-security-scan", f"{REFERENCE} 'MCP tool hook fields' (example): "
            "security_scan gets the edited file's path", "reference/mcp-tool-security-scan.json",
            "PostToolUse", write("{ws}/src/a.ts"),
            client=lambda p: {"content": [{"type": "text", "text": "no findings"}]}, ran=1,
            expect={"blocked": False, "context": None}, check=_mcp_scan),
    Example("async-run-tests", f"{REFERENCE} 'Configure an async hook' (example): Claude "
            "continues immediately while run-tests.sh executes", "reference/async-run-tests.json",
            "PostToolUse", write("{ws}/a.ts"), note=PLACEHOLDER,
            replace=(("/path/to/run-tests.sh", "{bin}/run-tests.sh"),),
            stubs=(Stub("run-tests.sh"),), ran=0, check=_async_stub_ran),
    Example("async-run-tests-project", f"{REFERENCE} 'Run tests after file changes' (example): "
            "the result reaches Claude as additionalContext when the tests finish",
            "reference/async-run-tests-project.json", "PostToolUse", write("{ws}/a.ts"),
            note=STUB_TOOLS, stubs=(Stub("npm", stdout="ok\n"),),
            scripts=(("reference/run-tests-async.sh", "{ws}/.claude/hooks/run-tests-async.sh"),),
            ran=0, check=_async_tests_passed),
    Example("powershell-shell", f"{REFERENCE} 'Windows PowerShell tool' (example)",
            "reference/powershell-shell.json", "PostToolUse", write("{ws}/a.txt"),
            skip="shell: powershell is documented for Windows and pwsh is not installed"),
    Example("powershell-shell-handler", f"{REFERENCE} 'Windows PowerShell tool' (the $env: "
            "form)", "reference/powershell-shell-handler.json", "PostToolUse",
            write("{ws}/a.txt"), wrap="",
            skip="shell: powershell is documented for Windows and pwsh is not installed"),
    # --- guide ----------------------------------------------------------------------------------
    Example("osascript", f"{G_NOTIFY} (macOS; also 'Set up your first hook')",
            "guide/notification-osascript.json", "Notification", layer="user", note=STUB_TOOLS,
            stubs=(Stub("osascript"),), ran=1, calls={"osascript": [["-e", OSASCRIPT_ARG]]}),
    Example("notify-send", f"{G_NOTIFY} (Linux)", "guide/notification-notify-send.json",
            "Notification", layer="user", note=STUB_TOOLS, stubs=(Stub("notify-send"),), ran=1,
            calls={"notify-send": [["Claude Code", "Claude Code needs your attention"]]}),
    Example("powershell-dialog", f"{G_NOTIFY} (Windows)", "guide/notification-powershell.json",
            "Notification", layer="user", note=STUB_TOOLS, stubs=(Stub("powershell.exe"),),
            ran=1, calls={"powershell.exe": [["-Command", PS_COMMAND]]}),
    Example("first-hook-both-events", f"{GUIDE} 'Set up your first hook': Notification added as "
            "a sibling of PostToolUse; the prettier hook gets the edited path",
            "guide/prettier-and-notification.json", "PostToolUse", edit("{ws}/src/app.js"),
            layer="user", note=STUB_TOOLS, stubs=(Stub("npx"), Stub("osascript")), ran=1,
            calls={"npx": [["prettier", "--write", "{ws}/src/app.js"]], "osascript": []}),
    Example("first-hook-notification", f"{GUIDE} 'Set up your first hook'",
            "guide/prettier-and-notification.json", "Notification", layer="user",
            note=STUB_TOOLS, stubs=(Stub("npx"), Stub("osascript")), ran=1,
            calls={"npx": [], "osascript": [["-e", OSASCRIPT_ARG]]}),
    Example("prettier", f"{G_FORMAT}: jq extracts the edited path and passes it to Prettier",
            "guide/prettier-post-tool-use.json", "PostToolUse", write("{ws}/src/app.js"),
            note=STUB_TOOLS, stubs=(Stub("npx"),), ran=1,
            calls={"npx": [["prettier", "--write", "{ws}/src/app.js"]]}),
    Example("prettier-not-for-bash", f"{G_FORMAT}: 'it runs only after file-editing tools'",
            "guide/prettier-post-tool-use.json", "PostToolUse", bash("ls"), note=STUB_TOOLS,
            stubs=(Stub("npx"),), ran=0, calls={"npx": []}),
    Example("protect-env", f"{G_PROTECT}: editing .env is blocked and 'passes the script's "
            "Blocked: message to Claude'", "guide/protect-files.json", "PreToolUse",
            edit("{ws}/.env"),
            scripts=(("guide/protect-files.sh", "{ws}/.claude/hooks/protect-files.sh"),),
            expect={"blocked": True,
                    "reason": "Blocked: {ws}/.env matches protected pattern '.env'"}),
    Example("protect-windows-path", f"{G_PROTECT}: Windows backslash separators are normalized "
            "so the patterns match", "guide/protect-files.json", "PreToolUse",
            edit("C:\\project\\.git\\config"),
            scripts=(("guide/protect-files.sh", "{ws}/.claude/hooks/protect-files.sh"),),
            expect={"blocked": True,
                    "reason": "Blocked: C:/project/.git/config matches protected pattern '.git/'"}),
    Example("protect-allows-source", f"{G_PROTECT}: other files pass", "guide/protect-files.json",
            "PreToolUse", edit("{ws}/src/app.ts"),
            scripts=(("guide/protect-files.sh", "{ws}/.claude/hooks/protect-files.sh"),), ran=1,
            expect={"blocked": False}),
    Example("compact-reminder", f"{GUIDE} 'Re-inject context after compaction': plain stdout is "
            "added to Claude's context", "guide/session-start-compact.json", "SessionStart",
            {**documented_input("SessionStart"), "source": "compact"}, ran=1,
            expect={"context": "Reminder: use Bun, not npm. Run bun test before committing. "
                               "Current sprint: auth refactor."}),
    Example("compact-only", f"{GUIDE} 'Re-inject context after compaction': the compact matcher",
            "guide/session-start-compact.json", "SessionStart", ran=0),
    Example("config-audit-log", f"{GUIDE} 'Audit configuration changes': 'the hook appends one "
            "JSON line per change with the timestamp, source, and file path'",
            "guide/config-change-audit-log.json", "ConfigChange",
            {**documented_input("ConfigChange"), "file_path": "{ws}/s.json"}, layer="user",
            ran=1, check=_audit_line),
    Example("direnv-session-start", f"{GUIDE} 'Reload environment when directory or files "
            "change': SessionStart writes direnv's exports to CLAUDE_ENV_FILE",
            "guide/direnv-session-start-cwd-changed.json", "SessionStart", layer="user",
            note=STUB_TOOLS, stubs=(Stub("direnv", stdout="export FOO=bar;\n"),),
            calls={"direnv": [["export", "bash"]]}, check=_env_file("export FOO=bar;")),
    Example("direnv-cwd-changed", f"{GUIDE} 'Reload environment when directory or files "
            "change': CwdChanged reloads them", "guide/direnv-session-start-cwd-changed.json",
            "CwdChanged", layer="user", note=STUB_TOOLS,
            stubs=(Stub("direnv", stdout="export FOO=baz;\n"),),
            calls={"direnv": [["export", "bash"]]}, check=_env_file("export FOO=baz;")),
    Example("direnv-file-changed", f"{GUIDE} 'Reload environment when directory or files "
            "change': FileChanged on .envrc", "guide/direnv-file-changed.json", "FileChanged",
            {"file_path": "{ws}/.envrc", "event": "change"}, layer="user", note=STUB_TOOLS,
            stubs=(Stub("direnv", stdout="export FOO=qux;\n"),),
            calls={"direnv": [["export", "bash"]]}, check=_env_file("export FOO=qux;")),
    Example("direnv-file-changed-other", f"{GUIDE} 'Reload environment when directory or files "
            "change': only the listed files", "guide/direnv-file-changed.json", "FileChanged",
            {"file_path": "{ws}/README.md", "event": "change"}, layer="user", note=STUB_TOOLS,
            stubs=(Stub("direnv"),), ran=0, calls={"direnv": []}),
    Example("exit-plan-mode", f"{GUIDE} 'Auto-approve specific permission prompts': "
            "ExitPlanMode is approved", "guide/permission-request-exit-plan-mode.json",
            "PermissionRequest", {"tool_name": "ExitPlanMode", "tool_input": {}}, layer="user",
            ran=1, expect={"decision": "allow", "blocked": False},
            native={"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                                           "decision": {"behavior": "allow"}}}),
    Example("exit-plan-mode-only", f"{GUIDE} 'Auto-approve specific permission prompts': 'no "
            "other prompts are affected'", "guide/permission-request-exit-plan-mode.json",
            "PermissionRequest", layer="user", ran=0, expect={"decision": None}),
    Example("combine-log-and-block", f"{GUIDE} 'Combine results from multiple hooks': 'The deny "
            "takes precedence ... The log entry is still written'",
            "guide/combine-log-and-block.json", "PreToolUse", bash("rm -rf /tmp/build"),
            note="block-rm-rf.sh is not shown: written from its description",
            files=(("{ws}/.claude/hooks/block-rm-rf.sh", BLOCK_RM_RF), ("{home}/.claude/.keep", "")),
            ran=2, expect={"blocked": True, "reason": "Blocked: rm -rf is not allowed"},
            outputs={"{home}/.claude/bash.log": "rm -rf /tmp/build\n"}),
    Example("block-drop-table", f"{GUIDE} 'Hook output' (example script): exit 2 with stderr "
            "feedback", {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "{ws}/.claude/hooks/drop-table.sh"}]}]}},
            "PreToolUse", bash("psql -c 'drop table users'"),
            scripts=(("guide/block-drop-table.sh", "{ws}/.claude/hooks/drop-table.sh"),),
            expect={"blocked": True, "reason": "Blocked: dropping tables is not allowed"}),
    Example("block-drop-table-allows", f"{GUIDE} 'Hook output': 'exit 0 = no decision'",
            {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "{ws}/.claude/hooks/drop-table.sh"}]}]}},
            "PreToolUse", bash("psql -c 'select 1'"),
            scripts=(("guide/block-drop-table.sh", "{ws}/.claude/hooks/drop-table.sh"),), ran=1,
            expect={"blocked": False, "decision": None}),
    Example("matcher-prettier", f"{GUIDE} 'Filter hooks with matchers': 'fires only when Claude "
            "uses the Edit or Write tool'", "guide/prettier-matcher.json", "PostToolUse",
            write("{ws}/a.js"), note=STUB_TOOLS, stubs=(Stub("prettier"),), ran=1,
            calls={"prettier": [["--write", "..."]]}),
    Example("matcher-prettier-not-read", f"{GUIDE} 'Filter hooks with matchers': 'not when it "
            "uses Bash, Read, or any other tool'", "guide/prettier-matcher.json", "PostToolUse",
            {"tool_name": "Read", "tool_input": {"file_path": "/a"}}, note=STUB_TOOLS,
            stubs=(Stub("prettier"),), ran=0, calls={"prettier": []}),
    Example("log-bash-commands", f"{GUIDE} 'Log every Bash command'",
            "guide/log-bash-commands.json", "PostToolUse", bash("npm test"), layer="user",
            ran=1, outputs={"{home}/.claude/command-log.txt": "npm test\n"}),
    Example("mcp-github", f"{GUIDE} 'Match MCP tools': the tool name goes to stderr (debug log)",
            "guide/mcp-github-log.json", "PreToolUse",
            {"tool_name": "mcp__github__search_repositories", "tool_input": {}}, ran=1,
            expect={"blocked": False, "decision": None, "systemMessage": None},
            check=lambda ctx: _no_errors(ctx)),
    Example("mcp-github-other-server", f"{GUIDE} 'Match MCP tools': mcp__github__.* only",
            "guide/mcp-github-log.json", "PreToolUse",
            {"tool_name": "mcp__filesystem__read_file", "tool_input": {}}, ran=0),
    Example("session-end-clear", f"{GUIDE} 'Clean up on session end': 'This hook only fires on "
            "the clear reason'", "guide/session-end-cleanup.json", "SessionEnd",
            {**documented_input("SessionEnd"), "reason": "clear"},
            note="the shared /tmp is replaced by the test's own folder",
            replace=(("/tmp/claude-scratch-", "{tmp}/claude-scratch-"),),
            files=(("{tmp}/claude-scratch-1.txt", "x"),), ran=1,
            outputs={"{tmp}/claude-scratch-1.txt": None}),
    Example("session-end-other", f"{GUIDE} 'Clean up on session end': 'not on normal exits'",
            "guide/session-end-cleanup.json", "SessionEnd",
            note="the shared /tmp is replaced by the test's own folder",
            replace=(("/tmp/claude-scratch-", "{tmp}/claude-scratch-"),),
            files=(("{tmp}/claude-scratch-1.txt", "x"),), ran=0,
            outputs={"{tmp}/claude-scratch-1.txt": "x"}),
    Example("if-git-policy", f"{GUIDE} 'Filter by tool name and arguments with the if field': "
            "the hook runs for git commands", "guide/if-git-policy.json", "PreToolUse",
            bash("git push"), note="check-git-policy.sh is not shown: a stand-in records stdin",
            files=(recorder_script("check-git-policy.sh"),), ran=1),
    Example("if-git-policy-npm", f"{GUIDE} 'Filter by tool name and arguments with the if "
            "field': 'rather than all Bash commands'", "guide/if-git-policy.json", "PreToolUse",
            bash("npm test"), files=(recorder_script("check-git-policy.sh"),), ran=0),
    Example("guide-prompt-stop", f"{GUIDE} 'Prompt-based hooks' (example)",
            "guide/prompt-stop.json", "Stop",
            client=lambda p: {"ok": False, "reason": "update the changelog"}, ran=1,
            expect={"blocked": True, "reason": "update the changelog"},
            check=_prompt_asked("Check if all tasks are complete.")),
    Example("guide-http", f"{GUIDE} 'HTTP hooks' (example): every tool use is posted",
            "guide/http-post-tool-use.json", "PostToolUse",
            note="the URL points at a local endpoint; MY_TOKEN is in the fire's env",
            replace=(("http://localhost:8080", "{url}"),), env={"MY_TOKEN": "t0ken"},
            http=Reply(200), ran=1, expect={"blocked": False},
            check=_http_seen("/hooks/tool-use", "Bearer t0ken")),
    Example("stop-hook-active", f"{GUIDE} 'Stop hook hits the block cap': with stop_hook_active "
            "true the hook exits 0 ('Allow Claude to stop')",
            {"hooks": {"Stop": [{"hooks": [
                {"type": "command", "command": "{ws}/.claude/hooks/stop.sh"}]}]}},
            "Stop", scripts=(("guide/stop-hook-active.sh", "{ws}/.claude/hooks/stop.sh"),),
            ran=1, expect={"blocked": False}, check=lambda ctx: _no_errors(ctx)),
]  # fmt: skip


def _no_errors(ctx: Ctx) -> None:
    assert [h["error"] for h in ctx.result["hooks"]] == [None] * len(ctx.result["hooks"])


def _stdin_tool(ctx: Ctx, name: str, tool: str) -> None:
    data = json.loads((ctx.claude.tmp / f"{name}.stdin").read_text())
    assert data["tool_name"] == tool


def _stdin_field(ctx: Ctx, name: str, key: str, value: str) -> None:
    data = json.loads((ctx.claude.tmp / f"{name}.stdin").read_text())
    assert data[key] == value


def _env_diff(ctx: Ctx) -> None:
    text = Path(ctx.result["envFile"]).read_text()
    assert f'declare -x NVM_BIN="{ctx.claude.home}/.nvm/versions/node/v20/bin"' in text


def _settings(claude: Claude, case: Example, url: str) -> None:
    names = {**claude.names, "url": url}
    if isinstance(case.settings, dict):
        claude.write_settings(fill(case.settings, names), case.layer)
    elif case.wrap is not None:
        handler = example_json(case.settings or "")
        group = (
            {"hooks": [handler]} if not case.wrap else {"matcher": case.wrap, "hooks": [handler]}
        )
        claude.write_settings({"hooks": {case.event: [group]}}, case.layer)
    elif case.settings is not None:
        replace = [(old, new.replace("{url}", url)) for old, new in case.replace]
        claude.install_example_settings(case.settings, case.layer, replace)


@pytest.mark.parametrize("case", params(EXAMPLES))
async def test_documented_example(claude: Claude, case: Example) -> None:
    roots = [fill(r, claude.names) for r in case.roots]
    os.makedirs(roots[0], exist_ok=True)
    claude.ws = Path(roots[0])
    for stub in case.stubs:
        claude.stub(stub)
    for name, dest in case.scripts:
        claude.install_script(name, dest)
    for dest, text in case.files:
        claude.file(dest, fill(text, claude.names), executable=dest.endswith(".sh"))
    payload = documented_input(case.event) if case.payload is None else case.payload
    env = fill(case.env, claude.names)
    asked: list[dict[str, Any]] = []
    endpoint: HttpEndpoint | None = None
    async with trio.open_nursery() as nursery:
        if case.http is not None:
            endpoint = await HttpEndpoint().start(nursery)
            endpoint.replies = _AnyTarget(case.http)  # type: ignore[assignment]
        _settings(claude, case, endpoint.base if endpoint else "")
        if case.client is not None:
            run = await fire_as_client(claude, case.event, payload, case.client)
            result, asked = run.result, run.asked
        else:
            result = await claude.fire(case.event, payload, roots=roots, env=env)
        ctx = Ctx(claude, result, asked, endpoint)
        if case.check is not None:
            outcome = case.check(ctx)
            if inspect.isawaitable(outcome):
                await outcome
        nursery.cancel_scope.cancel()

    if case.ran is not None:
        assert len(result["hooks"]) == case.ran, result["hooks"]
    for key, value in case.expect.items():
        assert result[key] == fill(value, claude.names), key
    if case.native is not None:
        assert result["native"] == fill(case.native, claude.names)
    for stub, calls in case.calls.items():
        assert ctx.calls(stub) == fill(calls, claude.names), stub
    for path, content in case.outputs.items():
        target = ctx.path(path)
        if content is None:
            assert not target.exists(), path
        else:
            assert target.read_text() == content, path


class _AnyTarget(dict[str, Reply]):
    """Every request target gets the same reply."""

    def __init__(self, reply: Reply) -> None:
        super().__init__()
        self.reply = reply

    def get(self, key: str, default: Any = None) -> Reply:  # type: ignore[override]
        return self.reply
