"""``hookd relay install --agent claude --http`` on real files, through the real
``hookd`` command: the http entries it writes, the passcode it names (never writes), the
command entries it keeps, and ``adopt`` / ``uninstall`` with http entries in place."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli.test_relay_setup import AGENT_SETTINGS, RELAY, hookd, read

HEADERS = {"Authorization": "Bearer ${HOOKD_HTTP_PASSCODE}"}


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """Claude Code's user settings (PreToolUse, Stop and a CwdChanged hook), adopted."""
    home = tmp_path / "home"
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    cwd_hook = {"hooks": [{"type": "command", "command": "echo cwd"}]}
    settings.write_text(json.dumps({**AGENT_SETTINGS, "hooks": {
        **AGENT_SETTINGS["hooks"], "CwdChanged": [cwd_hook]}}))  # fmt: skip
    assert hookd(home, "adopt").returncode == 0
    return home


def config(tmp_path: Path, **keys: Any) -> Path:
    path = tmp_path / "hookd.toml"
    keys = {"state_dir": str(tmp_path / "state"), **keys}
    path.write_text("".join(f"{k} = {json.dumps(v)}\n" for k, v in keys.items()))
    return path


def entries(home: Path) -> dict[str, list[dict[str, Any]]]:
    hooks = read(home / ".claude" / "settings.json")["hooks"]
    return {event: [h for g in groups for h in g["hooks"]] for event, groups in hooks.items()}


def test_install_http_writes_http_entries_that_name_the_passcode(
    home: Path, tmp_path: Path
) -> None:
    done = hookd(home, "relay", "install", "--http", "--config", str(config(tmp_path)))

    assert done.returncode == 0, done.stderr
    url = "http://127.0.0.1:4665/hookd-relay"
    http = {"type": "http", "url": url, "headers": HEADERS,
            "allowedEnvVars": ["HOOKD_HTTP_PASSCODE"]}  # fmt: skip
    found = entries(home)
    assert found["PreToolUse"][-1] == {**http, "timeout": 15.0}
    assert found["Stop"] == [{**http, "timeout": 610.0}]
    # Claude runs no http hook on SessionStart; CwdChanged hooks need the agent's
    # CLAUDE_ENV_FILE: command entries, and SessionStart's also starts hookd.
    relay = {"type": "command", "command": f"{RELAY} claude"}
    assert found["CwdChanged"] == [{**relay, "timeout": 610.0}]
    assert found["SessionStart"] == [{**relay, "timeout": 30.0}]
    passcode_file = tmp_path / "state" / "http-passcode"
    passcode = passcode_file.read_text().strip()
    assert passcode_file.stat().st_mode & 0o777 == 0o600
    assert passcode not in (home / ".claude" / "settings.json").read_text()
    assert f'export HOOKD_HTTP_PASSCODE="$(cat {passcode_file})"' in done.stdout
    assert "add 'http_entry = true' to" in done.stdout


def test_nothing_left_to_do_says_nothing_more(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """http_entry on, the passcode exported: no advice; the config's port is the URL's."""
    path = config(tmp_path, http_entry=True, http_port=17001)
    hookd(home, "relay", "install", "--http", "--config", str(path))
    passcode = (tmp_path / "state" / "http-passcode").read_text().strip()
    monkeypatch.setenv("HOOKD_HTTP_PASSCODE", passcode)

    again = hookd(home, "relay", "install", "--http", "--config", str(path), "--dry-run")

    assert "HOOKD_HTTP_PASSCODE" not in again.stdout
    assert "http_entry" not in again.stdout
    assert "nothing to change" in again.stdout
    assert entries(home)["Stop"][0]["url"] == "http://127.0.0.1:17001/hookd-relay"


def test_on_error_block_sets_on_failure(home: Path, tmp_path: Path) -> None:
    done = hookd(home, "relay", "install", "--http", "--on-error", "block",
                 "--config", str(config(tmp_path)))  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert entries(home)["Stop"][0]["onFailure"] == "block"


def test_adopt_keeps_http_entries_and_uninstall_removes_every_entry(
    home: Path, tmp_path: Path
) -> None:
    hookd(home, "relay", "install", "--http", "--on-error", "block",
          "--config", str(config(tmp_path)))  # fmt: skip
    settings = home / ".claude" / "settings.json"
    agent = read(settings)
    agent["hooks"]["PostToolUse"] = [{"hooks": [{"type": "command", "command": "echo post"}]}]
    settings.write_text(json.dumps(agent))

    adopted = hookd(home, "adopt")

    assert adopted.returncode == 0, adopted.stderr
    found = entries(home)
    assert [h["type"] for h in found["PostToolUse"]] == ["http"]
    assert found["PostToolUse"][0]["onFailure"] == "block"
    assert "http entries" in adopted.stdout

    assert hookd(home, "relay", "uninstall").returncode == 0
    left = entries(home)
    assert all("hookd-relay" not in json.dumps(h) for hs in left.values() for h in hs), left


def test_dry_run_writes_nothing_and_makes_no_passcode(home: Path, tmp_path: Path) -> None:
    before = (home / ".claude" / "settings.json").read_text()

    done = hookd(home, "relay", "install", "--http", "--dry-run",
                 "--config", str(config(tmp_path)))  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert '"type": "http"' in done.stdout
    assert (home / ".claude" / "settings.json").read_text() == before
    assert not (tmp_path / "state").exists()


def test_on_error_without_http_says_what_to_use(home: Path) -> None:
    done = hookd(home, "relay", "install", "--on-error", "block")

    assert done.returncode == 1
    assert "HOOKD_RELAY_ON_ERROR=block" in done.stderr


def test_the_install_command_stays_light() -> None:
    """``relay install --http`` reads the passcode file and the entry's path without
    importing the daemon's server (trio, h11): the CLI stays light."""
    import subprocess
    import sys

    code = ("import sys, hookd.daemon.cli.relay_commands\n"
            "print(sorted(m for m in ('trio', 'h11') if m in sys.modules))")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)

    assert done.stdout.strip() == "[]", done.stderr
