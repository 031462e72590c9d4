"""Inside the network namespace: start the fake Augment backend, run auggie once
(``--print --output-format json``), and write what happened (``observation.json``).
Standard library only.

    python drive_augment.py CASE_DIR   (CASE_DIR holds run.json; see tests/agents/augment)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from fake_augment import new_script, serve
from scripted import start_backend


def main(case_dir: Path) -> None:
    run = json.loads((case_dir / "run.json").read_text())
    script = new_script(run["turns"], str(case_dir / "requests.jsonl"))
    port = start_backend(serve, script, str(case_dir / "api.port"), "fake Augment backend")
    session = {"accessToken": "dummy", "tenantURL": f"http://127.0.0.1:{port}/",
               "scopes": ["email"]}  # fmt: skip
    env = {
        "PATH": os.environ["PATH"], "HOME": run["home"], "LANG": "C.UTF-8",
        "AUGMENT_SESSION_AUTH": json.dumps(session),
        "DISABLE_TELEMETRY": "1", "DO_NOT_TRACK": "1", "DISABLE_AUTOUPDATER": "1",
        "DISABLE_ERROR_REPORTING": "1",
        **run.get("env", {}),
    }  # fmt: skip
    argv = [run["auggie"], "--print", "--output-format", "json", *run.get("args", []),
            run["prompt"]]  # fmt: skip
    started = time.monotonic()
    done = subprocess.run(argv, cwd=run["project"], env=env, capture_output=True,
                          timeout=run.get("timeout", 90))  # fmt: skip
    (case_dir / "agent.stdout").write_bytes(done.stdout)
    (case_dir / "agent.stderr").write_bytes(done.stderr)
    observation = {"exit": done.returncode, "seconds": round(time.monotonic() - started, 2)}
    (case_dir / "observation.json").write_text(json.dumps(observation))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
