"""The Qwen Code cases, as a table a person can read: each names the event, the hooks (what
each answers, in which file), what the scripted model does, what Qwen Code 0.24.4 did with
the hooks' answers (``Does``, observed on the real agent and written down), and what it
pins (``qwen-research.md`` holds the reading of the agent's code behind them).

Every case runs twice: by the real agent (``qwen -p ... --yolo --output-format json``) and
by hookd on the same files with the payload the agent gave its hooks;
``test_qwen_agent.py`` holds the agent to ``Does`` and hookd's result to what the agent
did. Texts may name ``{home}`` (the case's HOME), ``{ws}`` (the project), ``{hooks}`` (the
hooks' scripts) and ``{system}`` (hookd's system root; the agent is pointed at its
``etc/qwen-code/settings.json`` by ``QWEN_CODE_SYSTEM_SETTINGS_PATH``).
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
    """More handler keys (``timeout`` in seconds, ``name``, ``env``, ``shell``)."""
    group: dict[str, Any] = field(default_factory=dict)
    """More keys of its group (``sequential``)."""
    matcher: str | None = None
    """Its group's matcher, else the case's; ``NO_MATCHER``: none."""
    layers: tuple[str, ...] = ("user",)
    """Where it is declared: ``user`` (``~/.qwen/settings.json``), ``project``
    (``<ws>/.qwen/settings.json``), ``system`` and ``system-defaults``."""
    event: str | None = None
    """Another event than the case's."""
    command: str = "{script}"
    """The handler's command (run by ``bash -c``); ``{script}`` is the hook's script."""
    every_run: bool = False
    """It answers on every run (by default only its first run answers)."""
    child: str = ""


NO_MATCHER = "\0none"
"""A hook whose group has no ``matcher`` key, whatever the case's matcher."""


@dataclass(frozen=True)
class Does:
    """What Qwen Code 0.24.4 did (observed, then written down: the agent is held to it)."""

    ran: bool = True
    """The scripted tool call ran as asked (its command created ``ran``)."""
    requests: int = 2
    """How many model requests (with tools) the run made."""
    tool_result: str | None = None
    """The first tool result the model was sent (None: not checked)."""
    later: tuple[str, ...] | None = None
    """The text parts of the last request's last user message."""
    stderr: tuple[str, ...] = ()
    result: str | None = None
    """The JSON answer's ``result`` text."""
    counts: dict[str, int] = field(default_factory=dict)
    """How often hooks ran (a hook not named: once)."""
    killed: tuple[str, ...] = ()
    """Hooks that never finished (killed at their timeout)."""
    exit: int = 0
    action: str | None = None
    """What the agent did next in the fire result's words, where the run shows it only
    through ``requests`` (None: read from the run: the tool ran, the model was asked)."""
    requests_before_stop: int = 2
    """The requests before the first Stop (its continuation is the next one)."""


@dataclass(frozen=True)
class Case:
    id: str
    about: str
    hooks: tuple[Hook, ...]
    does: Does
    event: str = "PreToolUse"
    matcher: str | None = NO_MATCHER
    tool_command: str = "touch {ws}/ran"
    turns: tuple[dict[str, Any], ...] | None = None
    """The scripted model turns when not one ``run_shell_command`` of ``tool_command`` then
    a text (``{"tool": name, "args": {...}}``, ``{"text": ...}``)."""
    prompt: str = "do the task case:{id}"
    cwd: str = "{ws}"
    env: dict[str, str] = field(default_factory=dict)
    """More of the agent's environment (hookd's fire gets it too)."""
    settings: dict[str, dict[str, Any]] = field(default_factory=dict)
    """More top-level keys of a layer's settings (``{"user": {"disableAllHooks": true}}``)."""
    raw: dict[str, str] = field(default_factory=dict)
    """A layer's whole file text instead (broken JSON, comments)."""
    files: dict[str, str] = field(default_factory=dict)
    timeout: float = 60
    format: str = "json"
    xfail: str | None = None


def out(obj: Any) -> str:
    return json.dumps(obj)


def specific(**fields: Any) -> str:
    """A ``hookSpecificOutput`` answer."""
    return out({"hookSpecificOutput": fields})


DENY = out({"decision": "deny", "reason": "RSN-deny"})
READ_MISSING = ({"tool": "read_file", "args": {"file_path": "/nonexistent/zz.txt"}},
                {"text": "All done."})  # fmt: skip
STOP_TURNS = ({"tool": "run_shell_command", "args": {"command": "touch {ws}/ran",
                                                     "description": "t"}},
              {"text": "final answer."}, {"text": "done."})  # fmt: skip
SUBAGENT_TURNS = ({"tool": "agent", "args": {"description": "sub task", "prompt": "say hi",
                                               "subagent_type": "general-purpose"}},
                  {"text": "main final."})  # fmt: skip

# fmt: off
CASES: tuple[Case, ...] = (
    # -- PreToolUse: payload, answers (qwen-research.md §3.1, §5.1, §5.2) ---------------------
    Case("pre-payload", "the payload, variables and folder a PreToolUse hook gets; an empty "
         "answer lets the tool run", (Hook("pre"),), Does()),
    Case("pre-deny", "a top-level deny: the tool does not run, the model gets the reason "
         "alone as the tool result", (Hook("pre", stdout=DENY),),
         Does(ran=False, tool_result="RSN-deny")),
    Case("pre-block-noreason", "decision block without a reason: No reason provided",
         (Hook("pre", stdout=out({"decision": "block"})),),
         Does(ran=False, tool_result="No reason provided")),
    Case("pre-hso-deny", "hookSpecificOutput.permissionDecision deny with its reason",
         (Hook("pre", stdout=specific(permissionDecision="deny",
                                      permissionDecisionReason="RSN-hso")),),
         Does(ran=False, tool_result="RSN-hso")),
    Case("pre-exit2-stderr", "exit 2 with text on stderr: a deny with that text",
         (Hook("pre", exit=2, stderr="RSN-e2"),), Does(ran=False, tool_result="RSN-e2")),
    Case("pre-exit2-stdout-json", "exit 2 with the deny JSON on stdout and nothing on stderr "
         "(the documentation's own example): nothing blocks",
         (Hook("pre", exit=2, stdout=DENY),), Does()),
    Case("pre-exit2-stderr-allow", "exit 2 with allow JSON on stderr: it allows",
         (Hook("pre", exit=2, stderr=out({"decision": "allow"})),), Does()),
    Case("pre-exit1-json", "exit 1 with deny JSON on stdout: JSON counts on any code",
         (Hook("pre", exit=1, stdout=DENY),), Does(ran=False, tool_result="RSN-deny")),
    Case("pre-stderr-json", "exit 0, nothing on stdout, deny JSON on stderr: blocked",
         (Hook("pre", stderr=DENY),), Does(ran=False, tool_result="RSN-deny")),
    Case("pre-exit3-text", "exit 3 with plain text: plain text never blocks but on exit 2",
         (Hook("pre", exit=3, stdout="nope"),), Does()),
    Case("pre-bad-json", "text that starts with { and does not parse: a failed hook, no "
         "answer", (Hook("pre", stdout='{"decision": "deny"'),), Does()),
    Case("pre-double-json", "a JSON string holding the answer is parsed again",
         (Hook("pre", stdout=json.dumps(DENY)),), Does(ran=False, tool_result="RSN-deny")),
    Case("pre-ask", "permissionDecision ask: headless, refused with its reason",
         (Hook("pre", stdout=specific(permissionDecision="ask",
                                      permissionDecisionReason="RSN-ask")),),
         Does(ran=False, tool_result="RSN-ask", action="ask")),
    Case("pre-continue-false", "continue false: the tool does not run, the model gets the "
         "stopReason and the agent goes on",
         (Hook("pre", stdout=out({"continue": False, "stopReason": "RSN-stop"})),),
         Does(ran=False, tool_result="RSN-stop")),
    Case("pre-system-message", "a PreToolUse systemMessage goes to the debug log only; the tool "
         "runs", (Hook("pre", stdout=out({"systemMessage": "SM-pre"})),), Does()),
    Case("pre-updated-input", "PreToolUse updatedInput is ignored: the original command runs",
         (Hook("pre", stdout=specific(hookEventName="PreToolUse", permissionDecision="allow",
                                      updatedInput={"command": "touch {ws}/rewritten"})),),
         Does()),
    Case("pre-hso-allow-beats-block", "one hook's top-level block, another's "
         "permissionDecision allow: the allow is read first and the tool runs",
         (Hook("a", stdout=out({"decision": "block", "reason": "RA"})),
          Hook("b", stdout=specific(permissionDecision="allow"))), Does()),
    Case("pre-merge-reasons", "block, allow and an hso deny: blocked with the hso reason",
         (Hook("a", stdout=out({"decision": "block", "reason": "RA"})),
          Hook("b", stdout=out({"decision": "allow", "reason": "RB"})),
          Hook("c", stdout=specific(permissionDecision="deny", permissionDecisionReason="RC"))),
         Does(ran=False, tool_result="RC")),
    # -- matchers (§2.1) ---------------------------------------------------------------------
    Case("match-bash-alias", "matcher Bash: Claude's name matches run_shell_command exactly",
         (Hook("pre", stdout=DENY, matcher="Bash"),), Does(ran=False, tool_result="RSN-deny")),
    Case("match-anchored-alias", "^Bash$ is a regular expression, tried on the id only: no "
         "match", (Hook("probe"), Hook("pre", stdout=DENY, matcher="^Bash$")),
         Does(counts={"pre": 0})),
    Case("match-write-alias", "matcher Write: Claude's name for write_file",
         (Hook("pre", stdout=DENY, matcher="Write"),),
         Does(ran=False, tool_result="RSN-deny"),
         turns=({"tool": "write_file", "args": {"file_path": "{ws}/ran", "content": "x"}},
                {"text": "All done."})),
    Case("match-regex", "run_.* matches the id as an unanchored regular expression",
         (Hook("pre", stdout=DENY, matcher="run_.*"),), Does(ran=False, tool_result="RSN-deny")),
    Case("match-alternatives", "Edit|Bash: an alternative that is an alias matches; "
         "Write|Edit does not", (Hook("pre", matcher="Edit|Bash"),
                                 Hook("other", matcher="Write|Edit")),
         Does(counts={"other": 0})),
    Case("match-lowercase", "matchers are case-sensitive: bash does not match, shell does "
         "(a substring of the id)", (Hook("probe", matcher="shell"),
                                     Hook("pre", matcher="bash")),
         Does(counts={"pre": 0})),
    # -- running (§4) ------------------------------------------------------------------------
    Case("timeout-seconds", "timeout 1 is one second: the hook is killed, the tool runs",
         (Hook("slow", sleep=4, stdout=DENY, fields={"timeout": 1}),),
         Does(killed=("slow",))),
    Case("timeout-ms", "timeout 1500 is read as milliseconds",
         (Hook("slow", sleep=4, stdout=DENY, fields={"timeout": 1500}),),
         Does(killed=("slow",))),
    Case("parallel", "an event's hooks start together",
         (Hook("a", sleep=1), Hook("b", sleep=1), Hook("c", sleep=1)), Does()),
    Case("sequential", "one group's sequential: true makes the whole event run in order",
         (Hook("a", sleep=0.5), Hook("b", sleep=0.5, group={"sequential": True}),
          Hook("c", sleep=0.5)), Does()),
    Case("sequential-chain", "in order, a hook's tool_input reaches the next hook (never the "
         "tool)", (Hook("a", stdout=specific(tool_input={"command": "touch {ws}/rewritten"}),
                        group={"sequential": True}), Hook("b")), Does()),
    Case("layers-order", "project first, then user, system defaults, system (in order)",
         (Hook("usr", layers=("user",), group={"sequential": True}),
          Hook("sys", layers=("system",)), Hook("sd", layers=("system-defaults",)),
          Hook("prj", layers=("project",))), Does()),
    Case("dedup-nameless", "the same nameless command in the user's and the project's file "
         "runs once", (Hook("dup", layers=("user", "project")),), Does()),
    Case("dedup-named", "the same command under two names runs twice",
         (Hook("n1", fields={"name": "N1"}),
          Hook("n2", command="{hooks}/n1.sh", fields={"name": "N2"})),
         Does(counts={"n1": 2, "n2": 0})),
    Case("disable-user-project-false", "the user's disableAllHooks true, the project's false: "
         "the project's wins, hooks run", (Hook("pre"),),
         Does(), settings={"user": {"disableAllHooks": True},
                           "project": {"disableAllHooks": False}}),
    Case("env-expansion", "$VAR and ${VAR} of the agent's environment are put in at load, even "
         "in single quotes; an unset one is left to bash",
         (Hook("pre", command="{script} \"$CASE_FOO\" '${CASE_FOO}' \"x$CASE_NOPE\""),),
         Does(), env={"CASE_FOO": "qwenval"}),
    Case("hook-env", "the handler's env comes last, over QWEN_PROJECT_DIR",
         (Hook("pre", fields={"env": {"QWEN_PROJECT_DIR": "/override", "CASE_X": "1"}}),),
         Does()),
    Case("powershell", "shell powershell: it cannot start here, a failure that lets the tool "
         "run", (Hook("probe"), Hook("ps", stdout=DENY, fields={"shell": "powershell"})),
         Does(counts={"ps": 0})),
    Case("broken-project-file", "a project file that is not JSON counts as empty; the user's "
         "hooks run", (Hook("pre"),), Does(), raw={"project": "{nope"}),
    # -- PostToolUse, PostToolUseFailure, PostToolBatch (§5.3-§5.5) ----------------------------
    Case("post-context", "additionalContext is appended to the tool result, < and > escaped",
         (Hook("post", stdout=specific(additionalContext="CTX-post <b>&")),), Does(),
         event="PostToolUse"),
    Case("post-block-ignored", "PostToolUse decision block does nothing",
         (Hook("post", stdout=out({"decision": "block", "reason": "RSN-post"})),), Does(),
         event="PostToolUse"),
    Case("post-continue-false", "continue false replaces the tool result with the stopReason",
         (Hook("post", stdout=out({"continue": False, "stopReason": "RSN-poststop"})),),
         Does(tool_result="RSN-poststop", action="block"), event="PostToolUse"),
    Case("post-exit2", "exit 2 on PostToolUse blocks nothing",
         (Hook("post", exit=2, stderr="RSN-e2"),), Does(), event="PostToolUse"),
    Case("failure-context", "PostToolUseFailure: the context follows the error",
         (Hook("fail", stdout=specific(additionalContext="CTX-fail")),),
         Does(ran=False, tool_result="File not found: /nonexistent/zz.txt\n\nCTX-fail"),
         event="PostToolUseFailure", turns=READ_MISSING),
    Case("failure-block-ignored", "PostToolUseFailure ignores a block and continue false",
         (Hook("fail", stdout=out({"decision": "block", "continue": False,
                                   "stopReason": "RSN-f"})),),
         Does(ran=False, tool_result="File not found: /nonexistent/zz.txt"),
         event="PostToolUseFailure", turns=READ_MISSING),
    Case("batch-context", "PostToolBatch: the context follows the last result",
         (Hook("batch", stdout=specific(additionalContext="CTX-batch")),), Does(),
         event="PostToolBatch"),
    Case("batch-block", "PostToolBatch block: the last result is the reason, the agent goes on",
         (Hook("batch", stdout=out({"decision": "block", "reason": "RSN-ptb"})),),
         Does(tool_result="RSN-ptb", action="block"), event="PostToolBatch"),
    Case("batch-continue-false", "PostToolBatch continue false stops the batch too: the last "
         "result is the stopReason", (Hook("batch", stdout=out({"continue": False,
                                                                  "stopReason": "RSN-ptbs"})),),
         Does(tool_result="RSN-ptbs", action="block"), event="PostToolBatch"),
    # -- UserPromptSubmit (§5.6) ---------------------------------------------------------------
    Case("ups-context", "the context is a tagged part after the prompt; the hook runs again "
         "with an empty prompt on the tool-result turn",
         (Hook("ups", stdout=specific(additionalContext="CTX-ups <x>")),),
         Does(counts={"ups": 2}), event="UserPromptSubmit"),
    Case("ups-plain", "plain stdout on exit 0 is context (Claude's rule)",
         (Hook("ups", stdout="CTX-plain"),), Does(counts={"ups": 2}),
         event="UserPromptSubmit"),
    Case("ups-sequential-chain", "in order, a prompt's context is added to the prompt the "
         "next hook gets", (Hook("a", stdout=specific(additionalContext="CTX-A"),
                                 group={"sequential": True}), Hook("b")),
         Does(counts={"a": 2, "b": 2}), event="UserPromptSubmit"),
    Case("ups-block", "a block: no model call, the prompt ends, exit 0",
         (Hook("ups", stdout=out({"decision": "block", "reason": "RSN-ups"})),),
         Does(ran=False, requests=0, result=""), event="UserPromptSubmit"),
    Case("ups-continue-false", "UserPromptSubmit continue false ends the prompt too",
         (Hook("ups", stdout=out({"continue": False, "stopReason": "RSN-upsc"})),),
         Does(ran=False, requests=0, result=""), event="UserPromptSubmit"),
    Case("ups-ask", "UserPromptSubmit decision ask is not acted on: the prompt goes on",
         (Hook("ups", stdout=out({"decision": "ask", "reason": "RSN-ask"})),),
         Does(counts={"ups": 2}), event="UserPromptSubmit"),
    Case("ups-exit2", "exit 2 with stderr blocks the prompt",
         (Hook("ups", exit=2, stderr="RSN-ups"),), Does(ran=False, requests=0),
         event="UserPromptSubmit"),
    # -- Stop (§5.7) -----------------------------------------------------------------------------
    Case("stop-block", "a Stop block sends the reason as a new user turn; the agent goes on",
         (Hook("stop", stdout=out({"decision": "block", "reason": "RSN-stop"})),),
         Does(requests=3, later=("RSN-stop",), counts={"stop": 2}, action="block"),
         event="Stop", turns=STOP_TURNS),
    Case("stop-continue-false", "Stop continue false continues too, with the stopReason",
         (Hook("stop", stdout=out({"continue": False, "stopReason": "RSN-sr"})),),
         Does(requests=3, later=("RSN-sr",), counts={"stop": 2}, action="block"),
         event="Stop", turns=STOP_TURNS),
    Case("stop-cap", "a Stop hook that always blocks: the 8th block in a row ends the turn",
         (Hook("stop", stdout=out({"decision": "block", "reason": "RSN-again"}),
               every_run=True),),
         Does(requests=9, later=("RSN-again",), counts={"stop": 8}, action="block"),
         event="Stop", turns=STOP_TURNS),
    Case("stop-exit2", "Stop exit 2 with stderr continues the agent with the text",
         (Hook("stop", exit=2, stderr="RSN-stop2"),),
         Does(requests=3, later=("RSN-stop2",), counts={"stop": 2}, action="block"),
         event="Stop", turns=STOP_TURNS),
    Case("stop-quiet", "a Stop hook that says nothing: the turn ends",
         (Hook("stop"),), Does(), event="Stop", turns=STOP_TURNS),
    # -- session and notification events (§3.2, §5.8) -------------------------------------------
    Case("session-start-context", "SessionStart's context goes into the system prompt",
         (Hook("ss", stdout=specific(additionalContext="CTX-ss <y>")),), Does(),
         event="SessionStart"),
    Case("session-start-block-ignored", "SessionStart ignores a block and continue false",
         (Hook("ss", stdout=out({"decision": "block", "continue": False})),), Does(),
         event="SessionStart"),
    Case("session-start-plain", "plain stdout on SessionStart is context",
         (Hook("ss", stdout="CTX-plain-ss"),), Does(), event="SessionStart"),
    Case("session-start-matcher", "SessionStart matchers are regular expressions on source",
         (Hook("ss", matcher="start.*"), Hook("resume", matcher="resume")),
         Does(counts={"resume": 0}), event="SessionStart"),
    Case("notification", "Notification auth_success at every start; its matcher is a regular "
         "expression", (Hook("note", matcher="auth_.*"), Hook("perm", matcher="permission_prompt")),
         Does(counts={"perm": 0}), event="Notification"),
    Case("upx-context", "UserPromptExpansion for a custom slash command: its context is added "
         "to the expanded prompt", (Hook("upx", stdout=specific(additionalContext="CTX-upx")),),
         Does(ran=False, requests=1), event="UserPromptExpansion",
         prompt="/foo barg case:{id}", turns=({"text": "All done."},),
         files={"{ws}/.qwen/commands/foo.md": "Expanded foo with {{args}}\n"}),
    Case("subagent-start", "SubagentStart for the agent tool; its matcher is the agent type",
         (Hook("sas", matcher="general-.*"), Hook("other", matcher="Explore")),
         Does(ran=False, requests=4, counts={"other": 0}), event="SubagentStart",
         turns=SUBAGENT_TURNS),
    Case("subagent-stop", "SubagentStop when the subagent ends",
         (Hook("sast"),), Does(ran=False, requests=4), event="SubagentStop",
         turns=SUBAGENT_TURNS),
    Case("pre-compact", "PreCompact (trigger auto) when the context is nearly full",
         (Hook("pc", matcher="auto"),), Does(), event="PreCompact",
         turns=({"tool": "run_shell_command", "prompt_tokens": 199000,
                 "args": {"command": "touch {ws}/ran", "description": "t"}},
                {"text": "All done.", "prompt_tokens": 199000})),
    Case("instructions-loaded", "InstructionsLoaded for the project's \"QWEN.md\"",
         (Hook("il", matcher="QWEN"),), Does(), event="InstructionsLoaded",
         files={"{ws}/QWEN.md": "be brief\n"}),
)
# fmt: on
