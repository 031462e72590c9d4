"""Inside the network namespace: start the fake chat-completions API, run Qwen Code once
headless, and write what happened. Standard library only.

    python drive_qwen.py CASE_DIR   (CASE_DIR holds run.json; see tests/agents/qwen)

``node cli.js -p PROMPT --yolo --auth-type openai --output-format json`` in the project
(what a script or CI runs), stdin closed, with the case's environment and
``QWEN_CODE_NO_RELAUNCH`` (one Node process: the launcher would relaunch itself with
``--expose-gc``). Its JSON answer goes to ``agent.stdout``, its warnings to
``agent.stderr``. A run that outlives its deadline is killed with its process group.
Nothing waits on a clock but that deadline.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from fake_openai import new_script, serve
from scripted import start_backend


def main(case_dir: Path) -> None:
    run = json.loads((case_dir / "run.json").read_text())
    script = new_script(run["turns"], str(case_dir / "requests.jsonl"))
    port = start_backend(serve, script, str(case_dir / "api.port"), "fake chat-completions API")
    env = {"PATH": os.environ["PATH"], **run["env"],
           "OPENAI_BASE_URL": f"http://127.0.0.1:{port}/v1"}  # fmt: skip
    argv = ["node", run["qwen"], "-p", run["prompt"], "--yolo", "--auth-type", "openai",
            "--output-format", run.get("format", "json"), *run.get("args", [])]  # fmt: skip
    started = time.monotonic()
    with open(case_dir / "agent.stdout", "wb") as out, open(case_dir / "agent.stderr", "wb") as err:
        proc = subprocess.Popen(argv, cwd=run["cwd"], env=env, stdin=subprocess.DEVNULL,
                                stdout=out, stderr=err, start_new_session=True)  # fmt: skip
        try:
            code = proc.wait(run.get("timeout", 60))
            killed = False
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            code, killed = proc.wait(), True
    observation = {"exit": code, "killed": killed, "seconds": round(time.monotonic() - started, 2)}
    (case_dir / "observation.json").write_text(json.dumps(observation))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
