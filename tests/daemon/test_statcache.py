"""The stat-signature cache behind the trust digests and Claude's plugin files."""

from __future__ import annotations

import os
import time
from pathlib import Path

from hookd.daemon.racy import FINE_TICK_NS
from hookd.daemon.statcache import StatCache


def settled(path: Path) -> None:
    """Wait until the file's last change is older than a timestamp tick (then a cached
    read of it is not racily clean): a condition, not a guess."""
    while time.time_ns() - os.stat(path).st_ctime_ns <= 2 * FINE_TICK_NS:
        time.sleep(0.005)


def test_a_value_is_computed_again_only_when_the_file_changed(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_text("one")
    settled(path)
    cache: StatCache[str] = StatCache()

    assert cache.get(str(path), path.read_text) == "one"
    assert cache.get(str(path), lambda: "never computed") == "one"
    path.write_text("two!")
    settled(path)

    assert cache.get(str(path), path.read_text) == "two!"
    assert cache.computed == 2


def test_a_file_written_in_the_tick_it_was_read_is_read_again(tmp_path: Path) -> None:
    """git's racily-clean rule: a second write in the same timestamp tick can leave the
    signature unchanged, so a value read that close to the file's mtime is not trusted."""
    path = tmp_path / "f"
    path.write_text("fresh")
    cache: StatCache[str] = StatCache()

    cache.get(str(path), path.read_text)
    assert cache.get(str(path), lambda: "read again") == "read again"


def test_a_missing_file_is_none_and_forgotten(tmp_path: Path) -> None:
    path = tmp_path / "f"
    cache: StatCache[str] = StatCache()

    assert cache.get(str(path), lambda: "x") is None
    path.write_text("now")
    assert cache.get(str(path), path.read_text) == "now"
    assert cache.computed == 1
