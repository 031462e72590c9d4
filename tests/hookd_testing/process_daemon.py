"""A real ``hookd serve`` process for tests that need the daemon alone in its process:
the child subreaper, the watchdog, ``kill -9``, resource limits (``prlimit``)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hookd.client import Client, HookdClientError


@dataclass
class ProcessDaemon:
    process: subprocess.Popen[bytes]
    socket: str
    home: Path
    log: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    def client(self, timeout_s: float = 30.0) -> Client:
        return Client(self.socket, timeout_s=timeout_s)

    def fire(self, agent: str, event: str, roots: list[str], payload: Any = None, **kw: Any) -> Any:
        with self.client() as client:
            return client.fire(agent, event, roots, payload or {}, **kw)

    def status(self) -> Any:
        with self.client() as client:
            return client.status()


def _toml(config: dict[str, Any]) -> str:
    return "".join(f"{key} = {json.dumps(value)}\n" for key, value in config.items())


@contextmanager
def process_daemon(
    tmp: Path,
    config: dict[str, Any] | None = None,
    prefix: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
) -> Iterator[ProcessDaemon]:
    """Start ``hookd serve`` (optionally under ``prefix``, e.g. ``prlimit ...``, and with
    ``env`` instead of the test's environment), wait until it answers ``status``
    (deadline 30 s), stop it at the end (SIGKILL if need be)."""
    home = tmp / "home"
    home.mkdir(exist_ok=True)
    short = Path(os.path.realpath("/tmp")) / f"hk{os.getpid()}-{time.monotonic_ns() % 10**9}"
    short.mkdir(mode=0o700)
    socket_path = str(short / "hookd.sock")
    config_path = tmp / "hookd.toml"
    config_path.write_text(
        _toml({"state_dir": str(tmp / "state"), "trust_all": True, **(config or {})})
    )
    log = tmp / "daemon.log"
    argv = [*prefix, sys.executable, "-m", "hookd", "--socket", socket_path, "serve",
            "--config", str(config_path), "--home", str(home),
            "--system-root", str(tmp / "system"), "--log-format", "json"]  # fmt: skip
    with log.open("wb") as log_file:
        process = subprocess.Popen(argv, stdout=log_file, stderr=log_file,
                                   env={**(os.environ if env is None else env), "HOME": str(home)})  # fmt: skip
    daemon = ProcessDaemon(process, socket_path, home, log)
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise AssertionError(f"hookd serve exited: {log.read_text()[-2000:]}")
            try:
                daemon.status()
                break
            except (OSError, HookdClientError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)
        yield daemon
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for leftover in short.iterdir():
            leftover.unlink()
        short.rmdir()


def alive(pid: int) -> bool:
    """Running (a zombie counts as gone: it runs nothing)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            state = stat.read().rsplit(b")", 1)[-1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in (b"Z", b"X")


def wait_gone(pids: Sequence[int], timeout_s: float = 10.0) -> list[int]:
    """The pids still alive after ``timeout_s`` (empty when all are gone in time)."""
    deadline = time.monotonic() + timeout_s
    while True:
        left = [pid for pid in pids if alive(pid)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.02)
