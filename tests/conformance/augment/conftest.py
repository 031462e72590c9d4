"""Fixtures of the Augment conformance suite (see ``support.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.augment.support import LEAKED, Augment
from hookd.daemon.settings import Settings
from hookd_testing import RpcClient


@pytest.fixture(autouse=True)
def daemon_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """``AUGMENT_*`` variables in the daemon's own environment (autouse, so they are in
    place before the daemon fixture copies ``os.environ``): no hook may inherit them."""
    for name, value in LEAKED.items():
        monkeypatch.setenv(name, value)


@pytest.fixture
def augment(rpc: RpcClient, workspace: Path, settings: Settings, tmp_path: Path) -> Augment:
    return Augment(
        rpc=rpc,
        ws=workspace,
        home=Path(settings.home),
        system=Path(settings.system_root),
        tmp=tmp_path,
    )
