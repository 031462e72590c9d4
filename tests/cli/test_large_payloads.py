"""Large payloads: ``hookd fire`` and the Python client read while they write, so a
payload over the daemon's limit ends promptly with a clear error (it used to hang:
the daemon's answer was never read), and one under it reaches the hook whole."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
import trio

from hookd.client import Client, RemoteError
from hookd.protocol import DEFAULT_MAX_MESSAGE_BYTES, MESSAGE_TOO_LARGE
from hookd_testing import claude_settings, command, write_json

LIMIT = 2 * 1024 * 1024


@pytest.fixture
def settings(settings):
    return replace(settings, max_message_bytes=LIMIT)


def counting_hook(workspace: Path) -> None:
    """Blocks every Write, giving the size of the stdin it received as the reason."""
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("PreToolUse", command("wc -c >&2; exit 2"), matcher="Write"))  # fmt: skip


def fire_cli(
    socket: str, workspace: Path, size: int
) -> tuple[subprocess.CompletedProcess[bytes], float]:
    payload = json.dumps({"tool_name": "Write", "tool_input": {"content": "x" * size}})
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "hookd", "--socket", socket, "fire", "PreToolUse",
         "--agent", "claude", "--workspace", str(workspace)],
        input=payload.encode(), capture_output=True, timeout=120,
    )  # fmt: skip
    return done, time.monotonic() - started


async def test_cli_fire_under_the_limit_reaches_the_hook_whole(daemon, workspace) -> None:
    counting_hook(workspace)
    done, _ = await trio.to_thread.run_sync(fire_cli, daemon.socket, workspace, LIMIT - 4096)

    assert done.returncode == 2, done.stderr
    result = json.loads(done.stdout)
    assert int(result["reason"]) > LIMIT - 4096  # the hook read every byte


@pytest.mark.parametrize("size", [LIMIT + 1, 5_000_000, 40_000_000])
async def test_cli_fire_over_the_limit_exits_promptly_with_a_clear_error(
    daemon, workspace, size: int
) -> None:
    counting_hook(workspace)
    done, elapsed = await trio.to_thread.run_sync(fire_cli, daemon.socket, workspace, size)
    stderr = done.stderr.decode()

    assert done.returncode == 1, stderr
    assert f"limit of {LIMIT} bytes" in stderr
    assert "max_message_bytes" in stderr
    assert "Traceback" not in stderr
    assert elapsed < 60  # it used to wait for an hour

    def status() -> dict:
        with Client(daemon.socket) as client:
            return client.status()

    assert (await trio.to_thread.run_sync(status))["pid"]  # the daemon serves on


async def test_python_client_raises_message_too_large_and_stops_sending(daemon, workspace) -> None:
    """The refusal arrives as the limit is passed: the client stops writing there."""

    def fire() -> RemoteError:
        with Client(daemon.socket) as client:
            with pytest.raises(RemoteError) as info:
                client.fire("claude", "PreToolUse", [str(workspace)],
                            {"tool_name": "Write", "tool_input": {"content": "y" * 200_000_000}})  # fmt: skip
            return info.value

    with trio.fail_after(60):
        error = await trio.to_thread.run_sync(fire)

    assert error.code == MESSAGE_TOO_LARGE
    assert "200000" in str(error.data)
    assert "max_message_bytes" in error.message


def test_the_default_limit_fits_real_tool_inputs() -> None:
    assert DEFAULT_MAX_MESSAGE_BYTES == 64 * 1024 * 1024
