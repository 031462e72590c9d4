"""Issue 31 against a real ``hookd serve``: 600 idle connections (past the default cap of
512, as a client that leaks them would leave) do not lock out a fire from a relay."""

from __future__ import annotations

import socket
from pathlib import Path

from hookd.client import Client
from hookd_testing import claude_settings, command, write_json
from hookd_testing.process_daemon import process_daemon


def _closed(conn: socket.socket) -> bool:
    """Whether the daemon closed its end (nothing was ever sent on these)."""
    conn.setblocking(False)
    try:
        return conn.recv(1) == b""
    except BlockingIOError:
        return False
    except ConnectionResetError:
        return True


def test_600_idle_connections_then_a_relays_fire_is_answered(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    write_json(workspace / ".claude/settings.json",
               claude_settings("PreToolUse", command("echo '{\"decision\": \"block\", "
                                                     "\"reason\": \"guarded\"}'")))  # fmt: skip
    with process_daemon(tmp_path) as daemon:
        cap = daemon.status()["clients"]["maxConnections"]
        idle = []
        try:
            for _ in range(600):
                conn = socket.socket(socket.AF_UNIX)
                conn.connect(daemon.socket)
                idle.append(conn)
            # hookd-relay's call: one fire on a new connection (hookd.client, as it uses)
            with Client(daemon.socket, timeout_s=30) as client:
                result = client.fire("claude", "PreToolUse", [str(workspace)],
                                     {"tool_name": "Bash"})  # fmt: skip
                status = client.status()
            closed = [_closed(conn) for conn in idle]
        finally:
            for conn in idle:
                conn.close()

    assert result["blocked"] is True  # the guard answered: not "daemon unreachable"
    assert status["clients"]["refused"] == 0
    assert status["clients"]["shed"] >= 600 - cap + 1
    # the oldest were shed, the newest kept
    assert all(closed[: 600 - cap]), closed.index(False)
    assert not any(closed[-(cap // 2) :])
