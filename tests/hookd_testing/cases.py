"""What every conformance suite shares: table cases turned into ``pytest.param`` values,
and the partial-match assertion their expectations are written for."""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Mapping
from typing import Any

import pytest


class _Any:
    def __eq__(self, other: object) -> bool:
        return True

    def __repr__(self) -> str:
        return "ANY"


ANY: Any = _Any()
"""In an expectation: any value (the key must still be there)."""


class Absent:
    """In ``assert_subset``: the key must not be there at all."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = Absent()


def assert_subset(actual: Any, expected: Any, where: str = "result") -> None:
    """Every key of ``expected`` is in ``actual`` with that value (dicts by key, lists item
    by item with the same length); ``ABSENT`` values must be missing."""
    if isinstance(expected, Mapping):
        assert isinstance(actual, Mapping), f"{where}: {actual!r} is not an object"
        for key, value in expected.items():
            if isinstance(value, Absent):
                assert key not in actual, f"{where}: {key!r} should be absent from {actual!r}"
                continue
            assert key in actual, f"{where}: no {key!r} in {actual!r}"
            assert_subset(actual[key], value, f"{where}.{key}")
    elif isinstance(expected, list) and isinstance(actual, list):
        assert len(actual) == len(expected), f"{where}: {actual!r} has not {len(expected)} items"
        for index, (item, value) in enumerate(zip(actual, expected, strict=True)):
            assert_subset(item, value, f"{where}[{index}]")
    else:
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"


def case_params(cases: Iterable[Any]) -> list[Any]:
    """``pytest.param`` per case, id from ``case.id`` (unique), honouring the case's
    optional ``xfail`` (strict) and ``skip`` reasons, ``slow`` flag and ``needs`` (commands
    that must be on PATH, else the case is skipped and says which)."""
    cases = list(cases)
    ids = [case.id for case in cases]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    out = []
    for case in cases:
        marks: list[Any] = []
        missing = [name for name in getattr(case, "needs", ()) if shutil.which(name) is None]
        if missing:
            marks.append(pytest.mark.skip(reason=f"{', '.join(missing)} not installed"))
        if getattr(case, "xfail", None):
            marks.append(pytest.mark.xfail(strict=True, reason=case.xfail))
        if getattr(case, "skip", None):
            marks.append(pytest.mark.skip(reason=case.skip))
        if getattr(case, "slow", False):
            marks.append(pytest.mark.slow)
        out.append(pytest.param(case, id=case.id, marks=marks))
    return out
