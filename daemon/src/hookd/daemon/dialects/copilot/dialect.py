"""GitHub Copilot CLI's hooks (``@github/copilot`` 1.0.102), judged by the real agent
(``tests/agents/copilot``; the rules' sources: ``copilot-research.md``, and
``docs/compatibility.md``, "GitHub Copilot CLI").

Where, in the agent's order (``copilot-research.md §1.1``): the policy files
(``/etc/github-copilot/policy.d/*.json``, ascending), the user's hook folder
(``~/.copilot/hooks/``, or ``$COPILOT_HOME/hooks/``), the user's ``settings.json``, then for
each root its ``.github/hooks/`` and its settings files (``.claude/settings.json``,
``.claude/settings.local.json``, ``.github/copilot/settings.json``,
``.github/copilot/settings.local.json``). A hook folder is walked recursively, shallower
files first, each depth in descending byte order. Nothing is de-duplicated. Each agent
folder is followed by the hookd-owned folder of the hooks ``hookd adopt`` took from it.

How: one after another, each by ``/bin/bash --norc --noprofile -c`` in the project's
root (``cwd`` relative to it), with the agent's environment less its tokens, plus
``COPILOT_PROJECT_DIR``, ``CLAUDE_PROJECT_DIR`` and ``COPILOT_HOOK_DIR``; 30 s unless
``timeoutSec`` says. In each file the camelCase handlers of the event run before the
PascalCase ones, each given its form of the payload. The chain and the combination:
``output``.

Copilot's own trust of a repository's hooks (``trustedFolders``, ``§1.2``) is not hookd's:
under hookd a root's hooks run once ``hookd allow`` trusts them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from hookd.protocol import Action

from ...jstext import to_json_bytes
from ...model import (
    Combined,
    CombinePolicy,
    Decision,
    Dialect,
    FireRequest,
    HookReport,
    HookSpec,
    HttpLaunch,
    Launch,
    Loaded,
    Prepared,
    ProcessOutcome,
    Source,
    Verdict,
)
from ...statcache import StatCache
from .. import base, relay_entries
from ..base import first_root, hook_environment
from ..claude.rules import matcher_matches as claude_matcher_matches
from . import config, events, output, payload
from .events import AGENT_EVENT, AGENT_NAME_MATCHED, PASCAL, PASCAL_OF, TOOL_MATCHED, TOOL_NAMES

DIALECT = Dialect.COPILOT
EVENTS: tuple[str, ...] = events.EVENTS
GUARD_EVENTS: frozenset[str] = events.GUARD_EVENTS
POLICY = CombinePolicy(context_separator="\n\n", reason_separator="\n\n")
UNCANCELLABLE_EVENTS: frozenset[str] = frozenset()
TAKES_HOOKS_DIRS = True
HOOKS_DIR_ENV: str | None = "COPILOT_HOME"
"""``COPILOT_HOME`` in the agent's environment: its user folder (``hooks/`` and
``settings.json``), read instead of ``~/.copilot`` (``copilot-research.md §1.1``)."""
POLICY_DIR = ("etc", "github-copilot", "policy.d")
REPO_SETTINGS = (
    (".claude", "settings.json"), (".claude", "settings.local.json"),
    (".github", "copilot", "settings.json"), (".github", "copilot", "settings.local.json"),
)  # fmt: skip
STRIPPED = frozenset({"GITHUB_TOKEN", "COPILOT_GITHUB_TOKEN", "OPENAI_API_KEY", "COPILOT_OFFLINE"})
STRIPPED_PREFIX = "COPILOT_PROVIDER_"
"""Variables Copilot takes out of a hook's environment (``copilot-research.md §4.3``; every
``COPILOT_PROVIDER_*``, ``COPILOT_PROVIDER_MAX_PROMPT_TOKENS`` too: ``tests/agents/copilot``
case ``pre-compact``)."""
GIT_SAFETY = {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "safe.bareRepository",
              "GIT_CONFIG_VALUE_0": "explicit"}  # fmt: skip
PROJECT_VARIABLES = ("COPILOT_PROJECT_DIR", "CLAUDE_PROJECT_DIR")
RUNTIME_NAMES = {claude: runtime for runtime, claude in reversed(TOOL_NAMES.items())}
"""A Claude tool name → the runtime name (``Bash`` is ``bash`` on Linux)."""
_files: StatCache[Loaded] = StatCache()

kept_after_error = base.keep_all
switched_off = base.none_off
fire_extras = base.no_extras
async_result = base.no_async_result


def canonical_event(event: str) -> str | None:
    return event if event in AGENT_EVENT else None


def sequential(request: FireRequest, specs: Sequence[HookSpec]) -> bool:
    """Copilot runs an event's handlers one after another (``§4.4``)."""
    return True


def chained(request: FireRequest, report: HookReport) -> FireRequest | None:
    """The next hook's request: none after a deny (``output.chain_ends``); the rewritten
    tool arguments (``modifiedArgs``) or tool result (``modifiedResult``) passed on."""
    if output.chain_ends(request.event, report):
        return None
    answer = report.verdict.native.get("output") or {}
    event = AGENT_EVENT[request.event]
    body = request.payload
    pascal_form = request.event in PASCAL
    if (
        event == "preToolUse"
        and "modifiedArgs" in answer
        and report.verdict.native.get("code") == 0
    ):
        body = {**body, ("tool_input" if pascal_form else "toolArgs"): answer["modifiedArgs"]}
    elif event == "postToolUse" and isinstance(answer.get("modifiedResult"), Mapping):
        result = answer["modifiedResult"]
        if pascal_form:
            result = payload.pascal("postToolUse", {"toolResult": result}).get("tool_result")
        body = {**body, ("tool_result" if pascal_form else "toolResult"): result}
    return request if body is request.payload else replace(request, payload=body)


# -- where ------------------------------------------------------------------------------


def sources(home: str, system_root: str, roots: Sequence[str]) -> list[Source]:
    found = [Source(DIALECT, "policy", os.path.join(system_root, *POLICY_DIR), "hookdir")]
    user = os.path.join(home, ".copilot")
    found += _folder("user", os.path.join(user, "hooks"), None, home)
    found.append(Source(DIALECT, "user", os.path.join(user, "settings.json"), "settings"))
    for root in roots:
        found += _folder("project", os.path.join(root, ".github", "hooks"), root, home)
        found += [Source(DIALECT, "project", os.path.join(root, *parts), "settings", root)
                  for parts in REPO_SETTINGS]  # fmt: skip
    return found


def _folder(layer: str, folder: str, root: str | None, home: str) -> list[Source]:
    owned = adopted_folder(home, root)
    agent = Source(DIALECT, layer, folder, "hookdir", root)
    return [
        agent,
        Source(DIALECT, layer, owned, "hookdir", root, adopted=True, adopted_from=folder),
    ]


def adopted_folder(home: str, root: str | None) -> str:
    """The hookd-owned hook folder of the files adopted from the user's (``root`` None)
    or a root's hook folder: read with Copilot's rules at the same place."""
    return os.path.join(relay_entries.owned_folder(home, DIALECT.value, root), "hooks")


def load(source: Source) -> Loaded:
    if source.kind == "hookdir":
        return load_folder(source)
    label = "global settings" if source.layer == "user" else "repo settings"
    return config.settings_file(source, label)


def load_event(source: Source, event: str) -> tuple[HookSpec, ...] | Loaded:
    return load_folder(source)


def load_folder(source: Source) -> Loaded:
    """Every file of a hook folder (or the policy folder, or a ``COPILOT_HOME``), each
    read again when it changes; the hooks of each event in the agent's file order."""
    if source.layer == "hooks-dir":  # COPILOT_HOME: its hooks/ and its settings.json
        inner = replace(source, layer="user", path=os.path.join(source.path, "hooks"))
        folder = load_folder(inner)
        settings = config.settings_file(
            Source(DIALECT, "user", os.path.join(source.path, "settings.json"), "settings"),
            "global settings",
        )
        return _merged([folder, settings])
    if source.layer == "policy":
        paths = config.policy_files(source.path)
    else:
        paths = config.folder_files(source.path)
    parts = []
    for index, path in enumerate(paths):
        hook_dir: str | None = None if source.layer == "policy" else os.path.dirname(path)
        extra: dict[str, Any] = {}
        if source.adopted and source.adopted_from:
            relative = os.path.relpath(path, source.path)
            extra["from_file"] = os.path.join(source.adopted_from, relative)
            hook_dir = os.path.dirname(extra["from_file"])

        def read(path: str = path, index: int = index, hook_dir: str | None = hook_dir,
                 extra: dict[str, Any] = extra) -> Loaded:  # fmt: skip
            return config.hook_file(source, path, path, hook_dir, index, extra)

        loaded = _files.get(path, read)
        if loaded is not None:
            parts.append(_reindexed(loaded, index, source))
    return _merged(parts)


def _reindexed(loaded: Loaded, index: int, source: Source) -> Loaded:
    """A cached file's hooks with this reading's place and layer (the cache is by path)."""
    first = next((specs[0] for specs in loaded.hooks.values() if specs), None)
    if first is None or (first.options.get("file_index") == index and first.layer == source.layer
                         and first.root == source.root):  # fmt: skip
        return loaded
    hooks = {event: tuple(replace(s, layer=source.layer, root=source.root,
                                  options={**s.options, "file_index": index}) for s in specs)
             for event, specs in loaded.hooks.items()}  # fmt: skip
    return replace(loaded, hooks=hooks)


def _merged(parts: Sequence[Loaded]) -> Loaded:
    hooks: dict[str, list[HookSpec]] = {}
    errors = [p.error for p in parts if p.error]
    settings: dict[str, Any] = {}
    for part in parts:
        settings.update(part.settings)
        for event, specs in part.hooks.items():
            hooks.setdefault(event, []).extend(specs)
    return Loaded(hooks={e: tuple(s) for e, s in hooks.items()}, error="; ".join(errors) or None,
                  settings=settings)  # fmt: skip


# -- which ------------------------------------------------------------------------------


def select(
    loaded: Sequence[tuple[Source, Loaded]], request: FireRequest
) -> tuple[list[HookSpec], list[str]]:
    """The event's hooks in Copilot's order: per file, the camelCase handlers and then the
    PascalCase ones (a fire of a camelCase event runs both; of a PascalCase event, or from
    a relay entry, only its own key); matchers; ``disableAllHooks`` of a root's settings
    (every hook but the policy's); a ``COPILOT_HOME`` in the user's place."""
    keys = _keys(request)
    ordered = _in_order(loaded)
    warnings = [c.error for s, c in ordered if s.kind == "hookdir" and c.error]
    switched_off = any(c.settings.get("disableAllHooks") for s, c in ordered
                       if s.kind == "settings" and s.layer == "project")  # fmt: skip
    chosen: list[HookSpec] = []
    for source, content in ordered:
        if switched_off and source.layer != "policy":
            continue
        if not _runs_in(source, request):
            continue
        specs = [spec for key in keys for spec in content.hooks.get(key, ())]
        specs.sort(key=lambda s: (s.options.get("file_index", 0), s.event in PASCAL))
        for spec in specs:
            if spec.options.get("kind") == "command" and relay_entries.is_relay_command(
                spec.command
            ):
                continue  # hookd's own relay entry
            entry = request.relay_entry if request.relay and source.adopted else None
            if entry is not None and not relay_entries.same_place(
                spec.options.get("from_file"), entry
            ):
                continue  # a relay fire runs the hooks adopted from its entry's file only
            if spec.options.get("kind") == "prompt":
                warnings.append(f"{spec.source}: a prompt hook ({spec.event}) has no effect in "
                                "Copilot's prompt mode, and is not run")  # fmt: skip
                continue
            if not matches(spec, request):
                continue
            refused = _insecure_http(spec, request)
            if refused:
                warnings.append(refused)
                continue
            chosen.append(spec)
    return chosen, warnings


AUTH_EVENTS = frozenset({"preToolUse", "permissionRequest", "preMcpToolCall"})
"""Events whose http hooks must use https (``copilot-research.md §1.4``)."""


def _insecure_http(spec: HookSpec, request: FireRequest) -> str | None:
    """Copilot skips an http hook of an authorization event that is not https, unless
    ``COPILOT_HOOK_ALLOW_HTTP_AUTH_HOOKS=1`` (or ``COPILOT_HOOK_ALLOW_LOCALHOST=1`` for a
    local address) in its environment."""
    url = spec.command
    if spec.options.get("kind") != "http" or AGENT_EVENT[spec.event] not in AUTH_EVENTS:
        return None
    if (
        not url.startswith("http://")
        or request.env.get("COPILOT_HOOK_ALLOW_HTTP_AUTH_HOOKS") == "1"
    ):
        return None
    host = url[len("http://") :].split("/", 1)[0].rsplit(":", 1)[0]
    local = host in ("localhost", "127.0.0.1", "[::1]")
    if local and request.env.get("COPILOT_HOOK_ALLOW_LOCALHOST") == "1":
        return None
    return (f"{spec.source}: Authorization-affecting HTTP hooks (preToolUse, preMcpToolCall, "
            "permissionRequest) must use https:// to protect response integrity — hook will "
            "be skipped")  # fmt: skip


def _keys(request: FireRequest) -> tuple[str, ...]:
    event = request.event
    if event in PASCAL or request.relay or event not in PASCAL_OF:
        return (event,)
    return (event, PASCAL_OF[event])


def _in_order(loaded: Sequence[tuple[Source, Loaded]]) -> list[tuple[Source, Loaded]]:
    """The sources in Copilot's order, a ``COPILOT_HOME`` named by the fire standing in
    the user's place (the user's own folder and settings are then not read)."""
    moved = [(replace(s, layer="user"), c) for s, c in loaded if s.layer == "hooks-dir"]
    if not moved:
        return list(loaded)
    ordered: list[tuple[Source, Loaded]] = []
    for source, content in loaded:
        if source.layer == "hooks-dir":
            continue
        if source.layer == "user" and not source.adopted:
            ordered += moved
            moved = []
            continue
        ordered.append((source, content))
    return ordered


def _runs_in(source: Source, request: FireRequest) -> bool:
    """A direct fire runs every source; a relay fire only the adopted folders (the entry's
    own file is picked per hook: ``from_file``)."""
    if not request.relay:
        return True
    return source.adopted


def matches(spec: HookSpec, request: FireRequest) -> bool:
    """Whether Copilot runs ``spec`` for this fire: its matcher against the tool name
    (both key spellings' rules, ``copilot-research.md §3.4``) or the agent name."""
    event = AGENT_EVENT[spec.event]
    matcher = spec.matcher
    if matcher is None:
        return True
    body = request.payload
    if event in TOOL_MATCHED:
        name = body.get("toolName", body.get("tool_name"))
        runtime = name if isinstance(name, str) else ""
        if "tool_name" in body:  # a PascalCase payload names the tool as Claude does
            runtime = RUNTIME_NAMES.get(runtime, runtime)
        if spec.event in PASCAL and spec.event != "PermissionRequest":
            claude_name = payload.claude_tool(runtime)
            tokens = {part.strip() for part in matcher.split("|")}
            return runtime in tokens or claude_matcher_matches("PreToolUse", matcher, claude_name)
        pattern = config.anchored(matcher)
        return pattern is not None and pattern.match(runtime) is not None
    if event in AGENT_NAME_MATCHED:
        name = body.get("agentName", body.get("agent_name"))
        pattern = config.anchored(matcher)
        return pattern is not None and isinstance(name, str) and pattern.match(name) is not None
    return True


# -- how --------------------------------------------------------------------------------


def prepare(spec: HookSpec, request: FireRequest, base_env: Mapping[str, str]) -> Prepared:
    body = _payload_for(spec, request)
    stdin = to_json_bytes(body)  # JSON.stringify: compact, no final newline (§3.1)
    if spec.options.get("kind") == "http":
        headers = tuple((str(k), str(v)) for k, v in spec.options.get("headers", {}).items())
        return HttpLaunch(url=spec.command, headers=(("content-type", "application/json"),
                                                     *headers), body=stdin)  # fmt: skip
    root = first_root(request)
    cwd = spec.options.get("cwd")
    folder = os.path.join(root, cwd) if isinstance(cwd, str) else root
    env = hook_environment(base_env, request.env)
    for name in [n for n in env if n in STRIPPED or n.startswith(STRIPPED_PREFIX)]:
        del env[name]
    env.update(GIT_SAFETY)
    hook_dir = spec.options.get("hook_dir")
    if hook_dir:
        env["COPILOT_HOOK_DIR"] = hook_dir
    env.update(spec.options.get("env", {}))
    env.update(dict.fromkeys(PROJECT_VARIABLES, root))  # a handler's env cannot move these
    argv = tuple(spec.options.get("argv") or ("/bin/bash", "--norc", "--noprofile", "-c",
                                              spec.command))  # fmt: skip
    return Launch(argv=argv, stdin=stdin, cwd=folder, env=env)


def _payload_for(spec: HookSpec, request: FireRequest) -> dict[str, Any]:
    """The payload form of the handler's key (a PascalCase handler of a camelCase fire
    gets the snake_case form made from the camelCase payload)."""
    if spec.event in PASCAL and request.event not in PASCAL:
        return payload.pascal(AGENT_EVENT[request.event], request.payload)
    return request.payload


def interpret(spec: HookSpec, request: FireRequest, outcome: ProcessOutcome) -> Verdict:
    return output.interpret(spec, outcome)


def hook_label(spec: HookSpec) -> str:
    """How the agent names a hook's source in its messages: the file's path, ``repo
    settings`` or ``global settings``."""
    return str(spec.options.get("label", spec.source))


# -- what it means ---------------------------------------------------------------------


def refine(request: FireRequest, combined: Combined, reports: Sequence[HookReport]) -> Combined:
    """Copilot's own combination of the chain's answers (``output.combine``), in place of
    the general one; a hook hookd could not run (``never ran``, or refused by ``hookd
    allow``) keeps its block on the events that guard an action."""
    found = output.combine(request.event, reports)
    never_ran = [r for r in reports if r.verdict.blocks and not r.verdict.native]
    blocked = found.blocked or bool(never_ran)
    reason = found.reason
    if never_ran and not found.blocked:
        reason = "\n\n".join(r.verdict.reason or "" for r in never_ran) or None
    decision: Decision | None = "deny" if blocked else _decision(found.decision)
    return replace(
        combined, blocked=blocked, decision=decision, reason=reason,
        context="\n\n".join(found.contexts) or None,
        updated_input=found.updated_input if found.has_updated_input else None,
        updated_input_from=None, continue_=not (found.stop or (blocked and _stops(request))),
        stop_reason=None, system_message="\n".join(found.warnings) or None,
        natives=({**found.answer, **({"_errored": True} if found.errored else {})},),
        warnings=tuple(w for w in combined.warnings if "rewrote the tool input" not in w),
    )  # fmt: skip


def _decision(value: str | None) -> Decision | None:
    return {"allow": "allow", "ask": "ask", "deny": "deny"}.get(value or "")  # type: ignore[return-value]


def _stops(request: FireRequest) -> bool:
    """A blocked prompt ends the turn (no model request)."""
    return AGENT_EVENT[request.event] == "userPromptSubmitted"


def action(request: FireRequest, combined: Combined) -> Action:
    """What Copilot does next: a denied tool is not run (``block``), an ``ask`` cannot be
    asked in prompt mode; a permission ``interrupt`` ends the turn; a blocked or handled
    prompt makes no model request (``stop``); a blocked stop makes the agent go on
    (``block``); a blocked tool result is replaced (``block``)."""
    event = AGENT_EVENT[request.event]
    if not combined.continue_:
        return "stop"
    if combined.blocked:
        return "block"
    if event == "preToolUse" and combined.decision == "ask":
        return "ask"
    return "proceed"


def native(request: FireRequest, combined: Combined) -> dict[str, Any]:
    """The combined outcome as one Copilot hook's JSON answer (what the relay prints);
    empty when nothing was said, or when a hook's failure decided (the relay then fails
    as that hook did: ``integration.relay_answer``). A block of hookd's own (a hook it
    could not run) is worded as the event's block."""
    answer = dict(combined.natives[0]) if combined.natives else {}
    if answer.pop("_errored", None):
        return {}
    if not combined.blocked:
        return answer
    reason = combined.reason or output.NO_REASON
    event = AGENT_EVENT[request.event]
    if event == "preToolUse" and answer.get("permissionDecision") != "deny":
        answer.update(permissionDecision="deny", permissionDecisionReason=reason)
    elif event == "permissionRequest" and answer.get("behavior") != "deny":
        answer.update(behavior="deny", message=reason)
    elif event in ("userPromptSubmitted", "agentStop", "subagentStop", "postToolUse") and (
            answer.get("decision") != "block"):  # fmt: skip
        answer.update(decision="block", reason=reason)
    return answer


def errored(result: Mapping[str, Any]) -> bool:
    """A fire result whose block came from a hook's failure (``native`` left empty)."""
    return bool(result.get("blocked")) and not result.get("native")
