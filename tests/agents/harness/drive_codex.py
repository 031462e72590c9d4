"""Inside the network namespace: start the fake Responses API, run Codex CLI once, and
write what happened. Standard library only.

    python drive_codex.py CASE_DIR   (CASE_DIR holds run.json; see tests/agents/codex)

Two ways to run it, as ``run.json``'s ``mode`` says:

* ``app-server`` (the default): ``codex app-server`` over stdio, newline-delimited
  JSON-RPC, as an IDE drives it. It is the only headless way that reports each hook run
  (``hook/started``, ``hook/completed`` with its status and entries) and the handlers
  Codex loaded with its warnings (``hooks/list``), and the only one with a client to ask
  for approvals (PermissionRequest) and to interrupt a turn (Interrupt). The driver
  starts a thread in the project, lists its hooks, runs one turn per prompt (waiting for
  ``turn/completed``), optionally interrupts a turn once its command started, or compacts
  the thread, waits until every hook that started has completed, then closes stdin
  (Codex ends the thread: SessionEnd) and waits for the process to exit. Every line it
  got is kept in ``appserver.jsonl`` (what it sent in ``sent.jsonl``).
* ``exec``: ``codex exec --json PROMPT``, what a script or CI runs; its JSONL events go to
  ``agent.stdout``. It reports no hook runs: the hooks' own records say what ran.

Nothing here waits on a clock but the deadlines: every step waits for the message that
ends it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).parent))
from etc_overlay import overlay_etc
from fake_responses import new_script, serve
from scripted import start_backend

Message = dict[str, Any]


class AppServer:
    """A ``codex app-server`` child spoken to over stdio: requests, notifications, and
    waits on what it says; its own requests (approvals) are answered from ``answers``."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: str, case_dir: Path,
                 answers: dict[str, Any]) -> None:  # fmt: skip
        self.received: list[Message] = []
        self.cond = threading.Condition()
        self.closed = False
        self.answers = answers
        self.next_id = 0
        self.sent = open(case_dir / "sent.jsonl", "w")  # noqa: SIM115 (closed in finish)
        self.log = open(case_dir / "appserver.jsonl", "w")  # noqa: SIM115
        self.stderr = open(case_dir / "agent.stderr", "wb")  # noqa: SIM115
        self.proc = subprocess.Popen(
            argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self.stderr, start_new_session=True,
        )  # fmt: skip
        assert self.proc.stdout is not None
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True).start()

    def _read(self, stream: IO[bytes]) -> None:
        for raw in stream:
            self.log.write(raw.decode(errors="replace"))
            self.log.flush()
            try:
                message = json.loads(raw)
            except ValueError:
                continue
            if "id" in message and "method" in message:
                self._answer(message)
            with self.cond:
                self.received.append(message)
                self.cond.notify_all()
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def _answer(self, request: Message) -> None:
        """Codex asks the client (an approval): answer as the case says."""
        answer = self.answers.get(request["method"])
        if answer is None:
            reply: Message = {"id": request["id"], "error": {"code": -32601,
                              "message": f"the test client does not answer {request['method']}"}}  # fmt: skip
        else:
            reply = {"id": request["id"], "result": answer}
        self._write(reply)

    def _write(self, message: Message) -> None:
        line = json.dumps({"jsonrpc": "2.0", **message})
        self.sent.write(line + "\n")
        self.sent.flush()
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass

    def notify(self, method: str, params: Any = None) -> None:
        self._write({"method": method, **({} if params is None else {"params": params})})

    def call(self, method: str, params: Any, deadline: float) -> Message:
        """Send a request and wait for its response (``result`` or ``error``)."""
        self.next_id += 1
        ident = self.next_id
        self._write({"id": ident, "method": method, "params": params})
        found = self.wait_for(lambda m: m.get("id") == ident and "method" not in m, deadline)
        if found is None:
            raise SystemExit(f"codex app-server did not answer {method} (see appserver.jsonl)")
        return found

    def wait_for(self, test: Callable[[Message], bool], deadline: float,
                 start: int = 0) -> Message | None:  # fmt: skip
        """The first message (from index ``start``) that passes ``test``; None when the
        server closed or the deadline passed first."""
        with self.cond:
            while True:
                for message in self.received[start:]:
                    if test(message):
                        return message
                start = len(self.received)
                left = deadline - time.monotonic()
                if self.closed or left <= 0:
                    return None
                self.cond.wait(left)

    def settled(self, deadline: float) -> None:
        """Wait until every hook run that started has completed (async hooks report
        later)."""

        def done() -> bool:
            started = {m["params"]["run"]["id"] for m in self.received
                       if m.get("method") == "hook/started"}  # fmt: skip
            finished = {m["params"]["run"]["id"] for m in self.received
                        if m.get("method") == "hook/completed"}  # fmt: skip
            return started <= finished

        with self.cond:
            self.cond.wait_for(lambda: self.closed or done(), max(0.0, deadline - time.monotonic()))

    def finish(self, deadline: float) -> int:
        """Close stdin (Codex shuts the thread down: SessionEnd), wait for the exit and
        for every line it wrote."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            code = self.proc.wait(max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, 9)
            code = self.proc.wait()
        with self.cond:
            self.cond.wait_for(lambda: self.closed, 10)
        for stream in (self.sent, self.log, self.stderr):
            stream.close()
        return code


def _turn(
    server: AppServer, thread: str, prompt: str, run: dict[str, Any], deadline: float
) -> None:
    """One turn: start it, interrupt it once its command runs if the case says so, wait
    for its ``turn/completed``."""
    mark = len(server.received)
    started = server.call(
        "turn/start", {"threadId": thread, "input": [{"type": "text", "text": prompt}]}, deadline
    )
    turn = started.get("result", {}).get("turn", {}).get("id")
    if turn is None:
        raise SystemExit(f"turn/start failed: {started}")
    if run.get("interrupt"):
        # Interrupt while the scripted command (a long sleep) runs: the turn is in progress.
        server.wait_for(lambda m: m.get("method") == "item/started"
                        and m["params"]["item"].get("type") == "commandExecution",
                        deadline, mark)  # fmt: skip
        server.call("turn/interrupt", {"threadId": thread, "turnId": turn}, deadline)
    server.wait_for(lambda m: m.get("method") == "turn/completed"
                    and m["params"]["turn"]["id"] == turn, deadline, mark)  # fmt: skip


def _app_server(run: dict[str, Any], env: dict[str, str], case_dir: Path, deadline: float) -> int:
    argv = [run["codex"], "app-server", *run.get("args", [])]
    server = AppServer(argv, env, run["project"], case_dir, run.get("answers", {}))
    try:
        server.call("initialize", {"clientInfo": {"name": "hookd-tests", "version": "0"},
                                   "capabilities": {"experimentalApi": True}}, deadline)  # fmt: skip
        server.notify("initialized")
        for method, params in run.get("before", []):
            server.call(method, params, deadline)  # e.g. marketplace/add, plugin/install
        started = server.call("thread/start", {"cwd": run["project"], **run.get("thread", {})},
                              deadline)  # fmt: skip
        thread = started.get("result", {}).get("thread", {}).get("id")
        if thread is not None:
            server.call("hooks/list", {"threadId": thread}, deadline)
            for prompt in run["prompts"]:
                _turn(server, thread, prompt, run, deadline)
            if run.get("compact"):
                mark = len(server.received)
                server.call("thread/compact/start", {"threadId": thread}, deadline)
                server.wait_for(lambda m: m.get("method") == "turn/completed", deadline, mark)
            server.settled(deadline)
    finally:
        code = server.finish(deadline)
    return code


def _exec(run: dict[str, Any], env: dict[str, str], case_dir: Path, deadline: float) -> int:
    argv = [run["codex"], "exec", "--skip-git-repo-check", "--json", *run.get("args", []),
            run["prompts"][0]]  # fmt: skip
    with open(case_dir / "agent.stdout", "wb") as out, open(case_dir / "agent.stderr", "wb") as err:
        done = subprocess.run(argv, cwd=run["project"], env=env, stdin=subprocess.DEVNULL,
                              stdout=out, stderr=err, timeout=max(1.0, deadline - time.monotonic()),
                              check=False)  # fmt: skip
    return done.returncode


def main(case_dir: Path) -> None:
    run = json.loads((case_dir / "run.json").read_text())
    if run.get("etc"):
        overlay_etc(run["etc"])  # Codex's system and managed files live in /etc/codex
    script = new_script(run["turns"], str(case_dir / "requests.jsonl"))
    start_backend(partial(serve, port=run["port"]), script, str(case_dir / "api.port"),
                  "fake Responses API")  # fmt: skip
    env = {"PATH": os.environ["PATH"], "HOME": run["home"], "LANG": "C.UTF-8",
           "SHELL": "/bin/sh", "TMPDIR": run["tmp"], "FAKE_KEY": "dummy",
           **run.get("env", {})}  # fmt: skip
    started = time.monotonic()
    deadline = started + run.get("timeout", 90)
    drive = _exec if run.get("mode") == "exec" else _app_server
    code = drive(run, env, case_dir, deadline)
    observation = {"exit": code, "seconds": round(time.monotonic() - started, 2)}
    (case_dir / "observation.json").write_text(json.dumps(observation))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
