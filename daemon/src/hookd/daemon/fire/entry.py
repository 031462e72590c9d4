"""The one way into a fire, whichever door it came through (the socket's ``fire``, the
relay's ``relay``, the http entry): admit it (nested too deep? register its roots), audit
how it ended (answered, failed, cancelled, refused) and start it.

A fire with no hook to run in the foreground is answered as it is admitted (``now``: no
task, no await, the cost of the many tool calls no hook matches); the others run when
their ``result`` is awaited, in the caller's task (a fire dropped before that, cancelled
while it waited, leaves nothing behind: ``pipeline.Fire``).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Protocol

import trio

from hookd.protocol import FIRE_TOO_DEEP, FireResult

from ..audit import Peer, call_of, kept_payload
from ..model import FireRequest
from ..scrub import secret_values
from .pipeline import NO_PORTS, Fire, FirePorts, FireServices


class EntryServices(FireServices, Protocol):
    """What admitting a fire uses of the daemon, beyond running it."""

    def add_roots(self, roots: Iterable[str]) -> None:
        """Register workspace roots (their hooks are then watched and kept warm)."""


@dataclass(frozen=True, slots=True)
class Caller:
    """Who fired, as the audit log records it."""

    peer: Peer
    request_id: Any
    hook_id: str | None = None
    """The ``HOOKD_HOOK_ID`` of the hook the caller runs under (a fire from inside a hook)."""


class FireRefused(Exception):
    """The fire is refused before it starts (a JSON-RPC error code, message and data)."""

    def __init__(self, code: int, message: str, data: str) -> None:
        super().__init__(data)
        self.code = code
        self.message = message
        self.data = data


class Started:
    """An admitted fire: its result now, or when awaited (audited either way)."""

    __slots__ = ("_fire", "_record", "now")

    def __init__(self, fire: Fire, record: partial[None], now: FireResult | None) -> None:
        self._fire = fire
        self._record = record
        self.now = now
        """The result, when the fire had nothing to run in the foreground."""

    async def result(self) -> FireResult:
        """Run the fire's foreground hooks; its result."""
        if self.now is not None:
            return self.now
        try:
            result = await self._fire.result()
        except BaseException as exc:
            outcome = "cancelled" if only_cancelled(exc) else "failed"
            elapsed = round((time.perf_counter() - self._fire.started) * 1000, 3)
            self._record(outcome=outcome, duration_ms=elapsed)
            raise
        self._record(result=result)
        return result


def start(
    request: FireRequest, services: EntryServices, caller: Caller, ports: FirePorts = NO_PORTS
) -> Started:
    """Admit, audit and start one fire.

    Raises:
        FireRefused: nested too deep in hooks (``max_fire_depth``); audited as refused.
    """
    audit = services.audit
    if audit.path is None:
        call = call_of(request.payload, request.session_id, request.relay)
    else:  # what is written down has the caller's credentials scrubbed
        secrets = secret_values((request.env, services.base_env))
        call = call_of(request.payload, request.session_id, request.relay, secrets)
        limit = services.settings.audit_payload_max_bytes
        call.update(kept_payload(request.payload, limit, secrets))
    record = partial(
        audit.fire, peer=caller.peer, request_id=caller.request_id,
        agent=request.dialect.value, event=request.event, roots=request.roots, call=call,
    )  # fmt: skip
    if caller.peer.inside_hook:  # else the depth is 0, as parsed
        try:
            request = replace(request, depth=_nesting(services, caller))
        except FireRefused as refused:
            record(depth=-1, outcome="refused", reason=refused.data)
            raise
    record = partial(record, depth=request.depth)
    services.add_roots(request.roots)
    begun_at = time.perf_counter()
    try:
        fire = Fire(request, services, ports)
        now = None if fire.specs else fire.result_now()
    except BaseException:  # a bug in the lookup or the result: the fire is still recorded
        record(outcome="failed", duration_ms=round((time.perf_counter() - begun_at) * 1000, 3))
        raise
    if now is not None:
        record(result=now)
    return Started(fire, record, now)


def only_cancelled(exc: BaseException) -> bool:
    """Whether a fire ended by cancellation alone (possibly grouped by nurseries)."""
    if isinstance(exc, BaseExceptionGroup):
        return all(only_cancelled(inner) for inner in exc.exceptions)
    return isinstance(exc, trio.Cancelled)


def _nesting(services: FireServices, caller: Caller) -> int:
    """How deeply a fire from inside a hook is nested (``FireRefused`` past the cap)."""
    custody = services.custody
    parent = custody.depth_of(caller.hook_id) if custody is not None else None
    depth = (parent or 0) + 1
    limit = services.settings.max_fire_depth
    if depth > limit:
        raise FireRefused(
            FIRE_TOO_DEEP,
            "Fire too deep",
            f"this fire comes from inside a hook, nested {depth} deep; hookd allows "
            f"{limit} (max_fire_depth). A hook that fires its own event would recurse "
            "forever: fire a different event, or raise max_fire_depth in hookd's config",
        )
    return depth
