"""Fixtures of the Claude Code conformance suite (see ``support.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.claude.support import Claude
from hookd.daemon.settings import Settings
from hookd_testing import RpcClient

DAEMON_ENV = {
    "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317",
    "OTEL_SERVICE_NAME": "claude-code",
    "HOOKD_CONFORMANCE_MARKER": "from-the-daemon",
}
"""Set in the daemon's own environment: hooks inherit it, minus ``OTEL_*``."""


@pytest.fixture(autouse=True)
def daemon_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Autouse, so it is in place before the daemon fixture copies ``os.environ``."""
    for name, value in DAEMON_ENV.items():
        monkeypatch.setenv(name, value)


@pytest.fixture
def claude(rpc: RpcClient, workspace: Path, settings: Settings, tmp_path: Path) -> Claude:
    return Claude(
        rpc=rpc,
        ws=workspace,
        home=Path(settings.home),
        system=Path(settings.system_root),
        tmp=tmp_path,
    )
