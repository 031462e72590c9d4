"""``hookd-relay`` against real daemons: it runs only the adopted hooks (the agent runs its
own), answers in the agent's vocabulary, never runs itself, starts a daemon when none
answers, and follows its failure policy when it cannot reach one (issue 12)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trio

from hookd_testing import claude_settings, command, wait_until, write_json

EVENT = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}


def relay_env(socket_path: str, home: str, **more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOOKD_")}
    return {**env, "HOOKD_SOCKET": socket_path, "HOME": home, **more}


async def run_relay(
    relay: list[str], env: dict[str, str], event: dict[str, Any]
) -> subprocess.CompletedProcess[bytes]:
    return await trio.run_process([*relay, "claude"], stdin=json.dumps(event).encode(), env=env,
                                  capture_stdout=True, capture_stderr=True, check=False)  # fmt: skip


def adopted(home: str) -> Path:
    return Path(home) / ".config" / "hookd" / "claude" / "settings.json"


async def test_a_relay_fire_runs_only_the_adopted_hooks(relay, rpc, settings, workspace) -> None:
    """The agent runs its own settings hooks; the relay's fire runs the hookd-owned ones,
    so each hook runs exactly once. A direct fire runs both."""
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("PreToolUse", command("echo agent-own >&2; exit 2")))  # fmt: skip
    write_json(adopted(settings.home),
               claude_settings("PreToolUse", command("echo adopted >&2; exit 2")))  # fmt: skip
    env = relay_env(settings.socket_path, settings.home, CLAUDE_PROJECT_DIR=str(workspace))

    done = await run_relay(relay, env, EVENT)

    assert done.returncode == 0, done.stderr
    native = json.loads(done.stdout)
    assert native["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert native["hookSpecificOutput"]["permissionDecisionReason"] == "adopted"
    direct = await rpc.fire("claude", "PreToolUse", [str(workspace)], EVENT)
    assert direct["reason"].splitlines() == ["adopted", "agent-own"]


async def test_the_hook_sees_the_agents_environment(relay, rpc, settings, workspace) -> None:
    """What the agent had in its environment reaches the hook; hookd's own variables
    (here the relay's HOOKD_RELAY_ON_ERROR) do not."""
    write_json(adopted(settings.home), claude_settings("PreToolUse", command(
        'echo "$AGENT_ONLY|${HOOKD_RELAY_ON_ERROR:-unset}|$CLAUDE_PROJECT_DIR" >&2; exit 2')))  # fmt: skip
    env = relay_env(settings.socket_path, settings.home, AGENT_ONLY="from-the-agent",
                    CLAUDE_PROJECT_DIR=str(workspace), HOOKD_RELAY_ON_ERROR="continue")  # fmt: skip

    done = await run_relay(relay, env, EVENT)

    reason = json.loads(done.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert reason == f"from-the-agent|unset|{workspace}"


async def test_hookd_never_runs_a_relay_entry(rpc, settings, workspace) -> None:
    """A settings file holding the relay entry: hookd skips it (it would call itself)."""
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("PreToolUse", command("hookd-relay claude")))  # fmt: skip

    result = await rpc.fire("claude", "PreToolUse", [str(workspace)], EVENT)

    assert result["hooks"] == []


@pytest.mark.parametrize(("policy", "code", "says"), [
    ("continue", 1, "letting the action go on"), ("block", 2, "blocking"),
])  # fmt: skip
async def test_no_daemon_follows_the_failure_policy(relay, short_dir, tmp_path, policy, code,
                                                    says) -> None:  # fmt: skip
    """HOOKD_NO_SPAWN=1 and nothing listening: the relay says what to do, and exits as a
    failing hook (the action goes on) or, with block, as exit 2 (it is blocked)."""
    env = relay_env(str(short_dir / "none.sock"), str(tmp_path), HOOKD_NO_SPAWN="1",
                    HOOKD_RELAY_ON_ERROR=policy)  # fmt: skip

    done = await run_relay(relay, env, EVENT)

    assert done.returncode == code
    assert b"hookd is not running" in done.stderr
    assert says.encode() in done.stderr


@pytest.fixture
def cold(short_dir: Path, tmp_path: Path) -> Iterator[dict[str, str]]:
    """A machine with no daemon running; whatever daemon the test starts is stopped."""
    home = tmp_path / "home"
    write_json(adopted(str(home)), claude_settings("PreToolUse",
                                                   command("echo cold-start >&2; exit 2")))  # fmt: skip
    env = relay_env(str(short_dir / "hookd.sock"), str(home))
    yield env
    stopped = subprocess.run([sys.executable, "-m", "hookd", "shutdown"], env=env,
                             capture_output=True, timeout=30, check=False)  # fmt: skip
    if stopped.returncode != 0 and (short_dir / "hookd.sock").exists():
        pid = json.loads(subprocess.run([sys.executable, "-m", "hookd", "status", "--json"],
                                        env=env, capture_output=True).stdout or b"{}").get("pid")  # fmt: skip
        if pid:
            os.kill(pid, signal.SIGKILL)


async def test_the_relay_starts_one_daemon_from_cold(relay, cold: dict[str, str]) -> None:
    """Two relays at once with no daemon: one starts it (readiness by READY=1, a lock for
    the other), both get the adopted hook's answer."""
    async with trio.open_nursery() as nursery:
        results: list[subprocess.CompletedProcess[bytes]] = []

        async def one() -> None:
            results.append(await run_relay(relay, cold, EVENT))

        nursery.start_soon(one)
        nursery.start_soon(one)

    for done in results:
        assert done.returncode == 0, (done.stderr, _log(cold))
        assert done.stdout, (done.stderr, _log(cold))
        assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecisionReason"] == (
            "cold-start"
        )
    log = Path(cold["HOOKD_SOCKET"]).parent / "hookd.log"
    assert log.read_text().count("starting") == 1


def _log(env: dict[str, str]) -> str:
    log = Path(env["HOOKD_SOCKET"]).parent / "hookd.log"
    audit = Path(env["HOME"]) / ".local" / "state" / "hookd" / "audit.jsonl"
    return "\n".join(p.read_text() for p in (log, audit) if p.exists())


@pytest.mark.parametrize(
    "environ",
    [{"HOOKD_SOCKET": "/x/y.sock"}, {"XDG_RUNTIME_DIR": "/run/user/7"},
     {"XDG_RUNTIME_DIR": "relative"}, {"TMPDIR": "/var/tmp"}, {}],
)  # fmt: skip
def test_the_relay_finds_the_socket_where_every_client_does(monkeypatch, environ) -> None:
    """The relay keeps hookd.protocol's socket rule without importing the package on
    every event: the two must agree."""
    from hookd.protocol import default_socket_path
    from hookd.relay import socket_path

    for name in ("HOOKD_SOCKET", "XDG_RUNTIME_DIR", "TMPDIR"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)

    assert socket_path(os.environ) == default_socket_path()


def test_help_prints_the_usage_and_exits_0(
    relay,
) -> None:
    """``--help`` is no error: exit 2 would read as a block to Claude Code."""
    for flag in ("--help", "-h"):
        done = subprocess.run([*relay, flag], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("usage: hookd-relay AGENT")


@pytest.mark.parametrize(("argv", "says"), [
    (["claud"], "unknown agent 'claud'"), ([], "no agent named"),
    (["claude", "extra"], "too many arguments for claude"),
])  # fmt: skip
@pytest.mark.parametrize(("policy", "code"), [("", 1), ("continue", 1), ("block", 2)])
def test_bad_arguments_follow_the_failure_policy(relay, tmp_path, argv, says, policy, code) -> None:
    """A mistyped entry is a failing hook (exit 1: the action goes on) with one line saying
    what to fix, never the usage as a block reason; HOOKD_RELAY_ON_ERROR=block blocks."""
    env = relay_env(str(tmp_path / "none.sock"), str(tmp_path), HOOKD_NO_SPAWN="1")
    if policy:
        env["HOOKD_RELAY_ON_ERROR"] = policy
    done = subprocess.run([*relay, *argv], input=json.dumps(EVENT).encode(), env=env,
                          capture_output=True, timeout=60)  # fmt: skip

    assert done.returncode == code
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1, lines
    assert says in lines[0]
    assert "hookd relay install" in lines[0]
    assert done.stdout == b""


async def test_a_daemon_that_cannot_start_is_quoted(relay, short_dir: Path, tmp_path: Path) -> None:
    """A config typo stops the auto-started daemon: the relay's one line repeats the
    daemon's own error (with the key it meant), not only "exited with code 1"."""
    config = tmp_path / "config.toml"
    config.write_text("slow_treshold_ms = 5\n")
    env = relay_env(str(short_dir / "hookd.sock"), str(tmp_path), HOOKD_CONFIG=str(config))

    done = await run_relay(relay, env, EVENT)

    assert done.returncode == 1
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1, lines
    assert "hookd serve exited with code 1 at start: hookd config" in lines[0]
    assert "unknown key(s) slow_treshold_ms (did you mean slow_threshold_ms?)" in lines[0]
    assert str(short_dir / "hookd.log") in lines[0]


async def test_a_daemon_the_relay_started_stops_without_a_notify_warning(
    relay,
    cold: dict[str, str],
) -> None:
    """The relay listens for READY=1 only; the daemon's STOPPING=1 later finds its socket
    gone, which is no warning (a real systemd socket's failure still is)."""
    done = await run_relay(relay, cold, EVENT)
    assert done.returncode == 0, (done.stderr, _log(cold))
    stopped = await trio.run_process([sys.executable, "-m", "hookd", "shutdown"], env=cold,
                                     capture_stderr=True, check=False)  # fmt: skip
    assert stopped.returncode == 0, stopped.stderr
    log = Path(cold["HOOKD_SOCKET"]).parent / "hookd.log"
    await wait_until(lambda: "stopped" in log.read_text(), timeout=30)

    assert "sd_notify_failed" not in log.read_text()
    assert "STOPPING=1" not in log.read_text()


async def test_a_hook_gone_to_the_background_under_the_relay_is_said(relay, rpc, settings,
                                                                     workspace) -> None:  # fmt: skip
    """``{"async": true}`` on the first line under a relay fire: the relay answers at once
    and its later answer cannot reach the agent (who would show it to the model on a
    later turn); the fire's warnings, in the audit log, say so."""
    write_json(adopted(settings.home), claude_settings("PreToolUse", command(
        'echo \'{"async": true}\'; echo \'{"systemMessage": "later"}\'')))  # fmt: skip
    env = relay_env(settings.socket_path, settings.home, CLAUDE_PROJECT_DIR=str(workspace))

    done = await run_relay(relay, env, {**EVENT, "session_id": "s"})

    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    audit = Path(settings.state_dir) / "audit.jsonl"
    await wait_until(lambda: audit.exists() and "under the relay" in audit.read_text())
    record = next(json.loads(line) for line in audit.read_text().splitlines()
                  if json.loads(line)["type"] == "fire")  # fmt: skip
    [said] = [w for w in record["warnings"] if "under the relay" in w]
    assert "the agent never gets them" in said
    assert '"async": true in the agent\'s settings' in said
    # and its later answer is in the audit log, although the relay had long gone
    await wait_until(lambda: '"type": "async-hook"' in audit.read_text()
                     or '"type":"async-hook"' in audit.read_text())  # fmt: skip
    assert "later" in audit.read_text()
