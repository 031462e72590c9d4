"""Run a fire's hooks: concurrently in one nursery, or in order where the dialect says so
(each then given what the dialect's ``chained`` makes of the one before).

Each hook runs in its own cancel scope with its own timeout (the dialect's default or
the hook's setting, capped by the fire's ``timeoutMs``). When someone listens to the
fire's progress, a sibling task sends the *slow* notice once a hook passes the
threshold and is cancelled when the hook ends; nobody listening, no task. A fire with
one hook (or none) runs it in the fire's own task (no nursery to start one task in). A
hook that may send itself to the background (``HookSpec.may_detach``) is run by the
fire's ``Detacher`` (``runner.background``), which owns it from its start.
"""

from __future__ import annotations

import errno
import math
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Protocol

import structlog
import trio

from ..dialects.base import DialectModule
from ..model import (
    DENIED_PREFIX,
    ClientLaunch,
    FireRequest,
    HookReport,
    HookSpec,
    HttpLaunch,
    Launch,
    Prepared,
    ProcessOutcome,
    Verdict,
)
from ..settings import Settings
from .client_handler import AskClient, run_on_client
from .custody import Custody
from .http_post import post_json
from .process import FirstLine, ProcessLimits, run_hook_process

log = structlog.get_logger("hookd.runner")


class HookProgress(Protocol):
    """Told as each hook starts, passes the slow threshold and finishes. Never waits:
    what it tells is queued (progress is best effort)."""

    @property
    def listening(self) -> bool:
        """Whether anyone hears the slow notices (else none is timed)."""
        ...

    def started(self, index: int, spec: HookSpec) -> None: ...

    def slow(self, index: int, spec: HookSpec, elapsed_ms: int) -> None: ...

    def finished(self, report: HookReport) -> None: ...


class _Silent:
    listening = False

    def started(self, index: int, spec: HookSpec) -> None:
        return None

    def slow(self, index: int, spec: HookSpec, elapsed_ms: int) -> None:
        return None

    def finished(self, report: HookReport) -> None:
        return None


SILENT: HookProgress = _Silent()

Gone = Callable[[float], float]
"""Told that a running hook asked to go on in the background with a timeout (seconds);
returns the timeout it gets from then on."""


class Detacher(Protocol):
    """Runs the hooks of a fire that may go to the background while they run: the fire
    waits until each finishes (its outcome) or goes there (a placeholder outcome)."""

    async def run(
        self, spec: HookSpec, index: int, limits: ProcessLimits, request: FireRequest
    ) -> tuple[ProcessOutcome, Verdict]:
        """``request``: what this hook is given (in a chain, the previous hook's change)."""


async def run_hooks(
    request: FireRequest,
    specs: Sequence[HookSpec],
    module: DialectModule,
    *,
    settings: Settings,
    base_env: Mapping[str, str],
    progress: HookProgress = SILENT,
    ask_client: AskClient | None = None,
    custody: Custody | None = None,
    detacher: Detacher | None = None,
) -> list[HookReport]:
    """Run every hook in ``specs`` and return their reports in declaration order."""
    deadline = trio.current_time() + (request.timeout_s or math.inf)
    reports: dict[int, HookReport] = {}

    slow_s = request.slow_threshold_s
    timed = progress.listening and 0 < slow_s < math.inf

    async def run_one(index: int, spec: HookSpec, request: FireRequest = request) -> None:
        remaining = max(0.0, deadline - trio.current_time())
        progress.started(index, spec)
        limits = limits_for(settings, min(spec.timeout_s, remaining))
        if detacher is not None and spec.may_detach:
            running = detacher.run(spec, index, limits, request)
        else:
            running = run_hook(
                module, spec, request, base_env, limits,
                ask_client=ask_client, custody=custody, never_ran=settings.never_ran,
            )  # fmt: skip
        if timed:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_slow_notice, progress, index, spec, slow_s)
                outcome, verdict = await running
                nursery.cancel_scope.cancel()
        else:
            outcome, verdict = await running
        report = HookReport(spec=spec, index=index, outcome=outcome, verdict=verdict)
        reports[index] = report
        progress.finished(report)

    if len(specs) <= 1 or module.sequential(request, specs):
        given: FireRequest | None = request  # in order, a hook may change what the next
        for index, spec in enumerate(specs):  # is given, or end the chain (None)
            if given is None:
                break
            await run_one(index, spec, given)
            given = module.chained(given, reports[index])
    else:
        async with trio.open_nursery() as nursery:
            for index, spec in enumerate(specs):
                nursery.start_soon(run_one, index, spec)
    return [reports[i] for i in sorted(reports)]


async def run_hook(
    module: DialectModule,
    spec: HookSpec,
    request: FireRequest,
    base_env: Mapping[str, str],
    limits: ProcessLimits,
    *,
    ask_client: AskClient | None = None,
    custody: Custody | None = None,
    never_ran: str = "block",
    gone: Gone | None = None,
) -> tuple[ProcessOutcome, Verdict]:
    """Prepare, run and interpret one hook: the one path for every hook, waited for or in
    the background. Whatever goes wrong, in hookd or in the dialect, becomes this hook's
    error, never the fire's (which would lose the other hooks' blocks). A hook hookd could
    not run because of its own limits never reaches the dialect: it "never ran", and on
    an event that guards an action that blocks unless ``never_ran`` is ``"allow"``; so
    does a hook the trust check refused (``spec.refused``), which is never started.
    ``gone`` is told when the hook sends itself to the background (``Launch.async_reply``)."""
    if spec.refused is not None:
        outcome = ProcessOutcome(None, b"", b"", 0.0, spawn_error=spec.refused, never_ran=True)
        return outcome, never_ran_verdict(module, spec, request, outcome, never_ran)
    prepared = _prepare(module, spec, request, base_env)
    if isinstance(prepared, ProcessOutcome):
        outcome = prepared
    else:
        outcome = await _guarded(
            spec,
            run_handler(
                prepared, limits, ask_client, request.client_handlers, custody, request.depth, gone
            ),
        )
    if not outcome.never_ran:
        verdict = _interpreted(module, spec, request, outcome)
        if isinstance(verdict, Verdict):
            return outcome, verdict
        outcome = verdict
    return outcome, never_ran_verdict(module, spec, request, outcome, never_ran)


NEVER_RAN_BLOCKS = 'blocked because hookd\'s never_ran setting is "block"'


def never_ran_blocks(module: DialectModule, request: FireRequest, policy: str) -> bool:
    """Whether hooks that never ran block this fire: on the events that guard an action,
    unless hookd's ``never_ran`` setting is ``"allow"``."""
    return policy == "block" and request.event in module.GUARD_EVENTS


def never_ran_verdict(
    module: DialectModule,
    spec: HookSpec,
    request: FireRequest,
    outcome: ProcessOutcome,
    policy: str,
) -> Verdict:
    """The verdict of a hook hookd could not run (or would not: ``spec.refused``): never
    "allowed" by accident."""
    why = outcome.spawn_error or "hookd could not run it"
    could_not = "did not" if spec.refused is not None else "could not"
    error = f"not run: {why}" if spec.refused is not None else f"never ran: {why}"
    denied = spec.refused is not None and spec.refused.startswith(DENIED_PREFIX)
    if never_ran_blocks(module, request, policy) and not denied:
        return Verdict(
            blocks=True,
            reason=f"hookd {could_not} run the hook {module.hook_label(spec)} ({why}); "
            + NEVER_RAN_BLOCKS,
            error=error,
        )
    return Verdict(error=error)


async def _guarded(spec: HookSpec, running: Awaitable[ProcessOutcome]) -> ProcessOutcome:
    """One hook's failure stays that hook's: a bug or an unforeseen error while running
    it becomes its error, never the fire's (which would lose the other hooks' blocks)."""
    started = trio.current_time()
    try:
        return await running
    except Exception as exc:
        log.exception("hook_failed_internally", source=spec.source, command=spec.command)
        elapsed = round((trio.current_time() - started) * 1000, 3)
        return ProcessOutcome(None, b"", b"", elapsed, spawn_error=_internal(exc), never_ran=True)


def _prepare(
    module: DialectModule, spec: HookSpec, request: FireRequest, env: Mapping[str, str]
) -> Prepared | ProcessOutcome:
    try:
        prepared: Prepared = module.prepare(spec, request, env)
    except Exception as exc:
        log.exception("hook_prepare_failed", source=spec.source, command=spec.command)
        return ProcessOutcome(None, b"", b"", 0.0, spawn_error=_internal(exc), never_ran=True)
    return prepared


def _internal(exc: Exception) -> str:
    """A bug in hookd met while running a hook: the hook never ran (hookd's failure is
    never the hook's "allow"), and what to do about it."""
    return (f"internal error in hookd ({exc!r}); the details are in the daemon's log: "
            "please report it")  # fmt: skip


def _interpreted(
    module: DialectModule, spec: HookSpec, request: FireRequest, outcome: ProcessOutcome
) -> Verdict | ProcessOutcome:
    """The dialect's reading of ``outcome``; a bug in it makes the hook one that never
    ran (the returned outcome says why)."""
    try:
        verdict: Verdict = module.interpret(spec, request, outcome)
    except Exception as exc:
        log.exception("hook_interpret_failed", source=spec.source, command=spec.command)
        return replace(outcome, spawn_error=_internal(exc), never_ran=True)
    return verdict


def limits_for(settings: Settings, timeout_s: float) -> ProcessLimits:
    return ProcessLimits(
        timeout_s=timeout_s,
        output_cap_bytes=settings.output_cap_bytes,
        json_cap_bytes=max(settings.json_output_cap_bytes, settings.output_cap_bytes),
        term_grace_s=settings.term_grace_s,
        drain_grace_s=settings.drain_grace_s,
    )


async def run_handler(
    prepared: Prepared,
    limits: ProcessLimits,
    ask_client: AskClient | None = None,
    offered: frozenset[str] = frozenset(),
    custody: Custody | None = None,
    depth: int = 0,
    gone: Gone | None = None,
) -> ProcessOutcome:
    """Run one prepared hook: a process, an HTTP request, or a request to the client."""
    if isinstance(prepared, HttpLaunch):
        if prepared.refusal is not None:
            return ProcessOutcome(None, b"", b"", 0.0, spawn_error=prepared.refusal)
        return await post_json(
            prepared.url,
            prepared.headers,
            prepared.body,
            timeout_s=limits.timeout_s,
            body_cap_bytes=limits.output_cap_bytes,
        )
    if isinstance(prepared, ClientLaunch):
        return await run_on_client(prepared, ask_client, offered, timeout_s=limits.timeout_s)
    return await _spawn(prepared, limits, custody, depth, _first_line(prepared, gone))


def _first_line(launch: Launch, gone: Gone | None) -> FirstLine | None:
    """The watcher of a hook's first stdout line, for a hook that may go to the
    background and a caller that takes it there."""
    reply = launch.async_reply
    if reply is None or gone is None:
        return None

    def watch(line: bytes) -> float | None:
        asked = reply(line)
        return None if asked is None else gone(asked)

    return watch


async def _spawn(
    launch: Launch,
    limits: ProcessLimits,
    custody: Custody | None,
    depth: int,
    first_line: FirstLine | None = None,
) -> ProcessOutcome:
    outcome = await run_hook_process(
        launch.argv, stdin=launch.stdin, cwd=launch.cwd, env=launch.env, limits=limits,
        custody=custody, depth=depth, first_line=first_line,
    )  # fmt: skip
    if outcome.spawn_errno == errno.ENOEXEC and launch.argv[0] != "/bin/sh":
        # No shebang: run it as a shell script, as a shell (and so Cline) would.
        outcome = await run_hook_process(
            ("/bin/sh", *launch.argv),
            stdin=launch.stdin,
            cwd=launch.cwd,
            env=launch.env,
            limits=limits,
            custody=custody,
            depth=depth,
            first_line=first_line,
        )
    return outcome


async def _slow_notice(
    progress: HookProgress, index: int, spec: HookSpec, threshold_s: float
) -> None:
    await trio.sleep(threshold_s)
    progress.slow(index, spec, round(threshold_s * 1000))
