"""Background (``async``) hooks: started by a fire, finished on the daemon's own time.

A fire does not wait for them. Each runs in the daemon's background nursery with its own
timeout (so daemon shutdown kills them like any hook). When one finishes, what it tells
the agent is delivered twice over, so it is never lost: at once as a ``hook/asyncResult``
notification to the connection that fired it (if still open), and in the
``asyncResults`` of the next fire of the same agent session. Each result has an ``id`` so
an agent that sees both can drop the second.

A hook may also send itself here while it runs (Claude's ``{"async": true}`` first line,
``HookSpec.may_detach``). Such a hook runs in the background nursery from its start (a
trio task cannot change nurseries), and the fire waits on a ``_Handoff``: it gets the
hook's outcome when the hook finishes first, or a placeholder when it goes to the
background (its timeout is then the one it asked for); a fire cancelled first kills it
and waits for that, so nothing it started outlives it.
"""

from __future__ import annotations

import itertools
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

import structlog
import trio

from ..dialects.base import DialectModule
from ..model import FireRequest, HookReport, HookSpec, ProcessOutcome, Verdict
from ..settings import Settings
from .custody import Custody
from .process import ProcessLimits
from .runner import limits_for, never_ran_verdict, run_hook

log = structlog.get_logger("hookd.background")

Deliver = Callable[[dict[str, Any]], None]
MAX_PER_SESSION = 100
MAX_SESSIONS = 1000
MAX_PER_TAKE = 20
"""At most this many results go into one fire's ``asyncResults`` (each text is capped
by the dialect); the rest wait for the session's next fire."""
MAX_RUNNING = 64
MAX_RUNNING_PER_SESSION = 16
"""Background hooks hold a process and three pipes each for up to their timeout: capped,
so that lingering ones can never exhaust the daemon's file descriptors and make the
synchronous hooks (the ones that can block) fail to start."""


class BackgroundHooks:
    """Runs background hooks and keeps their results per session until fetched."""

    def __init__(
        self, settings: Settings, base_env: Mapping[str, str], custody: Custody | None = None
    ) -> None:
        self.settings = settings
        self.base_env = base_env
        self.custody = custody
        self._nursery: trio.Nursery | None = None
        self._ids = itertools.count(1)
        self._waiting: OrderedDict[tuple[str, str], list[dict[str, Any]]] = OrderedDict()
        self.running = 0
        self._by_session: dict[tuple[str, str], int] = {}
        self.finished = 0
        self.dropped = 0

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Host the background nursery until cancelled (daemon shutdown kills the hooks)."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            task_status.started()
            await trio.sleep_forever()

    def start(
        self,
        request: FireRequest,
        spec: HookSpec,
        module: DialectModule,
        deliver: Deliver | None,
    ) -> dict[str, Any]:
        """Start ``spec`` in the background; the entry describing it in the fire result."""
        if self._nursery is None:
            raise RuntimeError("background hooks are not running (BackgroundHooks.run)")
        entry = self._entry(request, spec)
        refused = self._refusal(request)
        if refused is not None:
            entry["notStarted"] = refused
            return entry
        self._count(request, +1)
        self._nursery.start_soon(self._run_one, request, spec, module, deliver, entry)
        return entry

    def attached(
        self, request: FireRequest, module: DialectModule, deliver: Deliver | None
    ) -> Attached:
        """The runner of ``request``'s hooks that may go to the background while they run
        (``runner.Detacher``)."""
        return Attached(self, request, module, deliver)

    def _entry(self, request: FireRequest, spec: HookSpec) -> dict[str, Any]:
        return {
            "id": f"async-{next(self._ids)}",
            "dialect": spec.dialect.value,
            "event": request.event,
            "source": spec.source,
            "layer": spec.layer,
            "command": spec.command,
            "sessionId": request.session_id,
        }

    def _refusal(self, request: FireRequest) -> str | None:
        """Why one more background hook of this session may not run now, or None."""
        if self.running >= MAX_RUNNING:
            return f"{MAX_RUNNING} background hooks are already running"
        if self._by_session.get(_session(request), 0) >= MAX_RUNNING_PER_SESSION:
            return f"{MAX_RUNNING_PER_SESSION} background hooks of this session are already running"
        return None

    def _count(self, request: FireRequest, step: int) -> None:
        self.running += step
        session = _session(request)
        left = self._by_session.get(session, 0) + step
        if left > 0:
            self._by_session[session] = left
        else:
            self._by_session.pop(session, None)

    async def _run_one(
        self,
        request: FireRequest,
        spec: HookSpec,
        module: DialectModule,
        deliver: Deliver | None,
        entry: dict[str, Any],
    ) -> None:
        started = time.perf_counter()
        try:
            limits = limits_for(self.settings, spec.timeout_s)
            outcome, verdict = await run_hook(
                module, spec, request, self.base_env, limits,
                custody=self.custody, never_ran=self.settings.never_ran,
            )  # fmt: skip
            report = HookReport(spec=spec, index=0, outcome=outcome, verdict=verdict)
            self._finished(request, module, deliver, entry, report, started)
        except Exception:  # a bug here must not take the daemon's nursery down
            log.exception("async_hook_failed", source=spec.source)
        finally:
            self._count(request, -1)

    def _finished(
        self,
        request: FireRequest,
        module: DialectModule,
        deliver: Deliver | None,
        entry: dict[str, Any],
        report: HookReport,
        started: float,
    ) -> None:
        """Keep and deliver the result of a background hook that finished."""
        outcome = report.outcome
        result = {
            **entry,
            "exitCode": outcome.exit_code,
            "timedOut": outcome.timed_out,
            "durationMs": round((time.perf_counter() - started) * 1000, 3),
            "error": report.verdict.error,
            **_summary(module, report, request),
        }
        self.finished += 1
        log.info("async_hook_finished", source=report.spec.source, exit_code=outcome.exit_code)
        self._keep(request, result)
        if deliver is not None:
            deliver(result)

    async def run_attached(
        self,
        fire: Attached,
        spec: HookSpec,
        index: int,
        limits: ProcessLimits,
        given: FireRequest,
    ) -> tuple[ProcessOutcome, Verdict]:
        """Run hook ``index`` of ``fire`` in the background nursery, and wait until it
        finishes or goes to the background; ``given``: what the hook is given (in a chain,
        the fire's request as the previous hook changed it: a portable hook may go to the
        background, and runs after a sequential agent's own hooks)."""
        if self._nursery is None:
            raise RuntimeError("background hooks are not running (BackgroundHooks.run)")
        handoff = _Handoff()
        self._nursery.start_soon(self._attached_task, fire, handoff, spec, index, limits, given)
        try:
            await handoff.settled.wait()
        finally:
            if not handoff.settled.is_set():  # the fire was cancelled: the hook goes with it
                handoff.scope.cancel()
                with trio.CancelScope(shield=True):
                    await handoff.ended.wait()
        return handoff.result

    async def _attached_task(
        self,
        fire: Attached,
        handoff: _Handoff,
        spec: HookSpec,
        index: int,
        limits: ProcessLimits,
        given: FireRequest,
    ) -> None:
        request, module = fire.request, fire.module
        started = time.perf_counter()
        entry: dict[str, Any] | None = None

        def gone(asked_s: float) -> float:
            """The hook asked to go to the background: the fire goes on without it."""
            nonlocal entry
            if handoff.scope.cancel_called:
                return asked_s  # the fire was cancelled first: it is being killed anyway
            entry = {**self._entry(request, spec), "index": index}
            refused = self._refusal(request)
            error = None
            if refused is None:
                self._count(request, +1)
            else:
                entry["notStarted"] = refused
                error = f"it went to the background, where hookd stopped it: {refused}"
            fire.started.append(entry)
            line = ProcessOutcome(None, b"", b"", _ms_since(started))
            handoff.settle((line, Verdict(error=error)))
            return asked_s if refused is None else 0.0

        try:
            with handoff.scope:
                outcome, verdict = await run_hook(
                    module, spec, given, self.base_env, limits,
                    custody=self.custody, never_ran=self.settings.never_ran, gone=gone,
                )  # fmt: skip
                if entry is None:
                    handoff.settle((outcome, verdict))
                elif "notStarted" not in entry:
                    report = HookReport(spec=spec, index=index, outcome=outcome, verdict=verdict)
                    self._finished(request, module, fire.deliver, entry, report, started)
        except Exception:  # a bug here must not take the daemon's nursery down
            log.exception("async_hook_failed", source=spec.source)
        finally:
            if entry is not None and "notStarted" not in entry:
                self._count(request, -1)
            if not handoff.settled.is_set():  # hookd is stopping (or failed): never "allowed"
                stopped = ProcessOutcome(
                    None, b"", b"", _ms_since(started), cancelled=True,
                    spawn_error="hookd stopped before the hook finished", never_ran=True,
                )  # fmt: skip
                never_ran = self.settings.never_ran
                verdict = never_ran_verdict(module, spec, request, stopped, never_ran)
                handoff.settle((stopped, verdict))
            handoff.ended.set()

    def _keep(self, request: FireRequest, result: dict[str, Any]) -> None:
        session = request.session_id
        if session is None:
            return
        key = (request.dialect.value, session)
        waiting = self._waiting.setdefault(key, [])
        self._waiting.move_to_end(key)
        waiting.append(result)
        if len(waiting) > MAX_PER_SESSION:
            del waiting[0]
            self.dropped += 1
        while len(self._waiting) > MAX_SESSIONS:
            _, lost = self._waiting.popitem(last=False)
            self.dropped += len(lost)

    def take(self, request: FireRequest) -> list[dict[str, Any]]:
        """The finished results waiting for this fire's session (removed once taken)."""
        session = request.session_id
        if session is None:
            return []
        key = (request.dialect.value, session)
        waiting = self._waiting.get(key, [])
        taken, rest = waiting[:MAX_PER_TAKE], waiting[MAX_PER_TAKE:]
        if rest:
            self._waiting[key] = rest
        else:
            self._waiting.pop(key, None)
        return taken


def _summary(module: DialectModule, report: HookReport, request: FireRequest) -> dict[str, Any]:
    """The dialect's summary of a finished background hook; a bug in it is the hook's
    error (delivered like any result), never a lost result."""
    try:
        return module.async_result(report, request)
    except Exception as exc:
        log.exception("async_result_failed", source=report.spec.source)
        return {"error": f"internal error reading its output: {exc!r}"}


class Attached:
    """The hooks of one fire that may go to the background while they run
    (``runner.Detacher``); ``started`` lists those that went, for ``asyncStarted``."""

    def __init__(
        self,
        hooks: BackgroundHooks,
        request: FireRequest,
        module: DialectModule,
        deliver: Deliver | None,
    ) -> None:
        self.hooks = hooks
        self.request = request
        self.module = module
        self.deliver = deliver
        self.started: list[dict[str, Any]] = []

    async def run(
        self, spec: HookSpec, index: int, limits: ProcessLimits, request: FireRequest
    ) -> tuple[ProcessOutcome, Verdict]:
        return await self.hooks.run_attached(self, spec, index, limits, request)


class _Handoff:
    """Between a fire and a hook that runs in the background nursery: ``settled`` once the
    hook finished or went to the background (``result`` then holds what the fire
    reports), ``ended`` once its task is over; ``scope`` lets the fire kill it."""

    def __init__(self) -> None:
        self.settled = trio.Event()
        self.ended = trio.Event()
        self.scope = trio.CancelScope()
        self.result = (ProcessOutcome(None, b"", b"", 0.0), Verdict())

    def settle(self, result: tuple[ProcessOutcome, Verdict]) -> None:
        if not self.settled.is_set():
            self.result = result
            self.settled.set()


def _session(request: FireRequest) -> tuple[str, str]:
    return (request.dialect.value, request.session_id or "")  # as _waiting is keyed


def _ms_since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)
