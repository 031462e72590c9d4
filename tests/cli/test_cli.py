"""The hookd command line, end to end: a real `hookd serve` process and real CLI calls."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time

import pytest

from hookd_testing import claude_settings, command, write_json
from hookd_testing.cli import HOOKD, cli, connectable


def test_fire_blocked_by_claude_exit_2_prints_result_and_exits_2(served, workspace) -> None:
    """The issue's acceptance: a PreToolUse hook exiting 2 → blocked, stderr reason, exit 2."""
    path, _ = served
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("PreToolUse", command("echo 'rm is not allowed' >&2; exit 2")))  # fmt: skip
    payload = json.dumps({"tool_name": "Bash", "tool_input": {"command": "rm -rf build"}})

    done = cli(
        path,
        "fire",
        "PreToolUse",
        "--agent",
        "claude",
        "--workspace",
        str(workspace),
        stdin=payload,
    )

    assert done.returncode == 2, done.stderr
    result = json.loads(done.stdout)
    assert result["blocked"] is True
    assert result["reason"] == "rm is not allowed"


@pytest.mark.parametrize(
    ("event", "output", "code", "says"),
    [
        ("PreToolUse", {"continue": False, "stopReason": "halt"}, 6,
         "hookd: the action goes ahead, then the agent stops: halt"),
        ("UserPromptSubmit", {"continue": False, "stopReason": "enough"}, 5,
         "hookd: the action does not happen and the agent stops: enough"),
        ("PreToolUse", {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                               "permissionDecision": "ask"}}, 4,
         "hookd: the agent asks the user to confirm the action"),
    ],
    ids=["pre-continue-false", "prompt-continue-false", "ask"],
)  # fmt: skip
def test_fire_exit_code_says_what_the_agent_does(served, workspace, event, output, code,
                                                 says) -> None:  # fmt: skip
    """Issue 14: exit code and stderr follow the result's action; continue: false on
    PreToolUse is not "blocked" (the real agent runs the tool, then stops)."""
    path, _ = served
    answer = "printf '%s' '" + json.dumps(output) + "'"
    write_json(workspace / ".claude" / "settings.json", claude_settings(event, command(answer)))

    done = cli(path, "fire", event, "--agent", "claude", "--workspace", str(workspace),
               stdin=json.dumps({"tool_name": "Bash", "prompt": "hi"}))  # fmt: skip

    assert done.returncode == code, done.stderr
    assert says in done.stderr
    assert json.loads(done.stdout)["action"] == {6: "proceed-then-stop", 5: "stop", 4: "ask"}[code]


def test_fire_that_proceeds_exits_0(served, workspace) -> None:
    """A fire with no blocking hook exits 0 and prints the result JSON."""
    path, _ = served

    done = cli(
        path, "fire", "Stop", "--agent", "claude", "--workspace", str(workspace), "--no-payload"
    )

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hooks"] == []


def test_fire_with_progress_always_streams_to_stderr(served, workspace) -> None:
    """--progress always prints begin, per-hook lines and the slowest hook on stderr."""
    path, _ = served
    write_json(workspace / ".claude" / "settings.json", claude_settings("Stop", command("true")))

    done = cli(path, "fire", "Stop", "--agent", "claude", "--workspace", str(workspace),
               "--no-payload", "--progress", "always")  # fmt: skip

    assert "1 hook to run" in done.stderr
    assert "finished true" in done.stderr
    assert "slowest: true" in done.stderr


def test_progress_of_a_hook_that_never_started_says_why(served, workspace) -> None:
    """A hook with no exit code (it never started) is finished with its error, never
    'exit None'."""
    path, _ = served
    closed = {"type": "http", "url": "http://127.0.0.1:9/hook", "timeout": 5}
    write_json(workspace / ".claude" / "settings.json", claude_settings("Stop", closed))

    done = cli(path, "fire", "Stop", "--agent", "claude", "--workspace", str(workspace),
               "--no-payload", "--progress", "always")  # fmt: skip

    [line] = [line for line in done.stderr.splitlines() if "finished" in line]
    assert "exit None" not in line
    assert "127.0.0.1:9" in line or "connect" in line.lower(), line


def test_bad_payload_is_a_clear_error(served, workspace) -> None:
    """A payload that is not JSON exits 1 with a message saying what to do."""
    path, _ = served

    done = cli(
        path, "fire", "Stop", "--agent", "claude", "--workspace", str(workspace), stdin="{nope"
    )

    assert done.returncode == 1
    assert "not JSON" in done.stderr


def test_an_empty_stdin_is_an_error_not_an_empty_payload(served, workspace) -> None:
    """Zero bytes on stdin (not a terminal): exit 1 saying to pipe the event or pass
    --no-payload, and nothing is fired; --no-payload with the same stdin fires."""
    path, _ = served
    fire = ("fire", "Stop", "--agent", "claude", "--workspace", str(workspace))

    for empty in ("", " \n"):
        done = cli(path, *fire, stdin=empty)

        assert done.returncode == 1, done.stdout
        assert "hookd: stdin is empty: pipe the event JSON" in done.stderr
        assert "or pass --no-payload" in done.stderr
    assert json.loads(cli(path, "status", "--json").stdout)["fires"] == 0
    assert cli(path, *fire, "--no-payload").returncode == 0


def test_a_fire_that_proceeds_says_nothing_on_stderr(served, workspace) -> None:
    """Only an action other than proceed gets a line on stderr (the README says so)."""
    path, _ = served
    write_json(workspace / ".claude" / "settings.json", claude_settings("Stop", command("true")))

    done = cli(path, "fire", "Stop", "--agent", "claude", "--workspace", str(workspace),
               "--no-payload", "--progress", "never")  # fmt: skip

    assert done.returncode == 0
    assert json.loads(done.stdout)["action"] == "proceed"
    assert done.stderr == ""


def test_a_refused_fire_says_what_is_wrong_in_plain_words(served, workspace) -> None:
    """The daemon's refusal as a person needs it: no JSON-RPC code or 'Invalid params'."""
    path, _ = served

    done = cli(path, "fire", "Bogus", "--agent", "augment", "--workspace", str(workspace),
               "--no-payload")  # fmt: skip

    assert done.returncode == 1
    assert done.stderr.startswith(
        "hookd: 'Bogus' is not an event of augment; its events: PreToolUse, PostToolUse, "
    ), done.stderr
    assert "-32602" not in done.stderr
    assert "Invalid params" not in done.stderr


def test_status_prints_registry_summary(served, workspace) -> None:
    """hookd status prints pid, roots, hooks and per-hook timings."""
    path, _ = served
    write_json(workspace / ".claude" / "settings.json", claude_settings("Stop", command("true")))
    cli(path, "fire", "Stop", "--agent", "claude", "--workspace", str(workspace), "--no-payload")

    done = cli(path, "status")

    assert done.returncode == 0
    # (GitHub Copilot CLI reads a project's .claude/settings.json too: once its sources of
    # the root are read, its count stands beside Claude's)
    hooks_line = next(line for line in done.stdout.splitlines() if line.startswith("hooks "))
    assert hooks_line.split()[2:4] == ["claude:", "1"], hooks_line
    assert "clients    1 of 512 connections, 0 refused, 0 idle shed" in done.stdout
    assert "processes  0 running, 0 detached, 0 waiting (max 64); 0 escapees killed" in done.stdout
    assert "custody " in done.stdout
    row = next(line for line in done.stdout.splitlines() if "settings.json" in line)
    assert row.split()[6:9] == ["claude", "project", str(workspace / ".claude" / "settings.json")]


def test_hooks_lists_sources(served, workspace) -> None:
    """hookd hooks --workspace lists each hook with dialect, layer, event and source."""
    path, _ = served
    write_json(workspace / ".claude" / "settings.json", claude_settings("Stop", command("true")))

    done = cli(path, "hooks", "--workspace", str(workspace))

    assert "claude" in done.stdout
    assert "project" in done.stdout
    assert str(workspace / ".claude" / "settings.json") in done.stdout


def test_sigterm_shuts_down_cleanly(served) -> None:
    """SIGTERM: exit 0 and the socket is removed."""
    path, process = served

    process.send_signal(signal.SIGTERM)

    assert process.wait(timeout=20) == 0
    assert not os.path.exists(path)


def test_daemon_logs_json_lines_when_not_on_a_terminal(served, tmp_path) -> None:
    """Logs are one JSON object per line (for journald and log shippers)."""
    _path, process = served
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=20)

    events = [
        json.loads(line)["event"] for line in (tmp_path / "serve.log").read_text().splitlines()
    ]

    assert events[0] == "starting"
    assert events[-1] == "stopped"


def test_commands_without_a_daemon_say_how_to_start_it(short_dir) -> None:
    """With no daemon, status and fire exit 1 and explain how to start hookd."""
    path = str(short_dir / "none.sock")

    status = cli(path, "status")
    fire = cli(path, "fire", "Stop", "--agent", "claude", "--no-payload")

    assert status.returncode == 1
    assert "hookd is not running" in status.stderr
    assert "hookd serve" in status.stderr
    assert fire.returncode == 1


def test_second_serve_on_the_same_socket_is_refused(served, isolated_home) -> None:
    """A second `hookd serve` on a live socket exits 1 naming the running daemon."""
    path, process = served

    done = subprocess.run([*HOOKD, "--socket", path, "serve", "--home", str(isolated_home)],
                          capture_output=True, text=True, timeout=60)  # fmt: skip

    assert done.returncode == 1
    assert f"pid {process.pid}" in done.stderr


def test_help_explains_every_command() -> None:
    """hookd --help lists the subcommands; fire --help explains the exit codes."""
    main = subprocess.run([*HOOKD, "--help"], capture_output=True, text=True, timeout=60)
    fire = subprocess.run([*HOOKD, "fire", "--help"], capture_output=True, text=True, timeout=60)

    for name in ("serve", "fire", "status", "hooks", "shutdown", "allow", "deny"):
        assert name in main.stdout
    assert "0 proceed, 2 block, 4 ask, 5 stop, 6 proceed then stop; 1 on error" in " ".join(
        fire.stdout.split()
    )


def test_running_out_of_file_descriptors_does_not_kill_the_daemon(
    short_dir, isolated_home, tmp_path
) -> None:
    """At the fd limit, accept() fails for a while; the daemon survives and serves again."""
    import resource

    path = str(short_dir / "hookd.sock")

    def tiny_fd_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (48, 48))

    with open(tmp_path / "serve.log", "wb") as log:
        process = subprocess.Popen(
            [*HOOKD, "--socket", path, "serve", "--home", str(isolated_home), "--log-format", "json"],
            stderr=log, preexec_fn=tiny_fd_limit,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not connectable(path):
            assert process.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline
            time.sleep(0.01)
        hogs = []
        for _ in range(60):
            hog = socket.socket(socket.AF_UNIX)
            hog.connect(path)
            hogs.append(hog)
        deadline = time.monotonic() + 30
        while "accept_failed" not in (tmp_path / "serve.log").read_text():
            assert time.monotonic() < deadline, "the daemon never hit its fd limit"
            time.sleep(0.01)
        for hog in hogs:
            hog.close()

        assert process.poll() is None
        assert cli(path, "status").returncode == 0
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=20)


@pytest.mark.parametrize("command", [("status", "--json"), ("hooks", "--json")])
def test_a_reader_that_goes_away_is_not_a_bug(served, command) -> None:
    """`hookd status | head`: the pipe closes before the output is written. The command
    stops quietly with 141 (what a shell reports for SIGPIPE), not a traceback and exit 3."""
    path, _ = served
    read, write = os.pipe()
    os.close(read)  # the reader has gone before hookd writes a byte
    try:
        done = subprocess.run([*HOOKD, "--socket", path, *command], stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=60)  # fmt: skip
    finally:
        os.close(write)
    assert done.returncode == 141, done.stderr
    assert done.stderr == ""


def test_the_log_says_ready_and_a_file_gets_no_colour_codes(
    short_dir, isolated_home, tmp_path
) -> None:
    """``serve --log-format console`` into a file: readable lines, no terminal colour codes,
    and a ``ready`` line once it answers."""
    sock = str(short_dir / "hookd.sock")
    log_path = tmp_path / "console.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen([*HOOKD, "--socket", sock, "serve",
                                    "--home", str(isolated_home), "--log-format", "console"],
                                   stderr=log)  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while "ready" not in log_path.read_text():
            assert process.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, "no 'ready' line within 60 s"
            time.sleep(0.05)
        assert connectable(sock)
    finally:
        assert cli(sock, "shutdown").returncode == 0
        process.wait(timeout=30)
    text = log_path.read_text()
    assert "\x1b[" not in text
    assert "starting" in text
