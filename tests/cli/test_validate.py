"""``hookd validate`` as a person (or CI, or pre-commit) runs it: no daemon, real files,
exit 1 on any finding, each finding naming the file and what to fix (issue 28)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from hookd_testing import claude_settings, command, write_json

HOOKD = [sys.executable, "-m", "hookd"]


def validate(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, "validate", *args], capture_output=True, text=True,
                          timeout=60, cwd=cwd)  # fmt: skip


def problems(workspace: Path) -> list[dict[str, Any]]:
    done = validate(str(workspace), "--json")
    assert done.returncode == 1, done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)["problems"]
    return found


def test_a_clean_workspace_passes(isolated_home, workspace: Path) -> None:
    script = workspace / "check.sh"
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(0o755)
    write_json(workspace / ".claude" / "settings.json", claude_settings(
        "PreToolUse", command("./check.sh"), command("echo ok"), matcher="Bash"))  # fmt: skip

    done = validate(cwd=workspace)

    assert done.returncode == 0, done.stdout
    assert done.stdout == ""
    assert "no problems in" in done.stderr


def test_a_trailing_comma_is_named_with_its_line(isolated_home, workspace: Path) -> None:
    settings = workspace / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"hooks": {"Stop": [\n  {"hooks": [{"type": "command", '
                        '"command": "true"}]},\n]}}\n')  # fmt: skip

    found = problems(workspace)

    claude = [p for p in found if "claude" in p["dialects"]]
    assert any("a trailing comma (line 2) before ']'" in p["problem"] for p in claude), found
    assert all(p["source"] == str(settings) for p in claude)


def test_unknown_events_and_keys_say_what_was_meant(isolated_home, workspace: Path) -> None:
    write_json(workspace / ".claude" / "settings.json", {"hooks": {
        "PreToolUSe": [{"matcher": "Bash", "hooks": [command("true")]}],
        "PostToolUse": [{"matchers": "Read", "hooks": [command("true")]}]}})  # fmt: skip

    said = [p["problem"] for p in problems(workspace)]

    assert "unknown event 'PreToolUSe' (did you mean 'PreToolUse'?)" in said
    assert any("unknown key 'matchers' (did you mean 'matcher'?)" in p for p in said), said


def test_what_fails_only_when_the_hook_runs(isolated_home, workspace: Path) -> None:
    """A missing script, one without its execute bit, a program not on PATH, an
    interpreter's missing script and a timeout in milliseconds: said before any run."""
    (workspace / "noexec.sh").write_text("#!/bin/sh\n")
    write_json(workspace / ".claude" / "settings.json", claude_settings(
        "PreToolUse", command("./missing.sh"), command("$CLAUDE_PROJECT_DIR/noexec.sh"),
        command("no-such-program-anywhere --flag"), command("python3 hooks/gone.py"),
        command("true", timeout=5000)))  # fmt: skip

    said = "\n".join(p["problem"] for p in problems(workspace))

    assert f"{workspace}/missing.sh does not exist" in said
    assert f"{workspace}/noexec.sh is not executable (chmod +x" in said
    assert "'no-such-program-anywhere' is not on PATH" in said
    assert f"{workspace}/hooks/gone.py does not exist (the script python3 is given)" in said
    assert "a timeout of 5000 s" in said


def test_a_cline_hook_without_its_execute_bit(isolated_home, workspace: Path) -> None:
    hook = workspace / ".clinerules" / "hooks" / "PreToolUse"
    hook.parent.mkdir(parents=True)
    hook.write_text("#!/bin/sh\necho '{}'\n")

    done = validate(str(workspace))

    assert done.returncode == 1
    assert f"[cline] {hook}: not executable, so Cline does not run it" in done.stdout


def test_a_folder_that_is_not_one_is_an_error(isolated_home, tmp_path: Path) -> None:
    done = validate(str(tmp_path / "nope"))
    assert done.returncode == 1
    assert "not a directory" in done.stderr
    assert "Traceback" not in done.stderr


def test_filters_that_do_not_do_what_they_say(isolated_home, workspace: Path) -> None:
    """Read without a word by the agent: a matcher on an event that has none (it runs on
    every such event), a matcher that is no regular expression, an ``if`` on an event
    that is no tool call (never runs)."""
    write_json(workspace / ".claude" / "settings.json", {"hooks": {
        "UserPromptSubmit": [{"matcher": "Bash", "hooks": [command("true")]}],
        "PreToolUse": [{"matcher": "Bash(", "hooks": [command("true")]}],
        "Stop": [{"hooks": [command("true", **{"if": "Bash(git *)"})]}]}})  # fmt: skip

    said = "\n".join(p["problem"] for p in problems(workspace))

    assert "matcher 'Bash' is ignored: UserPromptSubmit has no matcher" in said
    assert "matcher 'Bash(' is not a valid regular expression: the hook never runs" in said
    assert "'if' 'Bash(git *)' on Stop, which is no tool call: the hook never runs" in said
