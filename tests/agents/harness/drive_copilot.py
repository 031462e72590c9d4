"""Inside the network namespace: start the fake chat-completions API, run GitHub Copilot
CLI once in prompt mode, and write what happened. Standard library only.

    python drive_copilot.py CASE_DIR   (CASE_DIR holds run.json; see tests/agents/copilot)

``copilot -p PROMPT --allow-all-tools --no-color`` in its offline bring-your-own-provider
mode (``COPILOT_OFFLINE``, ``COPILOT_PROVIDER_*``: ``copilot-research.md §6``), its stdin
closed; stdout, stderr and the exit code go to ``agent.stdout``, ``agent.stderr`` and
``observation.json``. A case with policy files shows its ``etc`` folder over ``/etc`` in
the driver's own mount namespace (never the machine's).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from fake_openai import new_script, serve
from scripted import start_backend


def _overlay_etc(etc: str) -> None:
    """Show the case's ``etc`` over ``/etc`` (``/etc/github-copilot/policy.d``), in this
    process's own mount namespace only (refused elsewhere)."""
    if os.readlink("/proc/self/ns/mnt") == os.readlink(f"/proc/{os.getppid()}/ns/mnt"):
        raise SystemExit("the driver must run in its own mount namespace to show /etc")
    subprocess.run(["mount", "-t", "overlay", "overlay", "-o", f"lowerdir={etc}:/etc", "/etc"],
                   check=True)  # fmt: skip


def main(case_dir: Path) -> None:
    run = json.loads((case_dir / "run.json").read_text())
    if run.get("etc"):
        _overlay_etc(run["etc"])
    script = new_script(run["turns"], str(case_dir / "requests.jsonl"))
    port = start_backend(serve, script, str(case_dir / "api.port"), "fake chat-completions API")
    env = {**run["env"], "COPILOT_PROVIDER_BASE_URL": f"http://127.0.0.1:{port}/v1"}
    argv = [run["copilot"], "-p", run["prompt"], *run.get("args", ["--allow-all-tools"]),
            "--no-color"]  # fmt: skip
    started = time.monotonic()
    with open(case_dir / "agent.stdout", "wb") as out, open(case_dir / "agent.stderr", "wb") as err:
        try:
            done = subprocess.run(argv, cwd=run["cwd"], env=env, stdin=subprocess.DEVNULL,
                                  stdout=out, stderr=err, timeout=run.get("timeout", 90),
                                  check=False)  # fmt: skip
            code = done.returncode
        except subprocess.TimeoutExpired:
            code = 124
    observation = {"exit": code, "seconds": round(time.monotonic() - started, 2)}
    (case_dir / "observation.json").write_text(json.dumps(observation))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
