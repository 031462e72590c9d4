"""Why each hook of an event would or would not run, without running any (``hooks/explain``).

A fire is made as ``fire`` makes it (``Fire``: the same registry read, trust check and
dialect selection), then every hook its sources declare for the event is set against what
that fire would run. A hook left out is selected again alone, with the same sources
around it (their settings still apply: ``disableAllHooks``, managed-only, enabled
plugins): chosen alone, it was a duplicate of one that runs; still left out, the dialect's
own note about it is the reason, else the first of the rules every dialect applies that
it fails (relay entry, not adopted, matcher, ``if``). Hooks of the other agents for an
event of the same name are listed too, since "wrong ``--agent``" is a common reason.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..all_dialects import DIALECTS, PORTABLE
from ..dialects import relay_entries
from ..dialects.base import DialectModule
from ..model import Dialect, FireRequest, HookSpec, Loaded, Source
from .pipeline import Fire, FireServices
from .portable_run import shared_request

TOOL_NAME_KEYS = ("tool_name", "toolName")
"""Where the agents' payloads name the tool a matcher is compared with."""


def explain(request: FireRequest, services: FireServices) -> dict[str, Any]:
    """The ``hooks/explain`` result for one would-be fire."""
    made = Fire(request, services)
    module = made.module
    loaded, _warnings, _unread = services.registry.loaded_for(request, module)
    unmatched = made.specs + made.background_specs
    """What the fire runs (or refuses), each taken by the first declared hook it is."""
    hooks = []
    for source, content in loaded:
        for spec in content.hooks.get(request.event, ()):
            ran = next((chosen for chosen in unmatched if _same(chosen, spec)), None)
            why: tuple[str | None, str | None]
            if ran is not None:
                unmatched.remove(ran)
                why = (None, None) if ran.refused is None else (f"not run: {ran.refused}", None)
            else:
                why = _why_not(spec, source, loaded, made.specs, request, module)
            hooks.append(_entry(spec, why))
    hooks += _portable(request, made, services)
    hooks += _other_agents(request, services)
    errors = [{"dialect": s.dialect.value, "source": s.path, "error": c.error}
              for s, c in loaded if c.error]  # fmt: skip
    return {
        "agent": request.dialect.value,
        "event": request.event,
        "roots": list(request.roots),
        "hooks": hooks,
        "errors": errors,
        "warnings": [
            *made.warnings,
            *_payload_warnings(request, loaded),
            *(note for _source, content in loaded for note in content.notes),
        ],
    }


def _portable(request: FireRequest, made: Fire, services: FireServices) -> list[dict[str, Any]]:
    """The portable hooks of the event's shared name, each set against the fire: they are
    selected by Claude's rules on the Claude-shaped payload (``portable_run``)."""
    mapping = PORTABLE.get(request.dialect)
    event = mapping.EVENTS.get(request.event) if mapping is not None else None
    if mapping is None or event is None:
        return []
    claude = DIALECTS[Dialect.CLAUDE]
    stub = replace(request, dialect=Dialect.CLAUDE, event=event, relay=False,
                   relay_entry=None, extra_hook_dirs=())  # fmt: skip
    loaded, _warnings, _unread = services.registry.loaded_for(stub, claude, portable=True)
    if not any(content.hooks.get(event) for _source, content in loaded):
        return []
    shared = shared_request(request, mapping, event)
    chosen = [spec for spec in made.specs + made.background_specs if spec.portable]
    found = []
    for source, content in loaded:
        for spec in content.hooks.get(event, ()):
            ran = next((picked for picked in chosen if _same(picked, spec)), None)
            why: tuple[str | None, str | None]
            if ran is not None:
                chosen.remove(ran)
                why = (None, None) if ran.refused is None else (f"not run: {ran.refused}", None)
            elif not mapping.runs_portable(request):
                agent = request.dialect.value
                why = (f"a portable hook: this relay entry of {agent} leaves them to another "
                       "entry of the event (they run once per event)", None)  # fmt: skip
            else:
                why = _why_not(spec, source, loaded, chosen, shared, claude)
            found.append({**_entry(spec, why), "portable": True})
    return found


def _entry(spec: HookSpec, why: tuple[str | None, str | None]) -> dict[str, Any]:
    reason, did_you_mean = why
    return {
        "portable": False,
        "dialect": spec.dialect.value,
        "event": spec.event,
        "layer": spec.layer,
        "source": spec.source,
        "command": spec.command,
        "matcher": spec.matcher,
        "if": spec.condition,
        "runs": reason is None,
        "why": reason,
        "didYouMean": did_you_mean,
    }


def _same(a: HookSpec, b: HookSpec) -> bool:
    return (a.source, a.command, a.matcher, a.condition, a.layer) == (
        b.source, b.command, b.matcher, b.condition, b.layer)  # fmt: skip


def _why_not(
    spec: HookSpec,
    source: Source,
    loaded: Sequence[tuple[Source, Loaded]],
    chosen: Sequence[HookSpec],
    request: FireRequest,
    module: DialectModule,
) -> tuple[str | None, str | None]:
    """Why the fire leaves out ``spec``, and a "did you mean"."""
    if relay_entries.is_relay_spec(spec):
        return "hookd's own relay entry (the agent runs it to reach hookd; hookd never does)", None
    if request.relay and not source.adopted:
        return ("the agent runs it itself: a relayed fire runs only the hooks handed to "
                "hookd with 'hookd adopt'"), None  # fmt: skip
    alone, notes = module.select(_only(spec, loaded, request.event), request)
    if any(_same(picked, spec) for picked in alone):
        twin = next((ran for ran in chosen if ran.command == spec.command), None)
        where = f" from {twin.source}" if twin is not None else ""
        return f"a duplicate: the same command{where} runs, once", None
    said = [note for note in notes if spec.command in note or spec.source in note]
    if said:
        return said[0], None
    return _rule_failed(spec, request)


def _only(
    spec: HookSpec, loaded: Sequence[tuple[Source, Loaded]], event: str
) -> list[tuple[Source, Loaded]]:
    """The fire's sources with only ``spec`` declared for ``event`` (their settings kept)."""
    kept: list[tuple[Source, Loaded]] = []
    for source, content in loaded:
        mine = tuple(s for s in content.hooks.get(event, ()) if s is spec)
        kept.append((source, replace(content, hooks={event: mine})))
    return kept


def _rule_failed(spec: HookSpec, request: FireRequest) -> tuple[str, str | None]:
    """The common rule ``spec`` fails for this payload: its matcher, else its ``if``."""
    tool = _tool_name(request.payload)
    if spec.matcher not in (None, "", "*"):
        matcher = spec.matcher or ""
        if tool is None and "tool" in request.event.lower():
            field = TOOL_NAME_KEYS[0]
            return (f"its matcher {matcher!r} has nothing to match: the payload has no "
                    f"{field} (the field a matcher is compared with)"), None  # fmt: skip
        meant = _case_only(matcher, tool)
        if meant is not None:
            return (f"its matcher {matcher!r} does not match the tool {tool!r}: matchers are "
                    f"case-sensitive (did you mean {meant!r}?)"), meant  # fmt: skip
        against = f" the tool {tool!r}" if tool is not None else " this payload"
        return f"its matcher {matcher!r} does not match{against}", None
    if spec.condition:
        return f"its 'if' {spec.condition!r} does not match this call", None
    return (f"not selected by {request.dialect.value}'s rules for this payload (see the "
            "fire's warnings)"), None  # fmt: skip


def _case_only(matcher: str, tool: str | None) -> str | None:
    """The tool name when the matcher (or one of its ``|`` alternatives) names it in
    another case only."""
    if not tool:
        return None
    for alternative in matcher.split("|"):
        if alternative != tool and alternative.lower() == tool.lower():
            return re.sub(re.escape(alternative), tool, matcher, count=1)
    return None


def _tool_name(payload: dict[str, Any]) -> str | None:
    for key in TOOL_NAME_KEYS:
        value = payload.get(key)
        if isinstance(value, str):
            return value
    return None


def _payload_warnings(request: FireRequest, loaded: Sequence[tuple[Source, Loaded]]) -> list[str]:
    """A tool event whose payload names no tool while some hook has a matcher."""
    if _tool_name(request.payload) is not None or "tool" not in request.event.lower():
        return []
    matched = any(spec.matcher not in (None, "", "*")
                  for _s, c in loaded for spec in c.hooks.get(request.event, ()))  # fmt: skip
    if not matched:
        return []
    return [
        f"the payload has no {TOOL_NAME_KEYS[0]}: every hook with a matcher is left out "
        f'(give the payload the tool the agent would name, e.g. "tool_name": "Bash")'
    ]


def _other_agents(request: FireRequest, services: FireServices) -> list[dict[str, Any]]:
    """The hooks other agents declare for an event of this name in the same roots: they
    run when that agent fires, not this one."""
    found: list[dict[str, Any]] = []
    for dialect, module in DIALECTS.items():
        if dialect == request.dialect or dialect in services.settings.disabled_dialects:
            continue
        event = module.canonical_event(request.event)
        if event is None:
            continue
        other = replace(request, dialect=dialect, event=event, relay=False, relay_entry=None)
        loaded, _w, _u = services.registry.loaded_for(other, module)
        found += [
            _entry(spec, (_other_agent(dialect, request.dialect), None))
            for _source, content in loaded
            for spec in content.hooks.get(event, ())
            if not relay_entries.is_relay_spec(spec)
        ]
    return found


def _other_agent(dialect: Dialect, asked: Dialect) -> str:
    article = "an" if dialect.value[0] in "aeiou" else "a"
    return (
        f"{article} {dialect.value} hook: it runs when {dialect.value} fires this event, "
        f"not {asked.value} (explain it with --agent {dialect.value})"
    )


__all__ = ["explain"]
