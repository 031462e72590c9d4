"""The launcher seam (``runner/launch.py``): the platform's launcher is chosen once, the
daemon says which one its hooks start through, and a wrapper put at the seam sees every
hook process started, warm interpreters stepping aside for it."""

from __future__ import annotations

import json
import os
import select
import sys
from collections.abc import Coroutine, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import trio

from hookd.daemon.app import serve
from hookd.daemon.model import ProcessOutcome
from hookd.daemon.runner import launch
from hookd.daemon.runner.custody import Custody
from hookd.daemon.runner.output import FirstLine, ProcessLimits
from hookd.daemon.runner.process import run_hook_process
from hookd.daemon.runner.warm.launcher import WarmFirst, warm_first
from hookd.daemon.runner.warm.pool import WarmPool
from hookd.daemon.settings import Settings
from hookd_testing import RpcClient

PYTHON = "/usr/bin/python3"
needs_warm = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not os.path.exists(PYTHON),
    reason="warm interpreters need Linux and a system Python",
)
HOOK = "import json, sys\njson.load(sys.stdin)\nprint('no', file=sys.stderr)\nsys.exit(2)\n"


def _pidfd_here() -> bool:
    if not (sys.platform.startswith("linux") and hasattr(select, "epoll")):
        return False
    try:
        os.close(os.pidfd_open(os.getpid()))
    except (AttributeError, OSError):
        return False
    return True


class Recording:
    """A wrapper launcher, as a sandbox or a cgroup would be one: it delegates every call
    to the launcher it wraps, and records what it started and supervised."""

    bare = False

    def __init__(self, inner: launch.Launcher[Any]) -> None:
        self.inner = inner
        self.name = f"recording+{inner.name}"
        self.started: list[tuple[tuple[str, ...], int]] = []
        self.supervised: list[int] = []

    async def start(
        self, argv: Sequence[str], cwd: str | None, env: Mapping[str, str], stdin: bytes
    ) -> Any:
        child = await self.inner.start(argv, cwd, env, stdin)
        self.started.append((tuple(argv), child.pid))
        return child

    def supervise(
        self,
        child: Any,
        stdin: bytes,
        limits: ProcessLimits,
        started: float,
        kill_leftovers: bool,
        first_line: FirstLine | None,
    ) -> Coroutine[Any, Any, ProcessOutcome]:
        self.supervised.append(child.pid)
        return self.inner.supervise(child, stdin, limits, started, kill_leftovers, first_line)


async def test_the_platform_launcher_is_chosen_once_at_import(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``launch.BASE`` says which launcher is in force: lean where there are pidfds and
    epoll, else trio's. It was chosen at import: nothing asks the system again per hook
    (nor per custody)."""
    assert launch.BASE is launch.USABLE[0]
    assert launch.BASE.name == ("lean" if _pidfd_here() else "trio")
    assert launch.BASE.bare

    def asked_again() -> bool:
        raise AssertionError("the platform was asked again after import")

    monkeypatch.setattr(launch, "_has_pidfd", asked_again)
    custody = Custody(4)
    assert custody.launcher is launch.BASE
    for under in (None, custody):
        outcome = await run_hook_process(("/bin/sh", "-c", "exit 3"), stdin=b"", cwd=None,
                                         env=dict(os.environ), limits=ProcessLimits(timeout_s=30),
                                         custody=under)  # fmt: skip
        assert outcome.exit_code == 3


async def test_the_daemon_says_which_launcher_its_hooks_start_through(
    settings: Settings,
) -> None:
    """Built once, at start-up: the warm interpreters in front of ``launch.BASE``, or
    ``launch.BASE`` alone when warm Python is off."""
    for warm, expected in ((True, f"warm+{launch.BASE.name}"), (False, launch.BASE.name)):
        async with trio.open_nursery() as nursery:
            daemon = await nursery.start(serve, replace(settings, warm_python=warm))
            assert daemon.custody.launcher.name == expected
            assert isinstance(daemon.custody.launcher, WarmFirst) is warm
            daemon.request_shutdown("test")


async def _python_hooks(
    custody: Custody, pool: WarmPool, folder: Path, runs: int
) -> list[int | None]:
    """Run a Python hook a zygote would take ``runs`` times (each after the pool has
    settled, so all but the first would be warm forks); their exit codes."""
    codes: list[int | None] = []
    env = {"PATH": "/usr/bin:/bin", "HOME": str(folder), "LANG": "C.UTF-8"}
    for _ in range(runs):
        outcome = await run_hook_process([PYTHON, "hook.py"], stdin=b"{}", cwd=str(folder),
                                         env=env, limits=ProcessLimits(timeout_s=30),
                                         custody=custody)  # fmt: skip
        codes.append(outcome.exit_code)
        await pool.settled()
    return codes


@needs_warm
async def test_a_wrapper_at_the_seam_sees_every_hook_process_warm_ones_included(
    platform: launch.Launcher[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a wrapper the hook runs warm (a zygote forks it, no launcher starts it).
    With a wrapper around the launcher in force, the warm layer steps aside: every hook
    process is started, and supervised, through the wrapper."""
    (tmp_path / "hook.py").write_text(HOOK)
    monkeypatch.setattr(launch, "BASE", platform)
    bare = Custody(4)
    bare_pool = WarmPool(Settings(warm_idle_s=120.0), bare)
    bare.launcher = warm_first(bare_pool, bare.launcher)
    async with trio.open_nursery() as nursery:
        await nursery.start(bare_pool.run)
        assert await _python_hooks(bare, bare_pool, tmp_path, 3) == [2, 2, 2]
        nursery.cancel_scope.cancel()
    assert bare_pool.hits == 2  # the control: these hooks would be warm forks

    recording = Recording(platform)
    monkeypatch.setattr(launch, "BASE", recording)
    custody = Custody(4)
    pool = WarmPool(Settings(warm_idle_s=120.0), custody)
    custody.launcher = warm_first(pool, custody.launcher)
    assert custody.launcher is recording
    async with trio.open_nursery() as nursery:
        await nursery.start(pool.run)
        assert await _python_hooks(custody, pool, tmp_path, 3) == [2, 2, 2]
        nursery.cancel_scope.cancel()
    assert [argv for argv, _pid in recording.started] == [(PYTHON, "hook.py")] * 3
    assert recording.supervised == [pid for _argv, pid in recording.started]
    assert pool.hits == 0
    assert pool.view()["enabled"] is False
    assert pool.view()["interpreters"] == []


@needs_warm
async def test_a_wrapper_at_the_seam_sees_every_hook_the_daemon_runs(
    settings: Settings, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Put at the seam before the daemon starts, the wrapper is what the daemon hands
    down: every hook of every fire starts through it (``test_daemon_warm.py`` runs the
    same hook warm without one), and ``status`` says no hook ran warm."""
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / "guard.py").write_text(HOOK)
    command = 'python3 "$CLAUDE_PROJECT_DIR"/.claude/guard.py'
    hooks = {"PreToolUse": [{"hooks": [{"type": "command", "command": command}]}]}
    (workspace / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    recording = Recording(launch.BASE)
    monkeypatch.setattr(launch, "BASE", recording)
    async with trio.open_nursery() as nursery:
        daemon = await nursery.start(serve, settings)
        assert daemon.custody.launcher is recording
        client = await RpcClient.connect(settings.socket_path)
        results = []
        for _ in range(3):
            payload = {"tool_name": "Bash", "tool_input": {"command": "ls"}}
            results.append(await client.fire("claude", "PreToolUse", [str(workspace)], payload))
            await daemon.warm.settled()
        status = await client.call("status")
        await client.call("shutdown")
        await client.aclose()
    assert [r["hooks"][0]["exitCode"] for r in results] == [2, 2, 2]
    assert [argv for argv, _pid in recording.started] == [("/bin/sh", "-c", command)] * 3
    assert len(recording.supervised) == 3
    assert status["warmPython"]["enabled"] is False
    assert status["warmPython"]["hits"] == 0
