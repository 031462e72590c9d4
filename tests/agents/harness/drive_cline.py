"""Inside the network namespace: start the fake chat-completions API, point the Cline CLI
at it (its own settings files, as ``cline auth`` writes them), run one task and write
what happened (``observation.json``). Standard library only.

    python drive_cline.py CASE_DIR   (CASE_DIR holds run.json; see tests/agents/cline*)

``run.json``: ``cline`` (the executable), ``version`` ("sdk" or "core"), ``home``,
``project``, ``argv`` (after the executable), ``turns``, ``env``, ``timeout``, and
``until``: texts that end the run once one is in the agent's stdout (Cline's original
runner waits forever after a hook cancels and ignores SIGTERM: its whole process group
is killed).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from fake_openai import new_script, serve
from scripted import start_backend


def _configure(run: dict[str, Any], base_url: str) -> None:
    data = Path(run["home"]) / ".cline" / "data"
    if run["version"] == "sdk":
        settings = {"provider": "openai-compatible", "apiKey": "dummy", "model": "fake",
                    "baseUrl": base_url}  # fmt: skip
        providers = {"version": 1, "lastUsedProvider": "openai-compatible", "modes": {},
                     "providers": {"openai-compatible": {
                         "settings": settings, "updatedAt": "2026-01-01T00:00:00.000Z",
                         "tokenSource": "manual"}}}  # fmt: skip
        (data / "settings").mkdir(parents=True, exist_ok=True)
        (data / "settings" / "providers.json").write_text(json.dumps(providers))
    else:
        data.mkdir(parents=True, exist_ok=True)
        state = {"actModeApiProvider": "openai", "planModeApiProvider": "openai",
                 "actModeOpenAiModelId": "fake", "planModeOpenAiModelId": "fake",
                 "openAiBaseUrl": base_url, "telemetrySetting": "disabled",
                 **run.get("global_state", {})}  # fmt: skip
        (Path(run["home"]) / ".cline" / "data").mkdir(parents=True, exist_ok=True)
        (data / "globalState.json").write_text(json.dumps(state))
        (data / "secrets.json").write_text(json.dumps({"openAiApiKey": "dummy"}))


def _run(argv: list[str], run: dict[str, Any], env: dict[str, str]) -> dict[str, Any]:
    """Run the agent; end its process group once an ``until`` text is in its stdout."""
    out_path = Path(run["case_dir"]) / "agent.stdout"
    err_path = Path(run["case_dir"]) / "agent.stderr"
    started = time.monotonic()
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = subprocess.Popen(argv, cwd=run["project"], env=env, stdout=out, stderr=err,
                                stdin=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
        ended_by = "exit"
        deadline = started + run.get("timeout", 90)
        until = [text.encode() for text in run.get("until", [])]
        while proc.poll() is None:
            if until and any(text in out_path.read_bytes() for text in until):
                time.sleep(run.get("grace", 0.3))  # let the hooks of that moment finish
                ended_by = "until"
                break
            if time.monotonic() > deadline:
                ended_by = "timeout"
                break
            time.sleep(0.05)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    with contextlib.suppress(ProcessLookupError):  # what it left running in its group
        os.killpg(proc.pid, signal.SIGKILL)
    return {"exit": proc.returncode, "ended_by": ended_by,
            "seconds": round(time.monotonic() - started, 2)}  # fmt: skip


def main(case_dir: Path) -> None:
    run = json.loads((case_dir / "run.json").read_text())
    run["case_dir"] = str(case_dir)
    script = new_script(run["turns"], str(case_dir / "requests.jsonl"))
    port = start_backend(serve, script, str(case_dir / "api.port"), "fake chat-completions API")
    base_url = f"http://127.0.0.1:{port}/v1"
    _configure(run, base_url)
    env = {
        "PATH": os.environ["PATH"], "HOME": run["home"], "LANG": "C.UTF-8",
        "DISABLE_TELEMETRY": "1", "DO_NOT_TRACK": "1", "DISABLE_AUTOUPDATER": "1",
        "DISABLE_ERROR_REPORTING": "1", "CLINE_NO_AUTO_UPDATE": "1",
        "CLINE_TELEMETRY_DISABLED": "1", "CLINE_SESSION_BACKEND_MODE": "local",
        "CLINE_LOG_ENABLED": "1", "OTEL_SDK_DISABLED": "true",
        **run.get("env", {}),
    }  # fmt: skip
    observation = _run([run["cline"], *run["argv"]], run, env)
    (case_dir / "observation.json").write_text(json.dumps(observation))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
