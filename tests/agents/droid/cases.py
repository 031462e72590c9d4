"""The Factory Droid cases, as a table a person can read: each names the event, the hooks
(what each answers, in which file), what the scripted model does, what Droid 0.225.2 did
(``Does``, observed on the real agent and written down), and what it pins.

Every case runs twice: by the real agent (``droid exec``) and by hookd on the same files
with the payload the agent gave its hooks; ``test_droid_agent.py`` holds the agent to
``Does`` and hookd's result to what the agent did. Texts may name ``{home}`` (the case's
HOME), ``{ws}`` (the project), ``{hooks}`` (the hooks' scripts) and ``{system}`` (the
case's system root). The rules' sources: ``droid-research.md`` (its sections are cited in
``about``).
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
    key: str | None = None
    """Its event, else the case's."""
    where: str = "user"
    """``user`` / ``project`` (``.factory/settings.json``), ``user-hooks`` /
    ``project-hooks`` (``.factory/hooks.json``), ``legacy`` (``~/.factory/hooks/hooks.json``),
    ``local`` (``<ws>/.factory/settings.local.json``), ``org``
    (``/etc/factory/settings.json``)."""
    matcher: str | None = None
    group: dict[str, Any] = field(default_factory=dict)
    """More group keys (``commandRegex``)."""
    fields: dict[str, Any] = field(default_factory=dict)
    """More handler keys (``timeout``, ``preserveRiskLevel``)."""
    run: str = ""
    """A shell line it runs before answering."""
    linger: float = 0
    """Seconds it sleeps after answering (to outlive its timeout with its answer out)."""
    copies: int = 1
    """The handler written this many times in its group."""
    every_run: bool = False
    """It answers on every run (by default only its first run answers, so that a stop
    hook that blocks does not keep the agent going)."""


@dataclass(frozen=True)
class Does:
    """What Droid 0.225.2 did (observed, then written down: the agent is held to it)."""

    ran: bool = True
    """The scripted Execute call ran as asked (its command created ``ran``)."""
    rewritten: bool = False
    """A rewritten command ran instead (it creates ``rewritten``)."""
    tool: str | None = None
    """The first tool result the model was sent, exactly (None: not checked)."""
    runs: dict[str, int] = field(default_factory=dict)
    """How often hooks ran (a hook not named: once)."""
    exit: int = 0
    requests: int | None = None
    """How many model requests (with tools) it made (None: not checked)."""
    variables: dict[str, dict[str, str]] = field(default_factory=dict)
    """Variables a hook's first run had (hook name -> name -> value)."""
    compacted: bool = True
    """A compaction the case asks for removed messages."""
    user: tuple[str, ...] | None = None
    """The user messages the hooks added to the conversation, exactly, in order (None: not
    checked)."""


@dataclass(frozen=True)
class Case:
    id: str
    about: str
    hooks: tuple[Hook, ...]
    does: Does
    event: str = "PreToolUse"
    turns: tuple[dict[str, Any], ...] | None = None
    """The scripted model turns when not one Execute call then text."""
    files: dict[str, str] = field(default_factory=dict)
    """More files to write (path with placeholders -> text); ``path#key`` sets a
    top-level key of a settings file the hooks are declared in."""
    env: dict[str, str] = field(default_factory=dict)
    rpc: bool = False
    """Run as a JSON-RPC session (``--input-format stream-jsonrpc``), where
    UserPromptSubmit fires; else ``droid exec PROMPT``."""
    compact: bool = False
    """In the session, compact it after the turn (PreCompact fires)."""
    differs: str = ""
    """Why hookd does not do what the agent does here (a deliberate difference)."""
    hookd_not: tuple[str, ...] = ()
    hookd_also: tuple[str, ...] = ()


def out(obj: Any) -> str:
    return json.dumps(obj)


def specific(**fields: Any) -> str:
    return out({"hookSpecificOutput": {"hookEventName": "PreToolUse", **fields}})


def execute(command: str = "touch {ws}/ran && echo tool-said-this") -> dict[str, Any]:
    return {"tool": "Execute", "args": {"command": command, "riskLevelReason": "makes a marker",
                                        "riskLevel": "low"}}  # fmt: skip


DONE = {"text": "done."}
TOOL_OUT = "tool-said-this\n\n\n[Process exited with code 0]"
DENY = specific(permissionDecision="deny", permissionDecisionReason="no way")
ALLOW = specific(permissionDecision="allow")
REWRITE = specific(updatedInput={"command": "touch {ws}/rewritten"})
CREATE = {"tool": "Create", "args": {"file_path": "{ws}/ran", "content": "made"}}
H = Hook

# fmt: off
CASES: tuple[Case, ...] = (
    # -- PreToolUse: the answers (§5.1) ----------------------------------------------------
    Case("pre-none", "PreToolUse: a hook that says nothing; the tool runs",
         (H("a"),), Does(tool=TOOL_OUT, requests=2)),
    Case("pre-deny", "PreToolUse: permissionDecision deny; the model gets Error: <reason>",
         (H("a", stdout=DENY),), Does(ran=False, tool="Error: no way")),
    Case("pre-deny-no-reason", "PreToolUse: deny without a reason: the agent's own text",
         (H("a", stdout=specific(permissionDecision="deny")),),
         Does(ran=False, tool="Error: Tool execution denied by hook")),
    Case("pre-exit2", "PreToolUse: exit 2 blocks with stderr",
         (H("a", exit=2, stderr="BLOCKED"),), Does(ran=False, tool="Error: BLOCKED")),
    Case("pre-exit2-empty", "PreToolUse: exit 2 without stderr: the agent's own text",
         (H("a", exit=2),), Does(ran=False, tool="Error: Tool execution blocked by hook")),
    Case("pre-exit3", "PreToolUse: exit 3 ends the turn: no tool, no further request",
         (H("a", exit=3, stderr="ABORT"),), Does(ran=False, requests=1)),
    Case("pre-continue-false", "PreToolUse: continue:false ends the turn as exit 3 does",
         (H("a", stdout=out({"continue": False, "stopReason": "halt"})),),
         Does(ran=False, requests=1)),
    Case("pre-exit1-warning", "PreToolUse: exit 1's stderr is put before the tool's result",
         (H("a", exit=1, stderr="WARN1"),), Does(tool="WARN1\n\n" + TOOL_OUT)),
    Case("pre-exit5", "PreToolUse: another exit code without JSON is ignored",
         (H("a", exit=5, stderr="E5"),), Does(tool=TOOL_OUT)),
    Case("pre-deny-exit1", "PreToolUse: JSON is read on any exit code (a deny on exit 1)",
         (H("a", exit=1, stdout=DENY, stderr="E1"),), Does(ran=False, tool="Error: no way")),
    Case("pre-allow", "PreToolUse: allow; the tool runs",
         (H("a", stdout=ALLOW),), Does(tool=TOOL_OUT)),
    Case("pre-ask", "PreToolUse: ask is no prompt in exec: the autonomy rules decide",
         (H("a", stdout=specific(permissionDecision="ask")),), Does(tool=TOOL_OUT)),
    Case("pre-rewrite", "PreToolUse: updatedInput is merged into the tool input",
         (H("a", stdout=REWRITE),), Does(ran=False, rewritten=True)),
    Case("pre-allow-rewrite", "PreToolUse: allow with updatedInput",
         (H("a", stdout=specific(permissionDecision="allow",
                                 updatedInput={"command": "touch {ws}/rewritten"})),),
         Does(ran=False, rewritten=True)),
    Case("pre-first-decision-wins", "PreToolUse: the first hook with a decision decides, an "
         "allow before a deny (no deny-wins precedence)",
         (H("a", stdout=ALLOW), H("b", stdout=DENY)), Does(tool=TOOL_OUT)),
    Case("pre-deny-before-allow", "PreToolUse: a deny first",
         (H("a", stdout=DENY), H("b", stdout=ALLOW)), Does(ran=False, tool="Error: no way")),
    Case("pre-allow-then-exit2", "PreToolUse: exit 2 blocks even after an allow",
         (H("a", stdout=ALLOW), H("b", exit=2, stderr="B2")),
         Does(ran=False, tool="Error: B2")),
    Case("pre-two-rewrites", "PreToolUse: the first updatedInput wins, no chaining",
         (H("a", stdout=REWRITE),
          H("b", stdout=specific(updatedInput={"command": "touch {ws}/other"}))),
         Does(ran=False, rewritten=True)),
    Case("pre-legacy-block", "PreToolUse: Claude's top-level decision:block is ignored",
         (H("a", stdout=out({"decision": "block", "reason": "legacy"})),), Does(tool=TOOL_OUT)),
    Case("pre-upper-deny", "PreToolUse: DENY is no decision (case-sensitive)",
         (H("a", stdout=specific(permissionDecision="DENY")),), Does(tool=TOOL_OUT)),
    Case("pre-text-then-json", "PreToolUse: text before the JSON: not an answer",
         (H("a", stdout="hello\n" + DENY),), Does(tool=TOOL_OUT)),
    Case("pre-spaced-json", "PreToolUse: whitespace around the JSON is fine",
         (H("a", stdout="\n  " + DENY + "\n"),), Does(ran=False, tool="Error: no way")),
    Case("pre-other-event-name", "PreToolUse: hookSpecificOutput.hookEventName is not checked",
         (H("a", stdout=out({"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                                    "permissionDecision": "deny",
                                                    "permissionDecisionReason": "named"}})),),
         Does(ran=False, tool="Error: named")),
    Case("pre-context-ignored", "PreToolUse: additionalContext and systemMessage reach no one",
         (H("a", stdout=out({"systemMessage": "SM", "hookSpecificOutput": {
             "additionalContext": "CTX"}})),), Does(tool=TOOL_OUT, user=())),
    # -- matchers (§3.3) -----------------------------------------------------------------------
    Case("pre-matchers", "PreToolUse: an exact name and an unanchored regex match; another "
         "letter case and an invalid regex do not",
         (H("a", matcher="Execute"), H("b", matcher="^Exec"), H("c", matcher="execute"),
          H("d", matcher="["), H("e", matcher="*")),
         Does(runs={"c": 0, "d": 0})),
    Case("pre-command-regex", "PreToolUse: commandRegex is tested on the Execute command",
         (H("a", group={"commandRegex": "^touch "}), H("b", group={"commandRegex": "^git "})),
         Does(runs={"b": 0})),
    # -- where hooks come from (§1) -----------------------------------------------------------
    Case("pre-project-before-user", "PreToolUse: the project's hooks come first (the first "
         "deny is the project's)",
         (H("u", stdout=specific(permissionDecision="deny", permissionDecisionReason="USER")),
          H("p", where="project", stdout=specific(permissionDecision="deny",
                                                  permissionDecisionReason="PROJ"))),
         Does(ran=False, tool="Error: PROJ")),
    Case("pre-hooks-json-replaces", "PreToolUse: a folder's hooks.json list replaces its "
         "settings.json list for the same event",
         (H("s", where="project", stdout=DENY), H("j", where="project-hooks")),
         Does(runs={"s": 0}, tool=TOOL_OUT)),
    Case("pre-hooks-json-user", "PreToolUse: ~/.factory/hooks.json (the flat event map)",
         (H("a", where="user-hooks", stdout=DENY),), Does(ran=False, tool="Error: no way")),
    Case("pre-legacy-hooks-folder", "PreToolUse: ~/.factory/hooks/hooks.json when there is no "
         "hooks.json", (H("a", where="legacy"),), Does(tool=TOOL_OUT)),
    Case("pre-settings-local-unread", "PreToolUse: .factory/settings.local.json is never read",
         (H("a", where="local"), H("b")), Does(runs={"a": 0})),
    Case("pre-hooks-disabled", "PreToolUse: hooksDisabled in the user's hooks turns every hook "
         "off", (H("a", where="project"),), Does(runs={"a": 0}),
         files={"{home}/.factory/settings.json": out({"hooks": {"hooksDisabled": True}})}),
    Case("pre-invalid-handler", "PreToolUse: a handler Droid cannot read (type http) drops its "
         "whole file; the other files still load",
         (H("a", where="project"), H("b")), Does(runs={"a": 0}),
         files={"{ws}/.factory/settings.json#hooks": out({"Stop": [{"hooks": [
             {"type": "http", "url": "http://127.0.0.1:9/x"}]}]})}),
    Case("pre-duplicates", "PreToolUse: the same handler twice runs twice (no de-duplication)",
         (H("a", copies=2, every_run=True),), Does(runs={"a": 2})),
    Case("pre-org", "PreToolUse: /etc/factory/settings.json (the org layer) comes first",
         (H("u", stdout=specific(permissionDecision="deny", permissionDecisionReason="USER")),
          H("o", where="org", stdout=specific(permissionDecision="deny",
                                              permissionDecisionReason="ORG"))),
         Does(ran=False, tool="Error: ORG")),
    Case("pre-timeout-zero", "PreToolUse: timeout 0 is 60 seconds (the hook answers)",
         (H("a", stdout=DENY, fields={"timeout": 0}),), Does(ran=False, tool="Error: no way")),
    Case("pre-exit2-with-allow", "PreToolUse: exit 2 blocks even when its own JSON allows",
         (H("a", exit=2, stdout=ALLOW, stderr="E2"),), Does(ran=False, tool="Error: E2")),
    Case("pre-timeout-partial", "PreToolUse: a hook past its timeout counts as exit 1 with "
         "what it printed: its deny is obeyed",
         (H("a", stdout=DENY, linger=30, fields={"timeout": 3}),),
         Does(ran=False, tool="Error: no way")),
    Case("pre-rewrite-drops-risk", "PreToolUse: a rewritten Execute command loses riskLevel "
         "and riskLevelReason (PostToolUse sees the input the tool ran with)",
         (H("a", stdout=REWRITE), H("w", key="PostToolUse")), Does(ran=False, rewritten=True)),
    Case("pre-rewrite-keeps-risk", "PreToolUse: preserveRiskLevel on the handler keeps them",
         (H("a", stdout=REWRITE, fields={"preserveRiskLevel": True}), H("w", key="PostToolUse")),
         Does(ran=False, rewritten=True)),
    Case("pre-rewrite-new-key", "PreToolUse: updatedInput's keys are merged as given",
         (H("a", stdout=specific(updatedInput={"command": "touch {ws}/rewritten", "foo": 1})),
          H("w", key="PostToolUse")), Does(ran=False, rewritten=True)),
    Case("pre-jsonc", "PreToolUse: a settings file with comments is read",
         (H("a", every_run=True),), Does(runs={"a": 2}),
         files={"{ws}/.factory/settings.json": '// the project\'s hooks\n{"hooks": {"PreToolUse":'
                ' [/* one */ {"hooks": [{"type": "command", "command": "{hooks}/a.sh"}]}]}}'}),
    Case("pre-trailing-comma", "PreToolUse: a trailing comma: the file is skipped",
         (H("a", every_run=True),), Does(runs={"a": 1}),
         files={"{ws}/.factory/settings.json": '{"hooks": {"PreToolUse": [{"hooks": [{"type": '
                '"command", "command": "{hooks}/a.sh"},]}]}}'}),
    Case("pre-create", "PreToolUse: the Create tool, its name matched; commandRegex never "
         "matches another tool than Execute",
         (H("a", matcher="Create"), H("b", matcher="Execute"),
          H("c", group={"commandRegex": ".*"})),
         Does(runs={"b": 0, "c": 0}), turns=(CREATE, DONE)),
    Case("post-create", "PostToolUse: the Create tool's input and result (a JSON text)",
         (H("a", matcher="Create"),), Does(user=()), event="PostToolUse", turns=(CREATE, DONE)),
    # -- PostToolUse (§5.2) -------------------------------------------------------------------
    Case("post-none", "PostToolUse: nothing said", (H("a"),),
         Does(tool=TOOL_OUT, user=()), event="PostToolUse"),
    Case("post-context", "PostToolUse: additionalContext is a user message after the result",
         (H("a", stdout=out({"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                                    "additionalContext": "CTX"}})),),
         Does(user=("CTX",)), event="PostToolUse"),
    Case("post-exit2", "PostToolUse: exit 2's stderr is fed back as [Hook Feedback]",
         (H("a", exit=2, stderr="FB"),), Does(user=("[Hook Feedback] FB",)), event="PostToolUse"),
    Case("post-exit2-empty", "PostToolUse: exit 2 without stderr: the agent's own text",
         (H("a", exit=2),), Does(user=("[Hook Feedback] PostToolUse hook reported an issue",)),
         event="PostToolUse"),
    Case("post-context-and-exit2", "PostToolUse: the context first, then the feedback",
         (H("a", exit=2, stderr="FB", stdout=out({"hookSpecificOutput": {
             "additionalContext": "CTX"}})),),
         Does(user=("CTX", "[Hook Feedback] FB")), event="PostToolUse"),
    Case("post-exit3", "PostToolUse: exit 3 ends the turn after the tool",
         (H("a", exit=3),), Does(requests=1), event="PostToolUse"),
    Case("post-continue-false", "PostToolUse: continue:false ends the turn after the tool",
         (H("a", stdout=out({"continue": False})),), Does(requests=1), event="PostToolUse"),
    Case("post-block-ignored", "PostToolUse: decision:block is ignored",
         (H("a", stdout=out({"decision": "block", "reason": "R"})),),
         Does(requests=2, user=()), event="PostToolUse"),
    Case("post-exit1-unseen", "PostToolUse: exit 1's stderr is for the user only",
         (H("a", exit=1, stderr="W"),), Does(requests=2, user=()), event="PostToolUse"),
    # -- Stop (§5.3) --------------------------------------------------------------------------
    Case("stop-none", "Stop: nothing said; the agent stops", (H("a"),),
         Does(requests=2), event="Stop"),
    Case("stop-block", "Stop: decision:block with a reason: the agent goes on with the reason "
         "as a user message", (H("a", stdout=out({"decision": "block", "reason": "GO ON"})),),
         Does(runs={"a": 2}, requests=3, user=("GO ON",)), event="Stop"),
    Case("stop-exit2", "Stop: exit 2 makes the agent go on with stderr",
         (H("a", exit=2, stderr="MORE"),), Does(runs={"a": 2}, requests=3, user=("MORE",)),
         event="Stop"),
    Case("stop-block-no-reason", "Stop: block without a reason does nothing, and silences exit 2",
         (H("a", stdout=out({"decision": "block"})), H("b", exit=2, stderr="MORE")),
         Does(requests=2), event="Stop"),
    # -- SessionStart (§5.5) ------------------------------------------------------------------
    Case("start-context", "SessionStart: plain stdout is context, a user message before the "
         "prompt", (H("a", stdout="SS-A"),), Does(), event="SessionStart"),
    Case("start-two", "SessionStart: every hook's context, joined by a blank line",
         (H("a", stdout="SS-A"), H("b", stdout=out({"hookSpecificOutput": {
             "additionalContext": "SS-B"}}))), Does(), event="SessionStart"),
    Case("start-unknown-json", "SessionStart: JSON without an answer key is context as written",
         (H("a", stdout=out({"foo": "bar"})),), Does(), event="SessionStart"),
    Case("start-exit1", "SessionStart: only exit 0 counts", (H("a", exit=1, stdout="LOST"),),
         Does(), event="SessionStart"),
    Case("start-matcher", "SessionStart: the matcher is tested on source",
         (H("a", matcher="startup"), H("b", matcher="resume")), Does(runs={"b": 0}),
         event="SessionStart"),
    Case("start-env-file", "SessionStart: export lines a hook appends to $CLAUDE_ENV_FILE "
         "reach the later hooks' environment",
         (H("s", run='echo "export CASE_FROM_START=\\"yes it is\\"" >> "$CLAUDE_ENV_FILE"'),
          H("a", key="PreToolUse")),
         Does(variables={"a": {"CASE_FROM_START": "yes it is"}}), event="SessionStart"),
    # -- UserPromptSubmit, in a JSON-RPC session (§5.4) ---------------------------------------
    Case("ups-none", "UserPromptSubmit: nothing said; the prompt goes to the model",
         (H("a"),), Does(requests=2, user=()), event="UserPromptSubmit", rpc=True),
    Case("ups-exit2", "UserPromptSubmit: exit 2 blocks the prompt with stderr",
         (H("a", exit=2, stderr="NOPE"),), Does(ran=False, requests=0),
         event="UserPromptSubmit", rpc=True),
    Case("ups-exit2-empty", "UserPromptSubmit: exit 2 without stderr: the agent's own text",
         (H("a", exit=2),), Does(ran=False, requests=0), event="UserPromptSubmit", rpc=True),
    Case("ups-continue-false", "UserPromptSubmit: continue:false blocks, its stopReason said",
         (H("a", stdout=out({"continue": False, "stopReason": "STOPPED"})),),
         Does(ran=False, requests=0), event="UserPromptSubmit", rpc=True),
    Case("ups-exit3", "UserPromptSubmit: exit 3 blocks too", (H("a", exit=3, stderr="ABORTED"),),
         Does(ran=False, requests=0), event="UserPromptSubmit", rpc=True),
    Case("ups-decision-block", "UserPromptSubmit: decision:block is ignored",
         (H("a", stdout=out({"decision": "block", "reason": "R"})),), Does(requests=2),
         event="UserPromptSubmit", rpc=True),
    Case("ups-context", "UserPromptSubmit: additionalContext is a user message before the prompt",
         (H("a", stdout=out({"hookSpecificOutput": {"additionalContext": "UPS-CTX"}})),),
         Does(requests=2), event="UserPromptSubmit", rpc=True),
    Case("ups-plain", "UserPromptSubmit: plain stdout on exit 0 is context",
         (H("a", stdout="PLAIN"),), Does(requests=2), event="UserPromptSubmit", rpc=True),
    Case("ups-first-context", "UserPromptSubmit: only the first hook's context is used",
         (H("a", stdout="CTX-A"), H("b", stdout="CTX-B")), Does(requests=2),
         event="UserPromptSubmit", rpc=True),
    Case("ups-rewrite", "UserPromptSubmit: updatedInput.prompt replaces the prompt",
         (H("a", stdout=out({"hookSpecificOutput": {
             "updatedInput": {"prompt": "rewritten case:ups-rewrite"}}})),),
         Does(requests=2, user=("rewritten case:ups-rewrite",)),
         event="UserPromptSubmit", rpc=True),
    Case("ups-exit1", "UserPromptSubmit: exit 1 is ignored", (H("a", exit=1, stderr="W"),),
         Does(requests=2, user=()), event="UserPromptSubmit", rpc=True),
    # -- PreCompact, a session compacted on request (§5.6) -----------------------------------
    Case("compact-none", "PreCompact: nothing said; the session is compacted",
         (H("a"),), Does(requests=2), event="PreCompact", rpc=True, compact=True),
    Case("compact-exit2", "PreCompact: exit 2 skips the compaction",
         (H("a", exit=2, stderr="not now"),), Does(requests=2, compacted=False), event="PreCompact", rpc=True,
         compact=True),
    Case("compact-exit3", "PreCompact: exit 3 skips it too",
         (H("a", exit=3),), Does(requests=2, compacted=False), event="PreCompact", rpc=True,
         compact=True),
    Case("compact-exit1", "PreCompact: exit 1 does not", (H("a", exit=1, stderr="x"),),
         Does(requests=2), event="PreCompact", rpc=True, compact=True),
    Case("compact-matcher-ignored", "PreCompact: a matcher is not tested (the hook runs)",
         (H("a", matcher="nothing-like-it"),), Does(requests=2), event="PreCompact", rpc=True,
         compact=True),
    # -- SessionEnd ----------------------------------------------------------------------------
    Case("end-runs", "SessionEnd: it runs once at the end, its answer ignored",
         (H("a", exit=2, stderr="x"),), Does(), event="SessionEnd"),
)
# fmt: on
