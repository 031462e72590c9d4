"""``hookd-relay`` for Cline's two runners and Augment, against a real daemon, with the
hooks handed over by the real ``hookd adopt`` (issue 12): each relay entry runs the
adopted hooks it stands for and no other, hookd never runs a relay entry, and the relay
answers in each agent's vocabulary, also when it cannot reach hookd."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import trio

from hookd_testing import write_executable, write_json


def counting(name: str, out: Path, answer: str = "", code: int = 0) -> str:
    """A hook that notes each run (and its stdin) under ``out``, then answers."""
    return (f'#!/bin/sh\ncat > "{out}/{name}.stdin"\necho {name} >> "{out}/runs"\n'
            f"printf '%s' '{answer}'\nexit {code}\n")  # fmt: skip


def runs(out: Path) -> list[str]:
    path = out / "runs"
    return sorted(path.read_text().split()) if path.exists() else []


def adopt(agent: str, home: str, project: Path, *scopes: str, relay: str = "native") -> None:
    """``hookd adopt``, its entries running the ``relay`` relay (``HOOKD_RELAY``)."""
    for scope in scopes:
        done = subprocess.run([sys.executable, "-m", "hookd", "adopt", "--agent", agent,
                               "--scope", scope, "--home", home, "--project", str(project)],
                              capture_output=True, text=True, timeout=60,
                              env={**os.environ, "HOOKD_RELAY": relay})  # fmt: skip
        assert done.returncode == 0, done.stderr


async def run(relay: list[str], argv: list[str], event: dict[str, Any], env: dict[str, str]) -> Any:
    return await trio.run_process([*relay, *argv] if argv[0] != "file" else argv[1:],
                                  stdin=json.dumps(event).encode(), env=env,
                                  capture_stdout=True, capture_stderr=True, check=False)  # fmt: skip


def agent_env(settings: Any, **more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOOKD_")}
    return {**env, "HOOKD_SOCKET": settings.socket_path, "HOME": settings.home,
            "PATH": f"{Path(sys.executable).parent}:{env['PATH']}", **more}  # fmt: skip


# -- Cline's original runner and the SDK ------------------------------------------------


@pytest.fixture
def cline_places(relay_name, settings: Any, workspace: Path, tmp_path: Path) -> dict[str, Path]:
    """A PreToolUse hook in the global folder and one in the workspace's, adopted."""
    from hookd.daemon.dialects.cline.dialect import documents_folder

    out = tmp_path / "out"
    out.mkdir()
    folders = {"global": Path(documents_folder(settings.home)) / "Cline" / "Hooks",
               "workspace": workspace / ".clinerules" / "hooks"}  # fmt: skip
    write_executable(folders["global"] / "PreToolUse",
                     counting("global", out, '{"contextModification": "from global"}'))  # fmt: skip
    write_executable(folders["workspace"] / "PreToolUse",
                     counting("workspace", out, '{"cancel": true, "errorMessage": "ws no"}'))  # fmt: skip
    write_executable(folders["workspace"] / "PreToolUse.sh", counting("sdk-only", out))
    adopt("cline", settings.home, workspace, "user", "project", relay=relay_name)
    return {"out": out, **folders}


def cline_event(workspace: Path, hook_name: str = "PreToolUse") -> dict[str, Any]:
    return {"clineVersion": "3.82.0", "hookName": hook_name, "timestamp": "1", "taskId": "t",
            "workspaceRoots": [str(workspace)],
            "preToolUse": {"toolName": "execute_command", "parameters": {"command": "ls"}}}  # fmt: skip


async def test_each_cline_relay_file_runs_its_own_folders_hooks(
    relay, rpc, settings, workspace, cline_places
) -> None:
    """The agent runs the global folder's relay file and the workspace's: each relay
    fire runs that folder's adopted hook, so each hook runs once, and each relay answers
    as that one hook did."""
    env = agent_env(settings)
    event = cline_event(workspace)

    answers = [await run(relay, ["file", str(cline_places[f] / "PreToolUse")], event, env)
               for f in ("global", "workspace")]  # fmt: skip

    assert [a.returncode for a in answers] == [0, 0]
    assert json.loads(answers[0].stdout)["contextModification"] == "from global"
    assert json.loads(answers[1].stdout)["cancel"] is True
    assert json.loads(answers[1].stdout)["errorMessage"] == "ws no"
    assert runs(cline_places["out"]) == ["global", "workspace"]


async def test_a_direct_fire_runs_the_adopted_hooks_and_no_relay_file(
    rpc, settings, workspace, cline_places
) -> None:
    result = await rpc.fire("cline", "PreToolUse", [str(workspace)], cline_event(workspace))

    assert all(".config/hookd/cline" in h["source"] or ".hookd/cline" in h["source"]
               for h in result["hooks"])  # fmt: skip
    assert len(result["hooks"]) == 2
    assert runs(cline_places["out"]) == ["global", "workspace"]


async def test_the_sdk_running_the_same_relay_file_gets_the_sdks_hooks(
    relay, rpc, settings, workspace, cline_places
) -> None:
    """Both runners read .clinerules/hooks: the SDK runs the relay file too (its event
    names itself tool_call), and the relay fires the SDK's hooks of that folder (the
    SDK's rules: PreToolUse and PreToolUse.sh), answering in the SDK's words."""
    event = {**cline_event(workspace, "tool_call"), "tool_call": {"name": "run_commands"}}

    done = await run(relay, ["file", str(cline_places["workspace"] / "PreToolUse")], event,
                     agent_env(settings))  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"cancel": True, "errorMessage": "ws no"}
    assert runs(cline_places["out"]) == ["sdk-only", "workspace"]


async def test_a_failing_cline_hook_fails_the_relay(
    relay, relay_name, rpc, settings, workspace, tmp_path
) -> None:
    """cline 2.18.0 drops every answer of an event when one hook fails: the relay exits
    1, so the agent drops its other hooks' answers too."""
    out = tmp_path / "out"
    out.mkdir()
    hooks = workspace / ".clinerules" / "hooks"
    write_executable(hooks / "PreToolUse", counting("broken", out, code=3))
    adopt("cline", settings.home, workspace, "project", relay=relay_name)

    done = await run(relay, ["file", str(hooks / "PreToolUse")], cline_event(workspace),
                     agent_env(settings))  # fmt: skip

    assert done.returncode == 1
    assert b"exited with code 3" in done.stderr
    assert done.stdout == b""


# -- Augment --------------------------------------------------------------------------------


async def test_an_augment_relay_group_runs_its_matchers_adopted_hooks(
    relay, relay_name, rpc, settings, workspace, tmp_path
) -> None:
    """Two matchers adopted: the relay of each runs that matcher's hooks only; a command
    auggie still runs itself is not run again; the private field the agent's own group
    opted in to (auggie's one payload per event) reaches the adopted hook."""
    out = tmp_path / "out"
    out.mkdir()
    scripts = {n: write_executable(tmp_path / f"{n}.sh", counting(n, out))
               for n in ("launch", "view", "shared")}  # fmt: skip
    own = workspace / ".augment" / "settings.json"
    write_json(own, {"hooks": {"PreToolUse": [
        {"matcher": "launch-process", "hooks": [{"type": "command", "command": str(scripts["launch"])},
                                                {"type": "command", "command": str(scripts["shared"])}]},
        {"matcher": "view", "hooks": [{"type": "command", "command": str(scripts["view"])}]}]}})  # fmt: skip
    adopt("augment", settings.home, workspace, "project", relay=relay_name)
    write_json(Path(settings.home) / ".augment" / "settings.json", {"hooks": {"PreToolUse": [
        {"matcher": "launch-process", "metadata": {"includeUserContext": True},
         "hooks": [{"type": "command", "command": str(scripts["shared"])}]}]}})  # fmt: skip
    event = {"hook_event_name": "PreToolUse", "tool_name": "launch-process", "context": "ctx",
             "workspace_roots": [str(workspace)], "tool_input": {"command": "ls"}}  # fmt: skip

    done = await run(relay, ["augment", "launch-process"], event, agent_env(settings))

    assert done.returncode == 0, done.stderr
    assert runs(out) == ["launch"]  # not view's; not shared, which auggie runs itself
    assert json.loads((out / "launch.stdin").read_text())["context"] == "ctx"
    local = own.with_name("settings.local.json")  # a project's relay groups: this machine's
    relayed = json.loads(local.read_text())["hooks"]["PreToolUse"]
    assert [g["hooks"][0]["args"] for g in relayed] == [["augment", "launch-process"],
                                                        ["augment", "view"]]  # fmt: skip


async def test_a_direct_augment_fire_runs_the_adopted_hooks_and_no_relay_group(
    relay_name, rpc, settings, workspace, tmp_path
) -> None:
    """After adopt, auggie's settings file holds the relay group only: a fire that is not
    the relay's runs the adopted hook once and never the relay (it would call itself)."""
    out = tmp_path / "out"
    out.mkdir()
    script = write_executable(tmp_path / "a.sh", counting("a", out))
    write_json(workspace / ".augment" / "settings.json", {"hooks": {"PreToolUse": [
        {"matcher": ".*", "hooks": [{"type": "command", "command": str(script)}]}]}})  # fmt: skip
    adopt("augment", settings.home, workspace, "project", relay=relay_name)
    event = {"tool_name": "launch-process", "tool_input": {}}

    result = await rpc.fire("augment", "PreToolUse", [str(workspace)], event)

    assert [h["command"] for h in result["hooks"]] == [str(script)]
    assert runs(out) == ["a"]


# -- when hookd cannot be reached -------------------------------------------------------------


@pytest.mark.parametrize(("agent", "policy", "code", "answer"), [
    ("claude", "continue", 1, None), ("claude", "block", 2, None),
    ("cline", "continue", 1, None), ("cline", "block", 0, "cancel"),
    ("cline-sdk", "continue", 1, "context"), ("cline-sdk", "block", 0, "cancel"),
    ("augment", "continue", 1, None), ("augment", "block", 2, None),
])  # fmt: skip
async def test_no_daemon_answers_as_a_failing_or_blocking_hook_of_that_agent(
    relay, short_dir, tmp_path, agent, policy, code, answer
) -> None:
    """Each agent's failing hook lets the action go on (exit 1); block is exit 2 where
    the agent blocks on it, a cancel answer where only JSON blocks (Cline). The Cline
    SDK shows a hook's stderr nowhere: there the line goes on as a context the model is
    sent (``tests/agents/cline_sdk/test_relay_agent.py`` shows it)."""
    env = {**os.environ, "HOOKD_SOCKET": str(short_dir / "none.sock"), "HOOKD_NO_SPAWN": "1",
           "HOOKD_RELAY_ON_ERROR": policy, "HOME": str(tmp_path)}  # fmt: skip
    # each Cline runner's own name for the event (one relay file serves both)
    name = "tool_call" if agent == "cline-sdk" else "PreToolUse"
    event = {"hook_event_name": "PreToolUse", "hookName": name, "cwd": str(tmp_path)}
    entry = [str(tmp_path / "PreToolUse")] if agent.startswith("cline") else []

    done = await run(relay, [agent, *entry], event, env)

    assert done.returncode == code
    line = done.stderr.decode().strip()
    assert line.startswith("hookd-relay: hookd is not running"), line
    if answer == "cancel":
        assert json.loads(done.stdout)["cancel"] is True
        assert json.loads(done.stdout)["errorMessage"] == line
    elif answer == "context":
        assert json.loads(done.stdout) == {"context": line}
    else:
        assert done.stdout == b""
