"""What the relay costs per event, side by side in one run (issues 12 and 30).

    python bench/relay.py [--samples N] [--agents claude,cline,cline-sdk,augment]

For each agent, for one trivial hook and for ten (and for Claude Code, one Python guard
hook), interleaved sample by sample:
* ``agent``: what the agent pays running its hooks itself, the way it runs them (Claude
  Code: one ``sh -c`` per hook, all at once; Cline's original runner: the hook file
  itself; the Cline SDK: ``sh <file>``, one after the other on a tool event; auggie: the
  command itself without a shell, all at once);
* ``python`` and ``native``: what it pays with the hooks adopted, through the Python
  relay and through the native one: one relay per event, as ``hookd relay install``
  writes it (``hookd-relay claude``; Cline's relay file, which the agent runs as it ran
  the hook and which execs ``hookd-relay``; ``hookd-relay augment MATCHER``), firing
  through a warm daemon that runs the hooks;
* ``fire``: the daemon's own time for the same ``relay`` request, sent over a connection
  already open (no process): what any relay must wait for. ``native-fire`` is then the
  native relay's own cost (its start, its reading and writing, the connect).
* ``http`` (a second table): Claude Code's http entry, one POST per event from a running
  client, beside the agent alone and the command relay; for trivial hooks and for a
  Python guard hook (warm under hookd, a fresh interpreter under the agent).
Ratios to the agent are the figures (issue 30's targets: a trivial hook at most 1.5x, a
Python guard at most 0.4x, the relay's own cost at most 2 ms); milliseconds move with the
machine. Cline's original runner reads one hook per event and folder, so its ten hooks
are ten folders, each with its own relay: one is measured.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path

from hookd.daemon.cli.relay_program import native_relay, python_relay
from hookd.relay import agent_environment

EVENT = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                    "tool_input": {"command": "ls"}, "cwd": "/"}).encode()  # fmt: skip
TRUE = "#!/bin/sh\ntrue\n"
PYTHON_RELAY = python_relay()
"""The console script, as an agent runs it (``python -m`` would add runpy's import cost)."""
NATIVE_RELAY = native_relay()
RELAY = NATIVE_RELAY or PYTHON_RELAY
"""What ``hookd relay install`` writes: the native relay where it is installed."""
HEADER = (
    "agent      hooks      agent   python   native     fire  python/agent  native/agent"
    "  native-fire  native cpu"
)
Sample = Callable[[], float]


def _timed(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return (time.perf_counter() - started) * 1000


NODE_SPAWNER = """
const { spawn } = require("child_process");
const lines = require("readline").createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const { argvs, stdin, env, sequential } = JSON.parse(line);
  const input = Buffer.from(stdin, "base64");
  const started = process.hrtime.bigint();
  const codes = [];
  let left = argvs.length;
  const done = () => process.stdout.write(JSON.stringify(
    { ms: Number(process.hrtime.bigint() - started) / 1e6, codes }) + "\\n");
  const one = (i) => {
    const child = spawn(argvs[i][0], argvs[i].slice(1), { env: env || process.env });
    child.stdout.on("data", () => {});
    child.stderr.on("data", () => {});
    child.on("error", () => {});
    child.on("close", (code) => {
      codes[i] = code;
      if (sequential) { if (i + 1 < argvs.length) one(i + 1); else done(); }
      else if (--left === 0) done();
    });
    child.stdin.on("error", () => {});
    child.stdin.end(input);
  };
  if (sequential) one(0); else argvs.forEach((_, i) => one(i));
});
"""
"""An agent's way of running its hooks (``child_process.spawn``, stdin written, both
pipes read, each awaited): ``--spawner node`` measures the agent and the relays spawned
from Node, as the agents hookd speaks do (issue 30's table)."""


class Spawner:
    """Who starts the hooks and relays: this Python (``subprocess``) or a Node process
    kept running (``--spawner node``); ``run`` gives the wall time in ms and exit codes."""

    def __init__(self, kind: str) -> None:
        self.node: subprocess.Popen[bytes] | None = None
        if kind == "node":
            self.node = subprocess.Popen(["node", "-e", NODE_SPAWNER], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE)  # fmt: skip

    def run(self, argvs: list[list[str]], event: bytes, env: dict[str, str] | None,
            sequential: bool) -> tuple[float, list[int]]:  # fmt: skip
        if self.node is None:
            return self._python(argvs, event, env, sequential)
        import base64

        assert self.node.stdin is not None
        assert self.node.stdout is not None
        line = {"argvs": argvs, "stdin": base64.b64encode(event).decode(), "env": env,
                "sequential": sequential}  # fmt: skip
        self.node.stdin.write(json.dumps(line).encode() + b"\n")
        self.node.stdin.flush()
        said = json.loads(self.node.stdout.readline())
        return float(said["ms"]), list(said["codes"])

    @staticmethod
    def _python(argvs: list[list[str]], event: bytes, env: dict[str, str] | None,
                sequential: bool) -> tuple[float, list[int]]:  # fmt: skip
        global LAST_CPU_MS
        codes: list[int] = []
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        if sequential:
            for argv in argvs:
                codes.append(subprocess.run(argv, input=event, env=env, capture_output=True,
                                            check=False).returncode)  # fmt: skip
        else:
            pipe = subprocess.PIPE
            running = [subprocess.Popen(argv, stdin=pipe, stdout=pipe, stderr=pipe, env=env)
                       for argv in argvs]  # fmt: skip
            for process in running:
                process.communicate(event)
                codes.append(process.returncode)
        ms = (time.perf_counter() - started) * 1000
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        LAST_CPU_MS = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
        return ms, codes

    def close(self) -> None:
        if self.node is not None:
            assert self.node.stdin is not None
            self.node.stdin.close()
            self.node.wait(30)


SPAWNER = Spawner("python")
LAST_CPU_MS = float("nan")
"""The CPU time (user and system) of the processes of the last run (Python spawner)."""
CPU_MS: dict[str, list[float]] = {}
"""Per relay, its processes' CPU time in this row's samples: its own cost, whatever the
machine's load does to its wall time."""


def _at_once(argvs: list[list[str]], event: bytes) -> float:
    """Hooks started together, each given the event, all awaited (Claude, auggie, Cline)."""
    return SPAWNER.run(argvs, event, None, sequential=False)[0]


def _one_by_one(argvs: list[list[str]], event: bytes) -> float:
    """Hooks run one after the other (the Cline SDK's tool events)."""
    return SPAWNER.run(argvs, event, None, sequential=True)[0]


def _relay(argv: list[str], event: bytes, env: dict[str, str], name: str = "") -> float:
    global LAST_CPU_MS
    LAST_CPU_MS = float("nan")
    ms, codes = SPAWNER.run([argv], event, env, sequential=False)
    if codes != [0]:
        done = subprocess.run(argv, input=event, env=env, capture_output=True, check=False)
        raise SystemExit(f"the relay failed: {done.stderr.decode()}")
    CPU_MS.setdefault(name, []).append(LAST_CPU_MS)
    return ms


class Direct:
    """The daemon's own time for a relay request: sent over one connection kept open."""

    def __init__(self, sock: str) -> None:
        self.conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.conn.connect(sock)
        self.reader = self.conn.makefile("rb")
        self.ids = 0

    def fire(self, argv: list[str], event: bytes, env: dict[str, str]) -> float:
        self.ids += 1
        params = {"agent": argv[0], "args": argv[1:], "stdin": event.decode(), "cwd": os.getcwd(),
                  "env": agent_environment(env), "onError": "continue"}  # fmt: skip
        request = json.dumps({"jsonrpc": "2.0", "id": self.ids, "method": "relay",
                              "params": params}).encode() + b"\n"  # fmt: skip

        def run() -> None:
            self.conn.sendall(request)
            while True:
                reply = json.loads(self.reader.readline())
                if reply.get("id") == self.ids:
                    break
            if "result" not in reply:
                raise SystemExit(f"the daemon refused the relay: {reply}")

        return _timed(run)


def _row(label: str, hooks: object, agent_run: Sample, relays: Mapping[str, Sample],
         fire: Sample, samples: int) -> None:  # fmt: skip
    for run in relays.values():
        run()  # warm the daemon's registry (and a Python hook's interpreter)
    CPU_MS.clear()
    agent_ms: list[float] = []
    fire_ms: list[float] = []
    relay_ms: dict[str, list[float]] = {name: [] for name in relays}
    runs: list[tuple[list[float], Sample]] = [(agent_ms, agent_run), (fire_ms, fire)]
    runs += [(relay_ms[name], run) for name, run in relays.items()]
    order = random.Random(len(runs))
    for _ in range(samples):
        order.shuffle(runs)  # none always runs right after another's fire
        for into, run in runs:
            into.append(run())
    a, f = statistics.median(agent_ms), statistics.median(fire_ms)
    r = {name: statistics.median(ms) for name, ms in relay_ms.items()}
    py, native = r["python"], r.get("native", float("nan"))
    cpu = statistics.median(CPU_MS.get("native") or [float("nan")])
    print(f"{label:<9} {hooks!s:>6} {a:8.2f} {py:8.2f} {native:8.2f} {f:8.2f}  "
          f"{py / a:11.2f}x {native / a:12.2f}x  {native - f:8.2f} ms  {cpu:7.2f} ms",
          flush=True)  # fmt: skip


def _relays(argv: list[str], event: bytes, env: dict[str, str]) -> dict[str, Sample]:
    """``hookd-relay ARGV`` run as the agent runs its entry, by each relay there is."""
    programs = {"python": PYTHON_RELAY, "native": NATIVE_RELAY}
    return {name: partial(_relay, [program, *argv], event, env, name)
            for name, program in programs.items() if program}  # fmt: skip


def _write(path: Path, text: str, mode: int = 0o644) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)
    return path


def claude_figures(home: Path, ws: Path, env: dict[str, str], direct: Direct,
                   samples: int) -> None:  # fmt: skip
    """Claude Code: ``sh -c`` per hook at once, or ``hookd-relay claude``."""
    adopted = home / ".config" / "hookd" / "claude" / "settings.json"
    guard = _write(ws.parent / "guard.py", GUARD)
    workloads = [(1, [f"true {i}" for i in range(1)]), (10, [f"true {i}" for i in range(10)]),
                 ("guard", [f"{_python3()} {guard}"])]  # fmt: skip
    for hooks, commands in workloads:
        handlers = [{"type": "command", "command": command} for command in commands]
        _write(adopted, json.dumps({"hooks": {"PreToolUse": [{"hooks": handlers}]}}))
        argvs = [["/bin/sh", "-c", command] for command in commands]
        _row("claude", hooks, partial(_at_once, argvs, EVENT), _relays(["claude"], EVENT, env),
             partial(direct.fire, ["claude"], EVENT, env), samples)  # fmt: skip


def _path_envs(env: dict[str, str]) -> dict[str, dict[str, str]]:
    """For each relay, ``env`` with a ``PATH`` whose first folder has it as ``hookd-relay``:
    one relay file (``exec hookd-relay ...``) then runs either, and is never rewritten
    (a relay file that changes is a change the daemon's watcher reads)."""
    envs = {}
    for name, program in (("python", PYTHON_RELAY), ("native", NATIVE_RELAY)):
        if program:
            folder = Path(env["HOME"]).parent / f"relay-{name}"
            folder.mkdir(parents=True, exist_ok=True)
            link = folder / "hookd-relay"
            if not link.exists():
                link.symlink_to(program)
            envs[name] = {**env, "PATH": f"{folder}:{env['PATH']}"}
    return envs


def cline_figures(home: Path, ws: Path, env: dict[str, str], direct: Direct,
                  samples: int) -> None:  # fmt: skip
    """Cline's original runner: the hook file, or the relay file in its place."""
    event = json.dumps({"clineVersion": "3.82.0", "hookName": "PreToolUse", "timestamp": "1",
                        "workspaceRoots": [str(ws)]}).encode()  # fmt: skip
    hook = _write(ws / "agent" / "PreToolUse", TRUE, 0o755)
    _write(ws / ".hookd" / "cline" / ".clinerules" / "hooks" / "PreToolUse", TRUE, 0o755)
    relay = _write(ws / ".clinerules" / "hooks" / "PreToolUse",
                   '#!/bin/sh\nexec hookd-relay cline "$0"\n', 0o755)  # fmt: skip
    relays: dict[str, Sample] = {name: partial(_relay, [str(relay)], event, relay_env, name)
                                 for name, relay_env in _path_envs(env).items()}  # fmt: skip
    _row("cline", 1, partial(_at_once, [[str(hook)]], event), relays,
         partial(direct.fire, ["cline", str(relay)], event, env), samples)  # fmt: skip


SDK_NAMES = ("PreToolUse", *(f"PreToolUse{ext}" for ext in (
    ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".mts", ".py")))  # fmt: skip
"""Ten hook files of one event in one folder (a ``#!/bin/sh`` line beats the extension)."""


def cline_sdk_figures(home: Path, ws: Path, env: dict[str, str], direct: Direct,
                      samples: int) -> None:  # fmt: skip
    """The Cline SDK: ``sh <file>`` one by one on a tool event, or the relay file."""
    event = json.dumps({"hookName": "tool_call", "workspaceRoots": [str(ws)],
                        "tool_call": {"name": "run_commands", "input": {}}}).encode()  # fmt: skip
    adopted = ws / ".hookd" / "cline" / ".cline" / "hooks"
    relay = _write(ws / ".cline" / "hooks" / "PreToolUse.sh",
                   '#!/bin/sh\nexec hookd-relay cline-sdk "$0"\n', 0o755)  # fmt: skip
    for hooks in (1, 10):
        for name in SDK_NAMES:
            (adopted / name).unlink(missing_ok=True)
        hook_files = [_write(adopted / name, TRUE) for name in SDK_NAMES[:hooks]]
        argvs = [["sh", str(file)] for file in hook_files]
        relays: dict[str, Sample] = {
            name: partial(_relay, ["sh", str(relay)], event, relay_env, name)
            for name, relay_env in _path_envs(env).items()
        }
        _row("cline-sdk", hooks, partial(_one_by_one, argvs, event), relays,
             partial(direct.fire, ["cline-sdk", str(relay)], event, env), samples)  # fmt: skip


def augment_figures(home: Path, ws: Path, env: dict[str, str], direct: Direct,
                    samples: int) -> None:  # fmt: skip
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
             _relays(["augment", ".*"], event, env),
             partial(direct.fire, ["augment", ".*"], event, env), samples)  # fmt: skip


FIGURES = {"claude": claude_figures, "cline": cline_figures, "cline-sdk": cline_sdk_figures,
           "augment": augment_figures}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--agents", default=",".join(FIGURES), help="comma-separated")
    parser.add_argument("--no-http", action="store_true", help="leave out the http table")
    parser.add_argument(
        "--spawner",
        choices=("python", "node"),
        default="python",
        help="who spawns the hooks and the relays (node: as the agents do)",
    )
    args = parser.parse_args()
    global SPAWNER
    SPAWNER = Spawner(args.spawner)
    if NATIVE_RELAY is None:
        print("bench: no native relay installed: its columns are empty", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="hkrelay") as tmp:
        home, ws, sock = Path(tmp) / "home", Path(tmp) / "ws", str(Path(tmp) / "hookd.sock")
        env = {**os.environ, "HOME": str(home), "HOOKD_SOCKET": sock, "HOOKD_NO_SPAWN": "1",
               "PATH": f"{Path(PYTHON_RELAY).parent}:{os.environ['PATH']}"}  # fmt: skip
        serve = ["--socket", sock, "serve", "--home", str(home), "--log-level", "error",
                 "--trust-all"]  # fmt: skip
        daemon = _start_ready(serve, env, Path(tmp))
        try:
            direct = Direct(sock)
            print(f"p50 in ms, spawned by {args.spawner}; python: {PYTHON_RELAY}; native: "
                  f"{NATIVE_RELAY}")  # fmt: skip
            print(HEADER)
            for agent in args.agents.split(","):
                FIGURES[agent](home, ws, env, direct, args.samples)
        finally:
            subprocess.run([sys.executable, "-m", "hookd", "--socket", sock, "shutdown"],
                           env=env, capture_output=True, check=False)  # fmt: skip
            daemon.wait(30)
    if "claude" in args.agents.split(",") and not args.no_http:
        http_entry(args.samples)
    SPAWNER.close()
    return 0


def _python3() -> str:
    return "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else "python3"


def http_entry(samples: int) -> None:
    """Claude Code's http entry beside the command relay and the agent alone, interleaved
    in one run: ``http`` is one POST to the daemon's http entry from a client already
    running (as the agent is: no process per event), read to the end of the answer."""
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
    python = _python3()
    return [("1 trivial", ["true 0"]), ("10 trivial", [f"true {i}" for i in range(10)]),
            ("1 python guard", [f"{python} {guard}"])]  # fmt: skip


def _start_ready(argv: list[str], env: dict[str, str], folder: Path) -> subprocess.Popen[bytes]:
    """``hookd ARGV``, once it said READY=1 (systemd's notify protocol, which hookd speaks)."""
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
