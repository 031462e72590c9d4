"""One hook process under hostile conditions: real processes, real pipes, real signals."""

from __future__ import annotations

import os
import select
from pathlib import Path
from typing import Any

import pytest
import trio

from hookd.daemon.runner import launch
from hookd.daemon.runner.process import ProcessLimits, run_hook_process
from hookd_testing import kill_leftovers, process_gone, read_pids, wait_until

ENV = dict(os.environ)


@pytest.fixture(autouse=True)
def launcher(
    platform: launch.Launcher[Any], monkeypatch: pytest.MonkeyPatch
) -> launch.Launcher[Any]:
    """Every test runs through the seam (``launch.BASE``) under each platform launcher
    (``platform``): the lean one (vfork on the event loop's thread, one epoll set) and
    trio's own (where there is no pidfd)."""
    monkeypatch.setattr(launch, "BASE", platform)
    return platform


def sh(script: str) -> tuple[str, ...]:
    return ("/bin/sh", "-c", script)


async def run(script: str, stdin: bytes = b"", **limits: float) -> object:
    return await run_hook_process(
        sh(script),
        stdin=stdin,
        cwd=None,
        env=ENV,
        limits=ProcessLimits(**{"timeout_s": 30, **limits}),
    )


async def test_exit_code_stdout_and_stderr_are_captured() -> None:
    """A plain hook's exit code and both output streams come back intact."""
    outcome = await run("cat; echo err >&2; exit 3", stdin=b'{"x": 1}')

    assert outcome.exit_code == 3
    assert outcome.stdout == b'{"x": 1}'
    assert outcome.stderr == b"err\n"
    assert not outcome.timed_out


async def test_timeout_kills_the_whole_process_tree(tmp_path: Path) -> None:
    """On timeout the hook's process group (children and grandchildren) is killed."""
    pids = tmp_path / "pids"
    script = f"echo $$ >> {pids}; (sleep 300 & echo $! >> {pids}; wait) & sleep 300 & echo $! >> {pids}; wait"
    try:
        # The timeout leaves the script ample time to start its children first.
        outcome = await run(script, timeout_s=1.5, term_grace_s=0.2)

        assert outcome.timed_out
        assert len(read_pids(pids)) == 3
        await wait_until(lambda: all(process_gone(pid) for pid in read_pids(pids)))
    finally:
        kill_leftovers(read_pids(pids))


async def test_sigterm_ignoring_hook_gets_sigkill(tmp_path: Path) -> None:
    """A hook that traps SIGTERM is SIGKILLed after the grace period."""
    pids = tmp_path / "pids"
    script = f"trap '' TERM; echo $$ >> {pids}; sleep 300 & echo $! >> {pids}; wait; wait"
    try:
        outcome = await run(script, timeout_s=1.0, term_grace_s=0.2)

        assert outcome.timed_out
        assert len(read_pids(pids)) == 2
        assert outcome.exit_code == -9
        await wait_until(lambda: all(process_gone(pid) for pid in read_pids(pids)))
    finally:
        kill_leftovers(read_pids(pids))


async def test_grandchild_holding_stdout_does_not_hang(tmp_path: Path) -> None:
    """A background child that keeps stdout open cannot hold the hook past its exit."""
    pids = tmp_path / "pids"
    try:
        with trio.fail_after(10):
            outcome = await run(f"sleep 300 & echo $! >> {pids}; echo '{{}}'", drain_grace_s=0.1)

        assert outcome.exit_code == 0
        assert outcome.stdout == b"{}\n"
        assert outcome.pipes_held_open
        assert not outcome.timed_out
    finally:
        kill_leftovers(read_pids(pids))


async def test_hook_that_never_reads_stdin_is_fine() -> None:
    """Writing a large payload to a hook that ignores stdin neither hangs nor fails."""
    with trio.fail_after(10):
        outcome = await run("echo ok", stdin=b"x" * (4 * 1024 * 1024))

    assert outcome.exit_code == 0
    assert outcome.stdout == b"ok\n"
    assert outcome.stdin_broken


async def test_huge_output_is_capped_and_reported() -> None:
    """Output past the cap is discarded (bounded memory) and the outcome says so."""
    outcome = await run("head -c 20000000 /dev/zero; echo done >&2", output_cap_bytes=64 * 1024)

    assert outcome.exit_code == 0
    assert len(outcome.stdout) == 64 * 1024
    assert outcome.stdout_truncated
    assert outcome.stderr == b"done\n"
    assert not outcome.stderr_truncated


async def test_missing_executable_is_reported_not_raised() -> None:
    """A hook that cannot start is an outcome with a helpful message, not an exception."""
    outcome = await run_hook_process(
        ("/nonexistent/hook",), stdin=b"", cwd=None, env=ENV, limits=ProcessLimits(timeout_s=5)
    )

    assert outcome.exit_code is None
    assert outcome.spawn_error is not None
    assert "not found" in outcome.spawn_error


async def test_outer_cancellation_kills_the_group(tmp_path: Path) -> None:
    """Cancelling the caller (e.g. $/cancelRequest) kills the hook's whole group."""
    pids = tmp_path / "pids"
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(run, f"echo $$ >> {pids}; sleep 300 & echo $! >> {pids}; wait")
            await wait_until(lambda: len(read_pids(pids)) == 2)
            nursery.cancel_scope.cancel()

        await wait_until(lambda: all(process_gone(pid) for pid in read_pids(pids)))
    finally:
        kill_leftovers(read_pids(pids))


async def test_hook_runs_in_its_own_session() -> None:
    """Each hook is a session leader (own process group, no controlling terminal)."""
    outcome = await run("ps -o sid= -p $$; echo $$")

    sid, pid = outcome.stdout.decode().split()
    assert sid == pid


@pytest.mark.parametrize("size", [0, 1, select.PIPE_BUF, select.PIPE_BUF + 1, 3 * 1024 * 1024])
async def test_stdin_arrives_whole_whatever_its_size(size: int) -> None:
    """A payload that fits one atomic pipe write goes in before the start; a larger one
    is fed as the hook reads: the hook gets every byte either way, and its end."""
    payload = bytes(i % 251 for i in range(size))
    outcome = await run("cat", stdin=payload, output_cap_bytes=8 * 1024 * 1024)

    assert outcome.exit_code == 0
    assert outcome.stdout == payload
    assert not outcome.stdin_broken


async def test_death_by_signal_is_a_negative_exit_code() -> None:
    """A hook killed by a signal reports it as Python does (-N), output kept."""
    outcome = await run("echo before; kill -SEGV $$")

    assert outcome.exit_code == -11
    assert outcome.stdout == b"before\n"


async def test_a_hook_not_found_in_a_working_directory_that_is_gone(tmp_path: Path) -> None:
    """The working directory is the hook's, and a missing one is said as such."""
    here = await run_hook_process(
        ("/bin/pwd",), stdin=b"", cwd=str(tmp_path), env=ENV, limits=ProcessLimits(timeout_s=5)
    )
    gone = await run_hook_process(
        ("/bin/pwd",), stdin=b"", cwd=str(tmp_path / "gone"), env=ENV,
        limits=ProcessLimits(timeout_s=5),
    )  # fmt: skip

    assert here.stdout == f"{tmp_path}\n".encode()
    assert gone.exit_code is None
    assert gone.spawn_error == f"working directory {tmp_path / 'gone'} does not exist"


async def test_no_descriptor_is_left_open(tmp_path: Path) -> None:
    """Hooks that run, fail to start, time out or flood leave no descriptor behind."""

    def open_fds() -> set[str]:
        return set(os.listdir("/proc/self/fd"))

    await run("true")  # whatever is opened once (trio's own) is opened now
    before = open_fds()
    for _ in range(3):
        await run("cat; echo out; echo err >&2", stdin=b"x" * 100_000)
        await run("head -c 300000 /dev/zero", output_cap_bytes=1000)
        await run("sleep 5", timeout_s=0.05, term_grace_s=0.05)
        await run_hook_process(
            ("/nonexistent/hook",), stdin=b"{}", cwd=None, env=ENV,
            limits=ProcessLimits(timeout_s=5),
        )  # fmt: skip
        await run_hook_process(
            ("/bin/true",), stdin=b"{}", cwd=str(tmp_path / "gone"), env=ENV,
            limits=ProcessLimits(timeout_s=5),
        )  # fmt: skip

    assert open_fds() == before


PROBE = (
    "pwd; echo \"$0|$*\"; env | sort; grep -E '^Sig(Blk|Ign|Cgt)' /proc/self/status; "
    "ls /proc/$$/fd; ps -o sid=,pgid=,pid= -p $$ | awk '$1==$3 && $2==$3 {print \"leader\"}'"
)


async def test_every_launcher_gives_the_hook_the_same_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lean start and trio's open_process start the very same child: working
    directory, argv, environment, signal mask and dispositions, open descriptors,
    session; with a program found on the hook's PATH, on a relative PATH entry, and a
    shell."""
    if len(launch.USABLE) < 2:
        pytest.skip("one launcher can run here: nothing to compare")
    (tmp_path / "bin").mkdir()
    probe = tmp_path / "bin" / "probe"
    probe.write_text(f"#!/bin/sh\n{PROBE}\n")
    probe.chmod(0o755)
    env = {**ENV, "PATH": f"{tmp_path / 'bin'}:/usr/bin:/bin", "HOOK_VALUE": "ünï  c=d"}
    relative = {**env, "PATH": f"bin:{env['PATH']}"}
    seen = {}
    for each in launch.USABLE:
        monkeypatch.setattr(launch, "BASE", each)
        for name, argv, environment in (
            ("path", ("probe", "a b", "--x"), env),
            ("relative", ("probe",), relative),
            ("shell", ("/bin/sh", "-c", PROBE, "zero", "one"), env),
        ):
            outcome = await run_hook_process(
                argv, stdin=b"{}", cwd=str(tmp_path), env=environment,
                limits=ProcessLimits(timeout_s=10),
            )  # fmt: skip
            assert outcome.exit_code == 0, outcome
            seen[each.name, name] = outcome.stdout

    for name in ("path", "relative", "shell"):
        assert seen["lean", name].splitlines() == seen["trio", name].splitlines()
    assert b"leader" in seen["lean", "path"]
    assert f"{tmp_path}\n{probe}|a b --x\n".encode() in seen["lean", "path"]


async def test_the_first_line_watch_can_give_the_hook_a_new_timeout() -> None:
    """The first stdout line holding a ``}`` is handed over once, as soon as it is read
    (before the hook ends), and the timeout the watcher returns counts from then."""
    seen: list[bytes] = []

    def watcher(line: bytes) -> float | None:
        seen.append(line)
        return 0.3

    with trio.fail_after(20):
        outcome = await run_hook_process(
            sh('printf \'{"async": true}\\n\'; echo more; sleep 30'), stdin=b"", cwd=None,
            env=ENV, limits=ProcessLimits(timeout_s=60, term_grace_s=0.1), first_line=watcher,
        )  # fmt: skip

    assert seen == [b'{"async": true}']
    assert outcome.timed_out
    assert outcome.stdout == b'{"async": true}\nmore\n'
