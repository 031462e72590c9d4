"""``hookd status`` against a real daemon with trust on: what waits for ``hookd allow`` is
on the trust line, and a fire in which the hook did not start is counted as "not run",
never as a run of 0 ms in the timings."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookd_testing import claude_settings, command, write_json
from hookd_testing.process_daemon import ProcessDaemon, process_daemon

HOOKD = [sys.executable, "-m", "hookd"]


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[ProcessDaemon]:
    with process_daemon(tmp_path, {"trust_all": False}) as running:
        yield running


def hookd(daemon: ProcessDaemon, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, "--socket", daemon.socket, *args], capture_output=True,
                          text=True, timeout=60)  # fmt: skip


def fire(daemon: ProcessDaemon, workspace: Path) -> None:
    done = hookd(daemon, "fire", "Stop", "--agent", "claude", "--workspace", str(workspace),
                 "--no-payload")  # fmt: skip
    assert done.returncode in (0, 2), done.stderr  # untrusted, Stop is blocked: not run


def test_status_counts_runs_apart_from_fires_the_hook_did_not_start(
    daemon, workspace, tmp_path
) -> None:
    write_json(workspace / ".claude/settings.json", claude_settings("Stop", command("true")))
    for _ in range(2):
        fire(daemon, workspace)

    waiting = hookd(daemon, "status")
    (stat,) = json.loads(hookd(daemon, "status", "--json").stdout)["hookStats"]
    assert (stat["runs"], stat["notRun"], stat["p50Ms"]) == (0, 2, None)
    assert "trust      1 workspace(s) wait for hookd allow; store " in waiting.stdout
    row = next(line for line in waiting.stdout.splitlines() if "settings.json" in line)
    assert row.split()[:6] == ["0", "-", "-", "0", "0", "2"]

    allowed = subprocess.run([*HOOKD, "allow", str(workspace), "--config",
                              str(tmp_path / "hookd.toml")], capture_output=True, text=True,
                             timeout=60)  # fmt: skip
    assert allowed.returncode == 0, allowed.stderr
    for _ in range(3):
        fire(daemon, workspace)

    shown = hookd(daemon, "status")
    (stat,) = json.loads(hookd(daemon, "status", "--json").stdout)["hookStats"]
    assert (stat["runs"], stat["notRun"]) == (3, 2)
    assert 0 < stat["p50Ms"] <= stat["p95Ms"] <= stat["maxMs"]
    assert "trust      no workspace waits for hookd allow; store " in shown.stdout
    assert "WAITING" not in shown.stdout
