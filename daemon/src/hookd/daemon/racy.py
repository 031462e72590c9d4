"""git's "racily clean" rule, for knowing when ``stat`` alone can be trusted.

A file (or directory) read at time T is known to be unchanged later when its stat
signature is unchanged, *unless* it was modified within one timestamp tick of T: a second
write in that same tick leaves mtime (and maybe size) identical. Kernel timestamps come
from a coarse clock that ticks every few ms (and lags the fine clock by up to a tick); some
filesystems only keep whole seconds. So a cached read is "racy", and must be redone, when
the mtime is within one tick of the moment we read it.
"""

from __future__ import annotations

FINE_TICK_NS = 20_000_000
"""Margin for filesystems with sub-second timestamps (coarse kernel clock: <= 10 ms)."""
COARSE_TICK_NS = 2_000_000_000
"""Margin for filesystems that keep whole (or even) seconds (FAT, HFS+, some NFS)."""


def is_racy(mtime_ns: int, read_at_ns: int) -> bool:
    """Whether content read at ``read_at_ns`` may miss a write stamped ``mtime_ns``."""
    tick = COARSE_TICK_NS if mtime_ns % 1_000_000_000 == 0 else FINE_TICK_NS
    return mtime_ns >= read_at_ns - tick
