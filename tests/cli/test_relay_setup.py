"""``hookd adopt`` / ``unadopt`` / ``relay install`` / ``relay uninstall`` on real files,
through the real ``hookd`` command (issue 12)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookd_testing.relays import ENTRY_RELAY

HOOKD = [sys.executable, "-m", "hookd"]
RELAY = ENTRY_RELAY
"""The relay entries name this installation's hookd-relay by its path."""
BLOCK = {"type": "command", "command": "echo no >&2; exit 2", "timeout": 5}
ASYNC = {"type": "command", "command": "echo later", "async": True}
HTTP = {"type": "http", "url": "http://127.0.0.1:9/hook"}
STOP = {"type": "command", "command": "true"}
AGENT_SETTINGS = {
    "model": "sonnet",
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [BLOCK, ASYNC, HTTP]}],
        "Stop": [{"hooks": [STOP]}],
    },
}


def hookd(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, *args, "--agent", "claude", "--home", str(home)],
                          capture_output=True, text=True, timeout=60)  # fmt: skip


def read(path: Path) -> Any:
    return json.loads(path.read_text())


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps(AGENT_SETTINGS))
    settings.chmod(0o640)
    return home


def test_adopt_hands_command_hooks_over_and_puts_the_relay_in_their_place(home: Path) -> None:
    done = hookd(home, "adopt")

    assert done.returncode == 0, done.stderr
    agent = read(home / ".claude" / "settings.json")
    owned = read(home / ".config" / "hookd" / "claude" / "settings.json")
    assert owned["hooks"] == {"PreToolUse": [{"matcher": "Bash", "hooks": [BLOCK]}],
                              "Stop": [{"hooks": [STOP]}]}  # fmt: skip
    relay = {"type": "command", "command": f"{RELAY} claude"}
    assert agent["hooks"]["PreToolUse"] == [
        {"matcher": "Bash", "hooks": [ASYNC, HTTP]},  # hookd cannot run these for the agent
        # the relay only for the tools the adopted hooks are for (not every Read and Grep)
        {"matcher": "Bash", "hooks": [{**relay, "timeout": 15.0}]},
    ]
    assert agent["hooks"]["Stop"] == [{"hooks": [{**relay, "timeout": 610.0}]}]
    assert agent["model"] == "sonnet"
    assert "an async hook answers after the relay has returned" in done.stdout
    assert read(home / ".claude" / "settings.json.hookd.bak") == AGENT_SETTINGS
    assert (home / ".claude" / "settings.json").stat().st_mode & 0o777 == 0o640


def test_adopt_twice_changes_nothing_and_dry_run_writes_nothing(home: Path) -> None:
    dry = hookd(home, "adopt", "--dry-run")
    assert dry.returncode == 0
    assert "+++ " in dry.stdout
    assert f"{RELAY} claude" in dry.stdout
    assert read(home / ".claude" / "settings.json") == AGENT_SETTINGS
    assert not (home / ".config" / "hookd").exists()

    assert hookd(home, "adopt").returncode == 0
    before = (home / ".claude" / "settings.json").read_text()
    again = hookd(home, "adopt")

    assert "nothing to change" in again.stdout
    assert (home / ".claude" / "settings.json").read_text() == before


def test_unadopt_gives_every_hook_back_and_removes_the_relay(home: Path) -> None:
    assert hookd(home, "adopt").returncode == 0

    done = hookd(home, "unadopt")

    assert done.returncode == 0, done.stderr
    agent = read(home / ".claude" / "settings.json")
    handlers = [h for groups in agent["hooks"].values() for g in groups for h in g["hooks"]]
    assert sorted(map(json.dumps, handlers)) == sorted(map(json.dumps, [BLOCK, ASYNC, HTTP, STOP]))
    assert not (home / ".config" / "hookd").exists()  # hookd's emptied file and folders


@pytest.mark.parametrize("agent", ["claude", "augment"])
@pytest.mark.parametrize("scope", ["user", "project"])
def test_unadopt_removes_the_hookd_owned_files_it_empties(tmp_path: Path, agent: str,
                                                          scope: str) -> None:  # fmt: skip
    """Nothing of hookd's is left behind: the owned file, its backups, its folders."""
    home, project = tmp_path / "home", tmp_path / "proj"
    base = home if scope == "user" else project
    settings = base / f".{agent}" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"hooks": [STOP]}]}}))
    home.mkdir(exist_ok=True)
    where = ["--agent", agent, "--scope", scope, "--home", str(home), "--project", str(project)]
    (project / ".hookd").mkdir(parents=True, exist_ok=True)
    (project / ".hookd" / "keep.txt").write_text("the user's")  # not hookd's to remove
    for command in ("adopt", "adopt", "relay install"):  # a second write makes backups
        done = subprocess.run([*HOOKD, *command.split(), *where], capture_output=True,
                              text=True, timeout=60)  # fmt: skip
        assert done.returncode == 0, done.stderr
    owned = (home / ".config" / "hookd" if scope == "user" else project / ".hookd") / agent
    assert (owned / "settings.json").exists()

    done = subprocess.run([*HOOKD, "unadopt", *where], capture_output=True, text=True,
                          timeout=60)  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert not owned.exists(), sorted(owned.iterdir())
    assert not (home / ".config" / "hookd").exists()
    assert (project / ".hookd" / "keep.txt").read_text() == "the user's"
    assert json.loads(settings.read_text()) == {"hooks": {"PreToolUse": [{"hooks": [STOP]}]}}


def test_relay_uninstall_and_install(home: Path) -> None:
    assert hookd(home, "adopt").returncode == 0

    gone = hookd(home, "relay", "uninstall")
    assert "will not run inside the agent" in gone.stdout
    assert "hookd-relay" not in (home / ".claude" / "settings.json").read_text()

    back = hookd(home, "relay", "install")
    assert "relaying PreToolUse, Stop" in back.stdout
    assert (home / ".claude" / "settings.json").read_text().count(f"{RELAY} claude") == 2


def test_a_file_that_is_not_json_is_left_alone_with_a_message(home: Path) -> None:
    settings = home / ".claude" / "settings.json"
    settings.write_text("{not json")

    done = hookd(home, "adopt")

    assert done.returncode == 1
    assert "is not valid JSON" in done.stderr
    assert "fix it first" in done.stderr
    assert settings.read_text() == "{not json"


def test_project_scope_says_to_allow_the_workspace(home: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text(json.dumps(AGENT_SETTINGS))

    done = hookd(home, "adopt", "--scope", "project", "--project", str(project))

    assert done.returncode == 0, done.stderr
    assert (project / ".hookd" / "claude" / "settings.json").exists()
    assert "hookd allow" in done.stdout
    assert not os.path.exists(home / ".config" / "hookd")


def test_a_file_with_nothing_to_change_is_left_as_written(tmp_path: Path) -> None:
    """No hooks to hand over: the agent's file keeps its own formatting, no backup."""
    home = tmp_path / "home"
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{"model":"x"}')

    done = hookd(home, "adopt")

    assert "nothing to change" in done.stdout
    assert settings.read_text() == '{"model":"x"}'
    assert not (home / ".claude" / "settings.json.hookd.bak").exists()


def test_the_original_file_is_kept_and_given_back_byte_for_byte(home: Path) -> None:
    """The file before hookd first changed it stays in .hookd.orig through every later
    write (.hookd.bak is only the last version); unadopt gives back its exact bytes."""
    settings = home / ".claude" / "settings.json"
    original = ('{\n    "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": ['
                + json.dumps(BLOCK) + ']}]},\n    "model":   "sonnet"\n}')  # fmt: skip
    settings.write_text(original)

    assert hookd(home, "adopt").returncode == 0
    assert hookd(home, "relay", "uninstall").returncode == 0
    assert hookd(home, "relay", "install").returncode == 0
    assert (home / ".claude" / "settings.json.hookd.orig").read_text() == original
    assert read(home / ".claude" / "settings.json.hookd.bak") == {"model": "sonnet"}  # the last

    done = hookd(home, "unadopt")

    assert done.returncode == 0, done.stderr
    assert settings.read_text() == original
    assert settings.stat().st_mode & 0o777 == 0o640
    assert not (home / ".claude" / "settings.json.hookd.orig").exists()  # its job is done


@pytest.mark.parametrize("agent", ["claude", "cline-sdk", "cline", "augment"])
@pytest.mark.parametrize("option", ["--project", "--home"])
def test_a_project_or_home_that_is_not_a_folder_is_an_error(tmp_path: Path, agent: str,
                                                            option: str) -> None:  # fmt: skip
    """Not "no hooks to hand over": a mistyped folder says so and changes nothing."""
    missing = tmp_path / "nope"
    folders = {"--project": str(tmp_path), "--home": str(tmp_path), option: str(missing)}
    done = subprocess.run([*HOOKD, "adopt", "--agent", agent, "--scope", "project",
                           *(x for pair in folders.items() for x in pair)],
                          capture_output=True, text=True, timeout=60)  # fmt: skip

    assert done.returncode == 1
    assert f"{option} {missing} does not exist" in done.stderr
    assert "no hooks to hand over" not in done.stdout
    assert not missing.exists()


def test_what_adopt_and_unadopt_say(tmp_path: Path) -> None:
    """The exact command that lets hookd run a project's hooks; "already adopted" the
    second time; what was done in the past tense; unadopt says the workspace needs
    another 'hookd allow'."""
    home, project = tmp_path / "home", tmp_path / "proj"
    home.mkdir(exist_ok=True)
    write = project / ".claude" / "settings.json"
    write.parent.mkdir(parents=True)
    write.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [STOP]}]}}))
    hook = project / ".clinerules" / "hooks" / "PreToolUse"
    hook.parent.mkdir(parents=True)
    hook.write_text("#!/bin/sh\necho '{}'\n")
    hook.chmod(0o755)

    def run(command: str, agent: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*HOOKD, *command.split(), "--agent", agent, "--scope", "project",
                               "--home", str(home), "--project", str(project)],
                              capture_output=True, text=True, timeout=60)  # fmt: skip

    first = run("adopt", "claude")
    assert f"run 'hookd allow {project}' so that hookd runs them" in first.stdout
    again = run("adopt", "claude")
    assert "already adopted" in again.stdout
    assert "no hooks to hand over" not in again.stdout

    cline = run("adopt", "cline")
    assert f"hookd: placed {hook} at " in cline.stdout
    assert f"hookd: wrote {hook} (mode 755)" in cline.stdout
    assert "hookd: place " not in cline.stdout
    assert "hookd: write " not in cline.stdout
    assert "already adopted" in run("adopt", "cline").stdout

    back = run("unadopt", "claude")
    assert f"run 'hookd allow {project}'" in back.stdout


@pytest.mark.parametrize("agent", ["claude", "cline", "cline-sdk", "augment"])
def test_install_with_nothing_adopted_is_an_error(tmp_path: Path, agent: str) -> None:
    config = tmp_path / "hookd.toml"
    config.write_text(f'state_dir = "{tmp_path / "state"}"\n')
    extra = ["--http", "--config", str(config)] if agent == "claude" else []
    for http in ([], extra) if extra else ([],):
        done = subprocess.run([*HOOKD, "relay", "install", *http, "--agent", agent,
                               "--home", str(tmp_path)], capture_output=True, text=True,
                              timeout=60)  # fmt: skip
        assert done.returncode == 1, (http, done.stdout)
        assert "nothing is adopted in" in done.stderr
        # the exact command, as this run names the agent and the folders
        assert f"run 'hookd adopt --agent {agent} --home {tmp_path}' first" in done.stderr
