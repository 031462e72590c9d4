"""Inside the network namespace: start the fake Gemini API, run Gemini CLI once headless,
and write what happened. Standard library only.

    python drive_gemini.py CASE_DIR   (CASE_DIR holds run.json; see tests/agents/gemini)

``gemini -p PROMPT --yolo --output-format json`` in the project (what a script or CI
runs), stdin closed (Gemini reads a piped stdin into the prompt), with the case's
environment and ``GEMINI_CLI_NO_RELAUNCH`` (one Node process, not a child with a bigger
heap). Its JSON answer goes to ``agent.stdout``, its warnings to ``agent.stderr``. Before
it, the case's own ``gemini`` commands run as a person types them (``gemini extensions
install <folder> --consent``, answering its trust question ``y``; ``gemini extensions
disable``), their output in ``before.log``. A run that outlives its deadline (a hook that
always sends the model back) is killed with its process group. Nothing waits on a clock
but that deadline.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from etc_overlay import overlay_etc
from fake_gemini import MODEL, new_script, serve
from scripted import start_backend


def main(case_dir: Path) -> None:
    run = json.loads((case_dir / "run.json").read_text())
    if run.get("etc"):
        overlay_etc(run["etc"])  # Gemini's system files live in /etc/gemini-cli
    script = new_script(run["turns"], str(case_dir / "requests.jsonl"))
    start_backend(partial(serve, port=run["port"]), script, str(case_dir / "api.port"),
                  "fake Gemini API")  # fmt: skip
    env = {"PATH": os.environ["PATH"], "HOME": run["home"], "TERM": "dumb", "LANG": "C.UTF-8",
           "TMPDIR": run["tmp"], "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{run['port']}",
           "GEMINI_API_KEY": "fake", "GEMINI_CLI_TRUST_WORKSPACE": "true",
           "GEMINI_CLI_NO_RELAUNCH": "true", **run.get("env", {})}  # fmt: skip
    with open(case_dir / "before.log", "wb") as log:
        for args in run.get("before", []):  # install an extension as a person does
            subprocess.run([run["node"], run["gemini"], *args], cwd=run["cwd"], env=env,
                           input=b"y\n", stdout=log, stderr=log, timeout=60, check=True)  # fmt: skip
    argv = [run["node"], run["gemini"], "-p", run["prompt"], "--yolo", "--output-format",
            run.get("format", "json"), "-m", MODEL, *run.get("args", [])]  # fmt: skip
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
