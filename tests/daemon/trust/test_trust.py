"""Trust, direnv style, against a real daemon with ``trust_all`` off: a workspace's hooks
(every dialect) do not run until ``hookd allow`` (the real CLI), a change to an allowed
file revokes, ``hookd deny`` blocks, and a hook cannot allow anything."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from hookd.daemon.settings import Settings
from hookd_testing import RpcClient, claude_settings, command, write_executable, write_json

HOOKD = [sys.executable, "-m", "hookd"]
TOOL = {"tool_name": "Bash", "tool_input": {"command": "ls"}, "session_id": "s1"}
NEVER_RAN_RULE = 'blocked because hookd\'s never_ran setting is "block"'


@pytest.fixture
def settings(settings: Settings, tmp_path: Path) -> Settings:
    return replace(settings, trust_all=False, state_dir=str(tmp_path / "state"))


@pytest.fixture
def config(settings: Settings, tmp_path: Path) -> Path:
    """A config file naming the daemon's state_dir, for the CLI's allow and deny."""
    path = tmp_path / "hookd.toml"
    path.write_text(f"state_dir = {json.dumps(settings.state_dir)}\n")
    return path


def hookd(
    *args: str, config: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*HOOKD, *args, "--config", str(config)],
        capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip


def _marker_script(path: Path, mark: Path) -> Path:
    return write_executable(path, f"#!/bin/sh\ncat >/dev/null\necho ran >> {mark}\nexit 0\n")


def _claude(ws: Path, mark: Path) -> Path:
    script = _marker_script(ws / "hooks" / "guard.sh", mark)
    handler = command('"$CLAUDE_PROJECT_DIR"/hooks/guard.sh')
    write_json(ws / ".claude/settings.json", claude_settings("PreToolUse", handler))
    return script


def _cline(ws: Path, mark: Path) -> Path:
    return _marker_script(ws / ".clinerules/hooks/PreToolUse", mark)


def _cline_sdk(ws: Path, mark: Path) -> Path:
    return _marker_script(ws / ".cline/hooks/PreToolUse.sh", mark)


def _augment(ws: Path, mark: Path) -> Path:
    script = _marker_script(ws / "hooks" / "guard.sh", mark)
    hooks = {"PreToolUse": [{"hooks": [{"type": "command", "command": str(script)}]}]}
    write_json(ws / ".augment/settings.json", {"hooks": hooks})
    return script


SETUPS: dict[str, Callable[[Path, Path], Path]] = {
    "claude": _claude, "cline": _cline, "cline-sdk": _cline_sdk, "augment": _augment,
}  # fmt: skip
PAYLOADS = {"cline": {"preToolUse": {"toolName": "x"}}}


def ran(mark: Path) -> int:
    return len(mark.read_text().split()) if mark.exists() else 0


async def fire(rpc: RpcClient, agent: str, ws: Path) -> dict[str, Any]:
    return await rpc.fire(agent, "PreToolUse", [str(ws)], PAYLOADS.get(agent, TOOL))


def assert_untrusted(result: dict[str, Any], ws: Path, why: str) -> None:
    (hook,) = result["hooks"]
    assert hook["error"].startswith("not run: untrusted: "), hook
    assert why in hook["error"]
    assert f"hookd allow {shlex.quote(str(ws))}" in hook["error"]
    assert hook["exitCode"] is None
    assert result["blocked"] is True  # a guard event: the never-ran rule decides
    assert NEVER_RAN_RULE in result["reason"]


@pytest.mark.parametrize("agent", sorted(SETUPS))
async def test_an_untrusted_workspace_runs_nothing_until_allowed_and_a_change_revokes(
    agent: str, rpc: RpcClient, workspace: Path, tmp_path: Path, config: Path
) -> None:
    mark = tmp_path / "ran"
    script = SETUPS[agent](workspace, mark)

    first = await fire(rpc, agent, workspace)
    assert ran(mark) == 0
    assert_untrusted(first, workspace, "has not been allowed")
    waiting = (await rpc.call("status"))["trust"]["waiting"]
    assert [(w["workspace"], w["allow"]) for w in waiting] == [
        (str(workspace), f"hookd allow {workspace}")
    ]

    allowed = hookd("allow", str(workspace), config=config)
    assert allowed.returncode == 0, allowed.stderr
    assert str(script) in allowed.stdout  # what was allowed is listed
    second = await fire(rpc, agent, workspace)
    assert ran(mark) == 1
    assert second["blocked"] is False
    assert second["hooks"][0]["error"] is None
    assert (await rpc.call("status"))["trust"]["waiting"] == []

    script.write_text(script.read_text().replace("exit 0", "echo changed >&2\nexit 0"))
    third = await fire(rpc, agent, workspace)
    assert ran(mark) == 1  # the changed script never ran
    assert_untrusted(third, workspace, f"{script} changed since the workspace")

    assert hookd("allow", str(workspace), config=config).returncode == 0
    await fire(rpc, agent, workspace)
    assert ran(mark) == 2


async def test_deny_stops_an_allowed_workspace_without_blocking(
    rpc: RpcClient, workspace: Path, tmp_path: Path, config: Path
) -> None:
    mark = tmp_path / "ran"
    _claude(workspace, mark)
    assert hookd("allow", str(workspace), config=config).returncode == 0
    await fire(rpc, "claude", workspace)
    assert ran(mark) == 1

    denied = hookd("deny", str(workspace), config=config)
    assert denied.returncode == 0, denied.stderr
    result = await fire(rpc, "claude", workspace)

    assert ran(mark) == 1
    (hook,) = result["hooks"]
    assert hook["error"].startswith(f"not run: denied: the workspace {workspace} was denied")
    assert result["blocked"] is False  # a person decided: denied hooks do not block
    assert any(w.startswith("hooks not run: denied: ") for w in result["warnings"])


async def test_a_changed_settings_file_revokes_but_an_unrelated_key_does_not(
    rpc: RpcClient, workspace: Path, tmp_path: Path, config: Path
) -> None:
    """Settings are hashed by what they configure: Claude Code rewriting its permissions
    in settings.local.json keeps the approval; another hook command revokes it."""
    mark = tmp_path / "ran"
    _claude(workspace, mark)
    local = write_json(workspace / ".claude/settings.local.json", {"permissions": {"allow": []}})
    assert hookd("allow", str(workspace), config=config).returncode == 0

    write_json(local, {"permissions": {"allow": ["Bash(ls:*)"]}})
    await fire(rpc, "claude", workspace)
    assert ran(mark) == 1

    settings_file = workspace / ".claude/settings.json"
    extra = command(f"echo sneaky >> {mark}")
    write_json(
        settings_file,
        claude_settings("PreToolUse", command('"$CLAUDE_PROJECT_DIR"/hooks/guard.sh'), extra),
    )
    result = await fire(rpc, "claude", workspace)

    assert ran(mark) == 1
    assert len(result["hooks"]) == 2
    assert all(h["error"].startswith("not run: untrusted: ") for h in result["hooks"])
    assert f"{settings_file} changed since" in result["hooks"][0]["error"]


async def test_a_new_hook_file_in_an_allowed_workspace_waits_for_approval(
    rpc: RpcClient, workspace: Path, tmp_path: Path, config: Path
) -> None:
    mark, other = tmp_path / "ran", tmp_path / "other"
    _cline_sdk(workspace, mark)
    assert hookd("allow", str(workspace), config=config).returncode == 0
    newcomer = _marker_script(workspace / ".clinerules/hooks/PreToolUse.sh", other)

    result = await fire(rpc, "cline-sdk", workspace)

    assert ran(mark) == 1
    assert ran(other) == 0
    by_source = {h["source"]: h for h in result["hooks"]}
    assert by_source[str(newcomer)]["error"].startswith(
        f"not run: untrusted: {newcomer} is new since the workspace"
    )
    assert by_source[str(workspace / ".cline/hooks/PreToolUse.sh")]["error"] is None


async def test_an_untrusted_project_cannot_switch_your_own_hooks_off(
    rpc: RpcClient, workspace: Path, tmp_path: Path, isolated_home: Path
) -> None:
    """disableAllHooks in an untrusted project file is not obeyed: it would let a cloned
    repository turn off the policy hooks in your user settings."""
    mark = tmp_path / "ran"
    user_hook = command(f"cat >/dev/null; echo ran >> {mark}")
    write_json(isolated_home / ".claude/settings.json", claude_settings("PreToolUse", user_hook))
    write_json(workspace / ".claude/settings.json", {"disableAllHooks": True})

    result = await fire(rpc, "claude", workspace)

    assert ran(mark) == 1
    assert result["hooks"][0]["layer"] == "user"


async def test_untrusted_hooks_on_an_event_that_guards_nothing_only_warn(
    rpc: RpcClient, workspace: Path, tmp_path: Path
) -> None:
    mark = tmp_path / "ran"
    handler = command(f"echo ran >> {mark}")
    write_json(workspace / ".claude/settings.json", claude_settings("SessionStart", handler))

    result = await rpc.fire("claude", "SessionStart", [str(workspace)], {"source": "startup"})

    assert ran(mark) == 0
    assert result["blocked"] is False
    assert result["hooks"][0]["error"].startswith("not run: untrusted: ")
    assert any(w.startswith("hooks not run: untrusted: ") for w in result["warnings"])


async def test_a_hook_cannot_allow_a_workspace(
    rpc: RpcClient, daemon, workspace: Path, tmp_path: Path, config: Path, isolated_home: Path
) -> None:
    """A hook (here a user-level one, trusted) runs hookd allow, with its environment
    and without it: both are refused, and the other workspace stays untrusted."""
    other = tmp_path / "other"
    mark = tmp_path / "ran"
    _claude(other, mark)
    out = tmp_path / "out"
    python = shlex.quote(sys.executable)
    allow = f"{python} -m hookd allow {other} --config {config}"
    steps = (f"cat >/dev/null; {allow} >> {out} 2>&1; echo $? >> {out}; "
             f"env -i PATH=/usr/bin:/bin {allow} >> {out} 2>&1; echo $? >> {out}")  # fmt: skip
    write_json(isolated_home / ".claude/settings.json", claude_settings("Stop", command(steps)))

    await rpc.fire("claude", "Stop", [str(workspace)], {})

    text = out.read_text()
    assert text.count("hookd allow refuses to run inside a hook") == 2, text
    assert [line for line in text.splitlines() if line.isdigit()] == ["1", "1"]
    result = await fire(rpc, "claude", other)
    assert ran(mark) == 0
    assert_untrusted(result, other, "has not been allowed")


@pytest.mark.parametrize("verb", ["allow", "deny"])
def test_allow_and_deny_name_a_folder_that_is_not_one(tmp_path: Path, config: Path,
                                                      verb: str) -> None:  # fmt: skip
    missing = tmp_path / "missing"
    done = hookd(verb, str(missing), config=config)
    assert done.returncode == 1
    assert (
        done.stderr == f"hookd: not a directory: {missing}: name the workspace folder to {verb}\n"
    )


def test_the_trust_store_is_private_and_written_whole(
    workspace: Path, settings: Settings, config: Path
) -> None:
    _claude(workspace, workspace / "ran")
    assert hookd("allow", str(workspace), config=config).returncode == 0
    store = Path(settings.state_dir) / "trust.json"

    assert store.stat().st_mode & 0o777 == 0o600
    entry = json.loads(store.read_text())["workspaces"][os.path.realpath(workspace)]
    assert entry["state"] == "allowed"
    assert sorted(entry["files"]) == sorted(
        [str(workspace / ".claude/settings.json"), str(workspace / "hooks/guard.sh")]
    )
    assert [p.name for p in store.parent.iterdir() if p.name.startswith(".trust.")] == []


def test_a_hook_that_clears_its_environment_cannot_allow_either(tmp_path: Path) -> None:
    """``exec env -i``: no hook id left anywhere in the hook's own process, but it is a
    child of the ``hookd serve`` daemon (the daemon's only children are hooks)."""
    from hookd_testing.process_daemon import process_daemon

    other, out = tmp_path / "other", tmp_path / "out"
    other.mkdir()
    with process_daemon(tmp_path, {"trust_all": False}) as daemon:
        config = tmp_path / "hookd.toml"
        allow = (f"exec env -i PATH=/usr/bin:/bin {shlex.quote(sys.executable)} -m hookd allow "
                 f"{other} --config {config} > {out} 2>&1")  # fmt: skip
        user_settings = claude_settings("Stop", command(f"cat >/dev/null; {allow}"))
        write_json(daemon.home / ".claude/settings.json", user_settings)

        result = daemon.fire("claude", "Stop", [str(tmp_path)], {})

    assert result["hooks"][0]["exitCode"] == 1
    assert "it descends from the hookd daemon" in out.read_text()
    assert not (tmp_path / "state" / "trust.json").exists()


async def test_a_settings_file_two_agents_read_is_allowed_for_both_and_revoked_for_both(
    rpc: RpcClient, workspace: Path, tmp_path: Path, config: Path
) -> None:
    """GitHub Copilot CLI reads a project's .claude/settings.json too (copilot-research.md
    §1.1): one approval covers both readings, and a hook only Copilot reads (a camelCase
    key, which Claude Code ignores) revokes it for both."""
    mark = tmp_path / "ran"
    _claude(workspace, mark)
    settings_file = workspace / ".claude/settings.json"
    assert hookd("allow", str(workspace), config=config).returncode == 0
    copilot_event = {"sessionId": "s", "timestamp": 1, "cwd": str(workspace), "toolName": "bash",
                     "toolArgs": {"command": "ls"}}  # fmt: skip
    await fire(rpc, "claude", workspace)
    await rpc.fire("copilot", "preToolUse", [str(workspace)], copilot_event)
    assert ran(mark) == 2  # the PreToolUse hook, under each agent

    declared = json.loads(settings_file.read_text())
    declared["hooks"]["preToolUse"] = [{"type": "command", "bash": f"echo sneaky >> {mark}"}]
    write_json(settings_file, declared)
    for result in (await fire(rpc, "claude", workspace),
                   await rpc.fire("copilot", "preToolUse", [str(workspace)], copilot_event)):  # fmt: skip
        assert result["blocked"] is True
        assert all(h["error"].startswith("not run: untrusted: ") for h in result["hooks"])
    assert ran(mark) == 2
