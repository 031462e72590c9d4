"""Bounded roots: the least recently named are forgotten past ``max_roots`` (down to
90% at once, so the pass over every source is not paid on every new root), and idle
roots after ``forget_roots_after_s``; the watch list shrinks with them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from hookd.daemon.all_dialects import DIALECTS
from hookd.daemon.registry.registry import Registry
from hookd_testing import claude_settings, command, write_json


def roots_with_settings(tmp_path: Path, count: int) -> list[str]:
    paths = []
    for index in range(count):
        root = tmp_path / f"r{index}"
        write_json(root / ".claude/settings.json", claude_settings("Stop", command("true")))
        paths.append(str(root))
    return paths


def test_past_max_roots_the_least_recently_named_go_down_to_ninety_percent(
    tmp_path: Path, settings
) -> None:
    registry = Registry(replace(settings, max_roots=20), DIALECTS)
    roots = roots_with_settings(tmp_path, 21)
    for root in roots[:20]:
        registry.add_roots([root])
    registry.add_roots([roots[0]])  # named again: now the most recent
    targets_full = registry.watch_targets()

    assert registry.add_roots([roots[20]]) is True

    assert len(registry.roots) == 18
    assert set(roots[1:4]).isdisjoint(registry.roots)  # the three least recently named
    assert {roots[0], roots[20]} <= set(registry.roots)
    assert registry.roots_forgotten == 3
    assert len(registry.watch_targets()) < len(targets_full)


def test_idle_roots_are_forgotten_and_named_ones_kept(tmp_path: Path, settings) -> None:
    registry = Registry(settings, DIALECTS)
    old, fresh = roots_with_settings(tmp_path, 2)
    registry.add_roots([old, fresh])

    assert registry.forget_idle_roots(3600) == []
    registry._roots[old] -= 100  # last named 100 s ago (no sleeping in tests)
    registry.add_roots([fresh])  # named now

    assert registry.forget_idle_roots(50) == [old]
    assert registry.roots == [fresh]
    assert registry.add_roots([old]) is True  # the next fire adds it back
    assert registry.roots == [fresh, old]
