"""The GitHub Copilot CLI cases, as a table a person can read: each names the event key,
the hooks (what each answers, in which file), what the scripted model does, what Copilot
1.0.102 did (``Does``, observed on the real agent and written down), and what it pins.

Every case runs twice: by the real agent (``copilot -p``) and by hookd on the same files
with the payload the agent gave its hooks; ``test_copilot_agent.py`` holds the agent to
``Does`` and hookd's result to what the agent did. Texts may name ``{home}`` (the case's
HOME), ``{ws}`` (the project) and ``{hooks}`` (the hooks' scripts). The rules' sources:
``copilot-research.md`` (its sections are cited in ``about``).
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
    key: str | None = None
    """Its event key, else the case's."""
    where: str = "user"
    """``user`` (``~/.copilot/hooks/<file>``), ``repo`` (``<ws>/.github/hooks/<file>``),
    ``user-settings`` (``~/.copilot/settings.json``), ``claude`` (``<ws>/.claude/
    settings.json``), ``repo-settings`` (``<ws>/.github/copilot/settings.json``),
    ``policy`` (``/etc/github-copilot/policy.d/<file>``)."""
    file: str = "hooks.json"
    fields: dict[str, Any] = field(default_factory=dict)
    """More handler keys (``matcher``, ``timeoutSec``, ``cwd``, ``env``...)."""
    group: str | None = None
    """Declared inside a Claude-style group with this matcher."""
    every_run: bool = False
    """It answers on every run (by default only its first run answers, so that a stop
    hook that blocks does not keep the agent going)."""


@dataclass(frozen=True)
class Does:
    """What Copilot 1.0.102 did (observed, then written down: the agent is held to it)."""

    ran: bool = True
    """The scripted tool call ran as asked (its command created ``ran``)."""
    rewritten: bool = False
    """A rewritten command ran instead (it creates ``rewritten``)."""
    tool: str | None = None
    """The first tool result the model was sent, exactly (None: not checked)."""
    runs: dict[str, int] = field(default_factory=dict)
    """How often hooks ran (a hook not named: once)."""
    exit: int = 0
    """``copilot -p``'s exit code."""
    said: tuple[str, ...] = ()
    """Texts on the agent's stderr (its ``! <warning>`` lines)."""
    printed: tuple[str, ...] = ()
    """Texts on the agent's stdout."""
    requests: int | None = None
    """How many model requests it made (None: not checked)."""
    user: tuple[str, ...] = ()
    """User messages the hooks added to the conversation, exactly, in order (after the
    prompt; the prompt itself when it was changed)."""


@dataclass(frozen=True)
class Case:
    id: str
    about: str
    hooks: tuple[Hook, ...]
    does: Does
    event: str = "preToolUse"
    tool_command: str = "touch {ws}/ran && echo tool-said-this"
    turns: tuple[dict[str, Any], ...] | None = None
    """The scripted model turns when not one ``bash`` call of ``tool_command`` then text."""
    subagent_turns: tuple[dict[str, Any], ...] | None = None
    """The turns of a subagent (its task's prompt carries ``case:<id>-sub``)."""
    trusted: bool = True
    """``~/.copilot/config.json`` lists the project in ``trustedFolders``."""
    env: dict[str, str] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    """More files to write (path with placeholders -> text)."""
    args: tuple[str, ...] = ("--allow-all-tools",)
    differs: str = ""
    """Why hookd does not do what the agent does here (a deliberate difference)."""
    hookd_not: tuple[str, ...] = ()
    """Hooks the agent runs and hookd does not, by design (``differs``)."""
    hookd_also: tuple[str, ...] = ()
    """Hooks hookd runs and the agent does not, by design (``differs``)."""


def out(obj: Any) -> str:
    return json.dumps(obj)


def bash(command: str = "touch {ws}/ran && echo tool-said-this") -> dict[str, Any]:
    return {"tool": "bash", "args": {"command": command, "description": "t"}}


DONE = {"text": "done."}
DENY = out({"permissionDecision": "deny", "permissionDecisionReason": "no way"})
ALLOW = out({"permissionDecision": "allow"})
REWRITE = out({"modifiedArgs": {"command": "touch {ws}/rewritten", "description": "r"}})
TOOL_OUT = "tool-said-this\n<shellId: 0 completed with exit code 0>"
TASK = (
    {"tool": "task", "args": {"description": "explore it", "prompt": "case:{case}-sub look around",
                              "agent_type": "explore", "name": "scout", "mode": "sync"}},
    {"text": "main done."},
)  # fmt: skip
"""The main agent's turns of a subagent case: one ``task`` for the built-in explore agent."""
SUBAGENT = ({"text": "sub result text"},)
VIEW_MISSING = ({"tool": "view", "args": {"path": "{ws}/missing.txt"}}, DONE)
H = Hook

CASES: tuple[Case, ...] = (
    # -- preToolUse: the answers (§5.3) ------------------------------------------------------
    Case(
        "pre-none",
        "preToolUse: a hook that says nothing; the tool runs (§5.3)",
        (H("a"),),
        Does(tool=TOOL_OUT),
    ),
    Case(
        "pre-deny",
        "preToolUse: permissionDecision deny, the model is told the reason (§5.3)",
        (H("a", stdout=DENY),),
        Does(ran=False, tool="Denied by preToolUse hook: no way"),
    ),
    Case(
        "pre-deny-no-reason",
        "preToolUse: deny without a reason (§5.3)",
        (H("a", stdout=out({"permissionDecision": "deny"})),),
        Does(ran=False, tool="Denied by preToolUse hook: No reason provided"),
    ),
    Case(
        "pre-allow",
        "preToolUse: allow; the tool runs (§5.3)",
        (H("a", stdout=ALLOW),),
        Does(tool=TOOL_OUT),
    ),
    Case(
        "pre-ask",
        "preToolUse: ask, in prompt mode nobody can approve: not run (§5.3)",
        (H("a", stdout=out({"permissionDecision": "ask", "permissionDecisionReason": "sure?"})),),
        Does(
            ran=False, tool="Denied by preToolUse hook (unable to ask user for confirmation): sure?"
        ),
    ),
    Case(
        "pre-modified-args",
        "preToolUse: modifiedArgs replace the tool's arguments (§5.3)",
        (H("a", stdout=REWRITE),),
        Does(ran=False, rewritten=True),
    ),
    Case(
        "pre-context",
        "preToolUse: additionalContext reaches the model after the tool (§5.3)",
        (H("a", stdout=out({"additionalContext": "mind the gap"})),),
        Does(tool=TOOL_OUT, user=("Additional context from preToolUse hook:\nmind the gap",)),
    ),
    Case(
        "pre-text",
        "preToolUse: plain text is no answer (§5.1)",
        (H("a", stdout="deny"),),
        Does(tool=TOOL_OUT),
    ),
    Case(
        "pre-decision-block",
        "preToolUse: Claude's decision block is not read (§5.3)",
        (H("a", stdout=out({"decision": "block", "reason": "x"})),),
        Does(tool=TOOL_OUT),
    ),
    Case(
        "pre-exit2",
        "preToolUse: exit 2 denies, stderr unused (§5.2)",
        (H("a", exit=2, stderr="nope"),),
        Does(ran=False, tool="Denied by preToolUse hook: hook exited with code 2"),
    ),
    Case(
        "pre-exit2-reason",
        "preToolUse: exit 2 with a reason on stdout (§5.2)",
        (H("a", exit=2, stdout=out({"permissionDecisionReason": "from stdout"})),),
        Does(ran=False, tool="Denied by preToolUse hook: from stdout"),
    ),
    Case(
        "pre-exit1",
        "preToolUse: a failing hook denies, naming its file (§5.2)",
        (H("a", exit=1),),
        Does(
            ran=False,
            tool='Denied by preToolUse hook from "{home}/.copilot/hooks/hooks.json" (hook errored)',
        ),
    ),
    Case(
        "pre-progress-lines",
        "preToolUse: progress lines are dropped before the answer (§5.1)",
        (H("a", stdout='{"type":"progress","message":"m"}\n' + DENY),),
        Does(ran=False, tool="Denied by preToolUse hook: no way"),
    ),
    Case(
        "pre-pretty",
        "preToolUse: pretty-printed JSON is read (§5.1)",
        (
            H(
                "a",
                stdout=json.dumps(
                    {"permissionDecision": "deny", "permissionDecisionReason": "p"}, indent=2
                ),
            ),
        ),
        Does(ran=False, tool="Denied by preToolUse hook: p"),
    ),
    Case(
        "pre-timeout",
        "preToolUse: a hook past its timeoutSec is as if it had not run (§4.4, §5.2)",
        (H("a", sleep=2, stdout=DENY, fields={"timeoutSec": 1}),),
        Does(tool=TOOL_OUT),
    ),
    # -- preToolUse: the chain (§5.3) ------------------------------------------------------------
    Case(
        "chain-deny-stops",
        "preToolUse: the first deny ends the chain (§5.3)",
        (H("a", stdout=DENY), H("b", stdout=ALLOW)),
        Does(ran=False, tool="Denied by preToolUse hook: no way", runs={"b": 0}),
    ),
    Case(
        "chain-allow-then-deny",
        "preToolUse: an allow does not end the chain; a later deny wins (§5.3)",
        (H("a", stdout=ALLOW), H("b", stdout=DENY)),
        Does(ran=False, tool="Denied by preToolUse hook: no way"),
    ),
    Case(
        "chain-rewrite-seen",
        "preToolUse: the next hook sees the rewritten arguments (§5.3)",
        (H("a", stdout=REWRITE), H("b")),
        Does(ran=False, rewritten=True),
    ),
    Case(
        "chain-rewrite-then-deny",
        "preToolUse: a later deny drops the rewrite (§5.3)",
        (H("a", stdout=REWRITE), H("b", stdout=DENY)),
        Does(ran=False, tool="Denied by preToolUse hook: no way"),
    ),
    Case(
        "chain-contexts",
        "preToolUse: contexts of several hooks are joined (§5.3)",
        (
            H("a", stdout=out({"additionalContext": "one"})),
            H("b", stdout=out({"additionalContext": "two"})),
        ),
        Does(tool=TOOL_OUT, user=("Additional context from preToolUse hook:\none\n\ntwo",)),
    ),
    Case(
        "chain-exit1-stops",
        "preToolUse: a failing hook ends the chain (§5.2)",
        (H("a", exit=1), H("b")),
        Does(
            ran=False,
            runs={"b": 0},
            tool='Denied by preToolUse hook from "{home}/.copilot/hooks/hooks.json" (hook errored)',
        ),
    ),
    Case(
        "chain-timeout-goes-on",
        "preToolUse: after a timed-out hook the next one runs (§5.2)",
        (H("a", sleep=2, stdout=DENY, fields={"timeoutSec": 1}), H("b", stdout=DENY)),
        Does(ran=False, tool="Denied by preToolUse hook: no way"),
    ),
    # -- PascalCase PreToolUse (§3.2, §5.1, §5.3) ---------------------------------------------
    Case(
        "pascal-payload",
        "PreToolUse: the snake_case payload, tool name Bash (§3.2)",
        (H("a", key="PreToolUse"),),
        Does(tool=TOOL_OUT),
        event="PreToolUse",
    ),
    Case(
        "pascal-hso-deny",
        "PreToolUse: hookSpecificOutput's deny is read (§5.1)",
        (
            H(
                "a",
                key="PreToolUse",
                stdout=out(
                    {
                        "hookSpecificOutput": {
                            "hookEventName": "PreToolUse",
                            "permissionDecision": "deny",
                            "permissionDecisionReason": "claude says no",
                        }
                    }
                ),
            ),
        ),
        Does(ran=False, tool="Denied by preToolUse hook: claude says no"),
        event="PreToolUse",
    ),
    Case(
        "pascal-updated-input",
        "PreToolUse: hookSpecificOutput.updatedInput rewrites (§5.3)",
        (
            H(
                "a",
                key="PreToolUse",
                stdout=out(
                    {
                        "hookSpecificOutput": {
                            "permissionDecision": "allow",
                            "updatedInput": {"command": "touch {ws}/rewritten", "description": "r"},
                        }
                    }
                ),
            ),
        ),
        Does(ran=False, rewritten=True),
        event="PreToolUse",
    ),
    Case(
        "camel-then-pascal",
        "preToolUse and PreToolUse in one file: camelCase first, each its payload (§1.1)",
        (H("p", key="PreToolUse"), H("c")),
        Does(tool=TOOL_OUT),
    ),
    Case(
        "camel-deny-skips-pascal",
        "a camelCase deny ends the chain before the PascalCase hooks (§1.1, §5.3)",
        (H("p", key="PreToolUse"), H("c", stdout=DENY)),
        Does(ran=False, runs={"p": 0}, tool="Denied by preToolUse hook: no way"),
    ),
    # -- matchers (§3.4) -----------------------------------------------------------------------
    Case(
        "match-camel-regex",
        "preToolUse: a matcher is a whole-name regex (§3.4)",
        (
            H("a", fields={"matcher": "b.*"}),
            H("b", fields={"matcher": "ba"}),
            H("c", fields={"matcher": "Bash"}),
        ),
        Does(tool=TOOL_OUT, runs={"b": 0, "c": 0}),
    ),
    Case(
        "match-pascal-claude",
        "PreToolUse: Claude's matchers: Bash, bash, * match; b.* does not (§3.4)",
        (
            H("a", key="PreToolUse", group="Bash"),
            H("b", key="PreToolUse", group="bash"),
            H("c", key="PreToolUse", group="*"),
            H("d", key="PreToolUse", group="b.*"),
        ),
        Does(tool=TOOL_OUT, runs={"d": 0}),
        event="PreToolUse",
    ),
    Case(
        "match-star-camel-skipped",
        "preToolUse: matcher * is an invalid regex, the hook is skipped (§1.4)",
        (H("a", fields={"matcher": "*"}), H("b")),
        Does(tool=TOOL_OUT, runs={"a": 0}),
    ),
    # -- sources and order (§1.1) ----------------------------------------------------------------
    Case(
        "order-folder-descending",
        "hook files run in descending name order, shallower first (§1.1)",
        (
            H("a", file="a.json"),
            H("c", file="c.json"),
            H("b", file="b.json"),
            H("d", file="sub/d.json"),
        ),
        Does(tool=TOOL_OUT),
    ),
    Case(
        "order-sources",
        "policy, user folder, user settings, repo folder, repo settings (§1.1)",
        (
            H("rs", where="repo-settings"),
            H("cl", where="claude"),
            H("r", where="repo"),
            H("us", where="user-settings"),
            H("u"),
            H("pol", where="policy", file="p.json"),
        ),
        Does(tool=TOOL_OUT),
    ),
    Case(
        "order-policy-ascending",
        "policy files run in ascending name order (§1.1)",
        (H("b", where="policy", file="b.json"), H("a", where="policy", file="a.json")),
        Does(tool=TOOL_OUT),
    ),
    Case(
        "no-dedup",
        "the same handler in two files runs twice (§1.1)",
        (H("a", file="one.json"), H("a", file="two.json")),
        Does(tool=TOOL_OUT, runs={"a": 2}),
    ),
    Case(
        "claude-settings-groups",
        ".claude/settings.json with Claude groups is read (§1.4)",
        (H("a", where="claude", key="PreToolUse", group="Bash", stdout=DENY),),
        Does(ran=False, tool="Denied by preToolUse hook: no way"),
        event="PreToolUse",
    ),
    Case(
        "settings-bad-item",
        "one bad handler drops every hook of a settings file (§1.4)",
        (
            H("a", where="repo-settings", fields={"timeoutSec": "1"}),
            H("b", where="repo-settings"),
            H("c"),
        ),
        Does(tool=TOOL_OUT, runs={"a": 0, "b": 0}),
    ),
    Case(
        "folder-bad-item",
        "in a hook file a bad handler is skipped, the rest runs (§1.4)",
        (H("a", fields={"timeoutSec": 0}), H("b")),
        Does(tool=TOOL_OUT, runs={"a": 0}),
    ),
    Case(
        "bad-version",
        "a hook file with version 2 is skipped whole (§1.4)",
        (H("a", file="v.json"), H("b")),
        Does(tool=TOOL_OUT, runs={"a": 0}),
        files={"{home}/.copilot/hooks/v.json#version": "2"},
    ),
    Case(
        "disable-in-file",
        "disableAllHooks in a hook file skips that file only (§1.3)",
        (H("a", file="off.json"), H("b", file="on.json")),
        Does(tool=TOOL_OUT, runs={"a": 0}),
        files={"{home}/.copilot/hooks/off.json#disableAllHooks": "true"},
    ),
    Case(
        "disable-repo-settings",
        "disableAllHooks in the repo's settings: only policy hooks run (§1.3)",
        (H("u"), H("pol", where="policy", file="p.json")),
        Does(tool=TOOL_OUT, runs={"u": 0}),
        files={"{ws}/.github/copilot/settings.json": '{"disableAllHooks": true}'},
    ),
    # -- execution (§4) ------------------------------------------------------------------------
    Case(
        "exec-cwd-relative",
        "cwd relative to the project root (§4.2)",
        (H("a", fields={"cwd": "sub"}),),
        Does(tool=TOOL_OUT),
        files={"{ws}/sub/.keep": ""},
    ),
    Case(
        "exec-env",
        "a handler's env is set, literal, but cannot move the project variables (§4.3)",
        (H("a", fields={"env": {"CASE_X": "${HOME}", "COPILOT_PROJECT_DIR": "/elsewhere"}}),),
        Does(tool=TOOL_OUT),
    ),
    Case(
        "exec-tokens-stripped",
        "token variables are taken out, others kept (§4.3)",
        (H("a"),),
        Does(tool=TOOL_OUT),
        env={
            "GITHUB_TOKEN": "t1",
            "COPILOT_GITHUB_TOKEN": "t2",
            "GH_TOKEN": "t3",
            "CASE_SECRET": "s",
        },
    ),
    Case(
        "exec-repo-hook-dir",
        "a repo hook in a subfolder: COPILOT_HOOK_DIR names its folder (§4.3)",
        (H("a", where="repo", file="sub/r.json"),),
        Does(tool=TOOL_OUT),
    ),
    Case(
        "exec-sequential",
        "handlers run one after another (§4.4)",
        (H("a", sleep=0.5), H("b", sleep=0.5)),
        Does(tool=TOOL_OUT),
    ),
    # -- permissionRequest (§5.4) ------------------------------------------------------------
    Case(
        "perm-deny",
        "permissionRequest: behavior deny with a message (§5.4)",
        (H("a", stdout=out({"behavior": "deny", "message": "perm no"})),),
        Does(ran=False, tool="Permission denied by a PermissionRequest hook: perm no"),
        event="permissionRequest",
    ),
    Case(
        "perm-allow",
        "permissionRequest: behavior allow approves (§5.4)",
        (H("a", stdout=out({"behavior": "allow"})),),
        Does(tool=TOOL_OUT),
        event="permissionRequest",
        args=(),
    ),
    Case(
        "perm-deny-then-allow",
        "permissionRequest: a later allow overrides a deny (§5.4)",
        (
            H("a", stdout=out({"behavior": "deny", "message": "m"})),
            H("b", stdout=out({"behavior": "allow"})),
        ),
        Does(tool=TOOL_OUT),
        event="permissionRequest",
    ),
    Case(
        "perm-exit1",
        "permissionRequest: a failing hook denies and ends the chain (§5.2)",
        (H("a", exit=1), H("b", stdout=out({"behavior": "allow"}))),
        Does(
            ran=False,
            runs={"b": 0},
            tool="Permission denied by a PermissionRequest hook: Permission request hook failed",
        ),
        event="permissionRequest",
    ),
    Case(
        "perm-exit2-then-allow",
        "permissionRequest: an exit-2 deny, then an allow: allowed (§5.2)",
        (H("a", exit=2), H("b", stdout=out({"behavior": "allow"}))),
        Does(tool=TOOL_OUT),
        event="permissionRequest",
    ),
    Case(
        "perm-pascal-payload",
        "PermissionRequest: the camelCase payload (§3.2)",
        (H("a", key="PermissionRequest"),),
        Does(tool=TOOL_OUT),
        event="PermissionRequest",
    ),
    # -- postToolUse / postToolUseFailure (§5.4) ---------------------------------------------
    Case(
        "post-context",
        "postToolUse: additionalContext is appended to the tool's result (§5.4)",
        (
            H("a", stdout=out({"additionalContext": "A1"})),
            H("b", stdout=out({"additionalContext": "A2"})),
        ),
        Does(
            tool=TOOL_OUT
            + '\n\nTool "bash" succeeded. Additional guidance from postToolUse hooks:\nA1\n\nA2'
        ),
        event="postToolUse",
    ),
    Case(
        "post-modified-result",
        "postToolUse: modifiedResult replaces the result, the next hook sees it (§5.4)",
        (
            H(
                "a",
                stdout=out({"modifiedResult": {"resultType": "success", "textResultForLlm": "R2"}}),
            ),
            H("b"),
        ),
        Does(tool="R2"),
        event="postToolUse",
    ),
    Case(
        "post-block",
        "postToolUse: decision block replaces the result and ends the chain (§5.4)",
        (H("a", stdout=out({"decision": "block", "reason": "hidden"})), H("b")),
        Does(tool="Tool result blocked: hidden", runs={"b": 0}),
        event="postToolUse",
    ),
    Case(
        "post-exit2-warns",
        "postToolUse: exit 2 shows stderr to the user and still reads stdout (§5.2, §5.5)",
        (H("a", exit=2, stderr="careful", stdout=out({"additionalContext": "C"})),),
        Does(
            tool=TOOL_OUT
            + '\n\nTool "bash" succeeded. Additional guidance from postToolUse hooks:\nC',
            said=("! careful",),
        ),
        event="postToolUse",
    ),
    Case(
        "post-pascal",
        "PostToolUse: snake_case payload with tool_result (§3.2)",
        (H("a", key="PostToolUse"),),
        Does(tool=TOOL_OUT),
        event="PostToolUse",
    ),
    Case(
        "ptf-context",
        "postToolUseFailure: context as a user message after the failed tool (§5.4)",
        (H("a", stdout=out({"additionalContext": "F1"})),),
        Does(
            ran=False,
            user=('Tool "view" failed. Additional guidance from postToolUseFailure hooks:\nF1',),
        ),
        event="postToolUseFailure",
        turns=({"tool": "view", "args": {"path": "{ws}/missing.txt"}}, DONE),
    ),
    Case(
        "ptf-pascal",
        "PostToolUseFailure: snake_case payload with error (§3.2)",
        (H("a"), H("p", key="PostToolUseFailure")),
        Does(ran=False),
        event="postToolUseFailure",
        turns=VIEW_MISSING,
    ),
    Case(
        "ptf-exit2-stderr",
        "postToolUseFailure: exit 2's stderr is the context (§5.2)",
        (H("a", exit=2, stderr="from stderr", stdout=out({"additionalContext": "ignored"})),),
        Does(
            ran=False,
            user=(
                'Tool "view" failed. Additional guidance from postToolUseFailure hooks:\nfrom stderr',
            ),
        ),
        event="postToolUseFailure",
        turns=({"tool": "view", "args": {"path": "{ws}/missing.txt"}}, DONE),
    ),
    # -- prompts, session, stop (§5.4) ---------------------------------------------------------
    Case(
        "ups-block",
        "userPromptSubmitted: decision block: no model request, exit 1 (§5.4)",
        (H("a", stdout=out({"decision": "block", "reason": "not today"})),),
        Does(ran=False, exit=1, said=("! not today",), requests=0),
        event="userPromptSubmitted",
    ),
    Case(
        "ups-context-last-wins",
        "userPromptSubmitted: the last additionalContext wins (§5.4)",
        (
            H("a", stdout=out({"additionalContext": "first"})),
            H("b", stdout=out({"additionalContext": "second"})),
        ),
        Does(),
        event="userPromptSubmitted",
    ),
    Case(
        "ups-modified-prompt",
        "userPromptSubmitted: modifiedPrompt replaces the prompt (§5.4)",
        (H("a", stdout=out({"modifiedPrompt": "case:ups-modified-prompt new words"})),),
        Does(),
        event="userPromptSubmitted",
    ),
    Case(
        "ups-handled",
        "userPromptSubmitted: handled with responseContent answers without the model (§5.4)",
        (H("a", stdout=out({"handled": True, "responseContent": "answered by a hook"})),),
        Does(ran=False, printed=("answered by a hook",), requests=0),
        event="userPromptSubmitted",
    ),
    Case(
        "ups-pascal",
        "UserPromptSubmit: snake_case payload; flat answers (§3.2, §5.1)",
        (H("a", key="UserPromptSubmit", stdout=out({"decision": "block", "reason": "pascal no"})),),
        Does(ran=False, exit=1, said=("! pascal no",), requests=0),
        event="UserPromptSubmit",
    ),
    Case(
        "ss-context",
        "sessionStart: contexts are joined into a user message before the prompt (§5.4)",
        (
            H("a", stdout=out({"additionalContext": "S1"})),
            H("b", stdout=out({"additionalContext": "S2"})),
        ),
        Does(),
        event="sessionStart",
    ),
    Case(
        "ss-pascal",
        "SessionStart: snake_case payload (§3.2)",
        (H("a", key="SessionStart"),),
        Does(),
        event="SessionStart",
    ),
    Case(
        "stop-block",
        "agentStop: decision block makes the agent go on with the reason (§5.4)",
        (H("a", stdout=out({"decision": "block", "reason": "keep going"})),),
        Does(runs={"a": 2}),
        event="agentStop",
    ),
    Case(
        "stop-pascal",
        "Stop: snake_case payload (§3.2)",
        (H("a", key="Stop"),),
        Does(),
        event="Stop",
    ),
    Case(
        "session-end",
        "sessionEnd: its payload; output ignored (§3.2, §5.4)",
        (H("a", stdout=out({"decision": "block", "reason": "x"})),),
        Does(),
        event="sessionEnd",
    ),
    Case(
        "upt-payload",
        "userPromptTransformed: its payload (§3.2)",
        (H("a"),),
        Does(),
        event="userPromptTransformed",
    ),
    Case(
        "session-end-pascal",
        "sessionEnd and SessionEnd: each its payload (§3.2)",
        (H("a"), H("p", key="SessionEnd")),
        Does(),
        event="sessionEnd",
    ),
    # -- the other events (§3.2, §3.3) -------------------------------------------------------
    Case(
        "error-occurred",
        "errorOccurred and ErrorOccurred: a failed model call (HTTP 400), each its payload; exit 1 (§3.2, §3.3)",
        (H("a"), H("p", key="ErrorOccurred")),
        Does(ran=False, exit=1),
        event="errorOccurred",
        turns=({"status": 400, "message": "bad request from fake"},),
    ),
    Case(
        "pre-compact",
        "preCompact and PreCompact: an automatic compaction, each its payload (§3.2, §3.3)",
        (H("a"), H("p", key="PreCompact")),
        Does(),
        event="preCompact",
        env={"COPILOT_PROVIDER_MAX_PROMPT_TOKENS": "30000"},
        turns=(
            {**bash(), "prompt_tokens": 29000},
            {"text": "summary", "prompt_tokens": 29500},
            {"text": "done.", "prompt_tokens": 29500},
            {"text": "done2."},
        ),
    ),
    Case(
        "subagent-start",
        "subagentStart and SubagentStart: a task's subagent; the hybrid payload (§3.2)",
        (H("a"), H("p", key="SubagentStart")),
        Does(ran=False),
        event="subagentStart",
        turns=TASK,
        subagent_turns=SUBAGENT,
    ),
    Case(
        "subagent-start-match",
        "subagentStart: the matcher is tested against agentName (§3.4)",
        (H("a", fields={"matcher": "explore"}), H("b", fields={"matcher": "task"})),
        Does(ran=False, runs={"b": 0}),
        event="subagentStart",
        turns=TASK,
        subagent_turns=SUBAGENT,
    ),
    Case(
        "subagent-stop",
        "subagentStop and SubagentStop: each its payload (§3.2)",
        (H("a"), H("p", key="SubagentStop")),
        Does(ran=False),
        event="subagentStop",
        turns=TASK,
        subagent_turns=SUBAGENT,
    ),
    Case(
        "notification-permission",
        "notification and Notification: permission_prompt when a permission would be asked (no --allow-all-tools); the same payload (§3.2, §3.3)",
        (H("a"), H("p", key="Notification")),
        Does(ran=False),
        event="notification",
        args=(),
    ),
    # -- policy hooks fail closed (§5.2) -------------------------------------------------------
    Case(
        "policy-ups-fails-closed",
        "a failing policy hook blocks the prompt (§5.2)",
        (H("a", where="policy", file="p.json", exit=1),),
        Does(ran=False, exit=1, said=("! Policy hook failed",), requests=0),
        event="userPromptSubmitted",
    ),
    Case(
        "user-ups-fails-open",
        "a failing user hook on userPromptSubmitted is ignored (§5.2)",
        (H("a", exit=1),),
        Does(),
        event="userPromptSubmitted",
    ),
    # -- trust (§1.2) ------------------------------------------------------------------------
    Case(
        "trust-untrusted-repo",
        "repo hooks of an untrusted folder are not run by the agent (§1.2)",
        (H("r", where="repo"), H("u")),
        Does(tool=TOOL_OUT, runs={"r": 0}),
        trusted=False,
        differs="hookd's trust is its own (hookd allow): it runs the project's hooks once "
        "hookd trusts the project, whatever Copilot's trustedFolders say",
        hookd_also=("r",),
    ),
)
"""Each case's turns default to one ``bash`` call of ``tool_command`` then ``done.``."""
