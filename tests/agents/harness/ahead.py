"""Run the agent side of a suite's cases ahead of their tests, a few at a time.

An agent run is mostly the agent starting up and waiting on its scripted model, each in
its own folder and network namespace, so the runs of independent cases can overlap; the
tests still run one by one, in order, each taking its own case's run (and waiting for
it) before it fires hookd and compares. ``HOOKD_AGENT_JOBS`` sets how many agent runs may
be in flight (default 2; 1 runs them one by one, just ahead of their tests).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

JOBS_ENV = "HOOKD_AGENT_JOBS"
DEFAULT_JOBS = 2


def jobs() -> int:
    """How many agent runs may overlap (``HOOKD_AGENT_JOBS``, at least 1)."""
    value = os.environ.get(JOBS_ENV, str(DEFAULT_JOBS))
    try:
        return max(1, int(value))
    except ValueError:
        raise SystemExit(
            f"{JOBS_ENV}={value!r}: give a whole number of agent runs (1, 2, ...)"
        ) from None


class Ahead:
    """Each case's agent run, started in the order the tests will ask for them."""

    def __init__(
        self,
        run: Callable[[Any, Path], dict[str, Any]],
        cases: Sequence[Any],
        folder: Callable[[Any], Path],
        workers: int,
    ) -> None:
        """``run(case, folder)`` does the agent side of one case in ``folder(case)``."""
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="agent")
        self._runs: dict[str, tuple[Path, Future[dict[str, Any]]]] = {}
        for case in cases:
            where = folder(case)
            self._runs[case.id] = (where, self._pool.submit(run, case, where))

    def take(self, case: Any) -> tuple[Path, Future[dict[str, Any]]]:
        """The folder and the (maybe still running) agent run of ``case``."""
        return self._runs.pop(case.id)

    def close(self) -> None:
        """Drop the runs no test asked for (a stopped session) and wait for the rest."""
        self._pool.shutdown(wait=True, cancel_futures=True)


def selected_cases(request: Any, test_name: str) -> list[Any]:
    """The ``case`` parameters of the requesting module's collected ``test_name`` items, in
    the order they will run (after ``-k`` and the like): the runs its ``Ahead`` should
    start. Only its own: other agents' suites name their tests alike, and their cases
    would run under this agent (and collide with its own where the ids match)."""
    return [item.callspec.params["case"] for item in request.session.items
            if getattr(item, "originalname", "") == test_name
            and getattr(item, "module", None) is request.module]  # fmt: skip


def trio_side(side: Callable[..., Any], *args: Any) -> Callable[[Any, Path], dict[str, Any]]:
    """``side(*args, case, root)``, an async agent side, run in the worker thread's own trio
    run: what ``Ahead`` takes."""
    import trio

    def run(case: Any, root: Path) -> dict[str, Any]:
        result: dict[str, Any] = trio.run(side, *args, case, root)
        return result

    return run
