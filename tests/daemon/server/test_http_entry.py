"""The http entry serving Claude Code's events over real TCP (issue 12): a request is a
relay fire answered as ``hookd-relay claude`` answers, a client that hangs up cancels
its fire (hooks killed), shutdown answers 503, hookd's own fires never call it, and the
project is found from the event."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
import trio

from hookd.daemon.dialects.claude.http_relay import project_root
from hookd.daemon.dialects.integration import RelayRefused
from hookd.protocol import load_openrpc
from hookd_testing import RpcClient, claude_settings, command, process_gone, wait_until, write_json
from hookd_testing.schema import schema_errors

from .conftest import HttpEntryHandle, read_reply


def adopted(home: str) -> Path:
    return Path(home) / ".config" / "hookd" / "claude" / "settings.json"


def event(workspace: Path, **more: Any) -> dict[str, Any]:
    return {"session_id": "s1", "cwd": str(workspace), "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": "ls"}, **more}  # fmt: skip


async def test_a_request_is_answered_as_the_command_relay_answers(
    http_entry: HttpEntryHandle, workspace: Path
) -> None:
    """The same event through the http entry and through ``hookd-relay claude``: the
    same adopted hook runs (and only it: the agent runs its own), the same answer."""
    settings = http_entry.daemon.settings
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("PreToolUse", command("echo agent-own >&2; exit 2")))  # fmt: skip
    write_json(adopted(settings.home), claude_settings("PreToolUse", command(
        'echo "adopted in $CLAUDE_PROJECT_DIR" >&2; exit 2')))  # fmt: skip
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOOKD_")}
    relay = await trio.run_process(
        [sys.executable, "-m", "hookd.relay", "claude"], stdin=json.dumps(event(workspace)).encode(),
        env={**env, "HOOKD_SOCKET": settings.socket_path, "CLAUDE_PROJECT_DIR": str(workspace)},
        capture_stdout=True, capture_stderr=True,
    )  # fmt: skip

    reply = await http_entry.post(event(workspace))

    assert reply.status == 200
    assert reply.headers["content-type"] == "application/json"
    assert reply.body == relay.stdout
    assert reply.json()["hookSpecificOutput"]["permissionDecisionReason"] == (
        f"adopted in {workspace}"
    )
    view = http_entry.daemon.status()["httpEntry"]
    assert (view["served"], view["refused"]) == (1, {})


async def test_nothing_to_say_is_an_empty_200(http_entry: HttpEntryHandle, workspace: Path) -> None:
    """No adopted hook for the event: 200 with no body, which Claude Code reads as a
    successful hook with no output (the relay prints nothing and exits 0)."""
    reply = await http_entry.post(event(workspace))

    assert (reply.status, reply.body) == (200, b"")


async def test_a_client_that_hangs_up_cancels_its_fire(
    http_entry: HttpEntryHandle, workspace: Path, tmp_path: Path
) -> None:
    """The agent gives up (its timeout, or it is interrupted) and closes the connection:
    hookd cancels the fire, and the hook's whole process group is killed."""
    pid_file = tmp_path / "pid"
    write_json(adopted(http_entry.daemon.settings.home), claude_settings("PreToolUse", command(
        f"echo $$ > {pid_file}; sleep 60 & echo $! >> {pid_file}; wait")))  # fmt: skip
    stream = await trio.open_tcp_stream("127.0.0.1", http_entry.port)
    await stream.send_all(http_entry.request(event(workspace)))
    await wait_until(lambda: len(pid_file.read_text().split()) == 2 if pid_file.exists() else False)
    pids = [int(p) for p in pid_file.read_text().split()]

    await stream.aclose()

    await wait_until(lambda: all(process_gone(pid) for pid in pids))
    await wait_until(lambda: http_entry.daemon.status()["httpEntry"]["abandoned"] == 1)
    audit = Path(http_entry.daemon.settings.state_dir) / "audit.jsonl"
    records = [json.loads(line) for line in audit.read_text().splitlines()]
    assert [r["outcome"] for r in records if r["requestId"] == "http-1"] == ["cancelled"]


async def test_shutdown_answers_the_fires_in_flight(
    http_entry: HttpEntryHandle, workspace: Path, tmp_path: Path
) -> None:
    """``hookd shutdown`` while a request waits on a hook: answered 503 (the agent
    reports a failed hook), the hook killed."""
    pid_file = tmp_path / "pid"
    write_json(adopted(http_entry.daemon.settings.home), claude_settings("PreToolUse", command(
        f"echo $$ > {pid_file}; exec sleep 60")))  # fmt: skip
    stream = await trio.open_tcp_stream("127.0.0.1", http_entry.port)
    await stream.send_all(http_entry.request(event(workspace)))
    await wait_until(pid_file.exists)
    rpc = await RpcClient.connect(http_entry.daemon.settings.socket_path)
    await rpc.call("shutdown")

    async with stream:
        reply = await read_reply(stream)

    assert reply.status == 503
    assert b"shutting down" in reply.body
    await wait_until(lambda: process_gone(int(pid_file.read_text())))
    await rpc.aclose()


async def test_hookd_never_posts_to_its_own_entry(
    http_entry: HttpEntryHandle, workspace: Path
) -> None:
    """An agent settings file holding the http entry (as ``relay install --http`` writes
    it): a fire over the socket skips it, as it skips ``hookd-relay`` (it would call
    hookd itself, and run the adopted hooks twice)."""
    entry = {"type": "http", "url": f"http://127.0.0.1:{http_entry.port}/hookd-relay",
             "headers": {"Authorization": "Bearer ${HOOKD_HTTP_PASSCODE}"},
             "allowedEnvVars": ["HOOKD_HTTP_PASSCODE"]}  # fmt: skip
    write_json(workspace / ".claude" / "settings.json", claude_settings("PreToolUse", entry))
    rpc = await RpcClient.connect(http_entry.daemon.settings.socket_path)

    result = await rpc.fire("claude", "PreToolUse", [str(workspace)], event(workspace),
                            env={"HOOKD_HTTP_PASSCODE": http_entry.passcode})  # fmt: skip

    assert result["hooks"] == []
    assert http_entry.daemon.status()["httpEntry"]["served"] == 0
    await rpc.aclose()


async def test_hooks_never_see_the_passcode(
    http_settings: Any, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A daemon started from a shell that exports the passcode does not hand it on."""
    from hookd.daemon.app import Daemon

    monkeypatch.setenv("HOOKD_HTTP_PASSCODE", "from-the-shell")

    assert "HOOKD_HTTP_PASSCODE" not in Daemon(http_settings).base_env


async def test_status_shows_the_entry(http_entry: HttpEntryHandle) -> None:
    """Its URL, passcode file and counters, in ``status`` and ``hookd status``."""
    await http_entry.post(b"not an event")
    status = http_entry.daemon.status()
    assert schema_errors(status, {"$ref": "#/components/schemas/Status"}, load_openrpc()) == []
    view = status["httpEntry"]
    assert view["refused"] == {"400": 1}
    assert view["url"] == f"http://127.0.0.1:{http_entry.port}/hookd-relay"
    assert Path(view["passcodeFile"]).read_text().strip() == http_entry.passcode
    shown = await trio.run_process(
        [sys.executable, "-m", "hookd", "--socket", http_entry.daemon.settings.socket_path,
         "status"], capture_stdout=True,
    )  # fmt: skip
    line = f"http entry http://127.0.0.1:{http_entry.port}/hookd-relay: 0 served, 0 abandoned, "
    line += "refused 1x 400"
    assert line in shown.stdout.decode()


async def test_the_entry_is_off_by_default(daemon: Any) -> None:
    """Off unless ``http_entry`` says so: no port is opened, ``status`` says null."""
    rpc = await daemon.connect()
    assert (await rpc.call("status"))["httpEntry"] is None
    await rpc.aclose()


@pytest.mark.parametrize(
    ("cwd", "transcript", "root"),
    [
        ("/w/proj/sub/deeper", "/h/.claude/projects/-w-proj/s.jsonl", "/w/proj"),
        ("/w/proj", "/h/.claude/projects/-w-proj/s.jsonl", "/w/proj"),
        ("/w/my.proj_1/sub", "/h/.claude/projects/-w-my-proj-1/s.jsonl", "/w/my.proj_1"),
        ("/w/caf\u00e9/x", "/h/.claude/projects/-w-caf-/s.jsonl", "/w/caf\u00e9"),
        ("/w/\U0001f600/x", "/h/.claude/projects/-w---/s.jsonl", "/w/\U0001f600"),
        ("/w/other/sub", "/h/.claude/projects/-w-proj/s.jsonl", "/w/other/sub"),
        ("/w/proj/sub", None, "/w/proj/sub"),
        # Past 200 characters (hashes as Claude Code 2.1.328 computes them, by node).
        ("/" + "d" * 250 + "/sub", "/h/p/-" + "d" * 199 + "-bagbv5/s.jsonl", "/" + "d" * 250),
        ("/" + "d" * 250 + "/sub", "/h/p/-" + "d" * 199 + "-9yents/s.jsonl", "/" + "d" * 250 + "/sub"),
        ("/w/\U0001f600/x/" + "\u00e9" * 220, "/h/p/-w----x" + "-" * 193 + "-ggt0xo/s",
         "/w/\U0001f600/x/" + "\u00e9" * 220),
    ],
)  # fmt: skip
def test_the_project_is_the_folder_the_transcript_is_kept_for(
    cwd: str, transcript: str | None, root: str
) -> None:
    """``cwd`` follows the agent's ``cd``; the session's project is the folder (``cwd``
    or above) whose name, as Claude Code writes it (every UTF-16 unit but ASCII letters
    and digits as ``-``, cut at 200 plus a hash), names the transcript's folder."""
    given = {"cwd": cwd, **({"transcript_path": transcript} if transcript else {})}

    assert project_root(given) == root


def test_an_event_without_a_cwd_is_refused() -> None:
    with pytest.raises(RelayRefused, match="no absolute cwd"):
        project_root({"hook_event_name": "Stop", "cwd": "relative"})
