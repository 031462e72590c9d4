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

import trio

from hookd.protocol import FireResult

from ..all_dialects import DIALECTS
from ..audit import AuditLog
from ..dialects.base import DialectModule
from ..model import Combined, FireRequest, HookSpec
from ..registry.registry import Registry
from ..runner.background import BackgroundHooks, Deliver
from ..runner.client_handler import AskClient
from ..runner.custody import Custody
from ..runner.runner import NEVER_RAN_BLOCKS, never_ran_blocks, run_hooks
from ..settings import Settings
from ..stats import Stats
from .combine import combine
from .progress import FireProgress, Notify
from .result import fire_result, spill_warnings

CANCELLED_NOTICE_S = 1.0
"""How long a cancelled fire may spend telling its caller that its progress ended."""


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


async def fire(
    request: FireRequest, services: FireServices, ports: FirePorts = NO_PORTS
) -> FireResult:
    """Run one fire end to end and return its result."""
    started = time.perf_counter()
    module = DIALECTS[request.dialect]
    switched_off = _switched_off(request, services.settings)
    specs: list[HookSpec]
    unread: list[str] = []
    if switched_off:
        specs, warnings = [], [switched_off]
    else:
        specs, warnings, unread = services.registry.hooks_for(request, module)
    warnings[:0] = _missing_roots(request)
    started_async: list[dict[str, Any]] = []
    background = services.background
    if background is not None:
        for spec in [s for s in specs if s.background]:
            began = background.start(request, spec, module, ports.deliver)
            started_async.append(began)
            if "notStarted" in began:
                warnings.append(f"{spec.source}: async hook {spec.command!r} was not started: "
                                f"{began['notStarted']}")  # fmt: skip
    specs = [s for s in specs if not s.background]
    attached = background.attached(request, module, ports.deliver) if background else None
    stats = services.stats
    entry = stats.begin(request.dialect, request.event, request.roots)
    entry.hooks_total = len(specs)
    progress = FireProgress(
        request, module, len(specs), stats=stats, entry=entry, notify=ports.notify
    )
    finished = False
    try:
        await progress.begin()
        reports = await run_hooks(
            request,
            specs,
            module,
            settings=services.settings,
            base_env=services.base_env,
            progress=progress,
            ask_client=ports.ask_client,
            custody=services.custody,
            detacher=attached,
        )
        finished = True
        started_async += attached.started if attached is not None else []
        # Taken only now: a fire that is cancelled or fails leaves them for the next one.
        async_results = background.take(request) if background is not None else []
    finally:
        stats.end(entry)
        if not finished:
            with trio.CancelScope(shield=True), trio.move_on_after(CANCELLED_NOTICE_S):
                await progress.end_cancelled(time.perf_counter() - started)
    combined = module.refine(request, combine(reports, module.POLICY), reports)
    if unread:
        combined = _unread_sources(request, module, combined, unread, services.settings)
    runs = [progress.runs[report.index] for report in reports]
    result = fire_result(
        combined,
        action=module.action(request, combined),
        native=module.native(request, combined),
        runs=runs,
        duration_ms=(time.perf_counter() - started) * 1000,
        warnings=[
            *warnings,
            *combined.warnings,
            *spill_warnings(reports),
            *_relayed_background(request, started_async),
        ],
        async_started=started_async,
        async_results=async_results,
        extras=module.fire_extras(request, reports),
    )
    slowest = result["slowest"]
    await progress.end(result, None if slowest is None else specs[slowest["index"]])
    return result


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


__all__ = ["NO_PORTS", "FirePorts", "FireServices", "fire"]
