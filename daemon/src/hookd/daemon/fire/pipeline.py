"""One fire end to end: find its hooks, start the background ones, run the rest, combine
their verdicts with the dialect's rules and build the result.

The dialect is looked up here, once, and handed to the registry, the runner and the
background runner; none of them knows the dialect table. What the fire needs from the
daemon (``FireServices``) and from its caller (``FirePorts``) comes in as two objects.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol

import structlog

from hookd.protocol import FireResult

from ..all_dialects import DIALECTS, PORTABLE
from ..audit import AuditLog
from ..dialects.base import DialectModule
from ..dialects.portable import portable_sources
from ..model import Combined, Dialect, FireRequest, HookReport, HookSpec
from ..portable_reach import uncarried_for
from ..portable_reach import warning as reach_warning
from ..registry.registry import Registry
from ..runner.background import BackgroundHooks, Deliver
from ..runner.client_handler import AskClient
from ..runner.custody import Custody
from ..runner.runner import NEVER_RAN_BLOCKS, never_ran_blocks, run_hooks
from ..scrub import secret_values
from ..settings import Settings
from ..stats import InFlight, Stats
from . import portable_run
from .combine import combine
from .progress import FireProgress, Notify
from .result import fire_result, spill_warnings, with_output

log = structlog.get_logger("hookd.fire")


class FireServices(Protocol):
    """What a fire uses of the daemon."""

    @property
    def settings(self) -> Settings: ...

    @property
    def registry(self) -> Registry: ...

    @property
    def stats(self) -> Stats: ...

    @property
    def background(self) -> BackgroundHooks | None: ...

    @property
    def base_env(self) -> Mapping[str, str]: ...

    @property
    def custody(self) -> Custody | None: ...

    @property
    def audit(self) -> AuditLog: ...


@dataclass(frozen=True, slots=True)
class FirePorts:
    """How a fire reaches its caller; each port is optional (None: nobody listens)."""

    notify: Notify | None = None
    """Sends one ``$/progress`` value (the caller passed a ``workDoneToken``)."""
    ask_client: AskClient | None = None
    """Asks the caller to run a prompt / agent / mcp_tool handler (``hook/run``)."""
    deliver: Deliver | None = None
    """Hands a finished background hook's result to the caller (``hook/asyncResult``)."""


NO_PORTS = FirePorts()


class Fire:
    """One fire from its hooks to its result.

    Made in two steps: finding its hooks is synchronous and changes nothing outside the
    registry's caches, so a caller may find them, then decide how to run them: a fire
    with nothing to run in the foreground (the common case, a tool call no hook matches)
    is answered by ``result_now`` without a task or an await, the others by ``result``.
    A fire dropped after it was made (cancelled before it ran) left nothing behind.
    """

    def __init__(
        self, request: FireRequest, services: FireServices, ports: FirePorts = NO_PORTS
    ) -> None:
        self.started = time.perf_counter()
        self.request = request
        self.services = services
        self.ports = ports
        self.module: DialectModule = DIALECTS[request.dialect]
        module = self.module
        self.portable: portable_run.PortableRun | None = None
        switched_off = _switched_off(request, services.settings)
        specs: list[HookSpec]
        self.unread: list[str] = []
        if switched_off:
            specs, warnings = [], [switched_off]
        else:
            specs, warnings, self.unread = services.registry.hooks_for(request, module)
            self._add_portable(specs, warnings)
        warnings[:0] = _missing_roots(request)
        self.warnings = warnings
        self.started_async: list[dict[str, Any]] = []
        self.background_specs = [s for s in specs if s.background]
        self.specs = [s for s in specs if not s.background]
        """The hooks this fire runs in the foreground (and waits for)."""

    def _add_portable(self, specs: list[HookSpec], warnings: list[str]) -> None:
        """The fire's portable hooks after the agent's own, and the module that runs both."""
        mapping = PORTABLE.get(self.request.dialect)
        if mapping is None:
            return
        registry = self.services.registry
        try:
            found = portable_run.find(self.request, mapping, registry, DIALECTS[Dialect.CLAUDE])
            files = portable_sources(self.services.settings.home, self.request.roots)
            if self.request.relay and any(os.path.exists(f.path) for f in files):
                uncarried = uncarried_for(registry, self.request.dialect, self.request.roots)
                warnings += [reach_warning(entry) for entry in uncarried]
        except Exception as exc:
            log.exception("portable_hooks_failed", agent=self.request.dialect.value)
            self.unread.append(f"hookd could not look up the portable hooks ({exc!r})")
            return
        if found is None:
            return
        self.portable, portable, more, unread = found
        self.module = self.portable
        specs += [replace(spec, order=len(specs) + i) for i, spec in enumerate(portable)]
        warnings += more
        self.unread += unread

    def result_now(self) -> FireResult:
        """The result of a fire with no foreground hook (``specs`` empty)."""
        if self.specs:
            raise RuntimeError("this fire has hooks to run: await its result()")
        progress, entry = self._begin()
        self.services.stats.end(entry)
        return self._finish(progress, [], self._take())

    async def result(self) -> FireResult:
        """Run the foreground hooks; the fire's result."""
        request, module, background = self.request, self.module, self.services.background
        attached = background.attached(request, module, self.ports.deliver) if background else None
        progress, entry = self._begin()  # nothing may fail between this and the try
        finished = False
        try:
            reports = await run_hooks(
                request,
                self.specs,
                module,
                settings=self.services.settings,
                base_env=self.services.base_env,
                progress=progress,
                ask_client=self.ports.ask_client,
                custody=self.services.custody,
                detacher=attached,
            )
            finished = True
            self.started_async += attached.started if attached is not None else []
            # Taken only now: a fire that is cancelled or fails leaves them for the next one.
            taken = self._take()
        finally:
            self.services.stats.end(entry)
            if not finished:
                progress.end_cancelled(time.perf_counter() - self.started)
        return self._finish(progress, reports, taken)

    def _begin(self) -> tuple[FireProgress, InFlight]:
        """Start the background hooks, enter the fire in ``status``, begin its progress."""
        request, module, background = self.request, self.module, self.services.background
        if background is not None:
            for spec in self.background_specs:
                began = background.start(request, spec, module, self.ports.deliver)
                self.started_async.append(began)
                if "notStarted" in began:
                    self.warnings.append(f"{spec.source}: async hook {spec.command!r} was not "
                                         f"started: {began['notStarted']}")  # fmt: skip
        stats = self.services.stats
        entry = stats.begin(request.dialect, request.event, request.roots)
        entry.hooks_total = len(self.specs)
        progress = FireProgress(
            request, module, len(self.specs), stats=stats, entry=entry,
            notify=self.ports.notify, began=self.started,
        )  # fmt: skip
        progress.begin()
        return progress, entry

    def _take(self) -> list[dict[str, Any]]:
        """The finished background results waiting for this fire's session."""
        background = self.services.background
        return background.take(self.request) if background is not None else []

    def _finish(
        self,
        progress: FireProgress,
        reports: list[HookReport],
        async_results: list[dict[str, Any]],
    ) -> FireResult:
        request, module = self.request, self.module
        combined = module.refine(request, combine(reports, module.POLICY), reports)
        if self.unread:
            settings = self.services.settings
            combined = _unread_sources(request, module, combined, self.unread, settings)
        secrets = secret_values((request.env, self.services.base_env)) if reports else {}
        runs = [with_output(progress.runs[r.index], r.outcome, secrets) for r in reports]
        result = fire_result(
            combined,
            action=module.action(request, combined),
            native=module.native(request, combined),
            runs=runs,
            duration_ms=(time.perf_counter() - self.started) * 1000,
            warnings=[
                *self.warnings,
                *combined.warnings,
                *(self.portable.warnings if self.portable is not None else ()),
                *spill_warnings(reports),
                *_relayed_background(request, self.started_async),
            ],
            async_started=self.started_async,
            async_results=async_results,
            extras=module.fire_extras(request, reports),
        )
        slowest = result["slowest"]
        progress.end(result, None if slowest is None else self.specs[slowest["index"]])
        return result


async def fire(
    request: FireRequest, services: FireServices, ports: FirePorts = NO_PORTS
) -> FireResult:
    """Run one fire end to end and return its result."""
    started = Fire(request, services, ports)
    if not started.specs:
        return started.result_now()
    return await started.result()


def _relayed_background(request: FireRequest, started: list[dict[str, Any]]) -> list[str]:
    """A hook that went to the background under the relay: its later answer cannot reach
    the agent. The relay has answered by then, and a later relay answer is no equivalent
    (Claude Code 2.1.328 gives a background hook's ``additionalContext`` to the model as a
    bare reminder on its next request, where a relayed event's context comes labelled as
    that event's and only when an adopted event fires again), so it is said here, in the
    audit log, rather than passed on differently."""
    went = [entry for entry in started if "notStarted" not in entry]
    if not request.relay or not went:
        return []
    return [f"{len(went)} hook(s) went to the background under the relay: hookd runs them "
            "on and logs their answers, but the agent never gets them (run by the agent, "
            "their additionalContext and systemMessage would reach the model on a later "
            "turn); give such a hook \"async\": true in the agent's settings, where 'hookd "
            "adopt' leaves it with the agent"]  # fmt: skip


def _unread_sources(
    request: FireRequest,
    module: DialectModule,
    combined: Combined,
    unread: list[str],
    settings: Settings,
) -> Combined:
    """Hook sources hookd could not read because of its own limits: their hooks never ran,
    which blocks an event that guards an action unless ``never_ran`` is ``"allow"``."""
    notes = tuple(f"never ran: {why}" for why in unread)
    if not never_ran_blocks(module, request, settings.never_ran):
        return replace(combined, warnings=(*combined.warnings, *notes))
    why = "; ".join(unread)
    reason = f"{why}; {NEVER_RAN_BLOCKS}"
    return replace(
        combined,
        blocked=True,
        decision="deny",
        reason=f"{combined.reason}\n{reason}" if combined.reason else reason,
        warnings=(*combined.warnings, *notes),
    )


def _missing_roots(request: FireRequest) -> list[str]:
    """Roots that are not existing folders, as warnings: not refused, since an agent may
    fire from a folder deleted under it, but said, since a typo silently runs nothing."""
    return [
        f"workspace root {root} is not an existing folder: no hooks from it ran (a typo, "
        "or a folder deleted under the agent?)"
        for root in request.roots
        if not os.path.isdir(root)
    ]


def _switched_off(request: FireRequest, settings: Settings) -> str | None:
    """Why no hook runs for this fire by hookd's own configuration, or None."""
    if settings.disable_all_hooks:
        return "no hooks ran: disable_all_hooks is set in hookd's configuration"
    if request.dialect in settings.disabled_dialects:
        return (
            f"no hooks ran: the {request.dialect.value} dialect is in disabled_dialects in "
            "hookd's configuration"
        )
    return None


__all__ = ["NO_PORTS", "Fire", "FirePorts", "FireServices", "fire"]
