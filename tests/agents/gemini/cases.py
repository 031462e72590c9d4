"""The Gemini CLI cases, as a table a person can read: each names the event, the hooks
(what each answers, in which file), what the scripted model does, what Gemini CLI 0.61.0
did with the hooks' answers (``Does``, observed on the real agent and written down), and
what it pins (``gemini-research.md`` holds the reading of the agent's code behind them).

Every case runs twice: by the real agent (``gemini -p ... --yolo --output-format json``)
and by hookd on the same files with the payload the agent gave its hooks;
``test_gemini_agent.py`` holds the agent to ``Does`` and hookd's result to what the agent
did. Texts may name ``{home}`` (the case's HOME), ``{ws}`` (the project), ``{hooks}`` (the
hooks' scripts) and ``{system}`` (what the agent sees as ``/``, for ``/etc/gemini-cli``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Hook:
    name: str
    exit: int = 0
    stdout: str = ""
    stderr: str = ""
    sleep: float = 0
    """Seconds before it answers (to overlap with others or pass a ``timeout``)."""
    fields: dict[str, Any] = field(default_factory=dict)
    """More handler keys (``timeout`` in ms, ``name``, ``env``, ``type``)."""
    group: dict[str, Any] = field(default_factory=dict)
    """More keys of its group (``sequential``)."""
    matcher: str | None = None
    """Its group's matcher, else the case's; ``NO_MATCHER``: none."""
    layers: tuple[str, ...] = ("user",)
    """Where it is declared: ``user`` (``~/.gemini/settings.json``), ``project``
    (``<ws>/.gemini/settings.json``), ``system`` and ``system-defaults``
    (``/etc/gemini-cli/``), ``ext:<name>`` (an extension's ``hooks/hooks.json``, installed
    with ``gemini extensions install``)."""
    event: str | None = None
    """Another event than the case's."""
    command: str = "{script}"
    """The handler's command (run by ``bash -c``); ``{script}`` is the hook's script."""
    every_run: bool = False
    """It answers on every run (by default only its first run answers)."""
    child: str = ""
    """A command it leaves running in the background before it answers."""


NO_MATCHER = "\0none"
"""A hook whose group has no ``matcher`` key, whatever the case's matcher."""


@dataclass(frozen=True)
class Does:
    """What Gemini CLI 0.61.0 did (observed, then written down: the agent is held to it)."""

    ran: bool = True
    """The scripted tool call ran as asked (its command created ``ran``)."""
    rewritten: bool = False
    """The command a hook rewrote ran instead (it creates ``rewritten``)."""
    requests: int = 2
    """How many model requests the run made."""
    response: str | None = None
    """The JSON answer's ``response`` (None: not checked)."""
    warnings: tuple[str, ...] = ()
    """The JSON answer's ``warnings``."""
    output: Any = None
    """The first tool result the model was sent (functionResponse ``response``; None: not
    checked)."""
    prompt: tuple[str, ...] | None = None
    """The text parts of the first request's last user turn after Gemini's session context."""
    later: tuple[str, ...] | None = None
    """The text parts of the last request's last user turn."""
    path: str | None = None
    """The last request's path (a hook chose the model)."""
    tool_config: dict[str, Any] | None = None
    """The first request's ``toolConfig``."""
    stderr: tuple[str, ...] = ()
    """Texts Gemini wrote to stderr."""
    not_stderr: tuple[str, ...] = ()
    """Texts it did not write there."""
    counts: dict[str, int] = field(default_factory=dict)
    """How often hooks ran (a hook not named: once)."""
    killed: tuple[str, ...] = ()
    """Hooks that never finished (killed at their timeout)."""
    left_running: tuple[str, ...] = ()
    """What the hooks left running after the run (``<hook>.child.<n>``)."""
    exit: int = 0


@dataclass(frozen=True)
class Case:
    id: str
    about: str
    hooks: tuple[Hook, ...]
    does: Does
    event: str = "BeforeTool"
    matcher: str | None = "run_shell_command"
    tool_command: str = "touch {ws}/ran"
    """The command of the scripted ``run_shell_command`` call."""
    turns: tuple[dict[str, Any], ...] | None = None
    """The scripted model turns when not one ``run_shell_command`` of ``tool_command`` then
    a text (``{"call": ...}``, ``{"calls": [...]}``, ``{"text": ...}``, ``{"texts": [...]}``)."""
    prompt: str = "case: do the task"
    cwd: str = "{ws}"
    env: dict[str, str] = field(default_factory=dict)
    """More of the agent's environment (hookd's fire gets it too)."""
    settings: dict[str, dict[str, Any]] = field(default_factory=dict)
    """More top-level keys of a layer's settings (``{"user": {"hooksConfig": ...}}``)."""
    files: dict[str, str] = field(default_factory=dict)
    gemini_home: str | None = None
    """``GEMINI_CLI_HOME`` (placeholders filled in)."""
    gemini_commands: tuple[tuple[str, ...], ...] = ()
    """``gemini`` commands run before the case, after its extensions are installed
    (``("extensions", "disable", "guard", "--scope", "workspace")``)."""
    timeout: float = 60
    """The agent run's deadline (seconds): a run past it is killed."""
    format: str = "json"
    quiet: bool = False
    """No other event of the run has a hook that prints: hookd saying no ``systemMessage``
    means Gemini showed none."""
    differs: str = ""
    """hookd answers otherwise by design (docs/compatibility.md, Gemini CLI, "Deliberate
    differences"): why; the hooks hookd runs that Gemini does not (``hookd_also``) or not
    those it runs (``hookd_not``), or that it blocks (``hookd_blocks``)."""
    hookd_also: tuple[str, ...] = ()
    hookd_not: tuple[str, ...] = ()
    hookd_blocks: bool = False
    xfail: str | None = None


def out(obj: Any) -> str:
    return json.dumps(obj)


def specific(**fields: Any) -> str:
    """A ``hookSpecificOutput`` answer."""
    return out({"hookSpecificOutput": fields})


def blocked(reason: str) -> dict[str, str]:
    """What the model is sent instead of the result of a tool a BeforeTool hook blocked."""
    return {"error": f"Tool execution blocked: {reason}"}


W = Hook("w")
"""A witness: a silent hook on the case's event that always runs, so hookd gets the
agent's payload even when the hook under test does not run."""
REWRITE = {"command": "touch {ws}/rewritten"}
FILE_TOOL = {"call": {"name": "read_file", "args": {"file_path": "{ws}/nosuch.txt"}}}
MODIFIED = "\n\n[System] Tool input parameters were modified by a hook before execution."
SEQUENTIAL = {"sequential": True}
ONE_TEXT = ({"text": "the answer"},)
TWO_CHUNKS = ({"texts": ["part one ", "part two"]},)

# fmt: off
BEFORE_TOOL = [
    Case("bt-silent", "a hook that prints nothing and exits 0 lets the tool run",
         (Hook("a"),), Does(), quiet=True),
    Case("bt-deny", 'decision "deny": the tool does not run; the model is sent "Tool execution '
         'blocked: <reason>" and the turn goes on',
         (Hook("a", stdout=out({"decision": "deny", "reason": "not this"})),),
         Does(ran=False, output=blocked("not this"))),
    Case("bt-block", '"block" is a synonym of "deny"',
         (Hook("a", stdout=out({"decision": "block", "reason": "blocked it"})),),
         Does(ran=False, output=blocked("blocked it"))),
    Case("bt-deny-no-reason", 'a deny without a reason: "No reason provided"',
         (Hook("a", stdout=out({"decision": "deny"})),),
         Does(ran=False, output=blocked("No reason provided"))),
    Case("bt-exit2-stderr", "exit 2 with text on stderr (stdout empty) denies with it",
         (Hook("a", exit=2, stderr="stderr says no"),),
         Does(ran=False, output=blocked("stderr says no"))),
    Case("bt-exit2-stdout", "exit 2: the reason is stdout's text when there is any, not stderr's",
         (Hook("a", exit=2, stdout="OUT TEXT", stderr="ERR TEXT"),),
         Does(ran=False, output=blocked("OUT TEXT"))),
    Case("bt-exit3-text", "any exit code but 0 and 1 denies with its text (3 here)",
         (Hook("a", exit=3, stdout="three"),), Does(ran=False, output=blocked("three"))),
    Case("bt-exit2-empty", "exit 2 with nothing printed does not deny",
         (Hook("a", exit=2),), Does(), quiet=True),
    Case("bt-exit2-json-allow", "JSON counts on any exit code: exit 2 with an allow lets it run",
         (Hook("a", exit=2, stdout=out({"decision": "allow"})),), Does(), quiet=True),
    Case("bt-exit1-json-deny", "exit 1 with a deny denies",
         (Hook("a", exit=1, stdout=out({"decision": "deny", "reason": "one"})),),
         Does(ran=False, output=blocked("one"))),
    Case("bt-stderr-json", "stdout empty: stderr's JSON is the answer, even on exit 0",
         (Hook("a", stderr=out({"decision": "deny", "reason": "from stderr"})),),
         Does(ran=False, output=blocked("from stderr"))),
    Case("bt-exit0-text", "plain text on exit 0 is a message to the user; the tool runs",
         (Hook("a", stdout="just saying"),),
         Does(stderr=("Hook system message: just saying",))),
    Case("bt-exit1-text", 'plain text on exit 1: "Warning: <text>"; the hook failed, the tool runs',
         (Hook("a", exit=1, stdout="careful"),),
         Does(stderr=("Hook system message: Warning: careful",))),
    Case("bt-missing-command", "a command bash cannot find (exit 127) denies with bash's words",
         (W, Hook("gone", command="nosuchcmd_hookd_test")),
         Does(ran=False, output=blocked("bash: line 1: nosuchcmd_hookd_test: command not found"),
              counts={"gone": 0})),
    Case("bt-double-json", "a JSON string holding JSON is read twice",
         (Hook("a", stdout=json.dumps(out({"decision": "deny", "reason": "twice"}))),),
         Does(ran=False, output=blocked("twice"))),
    Case("bt-json-array", "a JSON array is an answer with no fields: the tool runs",
         (Hook("a", stdout="[1, 2]"),), Does(), quiet=True),
    Case("bt-json-true", "a JSON primitive is no answer",
         (Hook("a", stdout="true"),), Does(), quiet=True),
    Case("bt-mixed", "text then JSON is not JSON: a message on exit 0",
         (Hook("a", stdout='note\n{"decision": "deny"}'),),
         Does(stderr=('Hook system message: note\n{"decision": "deny"}',))),
    Case("bt-approve", 'any decision but "deny", "block" and "ask" lets the tool run ("approve")',
         (Hook("a", stdout=out({"decision": "approve", "reason": "fine"})),), Does(), quiet=True),
    Case("bt-decision-case", 'decisions are case-sensitive: "DENY" lets the tool run',
         (Hook("a", stdout=out({"decision": "DENY", "reason": "loud"})),), Does(), quiet=True),
    Case("bt-continue-false", "continue: false: the tool does not run and the run ends",
         (Hook("a", stdout=out({"continue": False, "stopReason": "halt"})),),
         Does(ran=False, requests=1, stderr=("Agent execution stopped by hook: halt",))),
    Case("bt-continue-beats-deny", "continue: false wins over a deny",
         (Hook("a", stdout=out({"continue": False, "stopReason": "S", "decision": "deny",
                                "reason": "R"})),),
         Does(ran=False, requests=1, stderr=("Agent execution stopped by hook: S",))),
    Case("bt-deny-stopreason", "a deny's reason is its reason, not its stopReason (no stop)",
         (Hook("a", stdout=out({"decision": "deny", "reason": "R1", "stopReason": "S1"})),),
         Does(ran=False, output=blocked("R1"))),
    Case("bt-rewrite", "hookSpecificOutput.tool_input replaces the arguments whole; the model is "
         "told its input was modified",
         (Hook("a", stdout=specific(tool_input=REWRITE)),),
         Does(ran=False, rewritten=True)),
    Case("bt-rewrite-partial", "a rewrite is not merged: without the required field the tool "
         "fails validation",
         (Hook("a", stdout=specific(tool_input={"description": "only this"})),),
         Does(ran=False, output={"error": "Tool parameter modification by hook failed "
                                 "validation: params must have required property 'command'"})),
    Case("bt-rewrite-array", "a tool_input that is no object is ignored",
         (Hook("a", stdout=specific(tool_input=["touch", "x"])),), Does(), quiet=True),
    Case("bt-rewrite-deny", "a deny wins over a rewrite in the same answer",
         (Hook("a", stdout=out({"decision": "deny", "reason": "no",
                                "hookSpecificOutput": {"tool_input": REWRITE}})),),
         Does(ran=False, output=blocked("no"))),
    Case("bt-rewrite-other-event-name", "hookEventName is not checked: a rewrite named AfterTool "
         "still applies",
         (Hook("a", stdout=specific(hookEventName="AfterTool", tool_input=REWRITE)),),
         Does(ran=False, rewritten=True)),
    Case("bt-context-ignored", "additionalContext does nothing on BeforeTool",
         (Hook("a", stdout=specific(additionalContext="ignored")),),
         Does(), quiet=True),
    Case("bt-message", "systemMessage is shown (stderr) and the tool runs",
         (Hook("a", stdout=out({"systemMessage": "hello user"})),),
         Does(stderr=("Hook system message: hello user",))),
    Case("bt-suppress-output", "suppressOutput hides the systemMessage",
         (Hook("a", stdout=out({"systemMessage": "hidden", "suppressOutput": True})),),
         Does(not_stderr=("Hook system message",))),
    Case("bt-ask", 'decision "ask" asks for confirmation even in YOLO mode; headless, the process '
         "ends with nothing printed and the tool does not run",
         (Hook("a", stdout=out({"decision": "ask", "reason": "sure?"})),),
         Does(ran=False, requests=1)),
]

MATCHERS = [
    Case(f"match-{name}", about, (W, Hook("m", matcher=matcher)),
         Does(counts={"m": 1 if runs else 0}), matcher=NO_MATCHER, quiet=True)
    for name, matcher, runs, about in [
        ("part", "run_shell", True, "a tool matcher is an unanchored regular expression"),
        ("anchored", "^shell", False, "...searched in the name: ^shell does not match"),
        ("end", "shell_command$", True, "an anchor at the end matches"),
        ("star", "*", True, "* alone matches every tool"),
        ("empty", "", True, "an empty matcher matches every tool"),
        ("trimmed", " run_shell_command ", True, "the matcher is trimmed first"),
        ("alternation", "read_file|run_shell_command", True, "alternatives"),
        ("claude-name", "Bash", False, "Claude Code's tool names match nothing"),
        ("case", "RUN_SHELL_COMMAND", False, "matching is case-sensitive"),
        ("invalid", "run_shell_command|[", False, "a matcher that does not compile is compared "
         "whole with the name"),
        ("slashes", "/run_shell/", False, "slashes are literal: no /regex/ form"),
    ]
]

SOURCES = [
    Case("src-project", "the project's .gemini/settings.json runs after the user's",
         (Hook("u", group=SEQUENTIAL), Hook("p", layers=("project",))),
         Does(), quiet=True),
    Case("src-order", "every layer adds up, none overrides: system defaults, user, project, "
         "system, then extensions (run in order to see it)",
         (Hook("e", layers=("ext:guard",)), Hook("s", layers=("system",)),
          Hook("p", layers=("project",)), Hook("u", group=SEQUENTIAL),
          Hook("d", layers=("system-defaults",))),
         Does(), quiet=True),
    Case("src-extension", "an installed extension's hooks/hooks.json runs, ${extensionPath} "
         "naming its folder",
         (Hook("e", layers=("ext:guard",)),), Does(), quiet=True),
    Case("src-extension-disabled", "an extension switched off for the folder ("
         "gemini extensions disable --scope workspace) runs no hook",
         (W, Hook("e", layers=("ext:guard",))), Does(counts={"e": 0}),
         gemini_commands=(("extensions", "disable", "guard", "--scope", "workspace"),),
         quiet=True),
    Case("src-extension-user-scope", "switched off for the user (gemini extensions disable), an "
         "extension still runs in a folder outside the home: the user scope is the home's "
         "subtree",
         (W, Hook("e", layers=("ext:guard",))), Does(),
         gemini_commands=(("extensions", "disable", "guard"),), quiet=True),
    Case("src-dedup", "the same command (no name) in the user's and the project's file runs once",
         (Hook("a", layers=("user", "project")),), Does(), quiet=True),
    Case("src-dedup-names", "the same command under two names runs twice",
         (Hook("a", fields={"name": "one"}), Hook("a", fields={"name": "two"}, layers=("project",))),
         Does(counts={"a": 2}), quiet=True),
    Case("src-disabled", "hooksConfig.disabled switches hooks off by name or by command",
         (W, Hook("byname", fields={"name": "off-by-name"}), Hook("bycommand")),
         Does(counts={"byname": 0, "bycommand": 0}), quiet=True,
         settings={"user": {"hooksConfig": {"disabled": ["off-by-name"]}},
                   "project": {"hooksConfig": {"disabled": ["{hooks}/bycommand.sh"]}}}),
    Case("src-hooks-disabled-ignored", 'the documented "hooks": {"disabled": [...]} is ignored',
         (Hook("a", fields={"name": "still-on"}),), Does(), quiet=True,
         settings={"user": {"hooks": {"disabled": ["still-on"]}}}),
    Case("src-invalid-rows", "rows Gemini cannot use are skipped one by one, with a warning; the "
         "rest of the file runs",
         (Hook("a"),), Does(stderr=('Invalid hook event name: "PreToolUse" from project config. '
                                    "Skipping.",)),
         settings={"user": {"hooks": {"PreToolUse": [{"hooks": [{"type": "command",
                                                                 "command": "true"}]}],
                                      "Notification": [{"matcher": "x"}]}}}, quiet=True),
    Case("src-plugin-type", 'a "plugin" handler with a command runs as a command',
         (Hook("a", fields={"type": "plugin"}),), Does(), quiet=True),
    Case("src-subfolder", "only the launch folder's .gemini/settings.json is read, not a "
         "parent's",
         (W, Hook("p", layers=("project",))), Does(counts={"p": 0}), cwd="{ws}/sub", quiet=True),
    Case("src-cli-home", "GEMINI_CLI_HOME moves ~/.gemini: its settings are the user's",
         (Hook("a"),), Does(), gemini_home="{tmp}/alt", quiet=True),
    Case("src-settings-env", "settings strings take the agent's variables at load: $VAR, "
         "${VAR:-default}, even inside single quotes; the hook's env comes too late",
         (Hook("a", command="{script} \"$CASE_FOO\" ${CASE_BAR:-dflt} '$CASE_FOO' $CASE_UNSET",
               fields={"env": {"CASE_FOO": "hookval"}}),),
         Does(), env={"CASE_FOO": "clival"}, quiet=True),
    Case("src-run-variables", "$GEMINI_PROJECT_DIR, $GEMINI_CWD, $CLAUDE_PROJECT_DIR and "
         "$GEMINI_SESSION_ID are put into the command, quoted, at each run",
         (Hook("a", command='{script} $GEMINI_PROJECT_DIR "$GEMINI_CWD" ${CLAUDE_PROJECT_DIR} '
               "$GEMINI_SESSION_ID $GEMINI_PROJECT_DIRX"),),
         Does(), cwd="{ws}/my proj", quiet=True),
    Case("src-hook-env", "a handler's env comes last: it overrides GEMINI_PROJECT_DIR",
         (Hook("a", fields={"env": {"GEMINI_PROJECT_DIR": "/override", "CASE_X": "x"}}),),
         Does(), quiet=True),
    Case("src-parallel", "matched hooks start together",
         (Hook("a", sleep=1), Hook("b", sleep=1), Hook("c", sleep=1)), Does(), quiet=True),
    Case("src-sequential", "one group marked sequential makes every matched hook run in order",
         (Hook("a", sleep=0.5, group=SEQUENTIAL), Hook("b", sleep=0.5), Hook("c", sleep=0.5)),
         Does(), quiet=True),
    Case("src-sequential-chain", "in order, a rewrite is merged into the next hook's input; the "
         "last hook's rewrite alone is used",
         (Hook("a", stdout=specific(tool_input={"description": "from a"}), group=SEQUENTIAL),
          Hook("b", stdout=specific(tool_input=REWRITE))),
         Does(ran=False, rewritten=True)),
    Case("src-parallel-rewrites", "two rewrites: the later configured hook's wins, even when it "
         "finishes first",
         (Hook("a", sleep=0.5, stdout=specific(tool_input={"command": "touch {ws}/ran"})),
          Hook("b", stdout=specific(tool_input=REWRITE))),
         Does(ran=False, rewritten=True)),
    Case("src-two-denies", "every hook's reason is joined, an allowing hook's too",
         (Hook("a", stdout=out({"decision": "deny", "reason": "RA"})),
          Hook("b", stdout=out({"decision": "allow", "reason": "RB-allow"})),
          Hook("c", stdout=out({"decision": "deny", "reason": "RC"}))),
         Does(ran=False, output=blocked("RA\nRB-allow\nRC"))),
    Case("src-ask-and-deny", "a deny wins over an ask",
         (Hook("a", stdout=out({"decision": "ask"})),
          Hook("b", stdout=out({"decision": "deny", "reason": "no"}))),
         Does(ran=False, output=blocked("no"))),
    Case("src-messages", "every hook's systemMessage, joined",
         (Hook("a", stdout=out({"systemMessage": "first"})),
          Hook("b", stdout=out({"systemMessage": "second"}))),
         Does(stderr=("Hook system message: first\nsecond",))),
    Case("src-timeout", "timeouts are milliseconds; a hook past its timeout fails open",
         (Hook("slow", sleep=3, stdout=out({"decision": "deny"}), fields={"timeout": 500}),),
         Does(killed=("slow",), stderr=("Hook timed out after 500ms",))),
    Case("src-timeout-leaves-children", "at a timeout Gemini sends SIGTERM to bash alone: the "
         "hook's child runs on (hookd kills the hook's process group: a deliberate difference)",
         (Hook("slow", sleep=3, child="sleep 60", fields={"timeout": 500}),),
         Does(killed=("slow",), left_running=("slow.child.0",),
              stderr=("Hook timed out after 500ms",))),
    Case("src-timeout-string", 'a timeout given as a string ("500") counts as its number',
         (Hook("slow", sleep=3, stdout=out({"decision": "deny"}), fields={"timeout": "500"}),),
         Does(killed=("slow",), stderr=("Hook timed out after 500ms",))),
    Case("src-unicode", "the payload is JSON.stringify's: raw UTF-8, U+2028 raw, controls "
         "escaped, no final newline",
         (Hook("a", event="BeforeAgent"),), Does(), event="BeforeAgent", matcher=None,
         prompt="case: caf\u00e9 \u2028 \u00e0 \x01 \U0001f600 </b>", quiet=True),
]

MCP_SERVER = {"mcpServers": {"echo": {"command": "python3", "args": ["{harness}/mcp_echo.py"]}}}
"""The case's MCP server (``tests/agents/harness/mcp_echo.py``): its tool ``echo_it`` is
``mcp_echo_echo_it`` to Gemini."""
MCP_CALL = ({"call": {"name": "mcp_echo_echo_it", "args": {"text": "hi"}}}, {"text": "All done."})

MCP = [
    Case("mcp-before-tool", "an MCP tool is mcp_<server>_<tool>; BeforeTool gets mcp_context",
         (Hook("a"),), Does(ran=False), matcher="mcp_echo_.*", turns=MCP_CALL,
         settings={"user": MCP_SERVER}, quiet=True),
    Case("mcp-deny", "a deny blocks an MCP tool as any other",
         (Hook("a", stdout=out({"decision": "deny", "reason": "no echo"})),),
         Does(ran=False, output=blocked("no echo")), matcher="mcp_echo_echo_it", turns=MCP_CALL,
         settings={"user": MCP_SERVER}),
    Case("mcp-after-tool", "AfterTool gets the MCP result as a list of parts",
         (Hook("a"),), Does(ran=False), event="AfterTool", matcher="mcp_", turns=MCP_CALL,
         settings={"user": MCP_SERVER}, quiet=True),
]

AFTER_TOOL = [
    Case("at-silent", "AfterTool gets the tool's input and result",
         (Hook("a"),), Does(), event="AfterTool", quiet=True),
    Case("at-deny", "a deny replaces the tool's result with {error: reason}; the turn goes on",
         (Hook("a", stdout=out({"decision": "deny", "reason": "hidden result"})),),
         Does(output={"error": "hidden result"}), event="AfterTool"),
    Case("at-exit2", "exit 2 with text replaces the result too",
         (Hook("a", exit=2, stderr="not for the model"),),
         Does(output={"error": "not for the model"}), event="AfterTool"),
    Case("at-context", "additionalContext is added to the result in <hook_context>, < and > "
         "escaped",
         (Hook("a", stdout=specific(additionalContext="CTX <b>&</b>\nline2")),),
         Does(), event="AfterTool"),
    Case("at-context-deny", "a deny drops the context of the same answer",
         (Hook("a", stdout=out({"decision": "deny", "reason": "R",
                                "hookSpecificOutput": {"additionalContext": "C"}})),),
         Does(output={"error": "R"}), event="AfterTool"),
    Case("at-contexts", "several hooks' contexts are joined with a newline",
         (Hook("a", stdout=specific(additionalContext="CA")),
          Hook("b", stdout=specific(additionalContext="CB"))),
         Does(), event="AfterTool"),
    Case("at-continue-false", "continue: false ends the run after the tool ran",
         (Hook("a", stdout=out({"continue": False, "stopReason": "enough"})),),
         Does(requests=1, stderr=("Agent execution stopped by hook: enough",)), event="AfterTool"),
    Case("at-failed-tool", "a tool that failed: its error is in tool_response",
         (Hook("a"),), Does(ran=False), event="AfterTool", matcher="read_file",
         turns=(FILE_TOOL, {"text": "All done."}), quiet=True),
    Case("at-tail-call", "tailToolCallRequest runs another tool after this one; its result "
         "replaces this one's",
         (Hook("a", stdout=specific(tailToolCallRequest={
             "name": "run_shell_command", "args": {"command": "touch {ws}/rewritten"}})),),
         Does(rewritten=True, counts={"a": 2}), event="AfterTool"),
]

BEFORE_AGENT = [
    Case("ba-context", "additionalContext becomes a <hook_context> part after the prompt",
         (Hook("a", stdout=specific(additionalContext="CTX <x>")),),
         Does(requests=1, ran=False, prompt=("case: do the task", "<hook_context>CTX &lt;x&gt;"
                                             "</hook_context>")),
         event="BeforeAgent", matcher=None, turns=ONE_TEXT),
    Case("ba-deny", "a deny: no model call; the warning says the systemMessage, else the reason",
         (Hook("a", stdout=out({"decision": "deny", "reason": "RR", "systemMessage": "SM"})),),
         Does(requests=0, ran=False, response="", warnings=("Agent execution blocked: SM",)),
         event="BeforeAgent", matcher=None),
    Case("ba-exit2", "exit 2 with text blocks the prompt",
         (Hook("a", exit=2, stderr="no prompt"),),
         Does(requests=0, ran=False, response="", warnings=("Agent execution blocked: no prompt",)),
         event="BeforeAgent", matcher=None),
    Case("ba-continue-false", "continue: false: no model call, the run ends",
         (Hook("a", stdout=out({"continue": False, "stopReason": "stop here"})),),
         Does(requests=0, ran=False, response="", warnings=("Agent execution stopped: stop here",)),
         event="BeforeAgent", matcher=None),
    Case("ba-text", "plain text on exit 0 is a message, the prompt goes on",
         (Hook("a", stdout="noted"),), Does(requests=1, ran=False),
         event="BeforeAgent", matcher=None, turns=ONE_TEXT),
    Case("ba-matcher-ignored", "BeforeAgent ignores matchers: every group runs",
         (Hook("a", matcher="zzz"),), Does(requests=1, ran=False),
         event="BeforeAgent", matcher=None, turns=ONE_TEXT, quiet=True),
    Case("ba-contexts-in-order", "in order, the next hook's prompt has the context added; the "
         "model gets both contexts in one tag",
         (Hook("a", stdout=specific(additionalContext="CTX-A"), group=SEQUENTIAL),
          Hook("b", stdout=specific(additionalContext="CTX-B"))),
         Does(requests=1, ran=False, prompt=("case: do the task",
                                             "<hook_context>CTX-A\nCTX-B</hook_context>")),
         event="BeforeAgent", matcher=None, turns=ONE_TEXT),
]

AFTER_AGENT = [
    Case("aa-silent", "AfterAgent gets the prompt and the whole response",
         (Hook("a"),), Does(requests=1, ran=False), event="AfterAgent", matcher=None,
         turns=ONE_TEXT, quiet=True),
    Case("aa-deny-once", "a deny sends the model the reason as a new prompt; AfterAgent runs "
         "again with stop_hook_active",
         (Hook("a", stdout=out({"decision": "deny", "reason": "please redo"})),),
         Does(requests=2, ran=False, later=("please redo",), counts={"a": 2},
              warnings=("Agent execution blocked: please redo",)),
         event="AfterAgent", matcher=None, turns=({"text": "first answer"},
                                                  {"text": "second answer"})),
    Case("aa-continue-false", "continue: false ends the run; the answer stays",
         (Hook("a", stdout=out({"continue": False, "stopReason": "S"})),),
         Does(requests=1, ran=False, response="the answer",
              warnings=("Agent execution stopped: S",)),
         event="AfterAgent", matcher=None, turns=ONE_TEXT),
    Case("aa-stop-beats-deny", "continue: false wins over a deny",
         (Hook("a", stdout=out({"continue": False, "stopReason": "S", "decision": "deny",
                                "reason": "R"})),),
         Does(requests=1, ran=False, warnings=("Agent execution stopped: S",)),
         event="AfterAgent", matcher=None, turns=ONE_TEXT),
]

MODEL = [
    Case("bm-silent", "BeforeModel gets the request (model, messages, config)",
         (Hook("a"),), Does(requests=1, ran=False), event="BeforeModel", matcher=None,
         turns=ONE_TEXT, quiet=True),
    Case("bm-deny", "a deny: no model request, the run ends with a warning",
         (Hook("a", stdout=out({"decision": "deny", "reason": "no model"})),),
         Does(requests=0, ran=False, response="", warnings=("Agent execution blocked: no model",)),
         event="BeforeModel", matcher=None),
    Case("bm-synthetic", "a deny with llm_response answers in the model's place",
         (Hook("a", stdout=out({"decision": "deny", "reason": "mocked", "hookSpecificOutput": {
             "llm_response": {"candidates": [{"content": {"role": "model",
                                                          "parts": ["SYNTHETIC ANSWER"]}}]}}})),),
         Does(requests=0, ran=False, response="SYNTHETIC ANSWER",
              warnings=("Agent execution blocked: mocked",)),
         event="BeforeModel", matcher=None),
    Case("bm-synthetic-alone", "llm_response without a deny is ignored: the model is asked",
         (Hook("a", stdout=specific(llm_response={"candidates": [{"content": {
             "role": "model", "parts": ["IGNORED"]}}]})),),
         Does(requests=1, ran=False, response="the answer"),
         event="BeforeModel", matcher=None, turns=ONE_TEXT, quiet=True),
    Case("bm-model", "llm_request.model sends the request to another model",
         (Hook("a", stdout=specific(llm_request={"model": "gemini-2.5-pro"})),),
         Does(requests=1, ran=False,
              path="/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"),
         event="BeforeModel", matcher=None, turns=ONE_TEXT, quiet=True),
    Case("bm-continue-false", "continue: false: no request, the run ends",
         (Hook("a", stdout=out({"continue": False, "stopReason": "not now"})),),
         Does(requests=0, ran=False, response="", warnings=("Agent execution stopped: not now",)),
         event="BeforeModel", matcher=None),
    Case("bm-later-allow-wins", "model events merge field by field: a later allow replaces an "
         "earlier deny",
         (Hook("a", stdout=out({"decision": "deny", "reason": "first"})),
          Hook("b", stdout=out({"decision": "allow"}))),
         Does(requests=1, ran=False), event="BeforeModel", matcher=None, turns=ONE_TEXT,
         quiet=True),
    Case("am-replace", "AfterModel runs per streamed chunk; llm_response replaces the chunk",
         (Hook("a", every_run=True, stdout=specific(llm_response={"candidates": [{"content": {
             "role": "model", "parts": ["REDACTED"]}}]})),),
         Does(requests=1, ran=False, response="REDACTEDREDACTED", counts={"a": 2}),
         event="AfterModel", matcher=None, turns=TWO_CHUNKS, quiet=True),
    Case("am-deny", "a deny keeps the chunk and drops the rest of the answer",
         (Hook("a", stdout=out({"decision": "deny", "reason": "cut"})),),
         Does(requests=1, ran=False, response="part one ",
              warnings=("Agent execution blocked: cut",)),
         event="AfterModel", matcher=None, turns=TWO_CHUNKS),
    Case("am-continue-false", "continue: false ends the run with no answer",
         (Hook("a", stdout=out({"continue": False, "stopReason": "stop output"})),),
         Does(requests=1, ran=False, response="", warnings=("Agent execution stopped: stop output",)),
         event="AfterModel", matcher=None, turns=ONE_TEXT),
    Case("bts-none", "BeforeToolSelection toolConfig mode NONE goes on the request",
         (Hook("a", stdout=specific(toolConfig={"mode": "NONE"})),),
         Does(requests=1, ran=False, tool_config={"functionCallingConfig": {
             "mode": "NONE", "allowedFunctionNames": []}}),
         event="BeforeToolSelection", matcher=None, turns=ONE_TEXT, quiet=True),
    Case("bts-union", "several hooks: the most restrictive mode, the names' union, sorted",
         (Hook("a", stdout=specific(toolConfig={"mode": "ANY",
                                                "allowedFunctionNames": ["read_file"]})),
          Hook("b", stdout=specific(toolConfig={"mode": "AUTO",
                                                "allowedFunctionNames": ["glob"]}))),
         Does(requests=1, ran=False, tool_config={"functionCallingConfig": {
             "mode": "ANY", "allowedFunctionNames": ["glob", "read_file"]}}),
         event="BeforeToolSelection", matcher=None, turns=ONE_TEXT, quiet=True),
    Case("bts-deny-ignored", "BeforeToolSelection ignores decisions",
         (Hook("a", stdout=out({"decision": "deny", "reason": "x"})),),
         Does(requests=1, ran=False), event="BeforeToolSelection", matcher=None, turns=ONE_TEXT,
         quiet=True),
]

LIFECYCLE = [
    Case("ss-context", "SessionStart's context is put before the prompt in <hook_context>",
         (Hook("a", stdout=specific(additionalContext="START <ctx>")),),
         Does(requests=1, ran=False), event="SessionStart", matcher=None, turns=ONE_TEXT),
    Case("ss-message", "SessionStart's systemMessage is written to stderr",
         (Hook("a", stdout=out({"systemMessage": "Welcome SM"})),),
         Does(requests=1, ran=False, stderr=("Welcome SM",)), event="SessionStart", matcher=None,
         turns=ONE_TEXT),
    Case("ss-deny-ignored", "SessionStart ignores decisions and continue: false",
         (Hook("a", stdout=out({"decision": "deny", "continue": False})),),
         Does(requests=1, ran=False), event="SessionStart", matcher=None, turns=ONE_TEXT,
         quiet=True),
    Case("ss-match-startup", "SessionStart's matcher is the source, compared exactly",
         (W, Hook("m", matcher="startup"), Hook("n", matcher="resume"), Hook("r", matcher="start.*")),
         Does(requests=1, ran=False, counts={"n": 0, "r": 0}), event="SessionStart",
         matcher=NO_MATCHER, turns=ONE_TEXT, quiet=True),
    Case("se-exit", "SessionEnd runs at exit (reason exit), awaited",
         (Hook("a", sleep=1),), Does(requests=1, ran=False), event="SessionEnd", matcher=None,
         turns=ONE_TEXT, quiet=True),
    Case("pc-every-turn", "PreCompress (trigger auto) runs before every model turn, even when "
         "nothing is compressed",
         (Hook("a", stdout=out({"decision": "deny", "continue": False})),),
         Does(counts={"a": 2}), event="PreCompress", matcher="auto", quiet=True),
    Case("nt-ask", "a BeforeTool ask fires Notification (ToolPermission) before the confirmation",
         (Hook("a", event="BeforeTool", stdout=out({"decision": "ask"}), matcher="run_shell_command"),
          Hook("n")),
         Does(ran=False, requests=1), event="Notification", matcher=None),
]

# fmt: on
CASES: list[Case] = [
    *BEFORE_TOOL,
    *MATCHERS,
    *SOURCES,
    *MCP,
    *AFTER_TOOL,
    *BEFORE_AGENT,
    *AFTER_AGENT,
    *MODEL,
    *LIFECYCLE,
]  # fmt: skip
