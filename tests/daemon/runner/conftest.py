"""The platform launchers (``runner/launch.py``) the runner's tests run under."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from hookd.daemon.runner import launch

SERVE_WITH = Path(__file__).with_name("serve_with_launcher.py")


@pytest.fixture(scope="module", params=[launch.LEAN, launch.TRIO], ids=lambda each: each.name)
def platform(request: pytest.FixtureRequest) -> launch.Launcher[Any]:
    """Each platform launcher in turn; one this system cannot run is skipped, saying why."""
    chosen: launch.Launcher[Any] = request.param
    if chosen not in launch.USABLE:
        pytest.skip(f"the {chosen.name} launcher cannot run here (no pidfd or epoll)")
    return chosen


@pytest.fixture(scope="module")
def serve_prefix(platform: launch.Launcher[Any]) -> list[str]:
    """``process_daemon``'s prefix for a ``hookd serve`` whose hooks start through
    ``platform`` (its log says so: ``hook launcher at the seam: NAME``)."""
    return [sys.executable, "-P", str(SERVE_WITH), platform.name]
