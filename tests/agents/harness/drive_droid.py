"""Inside the network namespace: start the fake chat-completions API, run Factory Droid
once (``droid exec``), and write what happened. Standard library only.

    python drive_droid.py CASE_DIR   (CASE_DIR holds run.json; see tests/agents/droid)

The case's ``~/.factory/settings.json`` gets the custom model pointing at the fake
(``droid-research.md §8``); ``droid exec --auto high -m custom:Fake-0 --output-format
json PROMPT``, its stdin closed; stdout, stderr and the exit code go to ``agent.stdout``,
``agent.stderr`` and ``observation.json``. A case with an org settings file shows its
``etc`` folder over ``/etc`` in the driver's own mount namespace (never the machine's).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from drive_copilot import _overlay_etc
from fake_openai import serve
from scripted import Script, start_backend

MODEL = "custom:Fake-0"


class SideAnswers(Script):
    """Droid's requests that offer no tools (titles, summaries) get a short text and do
    not use up the case's turns."""

    def answer(self, body: dict[str, Any], conversation: str) -> dict[str, Any]:
        if not body.get("tools"):
            with self.lock, open(self.log_path, "a") as log:
                log.write(json.dumps({"side": True}) + "\n")
            return {"text": "ok"}
        return super().answer(body, conversation)


def _with_model(settings_file: Path, port: str) -> None:
    settings = json.loads(settings_file.read_text()) if settings_file.exists() else {}
    settings["customModels"] = [{
        "model": "fake-model", "displayName": "Fake", "baseUrl": f"http://127.0.0.1:{port}/v1",
        "apiKey": "x", "provider": "generic-chat-completion-api", "maxOutputTokens": 4096}]  # fmt: skip
    settings_file.parent.mkdir(parents=True, exist_ok=True)
    settings_file.write_text(json.dumps(settings, indent=2))


def main(case_dir: Path) -> None:
    run = json.loads((case_dir / "run.json").read_text())
    if run.get("etc"):
        _overlay_etc(run["etc"])
    script = SideAnswers(run["turns"], str(case_dir / "requests.jsonl"))
    port = start_backend(serve, script, str(case_dir / "api.port"), "fake chat-completions API")
    _with_model(Path(run["env"]["HOME"]) / ".factory" / "settings.json", port)
    argv = [run["droid"], "exec", *run.get("args", ["--auto", "high"]), "-m", MODEL,
            "--output-format", "json", run["prompt"]]  # fmt: skip
    started = time.monotonic()
    with open(case_dir / "agent.stdout", "wb") as out, open(case_dir / "agent.stderr", "wb") as err:
        try:
            done = subprocess.run(argv, cwd=run["cwd"], env=run["env"], stdin=subprocess.DEVNULL,
                                  stdout=out, stderr=err, timeout=run.get("timeout", 60),
                                  check=False)  # fmt: skip
            code = done.returncode
        except subprocess.TimeoutExpired:
            code = 124
    observation = {"exit": code, "seconds": round(time.monotonic() - started, 2)}
    (case_dir / "observation.json").write_text(json.dumps(observation))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
