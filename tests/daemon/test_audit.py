"""The audit log against a real daemon and the real ``hookd logs``: every fire with its
peer, hooks, decisions and durations, what never ran and why, background hook results,
rotation by size, a torn last line tolerated, and ``-f`` following new records."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import trio

from hookd.daemon.audit import AuditLog, read_records
from hookd.daemon.registry.registry import Registry
from hookd.daemon.settings import Settings
from hookd_testing import RpcClient, claude_settings, command, wait_until, write_json

HOOKD = [sys.executable, "-m", "hookd"]
TOOL = {"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}, "session_id": "s1"}


@pytest.fixture
def settings(settings: Settings, tmp_path: Path) -> Settings:
    return replace(settings, state_dir=str(tmp_path / "state"))


@pytest.fixture
def audit_file(settings: Settings) -> Path:
    return Path(settings.state_dir) / "audit.jsonl"


@pytest.fixture
def config(settings: Settings, tmp_path: Path) -> Path:
    path = tmp_path / "hookd.toml"
    path.write_text(f"state_dir = {json.dumps(settings.state_dir)}\n")
    return path


def records(path: Path) -> list[dict[str, Any]]:
    return list(read_records(str(path)))


def logs(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, "logs", "--config", str(config), *args],
                          capture_output=True, text=True, timeout=60)  # fmt: skip


async def test_a_fire_is_recorded_with_its_peer_hooks_and_decision(
    rpc: RpcClient, workspace: Path, audit_file: Path, config: Path
) -> None:
    deny = command("cat >/dev/null; echo 'no rm' >&2; exit 2")
    write_json(
        workspace / ".claude/settings.json", claude_settings("PreToolUse", deny, command("true"))
    )

    result = await rpc.fire("claude", "PreToolUse", [str(workspace)], TOOL)

    (record,) = records(audit_file)
    assert record["type"] == "fire"
    assert record["peer"] == {"pid": os.getpid(), "uid": os.geteuid(), "insideHook": False}
    assert (record["agent"], record["event"], record["roots"]) == (
        "claude",
        "PreToolUse",
        [str(workspace)],
    )
    assert (record["blocked"], record["decision"], record["reason"]) == (True, "deny", "no rm")
    assert record["durationMs"] == result["durationMs"]
    assert [(h["exitCode"], h["decision"], h["neverRan"]) for h in record["hooks"]] == [
        (2, "deny", None),
        (0, None, None),
    ]
    assert all(h["durationMs"] > 0 for h in record["hooks"])
    assert audit_file.stat().st_mode & 0o777 == 0o600

    shown = logs(config)
    assert shown.returncode == 0, shown.stderr
    assert f"#1 {record['ts']} claude PreToolUse Bash 'rm -rf /' pid {os.getpid()}" in shown.stdout
    assert "session s1: deny (blocked), 2 hook(s)" in shown.stdout
    assert "    reason: no rm" in shown.stdout
    assert (record["session"], record["tool"], record["command"], record["relay"]) == (
        "s1",
        "Bash",
        "rm -rf /",
        False,
    )
    assert (await rpc.call("status"))["audit"]["written"] == 1


async def test_hooks_that_never_ran_are_recorded_with_why(
    rpc: RpcClient, workspace: Path, audit_file: Path
) -> None:
    settings_file = write_json(
        workspace / ".claude/settings.json", claude_settings("PreToolUse", command("true"))
    )
    settings_file.chmod(0o666)

    await rpc.fire("claude", "PreToolUse", [str(workspace)], TOOL)

    (hook,) = records(audit_file)[0]["hooks"]
    assert hook["neverRan"].startswith(f"refused: {settings_file} is world-writable")
    assert hook["exitCode"] is None


async def test_a_background_hook_result_is_recorded(
    rpc: RpcClient, workspace: Path, audit_file: Path
) -> None:
    background = command("cat >/dev/null; exit 3", **{"async": True})
    write_json(workspace / ".claude/settings.json", claude_settings("PostToolUse", background))

    await rpc.fire("claude", "PostToolUse", [str(workspace)], TOOL)
    await wait_until(lambda: any(r["type"] == "async-hook" for r in records(audit_file)))

    (done,) = [r for r in records(audit_file) if r["type"] == "async-hook"]
    assert (done["exitCode"], done["agent"], done["event"]) == (3, "claude", "PostToolUse")


async def test_a_cancelled_fire_is_recorded(
    rpc: RpcClient, workspace: Path, audit_file: Path, tmp_path: Path
) -> None:
    started = tmp_path / "started"
    slow = command(f"touch {started}; sleep 30")
    write_json(workspace / ".claude/settings.json", claude_settings("Stop", slow))

    await rpc.send({"jsonrpc": "2.0", "id": 7, "method": "fire",
                    "params": {"agent": "claude", "event": "Stop",
                               "workspaceRoots": [str(workspace)], "payload": {}}})  # fmt: skip
    await wait_until(started.exists)
    await rpc.send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 7}})
    await rpc.recv_response(7)

    (record,) = records(audit_file)
    assert (record["outcome"], record["requestId"]) == ("cancelled", 7)
    assert "hooks" not in record


async def test_a_fire_failing_in_its_lookup_is_recorded(
    rpc: RpcClient, workspace: Path, audit_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug while a fire's hooks are found (answered -32603) still leaves its record:
    a fire is recorded whatever became of it. (A bug is the one thing a test must fake.)"""

    def broken(*_args: object) -> None:
        raise RuntimeError("a bug in the selection")

    monkeypatch.setattr(Registry, "hooks_for", broken)
    reply = await rpc.recv_response(await rpc.start("fire", {
        "agent": "claude", "event": "Stop", "workspaceRoots": [str(workspace)]}))  # fmt: skip

    (record,) = records(audit_file)
    assert reply["error"]["code"] == -32603
    assert (record["outcome"], record["event"]) == ("failed", "Stop")


def test_the_log_rotates_by_size_and_keeps_the_newest(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    log = AuditLog(str(path), max_bytes=4096, keep=2)
    for number in range(200):
        log.append({"type": "test", "n": number, "pad": "x" * 100})
    log.close()

    files = [path.with_name("audit.jsonl.2"), path.with_name("audit.jsonl.1"), path]
    assert all(f.stat().st_size <= 4096 for f in files)
    assert not path.with_name("audit.jsonl.3").exists()
    numbers = [r["n"] for f in files for r in read_records(str(f))]
    assert numbers == list(range(numbers[0], 200))  # the newest, in order, none lost between
    assert log.written == 200


def test_a_torn_last_line_is_skipped_and_mended(
    tmp_path: Path, config: Path, settings: Settings
) -> None:
    path = Path(settings.state_dir) / "audit.jsonl"
    log = AuditLog(str(path), max_bytes=1 << 20, keep=1)
    log.append({"type": "fire", "agent": "claude", "event": "Stop", "outcome": "failed",
                "durationMs": 1.0, "peer": {}})  # fmt: skip
    log.close()
    with path.open("ab") as handle:
        handle.write(b'{"type": "fire", "agent": "cl')  # a crash mid-write

    shown = logs(config, "--json")
    assert shown.returncode == 0
    assert [json.loads(line)["seq"] for line in shown.stdout.splitlines()] == [1]

    again = AuditLog(str(path), max_bytes=1 << 20, keep=1)  # the next daemon
    again.append({"type": "fire", "after": "crash"})
    again.close()
    assert [r.get("after") for r in read_records(str(path))] == [None, "crash"]


def test_a_write_that_fails_drops_the_record_and_never_raises(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    log = AuditLog(str(blocker / "audit.jsonl"), max_bytes=1 << 20, keep=1)

    log.append({"type": "fire"})

    assert (log.written, log.dropped) == (0, 1)
    assert "Error" in (log.last_error or "")


async def test_logs_follow_prints_new_records(
    rpc: RpcClient, workspace: Path, config: Path, audit_file: Path
) -> None:
    write_json(workspace / ".claude/settings.json", claude_settings("Stop", command("true")))
    await rpc.fire("claude", "Stop", [str(workspace)], {})  # an older record: shown by -n 1
    argv = [*HOOKD, "logs", "-f", "--json", "-n", "1", "--config", str(config)]
    follower = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)  # noqa: ASYNC220
    try:
        assert follower.stdout is not None
        with trio.fail_after(30):
            first = await trio.to_thread.run_sync(follower.stdout.readline, abandon_on_cancel=True)
            assert json.loads(first)["seq"] == 1
            await rpc.fire("claude", "Stop", [str(workspace)], {"marker": 2})
            second = await trio.to_thread.run_sync(follower.stdout.readline, abandon_on_cancel=True)
            assert json.loads(second)["seq"] == 2
    finally:
        follower.kill()
        follower.communicate()


def test_logs_does_not_load_trio() -> None:
    code = "import sys, hookd.daemon.cli.logs_command; print('trio' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "False"


async def test_nested_fires_are_recorded_from_inside_the_hook_and_the_refusal_too(
    rpc: RpcClient, daemon, workspace: Path, audit_file: Path, config: Path
) -> None:
    python = " ".join(HOOKD)
    again = (f"cat >/dev/null; echo '{{}}' | {python} --socket {daemon.socket} fire --agent claude "
             f"--workspace {workspace} PreToolUse >/dev/null 2>&1; exit 0")  # fmt: skip
    write_json(workspace / ".claude/settings.json", claude_settings("PreToolUse", command(again)))

    await rpc.fire("claude", "PreToolUse", [str(workspace)], {"tool_name": "Bash"})

    found = [(r["outcome"], r["depth"], r["peer"]["insideHook"]) for r in records(audit_file)]
    # innermost first: each fire is recorded when it ends; the refused one never began
    assert found == [("refused", -1, True), ("answered", 3, True), ("answered", 2, True),
                     ("answered", 1, True), ("answered", 0, False)]  # fmt: skip
    assert "nested 4 deep" in records(audit_file)[0]["reason"]
    assert "refused: this fire comes from inside a hook, nested 4 deep" in logs(config).stdout


def test_records_written_before_a_kill_9_are_readable(tmp_path: Path) -> None:
    from hookd_testing.process_daemon import process_daemon

    workspace = tmp_path / "ws"
    write_json(workspace / ".claude/settings.json", claude_settings("Stop", command("true")))
    with process_daemon(tmp_path) as served:
        for _ in range(3):
            served.fire("claude", "Stop", [str(workspace)], {})
        served.process.kill()
        served.process.wait()

    kept = records(tmp_path / "state" / "audit.jsonl")
    assert [(r["type"], r["outcome"], len(r["hooks"])) for r in kept] == [
        ("fire", "answered", 1)
    ] * 3
