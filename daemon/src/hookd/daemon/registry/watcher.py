"""The one task that keeps the registry warm: a single ``watchfiles.awatch`` for all paths.

Facts this is built on (``docs/sources/notes/library-checks.md`` §2): one ``awatch`` holds one
inotify instance and one worker thread for its whole life, so there is exactly one; a
missing path makes the first iteration raise, and roots cannot be added to a running
watcher, so the watcher is restarted with a fresh target list whenever the set of
directories to watch changes; ``stop_event`` must be set before cancelling or stopping
takes up to ``rust_timeout``.

Nothing the watcher meets is fatal to the daemon (file descriptors or inotify watches
running out, a directory vanishing, an error while re-reading a file): the error is
logged, counted in ``status`` and the watch retried with backoff. Fires stay correct
meanwhile, because every fire checks its own sources with ``stat`` anyway.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import aclosing

import structlog
import trio
from watchfiles import awatch

from .registry import Registry

log = structlog.get_logger("hookd.watcher")
RETRY_FIRST_S = 0.1
RETRY_MAX_S = 30.0


class Watcher:
    """Runs ``awatch`` over the registry's watch targets and applies change batches."""

    def __init__(self, registry: Registry, *, debounce_ms: int, step_ms: int) -> None:
        self.registry = registry
        self.debounce_ms = debounce_ms
        self.step_ms = step_ms
        self.batches = 0
        self.restarts = 0
        self.targets: set[str] = set()
        self._stop = trio.Event()
        self._poked = trio.Event()
        self._closing = False
        self.errors = 0
        self.last_error: str | None = None
        self.last_error_at: float | None = None
        self.failing = False
        """True from an error until a watch is established again."""
        self._retry_s = RETRY_FIRST_S

    def stop(self) -> None:
        """Stop promptly: awatch checks this event, so no wait for its rust_timeout."""
        self._closing = True
        self._stop.set()
        self._poked.set()

    def poke(self) -> None:
        """The set of sources changed (new roots): restart with fresh targets."""
        self._poked.set()
        self._stop.set()

    def view(self) -> dict[str, object]:
        """The watcher's part of ``status``."""
        return {
            "directories": len(self.targets),
            "batches": self.batches,
            "restarts": self.restarts,
            "errors": self.errors,
            "healthy": not self.failing,
            "lastError": self.last_error,
        }

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        self._guarded(self.registry.rescan)  # warm every source once, off the fire path
        started = False
        try:
            while not self._closing:
                self.targets = self.registry.watch_targets()
                if not self._closing:
                    self._stop = trio.Event()
                    self._poked = trio.Event()
                if not started:
                    task_status.started()
                    started = True
                if not self.targets:
                    await self._poked.wait()
                    continue
                try:
                    await self._watch_once()
                except Exception as exc:  # noqa: BLE001 (never fatal: logged, in status, retried)
                    self._failed(exc)
                    with trio.move_on_after(self._retry_s):
                        await self._poked.wait()  # a new root retries at once
                    self._retry_s = min(self._retry_s * 2, RETRY_MAX_S)
                self.restarts += 1
        finally:
            self._stop.set()

    async def _watch_once(self) -> None:
        established = False
        try:
            changes_stream = awatch(
                *sorted(self.targets),
                watch_filter=None,
                debounce=self.debounce_ms,
                step=self.step_ms,
                stop_event=self._stop,
                rust_timeout=500,
                yield_on_timeout=True,
                recursive=False,
                ignore_permission_denied=True,
            )
            # Closed explicitly: returning out of the loop must not leave the generator to
            # the garbage collector (a ResourceWarning, an error under pytest).
            async with aclosing(changes_stream):
                async for changes in changes_stream:
                    if not established:
                        # The first yield proves the inotify watches exist; whatever changed
                        # before that (e.g. while restarting) is caught by one rescan.
                        established = True
                        self.failing = False
                        self._retry_s = RETRY_FIRST_S
                        if self.registry.rescan():
                            self.batches += 1
                    if not changes:
                        continue
                    self.batches += 1
                    paths = {path for _change, path in changes}
                    refreshed = self.registry.refresh(paths)
                    if not refreshed:
                        continue  # nothing hookd reads changed (e.g. a build in a root)
                    log.debug("sources_changed", paths=len(paths), refreshed=refreshed)
                    if self.registry.watch_targets() != self.targets:
                        return  # a directory appeared or vanished: restart the watch
        except FileNotFoundError:
            # A target vanished between listing and watching; recompute and retry.
            await trio.sleep(0.05)

    def _failed(self, exc: BaseException) -> None:
        self.errors += 1
        self.failing = True
        self.last_error = f"{type(exc).__name__}: {exc}"
        self.last_error_at = time.time()
        log.warning(
            "watcher_failed", error=self.last_error, retry_in_s=self._retry_s,
            directories=len(self.targets),
        )  # fmt: skip

    def _guarded(self, step: Callable[[], object]) -> None:
        try:
            step()
        except Exception as exc:  # noqa: BLE001 (fires stay correct: they stat their sources)
            self._failed(exc)
