"""Process custody against hostile hooks, with a real ``hookd serve`` process (the
daemon must be alone in its process to be a subreaper): escapees of every kind are
found and killed, detached work is bounded by the hook's timeout, nothing survives
``kill -9`` of the daemon, and the process cap queues fairly and never fails open; under
each platform launcher (``runner/launch.py``)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookd_testing import claude_settings, command, write_json
from hookd_testing.process_daemon import ProcessDaemon, alive, process_daemon, wait_gone

DOUBLE_FORK = (
    "import os,sys,time\n"
    "if os.fork(): sys.exit(0)\n"
    "os.setsid()\n"
    "if os.fork(): sys.exit(0)\n"
    "open(sys.argv[1],'a').write(f'{os.getpid()}\\n'); sys.stdout.close(); sys.stderr.close()\n"
    "time.sleep(300)\n"
)
SETPGID = (
    "import os,sys,time\n"
    "os.setpgid(0,0)\n"
    "open(sys.argv[1],'a').write(f'{os.getpid()}\\n')\n"
    "time.sleep(300)\n"
)

# Each escapes the hook's process group in its own way and writes its pids to $P.
ESCAPES = {
    "background-child": "sleep 300 & echo $! >> $P",
    "nohup": "nohup sleep 300 >/dev/null 2>&1 & echo $! >> $P",
    "setsid": "setsid sleep 300 >/dev/null 2>&1 & echo $! >> $P",
    "setsid-in-subshell": "(setsid sleep 300 >/dev/null 2>&1 & echo $! >> $P)",
    "job-control": "set -m; sleep 300 >/dev/null 2>&1 & echo $! >> $P",
    "double-fork-setsid": "python3 $W/double_fork.py $P",
    "setpgid": "python3 $W/setpgid.py $P &",
    "nested-shell-background": "sh -c 'sleep 300 >/dev/null 2>&1 & echo $! >> $P' ",
    "disown": "bash -c 'sleep 300 >/dev/null 2>&1 & echo $! >> $P; disown'",
    "ignores-term-and-hup": "sh -c \"trap '' TERM HUP; echo \\$\\$ >> $P; exec sleep 300\" >/dev/null 2>&1 &",
    "closed-fds": "setsid sh -c 'echo $$ >> $P; exec sleep 300' </dev/null >/dev/null 2>&1 &",
    "escapee-with-children": (
        "setsid sh -c 'sleep 300 & echo $! >> $P; sleep 300 & echo $! >> $P; wait' "
        ">/dev/null 2>&1 &"
    ),
    "twenty-children": "for i in $(seq 20); do sleep 300 >/dev/null 2>&1 & echo $! >> $P; done",
    "setsid-exits-quickly-and-one-stays": (
        "(setsid true &); (setsid sleep 300 >/dev/null 2>&1 & echo $! >> $P)"
    ),
    "exec-renamed": "bash -c 'exec -a innocent sleep 300' >/dev/null 2>&1 & echo $! >> $P",
    "python-daemonize": "python3 $W/double_fork.py $P </dev/null >/dev/null 2>&1",
}


def _hook(workspace: Path, body: str, **fields: object) -> Path:
    pids = workspace / "pids"
    (workspace / "double_fork.py").write_text(DOUBLE_FORK)
    (workspace / "setpgid.py").write_text(SETPGID)
    script = (
        f"cat >/dev/null; export P={pids} W={workspace}\n{body}\n"
        "for i in $(seq 1000); do [ -s $P ] && break; sleep 0.01; done  # pids known first\n"
        "exit 0"
    )
    write_json(
        workspace / ".claude/settings.json",
        claude_settings("PreToolUse", command(script, **fields)),
    )
    return pids


def _pids(path: Path) -> list[int]:
    return [int(line) for line in path.read_text().split()] if path.exists() else []


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    return root


@pytest.fixture(scope="module")
def killing_daemon(
    tmp_path_factory: pytest.TempPathFactory, serve_prefix: list[str]
) -> Iterator[ProcessDaemon]:
    """One daemon for every escape kind (leftovers killed as soon as a hook exits)."""
    with process_daemon(tmp_path_factory.mktemp("d"), {"leftover_processes": "kill"},
                        prefix=serve_prefix) as daemon:  # fmt: skip
        yield daemon


@pytest.mark.parametrize("kind", sorted(ESCAPES))
def test_escapees_are_killed_when_the_hook_exits(
    kind: str, killing_daemon: ProcessDaemon, workspace: Path
) -> None:
    pids_file = _hook(workspace, ESCAPES[kind])
    result = killing_daemon.fire("claude", "PreToolUse", [str(workspace)], {"tool_name": "Bash"})
    pids = _pids(pids_file)
    assert pids, f"the hook recorded no escapee: {result['hooks'][0]}"
    assert wait_gone(pids) == []
    assert result["hooks"][0]["exitCode"] == 0
    assert wait_for_no_zombies(killing_daemon.pid) == []


def test_detached_work_lives_until_the_hook_timeout_then_dies(
    tmp_path: Path, workspace: Path, serve_prefix: list[str]
) -> None:
    """The default policy: `cmd &` keeps running after the hook exits (a documented
    pattern), but never past the hook's own timeout."""
    pids_file = _hook(workspace, ESCAPES["background-child"] + "\n" + ESCAPES["setsid"], timeout=5)
    with process_daemon(tmp_path, prefix=serve_prefix) as daemon:
        daemon.fire("claude", "PreToolUse", [str(workspace)], {"tool_name": "Bash"})
        pids = _pids(pids_file)
        assert len(pids) == 2
        assert all(alive(pid) for pid in pids)
        assert daemon.status()["processes"]["detached"] == 1
        assert wait_gone(pids, timeout_s=30) == []
        assert daemon.status()["processes"]["detached"] == 0


def test_a_timed_out_hook_takes_its_escapees_with_it(
    tmp_path: Path, workspace: Path, serve_prefix: list[str]
) -> None:
    pids_file = _hook(workspace, ESCAPES["double-fork-setsid"] + "\nsleep 300", timeout=1)
    with process_daemon(tmp_path, prefix=serve_prefix) as daemon:
        result = daemon.fire("claude", "PreToolUse", [str(workspace)], {"tool_name": "Bash"})
        assert result["hooks"][0]["timedOut"] is True
        assert wait_gone(_pids(pids_file)) == []


def test_nothing_survives_kill_9_of_the_daemon(
    tmp_path: Path, workspace: Path, serve_prefix: list[str]
) -> None:
    pids_file = _hook(
        workspace,
        "echo $$ >> $P; "
        + ESCAPES["double-fork-setsid"]
        + "; "
        + ESCAPES["background-child"]
        + "; sleep 300",
    )
    with process_daemon(tmp_path, prefix=serve_prefix) as daemon:
        firing = _fire_in_background(daemon, workspace)
        deadline_pids = _wait_for_pids(pids_file, 3)
        os.kill(daemon.pid, signal.SIGKILL)
        daemon.process.wait()
        assert wait_gone(deadline_pids, timeout_s=10.0) == []
        firing.join(10)


def test_kill_9_takes_unmarked_members_of_a_running_hooks_group(
    tmp_path: Path, workspace: Path, serve_prefix: list[str]
) -> None:
    """A process that cleared its environment (no hook mark) but stayed in the hook's
    group dies with the daemon too: the watchdog kills the groups it was told of, even
    though the daemon's lines never woke it (it reads them once the daemon is gone)."""
    pids_file = _hook(workspace, "env -i sleep 300 & echo $! >> $P; echo $$ >> $P; sleep 300")
    settings = json.loads((workspace / ".claude/settings.json").read_text())
    settings["hooks"].update(claude_settings("PostToolUse", command("true"))["hooks"])
    write_json(workspace / ".claude/settings.json", settings)
    with process_daemon(tmp_path, prefix=serve_prefix) as daemon:
        for _ in range(20):  # lines about finished hooks first: the watchdog sorts them out
            daemon.fire("claude", "PostToolUse", [str(workspace)], {"tool_name": "Bash"})
        firing = _fire_in_background(daemon, workspace)
        pids = _wait_for_pids(pids_file, 2)
        assert environment_of(pids[0]) == {}  # no HOOKD_HOOK_ID to find it by
        os.kill(daemon.pid, signal.SIGKILL)
        daemon.process.wait()
        assert wait_gone(pids, timeout_s=10.0) == []
        firing.join(10)


def environment_of(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/environ", "rb") as environ:
        entries = [e.decode() for e in environ.read().split(b"\0") if e]
    return dict(e.partition("=")[::2] for e in entries)


def _fire_in_background(daemon: ProcessDaemon, workspace: Path) -> threading.Thread:
    """Fire PreToolUse in a thread (the daemon may be killed under it)."""
    firing = threading.Thread(
        target=lambda: _swallow(
            daemon.fire, "claude", "PreToolUse", [str(workspace)], {"tool_name": "Bash"}
        ),
        daemon=True,
    )
    firing.start()
    return firing


def _swallow(call, *args) -> None:  # type: ignore[no-untyped-def]
    with contextlib.suppress(Exception):  # the daemon is killed under it: expected
        call(*args)


def _wait_for_pids(path: Path, count: int) -> list[int]:
    import time

    deadline = time.monotonic() + 20
    while len(_pids(path)) < count:
        assert time.monotonic() < deadline, _pids(path)
        time.sleep(0.02)
    return _pids(path)


def _children(pid: int) -> list[int]:
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as listing:
                found += [int(c) for c in listing.read().split()]
        except FileNotFoundError:
            continue  # a thread (a worker of trio's) that ended since the listing
    return found


def wait_for_no_zombies(pid: int, timeout_s: float = 10.0) -> list[int]:
    """The daemon's zombie children left after ``timeout_s`` (it reaps what it adopts)."""
    import time

    deadline = time.monotonic() + timeout_s
    while True:
        zombies = [c for c in _children(pid) if not alive(c) and os.path.exists(f"/proc/{c}")]
        if not zombies or time.monotonic() > deadline:
            return zombies
        time.sleep(0.05)


def test_the_status_counts_escapees_killed(killing_daemon: ProcessDaemon) -> None:
    """Runs after the escape kinds above (same module daemon): they were counted."""
    processes = killing_daemon.status()["processes"]
    assert processes["escapeesKilled"] >= 1
    assert processes["running"] == 0
