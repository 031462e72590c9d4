"""The Claude Code cases, as a table a person can read: each names the event, the hooks
(what each answers), the tool call the scripted model makes, and what it pins.

Every case runs twice: by the real agent (``claude -p``) and by hookd on the same files
with the payload the agent gave its hooks; ``test_claude_agent.py`` compares the two.
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
    fields: dict[str, Any] = field(default_factory=dict)
    matcher: str | None = None
    sleep: float = 0
    """Seconds before it answers (to pass a ``timeout``)."""
    layers: tuple[str, ...] = ("project",)
    """The settings files it is declared in: user, project, local."""
    command: str = "{script}"
    """The handler's ``command``; ``{script}`` is the path of the hook's script."""
    first_line: str = ""
    """A line it prints before its ``sleep`` and its ``stdout`` (``{"async": true}``)."""
    http: dict[str, Any] | None = None
    """An ``http`` handler instead of a command: how the case's endpoint answers it
    (``status``, ``body``, ``delay`` in seconds), or ``{"refused": True}`` for a URL no one
    listens on. The endpoint records what it was sent as a command hook records it: the
    body as its stdin, its ``X-*`` headers as its environment."""
    env_seen: tuple[str, ...] = ()
    """Variables it records from its environment (beside ``CLAUDE_PLUGIN_*``)."""


def out(obj: Any) -> str:
    return json.dumps(obj)


def pre(decision: str, reason: str = "", **more: Any) -> str:
    spec: dict[str, Any] = {"hookEventName": "PreToolUse", "permissionDecision": decision}
    if reason:
        spec["permissionDecisionReason"] = reason
    return out({"hookSpecificOutput": {**spec, **more}})


@dataclass(frozen=True)
class Plugin:
    """A plugin in the case's local marketplace (``hookd-test``), installed into the
    real agent with ``claude plugin install``; its hooks' ``{script}`` is
    ``${CLAUDE_PLUGIN_ROOT}/hooks/<hook>.sh``."""

    name: str
    hooks: tuple[Hook, ...]
    manifest: dict[str, Any] = field(default_factory=dict)
    """More fields for its ``.claude-plugin/plugin.json``."""

    @property
    def id(self) -> str:
        return f"{self.name}@hookd-test"


@dataclass(frozen=True)
class Case:
    id: str
    about: str
    hooks: tuple[Hook, ...]
    event: str = "PreToolUse"
    matcher: str | None = "Bash"
    extra_settings: dict[str, Any] = field(default_factory=dict)
    """Merged into the project's settings.json (other keys, other events)."""
    layer_settings: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Other keys for the user's or the local settings file."""
    tool_command: str = "touch {ws}/ran"
    """The Bash command the scripted model asks for."""
    turns: tuple[dict[str, Any], ...] | None = None
    """The scripted model turns, when not one Bash call of ``tool_command`` then text
    (``{"tool": name, "input": {...}}`` or ``{"text": ...}``; ``{ws}`` and ``{case}``
    are filled in)."""
    subagent_turns: tuple[dict[str, Any], ...] = ()
    """A subagent's turns (its prompt carries the tag ``case:<id>-sub``)."""
    args: tuple[str, ...] = ("--allowedTools", "Bash")
    """The agent's arguments after the prompt and model."""
    stdin_lines: tuple[dict[str, Any], ...] = ()
    """Stream-json input (user messages and control requests) instead of a prompt."""
    plugins: tuple[Plugin, ...] = ()
    """Plugins installed (and so enabled in the user's settings) before the run."""
    files: dict[str, str] = field(default_factory=dict)
    """More files (a subagent's definition, ``~/.claude.json``): path and text, with
    ``{ws}``, ``{home}`` and ``{hooks}`` (the folder of the hooks' scripts) filled in."""
    every_run: bool = False
    """Compare every run of every hook, not only each hook's first."""
    trust_on: bool = False
    """hookd checks trust (``trust_all`` off, the workspace never allowed), as for a user
    who installed hookd and ran no ``hookd allow``: what is the user's own runs as under
    the agent."""
    absent: str = ""
    """A text a hook sent that must reach neither the model nor hookd's result (its
    output was no usable answer)."""
    later: str = ""
    """A text a background hook answers that the agent gives the model on a later turn
    (and hookd in the hook's ``hook/asyncResult``)."""
    hookd_stops: bool = False
    """hookd stops the background hook at its timeout, where the agent lets it run until
    the session ends (kept deliberately): hookd's result says ``timedOut``."""
    env: dict[str, str] = field(default_factory=dict)
    """More of the agent's environment; hookd's fire gets it too (``env``), as a client
    forwarding the agent's environment gives it."""
    agent_runs: dict[str, int] = field(default_factory=dict)
    """How often the agent ran each of these hooks (hookd's one fire runs each once)."""
    xfail: str | None = None


def user(text: str) -> dict[str, Any]:
    """A stream-json user message; the case's tag is put in front of its text."""
    return {"type": "user", "message": {"role": "user", "content": text}}


def set_model(model: str, request_id: str = "switch-1") -> dict[str, Any]:
    """The ``set_model`` control request (fires PreModelSwitch and PostModelSwitch)."""
    return {"type": "control_request", "request_id": request_id,
            "request": {"subtype": "set_model", "model": model}}  # fmt: skip


def specific(event: str, **fields: Any) -> str:
    """A JSON answer with ``hookSpecificOutput`` for ``event``."""
    return out({"hookSpecificOutput": {"hookEventName": event, **fields}})


SWITCH = (user("hello"), set_model("claude-opus-4-1"), user("again"))
"""A session that asks for a model switch between two prompts."""
SUBAGENT = (
    {"tool": "Agent", "input": {"description": "sub", "subagent_type": "general-purpose",
                                "prompt": "case:{case}-sub run the marker command"}},
    {"text": "done"},
    {"text": "done again"},
)  # fmt: skip
"""The model starts a subagent (its own turns: ``SUBAGENT_TURNS``)."""
SUBAGENT_TURNS = (
    {"tool": "Bash", "input": {"command": "touch {ws}/ran", "description": "mark"}},
    {"text": "sub done"},
)
"""The subagent runs the marker command: the marker says the Agent tool ran."""
SUBAGENT_CHECKER = (
    {"tool": "Agent", "input": {"description": "sub", "subagent_type": "checker",
                                "prompt": "case:{case}-sub run the marker command"}},
    {"text": "done"},
    {"text": "done again"},
)  # fmt: skip
"""The model starts the subagent ``checker`` (``checker_agent``)."""
IN_CHECKER: dict[str, Any] = {"turns": SUBAGENT_CHECKER, "subagent_turns": SUBAGENT_TURNS,
                              "args": ("--allowedTools", "Bash,Agent")}  # fmt: skip
"""A case whose tool call happens inside the subagent ``checker``."""
TRUSTED = {"{home}/.claude.json": '{"projects": {"{ws}": {"hasTrustDialogAccepted": true}}}'}
"""Claude Code's record that the project's trust dialog was accepted."""


def checker_agent(
    event: str, matcher: str | None, script: str, folder: str = "{ws}", more: str = ""
) -> dict[str, str]:
    """The subagent ``checker`` (in a file named otherwise: the frontmatter's ``name``
    counts), with one command hook in its frontmatter running ``{hooks}/<script>``
    (``more``: more of the handler's fields, as YAML lines)."""
    group = f"    - matcher: {matcher}\n      hooks:\n" if matcher else "    - hooks:\n"
    fields = "".join(f"          {line}\n" for line in more.splitlines())
    text = (
        "---\nname: checker\ndescription: Checks things. Use it when asked.\nhooks:\n"
        f"  {event}:\n{group}        - type: command\n{fields}"
        f'          command: "{{hooks}}/{script}"\n---\nYou check things.\n'
    )
    return {f"{folder}/.claude/agents/the-checker.md": text}


WAIT_FOR_A = (
    "touch {ws}/ran; i=0; until [ -e {ws}/../agent/a.done.0 ] || [ $i -ge 600 ]; "
    "do sleep 0.05; i=$((i+1)); done; sleep 0.3"
)
"""The marker command, which then waits (30 s at most) until hook ``a`` has answered in
the background, so that its answer is in when the agent sends the tool's result."""
ASYNC = '{"async": true}'
BLOCK_ON_FAILURE = {"onFailure": "block"}
CREDENTIALS = {
    "NPM_TOKEN": "npm-t", "MCP_CLIENT_SECRET": "mcp-s", "CLAUDE_CODE_SLACK_TAG_TOKEN": "slack-t",
    "CARGO_REGISTRIES_CORP_TOKEN": "cargo-t", "OTEL_RESOURCE_ATTRIBUTES": "otel=1",
    "GITHUB_TOKEN": "gh-t", "HF_TOKEN": "hf-t", "MY_SECRET": "my-s", "MY_PLAIN": "plain",
}  # fmt: skip
"""Credentials of the agent's own and of other services, and harmless variables."""
INTERPOLATED = {"lower_var": "low", "Mixed": "mixed", "M": "m", "MY_PLAIN": "plain",
                "MY_OTHER": "other"}  # fmt: skip
WRONG_TYPE = out({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                  "permissionDecision": "deny", "permissionDecisionReason": 5}})  # fmt: skip
OTHER_EVENT = specific("PostToolUse", additionalContext="misfiled")
TWO_CALLS = (
    {"tool": "Bash", "input": {"command": "touch {ws}/ran", "description": "mark"}},
    {"tool": "Bash", "input": {"command": "touch {ws}/ran2", "description": "mark again"}},
    {"text": "sub done"},
)
"""A subagent that runs the marker command twice."""


CASES = [
    Case("pre-exit0-allows", "exit 0 without output: the tool runs", (Hook("a"),)),
    Case(
        "pre-exit2-blocks",
        "exit 2 blocks; stderr is the reason the model sees",
        (Hook("a", exit=2, stderr="no rm here"),),
    ),
    Case(
        "pre-exit1-non-blocking",
        "exit 1 is a non-blocking error: the tool runs",
        (Hook("a", exit=1, stderr="oops"),),
    ),
    Case(
        "pre-json-deny",
        "permissionDecision deny blocks with its reason",
        (Hook("a", stdout=pre("deny", "policy says no")),),
    ),
    Case(
        "pre-json-allow",
        "permissionDecision allow: the tool runs",
        (Hook("a", stdout=pre("allow", "fine")),),
    ),
    Case(
        "pre-json-context",
        "additionalContext reaches the model",
        (Hook("a", stdout=pre("allow", additionalContext="remember the tests")),),
    ),
    Case(
        "pre-updated-input",
        "updatedInput rewrites the command that runs",
        (Hook("a", stdout=pre("allow", updatedInput={"command": "touch {ws}/rewritten"})),),
    ),
    Case(
        "pre-two-hooks-one-denies",
        "one deny among two hooks blocks",
        (Hook("a"), Hook("b", exit=2, stderr="second says no")),
    ),
    Case(
        "pre-matcher-misses",
        "a matcher for another tool: the hook never runs",
        (Hook("a", exit=2, stderr="never", matcher="Write"),),
        matcher=None,
    ),
    Case(
        "pre-matcher-regex",
        "a regex matcher that matches Bash",
        (Hook("a", exit=2, stderr="regex hit", matcher="^(Bash|Write)$"),),
        matcher=None,
    ),
    Case(
        "pre-matcher-star",
        "`*` matches every tool",
        (Hook("a", exit=2, stderr="star hit", matcher="*"),),
        matcher=None,
    ),
    Case(
        "pre-continue-false",
        "continue: false stops the agent; the tool still runs?",
        (Hook("a", stdout=out({"continue": False, "stopReason": "halt"})),),
    ),
    Case(
        "pre-invalid-json",
        "output that is not JSON on exit 0: ignored, the tool runs",
        (Hook("a", stdout="{not json"),),
    ),
    Case(
        "pre-decision-block-legacy",
        "the legacy decision: block blocks",
        (Hook("a", stdout=out({"decision": "block", "reason": "legacy no"})),),
    ),
    Case(
        "post-context",
        "PostToolUse additionalContext reaches the model",
        (
            Hook(
                "a",
                stdout=out(
                    {
                        "hookSpecificOutput": {
                            "hookEventName": "PostToolUse",
                            "additionalContext": "post note",
                        }
                    }
                ),
            ),
        ),
        event="PostToolUse",
    ),
    Case(
        "post-block",
        "PostToolUse decision block: the reason goes to the model",
        (Hook("a", stdout=out({"decision": "block", "reason": "look again"})),),
        event="PostToolUse",
    ),
    Case(
        "post-exit2",
        "PostToolUse exit 2: stderr to the model",
        (Hook("a", exit=2, stderr="post stderr"),),
        event="PostToolUse",
    ),
    Case(
        "prompt-context",
        "UserPromptSubmit stdout on exit 0 is context",
        (Hook("a", stdout="plain prompt context"),),
        event="UserPromptSubmit",
        matcher=None,
    ),
    Case(
        "prompt-block",
        "UserPromptSubmit decision block: the prompt never reaches the model",
        (Hook("a", stdout=out({"decision": "block", "reason": "not this prompt"})),),
        event="UserPromptSubmit",
        matcher=None,
    ),
    Case(
        "stop-block",
        "Stop decision block: the agent goes on with the reason",
        (Hook("a", stdout=out({"decision": "block", "reason": "run the tests first"})),),
        event="Stop",
        matcher=None,
    ),
    # -- output validation and odd answers ----------------------------------------------
    Case(
        "pre-deny-reason-wrong-type",
        "a reason of the wrong type: the output fails the schema",
        (
            Hook(
                "a",
                stdout=out(
                    {
                        "hookSpecificOutput": {
                            "hookEventName": "PreToolUse",
                            "permissionDecision": "deny",
                            "permissionDecisionReason": 5,
                        }
                    }
                ),
            ),
        ),
    ),
    Case(
        "pre-decision-unknown",
        "permissionDecision outside allow/deny/ask/defer",
        (Hook("a", stdout=pre("maybe", "unsure")),),
    ),
    Case(
        "pre-continue-wrong-type",
        "continue as a string",
        (Hook("a", stdout=out({"continue": "no", "stopReason": "x"})),),
    ),
    Case(
        "pre-exit2-ignores-json",
        "exit 2: stdout JSON is ignored, stderr is the reason",
        (Hook("a", exit=2, stdout=pre("allow"), stderr="exit two wins"),),
    ),
    Case("pre-exit2-no-stderr", "exit 2 with nothing on stderr still blocks", (Hook("a", exit=2),)),
    Case(
        "pre-ask-in-print-mode",
        "ask in -p mode with the tool allowed",
        (Hook("a", stdout=pre("ask", "are you sure")),),
    ),
    Case(
        "pre-two-contexts",
        "two hooks' contexts both reach the model",
        (
            Hook("a", stdout=pre("allow", additionalContext="first note")),
            Hook("b", stdout=pre("allow", additionalContext="second note")),
        ),
    ),
    Case(
        "pre-system-message",
        "systemMessage with allow",
        (Hook("a", stdout=out({"systemMessage": "heads up", **json.loads(pre("allow"))})),),
    ),
    Case(
        "pre-on-failure-block",
        "onFailure: block turns a failing hook into a block (2.1.328)",
        (Hook("a", exit=1, stderr="crashed", fields={"onFailure": "block"}),),
    ),
    Case(
        "pre-on-failure-continue",
        "onFailure: continue keeps a failure non-blocking",
        (Hook("a", exit=1, stderr="crashed", fields={"onFailure": "continue"}),),
    ),
    Case(
        "pre-timeout-non-blocking",
        "a hook past its timeout: the tool runs",
        (Hook("a", stdout=pre("deny", "too late"), fields={"timeout": 1}, sleep=3),),
    ),
    Case(
        "pre-timeout-on-failure-block",
        "a timeout with onFailure: block blocks",
        (Hook("a", fields={"timeout": 1, "onFailure": "block"}, sleep=3),),
    ),
    Case(
        "pre-list-matcher",
        "a `Write|Bash` matcher matches Bash",
        (Hook("a", exit=2, stderr="list hit", matcher="Write|Bash"),),
        matcher=None,
    ),
    Case(
        "pre-case-sensitive-matcher",
        "`bash` does not match Bash",
        (Hook("a", exit=2, stderr="never", matcher="bash"),),
        matcher=None,
    ),
    Case(
        "pre-if-rule-matches",
        "an `if` rule Bash(touch *) lets the hook run",
        (Hook("a", exit=2, stderr="if hit", fields={"if": "Bash(touch *)"}),),
    ),
    Case(
        "pre-if-rule-misses",
        "an `if` rule Bash(rm *) keeps the hook from running",
        (Hook("a", exit=2, stderr="never", fields={"if": "Bash(rm *)"}),),
    ),
    Case(
        "pre-disable-all-hooks",
        "disableAllHooks: true in the same file",
        (Hook("a", exit=2, stderr="never"),),
        extra_settings={"disableAllHooks": True},
    ),
    Case(
        "pre-unknown-event-in-file",
        "a settings file naming an event that does not exist",
        (Hook("a", exit=2, stderr="from a partly broken file"),),
        extra_settings={
            "hooks": {"NoSuchEvent": [{"hooks": [{"type": "command", "command": "true"}]}]}
        },
    ),
    Case(
        "pre-unknown-handler-type",
        "a handler of an unknown type next to a good one",
        (Hook("a", exit=2, stderr="good handler"),),
        extra_settings={"hooks": {"PostToolUse": [{"hooks": [{"type": "nonsense"}]}]}},
    ),
    Case(
        "post-exit1",
        "PostToolUse exit 1: nothing reaches the model",
        (Hook("a", exit=1, stderr="meh"),),
        event="PostToolUse",
    ),
    Case(
        "prompt-exit2",
        "UserPromptSubmit exit 2 blocks the prompt",
        (Hook("a", exit=2, stderr="no prompt"),),
        event="UserPromptSubmit",
        matcher=None,
    ),
    Case(
        "prompt-json-context",
        "UserPromptSubmit additionalContext",
        (
            Hook(
                "a",
                stdout=out(
                    {
                        "hookSpecificOutput": {
                            "hookEventName": "UserPromptSubmit",
                            "additionalContext": "json prompt ctx",
                        }
                    }
                ),
            ),
        ),
        event="UserPromptSubmit",
        matcher=None,
    ),
    Case(
        "stop-exit2",
        "Stop exit 2: the agent goes on with stderr",
        (Hook("a", exit=2, stderr="not yet"),),
        event="Stop",
        matcher=None,
    ),
    Case("stop-exit0", "Stop exit 0: the agent stops", (Hook("a"),), event="Stop", matcher=None),
    # -- settings layers, de-duplication, session events ----------------------------------
    Case(
        "layers-user-hook-runs",
        "a hook in the user's ~/.claude/settings.json",
        (Hook("a", exit=2, stderr="user says no", layers=("user",)),),
    ),
    Case(
        "layers-local-hook-runs",
        "a hook in .claude/settings.local.json",
        (Hook("a", exit=2, stderr="local says no", layers=("local",)),),
    ),
    Case(
        "layers-all-three-run",
        "hooks from user, project and local all run",
        (
            Hook("u", stdout=pre("allow", additionalContext="user ctx"), layers=("user",)),
            Hook("p", stdout=pre("allow", additionalContext="project ctx")),
            Hook("l", stdout=pre("allow", additionalContext="local ctx"), layers=("local",)),
        ),
    ),
    Case(
        "layers-same-handler-twice-runs-once",
        "the same handler in two files runs once",
        (Hook("a", stdout=pre("allow", additionalContext="once"), layers=("user", "project")),),
    ),
    Case(
        "layers-local-disables-all",
        "disableAllHooks in the local file turns project hooks off",
        (Hook("a", exit=2, stderr="never"),),
        layer_settings={"local": {"disableAllHooks": True}},
    ),
    Case(
        "layers-user-disable-overridden",
        "disableAllHooks: true in user, false in project",
        (Hook("a", exit=2, stderr="still on"),),
        extra_settings={"disableAllHooks": False},
        layer_settings={"user": {"disableAllHooks": True}},
    ),
    Case(
        "layers-broken-user-file",
        "a user settings file that is not JSON: project hooks still run",
        (Hook("a", exit=2, stderr="project hook"),),
        layer_settings={"user": {"hooks": "nonsense"}},
    ),
    Case(
        "post-two-contexts",
        "two PostToolUse contexts both reach the model",
        (
            Hook(
                "a",
                stdout=out(
                    {
                        "hookSpecificOutput": {
                            "hookEventName": "PostToolUse",
                            "additionalContext": "post one",
                        }
                    }
                ),
            ),
            Hook(
                "b",
                stdout=out(
                    {
                        "hookSpecificOutput": {
                            "hookEventName": "PostToolUse",
                            "additionalContext": "post two",
                        }
                    }
                ),
            ),
        ),
        event="PostToolUse",
    ),
    Case(
        "pre-deny-and-context",
        "deny with additionalContext",
        (Hook("a", stdout=pre("deny", "denied", additionalContext="why it matters")),),
    ),
    Case(
        "pre-allow-then-deny",
        "allow from one hook, deny from another: deny wins",
        (Hook("a", stdout=pre("allow", "ok")), Hook("b", stdout=pre("deny", "not ok"))),
    ),
    # -- session events and failures ---------------------------------------------------------
    Case(
        "session-start-context",
        "SessionStart stdout is context for the first turn",
        (Hook("a", stdout="session start note"),),
        event="SessionStart",
        matcher=None,
    ),
    Case(
        "session-start-json-context",
        "SessionStart additionalContext",
        (
            Hook(
                "a",
                stdout=out(
                    {
                        "hookSpecificOutput": {
                            "hookEventName": "SessionStart",
                            "additionalContext": "json start note",
                        }
                    }
                ),
            ),
        ),
        event="SessionStart",
        matcher=None,
    ),
    Case(
        "post-failure-context",
        "PostToolUseFailure additionalContext after a failing command",
        (
            Hook(
                "a",
                stdout=out(
                    {
                        "hookSpecificOutput": {
                            "hookEventName": "PostToolUseFailure",
                            "additionalContext": "it failed, try x",
                        }
                    }
                ),
            ),
        ),
        event="PostToolUseFailure",
        tool_command="exit 3",
    ),
    Case(
        "post-failure-not-on-success",
        "PostToolUseFailure does not run when the tool succeeds",
        (Hook("a", exit=2, stderr="never"),),
        event="PostToolUseFailure",
    ),
    Case(
        "session-end-runs",
        "SessionEnd runs at the end of a -p session",
        (Hook("a"),),
        event="SessionEnd",
        matcher=None,
    ),
    # -- model switches (2.1.328; the set_model control request over stream-json) ---------
    Case(
        "switch-pre-exit0-allows",
        "PreModelSwitch exit 0: the switch goes through",
        (Hook("a"),),
        event="PreModelSwitch",
        matcher=None,
        stdin_lines=SWITCH,
    ),
    Case(
        "switch-pre-exit2-blocks",
        "PreModelSwitch exit 2 blocks the switch (control error blocked_by_hook)",
        (Hook("a", exit=2, stderr="stay on this model"),),
        event="PreModelSwitch",
        matcher=None,
        stdin_lines=SWITCH,
    ),
    Case(
        "switch-pre-exit2-no-stderr",
        "PreModelSwitch exit 2 with nothing on stderr",
        (Hook("a", exit=2),),
        event="PreModelSwitch",
        matcher=None,
        stdin_lines=SWITCH,
    ),
    Case(
        "switch-pre-deny",
        "permissionDecision deny blocks the switch with its reason",
        (
            Hook(
                "a",
                stdout=specific(
                    "PreModelSwitch",
                    permissionDecision="deny",
                    permissionDecisionReason="too pricey",
                ),
            ),
        ),
        event="PreModelSwitch",
        matcher=None,
        stdin_lines=SWITCH,
    ),
    Case(
        "switch-pre-deny-no-reason",
        "permissionDecision deny without a reason",
        (Hook("a", stdout=specific("PreModelSwitch", permissionDecision="deny")),),
        event="PreModelSwitch",
        matcher=None,
        stdin_lines=SWITCH,
    ),
    Case(
        "switch-pre-ask-headless",
        "permissionDecision ask: a headless session refuses instead of asking",
        (
            Hook(
                "a",
                stdout=specific(
                    "PreModelSwitch",
                    permissionDecision="ask",
                    permissionDecisionReason="confirm first",
                ),
            ),
        ),
        event="PreModelSwitch",
        matcher=None,
        stdin_lines=SWITCH,
    ),
    Case(
        "switch-pre-allow",
        "permissionDecision allow: the switch goes through",
        (Hook("a", stdout=specific("PreModelSwitch", permissionDecision="allow")),),
        event="PreModelSwitch",
        matcher=None,
        stdin_lines=SWITCH,
    ),
    Case(
        "switch-pre-exit1",
        "PreModelSwitch exit 1 is a non-blocking error",
        (Hook("a", exit=1, stderr="hook broke"),),
        event="PreModelSwitch",
        matcher=None,
        stdin_lines=SWITCH,
    ),
    Case(
        "switch-pre-matcher-exact-misses",
        "a matcher of letters only is an exact model name: `opus` misses",
        (Hook("a", exit=2, stderr="never", matcher="opus"),),
        event="PreModelSwitch",
        matcher=None,
        stdin_lines=SWITCH,
    ),
    Case(
        "switch-pre-matcher-regex",
        "a regex matcher on to_model",
        (Hook("a", exit=2, stderr="no opus", matcher="opus.*"),),
        event="PreModelSwitch",
        matcher=None,
        stdin_lines=SWITCH,
    ),
    Case(
        "switch-pre-matcher-1m-tag",
        "a `[1m]` tag on a model matcher is ignored",
        (Hook("a", exit=2, stderr="tagged", matcher="claude-opus-5-5[1m]"),),
        event="PreModelSwitch",
        matcher=None,
        stdin_lines=SWITCH,
    ),
    Case(
        "switch-pre-on-failure-block",
        "onFailure: block on PreModelSwitch turns a failure into a block",
        (Hook("a", exit=1, stderr="crashed", fields={"onFailure": "block"}),),
        event="PreModelSwitch",
        matcher=None,
        stdin_lines=SWITCH,
    ),
    Case(
        "switch-post-context",
        "PostModelSwitch additionalContext reaches the model",
        (Hook("a", stdout=specific("PostModelSwitch", additionalContext="switched ctx")),),
        event="PostModelSwitch",
        matcher=None,
        stdin_lines=SWITCH,
    ),
    Case(
        "switch-post-exit2",
        "PostModelSwitch exit 2: nothing to block",
        (Hook("a", exit=2, stderr="too late"),),
        event="PostModelSwitch",
        matcher=None,
        stdin_lines=SWITCH,
    ),
    Case(
        "switch-post-two-contexts",
        "two PostModelSwitch contexts",
        (
            Hook("a", stdout=specific("PostModelSwitch", additionalContext="switch one")),
            Hook("b", stdout=specific("PostModelSwitch", additionalContext="switch two")),
        ),
        event="PostModelSwitch",
        matcher=None,
        stdin_lines=SWITCH,
    ),
    # -- subagents and legacy tool names in matchers (2.1.328) ----------------------------
    Case(
        "legacy-matcher-task",
        "the legacy name `Task` matches the Agent tool",
        (Hook("a", exit=2, stderr="no subagents", matcher="Task"),),
        matcher=None,
        turns=SUBAGENT,
        subagent_turns=SUBAGENT_TURNS,
        args=("--allowedTools", "Bash,Agent"),
    ),
    Case(
        "legacy-matcher-task-in-list",
        "`Write|Task` matches the Agent tool",
        (Hook("a", exit=2, stderr="listed", matcher="Write|Task"),),
        matcher=None,
        turns=SUBAGENT,
        subagent_turns=SUBAGENT_TURNS,
        args=("--allowedTools", "Bash,Agent"),
    ),
    Case(
        "legacy-matcher-task-regex",
        "the regex `^Task$` and the Agent tool",
        (Hook("a", exit=2, stderr="regex task", matcher="^Task$"),),
        matcher=None,
        turns=SUBAGENT,
        subagent_turns=SUBAGENT_TURNS,
        args=("--allowedTools", "Bash,Agent"),
    ),
    Case(
        "agent-matcher-agent",
        "the current name `Agent` matches the Agent tool",
        (Hook("a", exit=2, stderr="agent blocked", matcher="Agent"),),
        matcher=None,
        turns=SUBAGENT,
        subagent_turns=SUBAGENT_TURNS,
        args=("--allowedTools", "Bash,Agent"),
    ),
    Case(
        "subagent-start-context",
        "SubagentStart additionalContext reaches the subagent",
        (Hook("a", stdout=specific("SubagentStart", additionalContext="sub ctx")),),
        event="SubagentStart",
        matcher=None,
        turns=SUBAGENT,
        subagent_turns=SUBAGENT_TURNS,
        args=("--allowedTools", "Bash,Agent"),
    ),
    Case(
        "subagent-start-matcher",
        "SubagentStart matches the agent type",
        (
            Hook(
                "a",
                stdout=specific("SubagentStart", additionalContext="typed ctx"),
                matcher="general-purpose",
            ),
        ),
        event="SubagentStart",
        matcher=None,
        turns=SUBAGENT,
        subagent_turns=SUBAGENT_TURNS,
        args=("--allowedTools", "Bash,Agent"),
    ),
    Case(
        "subagent-start-exit2",
        "SubagentStart exit 2 does not stop the subagent",
        (Hook("a", exit=2, stderr="start objection"),),
        event="SubagentStart",
        matcher=None,
        turns=SUBAGENT,
        subagent_turns=SUBAGENT_TURNS,
        args=("--allowedTools", "Bash,Agent"),
    ),
    # -- permission requests (no --allowedTools: the permission flow runs) ----------------
    Case(
        "permission-allow",
        "PermissionRequest allow: the tool runs without a prompt",
        (Hook("a", stdout=specific("PermissionRequest", decision={"behavior": "allow"})),),
        event="PermissionRequest",
        args=(),
    ),
    Case(
        "permission-deny",
        "PermissionRequest deny with a message",
        (
            Hook(
                "a",
                stdout=specific(
                    "PermissionRequest", decision={"behavior": "deny", "message": "not today"}
                ),
            ),
        ),
        event="PermissionRequest",
        args=(),
    ),
    Case(
        "permission-no-decision",
        "PermissionRequest without a decision: -p refuses the tool",
        (Hook("a"),),
        event="PermissionRequest",
        args=(),
    ),
    Case(
        "permission-exit2",
        "PermissionRequest exit 2",
        (Hook("a", exit=2, stderr="perm no"),),
        event="PermissionRequest",
        args=(),
    ),
    Case(
        "permission-allow-continue-false",
        "PermissionRequest allow with continue: false",
        (
            Hook(
                "a",
                stdout=out(
                    {
                        "continue": False,
                        "stopReason": "perm halt",
                        **json.loads(specific("PermissionRequest", decision={"behavior": "allow"})),
                    }
                ),
            ),
        ),
        event="PermissionRequest",
        args=(),
    ),
    Case(
        "pre-deny-continue-false",
        "PreToolUse deny with continue: false: no tool, the agent stops",
        (
            Hook(
                "a",
                stdout=out(
                    {
                        "continue": False,
                        "stopReason": "deny halt",
                        **json.loads(pre("deny", "nope")),
                    }
                ),
            ),
        ),
    ),
    Case(
        "permission-pre-allow-skips-request",
        "a PreToolUse allow decides: no PermissionRequest",
        (Hook("a", stdout=pre("allow")),),
        args=(),
    ),
    # -- PostToolBatch --------------------------------------------------------------------
    Case(
        "batch-context",
        "PostToolBatch additionalContext",
        (Hook("a", stdout=specific("PostToolBatch", additionalContext="batch note")),),
        event="PostToolBatch",
        matcher=None,
    ),
    Case(
        "batch-block",
        "PostToolBatch decision block",
        (Hook("a", stdout=out({"decision": "block", "reason": "batch says stop"})),),
        event="PostToolBatch",
        matcher=None,
    ),
    Case(
        "batch-exit2",
        "PostToolBatch exit 2",
        (Hook("a", exit=2, stderr="batch stderr"),),
        event="PostToolBatch",
        matcher=None,
    ),
    # -- handler forms and more output rules ---------------------------------------------
    Case(
        "pre-project-dir-variable",
        "the command sees $CLAUDE_PROJECT_DIR (the project)",
        (
            Hook(
                "a",
                exit=2,
                stderr="via project dir",
                command='test -d "$CLAUDE_PROJECT_DIR/.claude" && {script}',
            ),
        ),
    ),
    Case(
        "pre-exec-form",
        "exec form: `args` with the command run directly, no shell",
        (Hook("a", exit=2, stderr="exec form", fields={"args": ["one", "two words", "$HOME"]}),),
    ),
    Case(
        "pre-missing-script-on-failure-block",
        "a script that cannot start, with onFailure: block",
        (Hook("spy"), Hook("a", command="{script}.missing", fields={"onFailure": "block"})),
    ),
    Case(
        "pre-missing-script",
        "a script that cannot start: a non-blocking error",
        (Hook("spy"), Hook("a", command="{script}.missing")),
    ),
    Case(
        "pre-async-hook-does-not-block",
        "an async hook's exit 2 cannot block",
        (Hook("a", exit=2, stderr="too late to block", fields={"async": True}),),
    ),
    Case(
        "pre-suppress-output",
        "suppressOutput with allow",
        (Hook("a", stdout=out({"suppressOutput": True, **json.loads(pre("allow"))})),),
    ),
    Case(
        "pre-unknown-top-level-field",
        "an unknown top-level field next to a deny",
        (Hook("a", stdout=out({"surprise": 1, **json.loads(pre("deny", "still no"))})),),
    ),
    Case(
        "pre-wrong-event-name",
        "hookSpecificOutput naming another event",
        (
            Hook(
                "a",
                stdout=out(
                    {
                        "hookSpecificOutput": {
                            "hookEventName": "PostToolUse",
                            "additionalContext": "misfiled",
                        }
                    }
                ),
            ),
        ),
    ),
    Case(
        "pre-system-message-wrong-type",
        "systemMessage as a number",
        (Hook("a", stdout=out({"systemMessage": 7, **json.loads(pre("deny", "typed no"))})),),
    ),
    Case(
        "pre-json-after-text",
        "text before the JSON: not JSON, the tool runs",
        (Hook("a", stdout="note\n" + pre("deny", "hidden")),),
    ),
    Case(
        "pre-json-array",
        "a JSON array on stdout",
        (Hook("a", stdout="[1, 2]"),),
    ),
    Case(
        "pre-legacy-approve",
        "the legacy decision: approve lets the tool run",
        (Hook("a", stdout=out({"decision": "approve", "reason": "fine"})),),
    ),
    Case(
        "pre-two-rewrites",
        "two hooks rewrite the input",
        (
            Hook("a", stdout=pre("allow", updatedInput={"command": "touch {ws}/other"})),
            # The agent takes the rewrite that finishes last, hookd the last declared:
            # the last declared also finishes last here, so both are deterministic.
            Hook(
                "b", stdout=pre("allow", updatedInput={"command": "touch {ws}/rewritten"}), sleep=1
            ),
        ),
    ),
    Case(
        "pre-deny-beats-ask",
        "deny from one hook, ask from another",
        (Hook("a", stdout=pre("ask", "maybe")), Hook("b", stdout=pre("deny", "firm no"))),
    ),
    Case(
        "pre-exit-3",
        "exit 3 is a non-blocking error",
        (Hook("a", exit=3, stderr="three"),),
    ),
    Case(
        "prompt-continue-false",
        "UserPromptSubmit continue: false stops before the model",
        (Hook("a", stdout=out({"continue": False, "stopReason": "prompt halted"})),),
        event="UserPromptSubmit",
        matcher=None,
    ),
    Case(
        "stop-continue-false",
        "Stop continue: false",
        (Hook("a", stdout=out({"continue": False, "stopReason": "done for today"})),),
        event="Stop",
        matcher=None,
    ),
    Case(
        "stop-json-context",
        "Stop with decision block and a context",
        (
            Hook(
                "a",
                stdout=out(
                    {
                        "decision": "block",
                        "reason": "one more thing",
                        "hookSpecificOutput": {
                            "hookEventName": "Stop",
                            "additionalContext": "stop ctx",
                        },
                    }
                ),
            ),
        ),
        event="Stop",
        matcher=None,
    ),
    Case(
        "post-failure-exit2",
        "PostToolUseFailure exit 2: stderr to the model",
        (Hook("a", exit=2, stderr="failure feedback"),),
        event="PostToolUseFailure",
        tool_command="exit 3",
    ),
    Case(
        "session-start-matcher-startup",
        "SessionStart matcher `startup`",
        (Hook("a", stdout="startup only", matcher="startup"),),
        event="SessionStart",
        matcher=None,
    ),
    Case(
        "session-start-matcher-resume-misses",
        "SessionStart matcher `resume` does not run on a new session",
        (Hook("a", stdout="never", matcher="resume"),),
        event="SessionStart",
        matcher=None,
    ),
    # -- background hooks: {"async": true} on the first line, and async in settings -------
    Case(
        "async-reply-pre-tool-use",
        'a PreToolUse hook answers {"async": true} first: the tool runs at once; its later '
        "deny is ignored, its context reaches the model on a later turn",
        (
            Hook(
                "a",
                first_line=ASYNC,
                stdout=pre("deny", "too late", additionalContext="late pre ctx"),
            ),
        ),
        tool_command=WAIT_FOR_A,
        later="late pre ctx",
    ),
    Case(
        "async-reply-exit2",
        "after the async line, exit 2 with stderr: nothing blocks, the stderr never reaches "
        "the model, the systemMessage does",
        (
            Hook(
                "a",
                first_line=ASYNC,
                stdout=out({"systemMessage": "late sys msg"}),
                exit=2,
                stderr="late stderr",
            ),
        ),
        tool_command=WAIT_FOR_A,
        later="late sys msg",
        absent="late stderr",
    ),
    Case(
        "async-reply-other-event-name",
        "a background answer's hookSpecificOutput for another event still delivers its "
        "context (a waited-for answer would be void)",
        (
            Hook(
                "a",
                first_line=ASYNC,
                stdout=specific("PostToolUse", additionalContext="misnamed ctx"),
            ),
        ),
        tool_command=WAIT_FOR_A,
        later="misnamed ctx",
    ),
    Case(
        "async-reply-not-boolean",
        '{"async": "yes"} is no async reply: the hook is waited for and its exit 2 blocks',
        (Hook("a", first_line='{"async": "yes"}', exit=2, stderr="waited for"),),
    ),
    Case(
        "async-reply-user-prompt-submit",
        "UserPromptSubmit goes to the background too: the prompt goes on, the context comes "
        "on a later turn",
        (
            Hook(
                "a",
                first_line=ASYNC,
                stdout=specific("UserPromptSubmit", additionalContext="late prompt ctx"),
            ),
        ),
        event="UserPromptSubmit",
        matcher=None,
        tool_command=WAIT_FOR_A,
        later="late prompt ctx",
    ),
    Case(
        "async-reply-past-async-timeout",
        "the agent enforces no asyncTimeout (it logs it): the answer after it still comes; "
        "hookd stops the hook then (kept)",
        (
            Hook(
                "a",
                first_line='{"async": true, "asyncTimeout": 300}',
                sleep=2,
                stdout=out({"systemMessage": "after its asyncTimeout"}),
            ),
        ),
        tool_command=WAIT_FOR_A,
        later="after its asyncTimeout",
        hookd_stops=True,
    ),
    Case(
        "async-settings-past-timeout",
        "an async hook in settings runs past its timeout in the agent; hookd stops it (kept)",
        (
            Hook(
                "a",
                sleep=2,
                stdout=out({"systemMessage": "async past its timeout"}),
                fields={"async": True, "timeout": 1},
            ),
        ),
        tool_command=WAIT_FOR_A,
        later="async past its timeout",
        hookd_stops=True,
    ),
    Case(
        "async-settings-session-start-plain-text",
        "an async SessionStart hook's plain stdout is not context (a waited-for one's is)",
        (Hook("a", stdout="plain async text", fields={"async": True}),),
        event="SessionStart",
        matcher=None,
        tool_command=WAIT_FOR_A,
        absent="plain async text",
    ),
    # -- subagent frontmatter hooks (.claude/agents/*.md) ---------------------------------
    Case(
        "subagent-frontmatter-pre-blocks",
        "a subagent's frontmatter PreToolUse hook runs inside it (agent_type names it) and "
        "blocks its tool",
        (Hook("a"), Hook("fm", exit=2, stderr="frontmatter says no", layers=())),
        **IN_CHECKER,
        files={**checker_agent("PreToolUse", "Bash", "fm.sh"), **TRUSTED},
    ),
    Case(
        "subagent-frontmatter-untrusted-project",
        "a project subagent's frontmatter hooks do not run where the project was never "
        "trusted in Claude Code (~/.claude.json)",
        (Hook("a"), Hook("fm", exit=2, stderr="frontmatter says no", layers=())),
        **IN_CHECKER,
        files=checker_agent("PreToolUse", "Bash", "fm.sh"),
    ),
    Case(
        "subagent-frontmatter-user-agent",
        "a subagent of the user's (~/.claude/agents) runs its frontmatter hooks, trust or not",
        (Hook("a"), Hook("fm", exit=2, stderr="user frontmatter says no", layers=())),
        **IN_CHECKER,
        files=checker_agent("PreToolUse", "Bash", "fm.sh", folder="{home}"),
    ),
    Case(
        "subagent-frontmatter-stop-is-subagent-stop",
        "a subagent's frontmatter Stop hook runs on its SubagentStop",
        (Hook("a"), Hook("fm", stdout=out({"systemMessage": "sub stopped"}), layers=())),
        event="SubagentStop",
        matcher=None,
        **IN_CHECKER,
        files={**checker_agent("Stop", None, "fm.sh"), **TRUSTED},
    ),
    Case(
        "subagent-frontmatter-not-on-main-thread",
        "a subagent's frontmatter hook never runs for the main thread's tools",
        (Hook("a"), Hook("fm", exit=2, stderr="never here", layers=())),
        files={**checker_agent("PreToolUse", "Bash", "fm.sh"), **TRUSTED},
    ),
    Case(
        "subagent-frontmatter-same-as-settings",
        "a frontmatter handler that a settings file also declares runs once",
        (Hook("a"),),
        **IN_CHECKER,
        files={**checker_agent("PreToolUse", "Bash", "a.sh"), **TRUSTED},
        every_run=True,
    ),
    Case(
        "subagent-frontmatter-yaml-1-2",
        "frontmatter is YAML 1.2 (Bun's parser): `timeout: 0o1` is one second, and the hook "
        "that sleeps past it does not block (YAML 1.1 reads a string there)",
        (Hook("a"), Hook("fm", exit=2, stderr="too late", sleep=3, layers=())),
        **IN_CHECKER,
        files={**checker_agent("PreToolUse", "Bash", "fm.sh", more="timeout: 0o1"), **TRUSTED},
    ),
    Case(
        "subagent-frontmatter-once",
        "`once: true` in a subagent's frontmatter is not honoured: the hook runs on each of "
        "the subagent's two Bash calls",
        (Hook("fm", layers=()),),
        turns=SUBAGENT_CHECKER,
        subagent_turns=TWO_CALLS,
        args=("--allowedTools", "Bash,Agent"),
        files={**checker_agent("PreToolUse", "Bash", "fm.sh", more="once: true"), **TRUSTED},
        agent_runs={"fm": 2},
    ),
    # -- http hooks: onFailure, header interpolation, credentials -------------------------
    Case(
        "pre-http-non-2xx-continues",
        "an http hook answering 500 without onFailure: a non-blocking error, the tool runs",
        (Hook("a", http={"status": 500, "body": "boom"}),),
    ),
    Case(
        "pre-http-on-failure-status",
        "onFailure: block on an http hook answering 503 blocks (`HTTP 503 from <url>`)",
        (Hook("a", http={"status": 503, "body": "down"}, fields=BLOCK_ON_FAILURE),),
    ),
    Case(
        "pre-http-on-failure-refused",
        "onFailure: block on an http hook whose connection is refused blocks "
        "(`connect ECONNREFUSED 127.0.0.1:<port>`)",
        (Hook("a", http={"refused": True}, fields=BLOCK_ON_FAILURE),),
    ),
    Case(
        "pre-http-on-failure-timeout",
        "onFailure: block on an http hook past its timeout blocks",
        (Hook("a", http={"delay": 3}, fields={"timeout": 1, **BLOCK_ON_FAILURE}),),
    ),
    Case(
        "pre-http-on-failure-plain-body",
        "onFailure: block on an http hook answering 200 with text that is not JSON blocks",
        (Hook("a", http={"body": "not json at all"}, fields=BLOCK_ON_FAILURE),),
    ),
    Case(
        "pre-http-on-failure-schema",
        "onFailure: block on an http hook whose JSON fails the output schema blocks, with "
        "the validation error",
        (Hook("a", http={"body": WRONG_TYPE}, fields=BLOCK_ON_FAILURE),),
    ),
    Case(
        "pre-http-on-failure-other-event",
        "onFailure: block on an http hook whose hookSpecificOutput names another event "
        "blocks (`Failed to run: Hook returned incorrect event name ...`)",
        (Hook("a", http={"body": OTHER_EVENT}, fields=BLOCK_ON_FAILURE),),
    ),
    Case(
        "pre-on-failure-other-event",
        "onFailure: block on a command hook whose hookSpecificOutput names another event "
        "blocks, in the same words",
        (Hook("a", stdout=OTHER_EVENT, fields=BLOCK_ON_FAILURE),),
    ),
    Case(
        "pre-http-empty-200-allows",
        "onFailure: block on an http hook answering an empty 200: a success, the tool runs",
        (Hook("a", http={"status": 200}, fields=BLOCK_ON_FAILURE),),
    ),
    Case(
        "pre-http-headers-interpolation",
        "header values interpolate $NAME / ${NAME} of capitals, digits and _ only: "
        "`$lower` stays as written, `$Mixed` is `$M` then `ixed`",
        (
            Hook(
                "a",
                http={},
                fields={
                    "headers": {
                        "X-Lower": "a$lower_var b${lower_var}c",
                        "X-Mixed": "[$Mixed]",
                        "X-Upper": "$MY_PLAIN/${MY_PLAIN}x$MY_PLAINx",
                        "X-Unlisted": "<$MY_OTHER>",
                    },
                    "allowedEnvVars": ["lower_var", "Mixed", "MY_PLAIN"],
                },
            ),
        ),
        env=INTERPOLATED,
    ),
    Case(
        "pre-http-headers-credentials",
        "allowedEnvVars names them all: the agent's own credentials and what it keeps from "
        "remote sinks (NPM_TOKEN, ANTHROPIC_API_KEY, OTEL_*, ...) stay empty; GITHUB_TOKEN, "
        "HF_TOKEN and other names pass",
        (
            Hook(
                "a",
                http={},
                fields={
                    "headers": {
                        f"X-{name}": f"${{{name}}}" for name in ("ANTHROPIC_API_KEY", *CREDENTIALS)
                    },
                    "allowedEnvVars": ["ANTHROPIC_API_KEY", *CREDENTIALS],
                },
            ),
        ),
        env={"ANTHROPIC_API_KEY": "dummy", **CREDENTIALS},
    ),
    Case(
        "pre-env-own-credentials",
        "a command hook's environment is the agent's without its own credentials "
        "(CLAUDE_CODE_SLACK_TAG_TOKEN) and telemetry settings; ANTHROPIC_API_KEY and other "
        "services' credentials pass",
        (Hook("a", env_seen=("ANTHROPIC_API_KEY", *CREDENTIALS)),),
        env={"ANTHROPIC_API_KEY": "dummy", **CREDENTIALS},
    ),
    # -- plugins, installed into the agent from a local marketplace ----------------------
    Case(
        "plugin-hook-blocks",
        "a plugin's PreToolUse hook blocks; it sees CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA",
        (),
        plugins=(Plugin("guard", (Hook("g", exit=2, stderr="plugin says no"),)),),
    ),
    Case(
        "plugin-user-enabled-untrusted-folder",
        "a plugin the user installed (enabled in the user's settings) runs in a folder "
        "never allowed with 'hookd allow': the user's own, as under the agent (issue 28)",
        (),
        plugins=(Plugin("guard", (Hook("g", exit=2, stderr="plugin says no"),)),),
        trust_on=True,
    ),
    Case(
        "plugin-and-settings-contexts",
        "a plugin hook and a settings hook both add context",
        (Hook("s", stdout=pre("allow", additionalContext="from settings")),),
        plugins=(
            Plugin("notes", (Hook("n", stdout=pre("allow", additionalContext="from plugin")),)),
        ),
    ),
    Case(
        "plugin-disabled-by-project",
        "enabledPlugins false in the project turns the user's plugin off",
        (Hook("spy"),),
        extra_settings={"enabledPlugins": {"guard@hookd-test": False}},
        plugins=(Plugin("guard", (Hook("g", exit=2, stderr="never"),)),),
    ),
    Case(
        "plugin-disable-all-hooks",
        "disableAllHooks turns plugin hooks off too",
        (),
        extra_settings={"disableAllHooks": True},
        plugins=(Plugin("guard", (Hook("g", exit=2, stderr="never"),)),),
    ),
    Case(
        "plugin-same-handler-as-settings",
        "the same command in a plugin and in a settings file runs twice",
        (Hook("twin", command="{ws}/../hooks/twin.sh"),),
        plugins=(Plugin("twin", (Hook("twin", command="{ws}/../hooks/twin.sh"),)),),
        every_run=True,
    ),
    Case(
        "plugin-two-plugins",
        "two plugins' hooks both run; one denies",
        (),
        plugins=(
            Plugin("one", (Hook("p1", stdout=pre("allow", additionalContext="one ok")),)),
            Plugin("two", (Hook("p2", stdout=pre("deny", "two says no")),)),
        ),
    ),
    Case(
        "plugin-prepend-append-plugins",
        "prependPlugins / appendPlugins order only plugins' JavaScript hooks modules: the "
        "agent skips ids with none, and their hooks.json hooks run as before",
        (Hook("a", stdout=pre("allow", additionalContext="settings ok")),),
        layer_settings={
            "user": {"prependPlugins": ["two@hookd-test"], "appendPlugins": ["one@hookd-test"]}
        },
        plugins=(
            Plugin("one", (Hook("p1", stdout=pre("allow", additionalContext="one ok")),)),
            Plugin("two", (Hook("p2", stdout=pre("deny", "two says no")),)),
        ),
    ),
    Case(
        "plugin-option-env",
        "pluginConfigs options reach the hook as CLAUDE_PLUGIN_OPTION_<KEY>",
        (),
        layer_settings={
            "user": {
                "pluginConfigs": {
                    "opts@hookd-test": {"options": {"api_level": "3", "verbose": True}}
                }
            }
        },
        plugins=(
            Plugin(
                "opts",
                (Hook("o", exit=2, stderr="opts"),),
                manifest={
                    "userConfig": {
                        "api_level": {
                            "type": "string",
                            "title": "API level",
                            "description": "level",
                        },
                        "verbose": {"type": "boolean", "title": "Verbose", "description": "talk"},
                    }
                },
            ),
        ),
    ),
    Case(
        "plugin-exec-form-user-config",
        "exec form: ${user_config.KEY} in args is filled in",
        (),
        layer_settings={
            "user": {"pluginConfigs": {"exe@hookd-test": {"options": {"level": "high"}}}}
        },
        plugins=(
            Plugin(
                "exe",
                (
                    Hook(
                        "x",
                        exit=2,
                        stderr="exec plugin",
                        fields={"args": ["${user_config.level}", "${CLAUDE_PLUGIN_ROOT}"]},
                    ),
                ),
                manifest={
                    "userConfig": {
                        "level": {"type": "string", "title": "Level", "description": "level"}
                    }
                },
            ),
        ),
    ),
    Case(
        "plugin-matcher-misses",
        "a plugin hook whose matcher names another tool",
        (Hook("spy"),),
        plugins=(Plugin("guard", (Hook("g", exit=2, stderr="never", matcher="Write"),)),),
    ),
    # -- the strict output schema (2.1.328): a wrongly typed field voids the whole output --
    Case(
        "prompt-session-title-wrong-type",
        "UserPromptSubmit sessionTitle as a number: the context beside it is lost",
        (
            Hook(
                "a",
                stdout=specific(
                    "UserPromptSubmit", additionalContext="lost prompt ctx", sessionTitle=5
                ),
            ),
        ),
        event="UserPromptSubmit",
        matcher=None,
        absent="lost prompt ctx",
    ),
    Case(
        "pre-top-level-decision-deny",
        "a top-level decision other than approve/block: the output is no usable answer",
        (
            Hook(
                "a",
                stdout=out(
                    {
                        "decision": "deny",
                        "reason": "lost reason",
                        **json.loads(pre("allow", additionalContext="lost pre ctx")),
                    }
                ),
            ),
        ),
        absent="lost pre ctx",
    ),
    Case(
        "post-classifier-context-wrong-type",
        "PostToolUse classifierContext as a number: the context beside it is lost",
        (
            Hook(
                "a",
                stdout=specific(
                    "PostToolUse", additionalContext="lost post ctx", classifierContext=3
                ),
            ),
        ),
        event="PostToolUse",
        absent="lost post ctx",
    ),
    Case(
        "pre-decision-unknown-with-context",
        "an unknown permissionDecision: the context beside it is lost",
        (Hook("a", stdout=pre("maybe", additionalContext="lost unknown ctx")),),
        absent="lost unknown ctx",
    ),
    Case(
        "session-start-watch-paths-wrong-type",
        "SessionStart watchPaths not a list of strings: the context beside it is lost",
        (
            Hook(
                "a",
                stdout=specific(
                    "SessionStart", additionalContext="lost start ctx", watchPaths="notalist"
                ),
            ),
        ),
        event="SessionStart",
        matcher=None,
        absent="lost start ctx",
    ),
]
