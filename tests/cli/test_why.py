"""Why a hook did (not) run, said where a person looks (issue 28, first part): ``hookd
fire`` names every hook that failed, timed out or did not run, and every warning, on
stderr; a crashed hook's output is kept (its last lines, secrets scrubbed) in the result
and in the audit log, where ``hookd logs`` shows it with the call and the reason."""

from __future__ import annotations

import json

from hookd_testing import claude_settings, command, write_json
from hookd_testing.cli import cli

PAYLOAD = json.dumps({"session_id": "s9", "tool_name": "Bash",
                      "tool_input": {"command": "rm -rf build"}})  # fmt: skip
CRASH = ("python3 -c 'import os; print(\"token is \" + os.environ[\"MY_API_TOKEN\"]); "
         "raise ValueError(\"boom at the end\")'")  # fmt: skip


def test_a_fire_says_which_hooks_failed_timed_out_or_did_not_run(served, workspace) -> None:
    path, _ = served
    write_json(workspace / ".claude" / "settings.json", claude_settings("PreToolUse",
        command(CRASH), command("./no-such-hook.sh"), command("sleep 5", timeout=1)))  # fmt: skip

    done = cli(path, "fire", "PreToolUse", "--agent", "claude", "--workspace", str(workspace),
               stdin=PAYLOAD, timeout=60)  # fmt: skip

    lines = done.stderr.splitlines()
    assert any("hook 0" in line and "failed" in line and "boom at the end" in line
               for line in lines), lines  # fmt: skip
    assert any("hook 1" in line and "no-such-hook.sh" in line for line in lines), lines
    assert any("hook 2" in line and "timed out" in line for line in lines), lines
    quiet = cli(path, "fire", "PreToolUse", "--agent", "claude", "--workspace", str(workspace),
                "--quiet", stdin=PAYLOAD)  # fmt: skip
    assert "hook 0" not in quiet.stderr


def test_a_crashed_hooks_output_is_kept_scrubbed(served, workspace, monkeypatch) -> None:
    """The traceback's last lines in the result and in ``hookd logs --show``; a credential
    of the caller's environment never written down."""
    path, _ = served
    monkeypatch.setenv("MY_API_TOKEN", "sk-very-secret-value")
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("PreToolUse", command(CRASH)))  # fmt: skip

    done = cli(path, "fire", "PreToolUse", "--agent", "claude", "--workspace", str(workspace),
               stdin=PAYLOAD)  # fmt: skip

    hook = json.loads(done.stdout)["hooks"][0]
    assert hook["stderrTail"].startswith("Traceback (most recent call last):")
    assert hook["stderrTail"].rstrip().endswith("ValueError: boom at the end")
    assert hook["stdoutTail"] == "token is [scrubbed: MY_API_TOKEN]\n"
    assert not hook["stderrTailCut"]
    listed = cli(path, "logs", "--agent", "claude", "--session", "s9")
    assert "error: Failed with non-blocking status code 1" in listed.stdout
    assert "ValueError: boom at the end" not in listed.stdout  # the tail: with --show
    number = listed.stdout.split()[0].lstrip("#")
    shown = cli(path, "logs", "--show", number)
    assert shown.returncode == 0, shown.stderr
    assert "ValueError: boom at the end" in shown.stdout
    assert "sk-very-secret-value" not in shown.stdout
    assert "Bash 'rm -rf build'" in shown.stdout


def test_logs_filters(served, workspace) -> None:
    path, _ = served
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("PreToolUse", command("echo no >&2; exit 2")))  # fmt: skip
    cli(path, "fire", "PreToolUse", "--agent", "claude", "--workspace", str(workspace),
        stdin=PAYLOAD)  # fmt: skip
    cli(path, "fire", "Stop", "--agent", "claude", "--workspace", str(workspace),
        "--no-payload")  # fmt: skip

    blocked = cli(path, "logs", "--blocked")
    assert blocked.stdout.count("claude PreToolUse") == 1
    assert "Stop" not in blocked.stdout
    assert "    reason: no" in blocked.stdout
    assert cli(path, "logs", "--event", "Stop").stdout.count(" claude Stop ") == 1
    assert cli(path, "logs", "--since", "1h").stdout.count(" claude ") == 2
    later = cli(path, "logs", "--since", "2999-01-01T00:00")
    assert later.stdout == ""
    assert "no audit records" in later.stderr
    bad = cli(path, "logs", "--since", "yesterday")
    assert bad.returncode == 1
    assert "give an age (30s, 10m, 2h, 1d)" in bad.stderr


def test_an_unknown_event_says_what_was_meant(served, workspace) -> None:
    path, _ = served
    done = cli(path, "fire", "PreToolUSe", "--agent", "claude", "--workspace", str(workspace),
               "--no-payload")  # fmt: skip
    assert done.returncode == 1
    assert "(did you mean PreToolUse?)" in done.stderr


def test_a_settings_file_that_does_not_parse_is_said(served, workspace) -> None:
    path, _ = served
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / "settings.json").write_text('{"hooks": {,}}')

    done = cli(path, "fire", "PreToolUse", "--agent", "claude", "--workspace", str(workspace),
               stdin=PAYLOAD)  # fmt: skip

    assert done.returncode == 0
    assert "warning:" in done.stderr
    assert "settings.json" in done.stderr
    assert "invalid JSON" in cli(path, "logs").stdout


def test_the_caller_is_not_named_in_tails_without_credentials() -> None:
    from hookd.daemon.scrub import scrub, secret_values

    secrets = secret_values([{"GITHUB_TOKEN": "ghp_abcdefgh12", "PASS": "1", "HOME": "/h/x"}])
    assert secrets == {"ghp_abcdefgh12": "GITHUB_TOKEN"}
    assert scrub("x ghp_abcdefgh12 /h/x 1", secrets) == "x [scrubbed: GITHUB_TOKEN] /h/x 1"


def test_a_settings_file_with_an_error_says_what_of_it_runs(served, workspace) -> None:
    """The warning says what actually runs (issue 28): the handlers that loaded when the
    file parsed; the hooks from before the error when it no longer parses; else none."""
    path, _ = served
    settings = workspace / ".claude" / "settings.json"
    fire = ("fire", "PreToolUse", "--agent", "claude", "--workspace", str(workspace))
    write_json(settings, claude_settings("PreToolUse", command("true"), {"type": "no-such-type"}))
    partly = cli(path, *fire, stdin=PAYLOAD)
    assert "(its other 1 hook(s) run)" in partly.stderr, partly.stderr

    write_json(settings, claude_settings("PreToolUse", command("true"), command("true")))
    assert "warning:" not in cli(path, *fire, stdin=PAYLOAD).stderr
    settings.write_text('{"hooks": {,}}')
    broken = cli(path, *fire, stdin=PAYLOAD)
    assert "(its last good hooks run: 2 from before this error)" in broken.stderr, broken.stderr

    local = workspace / ".claude" / "settings.local.json"
    local.write_text('{"hooks": {,}}')  # never good: nothing of it runs
    nothing = cli(path, *fire, stdin=PAYLOAD)
    said = [line for line in nothing.stderr.splitlines() if "settings.local.json" in line]
    assert said, nothing.stderr
    assert said[0].endswith("(none of its hooks run)"), nothing.stderr


def test_a_logged_fire_is_replayed_with_its_payload(served, workspace, monkeypatch) -> None:
    """``hookd fire --replay N`` fires #N again: same agent, event, workspace and payload
    (as the audit log kept it: credentials of the caller's environment scrubbed)."""
    path, _ = served
    monkeypatch.setenv("MY_API_TOKEN", "sk-very-secret-value")
    seen = workspace / "seen"
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("PreToolUse", command(f"cat >> {seen}; echo >> {seen}")))  # fmt: skip
    payload = json.dumps({"session_id": "s7", "tool_name": "Bash",
                          "tool_input": {"command": "echo sk-very-secret-value"}})  # fmt: skip
    first = cli(path, "fire", "PreToolUse", "--agent", "claude", "--workspace", str(workspace),
                stdin=payload)  # fmt: skip
    assert first.returncode == 0, first.stderr
    number = cli(path, "logs", "--session", "s7").stdout.split()[0].lstrip("#")

    shown = cli(path, "logs", "--show", number)
    assert '"tool_name":"Bash"' in shown.stdout
    assert "sk-very-secret-value" not in shown.stdout

    again = cli(path, "fire", "--replay", number)

    assert again.returncode == 0, again.stderr
    first_run, second_run = [line for line in seen.read_text().splitlines() if line]
    assert json.loads(second_run)["tool_input"] == {"command": "echo [scrubbed: MY_API_TOKEN]"}
    assert json.loads(first_run)["tool_input"] == {"command": "echo sk-very-secret-value"}
    missing = cli(path, "fire", "--replay", "9999")
    assert missing.returncode == 1
    assert "no fire #9999" in missing.stderr


def test_an_example_payload_to_start_from(served, workspace) -> None:
    """``hookd fire --example`` prints a payload the fire takes as it is."""
    path, _ = served
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("PreToolUse", command("exit 2"), matcher="Bash"))  # fmt: skip
    example = cli(path, "fire", "--example", "PreToolUse", "--agent", "claude")
    assert example.returncode == 0, example.stderr
    assert json.loads(example.stdout)["tool_name"] == "Bash"

    fired = cli(path, "fire", "PreToolUse", "--agent", "claude", "--workspace", str(workspace),
                stdin=example.stdout)  # fmt: skip

    assert fired.returncode == 2  # the matcher met the example's tool: the hook blocked
    needs = cli(path, "fire", "--agent", "claude")
    assert needs.returncode == 1
    assert "the following arguments are required: event (or --replay N)" in needs.stderr
