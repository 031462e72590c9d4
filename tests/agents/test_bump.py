"""The version-drift command's comparison (the runs themselves are the agent suites)."""

from __future__ import annotations

import json

from agents import bump


def test_changes_lists_every_case_whose_outcome_moved() -> None:
    before = {"a": "passed", "b": "passed", "gone": "passed"}
    after = {"a": "passed", "b": "failed", "new": "passed"}

    assert bump.changes(before, after) == [
        "b: passed -> failed",
        "gone: passed -> absent",
        "new: absent -> passed",
    ]


def test_every_pinned_agent_has_a_suite() -> None:
    pinned = json.loads(bump.VERSIONS.read_text())

    assert set(pinned) == set(bump.SUITES)
    assert all((bump.HERE / folder / "cases.py").is_file() for folder in bump.SUITES.values())
