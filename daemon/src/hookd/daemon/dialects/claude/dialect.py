"""Claude Code: ``settings.json`` hooks with matchers, exit codes and JSON decisions.

Reference: ``claude-code-hooks-reference-v2.1.240.md``. Locations, in declaration order:
``~/.claude/settings.json`` (user), ``<project>/.claude/settings.json`` (project),
``<project>/.claude/settings.local.json`` (local), managed policy settings and the
``managed-settings.d/`` drop-ins beside them (managed). The project is the first
workspace root, as ``CLAUDE_PROJECT_DIR``.

This module finds, selects and prepares hooks; ``output`` reads their results,
``handlers`` builds HTTP requests and the requests the client runs.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
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
    Source,
)
from ...spill import private_directory, session_directory
from .. import base, relay_entries, windows
from ..base import first_root, hook_environment
from ..settings_json import load_settings_hooks, number_field
from . import agents, credentials, handlers, plugins, rules
from . import output as claude_output
from .if_rule import condition_allows

DIALECT = Dialect.CLAUDE
EVENTS = rules.EVENTS
_EVENT_SET = frozenset(EVENTS)
_HANDLER_TYPES = frozenset({"command", "http", "mcp_tool", "prompt", "agent"})
_PLACEHOLDERS = ("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA")
_KEPT_SETTINGS = (
    "enabledPlugins",
    "pluginConfigs",
    "disableAllHooks",
    "allowManagedHooksOnly",
    "allowedHttpHookUrls",
    "httpHookAllowedEnvVars",
)
POLICY = CombinePolicy()
UNCANCELLABLE_EVENTS: frozenset[str] = frozenset()
GUARD_EVENTS: frozenset[str] = (rules.EXIT2_BLOCKS | {"PermissionRequest"}) & set(EVENTS)
TAKES_HOOKS_DIRS = False
HOOKS_DIR_ENV: str | None = None
interpret = claude_output.interpret
kept_after_error = base.keep_all


def switched_off(loaded: Sequence[tuple[Source, Loaded]]) -> list[tuple[HookSpec, str]]:
    """A plugin installed but not enabled (``enabledPlugins`` over the layers), and every
    hook ``disableAllHooks`` turns off: the agent runs them on no payload."""
    policy = _policy(loaded)
    off: list[tuple[HookSpec, str]] = []
    for source, content in loaded:
        switch = policy.disable_all == "managed" or (
            policy.disable_all and source.layer != "managed"
        )
        for specs in content.hooks.values():
            for spec in specs:
                if switch:
                    off.append((spec, "disableAllHooks is set in the settings"))
                elif source.layer == plugins.LAYER:
                    plugin = spec.options["plugin"]
                    if policy.enabled_plugins.get(plugin) is not True:
                        off.append((spec, f"the plugin {plugin} is installed but not enabled "
                                          "(enabledPlugins)"))  # fmt: skip
    return off


refine = base.unrefined
hook_label = base.label_by_command


sequential = base.concurrent  # "All matching hooks run in parallel"
chained = base.unchained


def canonical_event(event: str) -> str | None:
    return event if event in _EVENT_SET else None


def managed_settings_path(system_root: str) -> str:
    if sys.platform == "darwin":
        return os.path.join(
            system_root, "Library", "Application Support", "ClaudeCode", "managed-settings.json"
        )
    return os.path.join(system_root, "etc", "claude-code", "managed-settings.json")


def managed_dropin_dir(system_root: str) -> str:
    return os.path.join(os.path.dirname(managed_settings_path(system_root)), "managed-settings.d")


def sources(home: str, system_root: str, roots: Sequence[str]) -> list[Source]:
    project = roots[0] if roots else None
    found = [Source(DIALECT, "user", os.path.join(home, ".claude", "settings.json"), "settings")]
    found.append(Source(DIALECT, "user", adopted_path(home, "user", project), "settings",
                        adopted=True))  # fmt: skip
    if project is not None:
        folder = os.path.join(project, ".claude")
        for layer, name in (("project", "settings.json"), ("local", "settings.local.json")):
            found.append(Source(DIALECT, layer, os.path.join(folder, name), "settings", project))
            found.append(Source(DIALECT, layer, adopted_path(home, layer, project), "settings",
                                project, adopted=True))  # fmt: skip
    found.append(Source(DIALECT, "managed", managed_settings_path(system_root), "settings"))
    found.append(Source(DIALECT, "managed", managed_dropin_dir(system_root), "hookdir"))
    found.append(plugins.source(home, roots[0] if roots else None))
    found += agents.sources(home, project)
    return found


def adopted_path(home: str, layer: str, project: str | None) -> str:
    """The hookd-owned file that holds the hooks ``hookd adopt`` took from the agent's
    settings file of ``layer``: ``~/.config/hookd/claude/settings.json`` (user),
    ``<project>/.hookd/claude/settings.json`` (project) and ``settings.local.json``
    (local). Read with the agent's rules, at the same layer."""
    if layer == "user" or project is None:
        return os.path.join(home, ".config", "hookd", "claude", "settings.json")
    name = "settings.local.json" if layer == "local" else "settings.json"
    return os.path.join(project, ".hookd", "claude", name)


RELAY_COMMAND = relay_entries.RELAY_COMMAND
"""A handler that runs ``hookd-relay`` (bare, or by its path, quoted or not): never run by
hookd (it would call itself)."""


def load(source: Source) -> Loaded:
    if source.layer == plugins.LAYER:
        return plugins.load(source, _EVENT_SET, _make_handler)
    if source.layer == agents.LAYER:
        return agents.load(source, _EVENT_SET, _make_handler)
    if source.kind == "hookdir":
        return _load_dropins(source)
    loaded = load_settings_hooks(source, _EVENT_SET, _make_handler, _KEPT_SETTINGS)
    notes = _ignored(loaded)
    return replace(loaded, notes=(*loaded.notes, *notes)) if notes else loaded


def _ignored(loaded: Loaded) -> list[str]:
    """What the agent reads without a word but that does not do what it says: a matcher
    on an event that has none (its hooks run on every such event), a matcher that is no
    regular expression or an ``if`` on an event that is no tool call (the hook never
    runs). For ``hooks/explain`` and ``hookd validate``; the fire goes as the agent's."""
    notes: dict[str, None] = {}
    for event, specs in loaded.hooks.items():
        for spec in specs:
            where = f"{spec.source}: {event}"
            if spec.matcher not in (None, "", "*") and event not in rules.MATCHER_FIELD:
                notes[f"{where}: matcher {spec.matcher!r} is ignored: {event} has no "
                      f"matcher, so its hooks run on every {event}"] = None  # fmt: skip
            elif event in rules.MATCHER_FIELD and rules.invalid_regex(spec.matcher):
                notes[f"{where}: matcher {spec.matcher!r} is not a valid regular "
                      "expression: the hook never runs"] = None  # fmt: skip
            if spec.condition is not None and event not in rules.TOOL_EVENTS:
                notes[f"{where}: 'if' {spec.condition!r} on {event}, which is no tool call: "
                      "the hook never runs"] = None  # fmt: skip
    return list(notes)


def _load_dropins(folder: Source) -> Loaded:
    """``managed-settings.d/*.json`` in name order, merged after ``managed-settings.json``:
    hooks add up, later files win for the other keys. Read on every fire of this folder
    (drop-ins are rare and small; a missing folder costs one failed ``listdir``)."""
    try:
        names = sorted(n for n in os.listdir(folder.path) if n.endswith(".json"))
    except OSError:
        return Loaded()
    hooks: dict[str, list[HookSpec]] = {}
    settings: dict[str, Any] = {}
    errors: list[str] = []
    for name in names:
        part = load(replace(folder, path=os.path.join(folder.path, name), kind="settings"))
        for event, specs in part.hooks.items():
            hooks.setdefault(event, []).extend(specs)
        settings.update(part.settings)
        if part.error:
            errors.append(part.error)
    return Loaded(
        hooks={event: tuple(specs) for event, specs in hooks.items()},
        error="; ".join(errors) or None,
        settings=settings,
    )


def load_event(source: Source, event: str) -> Loaded:
    return load(source)


def _make_handler(
    source: Source,
    event: str,
    matcher: str | None,
    handler: Mapping[str, Any],
    group: Mapping[str, Any],
) -> HookSpec:
    kind = handler.get("type")
    if kind not in _HANDLER_TYPES:  # "type" is required ("Common fields")
        known = ", ".join(repr(t) for t in sorted(_HANDLER_TYPES))
        what = 'has no "type"' if kind is None else f"has the unknown type {kind!r}"
        raise ValueError(f"the handler {what}; it must be one of {known}")
    handlers.validate(kind, handler)
    condition = handler.get("if")
    if condition is not None and not isinstance(condition, str):
        raise ValueError('"if" must be a string holding one permission rule')
    default = rules.DEFAULT_TIMEOUT_S.get(event, rules.COMMAND_TIMEOUT_S)
    if kind == "prompt":
        default = 30.0
    elif kind == "agent":
        default = 60.0
    timeout = number_field(handler, "timeout", default)
    command, argv = _command(kind, handler)
    background = kind == "command" and bool(handler.get("async") or handler.get("asyncRewake"))
    return HookSpec(
        dialect=DIALECT,
        event=event,
        source=source.path,
        layer=source.layer,
        command=command,
        argv=argv,
        timeout_s=timeout,
        matcher=matcher,
        condition=condition,
        root=source.root,
        # "only available on type: command hooks"
        background=background,
        # 2.1.328: a command hook's {"async": true} first line sends it to the background
        may_detach=kind == "command" and not background and event not in rules.STAYS_IN_FOREGROUND,
        options={
            "type": kind,
            "asyncRewake": kind == "command" and handler.get("asyncRewake") is True,
            "handler": dict(handler),
            "explicitTimeout": "timeout" in handler,
            "shell": _shell(handler),
            "identity": _identity(event, handler),
        },
    )


def _identity(event: str, handler: Mapping[str, Any]) -> str:
    """What makes two handlers "the same handler" (run once): the same event and the
    handler written the same, apart from its ``timeout`` and ``statusMessage``; so an
    http hook with other headers, a prompt for another model or the same command with
    another ``shell`` or ``if`` is another handler. Computed once, when the file is read."""
    written = {k: v for k, v in handler.items() if k not in _NOT_IDENTITY}
    return json.dumps([event, written], sort_keys=True)


_NOT_IDENTITY = frozenset({"timeout", "statusMessage"})


def _shell(handler: Mapping[str, Any]) -> str | None:
    shell = handler.get("shell")
    if shell is not None and shell not in ("bash", "powershell"):
        raise ValueError(f'"shell" must be "bash" or "powershell", not {shell!r}')
    return shell


def _command(kind: str, handler: Mapping[str, Any]) -> tuple[str, tuple[str, ...] | None]:
    if kind == "mcp_tool":
        return f"mcp_tool: {handler['server']}/{handler['tool']}", None
    if kind != "command":
        return f"{kind}: {handler.get('url') or handler.get('prompt')}", None
    command = handler.get("command")
    if not isinstance(command, str) or not command.strip():
        raise ValueError('a command handler needs a non-empty "command" string')
    args = handler.get("args")
    if args is None:
        return command, None
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise ValueError('"args" must be a list of strings')
    return command, (command, *args)


@dataclass(frozen=True, slots=True)
class _Policy:
    """The settings that decide which hooks may run, merged across the settings layers."""

    disable_all: str | bool
    managed_only: bool
    url_allowlist: tuple[str, ...] | None
    env_allowlist: tuple[str, ...] | None
    managed_env_allowlist: tuple[str, ...] | None
    enabled_plugins: Mapping[str, bool]
    plugin_configs: Mapping[str, Any]


def _policy(loaded: Sequence[tuple[Source, Loaded]]) -> _Policy:
    # Only sources with settings decide (most of a fire's have none): one short list, read
    # by every merge below instead of each merge going over every source.
    configured = [(source, content) for source, content in loaded if content.settings]
    managed = [(source, content) for source, content in configured if source.layer == "managed"]
    return _Policy(
        disable_all=_disable_all_hooks(configured),
        managed_only=any(
            content.settings.get("allowManagedHooksOnly") is True for _source, content in managed
        ),
        url_allowlist=_merged_list(configured, "allowedHttpHookUrls"),
        env_allowlist=_merged_list(configured, "httpHookAllowedEnvVars"),
        managed_env_allowlist=_merged_list(managed, "httpHookAllowedEnvVars"),
        enabled_plugins=_merged_map(configured, "enabledPlugins"),
        plugin_configs=_merged_map(configured, "pluginConfigs"),
    )


_PRECEDENCE = ("user", "project", "local", "managed")
_RANK = {layer: rank for rank, layer in enumerate(_PRECEDENCE)}


def _merged_map(loaded: Sequence[tuple[Source, Loaded]], key: str) -> dict[str, Any]:
    """An object setting merged key by key over the layers, the higher layer winning
    (user < project < local < managed): a project may turn off a plugin the user
    enabled, and managed settings decide last (a stable sort: one layer's sources keep
    their order; a source of another layer, a plugin's, counts for nothing)."""
    values = [(rank, value) for source, content in loaded
              if (rank := _RANK.get(source.layer)) is not None
              and isinstance(value := content.settings.get(key), dict)]  # fmt: skip
    merged: dict[str, Any] = {}
    for _rank, value in sorted(values, key=lambda pair: pair[0]):
        merged.update(value)
    return merged


def _merged_list(loaded: Sequence[tuple[Source, Loaded]], key: str) -> tuple[str, ...] | None:
    """A list setting merged over every layer that defines it; None when none does."""
    values = [content.settings[key] for _source, content in loaded if key in content.settings]
    if not values:
        return None
    return tuple(item for value in values if isinstance(value, list) for item in value
                 if isinstance(item, str))  # fmt: skip


def select(
    loaded: Sequence[tuple[Source, Loaded]], request: FireRequest
) -> tuple[list[HookSpec], list[str]]:
    policy: _Policy | None = None  # read only once a source has hooks for the event
    warnings: list[str] = []
    chosen: list[HookSpec] = []
    seen: set[str] = set()
    value = _matcher_value(request)
    held_back: set[str] = set()
    # A broken plugin hooks file, drop-in or subagent definition is reported on every
    # fire, as a broken settings file is (the registry reports those).
    warnings += [c.error for s, c in loaded if s.kind == "hookdir" and c.error]
    subagent_files, notes = agents.select(loaded, request)
    warnings += notes
    for source, content in loaded:
        declared = content.hooks.get(request.event, ())
        if not declared:
            continue
        if policy is None:
            policy = _policy(loaded)
        if policy.disable_all and source.layer != "managed":
            continue
        if policy.disable_all == "managed":
            continue
        if request.relay and not source.adopted:
            continue  # the agent runs these itself; the relay must not run them again
        for spec in declared:
            if RELAY_COMMAND.search(spec.command):
                continue  # hookd's own relay entry
            if (
                source.layer == plugins.LAYER
                and policy.enabled_plugins.get(spec.options["plugin"]) is not True
            ):
                continue  # installed, not enabled
            if source.layer == agents.LAYER and spec.source not in subagent_files:
                continue  # another subagent's, or the fire is not from inside one
            if not _applies(spec, request, value, warnings):
                continue
            identity: str = spec.options["identity"]
            if policy.managed_only and source.layer != "managed":
                held_back.add(identity)  # before dedup: a managed copy still runs
                continue
            if identity in seen:
                continue  # the same handler in several settings files runs once
            seen.add(identity)
            problem = _not_runnable(spec, request.event, policy)
            if problem:
                warnings.append(f"{spec.source}: {spec.command!r} was not run: {problem}")
                continue
            if spec.options.get("type") == "http":
                spec = _with_http_policy(spec, policy, warnings)
            if "plugin" in spec.options:
                spec = _with_plugin_options(spec, policy)
            chosen.append(spec)
    if request.event == "SessionEnd":
        configured = [
            spec for _s, content in loaded for spec in content.hooks.get("SessionEnd", ())
        ]
        chosen = _session_end_budget(chosen, configured, request.env, warnings)
    not_run = held_back - seen  # a held-back handler that managed settings also declare ran
    if not_run:
        warnings.append(
            f"{len(not_run)} hook(s) from user, project or local settings were not run: "
            "managed settings set allowManagedHooksOnly"
        )
    return chosen, warnings


def _session_end_budget(
    specs: list[HookSpec],
    configured: Sequence[HookSpec],
    env: Mapping[str, str],
    warnings: list[str],
) -> list[HookSpec]:
    """ "SessionEnd hooks share a 1.5-second budget; if your settings set a longer
    per-hook timeout, Claude Code raises the budget to match, up to 60 seconds" (every
    configured SessionEnd hook counts, matched or not), and
    ``CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS`` (from the agent's env) overrides it. The
    hooks run concurrently, so the shared budget bounds each one; a hook's own shorter
    ``timeout`` still applies."""
    explicit = [s.timeout_s for s in configured if s.options.get("explicitTimeout")]
    budget = min(rules.SESSION_END_MAX_BUDGET_S, max([rules.SESSION_END_BUDGET_S, *explicit]))
    override = env.get(rules.SESSION_END_BUDGET_ENV)
    if override is not None:
        try:
            value = float(override)
            if not math.isfinite(value) or value <= 0:
                raise ValueError(override)
            budget = value / 1000
        except ValueError:
            warnings.append(
                f"{rules.SESSION_END_BUDGET_ENV}={override!r} is not a positive number of "
                f"milliseconds; the {budget:g} s budget applies"
            )
    return [
        replace(
            spec,
            timeout_s=min(spec.timeout_s, budget)
            if spec.options.get("explicitTimeout")
            else budget,
        )
        for spec in specs
    ]


def _with_plugin_options(spec: HookSpec, policy: _Policy) -> HookSpec:
    """The plugin's configured options (``pluginConfigs[id].options``) for ``prepare``."""
    config = policy.plugin_configs.get(spec.options["plugin"])
    options = config.get("options") if isinstance(config, dict) else None
    if not isinstance(options, dict):
        return spec
    return replace(spec, options={**spec.options, "pluginOptions": options})


def _not_runnable(spec: HookSpec, event: str, policy: _Policy) -> str | None:
    """Why Claude Code would not run this handler on this event, or None."""
    kind = spec.options.get("type")
    if "plugin" in spec.options and spec.argv is None and plugins.USER_CONFIG.search(spec.command):
        return (
            f"it is from plugin {spec.options['plugin']} and references ${{user_config.*}} in "
            "a shell-form command (the value would be re-parsed by the shell); use the exec "
            'form ({"command": ..., "args": ["${user_config.KEY}"]}) or read '
            "$CLAUDE_PLUGIN_OPTION_<KEY> from the environment"
        )
    if kind in ("prompt", "agent") and event not in rules.PROMPT_EVENTS:
        return f"Claude Code does not run {kind} hooks on {event}"
    if kind == "http" and event in rules.NO_HTTP_EVENTS:
        return f"Claude Code does not run http hooks on {event}"
    return None


def _with_http_policy(spec: HookSpec, policy: _Policy, warnings: list[str]) -> HookSpec:
    """An http hook with the settings that bound it: ``httpHookAllowedEnvVars`` (merged,
    and the managed layer's alone, which may lift the agent's blanking of some variables)
    and, when its URL matches no entry of ``allowedHttpHookUrls``, its refusal: the
    agent sends nothing and counts the hook as failed (``onFailure: "block"`` blocks)."""
    options = dict(spec.options)
    if policy.env_allowlist is not None:
        options["httpEnvAllow"] = policy.env_allowlist
    if policy.managed_env_allowlist:
        options["managedEnvAllow"] = policy.managed_env_allowlist
    url = options["handler"]["url"]
    if not handlers.url_allowed(url, policy.url_allowlist):
        warnings.append(f"{spec.source}: {spec.command!r} was not sent: its URL matches no "
                        "entry of allowedHttpHookUrls")  # fmt: skip
        options["refusal"] = (
            f"HTTP hook blocked: {url} does not match any pattern in allowedHttpHookUrls"
        )
    return replace(spec, options=options)


def _disable_all_hooks(loaded: Sequence[tuple[Source, Loaded]]) -> str | bool:
    """False, True (all but managed hooks) or "managed" (every hook).

    The value left after settings precedence counts (managed > local > project > user);
    only a managed ``true`` turns off managed hooks too.
    """
    by_layer: dict[str, Any] = {}
    for source, content in loaded:
        if "disableAllHooks" in content.settings:
            by_layer[source.layer] = content.settings["disableAllHooks"]
    for layer in ("managed", "local", "project", "user"):  # highest precedence first
        value = by_layer.get(layer)
        if isinstance(value, bool):
            return "managed" if value and layer == "managed" else value
    return False


def _matcher_value(request: FireRequest) -> str | None:
    field = rules.MATCHER_FIELD.get(request.event)
    if field is None:
        return None
    value = request.payload.get(field)
    if not isinstance(value, str):
        return None
    return os.path.basename(value) if request.event == "FileChanged" else value


def _applies(spec: HookSpec, request: FireRequest, value: str | None, warnings: list[str]) -> bool:
    if request.event in rules.MATCHER_FIELD:
        if rules.invalid_regex(spec.matcher):
            warnings.append(
                f"{spec.source}: matcher {spec.matcher!r} is not a valid regular expression; "
                "the hook never matches"
            )
            return False
        if not rules.matcher_matches(request.event, spec.matcher, value):
            return False
    if spec.condition is not None:
        if request.event not in rules.TOOL_EVENTS:
            return False  # a hook with `if` never runs on non-tool events
        tool_name = request.payload.get("tool_name")
        cwd = request.payload.get("cwd")
        return condition_allows(
            spec.condition,
            tool_name if isinstance(tool_name, str) else None,
            request.payload.get("tool_input"),
            cwd if isinstance(cwd, str) else first_root(request),
        )
    return True


def prepare(spec: HookSpec, request: FireRequest, base_env: Mapping[str, str]) -> Prepared:
    project = first_root(request)
    payload = dict(request.payload)
    payload["hook_event_name"] = request.event
    payload.setdefault("cwd", project)
    kind = spec.options.get("type", "command")
    if kind in rules.CLIENT_HANDLER_TYPES:
        return handlers.prepare_client(spec, request, payload)
    # What the agent keeps from every subprocess it spawns, hooks included ("OTEL_*
    # exporter variables", its own credentials and internals; under
    # CLAUDE_CODE_SUBPROCESS_ENV_SCRUB every credential it knows by name): from the
    # agent's environment (the fire's env) as well as the daemon's.
    scrub = credentials.scrubbing(request.env) or (
        credentials.SCRUB_VARIABLE not in request.env and credentials.scrubbing(base_env)
    )
    agent_env = credentials.hook_environment(request.env, scrub)
    extra = {"CLAUDE_PROJECT_DIR": project, **agent_env, **_plugin_env(spec)}
    effort = payload.get("effort")
    if isinstance(effort, dict) and isinstance(effort.get("level"), str):
        extra.setdefault("CLAUDE_EFFORT", effort["level"])
    env_file = session_env_file(request)
    if env_file is not None:
        extra["CLAUDE_ENV_FILE"] = env_file
    env = hook_environment(_daemon_environment(base_env, scrub), extra)
    if env_file is None:  # "Other hook types don't have access to this variable"
        env.pop("CLAUDE_ENV_FILE", None)
    if kind == "http":
        return handlers.prepare_http(spec, payload, env)
    if spec.argv is None:
        argv = shell_form(spec.command, spec.options.get("shell"), env)
    else:
        options = spec.options.get("pluginOptions", {})
        argv = tuple(_substitute(part, env, options) for part in spec.argv)
    cwd = claude_output.hook_cwd(request)
    # Claude Code 2.1.328 ends the JSON with a newline (seen by its own hooks, byte for
    # byte: tests/agents/claude); the v2.1.240 reference does not say.
    stdin = to_json_bytes(payload) + b"\n"
    reply = claude_output.async_reply if spec.may_detach else None
    return Launch(argv=argv, stdin=stdin, cwd=cwd, env=env, async_reply=reply)


_filtered_daemon_env: dict[bool, tuple[Mapping[str, str], dict[str, str]]] = {}


def _daemon_environment(base_env: Mapping[str, str], scrub: bool) -> dict[str, str]:
    """The daemon's environment as the agent would pass its own to a hook
    (``credentials.hook_environment``): worked out once per environment, not per hook."""
    cached = _filtered_daemon_env.get(scrub)
    if cached is None or cached[0] is not base_env:
        cached = (base_env, credentials.hook_environment(base_env, scrub))
        _filtered_daemon_env[scrub] = cached
    return cached[1]


def shell_form(command: str, shell: str | None, env: Mapping[str, str]) -> tuple[str, ...]:
    """Shell form: ``sh -c`` on macOS and Linux, and PowerShell 7 (``pwsh``, with the
    placeholders rewritten to ``${env:NAME}`` as Claude Code does) when the handler says
    ``shell: "powershell"``; on Windows, Git Bash else PowerShell (``dialects.windows``)."""
    if sys.platform == "win32":  # pragma: no cover - argv rules unit-tested on Linux
        which = windows.which_in(env, os.path.isfile)
        return windows.shell_argv(
            command,
            shell,
            git_bash=windows.find_git_bash(env, os.path.isfile, which),
            powershell=windows.find_powershell(env, os.path.isfile, which),
        )
    if shell == "powershell":
        rewritten = windows.powershell_placeholders(command)
        return ("pwsh", "-NoProfile", "-NonInteractive", "-Command", rewritten)
    return ("/bin/sh", "-c", command)


def session_env_file(request: FireRequest, *, create: bool = True) -> str | None:
    """``CLAUDE_ENV_FILE`` for SessionStart, Setup, CwdChanged and FileChanged: the
    client's own path when its fire ``env`` names one, else a per-session file under the
    state directory, created empty (0600, never through a symlink) so that hooks can
    append to it."""
    if request.event not in rules.ENV_FILE_EVENTS:
        return None
    given = request.env.get("CLAUDE_ENV_FILE")
    if given:
        return given
    directory = session_directory(request.state_dir, "claude", request.session_id)
    path = os.path.join(directory, "env.sh")
    if not create:
        return path
    try:
        private_directory(directory)
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW
        os.close(os.open(path, flags, 0o600))
    except OSError:
        return None  # the hook runs without it, as on events that have none
    return path


def fire_extras(request: FireRequest, reports: Sequence[HookReport]) -> dict[str, Any]:
    """Result fields only Claude fires have: the ``CLAUDE_ENV_FILE`` the hooks got; null
    when no command hook ran (only they get one) or hookd's own file could not be made."""
    if request.event not in rules.ENV_FILE_EVENTS:
        return {}
    if not any(r.spec.options.get("type") == "command" for r in reports):
        return {"envFile": None}
    path = session_env_file(request, create=False)
    made = path is not None and (path == request.env.get("CLAUDE_ENV_FILE") or os.path.exists(path))
    return {"envFile": path if made else None}


def _substitute(text: str, env: Mapping[str, str], options: Mapping[str, Any] | None = None) -> str:
    """An exec-form argument with ``${CLAUDE_PROJECT_DIR}``-style placeholders and a
    plugin's ``${user_config.KEY}`` filled in, each as a plain string (no shell)."""
    for name in _PLACEHOLDERS:
        if name in env:
            text = text.replace("${" + name + "}", env[name])
    if options:
        text = plugins.USER_CONFIG.sub(  # a value not configured is left as written
            lambda m: plugins.js_string(options[m.group(1)]) if m.group(1) in options else m[0],
            text,
        )
    return text


def _plugin_env(spec: HookSpec) -> dict[str, str]:
    """``CLAUDE_PLUGIN_ROOT``, ``CLAUDE_PLUGIN_DATA`` (made if missing, as the agent
    does) and ``CLAUDE_PLUGIN_OPTION_<KEY>`` for a plugin's hook; nothing otherwise."""
    plugin = spec.options.get("plugin")
    if plugin is None:
        return {}
    data = plugins.data_dir(spec.options["pluginsFolder"], plugin)
    with contextlib.suppress(OSError):  # the hook runs and finds no folder, as it would
        os.makedirs(data, exist_ok=True)  # if its user had removed it
    return {
        "CLAUDE_PLUGIN_ROOT": spec.options["pluginRoot"],
        "CLAUDE_PLUGIN_DATA": data,
        **plugins.option_env(spec.options.get("pluginOptions", {})),
    }


def async_result(report: HookReport, request: FireRequest) -> dict[str, Any]:
    """What a finished background hook (``async`` in its settings, or ``{"async": true}``
    on its first line) tells the agent, as 2.1.328 reads it: the ``additionalContext``
    and ``systemMessage`` of its JSON answer (``output.async_answer``; decision fields
    have no effect), whatever its exit code, and nothing from a hook stopped at its
    timeout; for ``asyncRewake`` an exit code 2 wakes the agent with stderr, or stdout
    when stderr is empty. Texts are capped at 10,000 characters like every hook output
    string (the rest saved to a file)."""
    outcome = report.outcome
    spilled: list[dict[str, Any]] = []
    context = message = None
    if not (outcome.timed_out or outcome.cancelled or outcome.spawn_error):
        answer = claude_output.async_answer(outcome.stdout_text)
        context, message = claude_output.async_texts(answer)
    if context is not None:
        context = claude_output.cap_output(context, "additionalContext", request, spilled)
    if message is not None:
        message = claude_output.cap_output(message, "systemMessage", request, spilled)
    rewake = bool(report.spec.options.get("asyncRewake")) and outcome.exit_code == 2
    woken = (outcome.stderr_text.strip() or outcome.stdout_text.strip()) if rewake else None
    if woken is not None:
        woken = claude_output.cap_output(woken, "rewakeMessage", request, spilled)
    return {
        "context": context,
        "systemMessage": message,
        "rewake": rewake,
        "rewakeMessage": woken,
        "spilled": spilled,
    }


def action(request: FireRequest, combined: Combined) -> Action:
    """What Claude Code does next: ``continue: false`` stops the agent, after the tool
    when nothing blocked it on PreToolUse; a block on
    UserPromptSubmit, UserPromptExpansion or PostToolBatch ends the turn; on Stop a block
    means the agent goes on (it does not stop); ``ask`` asks the user."""
    event = request.event
    if not combined.continue_:
        still_runs = event in rules.ACTION_STILL_RUNS_ON_STOP and not combined.blocked
        return "proceed-then-stop" if still_runs else "stop"
    if combined.blocked:
        return "stop" if event in rules.BLOCK_ENDS_TURN else "block"
    if combined.decision == "ask":
        return "ask"
    return "proceed"


def native(request: FireRequest, combined: Combined) -> dict[str, Any]:
    """The combined outcome as one Claude Code hook output object."""
    out: dict[str, Any] = {}
    if combined.continue_ is False:
        out["continue"] = False
        if combined.stop_reason:
            out["stopReason"] = combined.stop_reason
    if combined.system_message:
        out["systemMessage"] = combined.system_message
    event = request.event
    specific: dict[str, Any] = {}
    if event == "PreToolUse":
        if combined.decision:
            specific["permissionDecision"] = combined.decision
        if combined.reason:
            specific["permissionDecisionReason"] = combined.reason
        if combined.updated_input_from is not None:
            specific["updatedInput"] = combined.updated_input
    elif event == "PreModelSwitch" and combined.decision:
        specific["permissionDecision"] = combined.decision
        if combined.reason:
            specific["permissionDecisionReason"] = combined.reason
    elif event == "PermissionRequest" and combined.decision in ("allow", "deny"):
        decision: dict[str, Any] = {"behavior": combined.decision}
        if combined.reason:
            decision["message"] = combined.reason
        if combined.updated_input_from is not None:
            decision["updatedInput"] = combined.updated_input
        specific["decision"] = decision
    elif combined.blocked and event in rules.TOP_LEVEL_DECISION:
        out["decision"] = "block"
        out["reason"] = combined.reason
    elif combined.reason and event in rules.EXIT2_FEEDS_CLAUDE:
        # Exit 2 feedback after a tool ran: the same effect as a top-level block.
        out["decision"] = "block"
        out["reason"] = combined.reason
    if combined.context and event in rules.ADDITIONAL_CONTEXT_EVENTS:
        specific["additionalContext"] = combined.context
    natives: Sequence[Mapping[str, Any]] = combined.natives
    specific.update(merge_specific(event, natives))
    if event == "PermissionDenied" and _no_verdict(request.payload.get("reason")):
        specific.pop("retry", None)  # "Claude Code ignores retry: true when ... no verdict"
    if event == "SessionStart" and request.payload.get("source") in ("clear", "compact"):
        specific.pop("sessionTitle", None)  # "ignored on "clear" and "compact""
    if event == "PermissionRequest" and "decision" in specific:
        specific["decision"].update(_permission_extras(combined.decision, natives))
    sequences = "".join(n.get("terminalSequence", "") for n in natives)
    if sequences:
        out["terminalSequence"] = sequences
    if specific:
        out["hookSpecificOutput"] = {"hookEventName": event, **specific}
    return out


def _no_verdict(reason: object) -> bool:
    """A PermissionDenied whose classifier gave no verdict (its reason says so)."""
    return isinstance(reason, str) and reason.startswith(rules.NO_VERDICT_REASON)


def merge_specific(event: str, natives: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Several hooks' pass-through ``hookSpecificOutput`` fields as one, by the rule
    ``rules.SPECIFIC_FIELDS`` gives each field (declaration order)."""
    merged: dict[str, Any] = {}
    for name, how in rules.SPECIFIC_FIELDS.get(event, {}).items():
        values = [n[name] for n in natives if name in n]
        if how == "with-action" or not values:
            continue
        if how == "last":
            merged[name] = values[-1]
        elif how == "join":
            merged[name] = "\n\n".join(values)
        elif how == "any":
            merged[name] = any(values)
        elif how == "union":
            merged[name] = list(dict.fromkeys(path for value in values for path in value))
        elif how == "strictest":
            winner = max(
                (n for n in natives if name in n),
                key=lambda n: rules.ELICITATION_RANK[n[name]],
            )
            merged[name] = winner[name]
            if "content" in winner and winner[name] == "accept":
                merged["content"] = winner["content"]
    return merged


def _permission_extras(
    decision: str | None, natives: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """``updatedPermissions`` of allowing hooks (all of them, in order) and ``interrupt``
    from any denying hook."""
    extras: dict[str, Any] = {}
    if decision == "allow":
        entries = [e for n in natives for e in n.get("updatedPermissions", ())]
        if entries:
            extras["updatedPermissions"] = entries
    if decision == "deny" and any(n.get("interrupt") for n in natives):
        extras["interrupt"] = True
    return extras
