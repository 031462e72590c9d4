"""The relay entries ``hookd adopt`` writes name this installation's ``hookd-relay`` by its
absolute path: an agent whose ``PATH`` lacks hookd's virtualenv still runs it (a bare
``hookd-relay`` would fail to start, exit 127, which the agents read as a failing hook:
the adopted guard would never run and the action would go on). Each agent's entry is run
here as that agent runs it, with a ``PATH`` of the system folders only."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import trio

from hookd.daemon.cli import relay_program
from hookd.daemon.dialects import relay_entries
from hookd.daemon.settings import Settings
from hookd_testing import write_executable, write_json

HOOKD = [sys.executable, "-m", "hookd"]
PYTHON_RELAY = str(Path(sys.executable).parent / "hookd-relay")
RELAY = relay_program.relay_path()
"""What the entries name by default: the native relay where it is installed."""
DENY = {"type": "command", "command": "echo adopted-guard >&2; exit 2"}


def adopt(agent: str, home: str, project: Path, scope: str, relay: str = "native") -> str:
    done = subprocess.run([*HOOKD, "adopt", "--agent", agent, "--scope", scope, "--home", home,
                           "--project", str(project)], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "HOOKD_RELAY": relay})  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def agent_env(settings: Any, **more: str) -> dict[str, str]:
    """The agent's environment: hookd's socket, and a PATH without hookd's virtualenv."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOOKD_")}
    return {**env, "HOOKD_SOCKET": settings.socket_path, "HOME": settings.home,
            "HOOKD_NO_SPAWN": "1", "PATH": "/usr/bin:/bin", **more}  # fmt: skip


async def run(argv: list[str], event: dict[str, Any], env: dict[str, str]) -> Any:
    return await trio.run_process(argv, stdin=json.dumps(event).encode(), env=env,
                                  capture_stdout=True, capture_stderr=True, check=False)  # fmt: skip


def entry_relay(relay_name: str) -> str:
    """The relay that entries name when ``hookd adopt`` runs with ``HOOKD_RELAY``."""
    return PYTHON_RELAY if relay_name == "python" else relay_program.relay_path()


def adopted_deny(
    settings: Settings, workspace: Path, agent: str, folder: str, matcher: str, relay: str
) -> dict[str, Any]:
    """The relay entry ``adopt`` leaves in the agent's user settings (``~/<folder>``) for
    a PreToolUse hook that denies (``DENY``)."""
    path = Path(settings.home) / folder / "settings.json"
    write_json(path, {"hooks": {"PreToolUse": [{"matcher": matcher, "hooks": [DENY]}]}})
    adopt(agent, settings.home, workspace, "user", relay)
    [entry] = json.loads(path.read_text())["hooks"]["PreToolUse"][0]["hooks"]
    return dict(entry)


def test_the_relay_of_this_installation_is_found() -> None:
    """The native relay where it is installed and runs, else the console script."""
    native = relay_program.native_relay()
    assert relay_program.relay_path() == (native or PYTHON_RELAY)
    assert relay_program.python_relay() == PYTHON_RELAY
    for path in (relay_program.relay_path(), PYTHON_RELAY):
        assert os.access(path, os.X_OK)


async def test_claude_entry_runs_without_hookd_on_path(relay_name, rpc, settings,
                                                       workspace) -> None:  # fmt: skip
    entry = adopted_deny(settings, workspace, "claude", ".claude", "Bash", relay_name)
    assert entry["command"] == f"{entry_relay(relay_name)} claude"

    event = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(workspace),
             "tool_input": {"command": "ls"}}  # fmt: skip
    done = await run(["sh", "-c", entry["command"]], event, agent_env(settings))

    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    assert answer["permissionDecisionReason"] == "adopted-guard"


async def test_cline_relay_file_runs_without_hookd_on_path(relay_name, rpc, settings,
                                                           workspace) -> None:  # fmt: skip
    from hookd.daemon.dialects.cline.dialect import documents_folder

    hooks = Path(documents_folder(settings.home)) / "Cline" / "Hooks"
    write_executable(hooks / "PreToolUse",
                     "#!/bin/sh\necho '{\"cancel\": true, \"errorMessage\": \"ws no\"}'\n")  # fmt: skip
    adopt("cline", settings.home, workspace, "user", relay_name)
    relay_file = (hooks / "PreToolUse").read_text()
    assert f'exec {entry_relay(relay_name)} cline "$0"' in relay_file

    event = {"clineVersion": "3.82.0", "hookName": "PreToolUse", "timestamp": "1",
             "taskId": "t", "workspaceRoots": [str(workspace)],
             "preToolUse": {"toolName": "execute_command", "parameters": {"command": "ls"}}}  # fmt: skip
    done = await run([str(hooks / "PreToolUse")], event, agent_env(settings))

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["cancel"] is True


async def test_augment_entry_runs_without_hookd_on_path(relay_name, rpc, settings,
                                                        workspace) -> None:  # fmt: skip
    entry = adopted_deny(settings, workspace, "augment", ".augment", "launch-process",
                         relay_name)  # fmt: skip
    assert entry["command"] == entry_relay(relay_name)

    event = {"hook_event_name": "PreToolUse", "tool_name": "launch-process",
             "tool_input": {"command": "ls"}, "workspace_roots": [str(workspace)]}  # fmt: skip
    done = await run([entry["command"], *entry["args"]], event, agent_env(settings))

    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny"
    assert "adopted-guard" in answer["permissionDecisionReason"]


def test_every_form_of_the_entry_is_recognised(tmp_path: Path) -> None:
    """Old bare entries, absolute paths, and quoted paths with spaces: hookd's own."""
    spaced = "/opt/my tools/bin/hookd-relay"
    for command in ("hookd-relay claude", f"{PYTHON_RELAY} claude", f"{RELAY} claude",
                    f"{shlex.quote(spaced)} claude", spaced):  # fmt: skip
        assert relay_entries.is_relay_command(command), command
    assert not relay_entries.is_relay_command("/bin/hookd-relayer claude")
    for line in ('exec hookd-relay cline "$0"', f'exec {PYTHON_RELAY} cline "$0"',
                 f'exec {RELAY} cline "$0"',
                 f'exec {shlex.quote(spaced)} cline-sdk "$0"'):  # fmt: skip
        path = tmp_path / "PreToolUse"
        path.write_text(f"#!/bin/sh\n{line}\n")
        os.utime(path, ns=(len(line), len(line)))  # a new stat signature per form
        assert relay_entries.is_relay_file(str(path)), line
    path.write_text("#!/bin/sh\necho hookd-relay is mentioned\n")
    os.utime(path, ns=(1, 1))
    assert not relay_entries.is_relay_file(str(path))


def test_warnings_name_paths_the_agent_may_not_run() -> None:
    # Not RELAY itself: a checkout under /tmp (as CI may make) is rightly warned about.
    assert relay_program.warnings("/opt/hookd/.venv/bin/hookd-relay") == []
    assert "quote" in relay_program.warnings("/opt/my tools/bin/hookd-relay")[0]
    assert "temporary folder" in relay_program.warnings("/tmp/venv/bin/hookd-relay")[0]
    assert "bare 'hookd-relay'" in relay_program.warnings("hookd-relay")[0]


def test_install_rewrites_entries_of_older_versions(tmp_path: Path) -> None:
    """A bare ``hookd-relay`` entry (what older versions wrote) is hookd's own: ``relay
    install`` writes this installation's path in its place, once."""
    home, project = tmp_path / "home", tmp_path / "proj"
    project.mkdir()
    claude = home / ".claude" / "settings.json"
    write_json(claude, {"hooks": {"Stop": [{"hooks": [DENY]}]}})
    cline = home / "Cline" / "Hooks" / "TaskStart"
    write_executable(cline, "#!/bin/sh\necho '{}'\n")
    where = ["--home", str(home), "--project", str(project)]
    for agent in ("claude", "cline"):
        done = subprocess.run([*HOOKD, "adopt", "--agent", agent, *where], capture_output=True,
                              text=True, timeout=60)  # fmt: skip
        assert done.returncode == 0, done.stderr
    claude.write_text(claude.read_text().replace(f"{RELAY} claude", "hookd-relay claude"))
    cline.write_text(cline.read_text().replace(f"exec {RELAY} ", "exec hookd-relay "))

    for agent in ("claude", "cline"):
        done = subprocess.run([*HOOKD, "relay", "install", "--agent", agent, *where],
                              capture_output=True, text=True, timeout=60)  # fmt: skip
        assert done.returncode == 0, done.stderr

    [entry] = json.loads(claude.read_text())["hooks"]["Stop"][0]["hooks"]
    assert entry["command"] == f"{RELAY} claude"
    assert f'exec {RELAY} cline "$0"' in cline.read_text()
    assert "exec hookd-relay" not in cline.read_text()
