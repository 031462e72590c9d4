"""The thin synchronous client against the real daemon (called from worker threads)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest
import trio

from hookd.client import Client, DaemonNotRunning, DaemonUnresponsive, RemoteError, RequestCancelled
from hookd_testing import Gate, claude_settings, command, fire_in_flight, write_json


async def in_thread(function, *args, **kwargs):
    return await trio.to_thread.run_sync(partial(function, *args, **kwargs))


async def test_fire_with_progress_callback(daemon, workspace) -> None:
    """fire() returns the combined result and calls on_progress for every value, in order."""
    write_json(workspace / ".claude" / "settings.json", claude_settings("Stop", command("true")))
    seen: list[dict] = []

    def run() -> dict:
        with Client(daemon.socket) as client:
            return client.fire("claude", "Stop", [str(workspace)], {}, on_progress=seen.append)

    result = await in_thread(run)

    assert result["hooks"][0]["exitCode"] == 0
    assert [v["kind"] for v in seen] == ["begin", "report", "report", "end"]


async def test_start_fire_iterates_progress_and_can_be_cancelled(daemon, rpc, workspace) -> None:
    """A FireCall can be cancelled from another thread; result() raises RequestCancelled."""
    gate = Gate(workspace / "gate")
    write_json(
        workspace / ".claude" / "settings.json", claude_settings("Stop", command(gate.wait_command))
    )
    client = await in_thread(Client, daemon.socket)
    call = client.start_fire("claude", "Stop", [str(workspace)], {})

    await fire_in_flight(rpc)
    await in_thread(call.cancel)

    with pytest.raises(RequestCancelled):
        await in_thread(call.result)
    client.close()


async def test_status_and_hooks_list(daemon, workspace) -> None:
    """status() and hooks_list() return the daemon's views."""
    write_json(workspace / ".claude" / "settings.json", claude_settings("Stop", command("true")))

    def run() -> tuple[dict, dict]:
        with Client(daemon.socket) as client:
            return client.status(), client.hooks_list([str(workspace)])

    status, listing = await in_thread(run)

    assert status["socket"] == daemon.socket
    assert listing["hooks"][0]["layer"] == "project"


async def test_remote_errors_carry_code_and_data(daemon) -> None:
    """A JSON-RPC error answer raises RemoteError with its code and data."""

    def run() -> None:
        with Client(daemon.socket) as client:
            client.fire("nobody", "Stop", [])

    with pytest.raises(RemoteError) as info:
        await in_thread(run)

    assert info.value.code == -32602
    assert "must be one of" in str(info.value)
    assert "(-32602)" in str(info.value)  # for logs and bug reports
    assert info.value.explanation.startswith('"agent" must be one of claude, ')  # for a person


def test_not_running_is_distinguished(short_dir: Path) -> None:
    """No socket, or a stale socket nobody listens on: DaemonNotRunning, saying what to do."""
    stale = short_dir / "stale.sock"
    dead = socket.socket(socket.AF_UNIX)
    dead.bind(str(stale))
    dead.close()

    with pytest.raises(DaemonNotRunning, match="hookd serve"):
        Client(str(short_dir / "missing.sock"))
    with pytest.raises(DaemonNotRunning):
        Client(str(stale))


def test_unresponsive_daemon_is_distinguished(short_dir: Path) -> None:
    """A socket that accepts but never answers: DaemonUnresponsive after the timeout."""
    path = str(short_dir / "mute.sock")
    mute = socket.socket(socket.AF_UNIX)
    mute.bind(path)
    mute.listen(1)
    try:
        client = Client(path, timeout_s=0.2)
        with pytest.raises(DaemonUnresponsive, match="did not answer"):
            client.status()
        client.close()
    finally:
        mute.close()


def test_writes_to_a_daemon_that_stops_reading_end_at_the_timeout(short_dir: Path) -> None:
    """A request larger than the socket buffer, and a message sent the way hook/run
    answers and cancel are: neither blocks past the timeout once the daemon stops
    taking bytes."""
    path = str(short_dir / "deaf.sock")
    deaf = socket.socket(socket.AF_UNIX)
    deaf.bind(path)
    deaf.listen(1)
    try:
        with Client(path, timeout_s=0.2) as client:
            started = time.monotonic()
            with pytest.raises(DaemonUnresponsive):
                client.call("hooks/list", {"roots": ["x" * 8_000_000]})
            with pytest.raises(DaemonUnresponsive):
                client._connection.send_raw_json(b'"' + b"y" * 8_000_000 + b'"')
            elapsed = time.monotonic() - started
    finally:
        deaf.close()

    assert elapsed < 5


def test_client_and_protocol_never_import_trio() -> None:
    """hookd.client, hookd.protocol and the CLI entry point load no daemon dependency."""
    code = (
        "import sys, hookd.client, hookd.protocol, hookd.daemon.cli.main, "
        "hookd.daemon.cli.client_commands\n"
        "heavy = [m for m in ('trio', 'watchfiles', 'structlog', 'jsonrpcserver') if m in sys.modules]\n"
        "print(','.join(heavy))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)

    assert done.stdout.strip() == ""


async def test_client_runs_prompt_handlers_the_daemon_asks_for(daemon, workspace) -> None:
    """handlers= offers handler types; the daemon's hook/run requests reach the runner,
    and a runner that raises becomes a non-blocking error naming the exception."""
    write_json(workspace / ".claude" / "settings.json", claude_settings(
        "Stop", {"type": "prompt", "prompt": "done? $ARGUMENTS"}))  # fmt: skip
    asked: list[dict] = []

    def judge(params: dict) -> dict:
        asked.append(params)
        return {"ok": False, "reason": "not done"}

    def broken(params: dict) -> dict:
        raise RuntimeError("model unavailable")

    def fire(runner) -> dict:
        with Client(daemon.socket) as client:
            return client.fire("claude", "Stop", [str(workspace)], {"session_id": "s"},
                               handlers={"prompt": runner})  # fmt: skip

    judged = await trio.to_thread.run_sync(fire, judge)
    failed = await trio.to_thread.run_sync(fire, broken)

    assert asked[0]["prompt"].startswith("done? {")
    assert judged["blocked"] is True
    assert judged["reason"] == "not done"
    assert failed["blocked"] is False
    assert "model unavailable" in failed["hooks"][0]["error"]
