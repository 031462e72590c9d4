"""What the command-line tests share: a real ``hookd serve`` process (``served``)."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookd_testing.cli import HOOKD, connectable


@pytest.fixture
def served(
    short_dir: Path, isolated_home: Path, tmp_path: Path
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`hookd serve` as a real process, logging to a file; ready once it accepts."""
    path = str(short_dir / "hookd.sock")
    with open(tmp_path / "serve.log", "wb") as log:
        process = subprocess.Popen(
            [*HOOKD, "--socket", path, "serve", "--home", str(isolated_home),
             "--system-root", str(tmp_path / "system"), "--log-format", "json", "--trust-all"],
            stderr=log,
        )  # fmt: skip
    deadline = time.monotonic() + 60
    while not connectable(path):
        assert process.poll() is None, (tmp_path / "serve.log").read_text()
        assert time.monotonic() < deadline, "hookd serve did not start listening within 60 s"
        time.sleep(0.01)
    yield path, process
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=20)
