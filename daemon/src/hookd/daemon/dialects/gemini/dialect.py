"""Gemini CLI's hooks (``@google/gemini-cli`` 0.61.0), judged by the real agent
(``tests/agents/gemini``; the rules' sources: ``docs/compatibility.md``, "Gemini CLI",
and ``gemini-research.md``).

Where (§1): hooks add up across every file, nothing overrides anything, in this order: the
system defaults (``/etc/gemini-cli/system-defaults.json``), the user's
``~/.gemini/settings.json`` (``GEMINI_CLI_HOME`` in the agent's environment moves
``~/.gemini``), the project's ``<cwd>/.gemini/settings.json`` (the launch folder only; not
when it is the home), the system settings (``/etc/gemini-cli/settings.json``), then each
installed extension's ``hooks/hooks.json``. The two system files count only when they and
every folder above them are root's and not writable by group or others. Each agent file is
followed by the hookd-owned file of the hooks ``hookd adopt`` took from it.
``hooksConfig.enabled: false`` switches every hook off, ``hooksConfig.disabled`` (names or
commands, from every file) single ones. The same name and command twice run once.

What a command is (§2.3): the settings files' strings with ``$VAR``, ``${VAR}`` and
``${VAR:-default}`` of the agent's environment put in (even inside single quotes); an
extension's with its ``${extensionPath}``, ``${workspacePath}`` and ``${/}``; then, at each
run, ``$GEMINI_PROJECT_DIR``, ``$GEMINI_CWD``, ``$CLAUDE_PROJECT_DIR``, ``$GEMINI_PLANS_DIR``
and ``$GEMINI_SESSION_ID`` replaced by their shell-quoted values.

How (§4): ``bash -c <command>`` (bash from ``PATH``) in the session's folder with the agent's
environment plus ``GEMINI_PROJECT_DIR``, ``GEMINI_PLANS_DIR``, ``GEMINI_CWD``,
``GEMINI_SESSION_ID``, ``CLAUDE_PROJECT_DIR`` and the handler's own ``env``; the payload as
``JSON.stringify`` writes it, no newline. Matched hooks start together, unless any of their
groups says ``"sequential": true``: then all run in order, each hook's answer changing the
next one's input. Timeouts are milliseconds.

Gemini's own trust (a warning the first time a project's hooks change, then it runs them)
is not hookd's: under hookd a workspace's hooks run once ``hookd allow`` trusts them. Its
folder trust is kept where it is explicit: in a folder the user does not trust
(``GEMINI_CLI_TRUST_WORKSPACE=false``, a ``DO_NOT_TRUST`` rule) only extensions' hooks run.
"""

from __future__ import annotations

import json
import os
import re
import stat
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
from . import config, events, output
from .events import CONTEXT_EVENTS, DECIDING_EVENTS, MATCHED_FIELD, OR_EVENTS, TOOL_EVENTS

DIALECT = Dialect.GEMINI
EVENTS: tuple[str, ...] = events.EVENTS
GUARD_EVENTS: frozenset[str] = events.GUARD_EVENTS
POLICY = CombinePolicy(context_separator="\n", reason_separator="\n", trim=False,
                       reasons_from="all")  # fmt: skip
UNCANCELLABLE_EVENTS: frozenset[str] = frozenset()
TAKES_HOOKS_DIRS = True
HOOKS_DIR_ENV: str | None = "GEMINI_CLI_HOME"
"""``GEMINI_CLI_HOME`` in the agent's environment: the folder whose ``.gemini`` Gemini reads
instead of ``~/.gemini`` (its settings and its extensions)."""
SYSTEM_FOLDER = os.path.join("etc", "gemini-cli")
SYSTEM_DEFAULTS = "system-defaults.json"
SHELL = "bash"
_SPECIAL = re.compile(r"([A-Za-z]:)?([#!\"$&'()*,:;<=>?@\[\\\]^`{|}])")
_EVENT_SET = frozenset(EVENTS)
_ENV_REFERENCE = re.compile(r"\$(?:([A-Za-z0-9_]+)|\{([^}]+?)(?::-([^}]*))?\})")
_RUN_VARIABLE = re.compile(
    r"\$(GEMINI_PROJECT_DIR|GEMINI_CWD|GEMINI_PLANS_DIR|GEMINI_SESSION_ID|CLAUDE_PROJECT_DIR)"
)

kept_after_error = base.keep_none
switched_off = base.none_off
fire_extras = base.no_extras
async_result = base.no_async_result


def canonical_event(event: str) -> str | None:
    return event if event in _EVENT_SET else None


def hook_label(spec: HookSpec) -> str:
    """How Gemini names a hook: its ``name``, else its command."""
    return str(spec.options.get("name") or spec.command)


def sources(home: str, system_root: str, roots: Sequence[str]) -> list[Source]:
    """Every file in Gemini's order, each agent file followed by the hookd-owned file of
    what ``hookd adopt`` took from it; the extensions' folder last."""
    system = os.path.join(system_root, SYSTEM_FOLDER)
    user_file = os.path.join(home, ".gemini", config.SETTINGS_FILE)
    found = [
        Source(DIALECT, "system-defaults", os.path.join(system, SYSTEM_DEFAULTS), "settings"),
        Source(DIALECT, "user", user_file, "settings"),
        Source(DIALECT, "user", adopted_path(home, None), "settings", adopted=True,
               adopted_from=user_file),
    ]  # fmt: skip
    for root in roots:
        project_file = os.path.join(root, ".gemini", config.SETTINGS_FILE)
        found.append(Source(DIALECT, "project", project_file, "settings", root))
        found.append(Source(DIALECT, "project", adopted_path(home, root), "settings", root,
                            adopted=True, adopted_from=project_file))  # fmt: skip
    found.append(Source(DIALECT, "system", os.path.join(system, config.SETTINGS_FILE), "settings"))
    found.append(Source(DIALECT, "extension", os.path.join(home, ".gemini", "extensions"),
                        "hookdir"))  # fmt: skip
    return found


def adopted_path(home: str, root: str | None) -> str:
    """The hookd-owned ``settings.json`` of the hooks adopted from the user's (``root``
    None) or a workspace's settings: read with Gemini's rules at the same place."""
    return os.path.join(relay_entries.owned_folder(home, DIALECT.value, root), config.SETTINGS_FILE)


def load(source: Source) -> Loaded:
    if source.kind == "hookdir":
        return _folder(source)  # read whole (status, hooks/list): every event's hooks
    if source.layer in ("system", "system-defaults"):
        insecure = _insecure(source.path)
        if insecure:
            return Loaded(error=insecure)
    return config.load_settings(source)


def _insecure(path: str) -> str | None:
    """Why Gemini skips a system file (§1.1): it, or a folder above it up to the system
    root hookd was given, is not root's or is writable by group or others."""
    top = os.path.dirname(os.path.dirname(os.path.dirname(path)))  # <system_root>
    current = path
    while True:
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            return None
        except OSError as exc:
            return f"Security Warning: Skipping system settings file '{path}': {exc}"
        writable = info.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not stat.S_ISLNK(info.st_mode)
        if info.st_uid != 0 or writable:
            return (f"Security Warning: Skipping system settings file '{path}': '{current}' "
                    f"is insecure (owner {info.st_uid}, mode {oct(info.st_mode)})")  # fmt: skip
        if current == top or os.path.dirname(current) == current:
            return None
        current = os.path.dirname(current)


def load_event(source: Source, event: str) -> tuple[HookSpec, ...] | Loaded:
    return _folder(source)


def _folder(source: Source) -> Loaded:
    """A folder read on every fire: the extensions' folder (each extension's hooks), or a
    folder the fire names (``GEMINI_CLI_HOME``): its ``.gemini/settings.json`` and its
    extensions, in the user's place."""
    if source.layer == "extension":
        return _extensions_of(source.path)
    gemini = os.path.join(source.path, ".gemini")
    user = Source(DIALECT, "user", os.path.join(gemini, config.SETTINGS_FILE), "settings")
    settings = config.load_settings(user)
    extensions = _extensions_of(os.path.join(gemini, "extensions"))
    hooks = {e: (*settings.hooks.get(e, ()), *extensions.hooks.get(e, ())) for e in EVENTS}
    errors = "\n".join(e for e in (settings.error, extensions.error) if e) or None
    return Loaded({e: s for e, s in hooks.items() if s}, errors,
                  {**settings.settings, **extensions.settings})  # fmt: skip


def _extensions_of(folder: str) -> Loaded:
    """Every installed extension's hooks, in the order the folder lists them (Gemini reads
    it unsorted), each marked with its extension; ``settings["enablement"]``: its
    ``extension-enablement.json``."""
    try:
        names = os.listdir(folder)
    except OSError:
        return Loaded()
    hooks: dict[str, list[HookSpec]] = {}
    errors: list[str] = []
    seen: set[str] = set()
    for entry in names:
        where = os.path.join(folder, entry)
        if not os.path.isdir(where):
            continue
        loaded, name, path = config.extension_hooks(where)
        if name is None or name in seen:
            continue
        seen.add(name)
        if loaded.error:
            errors.append(loaded.error)
        for event, specs in loaded.hooks.items():
            hooks.setdefault(event, []).extend(
                replace(s, layer="extension", options={**s.options, "extension": name,
                                                       "extension_path": path})
                for s in specs
            )  # fmt: skip
    enablement = _json_file(os.path.join(folder, config.ENABLEMENT_FILE))
    return Loaded({e: tuple(s) for e, s in hooks.items()}, "\n".join(errors) or None,
                  {"enablement": enablement} if enablement is not None else {})  # fmt: skip


def _json_file(path: str) -> Any:
    try:
        return json.loads(read_regular_file(path))
    except (OSError, ValueError):
        return None


def sequential(request: FireRequest, specs: Sequence[HookSpec]) -> bool:
    """All of an event's hooks run in order when any matched group says so (§4)."""
    return any(spec.options.get("sequential") for spec in specs)


CHAINED = {
    "BeforeAgent": ("additionalContext", None),
    "BeforeModel": ("llm_request", "llm_request"),
    "BeforeTool": ("tool_input", "tool_input"),
}
"""What of a hook's ``hookSpecificOutput`` reaches the next hook's input, and where."""


def chained(request: FireRequest, report: HookReport) -> FireRequest:
    """In order, a hook that succeeded changes what the next one is given (§4): a
    ``BeforeAgent`` context is added to the prompt, a ``BeforeModel`` ``llm_request`` and a
    ``BeforeTool`` ``tool_input`` are merged key by key into the payload's."""
    answer = report.verdict.native.get("output")
    if report.outcome.exit_code != 0 or not isinstance(answer, Mapping):
        return request
    specific = answer.get("hookSpecificOutput")
    if not isinstance(specific, Mapping):
        return request
    payload = request.payload
    key, given = CHAINED.get(request.event, ("", None))
    value = specific.get(key)
    if request.event == "BeforeAgent" and isinstance(value, str) and "prompt" in payload:
        prompt = payload["prompt"]
        prompt = prompt if isinstance(prompt, str) else json.dumps(prompt)
        payload = {**payload, "prompt": prompt + "\n\n" + value}
    elif given and value and isinstance(value, Mapping) and isinstance(payload.get(given), Mapping):
        payload = {**payload, given: {**payload[given], **value}}
    return request if payload is request.payload else replace(request, payload=payload)


def select(
    loaded: Sequence[tuple[Source, Loaded]], request: FireRequest
) -> tuple[list[HookSpec], list[str]]:
    """The event's hooks in Gemini's order: the switches of ``hooksConfig``, its folder
    trust, the commands as Gemini expands them, matchers, duplicates dropped."""
    ordered, warnings = _in_order(loaded, request)
    env = _expansion_env(request)
    switches = _switches(ordered)
    if switches["enabled"] is False:
        return [], warnings
    cwd = session_folder(request)
    untrusted = _untrusted_folder(request, cwd)
    chosen: list[HookSpec] = []
    seen: set[str] = set()
    for source, content in ordered:
        if (
            source.layer == "project"
            and source.root is not None
            and same_path(source.root, home_of(request))
        ):
            continue  # Gemini skips the workspace file when the folder is the home
        if not relay_entries.runs_in(source, request):
            continue
        enablement = content.settings.get("enablement")
        for spec in content.hooks.get(request.event, ()):
            extension = spec.options.get("extension")
            if extension is None:
                if untrusted:
                    continue
                spec = _expanded(spec, env)
            else:
                if not config.enabled_extension(enablement, str(extension), cwd):
                    continue
                spec = _hydrated(spec, cwd)
            if relay_entries.is_relay_command(spec.command):
                continue  # hookd's own relay entry
            if not _matches(spec.matcher, request):
                continue
            name = spec.options.get("name") or ""
            if (name or spec.command) in switches["disabled"]:
                continue
            key = f"{name}:{spec.command}"
            if key in seen:
                continue
            seen.add(key)
            chosen.append(spec)
    if untrusted:
        warnings.append(f"{cwd} is a folder Gemini CLI does not trust: only extensions' hooks "
                        "run there")  # fmt: skip
    return chosen, warnings


RUN_VARIABLES = ("GEMINI_PROJECT_DIR", "GEMINI_CWD", "GEMINI_PLANS_DIR", "GEMINI_SESSION_ID",
                 "CLAUDE_PROJECT_DIR")  # fmt: skip
"""The variables Gemini sets for each hook (and puts into its command at each run)."""


def _expansion_env(request: FireRequest) -> Mapping[str, str]:
    """The agent's own environment, for its settings' ``$VAR`` (the fire's; a relay entry's
    also has the variables Gemini set for that hook, which the agent's own has not)."""
    env = request.env or dict(os.environ)
    if request.relay:
        env = {k: v for k, v in env.items() if k not in RUN_VARIABLES}
    return env


def _in_order(
    loaded: Sequence[tuple[Source, Loaded]], request: FireRequest
) -> tuple[list[tuple[Source, Loaded]], list[str]]:
    """The sources in Gemini's order: a folder the fire names (``GEMINI_CLI_HOME``) stands
    in the user's place (and the user's own file and extensions are not read)."""
    named = [(s, c) for s, c in loaded if s.kind == "hookdir" and s.layer != "extension"]
    warnings = [c.error for s, c in loaded if s.kind == "hookdir" and c.error]
    if not named:
        return list(loaded), warnings
    ordered: list[tuple[Source, Loaded]] = []
    for source, content in loaded:
        if source.kind == "hookdir":
            continue
        if source.layer == "user" and not source.adopted:
            ordered += [(replace(s, layer="user"), c) for s, c in named[:1]]
            continue
        ordered.append((source, content))
    extension_only = {e: tuple(s for s in specs if s.options.get("extension") is not None)
                      for e, specs in named[0][1].hooks.items()}  # fmt: skip
    user_only = {e: tuple(s for s in specs if s.options.get("extension") is None)
                 for e, specs in named[0][1].hooks.items()}  # fmt: skip
    ordered = [(s, replace(c, hooks=user_only)) if c is named[0][1] else (s, c) for s, c in ordered]
    ordered.append(
        (replace(named[0][0], layer="extension"), replace(named[0][1], hooks=extension_only))
    )
    return ordered, warnings


def _switches(ordered: Sequence[tuple[Source, Loaded]]) -> dict[str, Any]:
    """``hooksConfig`` merged as Gemini merges it: ``enabled`` from the last file that says
    (system defaults, user, project, system), ``disabled`` from all of them."""
    enabled: Any = True
    disabled: set[str] = set()
    for _source, content in ordered:
        hooks_config = content.settings.get("hooksConfig")
        if not isinstance(hooks_config, Mapping):
            continue
        if "enabled" in hooks_config:
            enabled = hooks_config["enabled"]
        listed = hooks_config.get("disabled")
        if isinstance(listed, list):
            disabled.update(item for item in listed if isinstance(item, str))
    return {"enabled": enabled, "disabled": disabled}


def _untrusted_folder(request: FireRequest, cwd: str) -> bool:
    """Whether Gemini's folder trust says no, explicitly (§8): ``GEMINI_CLI_TRUST_WORKSPACE``
    set to ``false``, restricted mode, or a ``DO_NOT_TRUST`` rule of ``trustedFolders.json``
    as the longest match. (A folder nobody decided on: Gemini itself does not start
    headless, and asks first in a terminal; hookd runs the hooks its ``allow`` trusts.)"""
    env = request.env
    trusted = env.get("GEMINI_CLI_TRUST_WORKSPACE")
    if trusted == "true":
        return False
    if trusted == "false" or env.get("GEMINI_RESTRICTED_MODE") == "true":
        return True
    path = env.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH") or os.path.join(
        _gemini_home(request), ".gemini", "trustedFolders.json"
    )
    rules = _json_file(path)
    if not isinstance(rules, dict):
        return False
    best, verdict = -1, None
    for folder, level in rules.items():
        if not isinstance(folder, str):
            continue
        place = os.path.dirname(folder.rstrip("/")) if level == "TRUST_PARENT" else folder
        place = os.path.normpath(place)
        inside = cwd == place or cwd.startswith(place.rstrip("/") + "/")
        if inside and len(place) > best:
            best, verdict = len(place), level
    return verdict == "DO_NOT_TRUST"


def _expanded(spec: HookSpec, env: Mapping[str, str]) -> HookSpec:
    """A settings hook's strings with the agent's variables put in (§2.3 step 1)."""
    command = expand_env(spec.command, env)
    name = spec.options.get("name")
    matcher = expand_env(spec.matcher, env) if spec.matcher else spec.matcher
    hook_env = {k: expand_env(v, env) for k, v in spec.options.get("env", {}).items()}
    options = {**spec.options, "name": expand_env(name, env) if name else name, "env": hook_env}
    return replace(spec, command=command, matcher=matcher, options=options)


def _hydrated(spec: HookSpec, cwd: str) -> HookSpec:
    """An extension hook's ``${...}`` placeholders filled in (§2.3 step 3)."""
    values = {"extensionPath": str(spec.options.get("extension_path", "")),
              "workspacePath": cwd, "/": os.sep, "pathSeparator": os.sep}  # fmt: skip
    name = spec.options.get("name")
    hook_env = {k: config.hydrate(v, values) for k, v in spec.options.get("env", {}).items()}
    options = {**spec.options, "name": config.hydrate(name, values) if name else name,
               "env": hook_env}  # fmt: skip
    matcher = config.hydrate(spec.matcher, values) if spec.matcher else spec.matcher
    return replace(spec, command=config.hydrate(spec.command, values), matcher=matcher,
                   options=options)  # fmt: skip


def expand_env(text: str, env: Mapping[str, str]) -> str:
    """``$VAR``, ``${VAR}`` and ``${VAR:-default}`` from ``env`` (Gemini's
    ``resolveEnvVarsInString``): an unset variable takes its default, or stays as written."""
    if "$" not in text:
        return text

    def value(found: re.Match[str]) -> str:
        name = found.group(1) or found.group(2) or ""
        if name in env:
            return env[name]
        default = found.group(3)
        return default if default is not None else found.group(0)

    return _ENV_REFERENCE.sub(value, text)


def _matches(matcher: str | None, request: FireRequest) -> bool:
    """Gemini's matcher (§2.2): none, ``""`` or ``*`` (trimmed) match everything; on the
    tool events an unanchored, case-sensitive regular expression (one that does not
    compile: the exact name); on ``SessionStart``, ``SessionEnd`` and ``PreCompress`` the
    exact value; every other event ignores it."""
    field = MATCHED_FIELD.get(request.event)
    if matcher is None or field is None:
        return True
    wanted = matcher.strip()
    if wanted in ("", "*"):
        return True
    value = request.payload.get(field)
    if not isinstance(value, str) or not value:
        return True  # no context to match against: Gemini runs the hook
    if request.event not in TOOL_EVENTS:
        return wanted == value
    try:
        return re.search(wanted, value) is not None
    except re.error:
        return wanted == value


def prepare(spec: HookSpec, request: FireRequest, base_env: Mapping[str, str]) -> Prepared:
    payload = request.payload
    cwd = session_folder(request)
    session = payload.get("session_id")
    plans = plans_folder(request, cwd)
    env = hook_environment(base_env, request.env)
    env.update(GEMINI_PROJECT_DIR=cwd, GEMINI_PLANS_DIR=plans, GEMINI_CWD=cwd,
               CLAUDE_PROJECT_DIR=cwd)  # fmt: skip
    session_id = session if isinstance(session, str) else ""
    if isinstance(session, str):
        env["GEMINI_SESSION_ID"] = session
    else:
        env.pop("GEMINI_SESSION_ID", None)
    env.update(spec.options.get("env", {}))
    values = {"GEMINI_PROJECT_DIR": cwd, "GEMINI_CWD": cwd, "CLAUDE_PROJECT_DIR": cwd,
              "GEMINI_PLANS_DIR": plans, "GEMINI_SESSION_ID": session_id}  # fmt: skip
    command = _RUN_VARIABLE.sub(lambda m: shell_quote(values[m.group(1)]), spec.command)
    # JSON.stringify, nothing after it (tests/agents/gemini: byte for byte)
    stdin = to_json_bytes(payload)
    folder = cwd if os.path.isdir(cwd) else first_root(request)
    return Launch(argv=(SHELL, "-c", command), stdin=stdin, cwd=folder, env=env)


def shell_quote(value: str) -> str:
    """npm ``shell-quote``'s ``quote([value])``, as Gemini quotes a run-time variable
    (empty: nothing at all)."""
    if not value:
        return ""
    if re.search(r"[\"\s\\]", value) and "'" not in value:
        return "'" + value + "'"
    if re.search(r"[\"'\s]", value):
        return '"' + re.sub(r"([\"\\$`!])", r"\\\1", value) + '"'
    return _SPECIAL.sub(lambda m: (m.group(1) or "") + "\\" + m.group(2), value)


def plans_folder(request: FireRequest, cwd: str) -> str:
    """``GEMINI_PLANS_DIR``: ``~/.gemini/tmp/<project>/<session>/plans``, the project's
    short name as Gemini registered it (``~/.gemini/projects.json``, or the transcript's
    folder)."""
    session = request.payload.get("session_id")
    transcript = request.payload.get("transcript_path")
    if isinstance(transcript, str) and transcript:
        project_tmp = os.path.dirname(os.path.dirname(transcript))
    else:
        gemini = os.path.join(_gemini_home(request), ".gemini")
        registry = _json_file(os.path.join(gemini, "projects.json"))
        projects = registry.get("projects") if isinstance(registry, dict) else None
        slug = projects.get(cwd) if isinstance(projects, dict) else None
        project_tmp = os.path.join(gemini, "tmp", slug if isinstance(slug, str) else
                                   os.path.basename(cwd).lower())  # fmt: skip
    if isinstance(session, str) and session:
        return os.path.join(project_tmp, session, "plans")
    return os.path.join(project_tmp, "plans")


def _gemini_home(request: FireRequest) -> str:
    moved = request.env.get("GEMINI_CLI_HOME")
    return moved if moved and os.path.isabs(moved) else home_of(request)


def home_of(request: FireRequest) -> str:
    """The agent's home: the fire's ``HOME``, else hookd's."""
    return request.env.get("HOME") or os.path.expanduser("~")


def same_path(a: str, b: str) -> bool:
    return os.path.normpath(a) == os.path.normpath(b)


def session_folder(request: FireRequest) -> str:
    """The folder the agent was started in (the payload's ``cwd``), whose settings it reads
    (Gemini CLI and Qwen Code alike: no walk up to a parent or a git root)."""
    cwd = request.payload.get("cwd")
    if isinstance(cwd, str) and os.path.isabs(cwd):
        return cwd
    return first_root(request)


def interpret(spec: HookSpec, request: FireRequest, outcome: ProcessOutcome) -> Verdict:
    return output.interpret(request.event, outcome, spec.timeout_s)


def refine(request: FireRequest, combined: Combined, reports: Sequence[HookReport]) -> Combined:
    """Gemini's own merge of the answers (``output.merge``, in configured order), and what
    the agent takes from it on this event; ``natives`` holds the merged answer."""
    event = request.event
    merged = output.merge(event, answers_in_order(reports))
    if merged is None:
        return without_answer(combined)
    deciding = event in DECIDING_EVENTS
    stops = deciding and merged.get("continue") is False
    blocks = deciding and merged.get("decision") in output.BLOCKING
    asks = event == "BeforeTool" and merged.get("decision") == "ask" and not blocks
    specific = merged.get("hookSpecificOutput")
    specific = specific if isinstance(specific, Mapping) else {}
    context = specific.get("additionalContext") if event in CONTEXT_EVENTS else None
    if (blocks or stops) and event in ("AfterTool", "BeforeAgent"):
        context = None  # a blocked tool result or prompt takes no context (§5.3, §5.4)
    rewrite = specific.get("tool_input") if event == "BeforeTool" else None
    rewrites = isinstance(rewrite, dict) and not (blocks or stops or asks)
    reason = merged.get("reason")
    reason_text = reason if isinstance(reason, str) and reason else None
    if blocks:
        reason_text = output.effective_reason(merged) if event not in OR_EVENTS else (
            reason_text or output.NO_REASON)  # fmt: skip
    rewriter = next((r.spec.source for r in reversed(reports) if r.verdict.has_updated_input),
                    None)  # fmt: skip
    message = merged.get("systemMessage")
    return replace(
        combined,
        blocked=blocks,
        decision="deny" if blocks else ("ask" if asks else "allow"),
        reason=reason_text,
        context=context if isinstance(context, str) else None,
        updated_input=rewrite if rewrites else None,
        updated_input_from=rewriter if rewrites else None,
        continue_=not stops,
        stop_reason=output.effective_reason(merged) if stops else None,
        system_message=message if isinstance(message, str) and message else None,
        natives=(merged,),
        warnings=tuple(w for w in combined.warnings if "rewrote the tool input" not in w),
    )


def answers_in_order(reports: Sequence[HookReport]) -> list[Mapping[str, Any]]:
    """Every hook's answer for the merge, in configured order, not finish order (Gemini's
    and Qwen's ``HookAggregator`` alike)."""
    ordered = sorted(reports, key=lambda r: r.spec.order)
    return [answer for r in ordered if (answer := answer_of(r)) is not None]


def without_answer(combined: Combined) -> Combined:
    """No hook answered (Gemini and Qwen alike): nothing decided, nothing passed on."""
    return replace(combined, blocked=False, decision=None, reason=None, context=None,
                   updated_input=None, updated_input_from=None, continue_=True,
                   stop_reason=None, system_message=None, natives=())  # fmt: skip


def answer_of(report: HookReport) -> Mapping[str, Any] | None:
    """A hook's answer for the merge (Gemini's and Qwen's ``HookAggregator`` alike); a hook
    hookd could not run (or would not: trust) that blocks answers ``deny`` with hookd's
    reason."""
    answer = report.verdict.native.get("output")
    if isinstance(answer, Mapping):
        return answer
    if report.verdict.blocks:
        return {"decision": "deny", "reason": report.verdict.reason or output.NO_REASON}
    return None


def action(request: FireRequest, combined: Combined) -> Action:
    """What Gemini does next (§5): ``continue: false`` ends the run (on a tool event after
    this batch of tools); a blocked tool is not run (``BeforeTool``) or its result replaced
    (``AfterTool``) and the turn goes on; a blocked prompt or model request gets no model
    call and the run ends; a blocked ``AfterAgent`` sends the model the reason as a new
    prompt (``block``); a blocked ``AfterModel`` keeps the chunk and drops the rest of the
    answer; ``ask`` asks the user (``BeforeTool`` only); the other events take no decision."""
    event = request.event
    if event not in DECIDING_EVENTS:
        return "proceed"
    if not combined.continue_:
        return "stop"
    if combined.blocked:
        return "stop" if event == "BeforeAgent" else "block"
    return "ask" if combined.decision == "ask" else "proceed"


def native(request: FireRequest, combined: Combined) -> dict[str, Any]:
    """The combined outcome as one Gemini hook's JSON answer (what the relay prints): the
    merged answer, which Gemini merges again with its own hooks' as it would have merged
    the adopted hooks'."""
    if not combined.natives:
        return {}
    return dict(combined.natives[0])
