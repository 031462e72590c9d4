"""Hostile hooks against a real ``hookd serve`` (issue 11): hooks that flood, spin, stop
themselves, ignore signals, die by signal, hold pipes, fork, print what is not text or
JSON too large to read. Each fire comes back within its timeout plus the kill grace with
the right outcome, and every process the hook made is gone afterwards (the escape kinds
are in ``test_custody.py``: together more than 40 kinds). Under each platform launcher
(``runner/launch.py``): the lean supervisor and trio's meet them differently."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from hookd.daemon.runner import launch
from hookd_testing import claude_settings, command, write_json
from hookd_testing.process_daemon import ProcessDaemon, process_daemon, wait_gone

ZOMBIE_MAKER = (
    "import os,sys,time\n"
    "child = os.fork()\n"
    "if child == 0: os._exit(0)\n"
    "open(sys.argv[1],'a').write(f'{os.getpid()}\\n')\n"
    "time.sleep(300)\n"
)
THREADS = (
    "import os,sys,threading,time\n"
    "open(sys.argv[1],'a').write(f'{os.getpid()}\\n')\n"
    "for _ in range(200): threading.Thread(target=time.sleep, args=(300,), daemon=True).start()\n"
    "time.sleep(300)\n"
)
HUGE_JSON = "import sys\nsys.stdout.write('{\"reason\": \"' + 'x' * (17 << 20) + '\"}')\n"
SCRIPTS = {"zombie.py": ZOMBIE_MAKER, "threads.py": THREADS, "huge_json.py": HUGE_JSON}
"""Python helpers the hooks run from ``$W``."""


@dataclass(frozen=True)
class Hostile:
    body: str
    """Shell; ``$P`` is a file to record every pid the hook makes in, ``$W`` the folder."""
    expect: dict[str, Any] = field(default_factory=dict)
    """Fields of the hook's entry in the fire result."""
    error: str = ""
    """Text the hook's ``error`` must hold."""
    timeout: float = 1
    payload_kb: int = 0
    blocked: bool = False


ME = "echo $$ >> $P; "
HOSTILE = {
    "stdout-flood": Hostile(ME + "yes", {"timedOut": True, "stdoutTruncated": True}),
    "stderr-flood": Hostile(ME + "yes >&2", {"timedOut": True, "stderrTruncated": True}),
    "cpu-spin": Hostile(ME + "while :; do :; done", {"timedOut": True}),
    "ignores-term": Hostile(ME + "trap '' TERM; while :; do sleep 0.05; done", {"timedOut": True}),
    "stops-itself": Hostile(ME + "kill -STOP $$", {"timedOut": True}),
    "exec-into-sleep": Hostile(ME + "exec sleep 300", {"timedOut": True}),
    "closes-its-output-then-waits": Hostile(ME + "exec >&- 2>&-; sleep 300", {"timedOut": True}),
    "reads-stdin-then-waits": Hostile(ME + "cat >/dev/null; sleep 300", {"timedOut": True}),
    "never-reads-a-large-payload": Hostile(ME + "exit 0", {"exitCode": 0}, payload_kb=4096),
    "closes-stdin-at-once": Hostile("exec <&-; " + ME + "exit 0", {"exitCode": 0}, payload_kb=2048),
    "exits-3-on-a-large-payload": Hostile(ME + "exit 3", {"exitCode": 3}, payload_kb=4096),
    "killed-by-its-own-signal": Hostile(ME + "kill -SEGV $$", {"exitCode": -11}),
    "kills-itself-leaving-a-child": Hostile(
        "sleep 300 & echo $! >> $P; " + ME + "kill -9 $$", {"exitCode": -9}
    ),
    "binary-stdout": Hostile(ME + "head -c 200000 /dev/urandom", {"exitCode": 0}),
    "nul-bytes-after-json": Hostile(ME + "printf '{\"a\":1}\\0\\0'", {"exitCode": 0}),
    "invalid-utf8-reason": Hostile(
        ME + "printf '\\377\\376 no' >&2; exit 2", {"blocked": True}, blocked=True
    ),
    "two-hundred-thousand-lines": Hostile(ME + "seq 200000", {"exitCode": 0}),
    "json-over-the-cap": Hostile(
        ME + "python3 $W/huge_json.py", error="never ran", timeout=20, blocked=True
    ),
    "fifty-orphans": Hostile(
        ME + "for i in $(seq 50); do (sleep 300 >/dev/null 2>&1 & echo $! >> $P); done",
        {"exitCode": 0},
    ),
    "zombie-maker": Hostile("python3 $W/zombie.py $P", {"timedOut": True}),
    "two-hundred-threads": Hostile("python3 $W/threads.py $P", {"timedOut": True}),
    "holds-the-pipes-after-exit": Hostile(
        "sleep 300 & echo $! >> $P; " + ME + "exit 0", {"exitCode": 0}
    ),
    "answers-after-its-timeout": Hostile(
        ME + 'sleep 3; echo \'{"decision": "block", "reason": "late"}\'', {"timedOut": True}
    ),
    "setsid-ignoring-every-signal": Hostile(
        "setsid sh -c \"trap '' TERM HUP INT QUIT; echo \\$\\$ >> $P; exec sleep 300\" "
        ">/dev/null 2>&1 &\nfor i in $(seq 1000); do [ -s $P ] && break; sleep 0.01; done",
        {"exitCode": 0},
    ),
}


@pytest.fixture(scope="module")
def daemon(
    tmp_path_factory: pytest.TempPathFactory,
    platform: launch.Launcher[Any],
    serve_prefix: list[str],
) -> Iterator[ProcessDaemon]:
    with process_daemon(tmp_path_factory.mktemp("d"), {"leftover_processes": "kill"},
                        prefix=serve_prefix) as one:  # fmt: skip
        assert f"hook launcher at the seam: {platform.name}" in one.log.read_text()
        yield one


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_hostile_hook_is_answered_in_time_and_leaves_nothing(
    kind: str, daemon: ProcessDaemon, tmp_path: Path
) -> None:
    hostile = HOSTILE[kind]
    workspace = tmp_path / "ws"
    pids = workspace / "pids"
    workspace.mkdir()
    for name, text in SCRIPTS.items():
        (workspace / name).write_text(text)
    script = f"export P={pids} W={workspace}\n{hostile.body}\n"
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("PreToolUse", command(script, timeout=hostile.timeout)))  # fmt: skip
    payload = {"tool_name": "Bash", "tool_input": {"content": "x" * (hostile.payload_kb * 1024)}}

    started = time.monotonic()
    result = daemon.fire("claude", "PreToolUse", [str(workspace)], payload)
    took = time.monotonic() - started

    hook = result["hooks"][0]
    assert {k: hook[k] for k in hostile.expect} == hostile.expect, hook
    assert hostile.error in (hook["error"] or ""), hook
    assert result["blocked"] is hostile.blocked
    assert took < hostile.timeout + 10, f"the fire took {took:.1f} s"
    recorded = [int(p) for p in pids.read_text().split()] if pids.exists() else []
    assert recorded, "the hook recorded no pid"
    assert wait_gone(recorded) == [], "processes of the hook outlived it"
    assert daemon.status()["processes"]["running"] == 0
