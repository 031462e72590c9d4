"""``hookd adopt --agent gemini`` on real files through the real ``hookd`` command, and the
relay it installs answering as a Gemini CLI hook (issue 24)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import trio

from hookd_testing import write_json
from hookd_testing.relays import ENTRY_RELAY

HOOKD = [sys.executable, "-m", "hookd"]
RELAY = ENTRY_RELAY
GUARD = {"type": "command", "name": "guard", "command": "echo no >&2; exit 2", "timeout": 5000}
RUNTIME = {"type": "runtime", "name": "in-process"}
SETTINGS = {"security": {"auth": {"selectedType": "gemini-api-key"}},
            "hooksConfig": {"disabled": ["x"]},
            "hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [GUARD, RUNTIME]}],
                      "SessionEnd": [{"hooks": [{"type": "command", "command": "true"}]}]}}  # fmt: skip


def hookd(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, *args, "--agent", "gemini", "--home", str(home)],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, **env})  # fmt: skip


def read(path: Path) -> Any:
    return json.loads(path.read_text())


def test_adopt_moves_the_command_hooks_and_leaves_every_other_setting(tmp_path: Path) -> None:
    home = tmp_path / "h"
    agent_file = home / ".gemini" / "settings.json"
    write_json(agent_file, SETTINGS)

    done = hookd(home, "adopt", "--scope", "user")

    assert done.returncode == 0, done.stderr
    owned = read(home / ".config" / "hookd" / "gemini" / "settings.json")
    assert owned["hooks"]["BeforeTool"] == [{"matcher": "run_shell_command", "hooks": [GUARD]}]
    agent = read(agent_file)
    assert agent["security"] == SETTINGS["security"]
    assert agent["hooksConfig"] == SETTINGS["hooksConfig"]
    assert agent["hooks"]["BeforeTool"][0] == {"matcher": "run_shell_command", "hooks": [RUNTIME]}
    relay = {"type": "command", "name": "hookd", "command": f"{RELAY} gemini", "timeout": 15000}
    assert agent["hooks"]["BeforeTool"][1] == {"matcher": "run_shell_command", "hooks": [relay]}
    assert agent["hooks"]["SessionEnd"] == [{"hooks": [{**relay, "timeout": 70000}]}]
    assert "stays with the agent: a 'runtime' handler" in done.stdout

    again = hookd(home, "adopt", "--scope", "user")
    assert again.returncode == 0, again.stderr
    assert "already adopted" in again.stdout

    back = hookd(home, "unadopt", "--scope", "user")
    assert back.returncode == 0, back.stderr
    given_back = read(agent_file)["hooks"]
    assert given_back["BeforeTool"] == [{"matcher": "run_shell_command",
                                         "hooks": [RUNTIME, GUARD]}]  # fmt: skip
    assert given_back["SessionEnd"] == SETTINGS["hooks"]["SessionEnd"]


def test_both_scopes_write_the_same_entry(tmp_path: Path) -> None:
    """Gemini runs one hook of the same name and command once across its files: the
    project's entry is the user's (its timeout covering the user's adopted hooks)."""
    home, project = tmp_path / "h", tmp_path / "p"
    write_json(home / ".gemini" / "settings.json", {"hooks": {"BeforeTool": [{"hooks": [GUARD]}]}})
    write_json(project / ".gemini" / "settings.json",
               {"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "true"}]}]}})  # fmt: skip

    for scope in ("user", "project"):
        done = hookd(home, "adopt", "--scope", scope, "--project", str(project))
        assert done.returncode == 0, done.stderr

    entries = [read(folder / ".gemini" / "settings.json")["hooks"]["BeforeTool"]
               for folder in (home, project)]  # fmt: skip
    assert entries[0] == [{"hooks": [{"type": "command", "name": "hookd",
                                      "command": f"{RELAY} gemini", "timeout": 15000}]}]  # fmt: skip
    assert entries[1] == [{"hooks": [{**entries[0][0]["hooks"][0], "timeout": 70000}]}]


def test_gemini_cli_home_moves_the_user_scope(tmp_path: Path) -> None:
    home, moved = tmp_path / "h", tmp_path / "alt"
    home.mkdir()
    write_json(moved / ".gemini" / "settings.json", SETTINGS)

    done = hookd(home, "adopt", "--scope", "user", GEMINI_CLI_HOME=str(moved))

    assert done.returncode == 0, done.stderr
    assert "handed to hookd from " + str(moved / ".gemini" / "settings.json") in done.stdout


async def test_the_relay_answers_as_a_gemini_hook(rpc, settings, workspace) -> None:
    """After adopt: the relay entry runs the adopted guard and answers with the merged
    answer Gemini reads (a deny with the guard's stderr as the reason)."""
    home = Path(settings.home)
    write_json(home / ".gemini" / "settings.json", SETTINGS)
    assert hookd(home, "adopt", "--scope", "user").returncode == 0
    event = {"session_id": "s", "transcript_path": "", "cwd": str(workspace),
             "hook_event_name": "BeforeTool", "timestamp": "t",
             "tool_name": "run_shell_command", "tool_input": {"command": "rm -rf /"}}  # fmt: skip
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOOKD_")}

    done = await trio.run_process([RELAY, "gemini"], stdin=json.dumps(event).encode(),
                                  env={**env, "HOOKD_SOCKET": settings.socket_path},
                                  capture_stdout=True, capture_stderr=True, check=False)  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"continue": True, "suppressOutput": False,
                                       "decision": "deny", "reason": "no"}  # fmt: skip


async def test_no_daemon_answers_by_policy(short_dir: Path, tmp_path: Path) -> None:
    """Letting the action go on: exit 1 with the line (Gemini shows ``Warning: <line>``);
    blocking: a deny that ends the run."""
    env = {**os.environ, "HOOKD_SOCKET": str(short_dir / "none.sock"), "HOOKD_NO_SPAWN": "1"}
    event = json.dumps({"hook_event_name": "BeforeTool", "cwd": str(tmp_path)}).encode()
    for policy, code in (("continue", 1), ("block", 0)):
        done = await trio.run_process([RELAY, "gemini"], stdin=event,
                                      env={**env, "HOOKD_RELAY_ON_ERROR": policy},
                                      capture_stdout=True, capture_stderr=True, check=False)  # fmt: skip
        line = done.stderr.decode().strip()
        assert done.returncode == code
        assert line.startswith("hookd-relay: hookd is not running")
        if code == 0:
            assert json.loads(done.stdout) == {"decision": "deny", "reason": line,
                                               "continue": False, "stopReason": line}  # fmt: skip
        else:
            assert done.stdout == b""
