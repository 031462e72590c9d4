"""What the relay costs per event, side by side in one run (issue 12).

    python bench/relay.py [--samples N]

For one trivial hook (``true``) and for ten, interleaved sample by sample:
* ``agent``: what the agent pays running its hooks itself (one ``sh -c`` per hook, the
  hooks of an event at once, as Claude Code runs them);
* ``relay``: what it pays with the hooks adopted: one ``hookd-relay claude`` process per
  event, which fires through a warm daemon that runs the hooks.
* ``python start``: starting this Python and doing nothing, the floor of any Python relay.
Ratios relay/agent are the figure, and relay minus Python's start the relay's own cost;
milliseconds move with the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EVENT = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                    "tool_input": {"command": "ls"}, "cwd": "/"}).encode()  # fmt: skip


RELAY = str(Path(sys.executable).parent / "hookd-relay")
"""The console script, as an agent runs it (``python -m`` would add runpy's import cost)."""


def _python() -> float:
    """The floor: starting this Python and doing nothing."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return (time.perf_counter() - started) * 1000


def _agent(hooks: int) -> float:
    started = time.perf_counter()
    running = [subprocess.Popen(["/bin/sh", "-c", "true"], stdin=subprocess.PIPE)
               for _ in range(hooks)]  # fmt: skip
    for process in running:
        process.communicate(EVENT)
    return (time.perf_counter() - started) * 1000


def _relay(env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run([RELAY, "claude"], input=EVENT, env=env, capture_output=True,
                          check=False)  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"the relay failed: {done.stderr.decode()}")
    return (time.perf_counter() - started) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hkrelay") as tmp:
        home, sock = Path(tmp) / "home", str(Path(tmp) / "hookd.sock")
        env = {**os.environ, "HOME": str(home), "HOOKD_SOCKET": sock, "HOOKD_NO_SPAWN": "1"}
        serve = ["--socket", sock, "serve", "--home", str(home), "--log-level", "error"]
        daemon = subprocess.Popen([sys.executable, "-m", "hookd", *serve], env=env)
        try:
            for _ in range(200):
                if os.path.exists(sock):
                    break
                time.sleep(0.05)
            print("hooks  agent p50   relay p50   python start p50   relay/agent  relay-python")
            for hooks in (1, 10):
                adopted = home / ".config" / "hookd" / "claude" / "settings.json"
                adopted.parent.mkdir(parents=True, exist_ok=True)
                handlers = [{"type": "command", "command": f"true {i}"} for i in range(hooks)]
                adopted.write_text(json.dumps({"hooks": {"PreToolUse": [{"hooks": handlers}]}}))
                _relay(env)  # warm the registry
                agent, relay, python = [], [], []
                for _ in range(args.samples):
                    agent.append(_agent(hooks))
                    relay.append(_relay(env))
                    python.append(_python())
                a, r, p = (statistics.median(x) for x in (agent, relay, python))
                print(
                    f"{hooks:>5}  {a:8.2f} ms  {r:8.2f} ms  {p:14.2f} ms  {r / a:10.2f}x  "
                    f"{r - p:8.2f} ms"
                )
        finally:
            subprocess.run([sys.executable, "-m", "hookd", "--socket", sock, "shutdown"],
                           env=env, capture_output=True, check=False)  # fmt: skip
            daemon.wait(30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
