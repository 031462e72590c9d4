"""A fire's portable hooks: found in the portable files for the shared event the agent's
event is, run with the Claude-shaped payload, and answered to the agent as one of its
own hooks would have answered (``dialects/portable.py``).

``PortableRun`` is the fire's dialect module, extended: the agent's own hooks go to the
agent's module untouched; a portable hook is started and read by Claude's rules (its
format and vocabulary), then its answer is written as the agent's own hook would write
it (``agent_answer``) and read by the agent's ``interpret``. From there the agent's own
rules do the rest: ``combine``, ``refine`` and ``chained`` see every hook in the agent's
terms, so a portable hook's deny, context or rewrite counts exactly as the agent counts
its own hooks'. What the agent cannot carry is a fire warning naming it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from hookd.protocol import Action

from ..dialects.base import DialectModule
from ..dialects.portable import PortableAnswer, PortableModule
from ..model import (
    Combined,
    Dialect,
    FireRequest,
    HookReport,
    HookSpec,
    Loaded,
    Prepared,
    ProcessOutcome,
    Source,
    Verdict,
)
from ..registry.registry import Registry


def shared_request(request: FireRequest, mapping: PortableModule, event: str) -> FireRequest:
    """The agent's fire as a portable hook reads it: Claude's event and payload, plus which
    agent fired (``hookd_agent``) and its own event name (``hookd_agent_event``; the
    mapping adds ``hookd_agent_tool`` on tool events)."""
    payload = mapping.shared_payload(request, event)
    payload["hook_event_name"] = event
    payload["hookd_agent"] = request.dialect.value
    payload["hookd_agent_event"] = request.event
    return replace(
        request, dialect=Dialect.CLAUDE, event=event, payload=payload, relay=False,
        relay_entry=None, extra_hook_dirs=(),
    )  # fmt: skip


def find(
    request: FireRequest,
    mapping: PortableModule,
    registry: Registry,
    claude: DialectModule,
) -> tuple[PortableRun, list[HookSpec], list[str], list[str]] | None:
    """The portable hooks of ``request`` (marked ``portable``), the module that runs them
    beside the agent's own, warnings and unread sources; None when there are none (the
    payload is then never translated: the cost of a fire no portable hook matches is the
    lookup, a ``stat`` per portable file)."""
    event = mapping.EVENTS.get(request.event)
    if event is None:
        return None
    stub = replace(request, dialect=Dialect.CLAUDE, event=event, relay=False,
                   relay_entry=None, extra_hook_dirs=())  # fmt: skip
    loaded, warnings, unread = registry.loaded_for(stub, claude, portable=True)
    if not warnings and not unread and not any(c.hooks.get(event) for _s, c in loaded):
        return None
    if not mapping.runs_portable(request):  # another relay entry of the event runs them
        return None
    loaded, ignored = _own_settings_only(loaded)
    shared = shared_request(request, mapping, event)
    specs, warnings = registry.select(loaded, shared, claude, warnings + ignored)
    specs = [replace(spec, portable=True) for spec in specs]
    if mapping.DIALECT is not Dialect.CLAUDE:
        warnings += [
            f"portable hook {spec.command!r} ({spec.source}) runs in the background "
            f"(async): only Claude Code takes a background hook's answer; in "
            f"{request.dialect.value} hookd runs it and logs its answer"
            for spec in specs
            if spec.background
        ]
    own = registry.dialects[request.dialect]
    return PortableRun(own, claude, mapping, request, shared), specs, warnings, unread


def _own_settings_only(
    loaded: list[tuple[Source, Loaded]],
) -> tuple[list[tuple[Source, Loaded]], list[str]]:
    """The portable files with a project's settings left out: a project's file declares
    hooks; it does not switch the user's portable hooks off (``disableAllHooks``) or widen
    what they may do (http allowlists). Said, not dropped in silence."""
    kept: list[tuple[Source, Loaded]] = []
    ignored: list[str] = []
    for source, content in loaded:
        if source.root is not None and content.settings:
            keys = ", ".join(sorted(content.settings))
            ignored.append(f"{source.path}: its settings ({keys}) do not apply: a project's "
                           "portable file declares hooks, only your own sets what applies to "
                           "all of them")  # fmt: skip
            content = replace(content, settings={})
        kept.append((source, content))
    return kept, ignored


class PortableRun:
    """The fire's dialect module with its portable hooks (see the module docstring)."""

    def __init__(
        self,
        own: DialectModule,
        claude: DialectModule,
        mapping: PortableModule,
        request: FireRequest,
        shared: FireRequest,
    ) -> None:
        self.own, self.claude, self.mapping = own, claude, mapping
        self._request, self._shared = request, shared
        self._identity = own.DIALECT is Dialect.CLAUDE
        self._as_agent: dict[int, tuple[HookSpec, ProcessOutcome]] = {}
        self.warnings: list[str] = []
        """What the agent could not carry of the portable hooks' answers."""
        self.DIALECT = own.DIALECT
        self.EVENTS = own.EVENTS
        self.POLICY = own.POLICY
        self.UNCANCELLABLE_EVENTS = own.UNCANCELLABLE_EVENTS
        self.GUARD_EVENTS = own.GUARD_EVENTS
        self.TAKES_HOOKS_DIRS = own.TAKES_HOOKS_DIRS
        self.HOOKS_DIR_ENV = own.HOOKS_DIR_ENV

    # reading hooks: the agent's own (a PortableRun only runs a fire) ----------------
    def canonical_event(self, event: str) -> str | None:
        return self.own.canonical_event(event)

    def sources(self, home: str, system_root: str, roots: Sequence[str]) -> list[Source]:
        return self.own.sources(home, system_root, roots)

    def load(self, source: Source) -> Loaded:
        return self.own.load(source)

    def load_event(self, source: Source, event: str) -> tuple[HookSpec, ...] | Loaded:
        return self.own.load_event(source, event)

    def kept_after_error(
        self, hooks: Mapping[str, tuple[HookSpec, ...]]
    ) -> Mapping[str, tuple[HookSpec, ...]]:
        return self.own.kept_after_error(hooks)

    def switched_off(self, loaded: Sequence[tuple[Source, Loaded]]) -> list[tuple[HookSpec, str]]:
        return self.own.switched_off(loaded)

    def select(
        self, loaded: Sequence[tuple[Source, Loaded]], request: FireRequest
    ) -> tuple[list[HookSpec], list[str]]:
        return self.own.select(loaded, request)

    # running them ---------------------------------------------------------------------
    def sequential(self, request: FireRequest, specs: Sequence[HookSpec]) -> bool:
        """In order when the agent runs its hooks in order (the portable ones after its
        own, as declared later); at once where it runs them at once."""
        own = [spec for spec in specs if not spec.portable]
        return self.own.sequential(request, own) if own or self._identity else False

    def chained(self, request: FireRequest, report: HookReport) -> FireRequest | None:
        return self.own.chained(request, self._agent_report(report))

    def prepare(
        self, spec: HookSpec, request: FireRequest, base_env: Mapping[str, str]
    ) -> Prepared:
        if not spec.portable:
            return self.own.prepare(spec, request, base_env)
        return self.claude.prepare(spec, self._shared_of(request), base_env)

    def interpret(self, spec: HookSpec, request: FireRequest, outcome: ProcessOutcome) -> Verdict:
        if not spec.portable:
            return self.own.interpret(spec, request, outcome)
        shared = self._shared_of(request)
        verdict = self.claude.interpret(spec, shared, outcome)
        if self._identity:
            return verdict
        agent_spec = self.mapping.agent_spec(spec, request)
        if not _answered(outcome) and not verdict.blocks:
            # the agent's own rules for a hook that never answered
            self._as_agent[spec.order] = (agent_spec, outcome)
            return self.own.interpret(agent_spec, request, outcome)
        if not _answered(outcome):  # it blocks by Claude's rules (onFailure: "block")
            outcome = replace(outcome, timed_out=False, spawn_error=None, spawn_errno=None)
        answer = self.mapping.agent_answer(request, PortableAnswer.of(verdict))
        if answer.lost:
            self.warnings.append(
                f"portable hook {spec.command!r} ({spec.source}) answered "
                f"{', '.join(answer.lost)}, which {request.dialect.value} does not act on "
                f"at {request.event} ({shared.event}): not carried"
            )
        written = replace(
            outcome, exit_code=answer.exit_code, stdout=answer.stdout.encode(),
            stderr=answer.stderr.encode(), stdout_truncated=False, stderr_truncated=False,
        )  # fmt: skip
        self._as_agent[spec.order] = (agent_spec, written)
        return self.own.interpret(agent_spec, request, written)

    def refine(
        self, request: FireRequest, combined: Combined, reports: Sequence[HookReport]
    ) -> Combined:
        return self.own.refine(request, combined, [self._agent_report(r) for r in reports])

    def action(self, request: FireRequest, combined: Combined) -> Action:
        return self.own.action(request, combined)

    def native(self, request: FireRequest, combined: Combined) -> dict[str, Any]:
        return self.own.native(request, combined)

    def fire_extras(self, request: FireRequest, reports: Sequence[HookReport]) -> dict[str, Any]:
        return self.own.fire_extras(request, [self._agent_report(r) for r in reports])

    def async_result(self, report: HookReport, request: FireRequest) -> dict[str, Any]:
        if report.spec.portable and not self._identity:
            return {}
        return self.own.async_result(report, request)

    def hook_label(self, spec: HookSpec) -> str:
        label = (self.claude if spec.portable else self.own).hook_label(spec)
        return f"portable: {label}" if spec.portable else label

    # ------------------------------------------------------------------------------------
    def _shared_of(self, request: FireRequest) -> FireRequest:
        """The shared request for ``request`` (a chained request is translated anew)."""
        if request is self._request:
            return self._shared
        return shared_request(request, self.mapping, self._shared.event)

    def _agent_report(self, report: HookReport) -> HookReport:
        """A portable hook's report as the agent's own hook's (its spec and answer)."""
        written = self._as_agent.get(report.spec.order) if report.spec.portable else None
        if written is None:
            return report
        spec, outcome = written
        return replace(report, spec=spec, outcome=outcome)


def _answered(outcome: ProcessOutcome) -> bool:
    return not (outcome.spawn_error or outcome.timed_out or outcome.cancelled or outcome.never_ran)
