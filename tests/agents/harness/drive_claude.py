"""Inside the network namespace: start the fake Messages API, run Claude Code once, and
write what happened (``observation.json``). Standard library only.

    python drive_claude.py CASE_DIR   (CASE_DIR holds run.json; see tests/agents/claude)

With ``run.json``'s ``stdin_lines`` the agent reads stream-json from stdin (``-p
--input-format stream-json``): each line is sent once the agent has answered the one
before it (a user message: its ``result``; a control request: its ``control_response``),
so the order of events never rests on a sleep.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).parent))
from fake_anthropic import new_script, serve
from scripted import start_backend


def _start_api(case_dir: Path, run: dict[str, Any]) -> str:
    script = new_script(run["turns"], str(case_dir / "requests.jsonl"))
    return start_backend(serve, script, str(case_dir / "api.port"), "fake Messages API")


class _Answers:
    """The agent's stdout lines, read as they come, with a wait for the answer to one
    stdin line."""

    def __init__(self, stream: IO[bytes], copy: IO[bytes]) -> None:
        self.lines: list[dict[str, Any]] = []
        self.cond = threading.Condition()
        self.done = False
        threading.Thread(target=self._read, args=(stream, copy), daemon=True).start()

    def _read(self, stream: IO[bytes], copy: IO[bytes]) -> None:
        for raw in stream:
            copy.write(raw)
            copy.flush()
            try:
                line = json.loads(raw)
            except ValueError:
                continue
            with self.cond:
                self.lines.append(line)
                self.cond.notify_all()
        with self.cond:
            self.done = True
            self.cond.notify_all()

    def wait_for(self, sent: dict[str, Any], results_before: int, deadline: float) -> None:
        def answered() -> bool:
            if sent.get("type") == "control_request":
                return any(
                    line.get("type") == "control_response"
                    and line.get("response", {}).get("request_id") == sent["request_id"]
                    for line in self.lines
                )
            return self._results() > results_before

        with self.cond:
            self.cond.wait_for(lambda: self.done or answered(), deadline - time.monotonic())

    def drained(self, seconds: float) -> None:
        """Wait until every line the agent wrote has been copied out."""
        with self.cond:
            self.cond.wait_for(lambda: self.done, seconds)

    def _results(self) -> int:
        return sum(1 for line in self.lines if line.get("type") == "result")

    def results(self) -> int:
        with self.cond:
            return self._results()


def _start_daemon(run: dict[str, Any]) -> subprocess.Popen[bytes] | None:
    """``run.json``'s ``daemon`` (``argv``, ``env``, ``log``): a program that must share the
    agent's namespace (hookd serving its http entry on this namespace's loopback),
    started first and waited for: ``READY=1`` on an abstract notify socket (systemd's
    protocol, which ``hookd serve`` speaks; abstract names live in the namespace)."""
    daemon = run.get("daemon")
    if not daemon:
        return None
    import socket

    name = f"hookd-drive-{os.getpid()}"
    deadline = time.monotonic() + 30
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as ready:
        ready.bind("\0" + name)
        ready.settimeout(0.2)
        with open(daemon["log"], "ab") as log:
            started = subprocess.Popen(
                daemon["argv"], env={**daemon["env"], "NOTIFY_SOCKET": "@" + name},
                stdin=subprocess.DEVNULL, stdout=log, stderr=log,
            )  # fmt: skip
        while time.monotonic() < deadline and started.poll() is None:
            try:
                if b"READY=1" in ready.recv(4096):
                    return started
            except TimeoutError:
                continue
    started.kill()
    started.wait()
    raise SystemExit(f"the daemon did not start (see {daemon['log']})")


def main(case_dir: Path) -> None:
    run = json.loads((case_dir / "run.json").read_text())
    port = _start_api(case_dir, run)
    daemon = _start_daemon(run)
    env = {
        "PATH": os.environ["PATH"], "HOME": run["home"], "LANG": "C.UTF-8",
        "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{port}", "ANTHROPIC_API_KEY": "dummy",
        "DISABLE_TELEMETRY": "1", "DO_NOT_TRACK": "1", "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_ERROR_REPORTING": "1",
        **run.get("env", {}),
    }  # fmt: skip
    lines: list[dict[str, Any]] = run.get("stdin_lines") or []
    prompt = ["--input-format", "stream-json"] if lines else [run["prompt"]]
    argv = [run["claude"], "-p", *prompt, "--output-format", "stream-json", "--verbose",
            "--model", "claude-sonnet-4-5", *run.get("args", ["--allowedTools", "Bash"])]  # fmt: skip
    started = time.monotonic()
    deadline = started + run.get("timeout", 90)
    with (
        open(case_dir / "agent.stdout", "wb") as out,
        open(case_dir / "agent.stderr", "wb") as err,
    ):
        agent = subprocess.Popen(
            argv, cwd=run["project"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=err,
        )  # fmt: skip
        assert agent.stdin is not None
        assert agent.stdout is not None
        answers = _Answers(agent.stdout, out)
        for line in lines:
            before = answers.results()
            agent.stdin.write(json.dumps(line).encode() + b"\n")
            agent.stdin.flush()
            answers.wait_for(line, before, deadline)
        agent.stdin.close()
        try:
            code = agent.wait(max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            agent.kill()
            code = agent.wait()
        answers.drained(10)
    if daemon is not None:
        daemon.terminate()  # SIGTERM: hookd answers what is in flight and stops
        daemon.wait(30)
    observation = {"exit": code, "seconds": round(time.monotonic() - started, 2)}
    (case_dir / "observation.json").write_text(json.dumps(observation))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
