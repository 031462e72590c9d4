"""The daemon under a small open-files limit (``prlimit --nofile``), every descriptor
taken by idle connections: it never dies, a deny policy is never answered "allowed" (the
hook that could not start "never ran", which blocks), and it recovers once the
connections go."""

from __future__ import annotations

import os
import shutil
import socket
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from hookd.client import Client
from hookd_testing import claude_settings, command, write_json
from hookd_testing.process_daemon import process_daemon

LIMIT = 128

pytestmark = pytest.mark.skipif(shutil.which("prlimit") is None, reason="needs util-linux prlimit")


def _wait_for(condition: Callable[[], bool], timeout_s: float = 20.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.02)


def _open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def test_out_of_file_descriptors_never_fails_open_and_never_kills_the_daemon(
    tmp_path: Path,
) -> None:
    guarded = tmp_path / "guarded"
    write_json(guarded / ".claude/settings.json",
               claude_settings("PreToolUse", command("cat >/dev/null; echo no >&2; exit 2")))  # fmt: skip
    fresh = tmp_path / "fresh"  # a root the daemon has not seen: its watcher must restart
    write_json(fresh / ".claude/settings.json",
               claude_settings("PreToolUse", command("cat >/dev/null; echo no >&2; exit 2")))  # fmt: skip
    prefix = ["prlimit", f"--nofile={LIMIT}:{LIMIT}"]
    with process_daemon(tmp_path, prefix=prefix) as daemon:
        client = Client(daemon.socket)
        client.status()  # connected before the descriptors run out
        client.fire("claude", "PreToolUse", [str(guarded)], {"tool_name": "Bash"})  # warm
        idle: list[socket.socket] = []
        try:
            while _open_fds(daemon.pid) < LIMIT - 1 and len(idle) < 2 * LIMIT:
                conn = socket.socket(socket.AF_UNIX)
                conn.connect(daemon.socket)
                idle.append(conn)
                if len(idle) % 16 == 0:
                    client.status()  # let the daemon accept them
            client.status()
            # Fire only once the daemon really holds every descriptor it may (under load
            # it can lag behind the backlog): else the hooks simply run, and the test
            # would say nothing about exhaustion.
            _wait_for(lambda: _open_fds(daemon.pid) >= LIMIT - 1)
            burst = [client.fire("claude", "PreToolUse", [str(root)], {"tool_name": "Bash"})
                     for root in (guarded, fresh, guarded)]  # fmt: skip
            alive_while_starved = daemon.process.poll() is None
        finally:
            for conn in idle:
                conn.close()
        _wait_for(lambda: _open_fds(daemon.pid) < LIMIT // 2)  # it saw the clients leave
        after = client.fire("claude", "PreToolUse", [str(fresh)], {"tool_name": "Bash"})
        status = client.status()
        client.close()

    assert alive_while_starved
    for result in burst:
        assert result["blocked"] is True, (result["warnings"], result["hooks"])  # never "allowed"
    starved = [h["error"] or "" for r in burst for h in r["hooks"]]
    assert any(e.startswith("never ran: ") for e in starved), starved
    assert after["blocked"] is True  # recovered: the hook ran and said no
    assert after["hooks"][0]["error"] is None
    assert after["reason"] == "no"
    assert status["pid"] == daemon.pid
