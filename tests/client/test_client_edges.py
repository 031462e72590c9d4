"""The Python client at its edges: results over the request limit, handlers run concurrently."""

from __future__ import annotations

import json
import os
import resource
import threading
from dataclasses import replace
from pathlib import Path

import pytest
import trio

from hookd.client import Client
from hookd_testing import (
    claude_settings,
    command,
    write_json,
)


@pytest.fixture
def settings(settings):
    """A 1 MiB request limit, so that results can be larger than it cheaply."""
    return replace(settings, max_message_bytes=1024 * 1024)


def project(workspace: Path, settings: dict) -> Path:
    return write_json(workspace / ".claude" / "settings.json", settings)


async def test_client_accepts_results_larger_than_the_request_limit(daemon, workspace) -> None:
    """Large hook output still reaches the client; no framing crash. (terminalSequence is
    not under Claude's 10,000-character cap, and several hooks' sequences add up.)"""
    big = (
        'python3 -c "import json; print(json.dumps('
        "{'terminalSequence': chr(27) + ']0;' + 'x' * 900000 + chr(7)}))\" # "
    )
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("Notification", *[command(big + str(i)) for i in range(3)]))  # fmt: skip

    def fire() -> dict:
        with Client(daemon.socket) as client:
            return client.fire("claude", "Notification", [str(workspace)], {"message": "m"})

    result = await trio.to_thread.run_sync(fire)

    assert len(result["native"]["terminalSequence"]) > daemon.settings.max_message_bytes // 2
    assert not any(h["stdoutTruncated"] for h in result["hooks"])


async def test_python_client_runs_handlers_concurrently_and_reports_bad_results(
    daemon, workspace
) -> None:
    """Two prompt hooks of one fire meet at a barrier: run one after the other they
    could not. A runner returning something that is not JSON gets an error answer."""
    project(workspace, claude_settings("Stop", {"type": "prompt", "prompt": "a"},
                                       {"type": "prompt", "prompt": "b"}))  # fmt: skip
    barrier = threading.Barrier(2, timeout=10)

    def together(params: dict) -> dict:
        barrier.wait()
        return {"ok": True}

    def not_json(params: dict) -> object:
        return {1, 2}

    def fire(runner) -> dict:
        with Client(daemon.socket) as client:
            return client.fire("claude", "Stop", [str(workspace)], {}, handlers={"prompt": runner})

    both = await trio.to_thread.run_sync(fire, together)
    bad = await trio.to_thread.run_sync(fire, not_json)

    assert [h["error"] for h in both["hooks"]] == [None, None]
    assert all("JSON serializable" in h["error"] for h in bad["hooks"])
    assert json.dumps(bad)  # the fire itself still answered


async def test_a_client_holding_fds_past_fd_setsize_still_talks(daemon) -> None:
    """select() refuses fds >= FD_SETSIZE (1024) with ValueError; an agent with many
    open files gets a socket past it, so the client waits with poll()."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip(f"the hard fd limit ({hard}) is under 1200")
    if soft != resource.RLIM_INFINITY and soft < 1200:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1200, hard))
    null = os.open(os.devnull, os.O_RDONLY)
    held = [os.dup(null) for _ in range(1100)]

    def talk() -> tuple[int, dict]:
        with Client(daemon.socket) as client:
            return client._connection._sock.fileno(), client.status()

    try:
        fileno, status = await trio.to_thread.run_sync(talk)
    finally:
        for fd in (null, *held):
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

    assert fileno >= 1024
    assert status["pid"] == os.getpid()
