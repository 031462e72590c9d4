"""The README's quick start with trust on, end to end: a real `hookd serve` (no
--trust-all), `hookd fire` answers "not run: untrusted" with the command that allows the
workspace, `hookd status` lists it, `hookd allow` (in the workspace, no DIR) lets the hook
run, and `hookd logs` shows both fires."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookd_testing import claude_settings, command, write_json

HOOKD = [sys.executable, "-m", "hookd"]
PAYLOAD = json.dumps({"tool_name": "Bash", "tool_input": {"command": "rm -rf build"}})


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "hookd.toml"
    path.write_text(f"state_dir = {json.dumps(str(tmp_path / 'state'))}\n")
    return path


@pytest.fixture
def served(short_dir: Path, isolated_home: Path, tmp_path: Path, config: Path) -> Iterator[str]:
    path = str(short_dir / "hookd.sock")
    with open(tmp_path / "serve.log", "wb") as log:
        process = subprocess.Popen(
            [*HOOKD, "--socket", path, "serve", "--config", str(config), "--home",
             str(isolated_home), "--system-root", str(tmp_path / "system"), "--log-format", "json"],
            stderr=log,
        )  # fmt: skip
    deadline = time.monotonic() + 60
    while subprocess.run([*HOOKD, "--socket", path, "status"], capture_output=True).returncode:
        assert process.poll() is None, (tmp_path / "serve.log").read_text()
        assert time.monotonic() < deadline, "hookd serve did not answer within 60 s"
        time.sleep(0.05)
    yield path
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=20)


def run(*args: str, cwd: Path | None = None, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, *args], input=stdin, capture_output=True, text=True,
                          timeout=60, cwd=cwd)  # fmt: skip


def test_the_quick_start_needs_hookd_allow(served: str, workspace: Path, config: Path) -> None:
    deny = command("echo 'rm is not allowed here' >&2; exit 2")
    write_json(
        workspace / ".claude/settings.json", claude_settings("PreToolUse", deny, matcher="Bash")
    )
    fire = ["--socket", served, "fire", "PreToolUse", "--agent", "claude",
            "--workspace", str(workspace)]  # fmt: skip

    untrusted = run(*fire, stdin=PAYLOAD)
    assert untrusted.returncode == 2  # blocked by the never-ran rule, not by the hook
    result = json.loads(untrusted.stdout)
    assert f"to allow it, run: hookd allow {workspace}" in result["reason"]
    assert result["hooks"][0]["exitCode"] is None
    status = run("--socket", served, "status")
    assert f"WAITING    {workspace}: not run, untrusted:" in status.stdout

    allowed = run("allow", "--config", str(config), cwd=workspace)
    assert allowed.returncode == 0, allowed.stderr
    # the one hook, as Claude Code and Copilot CLI (which reads .claude/settings.json) run it
    assert f"allowed {workspace}: 2 hook(s)" in allowed.stdout
    assert "WAITING" not in run("--socket", served, "status").stdout  # at once, no fire needed

    trusted = run(*fire, stdin=PAYLOAD)
    assert trusted.returncode == 2
    assert json.loads(trusted.stdout)["reason"] == "rm is not allowed here"
    assert "WAITING" not in run("--socket", served, "status").stdout

    shown = run("logs", "--config", str(config))
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.count(" claude PreToolUse Bash 'rm -rf build' pid ") == 2
    assert "not run: untrusted" in shown.stdout
    assert "exit 2" in shown.stdout


def test_allow_says_what_the_readers_could_not_load(workspace: Path, config: Path) -> None:
    """``hookd allow`` on a file that does not parse names it and why (issue 28), instead
    of a bare "allowed ... 0 hook(s)"."""
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / "settings.json").write_text('{"hooks": {"PreToolUse": [,]}}')

    allowed = run("allow", "--config", str(config), cwd=workspace)

    assert allowed.returncode == 0, allowed.stderr
    said = [line for line in allowed.stderr.splitlines() if "settings.json" in line]
    assert any(line.startswith("hookd: warning: [claude] ") for line in said), allowed.stderr
    assert any("JSON" in line and "only the hooks listed above run" in line for line in said)


def test_explain_says_a_hook_waits_for_allow(served: str, workspace: Path, config: Path) -> None:
    """``hookd explain`` names the untrusted hook and the command that allows it; after
    ``hookd allow`` the same hook runs, and after a change it waits again."""
    settings = workspace / ".claude/settings.json"
    write_json(settings, claude_settings("PreToolUse", command("true"), matcher="Bash"))
    explain = ["--socket", served, "explain", "PreToolUse", "--agent", "claude",
               "--workspace", str(workspace), "--json"]  # fmt: skip

    def claude_hooks() -> list[dict[str, object]]:
        done = run(*explain, stdin=PAYLOAD)
        assert done.returncode == 0, done.stderr
        return [h for h in json.loads(done.stdout)["hooks"] if h["dialect"] == "claude"]

    [waiting] = claude_hooks()
    assert waiting["runs"] is False
    assert f"hookd allow {workspace}" in str(waiting["why"])
    assert run("allow", "--config", str(config), cwd=workspace).returncode == 0
    [allowed] = claude_hooks()
    assert allowed["runs"] is True
    write_json(settings, claude_settings("PreToolUse", command("false"), matcher="Bash"))
    [changed] = claude_hooks()
    assert changed["runs"] is False
    assert str(changed["why"]).startswith("not run: ")


def test_allow_says_what_changed_and_what_validate_finds(workspace: Path, config: Path) -> None:
    """Before it trusts, ``hookd allow`` names the files changed since the last allow of
    that workspace and what ``hookd validate`` finds there (a script that is missing)."""
    settings = workspace / ".claude/settings.json"
    write_json(settings, claude_settings("PreToolUse", command("true"), matcher="Bash"))
    first = run("allow", "--config", str(config), cwd=workspace)
    assert first.returncode == 0, first.stderr
    assert "since the last allow" not in first.stderr

    write_json(settings, claude_settings("PreToolUse", command("./gone.sh"), matcher="Bash"))
    again = run("allow", "--config", str(config), cwd=workspace)

    assert again.returncode == 0, again.stderr
    assert "hookd: changed since the last allow (" in again.stderr
    assert f"): {settings}" in again.stderr
    assert (
        f"hookd: warning: [claude, copilot] {settings}: PreToolUse: './gone.sh': "
        f"{workspace}/gone.sh does not exist" in again.stderr
    )
