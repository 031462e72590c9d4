"""The lean fire path before and after (issue 15), side by side in one run.

    git archive <commit before> daemon/src | tar -x -C /tmp/before
    python bench/lean.py --before-src /tmp/before/daemon/src [--quick] [--json]

Two daemons with the same settings (``trust_all``, audit on), one running the older
``daemon/src``, are sent the same requests sample by sample, in turns: a request for an
unknown method (the transport floor), a fire that matches no hook, a fire running one
Claude ``true`` hook. For each: the round-trip p50 as the client sees it, the daemon's
own CPU time per request (user + system of the daemon process, read from ``/proc``
around every sample: less moved by a busy machine than milliseconds are), and the
ratios now/before. Without ``--before-src`` only the current daemon runs.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from hookd.client import Client, RemoteError

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run.py's helpers, as bench.run
from bench.run import (
    CLAUDE_PAYLOAD_NO_MATCH,
    BenchError,
    claude_payload,
    claude_settings,
    make_workspace,
    p50,
    read_cpu_s,
    write_claude,
)
from bench.trust_overhead import ConfiguredDaemon

KINDS = ("unknown method", "fire, no hook", "fire, one hook")


def requests(client: Client, root: Path) -> dict[str, Callable[[], object]]:
    """One request of each kind, checked to do what it should."""
    roots = [str(root)]
    match, nomatch = claude_payload(root), claude_payload(root, CLAUDE_PAYLOAD_NO_MATCH)

    def unknown() -> None:
        try:
            client.call("bench/no-such-method")
        except RemoteError:
            return
        raise BenchError("an unknown method was answered without an error")

    def fire(payload: dict[str, Any], hooks: int) -> Callable[[], object]:
        def once() -> None:
            ran = client.fire("claude", "PreToolUse", roots, payload)["hooks"]
            if len(ran) != hooks or any(h["exitCode"] != 0 for h in ran):
                raise BenchError(f"expected {hooks} hook(s) to run and exit 0, got {ran}")

        return once

    return dict(zip(KINDS, (unknown, fire(nomatch, 0), fire(match, 1)), strict=True))


def _sample(daemon: ConfiguredDaemon, once: Callable[[], object]) -> tuple[float, float]:
    """One request: its round trip in ms, and the daemon's CPU seconds meanwhile."""
    assert daemon.process is not None
    pid = daemon.process.pid
    cpu_before = read_cpu_s(pid) or 0.0
    started = time.perf_counter()
    once()
    took_ms = (time.perf_counter() - started) * 1e3
    return took_ms, (read_cpu_s(pid) or 0.0) - cpu_before


Runs = dict[str, tuple[ConfiguredDaemon, dict[str, Callable[[], object]]]]
Samples = tuple[dict[tuple[str, str], list[float]], dict[tuple[str, str], float]]


def measure(runs: Runs, rounds: int) -> Samples:
    """Every kind of request ``rounds`` times per daemon, the daemons taking turns: the
    round trips (ms) and the daemon's CPU seconds, by (kind, daemon)."""
    wall: dict[tuple[str, str], list[float]] = {}
    cpu: dict[tuple[str, str], float] = {}
    names = list(runs)
    for index in range(rounds):
        for kind in KINDS:
            for name in names[index % len(names) :] + names[: index % len(names)]:
                daemon, calls = runs[name]
                took_ms, cpu_s = _sample(daemon, calls[kind])
                wall.setdefault((kind, name), []).append(took_ms)
                cpu[kind, name] = cpu.get((kind, name), 0.0) + cpu_s
    return wall, cpu


def report(samples: Samples, names: list[str], rounds: int) -> dict[str, Any]:
    """Print the table; the figures for ``--json``."""
    wall, cpu = samples
    figures: dict[str, Any] = {}
    print(f"lean fire path: {rounds} requests of each kind per daemon, in turns")
    header = f"{'request':<18}{'daemon':<8}{'p50 ms':>9}{'cpu ms/req':>12}"
    print(header + (f"{'p50 now/before':>16}{'cpu now/before':>16}" if len(names) > 1 else ""))
    for kind in KINDS:
        for name in names:
            p = p50(wall[kind, name])
            c = cpu[kind, name] / rounds * 1000
            row = f"{kind:<18}{name:<8}{p:>9.3f}{c:>12.3f}"
            figures[f"{kind} / {name}"] = {"p50_ms": p, "cpu_ms_per_request": c}
            if name == "now" and "before" in names:
                p_ratio = p / p50(wall[kind, "before"])
                c_ratio = cpu[kind, name] / max(cpu[kind, "before"], 1e-9)
                row += f"{p_ratio:>15.2f}x{c_ratio:>15.2f}x"
                figures[f"{kind} / now vs before"] = {"p50": p_ratio, "cpu": c_ratio}
            print(row)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--before-src", metavar="DIR", help="daemon/src of the 'before' commit")
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = parser.parse_args()
    rounds = 300 if args.quick else 1500
    variants = {"now": None} if not args.before_src else {"before": args.before_src, "now": None}

    ws = make_workspace()
    root = ws.root("one")
    write_claude(root, claude_settings(["true"]))
    with ExitStack() as cleanup:  # every daemon stopped, every client closed, the tree gone
        cleanup.callback(shutil.rmtree, ws.base, ignore_errors=True)
        runs: Runs = {}
        for name, src in variants.items():
            config = {"trust_all": True, "state_dir": str(ws.base / name)}
            daemon = ConfiguredDaemon(ws.base, ws.env, name, config, src)
            cleanup.callback(daemon.stop)
            daemon.start(ws.home, ws.system_root)
            client = Client(daemon.socket)
            cleanup.callback(client.close)
            runs[name] = (daemon, requests(client, root))
        time.sleep(2.5)  # past the racy window of the settings just written
        for _daemon, calls in runs.values():
            for once in calls.values():
                for _ in range(30):  # warm-up
                    once()
        figures = report(measure(runs, rounds), list(runs), rounds)
        if args.json:
            print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
