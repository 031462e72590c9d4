"""The one task that keeps the registry warm: a single ``watchfiles.awatch`` for all paths.

Facts this is built on (``docs/sources/notes/library-checks.md`` §2): one ``awatch`` holds one
inotify instance and one worker thread for its whole life, so there is exactly one; a
missing path makes the first iteration raise, and roots cannot be added to a running
watcher, so the watcher is restarted with a fresh target list whenever the set of
directories to watch changes; ``stop_event`` must be set before cancelling or stopping
takes up to ``rust_timeout``.
"""

from __future__ import annotations

from contextlib import aclosing

import structlog
import trio
from watchfiles import awatch

from .registry import Registry

log = structlog.get_logger("hookd.watcher")


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

    def stop(self) -> None:
        """Stop promptly: awatch checks this event, so no wait for its rust_timeout."""
        self._closing = True
        self._stop.set()
        self._poked.set()

    def poke(self) -> None:
        """The set of sources changed (new roots): restart with fresh targets."""
        self._poked.set()
        self._stop.set()

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        self.registry.rescan()  # warm every source once, off the fire path
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
                await self._watch_once()
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
