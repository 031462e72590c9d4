"""Matchers: case-sensitive regular expressions on the tool name, the ``mcp:`` prefix for
MCP tools (named ``{toolName}_{serverName}``), and tool events only.

Reference: ``augment-hooks.md`` § Structure (Configuration fields, Matcher pattern
examples), § Working with MCP Tools (MCP Tool Naming, MCP Tool Matchers).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from conformance.augment.support import REFERENCE, TOOL, Augment, group, params

FIELDS = f"{REFERENCE} § Structure (Configuration fields)"
PATTERNS = f"{REFERENCE} § Structure (Matcher pattern examples)"
MCP = f"{REFERENCE} § MCP Tool Matchers"
NAMING = f"{REFERENCE} § MCP Tool Naming"
KIND = {True: "mcp", False: "builtin", None: "unflagged"}


@dataclass(frozen=True)
class Match:
    id: str
    rule: str
    matcher: str | None
    """None: the group has no ``matcher`` key."""
    tool: str
    mcp: bool | None
    """The payload's ``is_mcp_tool`` (None: the client left it out)."""
    runs: bool
    event: str = "PreToolUse"
    warning: str | None = None
    xfail: str | None = None
    skip: str | None = None


def cases(rule: str, matcher: str | None, *rows: tuple[str, bool | None, bool]) -> list[Match]:
    slug = (matcher if matcher is not None else "no-matcher").replace("|", "-or-")
    return [
        Match(f"{slug}--{tool}-{KIND[mcp]}", rule, matcher, tool, mcp, runs)
        for tool, mcp, runs in rows
    ]


MATCHES: list[Match] = [
    *cases(
        f'{PATTERNS}: "launch-process" matches a specific tool',
        "launch-process",
        ("launch-process", False, True),
        ("view", False, False),
    ),
    *cases(
        f'{PATTERNS}: "str-replace-editor|save-file" matches multiple tools (regex OR)',
        "str-replace-editor|save-file",
        ("save-file", False, True),
        ("str-replace-editor", False, True),
        ("remove-files", False, False),
    ),
    *cases(
        f'{PATTERNS}: ".*" matches all tools, MCP tools included',
        ".*",
        ("web-fetch", False, True),
        ("search_my-server", True, True),
    ),
    *cases(
        f'{FIELDS}: matcher is optional for PreToolUse/PostToolUse (defaults to ".*")',
        None,
        ("codebase-retrieval", False, True),
        ("query_database-server", True, True),
    ),
    *cases(
        f"{FIELDS}: matcher is case-sensitive", "Launch-Process", ("launch-process", False, False)
    ),
    *cases(
        f"{FIELDS}: matcher supports regex patterns (searched in the name, as in the "
        "document's grep -E and [[ =~ ]] tests)",
        "process",
        ("launch-process", False, True),
    ),
    *cases(
        f"{FIELDS}: an anchored regex is anchored", "^launch$", ("launch-process", False, False)
    ),
    *cases(
        f'{MCP}: "mcp:*" matches ALL MCP tools (special case), only MCP tools',
        "mcp:*",
        ("search_my-server", True, True),
        ("read_filesystem-mcp", True, True),
        ("launch-process", False, False),
        ("search_my-server", False, False),
        ("search_my-server", None, False),
    ),
    *cases(
        f'{MCP}: "mcp:.*_my-server$" matches any tool from my-server ($ anchor avoids '
        "partial matches)",
        "mcp:.*_my-server$",
        ("search_my-server", True, True),
        ("fetch_url_my-server", True, True),
        ("search_my-server-2", True, False),
        ("search_other-server", True, False),
        ("search_my-server", False, False),
    ),
    *cases(
        f'{MCP}: "mcp:^search_my-server$" matches exactly tool search from my-server',
        "mcp:^search_my-server$",
        ("search_my-server", True, True),
        ("research_my-server", True, False),
        ("search_my-server_v2", True, False),
    ),
    *cases(
        f'{MCP}: "mcp:^search_.*" matches tool search from any server',
        "mcp:^search_.*",
        ("search_database-server", True, True),
        ("query_database-server", True, False),
    ),
    *cases(
        f"{NAMING}: tool and server names may contain underscores; the pattern is "
        "matched against the full name",
        "mcp:^get_file_contents_.*_mcp$",
        ("get_file_contents_github_mcp", True, True),
        ("get_file_github_mcp", True, False),
    ),
    *cases(
        f"{PATTERNS}: a plain regex is matched against every tool name, MCP names too; "
        "auggie 0.36.0 matches a plain regex (other than .*) against non-MCP tools only",
        "my-server",
        ("search_my-server", True, False),
    ),
    Match(
        "post-tool-use-uses-the-same-matchers",
        f"{REFERENCE} § PostToolUse: recognizes the same tool names as PreToolUse",
        "launch-process",
        "view",
        False,
        False,
        event="PostToolUse",
    ),
    Match(
        "post-tool-use-mcp-prefix",
        f"{REFERENCE} § PostToolUse; {MCP}",
        "mcp:*",
        "search_my-server",
        True,
        True,
        event="PostToolUse",
    ),
    Match(
        "invalid-regex-never-matches",
        f"{FIELDS}: matcher is a regex; one that does not compile matches nothing and "
        "hookd says so",
        "launch-process(",
        "launch-process(",
        False,
        False,
        warning="invalid regex pattern",
    ),
    Match(
        "invalid-mcp-regex-never-matches",
        f"{MCP}: the pattern after mcp: is a regex; one that does not compile matches "
        "nothing and hookd says so",
        "mcp:[server",
        "search_my-server",
        True,
        False,
        warning="invalid regex pattern",
    ),
]


@pytest.mark.parametrize("case", params(MATCHES))
async def test_matcher(augment: Augment, case: Match) -> None:
    ran = augment.tmp / "ran"
    script = augment.script("h.sh", f"cat >/dev/null; touch {ran}")
    augment.write("workspace", **{case.event: [group(script, matcher=case.matcher)]})
    payload = {**TOOL, "tool_name": case.tool}
    if case.mcp is None:
        del payload["is_mcp_tool"]
    else:
        payload["is_mcp_tool"] = case.mcp
    if case.event == "PostToolUse":
        payload["tool_output"] = "done"

    result = await augment.fire(case.event, payload)

    assert ran.exists() is case.runs
    assert len(result["hooks"]) == int(case.runs)
    if case.warning:
        assert any(case.warning in w for w in result["warnings"]), result["warnings"]
    else:
        assert result["warnings"] == []


@pytest.mark.parametrize("event", ["SessionStart", "SessionEnd", "Stop", "Notification"])
async def test_matcher_is_not_used_outside_tool_events(augment: Augment, event: str) -> None:
    """augment-hooks.md § Structure: matcher is not used for session events (SessionStart,
    SessionEnd, Stop): a group with a non-matching or even invalid matcher still runs
    (Notification, a listed hook_event_name, has no tool either)."""
    scripts = [augment.script(f"h{i}.sh", "cat >/dev/null") for i in range(3)]
    augment.write(
        "workspace",
        **{
            event: [
                group(scripts[0], matcher="launch-process"),
                group(scripts[1], matcher="mcp:*"),
                group(scripts[2], matcher="broken("),
            ]
        },
    )

    result = await augment.fire(event, {"conversation_id": "c"})

    assert len(result["hooks"]) == 3
    assert result["warnings"] == []
