"""Fixtures of the Cline (legacy file hooks) conformance suite."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.cline._cline import Places


@pytest.fixture
def places(workspace: Path, isolated_home: Path, tmp_path: Path) -> Places:
    return Places(ws=workspace, home=isolated_home, tmp=tmp_path)
