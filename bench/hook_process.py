"""One hook process, in process, before and after a change to the runner (issue 22).

    git archive <commit before> daemon/src | tar -x -C /tmp/before
    python bench/hook_process.py --before-src /tmp/before/daemon/src [--quick] [--json]

``run_hook_process`` of ``/bin/sh -c true`` (Claude's ``true`` hook), stdin ``{}``, as the
daemon runs it (under a ``Custody`` with its warm interpreters in front: a hook they do
not take falls through to the platform's launcher) and bare (no custody). Each variant
runs in its own worker process, the ``before`` one with the older ``daemon/src`` first
on ``sys.path``; the workers take turns, a block of hooks each, so the machine's load
falls on both alike. Per variant: the p50 of one call (spawn to outcome) and the
worker's own CPU time per hook (user + system of the daemon's side only: the hook's
process is a child, not counted), and the ratios now/before. Without ``--before-src``
only the current code runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

BLOCK = 50
ARGV = ("/bin/sh", "-c", "true")


async def _worker() -> None:  # pragma: no cover - runs in the worker process
    """Read a mode per line (``custody`` or ``bare``), run a block of hooks, answer
    ``[wall ms per hook...], cpu s`` as JSON."""
    import trio

    from hookd.daemon.runner.custody import Custody
    from hookd.daemon.runner.process import ProcessLimits, run_hook_process
    from hookd.daemon.runner.warm.pool import WarmPool
    from hookd.daemon.settings import Settings

    custody = Custody(8)
    pool = WarmPool(Settings(), custody)
    if hasattr(custody, "launcher"):  # the launcher seam (issue 22)
        from hookd.daemon.runner.warm.launcher import warm_first

        custody.launcher = warm_first(pool, custody.launcher)
    else:
        custody.warm = pool  # type: ignore[attr-defined]  # the code before the seam
    env = dict(os.environ)
    limits = ProcessLimits(timeout_s=30)
    stdin = trio.lowlevel.FdStream(os.dup(0))
    async with trio.open_nursery() as nursery:
        await nursery.start(pool.run)
        lines = b""
        while True:
            while b"\n" not in lines:
                chunk = await stdin.receive_some(4096)
                if not chunk:
                    nursery.cancel_scope.cancel()
                    return
                lines += chunk
            line, lines = lines.split(b"\n", 1)
            under = custody if line.strip() == b"custody" else None
            walls = []
            cpu = time.process_time()
            for _ in range(BLOCK):
                started = time.perf_counter()
                outcome = await run_hook_process(
                    ARGV, stdin=b"{}", cwd=None, env=env, limits=limits, custody=under
                )
                walls.append((time.perf_counter() - started) * 1e3)
                if outcome.exit_code != 0:
                    raise SystemExit(f"the hook failed: {outcome}")
            cpu = time.process_time() - cpu
            print(json.dumps([walls, cpu]), flush=True)


def _start(src: str | None) -> subprocess.Popen[str]:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [src, env.get("PYTHONPATH")]))
    return subprocess.Popen(
        [sys.executable, __file__, "--worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
        text=True,
    )


def _block(worker: subprocess.Popen[str], mode: str) -> tuple[list[float], float]:
    assert worker.stdin is not None
    assert worker.stdout is not None
    worker.stdin.write(mode + "\n")
    worker.stdin.flush()
    walls, cpu = json.loads(worker.stdout.readline())
    return walls, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--before-src", metavar="DIR", help="daemon/src of the 'before' commit")
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        import trio

        trio.run(_worker)
        return 0
    rounds = 10 if args.quick else 40
    names = ["before", "now"] if args.before_src else ["now"]
    workers = {name: _start(args.before_src if name == "before" else None) for name in names}
    walls: dict[tuple[str, str], list[float]] = {}
    cpus: dict[tuple[str, str], float] = {}
    try:
        for index in range(rounds + 1):  # the first round warms up, uncounted
            for mode in ("custody", "bare"):
                for name in names[index % len(names) :] + names[: index % len(names)]:
                    wall, cpu = _block(workers[name], mode)
                    if index:
                        walls.setdefault((mode, name), []).extend(wall)
                        cpus[mode, name] = cpus.get((mode, name), 0.0) + cpu
    finally:
        for worker in workers.values():
            assert worker.stdin is not None
            worker.stdin.close()
            worker.wait(30)
    hooks = rounds * BLOCK
    figures: dict[str, Any] = {}
    print(f"run_hook_process of {' '.join(ARGV)!r}: {hooks} hooks per variant, in turns")
    ratios = f"{'p50 now/before':>16}{'cpu now/before':>16}" if len(names) > 1 else ""
    print(f"{'variant':<10}{'code':<8}{'p50 ms':>9}{'cpu us/hook':>13}{ratios}")
    for mode in ("custody", "bare"):
        for name in names:
            p50 = statistics.median(walls[mode, name])
            cpu_us = cpus[mode, name] / hooks * 1e6
            figures[f"{mode} / {name}"] = {"p50_ms": p50, "cpu_us_per_hook": cpu_us}
            row = f"{mode:<10}{name:<8}{p50:>9.3f}{cpu_us:>13.1f}"
            if name == "now" and len(names) > 1:
                p_ratio = p50 / statistics.median(walls[mode, "before"])
                c_ratio = cpus[mode, name] / max(cpus[mode, "before"], 1e-9)
                figures[f"{mode} / now vs before"] = {"p50": p_ratio, "cpu": c_ratio}
                row += f"{p_ratio:>15.2f}x{c_ratio:>15.2f}x"
            print(row)
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
