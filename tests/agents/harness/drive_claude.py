"""Inside the network namespace: start the fake Messages API, run Claude Code once, and
write what happened (``observation.json``). Standard library only.

    python drive_claude.py CASE_DIR   (CASE_DIR holds run.json; see tests/agents/claude)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from fake_anthropic import Script, serve


def main(case_dir: Path) -> None:
    run = json.loads((case_dir / "run.json").read_text())
    port_file = str(case_dir / "api.port")
    script = Script(run["turns"], str(case_dir / "requests.jsonl"))
    threading.Thread(target=serve, args=(port_file, script), daemon=True).start()
    deadline = time.monotonic() + 10
    while not os.path.exists(port_file):
        if time.monotonic() > deadline:
            raise SystemExit("the fake Messages API did not start")
        time.sleep(0.01)
    port = Path(port_file).read_text()
    env = {
        "PATH": os.environ["PATH"], "HOME": run["home"], "LANG": "C.UTF-8",
        "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{port}", "ANTHROPIC_API_KEY": "dummy",
        "DISABLE_TELEMETRY": "1", "DO_NOT_TRACK": "1", "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_ERROR_REPORTING": "1",
        **run.get("env", {}),
    }  # fmt: skip
    argv = [run["claude"], "-p", run["prompt"], "--output-format", "stream-json", "--verbose",
            "--model", "claude-sonnet-4-5", *run.get("args", ["--allowedTools", "Bash"])]  # fmt: skip
    started = time.monotonic()
    done = subprocess.run(argv, cwd=run["project"], env=env, capture_output=True,
                          timeout=run.get("timeout", 90))  # fmt: skip
    (case_dir / "agent.stdout").write_bytes(done.stdout)
    (case_dir / "agent.stderr").write_bytes(done.stderr)
    observation = {"exit": done.returncode, "seconds": round(time.monotonic() - started, 2)}
    (case_dir / "observation.json").write_text(json.dumps(observation))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
