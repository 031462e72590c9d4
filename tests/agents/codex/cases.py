"""The Codex CLI cases, as a table a person can read: each names the event, the hooks
(what each answers, in which file), what the scripted model does, what Codex 0.171.0 did
with the hooks' answers (``Does``, observed on the real agent and written down), and what
it pins.

Every case runs twice: by the real agent (``codex app-server``, or ``codex exec``) and by
hookd on the same files with the payload the agent gave its hooks;
``test_codex_agent.py`` holds the agent to ``Does`` and hookd's result to what the agent
did. Texts may name ``{home}`` (the case's HOME), ``{codex}`` (its ``~/.codex``),
``{ws}`` (the project) and ``{hooks}`` (the hooks' scripts).
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
    """More handler keys (``timeout``, ``async``, ``statusMessage``...); ``type`` replaces
    ``command``."""
    matcher: str | None = None
    """Its group's matcher, else the case's; ``""`` writes an empty one, ``NO_MATCHER`` none."""
    layers: tuple[str, ...] = ("user",)
    """Where it is declared: ``user`` (``~/.codex/hooks.json``), ``user-toml``
    (``~/.codex/config.toml`` ``[hooks]``), ``project`` (``<ws>/.codex/hooks.json``),
    ``project-toml`` (``<ws>/.codex/config.toml``), ``plugin`` (the case's plugin)."""
    event: str | None = None
    """Another event than the case's."""
    command: str = "{script}"
    """The handler's command (run by ``/bin/bash -c``); ``{script}`` is the hook's script."""
    trusted: bool = True
    """Its ``trusted_hash`` is in the user's config.toml (as after a review in ``/hooks``)."""
    state: dict[str, Any] = field(default_factory=dict)
    """Other keys of its ``[hooks.state."<key>"]`` (``enabled = false``, a wrong hash)."""
    every_run: bool = False
    """It answers on every run (by default only its first run answers, so that a Stop hook
    that blocks does not make the agent go on forever)."""
    child: str = ""
    """A command it leaves running in the background before it answers (to see that a
    timeout kills the hook's whole process group)."""


NO_MATCHER = "\0none"
"""A hook whose group has no ``matcher`` key, whatever the case's matcher."""


@dataclass(frozen=True)
class Does:
    """What Codex 0.171.0 did (observed, then written down: the agent is held to it)."""

    ran: bool = True
    """The scripted tool call ran as asked (its command created ``ran``)."""
    rewritten: bool = False
    """The command a hook rewrote ran instead (it creates ``rewritten``)."""
    runs: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """A hook's first run as ``hook/completed`` reports it: its status, then each entry as
    ``"kind: text"``. A hook of the case's event not named here: ``completed``, no entries."""
    output: str | None = None
    """The first tool output the model was sent, exactly (None: not checked)."""
    developer: tuple[str, ...] = ()
    """The developer messages the hooks added to the conversation, in order."""
    prompts: tuple[str, ...] = ()
    """The user messages after the case's prompt (a Stop block's ``<hook_prompt>``)."""
    requests: int = 2
    """How many model requests the case made (a subagent's not counted)."""
    sub_requests: int = 0
    """How many model requests a subagent made."""
    sub_developer: tuple[str, ...] = ()
    """The developer messages the hooks added to a subagent's conversation."""
    sub_prompts: tuple[str, ...] = ()
    """The user messages hooks added to a subagent's conversation."""
    sub_output: str | None = None
    """The first tool output a subagent's model was sent, exactly (None: not checked)."""
    counts: dict[str, int] = field(default_factory=dict)
    """How often hooks ran (a hook not named: once)."""
    turn: str = "completed"
    """The last turn's status."""
    warnings: tuple[str, ...] = ()
    """Every discovery warning of ``hooks/list``."""
    config_has: tuple[str, ...] = ()
    """Texts the user's config.toml holds after the run (what Codex wrote there)."""
    killed: tuple[str, ...] = ()
    """Hooks killed at their timeout (they never finished)."""
    asked: bool = False
    """Codex asked the client to approve the command (no hook decided)."""
    shown: tuple[str, ...] = ()
    """Warnings Codex showed the user during the session (``warning`` notifications)
    besides the ones it shows every session."""


@dataclass(frozen=True)
class Plugin:
    """A plugin in the case's local marketplace, added and installed by the real agent
    (``marketplace/add``, ``plugin/install``); its hooks are the case's ``plugin`` hooks."""

    name: str = "guard"


@dataclass(frozen=True)
class Case:
    id: str
    about: str
    hooks: tuple[Hook, ...]
    does: Does
    event: str = "PreToolUse"
    matcher: str | None = "Bash"
    tool_command: str = "touch {ws}/ran"
    """The command of the scripted ``exec_command`` call."""
    turns: tuple[dict[str, Any], ...] | None = None
    """The scripted model turns when not one ``exec_command`` of ``tool_command`` then
    ``done.`` (``{"tool": ..., "args": {...}}``, ``{"custom": ..., "input": ...}``,
    ``{"text": ...}``; ``{ws}`` filled in)."""
    subagent_turns: tuple[dict[str, Any], ...] = ()
    """A subagent's turns (its task carries the tag ``case:<id>-sub``)."""
    mode: str = "app-server"
    """``app-server`` or ``exec`` (``codex exec --json``)."""
    exec_args: tuple[str, ...] = ()
    thread: dict[str, Any] = field(default_factory=dict)
    """More ``thread/start`` params (``approvalPolicy``, ``sandbox``, ``config``)."""
    answers: dict[str, Any] = field(default_factory=dict)
    """How the client answers Codex's requests, by method (approvals)."""
    prompts: tuple[str, ...] = ("do the task",)
    """One turn each (the case's tag is put in front)."""
    interrupt: bool = False
    """Interrupt the turn once its command runs (fires Interrupt)."""
    compact: bool = False
    """Compact the thread after the turns (fires PreCompact, PostCompact)."""
    config: str = ""
    """More top-level keys of the user's config.toml (TOML lines)."""
    tables: str = ""
    """More tables of the user's config.toml (TOML, after the suite's own)."""
    trust_project: bool = True
    """The user's config.toml trusts the project (``[projects."<ws>"]``)."""
    files: dict[str, str] = field(default_factory=dict)
    """More files: path and text, placeholders filled in (written last: a file of the
    hooks' may be replaced whole)."""
    top: dict[str, dict[str, Any]] = field(default_factory=dict)
    """More top-level keys of a layer's hooks.json (``{"user": {"version": 1}}``)."""
    cwd: str = "{ws}"
    """Where the session runs (a sub-folder of the project, say)."""
    env: dict[str, str] = field(default_factory=dict)
    """More of the agent's environment (hookd's fire gets it too)."""
    codex_home: str | None = None
    """``CODEX_HOME`` when not the default ``~/.codex`` (placeholders filled in)."""
    plugin: Plugin | None = None
    differs: str = ""
    """hookd answers otherwise by design (docs/compatibility.md, Codex CLI, "Deliberate
    differences"): why. The case then pins the difference: the hooks hookd runs that
    Codex does not (``hookd_also``) or not the ones Codex runs (``hookd_not``), or that it
    blocks (``hookd_blocks``); what the hooks both ran were given is still compared."""
    hookd_also: tuple[str, ...] = ()
    hookd_not: tuple[str, ...] = ()
    hookd_blocks: bool = False
    xfail: str | None = None


def failed(error: str | None = None) -> tuple[str, ...]:
    """A failed run (``Does.runs``) with Codex's error entry (None: it shows none)."""
    return ("failed",) if error is None else ("failed", f"error: {error}")


def blocked_by(feedback: str) -> tuple[str, ...]:
    """A blocking run with its feedback (the reason)."""
    return ("blocked", f"feedback: {feedback}")


def context(text: str) -> tuple[str, ...]:
    """A completed run that gave the model a context."""
    return ("completed", f"context: {text}")


def warning(text: str) -> tuple[str, ...]:
    """A completed run that showed the user a warning (its systemMessage)."""
    return ("completed", f"warning: {text}")


def stopped(text: str) -> tuple[str, ...]:
    """A run that stopped (``continue: false``), with its stop text."""
    return ("stopped", f"stop: {text}")


def out(obj: Any) -> str:
    return json.dumps(obj)


def pre(decision: str | None = None, reason: str | None = None, **more: Any) -> str:
    """A PreToolUse ``hookSpecificOutput`` answer."""
    spec: dict[str, Any] = {"hookEventName": "PreToolUse"}
    if decision is not None:
        spec["permissionDecision"] = decision
    if reason is not None:
        spec["permissionDecisionReason"] = reason
    return out({"hookSpecificOutput": {**spec, **more}})


def specific(event: str, **fields: Any) -> str:
    """A ``hookSpecificOutput`` answer for ``event``."""
    return out({"hookSpecificOutput": {"hookEventName": event, **fields}})


def blocked(reason: str, command: str = "touch {ws}/ran") -> str:
    """What the model is sent instead of the output of a command a PreToolUse hook blocked."""
    return f"Command blocked by PreToolUse hook: {reason}. Command: {command}"


def rejected(message: str) -> str:
    """What the model is sent when a command's approval was refused (by a hook or the user)."""
    return f'exec_command failed: CreateProcess {{ message: "Rejected(\\"{message}\\")" }}'


def toml_hook(name: str, event: str = "PreToolUse", matcher: str = "Bash") -> str:
    """A ``[hooks]`` table with one handler running the case's hook ``name`` (for the
    system and managed files)."""
    return (f'[[hooks.{event}]]\nmatcher = "{matcher}"\n[[hooks.{event}.hooks]]\n'
            f'type = "command"\ncommand = "{{hooks}}/{name}.sh"\n')  # fmt: skip


OWN_TRUST = (
    "Codex's hook review (a trusted_hash per hook) is not hookd's: under hookd a "
    "workspace's hooks run once `hookd allow` trusts them"
)
W = Hook("w")
"""A witness: a silent hook on the case's event that always runs, so hookd gets the
agent's payload even when the hook under test does not run."""
REWRITE = {"command": "touch {ws}/rewritten"}
ONE_SECOND = {"timeout": 1}
FAILED_1 = failed("hook exited with code 1")
AFTER_A_AND_B = (
    "touch {ws}/ran; i=0; until [ -e {agent}/a.done.0 ] && [ -e {agent}/b.done.0 ] || "
    "[ $i -ge 600 ]; do sleep 0.05; i=$((i+1)); done; sleep 1"
)
"""The marker command, which then waits (30 s at most) until hooks ``a`` and ``b`` have
answered in the background, so that their answers are in when Codex sends the tool's
output."""
WITH_OUTPUT = "touch {ws}/ran && echo tool-said-this"
"""The marker command, with output for PostToolUse's ``tool_response``."""
SLOW = "touch {ws}/started; sleep 30; touch {ws}/ran"
"""A command that runs long enough for the turn to be interrupted (it never finishes)."""
HOOK_PROMPT = '<hook_prompt hook_run_id="stop:0:{{codex}}/hooks.json">{reason}</hook_prompt>'
"""What the model is sent after a Stop hook (the first configured) blocked."""
PATCH = {
    "custom": "apply_patch",
    "input": "*** Begin Patch\n*** Add File: ran\n+made by the patch\n*** End Patch\n",
}
"""The model edits with apply_patch (a freeform tool): it adds the marker file ``ran``."""
REWRITTEN_PATCH = "*** Begin Patch\n*** Add File: rewritten\n+rewritten\n*** End Patch\n"
COMPACTION_PROMPT = (
    "You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary for another "
    "LLM that will resume the task.\n\nInclude:\n- Current progress and key decisions made\n"
    "- Important context, constraints, or user preferences\n- What remains to be done (clear "
    "next steps)\n- Any critical data, examples, or references needed to continue\n\nBe "
    "concise, structured, and focused on helping the next LLM seamlessly continue the work.\n"
)
"""The user message Codex sends the model to compact a thread."""
SUBAGENT: dict[str, Any] = {
    "tables": "\n[features]\nmulti_agent_v2 = true\n\n[agents]\nenabled = true\n",
    "turns": (
        {"tool": "spawn_agent", "namespace": "collaboration",
         "args": {"task_name": "checker", "message": "case:{case}-sub run it", "fork_turns": "none"}},
        {"tool": "wait_agent", "namespace": "collaboration", "args": {"timeout_ms": 10000}},
        {"text": "done."},
    ),
    "subagent_turns": ({"tool": "exec_command", "args": {"cmd": "touch {ws}/ran"}},
                       {"text": "sub done"}),
}  # fmt: skip
"""The model spawns a subagent (without the parent's history), which runs the marker
command, and waits for it."""
ESCALATED = (
    {"tool": "exec_command", "args": {"cmd": "touch {ws}/ran", "sandbox_permissions":
                                      "require_escalated", "justification": "to mark"}},
    {"text": "done."},
)  # fmt: skip
"""The model asks to run the marker command outside the sandbox (Codex asks approval)."""
ON_REQUEST: dict[str, Any] = {
    "thread": {"approvalPolicy": "on-request", "sandbox": "read-only"},
    "answers": {"item/commandExecution/requestApproval": {"decision": "decline"}},
    "turns": ESCALATED,
}
"""A session that asks before running outside the read-only sandbox; the user declines."""

CASES: list[Case] = [
    # -- PreToolUse: exit codes -------------------------------------------------------
    Case("pre-exit0-allows", "exit 0 without output: the tool runs", (Hook("a"),), Does()),
    Case(
        "pre-exit2-blocks",
        "exit 2 blocks; stderr, trimmed, is the reason the model is sent",
        (Hook("a", exit=2, stderr="  no touching here\n"),),
        Does(
            ran=False,
            runs={"a": blocked_by("no touching here")},
            output=blocked("no touching here"),
        ),
    ),
    Case(
        "pre-exit2-no-stderr",
        "exit 2 with nothing on stderr is a failed hook, not a block: the tool runs",
        (Hook("a", exit=2),),
        Does(
            runs={
                "a": failed(
                    "PreToolUse hook exited with code 2 but did not "
                    "write a blocking reason to stderr"
                )
            }
        ),
    ),
    Case(
        "pre-exit2-ignores-stdout",
        "exit 2 with an allow and a rewrite on stdout: stdout is not read, stderr blocks",
        (Hook("a", exit=2, stdout=pre("allow", updatedInput=REWRITE), stderr="by stderr"),),
        Does(ran=False, runs={"a": blocked_by("by stderr")}, output=blocked("by stderr")),
    ),
    Case(
        "pre-exit1-deny-ignored",
        "exit 1 is a failed hook: its JSON deny is not read, the tool runs",
        (Hook("a", exit=1, stdout=pre("deny", "would deny"), stderr="oops"),),
        Does(runs={"a": FAILED_1}),
    ),
    Case(
        "pre-other-exit-codes",
        "exit 3 and exit 127 (a missing program): failed hooks, the tool runs",
        (Hook("a", exit=3, stderr="three"), Hook("b", command="{script}; /no/such/program")),
        Does(
            runs={"a": failed("hook exited with code 3"), "b": failed("hook exited with code 127")}
        ),
    ),
    # -- PreToolUse: JSON answers -----------------------------------------------------
    Case(
        "pre-json-deny",
        "permissionDecision deny with a reason blocks; the reason is trimmed",
        (Hook("a", stdout=pre("deny", "  policy says no \n")),),
        Does(ran=False, runs={"a": blocked_by("policy says no")}, output=blocked("policy says no")),
    ),
    Case(
        "pre-json-deny-no-reason",
        "deny without a reason is rejected (a failed hook): the tool runs",
        (Hook("a", stdout=pre("deny")),),
        Does(
            runs={
                "a": failed(
                    "PreToolUse hook returned permissionDecision:deny "
                    "without a non-empty permissionDecisionReason"
                )
            }
        ),
    ),
    Case(
        "pre-json-deny-blank-reason",
        "deny with a blank reason is rejected too",
        (Hook("a", stdout=pre("deny", " \n ")),),
        Does(
            runs={
                "a": failed(
                    "PreToolUse hook returned permissionDecision:deny "
                    "without a non-empty permissionDecisionReason"
                )
            }
        ),
    ),
    Case(
        "pre-legacy-block",
        "the legacy decision: block with a reason blocks",
        (Hook("a", stdout=out({"decision": "block", "reason": "legacy no"})),),
        Does(ran=False, runs={"a": blocked_by("legacy no")}, output=blocked("legacy no")),
    ),
    Case(
        "pre-legacy-block-no-reason",
        "decision: block without a reason is rejected",
        (Hook("a", stdout=out({"decision": "block"})),),
        Does(
            runs={"a": failed("PreToolUse hook returned decision:block without a non-empty reason")}
        ),
    ),
    Case(
        "pre-legacy-approve",
        "decision: approve is rejected (Claude's legacy allow)",
        (Hook("a", stdout=out({"decision": "approve", "reason": "fine"})),),
        Does(runs={"a": failed("PreToolUse hook returned unsupported decision:approve")}),
    ),
    Case(
        "pre-reason-without-decision",
        "a top-level reason alone is rejected",
        (Hook("a", stdout=out({"reason": "just saying"})),),
        Does(runs={"a": failed("PreToolUse hook returned reason without decision")}),
    ),
    Case(
        "pre-ask-unsupported",
        "permissionDecision ask is rejected: the tool runs",
        (Hook("a", stdout=pre("ask", "sure?")),),
        Does(runs={"a": failed("PreToolUse hook returned unsupported permissionDecision:ask")}),
    ),
    Case(
        "pre-allow-without-rewrite",
        "permissionDecision allow alone is rejected (it only carries a rewrite)",
        (Hook("a", stdout=pre("allow", "fine by me")),),
        Does(runs={"a": failed("PreToolUse hook returned unsupported permissionDecision:allow")}),
    ),
    Case(
        "pre-decision-reason-alone",
        "permissionDecisionReason without a permissionDecision is rejected",
        (Hook("a", stdout=pre(None, "why not")),),
        Does(
            runs={
                "a": failed(
                    "PreToolUse hook returned permissionDecisionReason without permissionDecision"
                )
            }
        ),
    ),
    Case(
        "pre-continue-false-unsupported",
        "continue: false is rejected on PreToolUse: the tool runs, the turn goes on",
        (Hook("a", stdout=out({"continue": False, "stopReason": "halt"})),),
        Does(runs={"a": failed("PreToolUse hook returned unsupported continue:false")}),
    ),
    Case(
        "pre-stop-reason-unsupported",
        "stopReason (with continue left true) is rejected",
        (Hook("a", stdout=out({"stopReason": "halt"})),),
        Does(runs={"a": failed("PreToolUse hook returned unsupported stopReason")}),
    ),
    Case(
        "pre-suppress-output-unsupported",
        "suppressOutput is rejected, even beside a valid deny",
        (Hook("a", stdout=out({"suppressOutput": True, **json.loads(pre("deny", "no"))})),),
        Does(runs={"a": failed("PreToolUse hook returned unsupported suppressOutput")}),
    ),
    Case(
        "pre-system-messages",
        "systemMessage is a warning for the user, never for the model; two are kept apart",
        (
            Hook("a", stdout=out({"systemMessage": "heads up"})),
            Hook("b", stdout=out({"systemMessage": "second"})),
        ),
        Does(runs={"a": warning("heads up"), "b": warning("second")}),
    ),
    Case(
        "pre-contexts",
        "additionalContext: one developer message each, in configured order (the first "
        "hook finishes last), between the call and its output",
        (
            Hook("a", sleep=0.5, stdout=pre(additionalContext="first note")),
            Hook("b", stdout=pre(additionalContext="second note")),
        ),
        Does(
            runs={"a": context("first note"), "b": context("second note")},
            developer=("first note", "second note"),
        ),
    ),
    Case(
        "pre-context-over-its-limit",
        "a context over the hook's additionalContextLimit (about 4 characters a token) "
        "reaches the model cut, the whole saved under $TMPDIR/hook_outputs/; the user is "
        "shown all of it",
        (
            Hook(
                "a",
                fields={"additionalContextLimit": 30},
                stdout=pre(additionalContext="line one of the context\n" + "x" * 300 + "\nthe end"),
            ),
        ),
        Does(
            runs={"a": context("line one of the context\n" + "x" * 300 + "\nthe end")},
            developer=(
                "re:Warning: truncated output \\(original token count: 83\\)\nTotal output "
                "lines: 3\n\n\u202683 tokens truncated\u2026\n\nFull hook output saved to: "
                "{tmp}/hook_outputs/[0-9a-f-]+/[0-9a-f-]+\\.txt",
            ),
        ),
    ),
    Case(
        "pre-context-beside-deny",
        "a context is kept when another hook blocks",
        (Hook("a", stdout=pre(additionalContext="keep this")), Hook("b", stdout=pre("deny", "no"))),
        Does(
            ran=False,
            runs={"a": context("keep this"), "b": blocked_by("no")},
            developer=("keep this",),
            output=blocked("no"),
        ),
    ),
    Case(
        "pre-plain-stdout-ignored",
        "plain text on stdout is no answer (not context on PreToolUse)",
        (Hook("a", stdout="just text"),),
        Does(),
    ),
    Case(
        "pre-invalid-json",
        "stdout that starts like JSON but does not parse: a failed hook",
        (Hook("a", stdout='{"hookSpecificOutput": '),),
        Does(runs={"a": failed("hook returned invalid pre-tool-use JSON output")}),
    ),
    Case(
        "pre-unknown-field",
        "an unknown key voids the whole answer, its deny and context too",
        (
            Hook(
                "a", stdout=out({"foo": 1, **json.loads(pre("deny", "no", additionalContext="x"))})
            ),
        ),
        Does(runs={"a": failed("hook returned invalid pre-tool-use JSON output")}),
    ),
    Case(
        "pre-wrong-event-name",
        "a hookSpecificOutput naming another event is read all the same (its context counts)",
        (Hook("a", stdout=specific("PostToolUse", additionalContext="misfiled")),),
        Does(runs={"a": context("misfiled")}, developer=("misfiled",)),
    ),
    Case(
        "pre-wrong-type",
        "a field of the wrong type is invalid output",
        (Hook("a", stdout=out({"systemMessage": 5})),),
        Does(runs={"a": failed("hook returned invalid pre-tool-use JSON output")}),
    ),
    Case(
        "pre-json-array",
        "a JSON array is invalid output",
        (Hook("a", stdout="[1, 2]"),),
        Does(runs={"a": failed("hook returned invalid pre-tool-use JSON output")}),
    ),
    # -- PreToolUse: updatedInput ----------------------------------------------------
    Case(
        "pre-rewrite",
        "allow with updatedInput: the rewritten command runs instead",
        (Hook("a", stdout=pre("allow", updatedInput=REWRITE)),),
        Does(ran=False, rewritten=True),
    ),
    Case(
        "pre-rewrite-without-allow",
        "updatedInput without allow is rejected: the original command runs",
        (Hook("a", stdout=pre(updatedInput=REWRITE)),),
        Does(
            runs={
                "a": failed(
                    "PreToolUse hook returned updatedInput without permissionDecision:allow"
                )
            }
        ),
    ),
    Case(
        "pre-rewrite-last-finished-wins",
        "two rewrites: the one of the hook that finished last wins (here the second)",
        (
            Hook("a", stdout=pre("allow", updatedInput={"command": "touch {ws}/other"})),
            Hook("b", sleep=0.8, stdout=pre("allow", updatedInput=REWRITE)),
        ),
        Does(ran=False, rewritten=True),
    ),
    Case(
        "pre-rewrite-last-finished-wins-first",
        "two rewrites: the first configured hook finished last, its rewrite wins",
        (
            Hook("a", sleep=0.8, stdout=pre("allow", updatedInput=REWRITE)),
            Hook("b", stdout=pre("allow", updatedInput={"command": "touch {ws}/other"})),
        ),
        Does(ran=False, rewritten=True),
    ),
    Case(
        "pre-rewrite-and-deny",
        "a deny beside a rewrite: nothing runs",
        (Hook("a", stdout=pre("allow", updatedInput=REWRITE)), Hook("b", stdout=pre("deny", "no"))),
        Does(ran=False, runs={"b": blocked_by("no")}, output=blocked("no")),
    ),
    # -- several hooks ----------------------------------------------------------------
    Case(
        "pre-parallel",
        "an event's hooks start together",
        (Hook("a", sleep=1), Hook("b", sleep=1), Hook("c", sleep=1)),
        Does(),
    ),
    Case(
        "pre-two-denies-first-reason",
        "two blocks: the reason is the first configured blocker's, though it finished last",
        (
            Hook("a", sleep=0.8, stdout=pre("deny", "first no")),
            Hook("b", exit=2, stderr="second no"),
        ),
        Does(
            ran=False,
            runs={"a": blocked_by("first no"), "b": blocked_by("second no")},
            output=blocked("first no"),
        ),
    ),
    Case(
        "pre-deny-beside-failure",
        "a failing hook beside a deny: the deny still blocks",
        (Hook("a", exit=1), Hook("b", stdout=pre("deny", "no"))),
        Does(ran=False, runs={"a": FAILED_1, "b": blocked_by("no")}, output=blocked("no")),
    ),
    Case(
        "pre-timeout",
        "a hook past its timeout (seconds) fails, its process group killed; the tool runs",
        (Hook("a", sleep=5, exit=2, stderr="too late", fields=ONE_SECOND, child="sleep 30"),),
        Does(runs={"a": failed("hook timed out after 1s")}, killed=("a",)),
    ),
    Case(
        "pre-timeout-zero-is-one-second",
        "timeout 0 is one second",
        (Hook("a", sleep=5, exit=2, stderr="too late", fields={"timeout": 0}),),
        Does(runs={"a": failed("hook timed out after 1s")}, killed=("a",)),
    ),
    Case(
        "pre-deny-beside-timeout",
        "a hook that times out beside a deny: the deny still blocks",
        (Hook("a", stdout=pre("deny", "no")), Hook("b", sleep=5, fields=ONE_SECOND)),
        Does(
            ran=False,
            runs={"a": blocked_by("no"), "b": failed("hook timed out after 1s")},
            output=blocked("no"),
            killed=("b",),
        ),
    ),
    Case(
        "pre-async",
        "async hooks: a deny has no effect (the tool runs), a context reaches the model "
        "after the tool's output, a systemMessage is shown; no hook/completed reports them",
        (
            Hook(
                "a",
                stdout=pre("deny", "too late", additionalContext="async note"),
                fields={"async": True},
            ),
            Hook("b", stdout=out({"systemMessage": "async warning"}), fields={"async": True}),
        ),
        Does(developer=("async note",), shown=("async warning",)),
        tool_command=AFTER_A_AND_B,
    ),
    # -- PermissionRequest (approval on request, read-only sandbox, an escalated command) -
    Case(
        "perm-allow",
        "decision allow: approved without asking the user; the command runs",
        (Hook("a", stdout=specific("PermissionRequest", decision={"behavior": "allow"})),),
        Does(),
        event="PermissionRequest",
        **ON_REQUEST,
    ),
    Case(
        "perm-deny",
        "decision deny with a message: refused without asking; the model is told the message",
        (
            Hook(
                "a",
                stdout=specific(
                    "PermissionRequest", decision={"behavior": "deny", "message": " not here \n"}
                ),
            ),
        ),
        Does(ran=False, runs={"a": blocked_by("not here")}, output=rejected("not here")),
        event="PermissionRequest",
        **ON_REQUEST,
    ),
    Case(
        "perm-deny-no-message",
        "decision deny without a message: Codex's own reason",
        (Hook("a", stdout=specific("PermissionRequest", decision={"behavior": "deny"})),),
        Does(
            ran=False,
            runs={"a": blocked_by("PermissionRequest hook denied approval")},
            output=rejected("PermissionRequest hook denied approval"),
        ),
        event="PermissionRequest",
        **ON_REQUEST,
    ),
    Case(
        "perm-exit2",
        "exit 2 denies with stderr",
        (Hook("a", exit=2, stderr="by exit two"),),
        Does(ran=False, runs={"a": blocked_by("by exit two")}, output=rejected("by exit two")),
        event="PermissionRequest",
        **ON_REQUEST,
    ),
    Case(
        "perm-exit2-no-stderr",
        "exit 2 without stderr is a failed hook: the user is asked (and declines)",
        (Hook("a", exit=2),),
        Does(
            ran=False,
            asked=True,
            output=rejected("rejected by user"),
            runs={
                "a": failed(
                    "PermissionRequest hook exited with code 2 but did not "
                    "write a denial reason to stderr"
                )
            },
        ),
        event="PermissionRequest",
        **ON_REQUEST,
    ),
    Case(
        "perm-no-decision",
        "no decision: the user is asked as if there were no hook",
        (Hook("a", stdout="{}"),),
        Does(ran=False, asked=True, output=rejected("rejected by user")),
        event="PermissionRequest",
        **ON_REQUEST,
    ),
    Case(
        "perm-unsupported-fields",
        "updatedInput, updatedPermissions, interrupt, continue: false are rejected; "
        "additionalContext is invalid output; the user is asked",
        (
            Hook(
                "a",
                stdout=specific(
                    "PermissionRequest", decision={"behavior": "allow", "updatedInput": REWRITE}
                ),
            ),
            Hook(
                "b",
                stdout=specific(
                    "PermissionRequest", decision={"behavior": "allow", "updatedPermissions": []}
                ),
            ),
            Hook(
                "c",
                stdout=specific(
                    "PermissionRequest",
                    decision={"behavior": "deny", "message": "x", "interrupt": True},
                ),
            ),
            Hook(
                "d",
                stdout=out(
                    {
                        "continue": False,
                        **json.loads(specific("PermissionRequest", decision={"behavior": "allow"})),
                    }
                ),
            ),
            Hook("e", stdout=specific("PermissionRequest", additionalContext="ctx")),
        ),
        Does(
            ran=False,
            asked=True,
            output=rejected("rejected by user"),
            runs={
                "a": failed("PermissionRequest hook returned unsupported updatedInput"),
                "b": failed("PermissionRequest hook returned unsupported updatedPermissions"),
                "c": failed("PermissionRequest hook returned unsupported interrupt:true"),
                "d": failed("PermissionRequest hook returned unsupported continue:false"),
                "e": failed("hook returned invalid permission-request JSON output"),
            },
        ),
        event="PermissionRequest",
        **ON_REQUEST,
    ),
    Case(
        "perm-deny-beats-allow",
        "an allow and a deny: the deny wins",
        (
            Hook("a", stdout=specific("PermissionRequest", decision={"behavior": "allow"})),
            Hook(
                "b",
                stdout=specific(
                    "PermissionRequest", decision={"behavior": "deny", "message": "second says no"}
                ),
            ),
        ),
        Does(
            ran=False, runs={"b": blocked_by("second says no")}, output=rejected("second says no")
        ),
        event="PermissionRequest",
        **ON_REQUEST,
    ),
    # -- PostToolUse -----------------------------------------------------------------
    Case(
        "post-exit2-replaces-output",
        "exit 2: the tool ran, its output is replaced by stderr for the model; the turn goes on",
        (Hook("a", exit=2, stderr=" check the output \n"),),
        Does(runs={"a": blocked_by("check the output")}, output="check the output"),
        event="PostToolUse",
        tool_command=WITH_OUTPUT,
    ),
    Case(
        "post-exit2-no-stderr",
        "exit 2 without stderr is a failed hook: the output stays",
        (Hook("a", exit=2),),
        Does(
            runs={
                "a": failed(
                    "PostToolUse hook exited with code 2 but did not write feedback to stderr"
                )
            }
        ),
        event="PostToolUse",
        tool_command=WITH_OUTPUT,
    ),
    Case(
        "post-block",
        "decision block with a reason: the output is replaced by the reason",
        (Hook("a", stdout=out({"decision": "block", "reason": "look again"})),),
        Does(runs={"a": blocked_by("look again")}, output="look again"),
        event="PostToolUse",
        tool_command=WITH_OUTPUT,
    ),
    Case(
        "post-block-no-reason",
        "decision block without a reason is rejected",
        (Hook("a", stdout=out({"decision": "block"})),),
        Does(
            runs={
                "a": failed("PostToolUse hook returned decision:block without a non-empty reason")
            }
        ),
        event="PostToolUse",
        tool_command=WITH_OUTPUT,
    ),
    Case(
        "post-reason-alone",
        "a reason without a decision is rejected",
        (Hook("a", stdout=out({"reason": "fyi"})),),
        Does(runs={"a": failed("PostToolUse hook returned reason without decision")}),
        event="PostToolUse",
        tool_command=WITH_OUTPUT,
    ),
    Case(
        "post-two-blocks",
        "two blocks: their reasons, in configured order, replace the output together",
        (
            Hook("a", sleep=0.5, exit=2, stderr="first"),
            Hook("b", stdout=out({"decision": "block", "reason": "second"})),
        ),
        Does(runs={"a": blocked_by("first"), "b": blocked_by("second")}, output="first\n\nsecond"),
        event="PostToolUse",
        tool_command=WITH_OUTPUT,
    ),
    Case(
        "post-continue-false",
        "continue: false: the hook stopped, the output is replaced by the stopReason, and "
        "yet the turn goes on",
        (Hook("a", stdout=out({"continue": False, "stopReason": "enough"})),),
        Does(runs={"a": stopped("enough")}, output="enough"),
        event="PostToolUse",
        tool_command=WITH_OUTPUT,
    ),
    Case(
        "post-continue-false-no-reason",
        "continue: false without a stopReason: Codex's own text",
        (Hook("a", stdout=out({"continue": False})),),
        Does(
            runs={"a": stopped("PostToolUse hook stopped execution")},
            output="PostToolUse hook stopped execution",
        ),
        event="PostToolUse",
        tool_command=WITH_OUTPUT,
    ),
    Case(
        "post-context-and-block",
        "additionalContext beside a block: a developer message, and the output replaced",
        (
            Hook(
                "a",
                stdout=out(
                    {
                        "decision": "block",
                        "reason": "redo",
                        **json.loads(specific("PostToolUse", additionalContext="note")),
                    }
                ),
            ),
        ),
        Does(
            runs={"a": ("blocked", "context: note", "feedback: redo")},
            output="redo",
            developer=("note",),
        ),
        event="PostToolUse",
        tool_command=WITH_OUTPUT,
    ),
    Case(
        "post-unsupported",
        "suppressOutput and updatedMCPToolOutput are rejected; plain text is ignored",
        (
            Hook("a", stdout=out({"suppressOutput": True})),
            Hook("b", stdout=specific("PostToolUse", updatedMCPToolOutput={"x": 1})),
            Hook("c", stdout="plain words"),
        ),
        Does(
            runs={
                "a": failed("PostToolUse hook returned unsupported suppressOutput"),
                "b": failed("PostToolUse hook returned unsupported updatedMCPToolOutput"),
            }
        ),
        event="PostToolUse",
        tool_command=WITH_OUTPUT,
    ),
    Case(
        "post-invalid-output",
        "an unknown key or a JSON array is invalid PostToolUse output; exit 1 is a failure",
        (Hook("a", stdout=out({"foo": 1})), Hook("b", stdout="[1]"), Hook("c", exit=1, stderr="x")),
        Does(
            runs={
                "a": failed("hook returned invalid post-tool-use JSON output"),
                "b": failed("hook returned invalid post-tool-use JSON output"),
                "c": FAILED_1,
            }
        ),
        event="PostToolUse",
        tool_command=WITH_OUTPUT,
    ),
    Case(
        "post-system-message",
        "a systemMessage is a warning for the user; the output stays",
        (Hook("a", stdout=out({"systemMessage": "ran it"})),),
        Does(runs={"a": warning("ran it")}),
        event="PostToolUse",
        tool_command=WITH_OUTPUT,
    ),
    # -- UserPromptSubmit (matchers ignored) -------------------------------------------
    Case(
        "prompt-block",
        "decision block: the prompt never reaches the model, the turn ends",
        (Hook("a", stdout=out({"decision": "block", "reason": "not this prompt"})),),
        Does(ran=False, requests=0, runs={"a": blocked_by("not this prompt")}),
        event="UserPromptSubmit",
        matcher=None,
    ),
    Case(
        "prompt-exit2",
        "exit 2 blocks the prompt with stderr",
        (Hook("a", exit=2, stderr="no prompt"),),
        Does(ran=False, requests=0, runs={"a": blocked_by("no prompt")}),
        event="UserPromptSubmit",
        matcher=None,
    ),
    Case(
        "prompt-block-without-reason",
        "exit 2 without stderr and a block without a reason are failed hooks: the prompt goes",
        (Hook("a", exit=2), Hook("b", stdout=out({"decision": "block"}))),
        Does(
            runs={
                "a": failed(
                    "UserPromptSubmit hook exited with code 2 but did not "
                    "write a blocking reason to stderr"
                ),
                "b": failed(
                    "UserPromptSubmit hook returned decision:block without a non-empty reason"
                ),
            }
        ),
        event="UserPromptSubmit",
        matcher=None,
    ),
    Case(
        "prompt-continue-false",
        "continue: false stops the turn before the model",
        (Hook("a", stdout=out({"continue": False, "stopReason": "quiet hours"})),),
        Does(ran=False, requests=0, runs={"a": stopped("quiet hours")}),
        event="UserPromptSubmit",
        matcher=None,
    ),
    Case(
        "prompt-contexts",
        "additionalContext and plain stdout are both context: developer messages after the "
        "prompt, in configured order",
        (
            Hook("a", stdout=specific("UserPromptSubmit", additionalContext="json note")),
            Hook("b", stdout="plain note\n"),
        ),
        Does(
            runs={"a": context("json note"), "b": context("plain note")},
            developer=("json note", "plain note"),
        ),
        event="UserPromptSubmit",
        matcher=None,
    ),
    Case(
        "prompt-accepts-reason-and-suppress",
        "a reason without a decision and suppressOutput are accepted silently",
        (Hook("a", stdout=out({"reason": "fyi"})), Hook("b", stdout=out({"suppressOutput": True}))),
        Does(),
        event="UserPromptSubmit",
        matcher=None,
    ),
    Case(
        "prompt-invalid-output",
        "an unknown key or a JSON array is invalid UserPromptSubmit output (Codex's words "
        "name the event with spaces); exit 1 is a failure",
        (Hook("a", stdout=out({"foo": 1})), Hook("b", stdout="[1]"), Hook("c", exit=1, stderr="x")),
        Does(
            runs={
                "a": failed("hook returned invalid user prompt submit JSON output"),
                "b": failed("hook returned invalid user prompt submit JSON output"),
                "c": FAILED_1,
            }
        ),
        event="UserPromptSubmit",
        matcher=None,
    ),
    Case(
        "prompt-matcher-ignored",
        "a matcher on UserPromptSubmit is ignored, an invalid one too: the hooks run",
        (Hook("a", matcher="nothing-like-it", stdout="seen"), Hook("b", matcher="[")),
        Does(runs={"a": context("seen")}, developer=("seen",)),
        event="UserPromptSubmit",
    ),
    # -- Stop ----------------------------------------------------------------------------
    Case(
        "stop-block",
        "decision block: Codex goes on with the reason as a <hook_prompt> user message; the "
        "next Stop says stop_hook_active",
        (Hook("a", stdout=out({"decision": "block", "reason": "run the tests first"})),),
        Does(
            runs={"a": blocked_by("run the tests first")},
            requests=3,
            counts={"a": 2},
            prompts=(HOOK_PROMPT.format(reason="run the tests first"),),
        ),
        event="Stop",
        matcher=None,
    ),
    Case(
        "stop-exit2",
        "exit 2 with stderr blocks the stop the same way",
        (Hook("a", exit=2, stderr="not yet"),),
        Does(
            runs={"a": blocked_by("not yet")},
            requests=3,
            counts={"a": 2},
            prompts=(HOOK_PROMPT.format(reason="not yet"),),
        ),
        event="Stop",
        matcher=None,
    ),
    Case(
        "stop-block-without-reason",
        "exit 2 without stderr and a block without a reason are failed hooks: Codex stops",
        (Hook("a", exit=2), Hook("b", stdout=out({"decision": "block"}))),
        Does(
            runs={
                "a": failed(
                    "Stop hook exited with code 2 but did not write a continuation prompt to stderr"
                ),
                "b": failed("Stop hook returned decision:block without a non-empty reason"),
            }
        ),
        event="Stop",
        matcher=None,
    ),
    Case(
        "stop-continue-false",
        "continue: false: stopped, with its stopReason",
        (Hook("a", stdout=out({"continue": False, "stopReason": "wrap up"})),),
        Does(runs={"a": stopped("wrap up")}),
        event="Stop",
        matcher=None,
    ),
    Case(
        "stop-plain-and-specific-invalid",
        "plain stdout and a hookSpecificOutput are invalid Stop output",
        (Hook("a", stdout="done?"), Hook("b", stdout=specific("Stop", additionalContext="x"))),
        Does(
            runs={
                "a": failed("hook returned invalid stop hook JSON output"),
                "b": failed("hook returned invalid stop hook JSON output"),
            }
        ),
        event="Stop",
        matcher=None,
    ),
    Case(
        "stop-two-blocks",
        "two blocks: Codex goes on with both reasons, each its own <hook_prompt>, in one "
        "user message",
        (
            Hook("a", stdout=out({"decision": "block", "reason": "first"})),
            Hook("b", exit=2, stderr="second"),
        ),
        Does(
            runs={"a": blocked_by("first"), "b": blocked_by("second")},
            requests=3,
            counts={"a": 2, "b": 2},
            prompts=(
                HOOK_PROMPT.format(reason="first")
                + HOOK_PROMPT.format(reason="second").replace("stop:0:", "stop:1:"),
            ),
        ),
        event="Stop",
        matcher=None,
    ),
    # -- SessionStart ------------------------------------------------------------------
    Case(
        "session-start-contexts",
        "additionalContext and plain stdout: developer messages before the prompt",
        (
            Hook("a", stdout=specific("SessionStart", additionalContext="json start note")),
            Hook("b", stdout="plain start note"),
        ),
        Does(
            runs={"a": context("json start note"), "b": context("plain start note")},
            developer=("json start note", "plain start note"),
        ),
        event="SessionStart",
        matcher="startup",
    ),
    Case(
        "session-start-exit2-not-special",
        "exit 2 is an ordinary failure on SessionStart",
        (Hook("a", exit=2, stderr="start failed"),),
        Does(runs={"a": failed("hook exited with code 2")}),
        event="SessionStart",
        matcher=None,
    ),
    Case(
        "session-start-continue-false",
        "continue: false: the turn makes no model request",
        (Hook("a", stdout=out({"continue": False, "stopReason": "not today"})),),
        Does(ran=False, requests=0, runs={"a": stopped("not today")}),
        event="SessionStart",
        matcher=None,
    ),
    Case(
        "session-start-invalid-output",
        "a decision or a JSON array is invalid SessionStart output (Codex's words name the "
        "event with a space); exit 1 is a failure",
        (
            Hook("a", stdout=out({"decision": "block", "reason": "x"})),
            Hook("b", stdout="[1]"),
            Hook("c", exit=1, stderr="x"),
        ),
        Does(
            runs={
                "a": failed("hook returned invalid session start JSON output"),
                "b": failed("hook returned invalid session start JSON output"),
                "c": FAILED_1,
            }
        ),
        event="SessionStart",
        matcher=None,
    ),
    Case(
        "session-start-matcher-source",
        "the matcher is the source: startup matches a new thread, resume does not",
        (W, Hook("a", matcher="resume", stdout="never"), Hook("b", matcher="^start", stdout="hit")),
        Does(runs={"b": context("hit")}, developer=("hit",), counts={"a": 0}),
        event="SessionStart",
        matcher="startup",
    ),
    # -- SessionEnd (1 s default timeout, 3 s at most, always waited for) ----------------
    Case(
        "session-end-runs",
        "SessionEnd runs when the thread ends (app-server reports no run of it); its output "
        "is not read",
        (Hook("a", stdout=out({"decision": "block", "reason": "x"})), Hook("b", exit=1)),
        Does(),
        event="SessionEnd",
        matcher=None,
    ),
    Case(
        "session-end-default-timeout",
        "SessionEnd's default timeout is 1 s (a hook of 2 s is killed, one given 3 s is not)",
        (Hook("a", sleep=2), Hook("b", sleep=2, fields={"timeout": 3})),
        Does(killed=("a",)),
        event="SessionEnd",
        matcher=None,
    ),
    Case(
        "session-end-timeout-capped",
        "a SessionEnd timeout above 3 s is cut to 3 s (with a warning); async is forced off",
        (Hook("a", sleep=5, fields={"timeout": 10, "async": True}),),
        Does(
            killed=("a",),
            warnings=(
                "clamping SessionEnd hook timeout to 3s in {codex}/hooks.json",
                "running async SessionEnd hook synchronously in {codex}/hooks.json",
            ),
        ),
        event="SessionEnd",
        matcher=None,
    ),
    # -- Interrupt (turn/interrupt while the command runs) ------------------------------
    Case(
        "interrupt-system-message",
        "Interrupt fires on turn/interrupt; only systemMessage is accepted (a warning)",
        (Hook("a", stdout=out({"systemMessage": "interrupted!"})),),
        Does(ran=False, requests=1, turn="interrupted", runs={"a": warning("interrupted!")}),
        event="Interrupt",
        matcher=None,
        interrupt=True,
        tool_command=SLOW,
    ),
    Case(
        "interrupt-other-answers-fail",
        "plain text, another key, exit 2 and exit 1 are failed Interrupt hooks",
        (
            Hook("a", stdout="plain"),
            Hook("b", stdout=out({"continue": False})),
            Hook("c", exit=2, stderr="x"),
            Hook("d", exit=1, stdout=out({"systemMessage": "x"})),
        ),
        Does(
            ran=False,
            requests=1,
            turn="interrupted",
            runs={
                "a": failed("Interrupt hook returned non-JSON stdout"),
                "b": failed("hook returned invalid interrupt hook JSON output"),
                "c": failed("hook exited with code 2"),
                "d": FAILED_1,
            },
        ),
        event="Interrupt",
        matcher=None,
        interrupt=True,
        tool_command=SLOW,
    ),
    Case(
        "interrupt-default-timeout",
        "Interrupt's default timeout is 1 s; a longer one is cut to 3 s, with a warning",
        (Hook("a", sleep=3), Hook("b", sleep=5, fields={"timeout": 10})),
        Does(
            ran=False,
            requests=1,
            turn="interrupted",
            killed=("a", "b"),
            runs={"a": failed("hook timed out after 1s"), "b": failed("hook timed out after 3s")},
            warnings=("clamping Interrupt hook timeout to 3s in {codex}/hooks.json",),
        ),
        event="Interrupt",
        matcher=None,
        interrupt=True,
        tool_command=SLOW,
    ),
    # -- PreModelRequest / PostModelRequest (new in 0.171.0; observe only) ---------------
    Case(
        "model-request-observe-only",
        "PreModelRequest runs before every model request and cannot stop it: a deny, a "
        "block, continue: false are read and ignored",
        (
            Hook("a", stdout=pre("deny", "no model")),
            Hook("b", stdout=out({"decision": "block", "reason": "no"})),
            Hook("c", stdout=out({"continue": False, "stopReason": "stop"})),
        ),
        Does(counts={"a": 2, "b": 2, "c": 2}),
        event="PreModelRequest",
        matcher=None,
    ),
    Case(
        "model-request-exit-codes",
        "PreModelRequest exit 2 or 1: failed, stderr is the error; without stderr no entry",
        (
            Hook("a", exit=2, stderr=" model says \n"),
            Hook("b", exit=1, stderr="quiet"),
            Hook("c", exit=1),
        ),
        Does(
            runs={"a": failed("model says"), "b": failed("quiet"), "c": failed()},
            counts={"a": 2, "b": 2, "c": 2},
        ),
        event="PreModelRequest",
        matcher=None,
    ),
    Case(
        "post-model-request",
        "PostModelRequest runs after every model response, with the token usage; its "
        "output is not read (a systemMessage is not shown, invalid JSON is no error); a "
        "non-zero exit fails it with stderr as the error",
        (
            Hook("a", stdout=out({"systemMessage": "after model"})),
            Hook("b", stdout=out({"decision": "block", "reason": "x"})),
            Hook("c", stdout="{"),
            Hook("d", exit=2, stderr="post model two"),
            Hook("e", exit=1, stderr="post model one"),
        ),
        Does(
            runs={"d": failed("post model two"), "e": failed("post model one")},
            counts=dict.fromkeys("abcde", 2),
        ),
        event="PostModelRequest",
        matcher=None,
    ),
    # -- where hooks are read, in which order ----------------------------------------
    Case(
        "sources-json-and-toml",
        "a layer's hooks.json and its config.toml [hooks] both load (a warning says so), "
        "the JSON file first",
        (
            Hook("a", stdout=pre(additionalContext="from json")),
            Hook("b", stdout=pre(additionalContext="from toml"), layers=("user-toml",)),
        ),
        Does(
            runs={"a": context("from json"), "b": context("from toml")},
            developer=("from json", "from toml"),
            warnings=(
                "loading hooks from both {codex}/hooks.json and {codex}/config.toml; "
                "prefer a single representation for this layer",
            ),
        ),
    ),
    Case(
        "sources-project-after-user",
        "a trusted project's .codex/ hooks (hooks.json, then config.toml) run after the user's",
        (
            Hook("c", stdout=pre(additionalContext="project toml"), layers=("project-toml",)),
            Hook("b", stdout=pre(additionalContext="project json"), layers=("project",)),
            Hook("a", stdout=pre(additionalContext="user json")),
        ),
        Does(
            runs={
                "a": context("user json"),
                "b": context("project json"),
                "c": context("project toml"),
            },
            developer=("user json", "project json", "project toml"),
            warnings=(
                "loading hooks from both {ws}/.codex/hooks.json and {ws}/.codex/config.toml; "
                "prefer a single representation for this layer",
            ),
        ),
    ),
    Case(
        "sources-same-handler-twice",
        "the same handler in the user's and the project's files runs twice",
        (
            Hook(
                "a",
                stdout=pre(additionalContext="twice"),
                layers=("user", "project"),
                every_run=True,
            ),
        ),
        Does(developer=("twice", "twice"), counts={"a": 2}, runs={"a": context("twice")}),
    ),
    Case(
        "sources-first-reason-by-file-order",
        "blocks from two files: the user file's reason, first in the order, is the one shown",
        (
            Hook("b", exit=2, stderr="project says no", layers=("project",)),
            Hook("a", exit=2, stderr="user says no", sleep=0.5),
        ),
        Does(
            ran=False,
            runs={"a": blocked_by("user says no"), "b": blocked_by("project says no")},
            output=blocked("user says no"),
        ),
    ),
    Case(
        "sources-untrusted-project-exec",
        "codex exec: a project that is not trusted has its .codex/ hooks left out, silently",
        (
            Hook("a", stdout=pre(additionalContext="user")),
            Hook("b", exit=2, stderr="never", layers=("project",)),
        ),
        Does(developer=("user",), counts={"b": 0}),
        mode="exec",
        trust_project=False,
        differs="Codex's project trust (trust_level) is not hookd's: a workspace hookd trusts "
        "has its .codex/ hooks run",
        hookd_also=("b",),
    ),
    Case(
        "sources-app-server-trusts-its-folder",
        "app-server: thread/start marks the thread's folder trusted in the user's "
        "config.toml itself, so an untrusted project's .codex/ hooks run",
        (W, Hook("b", exit=2, stderr="project says no", layers=("project",))),
        Does(
            ran=False,
            runs={"b": blocked_by("project says no")},
            output=blocked("project says no"),
            config_has=('[projects."{ws}"]\ntrust_level = "trusted"',),
        ),
        trust_project=False,
    ),
    Case(
        "sources-git-root",
        "a session in a sub-folder of a git repository: the repository's .codex/ hooks run, "
        "in the session's folder",
        (Hook("a", stdout=pre(additionalContext="repo hook"), layers=("project",)),),
        Does(runs={"a": context("repo hook")}, developer=("repo hook",)),
        cwd="{ws}/sub",
        files={"{ws}/.git/HEAD": "ref: refs/heads/main\n"},
    ),
    Case(
        "sources-no-git-parent-not-read",
        "a session in a sub-folder without a repository: the parent's .codex/ is not read",
        (W, Hook("b", exit=2, stderr="never", layers=("project",))),
        Does(counts={"b": 0}),
        cwd="{ws}/sub",
    ),
    Case(
        "sources-codex-home",
        "CODEX_HOME moves the user's folder: its hooks run, ~/.codex's do not",
        (Hook("a", stdout=pre(additionalContext="moved home")), Hook("x", layers=())),
        Does(runs={"a": context("moved home")}, developer=("moved home",), counts={"x": 0}),
        codex_home="{home}/elsewhere",
        files={
            "{home}/.codex/hooks.json": out(
                {
                    "hooks": {
                        "PreToolUse": [{"hooks": [{"type": "command", "command": "{hooks}/x.sh"}]}]
                    }
                }
            )
        },
    ),
    # -- files Codex reads only in part -------------------------------------------------
    Case(
        "file-unknown-top-level-key",
        "an unknown top-level key: the whole file is skipped with a warning; other files run",
        (Hook("a", exit=2, stderr="never"), Hook("b", layers=("project",))),
        Does(
            counts={"a": 0},
            warnings=(
                "failed to parse hooks config {codex}/hooks.json: unknown field `version`, "
                "expected `description` or `hooks` at line 1 column 10",
            ),
        ),
        top={"user": {"version": 1}},
    ),
    Case(
        "file-not-json",
        "a hooks.json that does not parse is skipped with a warning",
        (Hook("a", exit=2, stderr="never"), Hook("b", layers=("project",))),
        Does(
            counts={"a": 0},
            warnings=(
                "failed to parse hooks config {codex}/hooks.json: trailing comma at line 1 column 58",
            ),
        ),
        files={
            "{codex}/hooks.json": '{"hooks": {"Stop": [], "PreToolUse": [{"matcher": "Bash",},'
            ' {"matcher": "Bash", "hooks": [{"type": "command", "command": "{hooks}/a.sh"}]}]}}'
        },
    ),
    Case(
        "file-unknown-event-and-keys",
        "an unknown event and unknown handler keys are ignored without a word",
        (
            Hook("a", fields={"onFailure": "block", "args": ["x"]}, exit=1),
            Hook("x", event="Notification"),
        ),
        Does(runs={"a": FAILED_1}, counts={"x": 0}),
    ),
    Case(
        "file-unsupported-handlers",
        "prompt and agent handlers and an empty command are skipped with warnings; the "
        "rest of the group runs",
        (
            Hook("p", fields={"type": "prompt", "prompt": "judge"}),
            Hook("g", fields={"type": "agent", "prompt": "judge"}),
            Hook("e", command="   "),
            Hook("a", stdout=pre(additionalContext="still here")),
        ),
        Does(
            runs={"a": context("still here")},
            developer=("still here",),
            counts={"p": 0, "g": 0, "e": 0},
            warnings=(
                "skipping prompt hook in {codex}/hooks.json: prompt hooks are not supported yet",
                "skipping agent hook in {codex}/hooks.json: agent hooks are not supported yet",
                "skipping empty hook command in {codex}/hooks.json",
            ),
        ),
    ),
    Case(
        "file-http-handler",
        "an http handler: the whole file is skipped with a warning",
        (
            Hook("h", fields={"type": "http", "url": "http://127.0.0.1:9/"}),
            Hook("a", exit=2, stderr="never"),
            Hook("b", layers=("project",)),
        ),
        Does(
            counts={"a": 0, "h": 0},
            warnings=(
                "failed to parse hooks config {codex}/hooks.json: unknown variant `http`, expected "
                "one of `command`, `mcp_tool`, `prompt`, `agent` at line 1 column 71",
            ),
        ),
    ),
    Case(
        "file-invalid-matcher",
        "an invalid matcher regex: its group is skipped with a warning, the others run",
        (W, Hook("a", exit=2, stderr="never", matcher="[")),
        Does(
            counts={"a": 0},
            warnings=(
                'invalid matcher "[" in {codex}/hooks.json: regex parse error:\n    [\n    ^\n'
                "error: unclosed character class",
            ),
        ),
    ),
    # -- hook trust (the /hooks review) -------------------------------------------------
    Case(
        "trust-untrusted-skipped",
        "a hook nobody reviewed (no trusted_hash) is skipped without a word",
        (W, Hook("a", exit=2, stderr="never", trusted=False)),
        Does(counts={"a": 0}),
        differs=OWN_TRUST,
        hookd_also=("a",),
    ),
    Case(
        "trust-modified-skipped",
        "a hook whose definition changed since its review (another hash) is skipped",
        (W, Hook("a", exit=2, stderr="never", state={"trusted_hash": "sha256:" + "0" * 64})),
        Does(counts={"a": 0}),
        differs=OWN_TRUST,
        hookd_also=("a",),
    ),
    Case(
        "trust-disabled",
        "a reviewed hook switched off (enabled = false) is skipped",
        (W, Hook("a", exit=2, stderr="never", state={"enabled": False})),
        Does(counts={"a": 0}),
    ),
    Case(
        "trust-hash-recipe",
        "the trust hash covers the normalised handler: timeout 0 as 1, statusMessage, "
        "async, a non-default additionalContextLimit (all trusted here by the recipe)",
        (
            Hook("a", fields={"timeout": 0, "statusMessage": "checking"}),
            Hook("b", fields={"additionalContextLimit": 1000}, stdout=pre(additionalContext="b")),
            Hook("c", fields={"additionalContextLimit": 2500, "commandWindows": "c.cmd"}),
        ),
        Does(runs={"b": context("b")}, developer=("b",)),
    ),
    # -- matchers (a shell call is tool Bash) --------------------------------------------
    Case(
        "matcher-exact-forms",
        "letters, digits, _ and | are exact names: Bash, Edit|Bash match; Ba, Edit|Write, "
        "bash, exec_command, shell do not",
        (
            W,
            *(
                Hook(n, matcher=m, stdout=pre(additionalContext=m))
                for n, m in (
                    ("a", "Bash"),
                    ("b", "Edit|Bash"),
                    ("c", "Ba"),
                    ("d", "Edit|Write"),
                    ("e", "bash"),
                    ("f", "exec_command"),
                    ("g", "shell"),
                    ("h", "local_shell"),
                )
            ),
        ),
        Does(
            runs={"a": context("Bash"), "b": context("Edit|Bash")},
            developer=("Bash", "Edit|Bash"),
            counts=dict.fromkeys("cdefgh", 0),
        ),
    ),
    Case(
        "matcher-regex-forms",
        "anything else is an unanchored regex: ^Ba, B.sh, .*, * and an empty matcher match; "
        "mcp__.* and 'Bash ' do not",
        (
            W,
            *(
                Hook(n, matcher=m, stdout=pre(additionalContext=f"<{m}>"))
                for n, m in (
                    ("a", "^Ba"),
                    ("b", "B.sh"),
                    ("c", ".*"),
                    ("d", "*"),
                    ("e", ""),
                    ("f", "mcp__.*"),
                    ("g", "Bash "),
                )
            ),
        ),
        Does(
            runs={
                n: ("completed", f"context: <{m}>")
                for n, m in (("a", "^Ba"), ("b", "B.sh"), ("c", ".*"), ("d", "*"), ("e", ""))
            },
            developer=("<^Ba>", "<B.sh>", "<.*>", "<*>", "<>"),
            counts={"f": 0, "g": 0},
        ),
    ),
    # -- apply_patch (Codex's file edits; offered to catalog models) ----------------------
    Case(
        "patch-edit-alias-blocks",
        "apply_patch is matched by Edit (and its own name); tool_name says apply_patch; a "
        "deny keeps the patch from being applied",
        (Hook("a", matcher="Edit", exit=2, stderr="no edits"), Hook("b", matcher="apply_patch")),
        Does(
            ran=False,
            runs={"a": blocked_by("no edits")},
            output=blocked("no edits", PATCH["input"]),
        ),
        turns=(PATCH, {"text": "done."}),
    ),
    Case(
        "patch-write-alias",
        "Write matches apply_patch too; MultiEdit does not",
        (
            Hook("a", matcher="Write", stdout=pre(additionalContext="write hit")),
            Hook("b", matcher="MultiEdit", exit=2, stderr="never"),
        ),
        Does(runs={"a": context("write hit")}, developer=("write hit",), counts={"b": 0}),
        turns=(PATCH, {"text": "done."}),
    ),
    Case(
        "patch-rewrite",
        "a rewrite of apply_patch's input: the rewritten patch is applied",
        (
            Hook(
                "a", matcher="Edit", stdout=pre("allow", updatedInput={"command": REWRITTEN_PATCH})
            ),
        ),
        Does(ran=False, rewritten=True),
        turns=(PATCH, {"text": "done."}),
    ),
    Case(
        "patch-post-tool-use",
        "PostToolUse on apply_patch (matcher Edit), with the tool's output",
        (Hook("a", matcher="Edit", stdout=specific("PostToolUse", additionalContext="patched")),),
        Does(runs={"a": context("patched")}, developer=("patched",)),
        event="PostToolUse",
        turns=(PATCH, {"text": "done."}),
    ),
    Case(
        "patch-through-the-shell",
        "apply_patch run as a shell command: PreToolUse sees Bash, PostToolUse does not fire",
        (Hook("a", matcher="Bash"), Hook("p", event="PostToolUse", matcher=".*")),
        Does(counts={"p": 0}),
        tool_command="apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: ran\n+hi\n*** End Patch\nEOF",
    ),
    # -- what a hook is given ------------------------------------------------------------
    Case(
        "given-utf8-and-escapes",
        "the payload is compact JSON with raw UTF-8 and JSON escapes (quotes, backslash, "
        "tab, a control character), no newline at the end",
        (Hook("a"),),
        Does(),
        tool_command='touch {ws}/ran # é ✓ "quoted" \\ tab\t bell\u0001 /slash',
    ),
    Case(
        "given-args-env-shell",
        "the command runs under /bin/bash -c whatever SHELL says (bash syntax works); its "
        "arguments and the agent's variables reach the script; Codex adds none of its own",
        (Hook("a", command="[[ -n $BASH_VERSION ]] && {script} 'one two' three \"$CASE_VAR\""),),
        Does(),
        env={"CASE_VAR": "from the agent", "CODEX_THREAD_HINT": "the agent's own"},
    ),
    # -- codex exec (what scripts and CI run) --------------------------------------------
    Case(
        "exec-pre-deny",
        "codex exec: a deny blocks the command (permission_mode bypassPermissions)",
        (Hook("a", stdout=pre("deny", "not in CI")),),
        Does(ran=False, output=blocked("not in CI")),
        mode="exec",
    ),
    Case(
        "exec-stop-and-session-end",
        "codex exec: a Stop block makes it go on once more; SessionEnd runs at the end; "
        "displayOrder counts every event's handlers in Codex's event order (SessionEnd's "
        "first), which the <hook_prompt> id shows",
        (Hook("a", exit=2, stderr="once more"), Hook("e", event="SessionEnd", matcher=NO_MATCHER)),
        Does(
            requests=3,
            counts={"a": 2},
            prompts=(HOOK_PROMPT.format(reason="once more").replace("stop:0:", "stop:1:"),),
        ),
        event="Stop",
        matcher=None,
        mode="exec",
    ),
    # -- hookd by design ---------------------------------------------------------------
    Case(
        "never-ran-output-past-hookd-cap",
        "a hook prints 17 MiB starting with '{': Codex reads it all, finds no valid JSON and "
        "fails open (the tool runs); past hookd's 16 MiB cap the hook never ran, which "
        "blocks a guard event",
        (Hook("a", command="{script}; head -c 17825792 /dev/zero | tr '\\0' x", stdout="{"),),
        Does(runs={"a": failed("hook returned invalid pre-tool-use JSON output")}),
        differs="hookd's never-ran rule: a hook whose output hookd could not take blocks "
        "PreToolUse (Codex fails open)",
        hookd_blocks=True,
    ),
    # -- compaction (thread/compact/start: trigger manual) --------------------------------
    Case(
        "compact-pre-and-post",
        "PreCompact and PostCompact run around a manual compaction (trigger matcher); a "
        "systemMessage is a warning; plain stdout is ignored",
        (
            Hook("a", matcher="manual", stdout=out({"systemMessage": "compacting"})),
            Hook("x", matcher="auto"),
            Hook("b", event="PostCompact", matcher="manual", stdout="plain"),
        ),
        Does(
            runs={"a": warning("compacting")},
            requests=3,
            counts={"x": 0},
            prompts=(COMPACTION_PROMPT,),
            turn="completed",
        ),
        event="PreCompact",
        compact=True,
    ),
    Case(
        "compact-pre-continue-false",
        "PreCompact continue: false: no compaction (no request, no PostCompact), the "
        "compaction turn is interrupted",
        (
            Hook("a", stdout=out({"continue": False, "stopReason": "keep it all"})),
            Hook("b", event="PostCompact"),
        ),
        Does(runs={"a": stopped("keep it all")}, counts={"b": 0}, turn="interrupted"),
        event="PreCompact",
        matcher=None,
        compact=True,
    ),
    Case(
        "compact-pre-exit2",
        "PreCompact exit 2 or 1 is a failure whose error is stderr; compaction goes on; a "
        "decision is invalid output (Codex's words name the event PreCompact)",
        (
            Hook("a", exit=2, stderr="not now"),
            Hook("c", stdout=out({"decision": "block"})),
            Hook("d", exit=1, stderr=" pre compact one \n"),
            Hook("b", event="PostCompact"),
        ),
        Does(
            runs={
                "a": failed("not now"),
                "c": failed("hook returned invalid PreCompact hook JSON output"),
                "d": failed("pre compact one"),
            },
            requests=3,
            prompts=(COMPACTION_PROMPT,),
        ),
        event="PreCompact",
        matcher=None,
        compact=True,
    ),
    Case(
        "compact-post-failures",
        "PostCompact: exit 2 fails with stderr as the error; a decision or an array is "
        "invalid output",
        (
            Hook("b", exit=2, stderr="post compact two"),
            Hook("c", stdout=out({"decision": "block"})),
            Hook("d", stdout="[1]"),
        ),
        Does(
            runs={
                "b": failed("post compact two"),
                "c": failed("hook returned invalid PostCompact hook JSON output"),
                "d": failed("hook returned invalid PostCompact hook JSON output"),
            },
            requests=3,
            prompts=(COMPACTION_PROMPT,),
        ),
        event="PostCompact",
        matcher=None,
        compact=True,
    ),
    # -- subagents ([features] multi_agent_v2, the collaboration tools) ------------------
    Case(
        "subagent-start-and-stop",
        "SubagentStart and SubagentStop fire around a spawned agent (agent_id, agent_type, "
        "matcher on agent_type); the spawn tool is named collaborationspawn_agent",
        (
            Hook(
                "a",
                event="SubagentStart",
                matcher="default",
                stdout=specific("SubagentStart", additionalContext="sub start note"),
            ),
            Hook("x", event="SubagentStart", matcher="explorer"),
            Hook("b", event="SubagentStop"),
            Hook("t", event="PreToolUse", matcher=".*"),
        ),
        Does(
            runs={"a": context("sub start note")},
            counts={"t": 3, "x": 0},
            sub_developer=("sub start note",),
            requests=3,
            sub_requests=2,
        ),
        event="SubagentStart",
        matcher=None,
        **SUBAGENT,
    ),
    Case(
        "subagent-stop-block",
        "SubagentStop block: the subagent goes on with the reason as a <hook_prompt>",
        (
            Hook(
                "b",
                event="SubagentStop",
                stdout=out({"decision": "block", "reason": "check again"}),
            ),
        ),
        Does(
            runs={"b": blocked_by("check again")},
            counts={"b": 2},
            requests=3,
            sub_requests=3,
            sub_prompts=(
                '<hook_prompt hook_run_id="subagent-stop:0:{codex}/hooks.json">check again'
                "</hook_prompt>",
            ),
        ),
        event="SubagentStop",
        matcher=None,
        **SUBAGENT,
    ),
    Case(
        "subagent-pre-tool-use",
        "PreToolUse inside a subagent: agent_id and agent_type in the payload; a deny blocks "
        "the subagent's command",
        (Hook("a", exit=2, stderr="not in a subagent"),),
        Does(
            ran=False,
            runs={"a": blocked_by("not in a subagent")},
            requests=3,
            sub_requests=2,
            sub_output=blocked("not in a subagent"),
        ),
        **SUBAGENT,
    ),
    # -- plugins (installed by the agent from a local marketplace) ------------------------
    Case(
        "plugin-hook",
        "a plugin's hooks run after the user's, with ${PLUGIN_ROOT} replaced in the command "
        "and PLUGIN_ROOT, PLUGIN_DATA and their CLAUDE_ twins set; its deny blocks",
        (
            Hook("a", stdout=pre(additionalContext="user first")),
            Hook("p", layers=("plugin",), stdout=pre("deny", "the plugin says no")),
        ),
        Does(
            ran=False,
            runs={"a": context("user first"), "p": blocked_by("the plugin says no")},
            developer=("user first",),
            output=blocked("the plugin says no"),
        ),
    ),
    Case(
        "plugin-untrusted",
        "a plugin's hook nobody reviewed is skipped like any other",
        (W, Hook("p", layers=("plugin",), exit=2, stderr="never", trusted=False)),
        Does(counts={"p": 0}),
        differs=OWN_TRUST,
        hookd_also=("p",),
    ),
    # -- system and managed hooks (/etc/codex, shown in the agent's mount namespace) ---------
    Case(
        "managed-hooks-first",
        "/etc/codex/requirements.toml [hooks] and /etc/codex/config.toml [hooks] are managed "
        "(run with no review) and come first, in that order",
        (
            Hook("a", stdout=pre(additionalContext="user")),
            Hook("s", layers=(), stdout=pre(additionalContext="system config")),
            Hook("m", layers=(), stdout=pre(additionalContext="requirements")),
        ),
        Does(
            runs={
                "a": context("user"),
                "s": context("system config"),
                "m": context("requirements"),
            },
            developer=("requirements", "system config", "user"),
        ),
        files={
            "{system}/etc/codex/config.toml": toml_hook("s"),
            "{system}/etc/codex/requirements.toml": toml_hook("m"),
        },
    ),
    Case(
        "managed-only",
        "allow_managed_hooks_only in the requirements: the user's and the project's hooks "
        "are left out, the managed ones run",
        (
            Hook("a", exit=2, stderr="never"),
            Hook("b", layers=("project",), exit=2, stderr="never"),
            Hook("m", layers=(), stdout=pre(additionalContext="managed")),
        ),
        Does(runs={"m": context("managed")}, developer=("managed",), counts={"a": 0, "b": 0}),
        files={
            "{system}/etc/codex/requirements.toml": "allow_managed_hooks_only = true\n"
            + toml_hook("m")
        },
    ),
    Case(
        "subagent-start-outputs",
        "SubagentStart: plain stdout is context for the subagent; an unknown key is invalid "
        '("subagent start"); exit 2 is an ordinary failure',
        (
            Hook("a", event="SubagentStart", stdout=out({"foo": 1})),
            Hook("b", event="SubagentStart", stdout="plain sub start"),
            Hook("e", event="SubagentStart", exit=2, stderr="x"),
        ),
        Does(
            runs={
                "a": failed("hook returned invalid subagent start JSON output"),
                "b": context("plain sub start"),
                "e": failed("hook exited with code 2"),
            },
            sub_developer=("plain sub start",),
            requests=3,
            sub_requests=2,
        ),
        event="SubagentStart",
        matcher=None,
        **SUBAGENT,
    ),
    Case(
        "subagent-stop-invalid",
        'SubagentStop: an unknown key and plain stdout are invalid ("subagent stop hook")',
        (
            Hook("c", event="SubagentStop", stdout=out({"foo": 1})),
            Hook("d", event="SubagentStop", stdout="plain"),
        ),
        Does(
            runs={
                "c": failed("hook returned invalid subagent stop hook JSON output"),
                "d": failed("hook returned invalid subagent stop hook JSON output"),
            },
            requests=3,
            sub_requests=2,
        ),
        event="SubagentStop",
        matcher=None,
        **SUBAGENT,
    ),
]
