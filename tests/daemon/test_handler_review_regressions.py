"""Regressions from the review of the http / client-run / async handlers: each test is
one finding, reproduced as the reviewer did, now answered correctly."""

from __future__ import annotations

import json
import os
import stat
import threading
from dataclasses import replace
from pathlib import Path

import pytest
import trio

from hookd.client import Client
from hookd.daemon.app import serve
from hookd.daemon.dialects.claude.handlers import url_allowed
from hookd.daemon.errors import ConfigError
from hookd.daemon.runner.background import MAX_RUNNING_PER_SESSION
from hookd.daemon.settings import load_settings
from hookd.daemon.spill import session_directory
from hookd.daemon.urls import split_url
from hookd.protocol import BUSY
from hookd_testing import Gate, RpcClient, claude_settings, command, wait_until, write_json


def project(workspace: Path, settings: dict) -> Path:
    return write_json(workspace / ".claude" / "settings.json", settings)


BLOCKER = command("echo 'guard says no' >&2; exit 2")


@pytest.mark.parametrize(
    "bad",
    [
        {"url": "http://127.0.0.1:9/h", "headers": {"X-User": "$NAME"}, "allowedEnvVars": ["NAME"]},
        {"url": "http://127.0.0.1:9/caf\u00e9"},
    ],
    ids=["non-ascii-header", "non-ascii-path"],
)
async def test_an_http_hook_that_cannot_be_sent_never_loses_a_sibling_block(
    rpc, workspace, bad
) -> None:
    """A header value or path that is not ASCII: that hook's error, the guard still blocks."""
    project(workspace, claude_settings("PreToolUse", BLOCKER, {"type": "http", **bad}))

    result = await rpc.fire("claude", "PreToolUse", [str(workspace)], {"tool_name": "Bash"},
                            env={"NAME": "Jos\u00e9"})  # fmt: skip

    assert result["blocked"] is True
    assert result["reason"] == "guard says no"
    assert result["hooks"][1]["blocked"] is False


async def test_a_malformed_url_is_a_settings_error_not_a_crash(rpc, workspace) -> None:
    project(workspace, claude_settings("PreToolUse", BLOCKER,
                                       {"type": "http", "url": "http://[::1/x"}))  # fmt: skip

    result = await rpc.fire("claude", "PreToolUse", [str(workspace)], {"tool_name": "Bash"})

    assert result["blocked"] is True
    assert any("not a valid URL" in w for w in result["warnings"])


def test_urls_are_sent_percent_encoded_and_allowlists_are_literal() -> None:
    assert split_url("http://h.example/caf\u00e9 x?q=\u00e9") == (
        "http", "h.example", 80, "/caf%C3%A9%20x?q=%C3%A9")  # fmt: skip
    assert split_url("https://b\u00fccher.example/")[1] == "xn--bcher-kva.example"
    assert url_allowed("http://[::1]:8080/hook", ["http://[::1]:8080/*"])
    assert not url_allowed("http://a.example/x", ["http://a?example/*"])


@pytest.mark.parametrize("timeout", ["1e400", "NaN"])
async def test_non_finite_timeouts_are_settings_errors(rpc, workspace, timeout) -> None:
    path = workspace / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        '{"hooks": {"PreToolUse": [{"hooks": ['
        '{"type": "command", "command": "echo no >&2; exit 2"},'
        f'{{"type": "command", "command": "true", "timeout": {timeout}}}]}}]}}}}'
    )

    result = await rpc.fire("claude", "PreToolUse", [str(workspace)], {"tool_name": "Bash"})

    assert result["blocked"] is True
    assert any("positive finite number" in w for w in result["warnings"])


async def test_non_finite_fire_and_session_end_timeouts_are_refused(rpc, workspace) -> None:
    reply = await rpc.recv_response(await rpc.start("fire", {
        "agent": "claude", "event": "Stop", "timeoutMs": float("inf")}))  # fmt: skip
    project(workspace, claude_settings("SessionEnd", command("true")))
    ended = await rpc.fire("claude", "SessionEnd", [str(workspace)], {},
                           env={"CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS": "nan"})  # fmt: skip

    assert reply["error"]["code"] == -32602
    assert ended["hooks"][0]["timeoutMs"] == 1500
    assert "CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS" in ended["warnings"][0]


async def test_background_hooks_are_capped_per_session(rpc, workspace, tmp_path) -> None:
    """Lingering async hooks can never exhaust the daemon: past the cap they are not
    started, and the fire says so."""
    gate = Gate(tmp_path / "gate")
    hooks = [command(f"{gate.wait_command} # {i}", **{"async": True})
             for i in range(MAX_RUNNING_PER_SESSION + 1)]  # fmt: skip
    project(workspace, claude_settings("PostToolUse", *hooks))

    result = await rpc.fire("claude", "PostToolUse", [str(workspace)], {"session_id": "s"})
    await gate.open()

    refused = [e for e in result["asyncStarted"] if "notStarted" in e]
    assert len(refused) == 1
    assert any("was not started" in w for w in result["warnings"])


async def test_async_results_survive_a_cancelled_fire(rpc, workspace, tmp_path) -> None:
    gate = Gate(tmp_path / "gate")
    project(workspace, {"hooks": {
        "PostToolUse": [{"hooks": [command("echo '{\"systemMessage\": \"done\"}'", **{"async": True})]}],
        "Stop": [{"hooks": [command(gate.wait_command)]}]}})  # fmt: skip
    await rpc.fire("claude", "PostToolUse", [str(workspace)], {"session_id": "s"})

    async def finished() -> bool:
        return bool((await rpc.call("status"))["asyncHooks"]["finished"])

    await wait_until(finished)
    fire_id = await rpc.start("fire", {"agent": "claude", "event": "Stop",
                                       "workspaceRoots": [str(workspace)],
                                       "payload": {"session_id": "s"}})  # fmt: skip
    await wait_until(lambda: gate_reached(rpc))
    await rpc.send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": fire_id}})
    cancelled = await rpc.recv_response(fire_id)  # the gated Stop hook is killed with it
    project(workspace, claude_settings("Stop", command("true")))
    later = await rpc.fire("claude", "Stop", [str(workspace)], {"session_id": "s"})

    assert cancelled["error"]["code"] == -32800
    assert [r["systemMessage"] for r in later["asyncResults"]] == ["done"]


async def gate_reached(rpc: RpcClient) -> bool:
    return any(entry["running"] for entry in (await rpc.call("status"))["inFlight"])


async def test_rewake_messages_are_capped_like_every_output(rpc, workspace) -> None:
    project(workspace, claude_settings("PostToolUse", command(
        "python3 -c \"import sys; sys.stderr.write('e' * 30000)\"; exit 2", asyncRewake=True)))  # fmt: skip
    await rpc.fire("claude", "PostToolUse", [str(workspace)], {"session_id": "r"})

    async def finished() -> bool:
        return bool((await rpc.call("status"))["asyncHooks"]["finished"])

    await wait_until(finished)
    later = await rpc.fire("claude", "Stop", [str(workspace)], {"session_id": "r"})

    result = later["asyncResults"][0]
    assert len(result["rewakeMessage"]) < 10_000
    assert Path(result["spilled"][0]["path"]).read_text() == "e" * 30000


async def test_hook_run_answers_are_read_at_the_in_flight_cap(settings, workspace) -> None:
    """A request past the cap while hookd waits for this client's hook/run answers is
    refused (Busy) instead of stalling the reader in front of those answers."""
    project(workspace, claude_settings("Stop", {"type": "prompt", "prompt": "p"}))
    async with trio.open_nursery() as nursery:
        daemon = await nursery.start(serve, replace(settings, max_in_flight_per_connection=1))
        client = await RpcClient.connect(settings.socket_path)
        fire_id = await client.start("fire", {"agent": "claude", "event": "Stop",
                                              "workspaceRoots": [str(workspace)],
                                              "clientHandlers": ["prompt"]})  # fmt: skip
        run = await client.recv()
        assert run["method"] == "hook/run"
        status_id = await client.start("status")
        await client.send({"jsonrpc": "2.0", "id": run["id"],
                           "result": {"ok": False, "reason": "no"}})  # fmt: skip
        with trio.fail_after(10):
            busy = await client.recv_response(status_id)
            result = await client.recv_response(fire_id)
        await client.aclose()
        daemon.request_shutdown("test over")

    assert busy["error"]["code"] == BUSY
    assert busy["error"]["message"] == "Too many requests in flight"
    assert result["result"]["blocked"] is True


async def test_a_response_with_an_unhashable_id_is_ignored(rpc) -> None:
    await rpc.send({"jsonrpc": "2.0", "id": [1], "result": 1})

    assert (await rpc.call("status"))["pid"] == os.getpid()


def test_session_ids_cannot_escape_or_collide(tmp_path) -> None:
    state = str(tmp_path)
    sessions = tmp_path / "claude" / "sessions"
    folders = {session_directory(state, "claude", sid) for sid in ("..", "a/b", "a_b", ".")}
    assert len(folders) == 4
    assert all(Path(f).parent == sessions for f in folders)


async def test_state_folders_are_private_and_env_file_only_when_a_hook_got_it(
    rpc, workspace, settings
) -> None:
    none = await rpc.fire("claude", "SessionStart", [str(workspace)], {"session_id": "q"})
    project(workspace, claude_settings("SessionStart", command("true")))
    some = await rpc.fire("claude", "SessionStart", [str(workspace)], {"session_id": "q"})

    assert none["envFile"] is None
    folder = Path(some["envFile"]).parent
    for level in (folder, folder.parent, folder.parent.parent):
        assert stat.S_IMODE(level.stat().st_mode) == 0o700, level


def test_state_dir_must_be_absolute(tmp_path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('state_dir = "relative/state"\n')
    with pytest.raises(ConfigError, match="state_dir must be an absolute path"):
        load_settings(str(config))
    config.write_text('state_dir = "~/state"\n')
    assert os.path.isabs(load_settings(str(config)).state_dir)


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
