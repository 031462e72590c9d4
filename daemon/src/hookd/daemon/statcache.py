"""A value computed from a file, computed again only when the file may have changed.

The trust digests, the digests of trusted settings and Claude's plugin files are read on
the fire path; a ``stat`` decides whether the last value still holds: the same signature
(mtime, ctime, size, inode) and not racily clean (``racy``: a write in the tick the file
was read in can leave the signature unchanged).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Generic, TypeVar

from .racy import is_racy

T = TypeVar("T")
Signature = tuple[int, int, int, int]
MAX_ENTRIES = 4096
"""Past this many files the cache starts again (a bound, not a tuning knob)."""


def signature_of(info: os.stat_result) -> Signature:
    return (info.st_mtime_ns, info.st_ctime_ns, info.st_size, info.st_ino)


class StatCache(Generic[T]):
    """Per path: the signature, when it was read, and the value computed then."""

    def __init__(self) -> None:
        self._entries: dict[str, tuple[Signature, int, T]] = {}
        self.computed = 0
        """Values actually computed (the rest came from the cache): for tests and bench."""

    def get(self, path: str, compute: Callable[[], T]) -> T | None:
        """The value for ``path``: cached while the file is unchanged, else ``compute()``
        again; None (and forgotten) when the file cannot be ``stat``-ed."""
        try:
            info = os.stat(path)
        except (OSError, ValueError):  # ValueError: a path the OS cannot take
            self._entries.pop(path, None)
            return None
        signature = signature_of(info)
        cached = self._entries.get(path)
        if (
            cached is not None
            and cached[0] == signature
            and not is_racy(max(info.st_mtime_ns, info.st_ctime_ns), cached[1])
        ):
            return cached[2]
        read_at = time.time_ns()
        value = compute()
        self.computed += 1
        if len(self._entries) >= MAX_ENTRIES:
            self._entries.clear()
        self._entries[path] = (signature, read_at, value)
        return value
