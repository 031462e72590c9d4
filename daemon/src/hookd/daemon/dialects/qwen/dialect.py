"""Qwen Code's hooks (``@qwen-code/qwen-code`` 0.24.4), judged by the real agent
(``tests/agents/qwen``; the rules' sources: ``docs/compatibility.md``, "Qwen Code", and
``qwen-research.md``).

Qwen took Claude Code's hook contract (its event names, payload envelope, settings shape,
exit code 2, context from plain stdout on the prompt and session events: shared here by
import from ``dialects/claude``) into a fork of Gemini CLI (whose settings reader, relay
answers and adopt plans are shared by import from ``dialects/gemini``), and changed it.

Where (§1): hooks add up across every file, nothing overrides anything, in this order:
the project's ``<cwd>/.qwen/settings.json`` (the launch folder only; not when it is the
home; not in a folder Qwen's folder trust, when switched on, does not trust), the user's
``~/.qwen/settings.json``, the system defaults and the system settings
(``/etc/qwen-code/system-defaults.json`` and ``settings.json``). The project runs first.
Each agent file is followed by the hookd-owned file of the hooks ``hookd adopt`` took from
it. ``disableAllHooks`` switches every hook off (the last file that says wins: system
defaults, user, project, system). Among the matched hooks, the same command (with its
name, when it has one) runs once, the first one kept.

What a command is (§2): every string of a settings file with ``$VAR`` and ``${VAR}`` of
the agent's environment put in (even inside single quotes; an unset variable stays as
written; the session ids never).

How (§4): ``bash -c <command>`` (bash from ``PATH``) in the session's folder with the
agent's environment plus ``GEMINI_PROJECT_DIR``, ``CLAUDE_PROJECT_DIR``,
``QWEN_PROJECT_DIR``, ``QWEN_CODE_SESSION_ID``, ``QWEN_CODE_PROJECT_DIR`` (the project's
folder under ``~/.qwen/projects``), ``QWEN_CODE_AGENT_ID``, ``QWEN_CODE_PROMPT_ID`` and the
handler's own ``env``; the payload as ``JSON.stringify`` writes it, no newline. Matched
hooks start together, unless any of their groups says ``"sequential": true``: then all run
in order, a PreToolUse ``tool_input`` or a prompt's context changing the next one's input
(never the tool's). Timeouts are seconds, 1000 or more milliseconds.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from hookd.protocol import Action

from ...jstext import to_json_bytes
from ...model import (
    Combined,
    CombinePolicy,
    Dialect,
    FireRequest,
    HookReport,
    HookSpec,
    Launch,
    Loaded,
    Prepared,
    ProcessOutcome,
    Source,
    Verdict,
)
from ...safe_read import read_regular_file
from .. import base, relay_entries
from ..base import first_root, hook_environment
from ..gemini import dialect as gemini
from ..gemini.dialect import (
    answers_in_order,
    home_of,
    same_path,
    session_folder,
    without_answer,
)
from . import config, events, output
from .events import (
    BLOCK_EVENTS,
    CONTEXT_EVENTS,
    CONTINUE_EVENTS,
    ENDS_PROMPT,
    MATCHED_FIELD,
    STOP_EVENTS,
    TOOL_ALIASES,
    TOOL_EVENTS,
)

DIALECT = Dialect.QWEN
EVENTS: tuple[str, ...] = events.EVENTS
GUARD_EVENTS: frozenset[str] = events.GUARD_EVENTS
POLICY = CombinePolicy(context_separator="\n", reason_separator="\n", trim=False,
                       reasons_from="all")  # fmt: skip
UNCANCELLABLE_EVENTS: frozenset[str] = frozenset()
TAKES_HOOKS_DIRS = False
HOOKS_DIR_ENV: str | None = None
SYSTEM_FOLDER = os.path.join("etc", "qwen-code")
SYSTEM_DEFAULTS = "system-defaults.json"
SHELL = "bash"
_EVENT_SET = frozenset(EVENTS)
_ENV_REFERENCE = re.compile(r"\$(?:(\w+)|\{([^}]+)\})")
_NEVER_EXPANDED = frozenset({"SESSION_ID", "QWEN_CODE_SESSION_ID"})
RUN_VARIABLES = ("GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "QWEN_PROJECT_DIR",
                 "QWEN_CODE_SESSION_ID", "QWEN_CODE_PROJECT_DIR", "QWEN_CODE_AGENT_ID",
                 "QWEN_CODE_PROMPT_ID")  # fmt: skip
"""The variables Qwen sets for each hook (its own environment has not them)."""

kept_after_error = base.keep_none
switched_off = base.none_off
fire_extras = base.no_extras
async_result = base.no_async_result


def canonical_event(event: str) -> str | None:
    return event if event in _EVENT_SET else None


hook_label = gemini.hook_label
"""How Qwen names a hook: its ``name``, else its command (as Gemini CLI does)."""


def sources(home: str, system_root: str, roots: Sequence[str]) -> list[Source]:
    """Every file in Qwen's order (project first), each agent file followed by the
    hookd-owned file of what ``hookd adopt`` took from it."""
    system = os.path.join(system_root, SYSTEM_FOLDER)
    user_file = os.path.join(home, ".qwen", config.SETTINGS_FILE)
    found: list[Source] = []
    for root in roots:
        project_file = os.path.join(root, ".qwen", config.SETTINGS_FILE)
        found.append(Source(DIALECT, "project", project_file, "settings", root))
        found.append(Source(DIALECT, "project", adopted_path(home, root), "settings", root,
                            adopted=True, adopted_from=project_file))  # fmt: skip
    found += [
        Source(DIALECT, "user", user_file, "settings"),
        Source(DIALECT, "user", adopted_path(home, None), "settings", adopted=True,
               adopted_from=user_file),
        Source(DIALECT, "system-defaults", os.path.join(system, SYSTEM_DEFAULTS), "settings"),
        Source(DIALECT, "system", os.path.join(system, config.SETTINGS_FILE), "settings"),
    ]  # fmt: skip
    return found


def adopted_path(home: str, root: str | None) -> str:
    """The hookd-owned ``settings.json`` of the hooks adopted from the user's (``root``
    None) or a workspace's settings: read with Qwen's rules at the same place."""
    return os.path.join(relay_entries.owned_folder(home, DIALECT.value, root), config.SETTINGS_FILE)


def load(source: Source) -> Loaded:
    return config.load_settings(source)


def load_event(source: Source, event: str) -> tuple[HookSpec, ...] | Loaded:
    return config.load_settings(source)


def sequential(request: FireRequest, specs: Sequence[HookSpec]) -> bool:
    """All of an event's hooks run in order when any matched group says so (§4.4)."""
    return any(spec.options.get("sequential") for spec in specs)


def chained(request: FireRequest, report: HookReport) -> FireRequest:
    """In order, a hook that exited 0 changes what the next one is given (§4.4): a
    UserPromptSubmit or UserPromptExpansion context is added to the prompt, a PreToolUse
    ``hookSpecificOutput.tool_input`` merged key by key into the payload's."""
    answer = report.verdict.native.get("output")
    if report.outcome.exit_code != 0 or not isinstance(answer, Mapping):
        return request
    specific = output.specific_of(answer)
    payload = request.payload
    if request.event in ENDS_PROMPT:
        context = specific.get("additionalContext")
        prompt = payload.get("prompt")
        if isinstance(context, str) and context and isinstance(prompt, str):
            payload = {**payload, "prompt": prompt + "\n\n" + context}
    elif request.event == "PreToolUse":
        given = specific.get("tool_input")
        if isinstance(given, Mapping) and given and isinstance(payload.get("tool_input"), Mapping):
            payload = {**payload, "tool_input": {**payload["tool_input"], **given}}
    return request if payload is request.payload else replace(request, payload=payload)


def select(
    loaded: Sequence[tuple[Source, Loaded]], request: FireRequest
) -> tuple[list[HookSpec], list[str]]:
    """The event's hooks in Qwen's order: ``disableAllHooks``, folder trust, the commands as
    Qwen expands them, matchers, duplicates dropped."""
    warnings: list[str] = []
    home = home_of(request)
    cwd = session_folder(request)
    untrusted = _untrusted(loaded, request, cwd)
    counted = [(s, c) for s, c in loaded if not (untrusted and s.layer == "project")]
    if _all_off(counted):
        return [], warnings
    env = _expansion_env(request)
    chosen: list[HookSpec] = []
    seen: set[str] = set()
    for source, content in loaded:
        if source.layer == "project":
            if source.root is not None and same_path(source.root, home):
                continue  # Qwen skips the workspace file when the folder is the home
            if untrusted:
                continue
        if not relay_entries.runs_in(source, request):
            continue
        for spec in content.hooks.get(request.event, ()):
            spec = _expanded(spec, env)
            if relay_entries.is_relay_command(spec.command):
                continue  # hookd's own relay entry
            if not _matches(spec.matcher, request):
                continue
            name = spec.options.get("name")
            key = f"{name}:{spec.command}" if name else spec.command
            if key in seen:
                continue
            seen.add(key)
            chosen.append(spec)
    if untrusted:
        warnings.append(f"{cwd} is a folder Qwen Code's folder trust does not trust: its "
                        "project hooks do not run")  # fmt: skip
    return chosen, warnings


_SWITCH_ORDER = {"system-defaults": 0, "user": 1, "project": 2, "system": 3}


def _all_off(loaded: Sequence[tuple[Source, Loaded]]) -> bool:
    """``disableAllHooks`` as Qwen merges its settings: the last file that says wins
    (system defaults, user, project, system)."""
    said: list[tuple[int, Any]] = [
        (_SWITCH_ORDER.get(s.layer, 1), c.settings["disableAllHooks"])
        for s, c in loaded
        if not s.adopted and "disableAllHooks" in c.settings
    ]
    return bool(said) and sorted(said, key=lambda pair: pair[0])[-1][1] is True


def _untrusted(loaded: Sequence[tuple[Source, Loaded]], request: FireRequest, cwd: str) -> bool:
    """Whether Qwen's folder trust (``security.folderTrust.enabled``, off unless set in the
    user's or the system's settings) leaves the folder untrusted: no ``TRUST_FOLDER`` or
    ``TRUST_PARENT`` rule of ``trustedFolders.json`` as the longest match (§8.1)."""
    said = [(_SWITCH_ORDER.get(s.layer, 1), c.settings["folderTrust"]) for s, c in loaded
            if s.layer != "project" and "folderTrust" in c.settings]  # fmt: skip
    if not said or sorted(said, key=lambda pair: pair[0])[-1][1] is not True:
        return False
    path = request.env.get("QWEN_CODE_TRUSTED_FOLDERS_PATH") or os.path.join(
        home_of(request), ".qwen", "trustedFolders.json"
    )
    try:
        rules = json.loads(read_regular_file(path))
    except (OSError, ValueError):
        return True
    if not isinstance(rules, dict):
        return True
    best, verdict = -1, None
    for folder, level in rules.items():
        if not isinstance(folder, str):
            continue
        place = os.path.dirname(folder.rstrip("/")) if level == "TRUST_PARENT" else folder
        place = os.path.normpath(place)
        inside = cwd == place or cwd.startswith(place.rstrip("/") + "/")
        if inside and len(place) > best:
            best, verdict = len(place), level
    return verdict not in ("TRUST_FOLDER", "TRUST_PARENT")


def _expansion_env(request: FireRequest) -> Mapping[str, str]:
    """The agent's own environment, for its settings' ``$VAR`` (the fire's; a relay entry's
    also has the variables Qwen set for that hook, which the agent's own has not)."""
    env = request.env or dict(os.environ)
    if request.relay:
        env = {k: v for k, v in env.items() if k not in RUN_VARIABLES}
    return env


def _expanded(spec: HookSpec, env: Mapping[str, str]) -> HookSpec:
    """A settings hook's strings with the agent's variables put in (§2)."""
    name = spec.options.get("name")
    matcher = expand_env(spec.matcher, env) if spec.matcher else spec.matcher
    hook_env = {k: expand_env(v, env) for k, v in spec.options.get("env", {}).items()}
    options = {**spec.options, "name": expand_env(name, env) if name else name, "env": hook_env}
    return replace(spec, command=expand_env(spec.command, env), matcher=matcher, options=options)


def expand_env(text: str, env: Mapping[str, str]) -> str:
    """``$VAR`` and ``${VAR}`` from ``env`` (Qwen's ``resolveEnvVarsInString``): no
    ``:-default``; an unset variable, and the session ids, stay as written."""
    if "$" not in text:
        return text

    def value(found: re.Match[str]) -> str:
        name = found.group(1) or found.group(2) or ""
        if name in _NEVER_EXPANDED or name not in env:
            return found.group(0)
        return env[name]

    return _ENV_REFERENCE.sub(value, text)


def _matches(matcher: str | None, request: FireRequest) -> bool:
    """Qwen's ``matchesHookPattern`` (§2.1): none, ``""``, ``*`` or ``.*`` (trimmed) match
    everything, and so does an event with no subject; then the subject or (tool events) one
    of its aliases exactly; then ``a|b`` alternatives (unless the pattern starts with ``^``
    or ``(``) exactly; then an unanchored, case-sensitive regular expression against the
    subject only (one that does not compile matches nothing)."""
    field = MATCHED_FIELD.get(request.event)
    if matcher is None or field is None:
        return True
    wanted = matcher.strip()
    if wanted in ("", "*", ".*"):
        return True
    subject = request.payload.get(field)
    if not isinstance(subject, str) or not subject:
        return True
    names = {subject}
    if request.event in TOOL_EVENTS:
        names.update(TOOL_ALIASES.get(subject, ()))
    if wanted in names:
        return True
    alternatives = wanted.split("|") if not wanted.startswith(("^", "(")) else []
    if len(alternatives) > 1 and any(p.strip() in names | {"*", ".*"} for p in alternatives):
        return True
    try:
        return re.search(wanted, subject) is not None
    except re.error:
        return False


def prepare(spec: HookSpec, request: FireRequest, base_env: Mapping[str, str]) -> Prepared:
    payload = request.payload
    cwd = session_folder(request)
    env = hook_environment(base_env, request.env)
    session = payload.get("session_id")
    env.update(GEMINI_PROJECT_DIR=cwd, CLAUDE_PROJECT_DIR=cwd, QWEN_PROJECT_DIR=cwd)
    if isinstance(session, str):
        env["QWEN_CODE_SESSION_ID"] = session
    transcript = payload.get("transcript_path")
    if isinstance(transcript, str) and transcript:
        env["QWEN_CODE_PROJECT_DIR"] = os.path.dirname(os.path.dirname(transcript))
    # the agent the hook runs for: SubagentStart's agent_id names the one being started,
    # its hooks run in the parent's context (tests/agents/qwen: subagent-start)
    agent = payload.get("agent_id") if request.event != "SubagentStart" else None
    prompt = payload.get("prompt_id")
    env["QWEN_CODE_AGENT_ID"] = agent if isinstance(agent, str) else ""
    env["QWEN_CODE_PROMPT_ID"] = prompt if isinstance(prompt, str) else ""
    env.update(spec.options.get("env", {}))
    shell = spec.options.get("shell")
    argv = ("powershell", "-Command", spec.command) if shell == "powershell" else (
        SHELL, "-c", spec.command)  # fmt: skip
    # JSON.stringify, nothing after it (tests/agents/qwen: byte for byte)
    folder = cwd if os.path.isdir(cwd) else first_root(request)
    return Launch(argv=argv, stdin=to_json_bytes(payload), cwd=folder, env=env)


def interpret(spec: HookSpec, request: FireRequest, outcome: ProcessOutcome) -> Verdict:
    return output.interpret(request.event, outcome, spec.timeout_s)


def refine(request: FireRequest, combined: Combined, reports: Sequence[HookReport]) -> Combined:
    """Qwen's own merge of the answers (``output.merge``, in configured order), and what
    the agent takes from it on this event; ``natives`` holds the merged answer."""
    event = request.event
    merged = output.merge(event, answers_in_order(reports))
    if merged is None:
        return without_answer(combined)
    specific = output.specific_of(merged)
    stops = event in CONTINUE_EVENTS and merged.get("continue") is False
    decision, reason = _decision(event, merged, specific)
    unrun = next((r for r in reports if r.verdict.blocks and not r.verdict.native), None)
    if event == "PermissionRequest" and unrun is not None:  # Qwen reads no top-level deny
        decision, reason = "deny", unrun.verdict.reason or output.NO_REASON
    blocks = decision == "deny"
    asks = decision == "ask"
    context = specific.get("additionalContext") if event in CONTEXT_EVENTS else None
    if event == "PostToolBatch" and (blocks or stops):
        context = None  # the last result is replaced by the reason (§5.5)
    rewrite: Any = None
    if event == "PermissionRequest" and decision == "allow":
        given = specific.get("decision")
        rewrite = given.get("updatedInput") if isinstance(given, Mapping) else None
    rewrites = isinstance(rewrite, dict)
    rewriter = next((r.spec.source for r in reversed(reports) if r.verdict.native.get("output")),
                    None) if rewrites else None  # fmt: skip
    message = merged.get("systemMessage")
    return replace(
        combined,
        blocked=blocks,
        decision=decision,
        reason=reason if blocks or asks else output.nonempty(merged.get("reason")),
        context=context if isinstance(context, str) and context else None,
        updated_input=rewrite if rewrites else None,
        updated_input_from=rewriter,
        continue_=not stops,
        stop_reason=output.effective_reason(merged) if stops else None,
        system_message=message if isinstance(message, str) and message else None,
        natives=(merged,),
        warnings=tuple(w for w in combined.warnings if "rewrote the tool input" not in w),
    )


def _decision(
    event: str, merged: Mapping[str, Any], specific: Mapping[str, Any]
) -> tuple[Any, str | None]:
    """The decision Qwen acts on, and its reason: on PreToolUse the
    ``hookSpecificOutput.permissionDecision`` first (an allow there beats another hook's
    top-level block), on PermissionRequest the ``decision.behavior``, elsewhere the
    top-level ``decision`` where the event reads it."""
    top = merged.get("decision")
    if event == "PreToolUse":
        said = specific.get("permissionDecision")
        if said in ("allow", "deny", "ask"):
            why = output.nonempty(specific.get("permissionDecisionReason"))
            if said == "ask":
                return "ask", why or "User confirmation required"
            return said, why or output.nonempty(merged.get("reason")) or output.NO_REASON
        if top in ("allow", "approve"):
            return "allow", None
        if top in output.BLOCKING:
            return "deny", output.nonempty(merged.get("reason")) or output.NO_REASON
        if top == "ask":
            return "ask", output.nonempty(merged.get("reason")) or "User confirmation required"
        return "allow", None
    if event == "PermissionRequest":
        given = specific.get("decision")
        given = given if isinstance(given, Mapping) else {}
        behavior = given.get("behavior")
        if behavior == "deny":
            return "deny", output.nonempty(given.get("message"))
        return ("allow" if behavior == "allow" else None), None
    if event in BLOCK_EVENTS and top in output.BLOCKING:
        return "deny", output.effective_reason(merged) if event in STOP_EVENTS else (
            output.nonempty(merged.get("reason")) or output.NO_REASON)  # fmt: skip
    return ("allow" if top in ("allow", "approve") else None), None


def action(request: FireRequest, combined: Combined) -> Action:
    """What Qwen does next (§5): a blocked (or stopped) tool call is not run and the turn
    goes on with the reason as its result (``block``); a PostToolUse ``continue: false``
    or a blocked PostToolBatch replaces the result (``block``); a blocked prompt gets no
    model call and the prompt ends (``stop``); a blocked Stop or SubagentStop sends the
    reason as a new turn (``block``: the agent goes on, up to its cap of 8); ``ask`` asks
    (refused headless); the other events take no decision."""
    event = request.event
    if event in ENDS_PROMPT and (combined.blocked or not combined.continue_):
        return "stop"
    if combined.blocked or not combined.continue_:
        return "block"
    return "ask" if combined.decision == "ask" else "proceed"


def native(request: FireRequest, combined: Combined) -> dict[str, Any]:
    """The combined outcome as one Qwen hook's JSON answer (what the relay prints): the
    merged answer, which Qwen merges again with its own hooks' as it would have merged
    the adopted hooks'."""
    if not combined.natives:
        return {}
    return dict(combined.natives[0])
