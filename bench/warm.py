"""Fresh vs warm Python hooks, side by side in one run (issue 15).

``python bench/warm.py [--quick]`` (also run at the end of ``bench/run.py``): each hook is
run through hookd's process layer (``run_hook_process`` under a custody, as the daemon
runs it) fresh, and again from a warm interpreter (``runner/warm``), alternating so the
machine's load falls on both alike; p50 of spawn-to-exit with stdin written and output
read, and the ratio fresh / warm. Hooks, in the style of public hook collections:

* ``trivial``: reads the event JSON and exits 0 (``python3 hook.py``);
* ``heavy``: imports a dozen standard modules (argparse, dataclasses, subprocess,
  pathlib, typing, datetime, re, tempfile, shutil, logging, hashlib, urllib.request);
* ``pre+post``: a PreToolUse and a PostToolUse hook of one tool call, each through
  ``sh -c 'python3 "$CLAUDE_PROJECT_DIR"/... '`` as Claude Code runs them;
* ``uv run``: the trivial hook with PEP 723 inline metadata, ``uv run hook.py``, and the
  pre+post pair as a public collection writes them (inline metadata, ``sh -c 'uv run
  "$CLAUDE_PROJECT_DIR"/...'``); uv (requirements-dev.txt) runs offline with its cache in
  the bench's folder. Skipped when uv is not installed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import trio

from hookd.daemon.runner.custody import Custody
from hookd.daemon.runner.launch import BASE
from hookd.daemon.runner.process import ProcessLimits, run_hook_process
from hookd.daemon.runner.warm.launcher import warm_first
from hookd.daemon.runner.warm.pool import WarmPool
from hookd.daemon.settings import Settings

PYTHON = "/usr/bin/python3"
HOOKS = {
    "trivial.py": "import json, sys\njson.load(sys.stdin)\n",
    "heavy.py": (
        "import argparse, dataclasses, subprocess, pathlib, typing, datetime, re, tempfile\n"
        "import shutil, logging, hashlib, urllib.request, json, sys\n"
        "event = json.load(sys.stdin)\nlogging.getLogger('hook').debug('%s', event)\n"
    ),
    "pre.py": (
        "import json, re, sys\nevent = json.load(sys.stdin)\n"
        "if re.search(r'rm\\s+-rf\\s+/', event['tool_input']['command']):\n"
        "    print('blocked', file=sys.stderr); sys.exit(2)\n"
    ),
    "post.py": (
        "import json, sys, datetime, pathlib\nevent = json.load(sys.stdin)\n"
        "log = pathlib.Path(sys.argv[1])\n"
        "with log.open('a') as f:\n"
        "    f.write(json.dumps({'at': datetime.datetime.now().isoformat(),"
        " 'tool': event['tool_name']}) + '\\n')\n"
    ),
}
INLINE = '# /// script\n# requires-python = ">=3.9"\n# dependencies = []\n# ///\n'
HOOKS.update({f"uv_{name}": INLINE + HOOKS[name] for name in ("trivial.py", "pre.py", "post.py")})
EVENT = b'{"tool_name": "Bash", "tool_input": {"command": "ls -la"}, "hook_event_name": "x"}\n'
UV = shutil.which("uv") or str(Path(sys.executable).with_name("uv"))
HAVE_UV = os.path.exists(UV)


async def _measure(samples: int) -> list[tuple[str, float, float]]:
    folder = Path(tempfile.mkdtemp(prefix="hookd-warm-bench-"))
    for name, text in HOOKS.items():
        (folder / name).write_text(text)
    (folder / "bin").mkdir()
    env = {"PATH": f"{folder / 'bin'}:/usr/bin:/bin", "HOME": str(folder), "LANG": "C.UTF-8",
           "CLAUDE_PROJECT_DIR": str(folder), "UV_CACHE_DIR": str(folder / "uv-cache"),
           "UV_OFFLINE": "1", "UV_PYTHON_DOWNLOADS": "never"}  # fmt: skip
    log = folder / "post.log"
    cases: dict[str, list[Sequence[str]]] = {
        "trivial Python hook": [[PYTHON, "trivial.py"]],
        "heavy stdlib imports": [[PYTHON, "heavy.py"]],
        "pre+post pair (sh -c)": [
            ["/bin/sh", "-c", 'python3 "$CLAUDE_PROJECT_DIR"/pre.py'],
            ["/bin/sh", "-c", f'python3 "$CLAUDE_PROJECT_DIR"/post.py {log}'],
        ],
    }
    if HAVE_UV:
        (folder / "bin" / "uv").symlink_to(UV)
        cases["uv run hook (inline metadata)"] = [["uv", "run", "uv_trivial.py"]]
        cases["uv pre+post pair (sh -c)"] = [
            ["/bin/sh", "-c", 'uv run "$CLAUDE_PROJECT_DIR"/uv_pre.py'],
            ["/bin/sh", "-c", f'uv run "$CLAUDE_PROJECT_DIR"/uv_post.py {log}'],
        ]
    custody = Custody(8)
    pool = WarmPool(Settings(warm_idle_s=600.0), custody)
    with_warm = warm_first(pool, BASE)
    rows = []
    async with trio.open_nursery() as nursery:
        await nursery.start(pool.run)

        async def once(argvs: list[Sequence[str]], warm: bool) -> float:
            custody.launcher = with_warm if warm else BASE
            started = time.perf_counter()
            for argv in argvs:
                outcome = await run_hook_process(
                    argv, stdin=EVENT, cwd=str(folder), env=env,
                    limits=ProcessLimits(timeout_s=30), custody=custody,
                )  # fmt: skip
                if outcome.exit_code != 0:
                    raise SystemExit(f"{argv}: exit {outcome.exit_code}: {outcome.stderr!r}")
            return (time.perf_counter() - started) * 1000

        for label, argvs in cases.items():
            await once(argvs, False)  # uv builds the scripts' environments
            await once(argvs, True)  # asks uv how it runs them, starts the zygotes
            await pool.settled()
            hits = pool.hits
            fresh, warm = [], []
            for _ in range(samples):
                fresh.append(await once(argvs, False))
                warm.append(await once(argvs, True))
            if pool.hits != hits + samples * len(argvs):
                raise SystemExit(f"{label}: not every run was warm: {dict(pool.fallbacks)}")
            rows.append((label, statistics.median(fresh), statistics.median(warm)))
        nursery.cancel_scope.cancel()
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    args = parser.parse_args(argv)
    if not sys.platform.startswith("linux") or not os.path.exists(PYTHON):
        print("warm Python figures: skipped (needs Linux and /usr/bin/python3)")
        return 0
    rows = trio.run(_measure, 8 if args.quick else 30)
    print("\nwarm Python hooks (p50 spawn to exit, same run, alternating)")
    print(f"{'hook':<32}{'fresh ms':>10}{'warm ms':>10}{'fresh/warm':>12}")
    for label, fresh, warm in rows:
        print(f"{label:<32}{fresh:>10.1f}{warm:>10.1f}{fresh / warm:>11.1f}x")
    if not HAVE_UV:
        print("uv run hooks: skipped (uv is not installed; requirements-dev.txt installs it)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
