"""``hookd adopt`` at a project's scope in a real git repository (issue 29): nothing of
this machine in the files a team shares, what to commit and what to ignore (and
``--gitignore``), backups gone after ``unadopt``, undo lines that name the exact command,
and relay entries that keep the union of the adopted hooks' matchers, for every agent.
``git status --porcelain`` says what stays dirty."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookd_testing import write_executable, write_json
from hookd_testing.relays import ENTRY_RELAY

HOOKD = [sys.executable, "-m", "hookd"]
GUARD = {"type": "command", "command": "./guard.sh", "timeout": 5}
EDIT = {"type": "command", "command": "./edit.sh", "timeout": 5}


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """git and hookd with a home of the test's own (no one's global git config)."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
            "GIT_CONFIG_NOSYSTEM": "1"}  # fmt: skip


def git(repo: Path, env: dict[str, str], *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                          env=env, timeout=60, check=True)  # fmt: skip
    return done.stdout


def dirty(repo: Path, env: dict[str, str]) -> set[str]:
    return set(git(repo, env, "status", "--porcelain").splitlines())


def repo_with(tmp_path: Path, env: dict[str, str], files: dict[str, Any]) -> Path:
    """A git repository whose first commit holds ``files`` (JSON)."""
    repo = tmp_path / "proj"
    for name, data in files.items():
        write_json(repo / name, data)
    git(repo, env, "init", "-q")
    git(repo, env, "-c", "user.name=t", "-c", "user.email=t@t", "add", "-A")
    git(repo, env, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "first")
    return repo


def hookd(env: dict[str, str], repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([*HOOKD, *args, "--project", str(repo), "--home", env["HOME"]],
                          capture_output=True, text=True, env=env, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done


def leftovers(repo: Path) -> list[str]:
    """hookd's backups anywhere in the repository."""
    return sorted(str(p.relative_to(repo)) for p in repo.rglob("*.hookd.*"))


@pytest.mark.parametrize("agent", ["claude", "augment"])
def test_a_teams_adoption_leaves_this_machine_out_of_the_shared_files(
    tmp_path: Path, env: dict[str, str], agent: str
) -> None:
    """Claude Code and auggie read a local settings file a team does not share: the
    relay entries go there, and the rest is the team's to commit."""
    shared = f".{agent}/settings.json"
    original = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [GUARD]}]}}
    repo = repo_with(tmp_path, env, {shared: original})
    first = (repo / shared).read_bytes()

    done = hookd(env, repo, "adopt", "--agent", agent, "--scope", "project", "--gitignore")

    assert dirty(repo, env) == {f" M {shared}", "?? .gitignore", "?? .hookd/"}
    for path in (repo / shared, repo / ".hookd" / agent / "settings.json"):
        assert ENTRY_RELAY not in path.read_text(), path  # nothing of this machine
    assert ENTRY_RELAY in (repo / f".{agent}" / "settings.local.json").read_text()
    assert f"for git: commit {shared}, .hookd/{agent}/settings.json" in done.stdout
    teammate = f"hookd relay install --agent {agent} --scope project"
    assert teammate in done.stdout
    assert (repo / ".gitignore").read_text().splitlines()[1:] == [
        f"/.{agent}/settings.local.json", "*.hookd.bak", "*.hookd.orig"]  # fmt: skip

    git(repo, env, "add", "-A")
    git(repo, env, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "adopt")
    hookd(env, repo, "relay", "install", "--agent", agent, "--scope", "project")
    assert dirty(repo, env) == set()  # a teammate's own entries change nothing shared

    back = hookd(env, repo, "unadopt", "--agent", agent, "--scope", "project")

    assert (repo / shared).read_bytes() == first
    assert not (repo / f".{agent}" / "settings.local.json").exists()  # hookd made it
    assert leftovers(repo) == []
    assert dirty(repo, env) == {f" M {shared}", f" D .hookd/{agent}/settings.json"}
    assert "removed " in back.stdout


def test_an_agent_without_a_local_file_keeps_the_adoption_yours(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """Gemini CLI reads no un-shared settings file: hookd says the shared file now names
    this machine, how to keep it out of commits, and to ignore the hookd-owned folder."""
    shared = ".gemini/settings.json"
    original = {"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [GUARD]}]}}
    repo = repo_with(tmp_path, env, {shared: original})
    first = (repo / shared).read_bytes()

    done = hookd(env, repo, "adopt", "--agent", "gemini", "--scope", "project", "--gitignore")

    assert "gemini reads no settings file of its own that a team does not share" in done.stdout
    assert dirty(repo, env) == {f" M {shared}", "?? .gitignore"}
    hide = re.search(r"'(git update-index --skip-worktree [^']*)'", done.stdout)
    assert hide is not None, done.stdout
    git(repo, env, *shlex.split(hide.group(1))[1:])
    assert dirty(repo, env) == {"?? .gitignore"}
    assert (repo / ".gitignore").read_text().splitlines()[1:] == [
        "/.hookd/gemini/", "*.hookd.bak", "*.hookd.orig"]  # fmt: skip

    git(repo, env, "update-index", "--no-skip-worktree", shared)
    hookd(env, repo, "unadopt", "--agent", "gemini", "--scope", "project")

    assert (repo / shared).read_bytes() == first
    assert leftovers(repo) == []
    assert dirty(repo, env) == {"?? .gitignore"}


def test_the_advice_without_gitignore_and_the_dry_run(tmp_path: Path, env: dict[str, str]) -> None:
    """Without ``--gitignore`` the lines are printed; ``--dry-run`` shows the
    ``.gitignore`` it would write and writes nothing; lines git already follows are not
    offered again."""
    repo = repo_with(tmp_path, env, {".claude/settings.json": {"hooks": {
        "Stop": [{"hooks": [GUARD]}]}}})  # fmt: skip

    dry = hookd(env, repo, "adopt", "--agent", "claude", "--scope", "project", "--gitignore",
                "--dry-run")  # fmt: skip
    assert f"write {repo / '.gitignore'} (mode 644)" in dry.stdout
    assert "+/.claude/settings.local.json\n+*.hookd.bak\n+*.hookd.orig\n" in dry.stdout
    assert dirty(repo, env) == set()

    (repo / ".gitignore").write_text("*.hookd.bak\n")
    said = hookd(env, repo, "adopt", "--agent", "claude", "--scope", "project")
    assert "('--gitignore' adds them):\n    /.claude/settings.local.json\n    *.hookd.orig\n" in (
        said.stdout)  # fmt: skip
    assert (repo / ".gitignore").read_text() == "*.hookd.bak\n"


def test_an_undo_line_names_the_exact_command(tmp_path: Path, env: dict[str, str]) -> None:
    """The Cline relay file's own undo line names --scope project, and runs as written."""
    repo = tmp_path / "proj"
    hook = write_executable(repo / ".clinerules" / "hooks" / "PreToolUse", "#!/bin/sh\necho {}\n")
    original = hook.read_text()
    hookd(env, repo, "adopt", "--agent", "cline", "--scope", "project")

    undo = re.search(r"\('(hookd [^']*)' gives them back\)", hook.read_text())

    assert undo is not None
    assert undo.group(1) == "hookd unadopt --agent cline --scope project"
    back = subprocess.run([*HOOKD, *shlex.split(undo.group(1))[1:], "--home", env["HOME"]],
                          cwd=repo, capture_output=True, text=True, env=env, timeout=60)  # fmt: skip
    assert back.returncode == 0, back.stderr
    assert hook.read_text() == original


def test_unadopt_removes_the_last_backup_and_says_where_a_changed_original_stays(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """``.hookd.bak`` goes; ``.hookd.orig`` goes when the file is given back as it was,
    and stays (said) when the person changed the file since."""
    repo = tmp_path / "proj"
    settings = write_json(repo / ".claude" / "settings.json", {"hooks": {
        "Stop": [{"hooks": [GUARD]}]}})  # fmt: skip
    hookd(env, repo, "adopt", "--agent", "claude", "--scope", "project")
    hookd(env, repo, "relay", "install", "--agent", "claude", "--scope", "project")
    write_json(settings, {"model": "opus"})  # the person's own edit, after adopt

    back = hookd(env, repo, "unadopt", "--agent", "claude", "--scope", "project")

    orig = f"{settings}.hookd.orig"
    assert f"{orig} stays: {settings} as it was before hookd first changed it" in back.stdout
    assert leftovers(repo) == [".claude/settings.json.hookd.orig"]
    assert json.loads(settings.read_text())["model"] == "opus"


def test_the_project_and_local_scopes_share_the_local_file(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """Claude's project and local scopes both relay from ``settings.local.json``: one
    entry per event, its matcher the union of both scopes' groups; giving one scope back
    leaves the other's."""
    repo = tmp_path / "proj"
    write_json(repo / ".claude" / "settings.json", {"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [GUARD]}]}})  # fmt: skip
    local = write_json(repo / ".claude" / "settings.local.json", {"permissions": {}, "hooks": {
        "PreToolUse": [{"matcher": "Edit", "hooks": [EDIT]}]}})  # fmt: skip
    first = local.read_bytes()
    for scope in ("project", "local"):
        hookd(env, repo, "adopt", "--agent", "claude", "--scope", scope)
    assert relay_matchers(json.loads(local.read_text())) == ["Bash|Edit"]

    hookd(env, repo, "unadopt", "--agent", "claude", "--scope", "project")
    assert relay_matchers(json.loads(local.read_text())) == ["Edit"]

    hookd(env, repo, "unadopt", "--agent", "claude", "--scope", "local")
    assert local.read_bytes() == first
    assert leftovers(repo) == []


def relay_matchers(settings: dict[str, Any]) -> list[str | None]:
    """The matcher of each relay entry (a group's, or a flat handler's: Copilot's)."""
    found = []
    for items in settings["hooks"].values():
        for item in items:
            handlers = item.get("hooks", [item])
            if any("hookd-relay" in str(h.get("command", h.get("bash"))) for h in handlers):
                found.append(item.get("matcher"))
    return found


TWO_GROUPS = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [GUARD]},
                                       {"matcher": "Edit|Write", "hooks": [EDIT]}]}}  # fmt: skip
UNIONS = {
    "claude": (".claude/settings.json", TWO_GROUPS, "Bash|Edit|Write"),
    "codex": (".codex/hooks.json", TWO_GROUPS, "Bash|Edit|Write"),
    "qwen": (".qwen/settings.json", TWO_GROUPS, "Bash|Edit|Write"),
    "droid": (".factory/settings.json", TWO_GROUPS, "(?:Bash)|(?:Edit|Write)"),
    "gemini": (".gemini/settings.json", {"hooks": {"BeforeTool": [
        {"matcher": "run_shell_command", "hooks": [GUARD]},
        {"matcher": "write_file|replace", "hooks": [EDIT]}]}},
        "(?:run_shell_command)|(?:write_file|replace)"),
    "copilot": (".copilot/hooks/guard.json", {"version": 1, "hooks": {"preToolUse": [
        {"type": "command", "bash": "./guard.sh", "matcher": "bash"},
        {"type": "command", "bash": "./edit.sh", "matcher": "edit|create"}]}},
        "bash|edit|create"),
}  # fmt: skip


@pytest.mark.parametrize("agent", UNIONS)
def test_a_relay_entry_keeps_the_union_of_the_adopted_matchers(
    tmp_path: Path, env: dict[str, str], agent: str
) -> None:
    """The agent starts the relay for the tools the adopted hooks are for, not for every
    Read and Grep (``tests/daemon/dialects/test_matcher_unions.py`` checks each union
    against the agent's matcher rule)."""
    name, settings, union = UNIONS[agent]
    path = write_json(Path(env["HOME"]) / name, settings)

    hookd(env, tmp_path, "adopt", "--agent", agent)

    assert relay_matchers(json.loads(path.read_text())) == [union]


def test_a_gitignore_hookd_cannot_rewrite_is_a_clear_error(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """A ``.gitignore`` that is not UTF-8 text: ``--gitignore`` changes nothing and says
    which lines to add by hand (no traceback, no file rewritten with its bytes mangled)."""
    repo = repo_with(tmp_path, env, {".claude/settings.json": {"hooks": {
        "Stop": [{"hooks": [GUARD]}]}}})  # fmt: skip
    (repo / ".gitignore").write_bytes(b"build/\n\xff\xfe latin\n")

    done = subprocess.run([*HOOKD, "adopt", "--agent", "claude", "--scope", "project",
                           "--gitignore", "--project", str(repo), "--home", env["HOME"]],
                          capture_output=True, text=True, env=env, timeout=60)  # fmt: skip

    assert done.returncode == 1, done.stdout + done.stderr
    assert "is not UTF-8 text: hookd does not rewrite it; add these lines yourself" in done.stderr
    assert "Traceback" not in done.stderr
    assert (repo / ".gitignore").read_bytes() == b"build/\n\xff\xfe latin\n"
