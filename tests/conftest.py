"""Shared fixtures: an isolated home, and the real daemon started in-process.

The daemon fixture runs ``hookd.daemon.app.serve`` in a nursery and waits for its
readiness through ``nursery.start`` (no polling); at teardown it asks the daemon to shut
down over RPC, as a user would.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import trio

from hookd.daemon.app import serve
from hookd.daemon.settings import Settings
from hookd_testing import RpcClient
from hookd_testing.relays import KINDS, relay_command


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own $HOME and XDG dirs: nothing touches the real ones."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.delenv("HOOKD_SOCKET", raising=False)
    monkeypatch.delenv("HOOKD_CONFIG", raising=False)
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    return home


@pytest.fixture(params=KINDS)
def relay_name(request: pytest.FixtureRequest) -> str:
    """Each relay program in turn: ``python``, ``native``."""
    return str(request.param)


@pytest.fixture
def relay(relay_name: str) -> list[str]:
    """Each relay program in turn (Python, native) as a command line: the tests that use
    it pin the behaviour of both (``HOOKD_RELAY=<relay_name>`` has ``hookd adopt`` write
    entries that run it)."""
    return relay_command(relay_name)


@pytest.fixture
def short_dir() -> Iterator[Path]:
    """A short private directory for sockets (AF_UNIX paths are limited to 107 bytes)."""
    path = Path(tempfile.mkdtemp(prefix="hk", dir="/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    return root


@pytest.fixture
def settings(short_dir: Path, isolated_home: Path, tmp_path: Path) -> Settings:
    return Settings(
        socket_path=str(short_dir / "hookd.sock"),
        home=str(isolated_home),
        system_root=str(tmp_path / "system"),
        term_grace_s=0.2,
        watchdog=False,  # ~40 ms a daemon; tests/daemon/runner/test_custody.py runs it
        subreaper=False,  # pytest has children of its own; test_custody runs a real daemon
        trust_all=True,  # tests/daemon/trust checks trust with it off
    )


@dataclass
class DaemonHandle:
    settings: Settings

    @property
    def socket(self) -> str:
        return self.settings.socket_path

    async def connect(self) -> RpcClient:
        return await RpcClient.connect(self.socket)


@pytest.fixture
async def daemon(settings: Settings) -> AsyncIterator[DaemonHandle]:
    async with trio.open_nursery() as nursery:
        await nursery.start(serve, settings)
        yield DaemonHandle(settings)
        try:
            client = await RpcClient.connect(settings.socket_path)
            await client.call("shutdown")
            await client.aclose()
        except OSError:
            nursery.cancel_scope.cancel()  # the test already stopped it


@pytest.fixture
async def rpc(daemon: DaemonHandle) -> AsyncIterator[RpcClient]:
    client = await daemon.connect()
    yield client
    await client.aclose()
