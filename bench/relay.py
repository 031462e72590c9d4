"""What the relay costs per event, side by side in one run (issue 12).

    python bench/relay.py [--samples N]

For one trivial hook (``true``) and for ten, interleaved sample by sample:
* ``agent``: what the agent pays running its hooks itself (one ``sh -c`` per hook, the
  hooks of an event at once, as Claude Code runs them);
* ``relay``: what it pays with the hooks adopted: one ``hookd-relay claude`` process per
  event, which fires through a warm daemon that runs the hooks.
* ``python start``: starting this Python and doing nothing, the floor of any Python relay.
* ``http`` (a second table): Claude Code's http entry, one POST per event from a running
  client, beside the agent alone and the command relay.
Ratios relay/agent are the figure, and relay minus Python's start the relay's own cost;
milliseconds move with the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EVENT = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                    "tool_input": {"command": "ls"}, "cwd": "/"}).encode()  # fmt: skip


RELAY = str(Path(sys.executable).parent / "hookd-relay")
"""The console script, as an agent runs it (``python -m`` would add runpy's import cost)."""


def _python() -> float:
    """The floor: starting this Python and doing nothing."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return (time.perf_counter() - started) * 1000


def _agent(hooks: int) -> float:
    started = time.perf_counter()
    running = [subprocess.Popen(["/bin/sh", "-c", "true"], stdin=subprocess.PIPE)
               for _ in range(hooks)]  # fmt: skip
    for process in running:
        process.communicate(EVENT)
    return (time.perf_counter() - started) * 1000


def _adopted(home: Path, hooks: int) -> None:
    """``hooks`` trivial PreToolUse hooks in the hookd-owned file (``hookd adopt``'s)."""
    adopted = home / ".config" / "hookd" / "claude" / "settings.json"
    adopted.parent.mkdir(parents=True, exist_ok=True)
    handlers = [{"type": "command", "command": f"true {i}"} for i in range(hooks)]
    adopted.write_text(json.dumps({"hooks": {"PreToolUse": [{"hooks": handlers}]}}))


def _relay(env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run([RELAY, "claude"], input=EVENT, env=env, capture_output=True,
                          check=False)  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"the relay failed: {done.stderr.decode()}")
    return (time.perf_counter() - started) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hkrelay") as tmp:
        home, sock = Path(tmp) / "home", str(Path(tmp) / "hookd.sock")
        env = {**os.environ, "HOME": str(home), "HOOKD_SOCKET": sock, "HOOKD_NO_SPAWN": "1"}
        serve = ["--socket", sock, "serve", "--home", str(home), "--log-level", "error"]
        daemon = subprocess.Popen([sys.executable, "-m", "hookd", *serve], env=env)
        try:
            for _ in range(200):
                if os.path.exists(sock):
                    break
                time.sleep(0.05)
            print("hooks  agent p50   relay p50   python start p50   relay/agent  relay-python")
            for hooks in (1, 10):
                _adopted(home, hooks)
                _relay(env)  # warm the registry
                agent, relay, python = [], [], []
                for _ in range(args.samples):
                    agent.append(_agent(hooks))
                    relay.append(_relay(env))
                    python.append(_python())
                a, r, p = (statistics.median(x) for x in (agent, relay, python))
                print(
                    f"{hooks:>5}  {a:8.2f} ms  {r:8.2f} ms  {p:14.2f} ms  {r / a:10.2f}x  "
                    f"{r - p:8.2f} ms"
                )
        finally:
            subprocess.run([sys.executable, "-m", "hookd", "--socket", sock, "shutdown"],
                           env=env, capture_output=True, check=False)  # fmt: skip
            daemon.wait(30)
    http_entry(args.samples)
    return 0


def http_entry(samples: int) -> None:
    """Claude Code's http entry beside the command relay and the agent alone, interleaved
    in one run: ``http`` is one POST to the daemon's http entry from a client already
    running (as the agent is: no process per event), read to the end of the answer."""
    import socket

    with tempfile.TemporaryDirectory(prefix="hkhttp") as tmp:
        home, sock = Path(tmp) / "home", str(Path(tmp) / "hookd.sock")
        with socket.socket() as probe:  # a free port for the entry
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        config = Path(tmp) / "hookd.toml"
        config.write_text(f"http_entry = true\nhttp_port = {port}\n"
                          f"state_dir = {json.dumps(tmp)}\nlog_level = \"error\"\n")  # fmt: skip
        env = {**os.environ, "HOME": str(home), "HOOKD_SOCKET": sock, "HOOKD_NO_SPAWN": "1"}
        daemon = _start_ready(["--socket", sock, "serve", "--home", str(home), "--config",
                               str(config)], env, Path(tmp))  # fmt: skip
        try:
            passcode = (Path(tmp) / "http-passcode").read_text().strip()
            post = (f"POST /hookd-relay HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                    f"Authorization: Bearer {passcode}\r\nContent-Type: application/json\r\n"
                    f"Content-Length: {len(EVENT)}\r\n\r\n").encode() + EVENT  # fmt: skip
            print("\nhooks  agent p50   relay p50   http p50   http/agent  relay/http")
            for hooks in (1, 10):
                _adopted(home, hooks)
                _post(port, post)  # warm the registry
                agent, relay, http = [], [], []
                for _ in range(samples):
                    agent.append(_agent(hooks))
                    relay.append(_relay(env))
                    http.append(_post(port, post))
                a, r, h = (statistics.median(x) for x in (agent, relay, http))
                print(f"{hooks:>5}  {a:8.2f} ms  {r:8.2f} ms  {h:7.2f} ms  {h / a:9.2f}x  "
                      f"{r / h:9.2f}x")  # fmt: skip
        finally:
            daemon.terminate()
            daemon.wait(30)


def _start_ready(argv: list[str], env: dict[str, str], folder: Path) -> subprocess.Popen[bytes]:
    """``hookd ARGV``, once it said READY=1 (systemd's notify protocol, which hookd speaks)."""
    import socket

    ready_path = str(folder / "ready")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as ready:
        ready.bind(ready_path)
        ready.settimeout(30)
        daemon = subprocess.Popen([sys.executable, "-m", "hookd", *argv],
                                  env={**env, "NOTIFY_SOCKET": ready_path})  # fmt: skip
        while b"READY=1" not in ready.recv(4096):
            pass
    return daemon


def _post(port: int, request: bytes) -> float:
    import socket

    started = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.sendall(request)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    if not answer.startswith(b"HTTP/1.1 200 "):
        raise SystemExit(f"the http entry refused the event: {answer[:300]!r}")
    return (time.perf_counter() - started) * 1000


if __name__ == "__main__":
    raise SystemExit(main())
