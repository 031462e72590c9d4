"""``hookd adopt --agent codex`` on real files through the real ``hookd`` command, and the
relay it installs answering as a Codex hook (issue 23)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import trio

from hookd.daemon.dialects.codex import review
from hookd_testing import write_json
from hookd_testing.relays import ENTRY_RELAY

HOOKD = [sys.executable, "-m", "hookd"]
RELAY = ENTRY_RELAY
GUARD = {"type": "command", "command": "echo no >&2; exit 2", "timeout": 5}
LATER = {"type": "command", "command": "echo later", "async": True}
MCP = {"type": "mcp_tool", "server": "s", "tool": "t"}
HOOKS = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [GUARD, LATER, MCP]}],
                   "Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}  # fmt: skip


def hookd(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, *args, "--agent", "codex", "--home", str(home)],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, **env})  # fmt: skip


def read(path: Path) -> Any:
    return json.loads(path.read_text())


def test_adopt_moves_the_command_hooks_and_pins_the_relay_entries(tmp_path: Path) -> None:
    home = tmp_path / "h"
    agent_file = home / ".codex" / "hooks.json"
    write_json(agent_file, HOOKS)
    (home / ".codex" / "config.toml").write_text('model = "gpt-5.5"\n')

    done = hookd(home, "adopt", "--scope", "user")

    assert done.returncode == 0, done.stderr
    owned = read(home / ".config" / "hookd" / "codex" / "hooks.json")
    assert owned["hooks"]["PreToolUse"] == [{"matcher": "Bash", "hooks": [GUARD]}]
    agent = read(agent_file)["hooks"]
    assert agent["PreToolUse"][0] == {"matcher": "Bash", "hooks": [LATER, MCP]}
    relay = agent["PreToolUse"][1]["hooks"][0]
    assert relay == {"type": "command", "command": f"{RELAY} codex {agent_file}", "timeout": 15}
    assert agent["PreToolUse"][1]["matcher"] == "Bash"  # the relay for Bash, not every tool
    assert "stays with the agent: an async hook" in done.stdout
    assert "stays with the agent: a 'mcp_tool' handler" in done.stdout
    config_text = (home / ".codex" / "config.toml").read_text()
    assert config_text.startswith('model = "gpt-5.5"\n')
    state = tomllib.loads(config_text)["hooks"]["state"]
    key = f"{agent_file}:pre_tool_use:1:0"
    assert state[key]["trusted_hash"] == review.trusted_hash("PreToolUse", "Bash",
                                                             relay["command"], 15)  # fmt: skip
    assert f"{agent_file}:stop:0:0" in state

    again = hookd(home, "adopt", "--scope", "user")
    assert again.returncode == 0, again.stderr
    assert "already adopted" in again.stdout
    assert (home / ".codex" / "config.toml").read_text() == config_text

    back = hookd(home, "unadopt", "--scope", "user")
    assert back.returncode == 0, back.stderr
    given_back = read(agent_file)["hooks"]
    assert given_back["PreToolUse"] == [{"matcher": "Bash", "hooks": [LATER, MCP, GUARD]}]
    assert given_back["Stop"] == HOOKS["hooks"]["Stop"]
    assert (home / ".codex" / "config.toml").read_text() == 'model = "gpt-5.5"\n'


def test_unadopt_gives_the_file_back_as_it_was(tmp_path: Path) -> None:
    """Every hook handed over and given back: the original bytes, formatting and all."""
    home = tmp_path / "h"
    agent_file = home / ".codex" / "hooks.json"
    agent_file.parent.mkdir(parents=True)
    agent_file.write_text('{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}}')
    original = agent_file.read_bytes()

    assert hookd(home, "adopt", "--scope", "user").returncode == 0
    assert hookd(home, "unadopt", "--scope", "user").returncode == 0

    assert agent_file.read_bytes() == original
    assert not (home / ".config" / "hookd" / "codex").exists()


def test_codex_home_moves_the_user_scope(tmp_path: Path) -> None:
    home, moved = tmp_path / "h", tmp_path / "codex-home"
    home.mkdir()
    write_json(moved / "hooks.json", HOOKS)

    done = hookd(home, "adopt", "--scope", "user", CODEX_HOME=str(moved))

    assert done.returncode == 0, done.stderr
    assert "handed to hookd from " + str(moved / "hooks.json") in done.stdout
    assert "pre_tool_use:1:0" in (moved / "config.toml").read_text()


async def test_the_relay_answers_as_a_codex_hook(rpc, settings, workspace) -> None:
    """After adopt: the relay entry runs the adopted guard (only it) and answers with the
    JSON Codex reads; a direct fire would run the agent's own hooks too."""
    home = Path(settings.home)
    write_json(home / ".codex" / "hooks.json", HOOKS)
    assert hookd(home, "adopt", "--scope", "user").returncode == 0
    event = {"session_id": "s", "cwd": str(workspace), "hook_event_name": "PreToolUse",
             "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}  # fmt: skip
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOOKD_")}

    done = await trio.run_process([RELAY, "codex"], stdin=json.dumps(event).encode(),
                                  env={**env, "HOOKD_SOCKET": settings.socket_path},
                                  capture_stdout=True, capture_stderr=True, check=False)  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "no"}}  # fmt: skip


async def test_no_daemon_answers_by_policy(short_dir: Path, tmp_path: Path) -> None:
    """Codex shows a ``systemMessage`` as a warning: letting the action go on, the relay's
    line reaches the user that way; blocking is exit 2 with the line on stderr."""
    env = {**os.environ, "HOOKD_SOCKET": str(short_dir / "none.sock"), "HOOKD_NO_SPAWN": "1"}
    event = json.dumps({"hook_event_name": "PreToolUse", "cwd": str(tmp_path)}).encode()
    for policy, code in (("continue", 0), ("block", 2)):
        done = await trio.run_process([RELAY, "codex"], stdin=event,
                                      env={**env, "HOOKD_RELAY_ON_ERROR": policy},
                                      capture_stdout=True, capture_stderr=True, check=False)  # fmt: skip
        line = done.stderr.decode().strip()
        assert done.returncode == code
        assert line.startswith("hookd-relay: hookd is not running")
        assert done.stdout == (json.dumps({"systemMessage": line}).encode() if code == 0 else b"")
