"""Inside the network namespace: start the fake chat-completions API, run Factory Droid
once (``droid exec``), and write what happened. Standard library only.

A case with ``rpc`` drives it as a session instead (``--input-format stream-jsonrpc``:
UserPromptSubmit fires only there): the session is opened, the prompt sent, and once the
agent says the turn is over (also after the prompt failed) its stdin is closed, which ends the
session; its notifications are its stdout. With ``compact`` the session is compacted
after the turn (``droid.compact_session``, where PreCompact fires).

    python drive_droid.py CASE_DIR   (CASE_DIR holds run.json; see tests/agents/droid)

The case's ``~/.factory/settings.json`` gets the custom model pointing at the fake
(``droid-research.md §8``); ``droid exec --auto high -m custom:Fake-0 --output-format
json PROMPT``, its stdin closed; stdout, stderr and the exit code go to ``agent.stdout``,
``agent.stderr`` and ``observation.json``. A case with an org settings file shows its
``etc`` folder over ``/etc`` in the driver's own mount namespace (never the machine's).
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from drive_copilot import _overlay_etc
from fake_openai import serve
from scripted import Script, start_backend

MODEL = "custom:Fake-0"
RPC_HEAD = {"jsonrpc": "2.0", "type": "request", "factoryApiVersion": "1.0.0",
            "factoryProtocolVersion": "1.220.0"}  # fmt: skip


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
    started = time.monotonic()
    if run.get("rpc"):
        code = _session(run, case_dir)
        observation = {"exit": code, "seconds": round(time.monotonic() - started, 2)}
        (case_dir / "observation.json").write_text(json.dumps(observation))
        return
    argv = [run["droid"], "exec", *run.get("args", ["--auto", "high"]), "-m", MODEL,
            "--output-format", "json", run["prompt"]]  # fmt: skip
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


def _session(run: dict[str, Any], case_dir: Path) -> int:
    """One prompt in a JSON-RPC session; the agent's exit code (124: it hung)."""
    argv = [run["droid"], "exec", "--input-format", "stream-jsonrpc", "--output-format",
            "stream-jsonrpc", "--auto", "high", "-m", MODEL]  # fmt: skip
    with open(case_dir / "agent.stderr", "wb") as err, \
            open(case_dir / "agent.stdout", "w") as out:  # fmt: skip
        agent = subprocess.Popen(argv, cwd=run["cwd"], env=run["env"], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=err, text=True)  # fmt: skip
        assert agent.stdin is not None
        assert agent.stdout is not None
        said: queue.Queue[str] = queue.Queue()

        def read(stream: Any) -> None:
            for line in stream:
                out.write(line)
                out.flush()
                said.put(line)
            said.put("")

        threading.Thread(target=read, args=(agent.stdout,), daemon=True).start()

        def send(rid: str, method: str, params: dict[str, Any]) -> None:
            agent.stdin.write(json.dumps({**RPC_HEAD, "id": rid, "method": method,
                                          "params": params}) + "\n")  # fmt: skip
            agent.stdin.flush()

        def until(done: Any, seconds: float) -> bool:
            deadline = time.monotonic() + seconds
            while (left := deadline - time.monotonic()) > 0:
                try:
                    line = said.get(timeout=left)
                except queue.Empty:
                    return False
                if not line:
                    return False
                try:
                    if done(json.loads(line)):
                        return True
                except ValueError:
                    continue
            return False

        send("1", "droid.initialize_session", {"machineId": "m1", "cwd": run["cwd"],
                                               "modelId": MODEL, "autonomyLevel": "high"})  # fmt: skip
        until(lambda m: m.get("id") == "1", run.get("timeout", 60))
        send("2", "droid.add_user_message", {"text": run["prompt"], "messageId": "m-2"})
        until(_turn_over, run.get("timeout", 60))
        if run.get("compact"):
            send("3", "droid.compact_session", {"customInstructions": "keep it short"})
            until(lambda m: m.get("id") == "3", run.get("timeout", 60))
        agent.stdin.close()
        try:
            return agent.wait(timeout=run.get("timeout", 60))
        except subprocess.TimeoutExpired:
            agent.kill()
            agent.wait()
            return 124


def _turn_over(message: dict[str, Any]) -> bool:
    """The agent finished the prompt's turn (also after the prompt failed)."""
    notification = message.get("params", {}).get("notification", {})
    return bool(notification.get("type") == "agent_turn_completed")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
