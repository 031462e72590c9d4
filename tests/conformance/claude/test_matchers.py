"""Matcher syntax (exact names, lists, regular expressions, MCP names, per-event
character sets) and the handler-level ``if`` rule.

Each case fires one event with one value of the matched field and says whether the hook
runs, per the reference's "Matcher patterns", "Match MCP tools" and "Common fields"
(``if``, with its Bash matching table) sections.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from conformance.claude.support import GUIDE, REFERENCE, Claude, command, params

FIELD = {
    "PreToolUse": "tool_name",
    "SubagentStart": "agent_type",
    "FileChanged": "file_path",
    "StopFailure": "error",
    "Notification": "notification_type",
    "SessionStart": "source",
}

SYNTAX = f"{REFERENCE} 'Matcher patterns'"
MCP = f"{REFERENCE} 'Match MCP tools'"
NARROW = (
    f"{SYNTAX}: FileChanged and StopFailure use the narrower exact-match set of letters, "
    "digits, _ and | only; a hyphen, space or comma keeps the matcher on the regex path"
)


@dataclass(frozen=True)
class Matcher:
    id: str
    rule: str
    matcher: str | None
    value: str
    runs: bool
    event: str = "PreToolUse"
    warns: bool = False
    xfail: str | None = None


MATCHERS = [
    Matcher("star", f"{SYNTAX}: '*' matches all", "*", "Bash", True),
    Matcher("empty", f"{SYNTAX}: '' matches all", "", "Bash", True),
    Matcher("omitted", f"{SYNTAX}: an omitted matcher matches all", None, "Bash", True),
    Matcher("exact", f"{SYNTAX}: 'Bash matches only the Bash tool'", "Bash", "Bash", True),
    Matcher("exact-is-whole-name", f"{SYNTAX}: exact string", "Bash", "BashOutput", False),
    Matcher(
        "case-sensitive", f"{GUIDE} 'Hook not firing': matchers are case-sensitive", "bash",
        "Bash", False,
    ),
    Matcher("bar-list", f"{SYNTAX}: 'Edit|Write' matches either tool", "Edit|Write", "Write",
            True),
    Matcher("bar-list-is-exact", f"{SYNTAX}: list of exact strings", "Edit|Write",
            "NotebookEdit", False),
    Matcher("comma-list", f"{SYNTAX}: 'Edit, Write' matches either tool", "Edit, Write",
            "Write", True),
    Matcher("comma-no-space", f"{SYNTAX}: separated by | or ,", "Edit,Write", "Edit", True),
    Matcher("list-whitespace", f"{SYNTAX}: 'with optional surrounding whitespace'",
            " Edit | Write ", "Write", True),
    Matcher("regex-unanchored", f"{SYNTAX}: 'Edit.* matches both Edit and NotebookEdit'",
            "Edit.*", "NotebookEdit", True),
    Matcher("regex-anchored", f"{SYNTAX}: wrap in ^ and $ for a whole-string match", "^Edit$",
            "NotebookEdit", False),
    Matcher("regex-anchored-hit", f"{SYNTAX}: '^Edit$'", "^Edit$", "Edit", True),
    Matcher("regex-prefix", f"{SYNTAX}: '^Notebook matches any tool whose name starts with "
            "Notebook'", "^Notebook", "NotebookEdit", True),
    Matcher("mcp-server", f"{MCP}: 'mcp__memory__.* matches all tools from the memory server'",
            "mcp__memory__.*", "mcp__memory__create_entities", True),
    Matcher("mcp-server-other", f"{MCP}: mcp__memory__.* is one server's tools",
            "mcp__memory__.*", "mcp__filesystem__read_file", False),
    Matcher("mcp-bare-prefix", f"{MCP}: 'a matcher like mcp__memory ... is compared as an "
            "exact string and matches no tool'", "mcp__memory", "mcp__memory__create_entities",
            False),
    Matcher("mcp-bare-hyphen", f"{MCP}: 'mcp__brave-search' is exact (hyphens are in the exact "
            "set since v2.1.195)", "mcp__brave-search", "mcp__brave-search__web_search", False),
    Matcher("mcp-hyphen-server", f"{MCP}: 'mcp__brave-search__.* matches all tools from a "
            "server whose name contains a hyphen'", "mcp__brave-search__.*",
            "mcp__brave-search__web_search", True),
    Matcher("mcp-any-server-write", f"{MCP}: 'mcp__.*__write.* matches any tool whose name "
            "starts with write from any server'", "mcp__.*__write.*",
            "mcp__filesystem__write_file", True),
    Matcher("mcp-any-server-read", f"{MCP}: mcp__.*__write.*", "mcp__.*__write.*",
            "mcp__filesystem__read_file", False),
    Matcher("mcp-plugin-scoped", f"{MCP}: 'the matcher for every tool from that server is "
            "mcp__plugin_my-plugin_db__.*'", "mcp__plugin_my-plugin_db__.*",
            "mcp__plugin_my-plugin_db__query", True),
    Matcher("mcp-plugin-bare-key", f"{MCP}: 'A matcher written against the bare server key "
            "never fires for these tools'", "mcp__db__.*", "mcp__plugin_my-plugin_db__query",
            False),
    Matcher("agent-hyphen-exact", f"{SYNTAX}: 'code-reviewer matches only that agent type'",
            "code-reviewer", "senior-code-reviewer", False, "SubagentStart"),
    Matcher("agent-hyphen-exact-hit", f"{SYNTAX}: code-reviewer", "code-reviewer",
            "code-reviewer", True, "SubagentStart"),
    Matcher("agent-plugin-scoped", f"{REFERENCE} 'SubagentStart': anchor plugin-scoped names: "
            "'^my-plugin:reviewer$'", "^my-plugin:reviewer$", "my-plugin:reviewer", True,
            "SubagentStart"),
    Matcher("file-hyphen-is-regex", NARROW, "my-file", "/p/my-file.txt", True, "FileChanged"),
    Matcher("file-exact-list", NARROW, "Makefile|envrc", "/p/Makefile", True, "FileChanged"),
    Matcher("file-exact-list-miss", NARROW, "Makefile|envrc", "/p/.envrc", False,
            "FileChanged"),
    Matcher("file-comma-is-regex", NARROW, "data, other", "/p/data", False, "FileChanged"),
    Matcher("file-dotted-regex", f"{REFERENCE} 'FileChanged': the matcher filters hook groups "
            "with the standard matcher rules against the changed file's basename",
            ".envrc|.env", "/p/.env", True, "FileChanged"),
    Matcher("file-basename-only", f"{REFERENCE} 'FileChanged': matched against the changed "
            "file's basename, not its directory", "project", "/home/u/project/.envrc", False,
            "FileChanged"),
    Matcher("stopfailure-list", NARROW, "rate_limit|overloaded", "overloaded", True,
            "StopFailure"),
    Matcher("stopfailure-comma-is-regex", NARROW + "; only | separates alternatives",
            "rate_limit, overloaded", "rate_limit", False, "StopFailure"),
    Matcher("notification-comma-list", f"{SYNTAX}: 'Every other event with matcher support "
            "... accepts | or ,'", "permission_prompt, idle_prompt", "idle_prompt", True,
            "Notification"),
    Matcher("session-start-list", f"{SYNTAX}: list of exact strings on SessionStart sources",
            "startup|resume", "resume", True, "SessionStart"),
    Matcher("invalid-regex", f"{SYNTAX}: not documented for an invalid regular expression; "
            "hookd: the group never matches and the fire's warnings say why", "[Bash", "Bash",
            False, warns=True),
]  # fmt: skip


@pytest.mark.parametrize("case", params(MATCHERS))
async def test_matcher_syntax(claude: Claude, case: Matcher) -> None:
    group: dict[str, Any] = {"hooks": [command("echo ran")]}
    if case.matcher is not None:
        group["matcher"] = case.matcher
    claude.write_settings({"hooks": {case.event: [group]}})

    result = await claude.fire(case.event, {FIELD[case.event]: case.value})

    assert len(result["hooks"]) == (1 if case.runs else 0)
    warned = [w for w in result["warnings"] if "not a valid regular expression" in w]
    assert bool(warned) is case.warns


# --- the `if` field ----------------------------------------------------------------------------

IF = f"{REFERENCE} 'Common fields' (if, Bash matching table)"
IF_GUIDE = f"{GUIDE} 'Filter by tool name and arguments with the if field'"


@dataclass(frozen=True)
class If:
    id: str
    rule: str
    condition: str
    tool_name: str
    tool_input: dict[str, Any] = field(default_factory=dict)
    runs: bool = True
    event: str = "PreToolUse"
    xfail: str | None = None


def bash(text: str) -> dict[str, Any]:
    return {"command": text}


def path(text: str) -> dict[str, Any]:
    return {"file_path": text, "old_string": "a", "new_string": "b"}


IFS = [
    If("assignment-stripped", f"{IF}: 'FOO=bar git push' yes, leading assignments stripped",
       "Bash(git *)", "Bash", bash("FOO=bar git push")),
    If("each-subcommand", f"{IF}: 'npm test && git push' yes, each subcommand is checked",
       "Bash(git *)", "Bash", bash("npm test && git push")),
    If("inside-substitution", f"{IF}: 'echo $(rm -rf /)' yes, commands inside $() are checked",
       "Bash(rm *)", "Bash", bash("echo $(rm -rf /)")),
    If("substitution-no-match", f"{IF}: 'echo $(date)' no, no subcommand matches rm *",
       "Bash(rm *)", "Bash", bash("echo $(date)"), runs=False),
    If("more-than-name-runs-anyway", f"{IF}: 'Bash(git push *)' with 'echo $(date)' yes: "
       "patterns that specify more than the command name run the hook anyway on $()",
       "Bash(git push *)", "Bash", bash("echo $(date)")),
    If("more-than-name-var", f"{IF}: ... or $VAR", "Bash(git push *)", "Bash",
       bash("echo $HOME")),
    If("more-than-name-backtick", f"{IF}: ... or backticks", "Bash(git push *)", "Bash",
       bash("echo `date`")),
    If("command-name", f"{IF_GUIDE}: 'git push' yes, command name matches", "Bash(git *)",
       "Bash", bash("git push")),
    If("guide-substitution", f"{IF_GUIDE}: 'echo $(git log)' yes", "Bash(git *)", "Bash",
       bash("echo $(git log)")),
    If("guide-substitution-no", f"{IF_GUIDE}: 'echo $(date)' no", "Bash(git *)", "Bash",
       bash("echo $(date)"), runs=False),
    If("backticks", f"{IF}: commands inside backticks are checked", "Bash(git *)", "Bash",
       bash("echo `git log`")),
    If("semicolon", f"{IF}: each subcommand is checked (;)", "Bash(git *)", "Bash",
       bash("npm test; git status")),
    If("or-list", f"{IF}: each subcommand is checked (||)", "Bash(git *)", "Bash",
       bash("npm test || git status")),
    If("pipeline", f"{IF}: each subcommand is checked (|)", "Bash(git *)", "Bash",
       bash("cat patch | git apply")),
    If("no-subcommand-matches", f"{REFERENCE} 'How a hook resolves': with 'npm test' the if "
       "check fails and block-rm.sh never runs", "Bash(rm *)", "Bash", bash("npm test"),
       runs=False),
    If("resolves-rm", f"{REFERENCE} 'How a hook resolves': 'rm -rf /tmp/build' is a "
       "subcommand matching rm *", "Bash(rm *)", "Bash", bash("rm -rf /tmp/build")),
    If("unparseable-fails-open", f"{IF}: 'The filter also fails open, running your hook "
       "regardless of pattern, when the Bash command can't be parsed'", "Bash(git *)", "Bash",
       bash('echo "unterminated')),
    If("subshell", f"{IF}: each subcommand is checked, a subshell's too", "Bash(rm *)",
       "Bash", bash("(rm -rf /tmp/x)")),
    If("brace-group", f"{IF}: each subcommand is checked, a {{ }} group's too", "Bash(rm *)",
       "Bash", bash("{ rm -rf x; }")),
    If("if-body", f"{IF}: each subcommand is checked, an if body's too", "Bash(rm *)",
       "Bash", bash("if true; then rm -rf x; fi")),
    If("loop-body", f"{IF}: each subcommand is checked, a loop body's too", "Bash(rm *)",
       "Bash", bash("for f in a b; do rm $f; done")),
    If("nested-substitution", f"{IF}: 'commands inside $() ... are checked', at any depth",
       "Bash(rm *)", "Bash", bash("echo $(rm -rf $(pwd))")),
    If("substitution-in-double-quotes", f"{IF}: a $() inside double quotes is a command too",
       "Bash(rm *)", "Bash", bash('echo "gone: $(rm -rf x)"')),
    If("quoted-separator-is-text", f"{IF}: a ; inside quotes separates nothing: no "
       "subcommand matches rm *", "Bash(rm *)", "Bash", bash('git commit -m "fix; rm it"'),
       runs=False),
    If("single-quoted-substitution-is-text", f"{IF}: '$(rm x)' in single quotes is text",
       "Bash(rm *)", "Bash", bash("echo '$(rm -rf x)'"), runs=False),
    If("two-word-pattern-more-than-name", f"{IF}: 'Bash(git push)' names more than the "
       "command: runs anyway on $()", "Bash(git push)", "Bash", bash("echo $(date)")),
    If("legacy-prefix-more-than-name", f"{IF}: 'Bash(npm run:*)' names more than the "
       "command: runs anyway on $()", "Bash(npm run:*)", "Bash", bash("echo $(date)")),
    If("substitution-in-arithmetic-fails-open", f"{IF}: commands inside $() are checked; "
       "one inside $(( )) is not modelled: fails open", "Bash(rm *)", "Bash",
       bash("echo $(( $(rm -rf x) ))")),
    If("subshell-substitution-not-arithmetic", f"{IF}: '$((rm x); ls)' is a command "
       "substitution holding a subshell, not arithmetic", "Bash(rm *)", "Bash",
       bash("echo $((rm -rf x); ls)")),
    If("process-substitution-more-than-name", f"{IF}: patterns naming more than the command "
       "run the hook anyway on a part known only at run time (here <())", "Bash(cat secret*)",
       "Bash", bash("cat <(true) secret.txt")),
    If("deep-nesting-fails-open", f"{IF}: nesting past what hookd scans is not parsed: "
       "fails open", "Bash(git *)", "Bash", bash("echo " + "$(" * 100 + "ls" + ")" * 100)),
    If("heredoc-fails-open", f"{IF}: a here-document is not modelled: fails open",
       "Bash(git *)", "Bash", bash("cat <<EOF\nhello\nEOF")),
    If("other-tool", f"{IF}: the rule matches the tool name and arguments together",
       "Bash(git *)", "Edit", path("/w/git"), runs=False),
    If("bare-tool-name", f"{IF}: permission rule syntax; a bare tool name matches every call",
       "Bash", "Bash", bash("anything at all")),
    If("ts-file", f"{IF}: 'Edit(*.ts) runs only for TypeScript files'", "Edit(*.ts)", "Edit",
       path("{ws}/src/app.ts")),
    If("js-file", f"{IF}: Edit(*.ts) with a .js file", "Edit(*.ts)", "Edit",
       path("{ws}/src/app.js"), runs=False),
    If("ts-rule-on-write", f"{IF}: 'A single if rule matches only one tool's calls'",
       "Edit(*.ts)", "Write", {"file_path": "{ws}/a.ts", "content": ""}, runs=False),
    If("dir-pattern", f"{IF}: 'Edit(src/**) matches only the src directory in the working "
       "directory and the files under it'", "Edit(src/**)", "Edit", path("{ws}/src/app.ts")),
    If("dir-pattern-nested", f"{IF}: Edit(src/**) does not match a src directory at another "
       "depth (since v2.1.214)", "Edit(src/**)", "Edit", path("{ws}/lib/src/app.ts"),
       runs=False),
    If("dir-pattern-outside-cwd", f"{IF}: Edit(src/**) is the src directory in the working "
       "directory, not one elsewhere", "Edit(src/**)", "Edit", path("/elsewhere/src/app.ts"),
       runs=False),
    If("any-depth-pattern", f"{IF}: 'To match a directory named src at any depth, write "
       "Edit(**/src/**)'", "Edit(**/src/**)", "Edit", path("{ws}/lib/src/app.ts")),
    If("powershell", f"{REFERENCE} 'How a hook resolves' (Windows tab): "
       "'PowerShell(Remove-Item *)' narrows to PowerShell commands matching Remove-Item *",
       "PowerShell(Remove-Item *)", "PowerShell", bash("Remove-Item -Recurse build")),
    If("powershell-rule-on-bash", f"{REFERENCE} 'How a hook resolves' (Windows tab): 'A single "
       "if rule matches only one tool's calls'", "PowerShell(Remove-Item *)", "Bash",
       bash("Remove-Item -Recurse build"), runs=False),
    If("mcp-scoped-name", f"{MCP}: 'Use the same scoped tool name in a handler's if field'",
       "mcp__plugin_my-plugin_db__query", "mcp__plugin_my-plugin_db__query", {"sql": "x"}),
    If("mcp-scoped-other", f"{MCP}: the scoped name is one tool", "mcp__plugin_my-plugin_db__query",
       "mcp__plugin_my-plugin_db__drop", {"sql": "x"}, runs=False),
] + [
    If(f"{event}-{'yes' if runs else 'no'}", f"{IF}: 'Only evaluated on tool events: "
       f"PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, and PermissionDenied' "
       f"({event})", "Bash(git *)", "Bash", bash(text), runs=runs, event=event)
    for event in ("PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied")
    for text, runs in (("git push", True), ("npm test", False))
] + [
    If(f"never-on-{event}", f"{IF}: 'On other events, a hook with if set never runs' ({event})",
       "Bash", "Bash", bash("git push"), runs=False, event=event)
    for event in ("SessionStart", "UserPromptSubmit", "Notification", "PostToolBatch")
]  # fmt: skip


@pytest.mark.parametrize("case", params(IFS))
async def test_if_rule(claude: Claude, case: If) -> None:
    claude.hooks(case.event, command("echo ran", **{"if": case.condition}))
    payload = {"cwd": "{ws}", "tool_name": case.tool_name, "tool_input": case.tool_input}

    result = await claude.fire(case.event, payload)

    assert len(result["hooks"]) == (1 if case.runs else 0)
