"""A relay entry's matcher is the union of the adopted groups' matchers, by each agent's
own matcher rule (issue 29): whatever one of them matches, the union matches (the agent
starts the relay for every tool an adopted hook is for), and it stays narrower than
"every tool" (not every Read and Grep starts the relay). Checked against each dialect's
own matching function, the one hookd selects hooks with."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hookd.daemon.dialects.claude import rules as claude_rules
from hookd.daemon.dialects.codex import config as codex_config
from hookd.daemon.dialects.codex import integration as codex
from hookd.daemon.dialects.codex.events import TOOL_ALIASES as CODEX_ALIASES
from hookd.daemon.dialects.copilot import dialect as copilot_dialect
from hookd.daemon.dialects.copilot import integration as copilot
from hookd.daemon.dialects.droid import dialect as droid_dialect
from hookd.daemon.dialects.droid import integration as droid
from hookd.daemon.dialects.gemini import dialect as gemini_dialect
from hookd.daemon.dialects.gemini import integration as gemini
from hookd.daemon.dialects.qwen import dialect as qwen_dialect
from hookd.daemon.dialects.qwen import integration as qwen
from hookd.daemon.model import Dialect, FireRequest, HookSpec

Matches = Callable[[str | None, str], bool]
Union = Callable[[list[str | None]], str | None]


def _claude(matcher: str | None, tool: str) -> bool:
    return claude_rules.matcher_matches("PreToolUse", matcher, tool)


def _codex(matcher: str | None, tool: str) -> bool:
    return codex_config.matches(matcher, (tool, *CODEX_ALIASES.get(tool, ())))


def _gemini(matcher: str | None, tool: str) -> bool:
    return gemini_dialect._matches(matcher, FireRequest(Dialect.GEMINI, "BeforeTool", ("/w",),
                                                        {"tool_name": tool}))  # fmt: skip


def _qwen(matcher: str | None, tool: str) -> bool:
    return qwen_dialect._matches(matcher, FireRequest(Dialect.QWEN, "PreToolUse", ("/w",),
                                                      {"tool_name": tool}))  # fmt: skip


def _copilot(key: str) -> Matches:
    def matches(matcher: str | None, tool: str) -> bool:
        spec = HookSpec(Dialect.COPILOT, key, "/f", "user", "x", None, 30, matcher)
        body = {"toolName": tool} if key[0].islower() else {"tool_name": tool}
        request = FireRequest(Dialect.COPILOT, key, ("/w",), body)
        return copilot_dialect.matches(spec, request)

    return matches


def _droid(matcher: str | None, tool: str) -> bool:
    spec = HookSpec(Dialect.DROID, "PreToolUse", "/f", "user", "x", None, 30, matcher)
    return droid_dialect._applies(spec, "PreToolUse", tool, None, [])


CLAUDE_TOOLS = ("Bash", "Edit", "Write", "Read", "Grep", "Agent", "mcp__db__query", "Task")
AGENTS: dict[str, tuple[Matches, Union, tuple[str, ...], list[list[str | None]]]] = {
    "claude": (_claude, lambda ms: claude_rules.union_matcher("PreToolUse", ms), CLAUDE_TOOLS,
               [["Bash", "Edit|Write"], ["Bash", "mcp__.*"], ["^Bash$", "Write, Edit"],
                ["Task", "Grep"]]),
    "codex": (_codex, lambda ms: codex.union_matcher("PreToolUse", ms),
              ("Bash", "apply_patch", "Read", "mcp__db__query", "Bashful"),
              [["Bash", "Edit"], ["Bash", "^mcp__"], ["^Ba", "Write"], ["Bash", "["]]),
    "gemini": (_gemini, lambda ms: gemini.union_matcher("BeforeTool", ms),
               ("run_shell_command", "read_file", "write_file", "replace", "mcp_x[1]"),
               [["run_shell_command", "write_.*"], ["^run", "replace$"],
                ["run_shell_command", "mcp_x[1]"], [" replace ", "read_file"]]),
    "qwen": (_qwen, lambda ms: qwen.union_matcher("PreToolUse", ms),
             ("run_shell_command", "write_file", "read_file", "replace", "grep_search"),
             [["Bash", "Write"], ["^run_shell_command$", "Edit"], ["Bash|Edit", "write_.*"],
              ["(Write)", "shell"], ["^read", "Bash"]]),
    "copilot-camel": (_copilot("preToolUse"), lambda ms: copilot.union_matcher("preToolUse", ms),
                      ("bash", "edit", "view", "create", "grep"),
                      [["bash", "edit|create"], ["b.*", "view"], ["^bash$", "(edit)"]]),
    "copilot-pascal": (_copilot("PreToolUse"),
                       lambda ms: copilot.union_matcher("PreToolUse", ms),
                       ("Bash", "Edit", "Read", "Write", "Grep"),
                       [["Bash", "Edit|Write"], ["Bash", "Read"]]),
    "droid": (_droid, lambda ms: droid.union_matcher("PreToolUse", ms),
              ("Execute", "Edit", "Read", "Create", "a.b", "mcp(1)"),
              [["Execute", "Edit|Create"], ["^Ex", "Read"], ["a.b", "mcp(1)"]]),
}  # fmt: skip


@pytest.mark.parametrize("agent", AGENTS)
def test_the_union_matches_whatever_an_adopted_matcher_matches_and_not_everything(
    agent: str,
) -> None:
    matches, union_of, tools, cases = AGENTS[agent]
    for matchers in cases:
        union = union_of(matchers)
        assert union is not None, (agent, matchers)
        for tool in tools:
            if any(matches(m, tool) for m in matchers):
                assert matches(union, tool), (agent, matchers, union, tool)
        assert not all(matches(union, tool) for tool in tools), (agent, matchers, union)


@pytest.mark.parametrize("agent", AGENTS)
def test_one_group_that_matches_everything_leaves_the_entry_without_a_matcher(
    agent: str,
) -> None:
    _matches, union_of, _tools, _cases = AGENTS[agent]
    assert union_of(["Bash", None]) is None
    assert union_of([]) is None


@pytest.mark.parametrize(("agent", "matchers", "union"), [
    ("claude", ["Bash", "Edit|Write", "Bash"], "Bash|Edit|Write"),  # a list stays a list
    ("codex", ["Bash", "Edit|Write"], "Bash|Edit|Write"),
    ("codex", ["Bash", "^mcp__"], "(?:^(?:Bash)$)|(?:^mcp__)"),
    ("gemini", ["run_shell_command", " write_.* "], "(?:run_shell_command)|(?:write_.*)"),
    ("qwen", ["^read", "Bash"], "Bash|^read"),  # split into alternatives: Bash's aliases hold
    ("copilot-camel", ["bash", "edit"], "bash|edit"),
    ("copilot-pascal", ["Bash", "Edit|Write"], "Bash|Edit|Write"),
    ("droid", ["Execute", "Edit"], "(?:Execute)|(?:Edit)"),
])  # fmt: skip
def test_the_union_as_written(agent: str, matchers: list[str | None], union: str) -> None:
    assert AGENTS[agent][1](matchers) == union


def test_what_cannot_be_promised_is_no_matcher() -> None:
    """Never less than the adopted hooks: a union the agent would read as something
    narrower is left out (the relay then starts for every tool, and hookd's selection
    runs only the hooks whose matcher matches)."""
    assert qwen.union_matcher("PreToolUse", ["Bash", "["]) is None  # the whole would not compile
    assert copilot.union_matcher("PreToolUse", ["Bash", "b.*"]) is None  # tokens and a regex
    assert gemini.union_matcher("SessionStart", ["startup", "resume"]) is None  # exact text
    assert gemini.union_matcher("SessionStart", ["startup", " startup"]) == "startup"
    assert codex.union_matcher("Stop", ["x", "y"]) is None  # Stop reads no matcher


def test_droid_keeps_the_command_regex_only_when_every_group_has_one() -> None:
    assert droid.union_command_regex(["^git ", "^rm "]) == "(?:^git )|(?:^rm )"
    assert droid.union_command_regex(["^git ", None]) is None
    assert droid.union_command_regex([None, None]) is None
