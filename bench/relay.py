"""What the relay costs per event, side by side in one run (issue 12).

    python bench/relay.py [--samples N] [--agents claude,cline,cline-sdk,augment]

For each agent, for one trivial hook and for ten, interleaved sample by sample:
* ``agent``: what the agent pays running its hooks itself, the way it runs them (Claude
  Code: one ``sh -c`` per hook, all at once; Cline's original runner: the hook file
  itself; the Cline SDK: ``sh <file>``, one after the other on a tool event; auggie: the
  command itself without a shell, all at once);
* ``relay``: what it pays with the hooks adopted: one relay per event, as ``hookd relay
  install`` writes it (``hookd-relay claude``; Cline's relay file, which the agent runs
  as it ran the hook and which execs ``hookd-relay``; ``hookd-relay augment MATCHER``),
  which fires through a warm daemon that runs the hooks;
* ``python start``: starting this Python and doing nothing, the floor of any Python relay.
* ``http`` (a second table): Claude Code's http entry, one POST per event from a running
  client, beside the agent alone and the command relay; for trivial hooks and for a
  Python guard hook (warm under hookd, a fresh interpreter under the agent).
Ratios relay/agent are the figure, and relay minus Python's start the relay's own cost;
milliseconds move with the machine. Cline's original runner reads one hook per event and
folder, so its ten hooks are ten folders, each with its own relay: one is measured.
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
from collections.abc import Callable
from functools import partial
from pathlib import Path

EVENT = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                    "tool_input": {"command": "ls"}, "cwd": "/"}).encode()  # fmt: skip
TRUE = "#!/bin/sh\ntrue\n"
RELAY = str(Path(sys.executable).parent / "hookd-relay")
"""The console script, as an agent runs it (``python -m`` would add runpy's import cost)."""
HEADER = "agent      hooks  agent p50   relay p50   python start p50   relay/agent  relay-python"
Sample = Callable[[], float]


def _timed(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return (time.perf_counter() - started) * 1000


def _python() -> float:
    """The floor: starting this Python and doing nothing."""
    return _timed(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True))


def _at_once(argvs: list[list[str]], event: bytes) -> float:
    """Hooks started together, each given the event, all awaited (Claude, auggie, Cline)."""

    def run() -> None:
        running = [subprocess.Popen(argv, stdin=subprocess.PIPE) for argv in argvs]
        for process in running:
            process.communicate(event)

    return _timed(run)


def _one_by_one(argvs: list[list[str]], event: bytes) -> float:
    """Hooks run one after the other (the Cline SDK's tool events)."""
    return _timed(lambda: [subprocess.run(argv, input=event, check=False) for argv in argvs])


def _relay(argv: list[str], event: bytes, env: dict[str, str]) -> float:
    def run() -> None:
        done = subprocess.run(argv, input=event, env=env, capture_output=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"the relay failed: {done.stderr.decode()}")

    return _timed(run)


def _row(agent: str, hooks: int, agent_run: Sample, relay_run: Sample, samples: int) -> None:
    relay_run()  # warm the daemon's registry
    agent_ms, relay_ms, python_ms = [], [], []
    for _ in range(samples):
        agent_ms.append(agent_run())
        relay_ms.append(relay_run())
        python_ms.append(_python())
    a, r, p = (statistics.median(x) for x in (agent_ms, relay_ms, python_ms))
    print(f"{agent:<9} {hooks:>6}  {a:8.2f} ms  {r:8.2f} ms  {p:14.2f} ms  {r / a:10.2f}x  "
          f"{r - p:8.2f} ms", flush=True)  # fmt: skip


def _write(path: Path, text: str, mode: int = 0o644) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)
    return path


def claude_figures(home: Path, ws: Path, env: dict[str, str], samples: int) -> None:
    """Claude Code: ``sh -c`` per hook at once, or ``hookd-relay claude``."""
    adopted = home / ".config" / "hookd" / "claude" / "settings.json"
    for hooks in (1, 10):
        handlers = [{"type": "command", "command": f"true {i}"} for i in range(hooks)]
        _write(adopted, json.dumps({"hooks": {"PreToolUse": [{"hooks": handlers}]}}))
        argvs = [["/bin/sh", "-c", f"true {i}"] for i in range(hooks)]
        _row("claude", hooks, partial(_at_once, argvs, EVENT),
             partial(_relay, [RELAY, "claude"], EVENT, env), samples)  # fmt: skip


def cline_figures(home: Path, ws: Path, env: dict[str, str], samples: int) -> None:
    """Cline's original runner: the hook file, or the relay file in its place."""
    event = json.dumps({"clineVersion": "3.82.0", "hookName": "PreToolUse", "timestamp": "1",
                        "workspaceRoots": [str(ws)]}).encode()  # fmt: skip
    hook = _write(ws / "agent" / "PreToolUse", TRUE, 0o755)
    _write(ws / ".hookd" / "cline" / ".clinerules" / "hooks" / "PreToolUse", TRUE, 0o755)
    relay = _write(ws / ".clinerules" / "hooks" / "PreToolUse",
                   '#!/bin/sh\nexec hookd-relay cline "$0"\n', 0o755)  # fmt: skip
    _row("cline", 1, partial(_at_once, [[str(hook)]], event),
         partial(_relay, [str(relay)], event, env), samples)  # fmt: skip


SDK_NAMES = ("PreToolUse", *(f"PreToolUse{ext}" for ext in (
    ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".mts", ".py")))  # fmt: skip
"""Ten hook files of one event in one folder (a ``#!/bin/sh`` line beats the extension)."""


def cline_sdk_figures(home: Path, ws: Path, env: dict[str, str], samples: int) -> None:
    """The Cline SDK: ``sh <file>`` one by one on a tool event, or the relay file."""
    event = json.dumps({"hookName": "tool_call", "workspaceRoots": [str(ws)],
                        "tool_call": {"name": "run_commands", "input": {}}}).encode()  # fmt: skip
    adopted = ws / ".hookd" / "cline" / ".cline" / "hooks"
    relay = _write(ws / ".cline" / "hooks" / "PreToolUse.sh",
                   '#!/bin/sh\nexec hookd-relay cline-sdk "$0"\n', 0o755)  # fmt: skip
    for hooks in (1, 10):
        for name in SDK_NAMES:
            (adopted / name).unlink(missing_ok=True)
        files = [_write(adopted / name, TRUE) for name in SDK_NAMES[:hooks]]
        argvs = [["sh", str(file)] for file in files]
        _row("cline-sdk", hooks, partial(_one_by_one, argvs, event),
             partial(_relay, ["sh", str(relay)], event, env), samples)  # fmt: skip


def augment_figures(home: Path, ws: Path, env: dict[str, str], samples: int) -> None:
    """auggie: each command at once without a shell, or ``hookd-relay augment .*``."""
    fields = {"hook_event_name": "PreToolUse", "tool_name": "launch-process",
              "workspace_roots": [str(ws)], "tool_input": {}}  # fmt: skip
    event = json.dumps(fields, indent=2).encode()
    adopted = home / ".config" / "hookd" / "augment" / "settings.json"
    for hooks in (1, 10):
        handlers = [{"type": "command", "command": "true", "args": [str(i)]} for i in range(hooks)]
        _write(adopted, json.dumps({"hooks": {"PreToolUse": [{"matcher": ".*",
                                                               "hooks": handlers}]}}))  # fmt: skip
        argvs = [["true", str(i)] for i in range(hooks)]
        _row("augment", hooks, partial(_at_once, argvs, event),
             partial(_relay, [RELAY, "augment", ".*"], event, env), samples)  # fmt: skip


FIGURES = {"claude": claude_figures, "cline": cline_figures, "cline-sdk": cline_sdk_figures,
           "augment": augment_figures}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--agents", default=",".join(FIGURES), help="comma-separated")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hkrelay") as tmp:
        home, ws, sock = Path(tmp) / "home", Path(tmp) / "ws", str(Path(tmp) / "hookd.sock")
        env = {**os.environ, "HOME": str(home), "HOOKD_SOCKET": sock, "HOOKD_NO_SPAWN": "1",
               "PATH": f"{Path(RELAY).parent}:{os.environ['PATH']}"}  # fmt: skip
        serve = ["--socket", sock, "serve", "--home", str(home), "--log-level", "error",
                 "--trust-all"]  # fmt: skip
        daemon = subprocess.Popen([sys.executable, "-m", "hookd", *serve], env=env)
        try:
            for _ in range(200):
                if os.path.exists(sock):
                    break
                time.sleep(0.05)
            print(HEADER)
            for agent in args.agents.split(","):
                FIGURES[agent](home, ws, env, args.samples)
        finally:
            subprocess.run([sys.executable, "-m", "hookd", "--socket", sock, "shutdown"],
                           env=env, capture_output=True, check=False)  # fmt: skip
            daemon.wait(30)
    if "claude" in args.agents.split(","):
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
        env = {**os.environ, "HOME": str(home), "HOOKD_SOCKET": sock, "HOOKD_NO_SPAWN": "1",
               "PATH": f"{Path(RELAY).parent}:{os.environ['PATH']}"}  # fmt: skip
        daemon = _start_ready(["--socket", sock, "serve", "--home", str(home), "--config",
                               str(config)], env, Path(tmp))  # fmt: skip
        try:
            passcode = (Path(tmp) / "http-passcode").read_text().strip()
            post = (f"POST /hookd-relay HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                    f"Authorization: Bearer {passcode}\r\nContent-Type: application/json\r\n"
                    f"Content-Length: {len(EVENT)}\r\n\r\n").encode() + EVENT  # fmt: skip
            print("\nhooks               agent p50   relay p50   http p50   http/agent  relay/http")
            for label, commands in _http_workloads(Path(tmp)):
                handlers = [{"type": "command", "command": command} for command in commands]
                _write(home / ".config" / "hookd" / "claude" / "settings.json",
                       json.dumps({"hooks": {"PreToolUse": [{"hooks": handlers}]}}))  # fmt: skip
                argvs = [["/bin/sh", "-c", command] for command in commands]
                _post(port, post)  # warm the registry (and a Python hook's interpreter)
                agent, relay, http = [], [], []
                for _ in range(samples):
                    agent.append(_at_once(argvs, EVENT))
                    relay.append(_relay([RELAY, "claude"], EVENT, env))
                    http.append(_post(port, post))
                a, r, h = (statistics.median(x) for x in (agent, relay, http))
                print(f"{label:<18}  {a:8.2f} ms  {r:8.2f} ms  {h:7.2f} ms  {h / a:9.2f}x  "
                      f"{r / h:9.2f}x")  # fmt: skip
        finally:
            daemon.terminate()
            daemon.wait(30)


GUARD = """import json, re, sys
event = json.load(sys.stdin)
command = event.get("tool_input", {}).get("command", "")
if re.search(r"rm\\s+-rf\\s+/", command):
    print("refused: rm -rf /", file=sys.stderr)
    sys.exit(2)
"""
"""A typical Python guard hook: read the event, check the command, allow it."""


def _http_workloads(folder: Path) -> list[tuple[str, list[str]]]:
    """What one tool event runs: trivial hooks, and a Python guard as people write them
    (hookd starts it from a warm interpreter; the agent starts a fresh one)."""
    guard = _write(folder / "guard.py", GUARD)
    python = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else "python3"
    return [("1 trivial", ["true 0"]), ("10 trivial", [f"true {i}" for i in range(10)]),
            ("1 python guard", [f"{python} {guard}"])]  # fmt: skip


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
