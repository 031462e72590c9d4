"""Background (``async``) hooks: started by a fire, finished on the daemon's own time.

A fire does not wait for them. Each runs in the daemon's background nursery with its own
timeout (so daemon shutdown kills them like any hook). When one finishes, what it tells
the agent is delivered twice over, so it is never lost: at once as a ``hook/asyncResult``
notification to the connection that fired it (if still open), and in the
``asyncResults`` of the next fire of the same agent session. Each result has an ``id`` so
an agent that sees both can drop the second.
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
from ..model import FireRequest, HookReport, HookSpec
from ..settings import Settings
from .custody import Custody
from .runner import limits_for, run_hook

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
        entry = {
            "id": f"async-{next(self._ids)}",
            "dialect": spec.dialect.value,
            "event": request.event,
            "source": spec.source,
            "layer": spec.layer,
            "command": spec.command,
            "sessionId": request.session_id,
        }
        if self._nursery is None:
            raise RuntimeError("background hooks are not running (BackgroundHooks.run)")
        session = (request.dialect.value, request.session_id or "")  # as _waiting is keyed
        if self.running >= MAX_RUNNING:
            entry["notStarted"] = f"{MAX_RUNNING} background hooks are already running"
            return entry
        if self._by_session.get(session, 0) >= MAX_RUNNING_PER_SESSION:
            entry["notStarted"] = (
                f"{MAX_RUNNING_PER_SESSION} background hooks of this session are already running"
            )
            return entry
        self.running += 1
        self._by_session[session] = self._by_session.get(session, 0) + 1
        self._nursery.start_soon(self._run_one, request, spec, module, deliver, entry)
        return entry

    async def _run_one(
        self,
        request: FireRequest,
        spec: HookSpec,
        module: DialectModule,
        deliver: Deliver | None,
        entry: dict[str, Any],
    ) -> None:
        started = time.perf_counter()
        session = (request.dialect.value, request.session_id or "")  # as _waiting is keyed
        try:
            limits = limits_for(self.settings, spec.timeout_s)
            outcome, verdict = await run_hook(
                module, spec, request, self.base_env, limits,
                custody=self.custody, never_ran=self.settings.never_ran,
            )  # fmt: skip
            report = HookReport(spec=spec, index=0, outcome=outcome, verdict=verdict)
            result = {
                **entry,
                "exitCode": outcome.exit_code,
                "timedOut": outcome.timed_out,
                "durationMs": round((time.perf_counter() - started) * 1000, 3),
                "error": verdict.error,
                **_summary(module, report, request),
            }
            self.finished += 1
            log.info("async_hook_finished", source=spec.source, exit_code=outcome.exit_code)
            self._keep(request, result)
            if deliver is not None:
                deliver(result)
        except Exception:  # a bug here must not take the daemon's nursery down
            log.exception("async_hook_failed", source=spec.source)
        finally:
            self.running -= 1
            left = self._by_session.get(session, 1) - 1
            if left > 0:
                self._by_session[session] = left
            else:
                self._by_session.pop(session, None)

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
