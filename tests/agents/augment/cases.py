"""The Augment cases, as a table a person can read: each names the event, the hooks
(what each answers, in which settings files), the tool call the scripted model makes,
and what it pins.

Every case runs twice: by the real agent (``auggie --print``) and by hookd on the same
files with the payload the agent gave its hooks; ``test_augment_agent.py`` compares them.
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
    """More handler keys (``timeout``, ``args``); ``command`` replaces the script's path
    (``{script}`` in it is that path)."""
    matcher: str | None = None
    sleep: float = 0
    """Seconds before it answers (to overlap with others or pass a ``timeout``)."""
    layers: tuple[str, ...] = ("workspace",)
    """The settings files it is declared in: user, local, workspace, plugin."""
    event: str | None = None
    """Another event than the case's (a hook auggie must never run, e.g. Notification)."""
    group: dict[str, Any] = field(default_factory=dict)
    """More keys of its matcher group (``metadata``)."""
    not_executable: bool = False
    folder: str = ""
    """A sub-folder of the hooks folder for its script (odd names: spaces)."""
    symlink: bool = False
    """The command names a symlink to the script, not the script."""
    ignore_term: bool = False
    """The script ignores SIGTERM (a timeout must still end it)."""


def out(obj: Any) -> str:
    return json.dumps(obj)


def pre(decision: str | None = None, reason: str = "", **more: Any) -> str:
    spec: dict[str, Any] = {"hookEventName": "PreToolUse"}
    if decision:
        spec["permissionDecision"] = decision
    if reason:
        spec["permissionDecisionReason"] = reason
    return out({"hookSpecificOutput": {**spec, **more}})


def specific(event: str, **fields: Any) -> str:
    return out({"hookSpecificOutput": {"hookEventName": event, **fields}})


@dataclass(frozen=True)
class Case:
    id: str
    about: str
    hooks: tuple[Hook, ...]
    event: str = "PreToolUse"
    matcher: str | None = "launch-process"
    files: dict[str, Any] = field(default_factory=dict)
    """More settings per layer: a ``{"hooks": {...}}`` merged with the hooks' groups
    (``{hooks}`` in it is the hooks folder), or a string written as the whole file."""
    tool_command: str = "touch {ws}/ran"
    """The shell command the scripted model asks for (``launch-process``)."""
    tool: str = "launch-process"
    never_fires: bool = False
    """auggie runs none of the hooks (the case pins that; hookd is not asked)."""
    xfail: str | None = None


W = Hook("w", matcher=".*", layers=("user",))
"""A witness: a hook that always runs on the event, so hookd gets the agent's payload
even when the hook under test does not run."""
TIMEOUT = {"timeout": 300}
"""The handler's own timeout (ms): a hook that sleeps 3 s is cut after 0.3 s."""
ALL_METADATA = {
    "includeUserContext": True,
    "includeMCPMetadata": True,
    "includeConversationData": True,
}
REWRITE = {"command": "touch {ws}/rewritten", "wait": True, "max_wait_seconds": 30}

CASES = [
    # -- PreToolUse: exit codes --------------------------------------------------------
    Case("pre-exit0-allows", "exit 0 without output: the tool runs", (Hook("a"),)),
    Case(
        "pre-exit2-blocks",
        "exit 2 blocks; stderr, prefixed [hook:PreToolUse]:, is what the model sees",
        (Hook("a", exit=2, stderr="no rm here"),),
    ),
    Case(
        "pre-exit2-no-stderr",
        "exit 2 without stderr blocks with auggie's default text",
        (Hook("a", exit=2),),
    ),
    Case(
        "pre-exit2-ignores-json",
        "exit 2 with a JSON deny on stdout: the stderr text is the message, not the JSON reason",
        (Hook("a", exit=2, stdout=pre("deny", "json reason"), stderr="stderr reason"),),
    ),
    Case(
        "pre-exit1-non-blocking",
        "exit 1 is a non-blocking error the user sees (the first failing code, all stderr)",
        (Hook("a", exit=1, stderr="oops"), Hook("b", exit=3)),
    ),
    Case(
        "pre-exit1-json-deny-ignored",
        "exit 1 with a JSON deny: auggie does not read the JSON, the tool runs",
        (Hook("a", exit=1, stdout=pre("deny", "would deny")),),
    ),
    # -- PreToolUse: JSON answers ------------------------------------------------------
    Case(
        "pre-json-deny",
        "permissionDecision deny blocks with its reason",
        (Hook("a", stdout=pre("deny", "policy says no")),),
    ),
    Case(
        "pre-json-deny-no-reason",
        "deny without a reason: 'Tool execution blocked by hook'",
        (Hook("a", stdout=pre("deny")),),
    ),
    Case(
        "pre-json-deny-system-message",
        "deny without a reason but with a systemMessage: the user text becomes the message",
        (Hook("a", stdout=out({"systemMessage": "shown", **json.loads(pre("deny"))})),),
    ),
    Case(
        "pre-json-allow-ask-reasons",
        "allow and ask: the tool runs (ask never asks in --print); their reasons reach nobody",
        (Hook("a", stdout=pre("allow", "fine by me")), Hook("b", stdout=pre("ask", "sure?"))),
    ),
    Case(
        "pre-continue-false",
        "continue: false blocks the tool; stopReason is not the message",
        (Hook("a", stdout=out({"continue": False, "stopReason": "halt"})),),
    ),
    Case(
        "pre-system-messages",
        "systemMessages go to the user, several joined; the tool runs",
        (
            Hook("a", stdout=out({"systemMessage": "heads up"})),
            Hook("b", stdout=out({"systemMessage": "second"})),
        ),
    ),
    Case(
        "pre-context-dropped",
        "additionalContext on an allowed PreToolUse reaches nobody",
        (Hook("a", stdout=out({"additionalContext": "remember the tests"})),),
    ),
    Case(
        "pre-deny-with-context",
        "deny with additionalContext: context, then reason, is the message",
        (
            Hook(
                "a",
                stdout=out(
                    {"additionalContext": "why it matters", **json.loads(pre("deny", "denied"))}
                ),
            ),
        ),
    ),
    Case(
        "pre-plain-stdout-and-stderr",
        "stdout that is not JSON and each stderr line of a hook that exits 0 go to the user",
        (Hook("a", stdout="{not json", stderr="line one\n\nline two"),),
    ),
    Case(
        "pre-json-wrong-type",
        "JSON whose field has the wrong type fails auggie's schema: plain text, no block",
        (
            Hook(
                "a",
                stdout=out(
                    {
                        "continue": "no",
                        "hookSpecificOutput": {
                            "hookEventName": "PreToolUse",
                            "permissionDecision": "deny",
                        },
                    }
                ),
            ),
        ),
    ),
    Case(
        "pre-json-null-field",
        "a known field that is null fails the schema too: the deny beside it is plain text",
        (Hook("a", stdout=out({"systemMessage": None, **json.loads(pre("deny", "no"))})),),
    ),
    # -- PreToolUse: updatedInput ------------------------------------------------------
    Case(
        "pre-updated-input",
        "updatedInput rewrites the command that runs",
        (Hook("a", stdout=pre(updatedInput=REWRITE)),),
    ),
    Case(
        "pre-updated-input-and-deny",
        "a deny beside a rewrite: nothing runs",
        (Hook("a", stdout=pre(updatedInput=REWRITE)), Hook("b", stdout=pre("deny", "no"))),
    ),
    Case(
        "pre-updated-input-last-file-wins",
        "two rewrites: the one from the later settings file (workspace after user) wins",
        (
            Hook("a", stdout=pre(updatedInput=REWRITE), layers=("workspace",)),
            Hook("b", stdout=pre(updatedInput={"command": "true"}), layers=("user",)),
        ),
    ),
    Case(
        "pre-updated-input-local-before-workspace",
        "settings.local.json comes before settings.json: the workspace file's rewrite wins",
        (
            Hook("a", stdout=pre(updatedInput={"command": "true"}), layers=("local",)),
            Hook("b", stdout=pre(updatedInput=REWRITE), layers=("workspace",)),
        ),
    ),
    Case(
        "pre-updated-input-user-before-local",
        "the user file comes before settings.local.json: the local file's rewrite wins",
        (
            Hook("a", stdout=pre(updatedInput={"command": "true"}), layers=("user",)),
            Hook("b", stdout=pre(updatedInput=REWRITE), layers=("local",)),
        ),
    ),
    # -- several hooks -----------------------------------------------------------------
    Case(
        "pre-parallel",
        "an event's hooks run in parallel",
        (Hook("a", sleep=1), Hook("b", sleep=1), Hook("c", sleep=1)),
    ),
    Case(
        "pre-two-denies-first-reason",
        "two denies: only the first hook's reason is the message",
        (Hook("a", stdout=pre("deny", "first no")), Hook("b", stdout=pre("deny", "second no"))),
    ),
    Case(
        "pre-two-exit2-stderr-joined",
        "two exit-2 hooks: their stderr joined is the message",
        (Hook("a", exit=2, stderr="one"), Hook("b", exit=2, stderr="two")),
    ),
    Case(
        "pre-exit2-beside-deny",
        "exit 2 in one hook, a JSON deny in another: the stderr texts are the message",
        (Hook("a", exit=2, stderr="by exit"), Hook("b", stdout=pre("deny", "by json"))),
    ),
    Case(
        "pre-contexts-join-on-deny",
        "two contexts and a deny: the contexts joined, then the reason",
        (
            Hook("a", stdout=out({"additionalContext": "ctx a"})),
            Hook("b", stdout=out({"additionalContext": "ctx b", **json.loads(pre("deny", "no"))})),
        ),
    ),
    Case(
        "pre-deny-beside-exit1",
        "a deny beside a hook that exits 1: auggie lets the tool run (failurePolicy agent)",
        (Hook("a", stdout=pre("deny", "no")), Hook("b", exit=1, stderr="broken")),
    ),
    Case(
        "pre-deny-beside-timeout",
        "a deny beside a hook that times out: auggie lets the tool run",
        (Hook("a", stdout=pre("deny", "no")), Hook("b", sleep=3, fields=TIMEOUT)),
    ),
    Case(
        "pre-timeout",
        "a hook past its own timeout (ms) is a non-blocking error; the tool runs",
        (Hook("a", sleep=3, fields=TIMEOUT, exit=2, stderr="too late"),),
    ),
    Case(
        "pre-plain-stdout-beside-json",
        "plain stdout is shown only when no hook answered with JSON",
        (Hook("a", stdout="plain"), Hook("b", stdout=out({"systemMessage": "json"}))),
    ),
    # -- matchers ----------------------------------------------------------------------
    Case(
        "pre-matcher-misses",
        "a matcher for another tool: the hook never runs",
        (W, Hook("a", exit=2, stderr="never", matcher="view")),
    ),
    Case(
        "pre-matcher-unanchored",
        "the matcher is an unanchored regex",
        (Hook("a", exit=2, stderr="partial hit", matcher="launch"),),
    ),
    Case(
        "pre-matcher-absent",
        "no matcher is .* (every tool)",
        (Hook("a", exit=2, stderr="absent hit"),),
        matcher=None,
    ),
    Case(
        "pre-matcher-mcp-only",
        "mcp:* matches MCP tools only",
        (W, Hook("a", exit=2, stderr="never", matcher="mcp:*")),
    ),
    Case(
        "pre-invalid-matcher-drops-file-event",
        "an invalid regex drops that file's PreToolUse hooks; other files' still run",
        (
            W,
            Hook("a", exit=2, stderr="never", matcher="(", layers=("workspace",)),
            Hook("b", exit=2, stderr="also dropped", matcher="launch"),
        ),
    ),
    Case(
        "pre-non-command-type-drops-event",
        "a handler of another type drops the whole event of that file",
        (W, Hook("a", exit=2, stderr="dropped")),
        files={
            "workspace": {
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": ".*",
                            "hooks": [
                                {"type": "command", "command": "{hooks}/a.sh"},
                                {"type": "http", "url": "http://127.0.0.1:9/"},
                            ],
                        }
                    ]
                }
            }
        },
    ),
    # -- files, merging, dedup -----------------------------------------------------------
    Case(
        "pre-every-file",
        "hooks in the user file, settings.local.json and settings.json all run",
        (Hook("a", layers=("user",)), Hook("b", layers=("local",)), Hook("c")),
    ),
    Case(
        "pre-same-command-runs-once",
        "the same command in two files with the same matcher runs once",
        (Hook("a", layers=("user", "workspace")),),
    ),
    Case(
        "pre-same-command-other-args",
        "the same command with other args is another hook",
        (
            Hook("a", fields={"args": ["one"]}, layers=("user",)),
            Hook("a", fields={"args": ["two"]}),
        ),
    ),
    # -- handler forms -------------------------------------------------------------------
    Case(
        "pre-args",
        "args reach the script as arguments, without a shell",
        (Hook("a", fields={"args": ["x", "two words", "$HOME"]}),),
    ),
    Case(
        "pre-command-with-spaces",
        "a command with spaces and no args is split into words",
        (Hook("a", fields={"command": "{script} 'one two' three"}),),
    ),
    Case(
        "pre-env-expansion",
        "${VAR} in the command expands from the agent's environment",
        (Hook("a", fields={"command": "${HOOK_OUT}/../hooks/a.sh"}),),
    ),
    Case(
        "pre-inline-shell",
        "a command with shell characters runs under bash -c",
        (Hook("a", fields={"command": 'cat > "$HOOK_OUT/a.stdin.0"; echo inline no >&2; exit 2'}),),
    ),
    Case(
        "pre-not-executable",
        "a script without its exec bit cannot be spawned: a non-blocking error",
        (W, Hook("a", exit=2, stderr="never", not_executable=True)),
    ),
    # -- plugins (--plugin-dir, hookd's hooksDirs) -----------------------------------------
    Case(
        "plugin-hook",
        "a plugin's hooks/*.json runs, ${AUGMENT_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_ROOT} replaced",
        (
            Hook(
                "a",
                layers=("plugin",),
                fields={
                    "command": "${AUGMENT_PLUGIN_ROOT}/../../hooks/a.sh",
                    "args": ["${CLAUDE_PLUGIN_ROOT}/x"],
                },
            ),
        ),
    ),
    Case(
        "plugin-after-settings",
        "plugins come after the settings files: a plugin's rewrite wins",
        (
            Hook("a", stdout=pre(updatedInput={"command": "true"})),
            Hook("b", stdout=pre(updatedInput=REWRITE), layers=("plugin",)),
        ),
    ),
    Case(
        "pre-symlinked-script",
        "a command that is a symlink to the script runs the script",
        (Hook("a", exit=2, stderr="via link", symlink=True),),
    ),
    Case(
        "pre-path-with-spaces",
        "an unquoted script path with a space is split into words: it cannot start",
        (W, Hook("a", exit=2, stderr="never", folder="my hooks")),
    ),
    Case(
        "pre-timeout-ignores-sigterm",
        "a hook that ignores SIGTERM past its timeout: the tool still runs at once",
        (Hook("a", sleep=3, fields=TIMEOUT, exit=2, stderr="too late", ignore_term=True),),
    ),
    # -- metadata ----------------------------------------------------------------------
    Case(
        "metadata-one-payload-per-fire",
        "one group's opt-in (context, mcp_metadata, user_prompt) reaches every hook of the fire",
        (Hook("a", group={"metadata": ALL_METADATA}), Hook("b", matcher=".*")),
    ),
    Case(
        "metadata-stop-conversation",
        "includeConversationData adds conversation on Stop",
        (Hook("a", group={"metadata": ALL_METADATA}),),
        event="Stop",
    ),
    # -- other events --------------------------------------------------------------------
    Case(
        "post-contexts",
        "PostToolUse additionalContexts (top level or specific) join, after the tool result",
        (
            Hook("a", stdout=specific("PostToolUse", additionalContext="ran fine")),
            Hook("b", stdout=out({"additionalContext": "top level"})),
        ),
        event="PostToolUse",
    ),
    Case(
        "post-block-reason",
        "PostToolUse decision block: its reason is appended to the tool result",
        (Hook("a", stdout=specific("PostToolUse", decision="block", reason="check it")),),
        event="PostToolUse",
    ),
    Case(
        "post-exit2",
        "PostToolUse exit 2: stderr, prefixed, is appended to the tool result",
        (Hook("a", exit=2, stderr="post says"),),
        event="PostToolUse",
    ),
    Case(
        "stop-block-ignored",
        "a Stop hook's decision block or exit 2 does not make auggie go on",
        (
            Hook("a", stdout=specific("Stop", decision="block", reason="keep going")),
            Hook("b", exit=2, stderr="not done"),
        ),
        event="Stop",
    ),
    Case(
        "session-start-context-dropped",
        "SessionStart stdout and additionalContext do not reach the model",
        (
            Hook("a", stdout="session note"),
            Hook("b", stdout=specific("SessionStart", additionalContext="json note")),
        ),
        event="SessionStart",
    ),
    Case(
        "session-start-exit2",
        "SessionStart exit 2: a message for the user",
        (Hook("a", exit=2, stderr="start failed"),),
        event="SessionStart",
    ),
    Case(
        "session-end-stderr",
        "SessionEnd runs; its stderr is shown to the user",
        (Hook("a", stderr="bye"),),
        event="SessionEnd",
    ),
    Case(
        "prompt-submit-cannot-block",
        "PromptSubmit gets the prompt; exit 2 or continue:false does not stop it",
        (
            Hook("a", exit=2, stderr="no prompt"),
            Hook("b", stdout=out({"continue": False, "stopReason": "halt"})),
        ),
        event="PromptSubmit",
    ),
    Case(
        "prompt-submit-output",
        "PromptSubmit plain stdout is shown to the user, never to the model",
        (Hook("a", stdout="prompt seen"),),
        event="PromptSubmit",
    ),
    Case(
        "notification-never-fires",
        "auggie 0.36.0 accepts Notification hooks but never fires the event",
        (Hook("a", event="Notification"),),
        never_fires=True,
    ),
    Case(
        "cursor-shell-key-never-matches",
        "beforeShellExecution maps to PreToolUse with matcher Bash: no auggie tool has that name",
        (W,),
        files={
            "local": {
                "hooks": {"beforeShellExecution": [{"command": "{hooks}/w.sh", "args": ["cursor"]}]}
            }
        },
    ),
    Case(
        "cursor-stop-key",
        "a file of Cursor-style keys only: stop runs on Stop",
        (Hook("a", stderr="cursor stop", layers=()),),
        event="Stop",
        files={"user": {"hooks": {"stop": [{"command": "{hooks}/a.sh"}]}}},
    ),
    Case(
        "cursor-key-beside-native-ignored",
        "a Cursor-style key beside native events: auggie ignores the whole file",
        (Hook("w"), Hook("a", layers=("user",))),
        event="Stop",
        files={"user": {"hooks": {"stop": [{"command": "{hooks}/a.sh", "args": ["cursor"]}]}}},
    ),
]
