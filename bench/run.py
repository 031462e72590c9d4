"""hookd benchmark: what the daemon costs and saves, measured side by side in one run.

Run it with ``python bench/run.py`` (about 1-2 minutes), ``--quick`` (< 30 s, fewer
samples, same figures) and ``--json`` (also print every figure as one JSON object on the
last line of stdout). Progress goes to stderr, the report to stdout.

Why ratios: this is meant to run on noisy, small VMs and laptops where absolute
milliseconds move by 2x from one run to the next. Every figure is therefore reported next
to a baseline measured *in the same run, on the same machine, interleaved with it* (the
methods being compared take turns sample by sample, so a noisy second hits all of them),
and the ratio is what should be compared across runs and machines, not the milliseconds.

The script starts its own daemons (``python -m hookd --socket SOCK serve ...``) in a
temporary directory, with ``HOME`` (and the XDG directories) pointing into it for the
daemon, its hooks and every other child process, and always shuts them down at the end,
also on errors and Ctrl-C. The real ``$HOME`` is never read or written.

The figures
-----------

1. **fire round trip, no matching hook** - p50/p99 of ``Client.fire`` on one persistent
   connection when the event matches no hook: the daemon's fixed cost per fire (framing,
   dispatch, hook lookup, progress notifications, combining). Baseline: a bare ``status``
   request on the same connection, so the ratio says what a fire costs next to the
   simplest useful RPC. ``status`` is not free (it summarizes the whole registry, see
   figure 4), so a request for an unknown method (answered with a -32601 error) is shown
   too: that is the floor of transport, framing and dispatch.

2. **fire with one trivial hook** - a Claude ``true`` command hook (``/bin/sh -c true``)
   and a Cline hook file (a ``/bin/sh`` script printing ``{}``), run three ways:

   * through the daemon (``Client.fire``, round trip as the agent sees it);
   * by a plain Python "agent" doing it the naive way per event: read and JSON-parse the
     settings file (or ``stat`` the Cline hook file), then ``subprocess.run`` the hook
     with the JSON payload on stdin and parse its stdout (it reads only the one settings
     file the hook is in, which flatters it);
   * by Node's ``child_process.spawn``, the way Node-based agents (Claude Code, Cline)
     spawn hooks (``detached: true``: in its own session, as they and hookd start them):
     a small JS file spawns the hook N times in a row (write the JSON to stdin, end it,
     wait for ``close``) and reports each spawn's time (Node's own start-up is not
     counted). Skipped when ``node`` is not on PATH;
   * directly: this process runs the same argv with the same stdin in its own session
     (``subprocess.run``) and nothing else, the floor of any runner.

   Ratios daemon/python-naive, daemon/direct and daemon/node: below 1.0 the daemon is
   faster, above 1.0 it costs that much more. The "in daemon" column is the hook's own
   ``durationMs`` as the daemon measured it (spawn to exit), so the difference to the
   round trip is what the RPC and the daemon add.

3. **10 hooks of 200 ms in one fire** - ten ``sleep 0.2`` Claude hooks on one event. They
   run concurrently, so the fire's wall time should be about 200 ms plus overhead:
   ratio vs 200 ms (1.0 is ideal) and vs 10 x 200 ms (what a sequential runner takes).

4. **fire latency with 10 vs 5,000 registered hooks** - p50 of fires on one measured root
   (10 hooks in its settings, 1 matching ``PreToolUse`` ``Bash``, 9 on ``PostToolUse``)
   on a fresh daemon, before and after registering 500 more roots with 10 hooks each on
   events that are not fired (``roots/add`` in batches). The after/before ratio should be
   about 1.0: a fire's cost must grow with its *matching* hooks, not with the registry.
   Before and after cannot be interleaved, so a control daemon that only ever knows the
   measured root is fired interleaved with the measured daemon in both phases, and the
   drift-free ratio (after/control) / (before/control) is shown next to the raw one.
   Two fires are measured: one that runs the ``true`` hook and one that matches nothing
   (tool ``Read``), which isolates the lookup. The ``status`` request, which summarizes
   the whole registry, is shown for contrast: it is expected to grow.

5. **``hookd status`` wall time** - the CLI as a user runs it (a new Python process that
   connects, asks, prints), p50 over 20 runs, next to ``python -c pass`` (interpreter
   start-up) measured interleaved; the difference is what hookd's CLI adds. Also checks
   that importing ``hookd.daemon.cli.main`` and ``hookd.client`` does not import trio
   (the CLI's fast start depends on it).

6. **daemon RSS** - ``VmRSS`` (and the peak, ``VmHWM``) from ``/proc/<pid>/status``: for
   the first daemon right after start-up and after benchmarks 1-3 and 5 (thousands of
   fires: a leak shows as growth), and for the second daemon after start-up and after the
   5,000-hook registration of benchmark 4. Next to it, the daemon's idle CPU use (user +
   system time from ``/proc/<pid>/stat`` over a few idle seconds, in % of one core): an
   idle daemon should cost nothing, also with 1,000 watched directories.

7. **lean path targets** (issue 15), read off figures 1 and 2 of the same run: the Claude
   ``true`` hook through hookd against Node's spawn of it (target at most 0.8x), hookd's
   round trip minus the direct spawn (at most 0.3 ms), and a fire with no matching hook
   (at most 150 us), with a yes/no each. ``bench/lean.py`` measures the same path before
   and after a change (``--before-src``), with the daemon's CPU time per request.

Settings files are written at least ``RACY_WAIT_S`` before any measurement: the daemon
deliberately re-parses a settings file modified within the last two seconds (stat cannot
tell two writes in one timestamp tick apart), and a benchmark should not measure that.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import shutil
import signal
import stat
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from hookd.client import Client, HookdClientError, RemoteError

RACY_WAIT_S = 2.5
"""Seconds between the last fixture write and the first measurement (see the docstring)."""

CLAUDE_PAYLOAD: dict[str, Any] = {
    "session_id": "bench-session",
    "transcript_path": "/dev/null",
    "permission_mode": "default",
    "tool_name": "Bash",
    "tool_input": {"command": "ls", "description": "List files"},
}
CLAUDE_PAYLOAD_NO_MATCH: dict[str, Any] = {
    **CLAUDE_PAYLOAD,
    "tool_name": "Read",
    "tool_input": {"file_path": "/etc/hostname"},
}
CLINE_PAYLOAD: dict[str, Any] = {"preToolUse": {"toolName": "read_file", "parameters": {}}}

NODE_SPAWNER = r"""
// Spawn a hook N times in a row the way Node-based agents do (detached: its own session,
// as Claude Code and Cline start hooks); print per-spawn ms as JSON.
// usage: node spawner.js N WARMUP PAYLOAD_FILE ARGV0 [ARGS...]
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const [n, warmup, payloadFile, command, ...args] = process.argv.slice(2);
const payload = fs.readFileSync(payloadFile);

function once() {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], detached: true });
    const out = [];
    const err = [];
    child.stdout.on("data", (chunk) => out.push(chunk));
    child.stderr.on("data", (chunk) => err.push(chunk));
    child.stdin.on("error", () => {}); // a hook that does not read stdin: EPIPE is fine
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`hook exited ${code}: ${Buffer.concat(err)}`));
      const text = Buffer.concat(out).toString().trim();
      if (text) JSON.parse(text);
      resolve(Number(process.hrtime.bigint() - started) / 1e6);
    });
    child.stdin.write(payload);
    child.stdin.end();
  });
}

(async () => {
  const times = [];
  for (let i = 0; i < Number(warmup); i++) await once();
  for (let i = 0; i < Number(n); i++) times.push(await once());
  process.stdout.write(JSON.stringify(times));
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
"""


# -- configuration ---------------------------------------------------------------------


@dataclass(frozen=True)
class Sizes:
    """How many samples each figure takes; ``--quick`` shrinks them."""

    spawn_block: int
    """Samples per turn in figure 2 (each Node turn is one Node process); the other
    figures interleave their methods sample by sample."""
    rpc: int
    spawn: int
    sleep_fires: int
    registry_fires: int
    cli_runs: int
    status_runs: int
    warmup: int
    idle_s: float

    @classmethod
    def for_mode(cls, quick: bool) -> Sizes:
        if quick:
            return cls(
                spawn_block=30,
                rpc=300,
                spawn=60,
                sleep_fires=3,
                registry_fires=100,
                cli_runs=8,
                status_runs=20,
                warmup=5,
                idle_s=1.0,
            )
        return cls(
            spawn_block=50,
            rpc=3000,
            spawn=500,
            sleep_fires=10,
            registry_fires=800,
            cli_runs=20,
            status_runs=100,
            warmup=20,
            idle_s=3.0,
        )


ROOT_COUNT = 500
HOOKS_PER_ROOT = 10
ADD_ROOTS_BATCH = 50
SLEEP_HOOKS = 10
SLEEP_S = 0.2


# -- statistics and formatting ---------------------------------------------------------


def percentile(samples: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) with linear interpolation between ranks."""
    if not samples:
        raise ValueError("no samples")
    ordered = sorted(samples)
    position = (len(ordered) - 1) * q / 100
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def p50(samples: Sequence[float]) -> float:
    return statistics.median(samples)


def ratio(value: float, baseline: float) -> float:
    return value / baseline if baseline > 0 else math.inf


def fmt_ms(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


def fmt_ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}x"


def summary(samples: Sequence[float]) -> dict[str, float | int]:
    """The JSON form of a list of millisecond samples."""
    return {
        "n": len(samples),
        "p50_ms": round(p50(samples), 4),
        "p99_ms": round(percentile(samples, 99), 4),
        "min_ms": round(min(samples), 4),
    }


@dataclass
class Table:
    """One figure's block in the report."""

    key: str
    title: str
    headers: list[str]
    rows: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    """The figure's numbers for ``--json``."""

    def render(self) -> str:
        widths = [len(h) for h in self.headers]
        for row in self.rows:
            for index, cell in enumerate(row):
                widths[index] = max(widths[index], len(cell))

        def line(cells: Sequence[str]) -> str:
            first = cells[0].ljust(widths[0])
            rest = [cell.rjust(widths[i + 1]) for i, cell in enumerate(cells[1:])]
            return "  " + "  ".join([first, *rest]).rstrip()

        out = [self.title, line(self.headers), "  " + "  ".join("-" * w for w in widths)]
        out += [line(row) for row in self.rows]
        for note in self.notes:
            out += textwrap.wrap(note, width=96, initial_indent="  * ", subsequent_indent="    ")
        return "\n".join(out)


class BenchError(Exception):
    """The benchmark cannot go on (a daemon did not start, a hook did not run...)."""


def progress(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


# -- the environment: temp dir, HOME, fixtures -----------------------------------------


@dataclass
class Workspace:
    """The temporary directory and everything the benchmark writes into it."""

    base: Path
    env: dict[str, str]

    @property
    def home(self) -> Path:
        return self.base / "home"

    @property
    def system_root(self) -> Path:
        return self.base / "sysroot"

    def root(self, name: str) -> Path:
        return self.base / "ws" / name

    def many_root(self, index: int) -> Path:
        return self.base / "many" / f"r{index:03d}"


def make_workspace() -> Workspace:
    base = Path(tempfile.mkdtemp(prefix="hookd-bench-"))
    if len(str(base / "daemon-x" / "hookd.sock")) > 100:  # AF_UNIX path limit is 108
        shutil.rmtree(base)
        base = Path(tempfile.mkdtemp(prefix="hookd-bench-", dir="/tmp"))
    home = base / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOOKD_")}
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_STATE_HOME=str(home / ".local" / "state"),
        XDG_RUNTIME_DIR=str(base / "run"),
        NODE_OPTIONS="",
    )
    for directory in (home, base / "sysroot", base / "run"):
        directory.mkdir(parents=True)
    (base / "run").chmod(0o700)
    return Workspace(base, env)


def claude_settings(pre_tool_use: Sequence[str], post_tool_use: Sequence[str] = ()) -> str:
    hooks: dict[str, Any] = {}
    if pre_tool_use:
        hooks["PreToolUse"] = [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": c} for c in pre_tool_use]}
        ]
    if post_tool_use:
        hooks["PostToolUse"] = [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": c} for c in post_tool_use]}
        ]
    return json.dumps({"hooks": hooks}, indent=2)


def write_claude(root: Path, text: str) -> Path:
    path = root / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def write_fixtures(ws: Workspace) -> None:
    ws.root("none").mkdir(parents=True)
    write_claude(ws.root("one"), claude_settings(["true"]))
    cline_hook = ws.root("cline") / ".clinerules" / "hooks" / "PreToolUse"
    cline_hook.parent.mkdir(parents=True)
    cline_hook.write_text("#!/bin/sh\necho '{}'\n")
    cline_hook.chmod(0o755)
    write_claude(
        ws.root("sleep10"),
        claude_settings([f"sleep {SLEEP_S} # hook {i}" for i in range(SLEEP_HOOKS)]),
    )
    write_claude(
        ws.root("measured"),
        claude_settings(["true"], [f"echo measured-{i}" for i in range(HOOKS_PER_ROOT - 1)]),
    )
    for index in range(ROOT_COUNT):
        write_claude(
            ws.many_root(index),
            claude_settings([], [f"echo r{index}-h{j}" for j in range(HOOKS_PER_ROOT)]),
        )
    (ws.base / "spawner.js").write_text(NODE_SPAWNER)
    (ws.base / "claude-payload.json").write_text(json.dumps(claude_payload(ws.root("one"))))
    (ws.base / "cline-payload.json").write_text(json.dumps(cline_payload(ws.root("cline"))))


def claude_payload(root: Path, base: dict[str, Any] = CLAUDE_PAYLOAD) -> dict[str, Any]:
    return {**base, "cwd": str(root), "hook_event_name": "PreToolUse"}


def cline_payload(root: Path) -> dict[str, Any]:
    return {
        **CLINE_PAYLOAD,
        "clineVersion": "bench",
        "hookName": "PreToolUse",
        "timestamp": "0",
        "taskId": "bench-task",
        "workspaceRoots": [str(root)],
    }


# -- the daemon ------------------------------------------------------------------------


def read_memory_kb(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM of a process, in kB (empty when /proc is not there)."""
    values: dict[str, int] = {}
    with suppress(OSError), open(f"/proc/{pid}/status") as status:
        for text in status:
            name, _, rest = text.partition(":")
            if name in ("VmRSS", "VmHWM"):
                values[name] = int(rest.split()[0])
    return values


def read_cpu_s(pid: int) -> float | None:
    """User + system CPU seconds of a process so far (None when /proc is not there)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            text = handle.read()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # after "pid (comm) "
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Reading:
    """One memory (and idle CPU) reading of a daemon for figure 6."""

    daemon: str
    label: str
    memory_kb: dict[str, int]
    idle_cpu_percent: float | None = None


def idle_reading(daemon: Daemon, label: str, idle_s: float) -> Reading:
    """Memory now, and CPU use while nothing is asked of the daemon for ``idle_s``."""
    before = read_cpu_s(daemon.pid)
    started = time.perf_counter()
    time.sleep(idle_s)
    after = read_cpu_s(daemon.pid)
    elapsed = time.perf_counter() - started
    cpu = None if before is None or after is None else (after - before) / elapsed * 100
    return Reading(daemon.name, label, daemon.memory_kb(), cpu)


class Daemon:
    """One ``hookd serve`` subprocess with its own socket and log, in the workspace."""

    def __init__(self, ws: Workspace, name: str) -> None:
        self.ws = ws
        self.name = name
        self.dir = ws.base / f"daemon-{name}"
        self.dir.mkdir()
        self.socket = str(self.dir / "hookd.sock")
        self.log_path = self.dir / "daemon.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.startup_ms = 0.0

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self, timeout_s: float = 30.0) -> None:
        argv = [
            sys.executable, "-m", "hookd", "--socket", self.socket, "serve",
            "--home", str(self.ws.home), "--system-root", str(self.ws.system_root),
            "--log-format", "json", "--trust-all",  # trust's own cost: bench/trust_overhead.py
        ]  # fmt: skip
        started = time.perf_counter()
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=self.ws.env,
                cwd=self.dir,
            )
        deadline = time.monotonic() + timeout_s
        while True:
            code = self.process.poll()
            if code is not None:
                raise BenchError(
                    f"daemon {self.name} exited with {code} before it was ready:\n"
                    + self.log_tail()
                )
            try:
                with Client(self.socket, timeout_s=2.0) as client:
                    client.status()
                break
            except (HookdClientError, OSError) as exc:
                if time.monotonic() > deadline:
                    raise BenchError(
                        f"daemon {self.name} not ready after {timeout_s:g} s ({exc}):\n"
                        + self.log_tail()
                    ) from None
                time.sleep(0.02)
        self.startup_ms = (time.perf_counter() - started) * 1000

    def memory_kb(self) -> dict[str, int]:
        return read_memory_kb(self.pid)

    def stop(self) -> list[str]:
        """Shut the daemon down (RPC, then SIGTERM, then SIGKILL); returns what went wrong."""
        problems: list[str] = []
        process = self.process
        if process is None or process.poll() is not None:
            if process is not None and process.returncode != 0:
                problems.append(f"daemon {self.name} had exited with {process.returncode}")
            return problems
        try:
            with Client(self.socket, timeout_s=5.0) as client:
                client.shutdown()
        except (HookdClientError, OSError) as exc:
            problems.append(f"daemon {self.name}: shutdown RPC failed: {exc}")
        try:
            code = process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            problems.append(f"daemon {self.name} still running 10 s after shutdown: SIGTERM")
            process.terminate()
            try:
                code = process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                problems.append(f"daemon {self.name} ignored SIGTERM: SIGKILL")
                process.kill()
                code = process.wait()
        if code != 0:
            problems.append(f"daemon {self.name} exited with {code}")
        if os.path.exists(self.socket):
            problems.append(f"daemon {self.name} left its socket behind: {self.socket}")
        return problems

    def log_tail(self, lines: int = 20) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    def log_problems(self) -> list[str]:
        """Log lines at warning level or above (or that are not JSON: tracebacks)."""
        found: list[str] = []
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return found
        for raw in text.splitlines():
            try:
                record = json.loads(raw)
            except json.JSONDecodeError:
                found.append(raw)
                continue
            if not isinstance(record, dict) or record.get("level") not in ("info", "debug"):
                found.append(raw)
        return found


@contextmanager
def running(daemon: Daemon, problems: list[str]) -> Iterator[Daemon]:
    """Start the daemon and always stop it, whatever happens in between."""
    progress(f"starting daemon {daemon.name}")
    try:
        daemon.start()
        yield daemon
    finally:
        problems.extend(daemon.stop())
        problems.extend(f"daemon {daemon.name} log: {line[:300]}" for line in daemon.log_problems())


# -- measuring -------------------------------------------------------------------------

Method = Callable[[int], list[float]]
"""Runs ``n`` samples and returns their durations in ms."""


def interleaved(methods: dict[str, Method], n: int, block: int) -> dict[str, list[float]]:
    """About ``n`` samples of every method, taken in turns, ``block`` samples at a time
    (the order rotates each round), so that slow phases of a noisy machine hit all of them."""
    rounds = max(1, math.ceil(n / block))
    per_round = max(1, math.ceil(n / rounds))
    names = list(methods)
    samples: dict[str, list[float]] = {name: [] for name in names}
    for index in range(rounds):
        shift = index % len(names)
        for name in names[shift:] + names[:shift]:
            samples[name].extend(methods[name](per_round))
    return samples


def timed(action: Callable[[], object], n: int) -> list[float]:
    out: list[float] = []
    for _ in range(n):
        started = time.perf_counter()
        action()
        out.append((time.perf_counter() - started) * 1000)
    return out


def check_fire(result: dict[str, Any], hooks: int, what: str) -> None:
    """Fail loudly when a fire did not run exactly the hooks it should have."""
    ran = result.get("hooks", [])
    if len(ran) != hooks:
        raise BenchError(f"{what}: expected {hooks} hook(s) to run, got {len(ran)}: {result}")
    for run in ran:
        if run.get("exitCode") != 0 or run.get("error"):
            raise BenchError(f"{what}: a hook failed: {run}")
    if result.get("blocked"):
        raise BenchError(f"{what}: the fire was blocked: {result}")


class DaemonFire:
    """Fires one event through a persistent client and keeps the daemon-side timings."""

    def __init__(
        self,
        client: Client,
        agent: str,
        root: Path,
        payload: dict[str, Any],
        hooks: int,
    ) -> None:
        self.client = client
        self.agent = agent
        self.roots = [str(root)]
        self.payload = payload
        self.hooks = hooks
        self.hook_ms: list[float] = []
        self.daemon_ms: list[float] = []

    def once(self) -> dict[str, Any]:
        return self.client.fire(self.agent, "PreToolUse", self.roots, self.payload)

    def check(self) -> None:
        check_fire(self.once(), self.hooks, f"{self.agent} fire in {self.roots[0]}")

    def __call__(self, n: int) -> list[float]:
        out: list[float] = []
        for _ in range(n):
            started = time.perf_counter()
            result = self.once()
            out.append((time.perf_counter() - started) * 1000)
            self.daemon_ms.append(float(result["durationMs"]))
            if result["hooks"]:
                self.hook_ms.append(float(result["hooks"][0]["durationMs"]))
            if len(result["hooks"]) != self.hooks:
                raise BenchError(f"fire ran {len(result['hooks'])} hooks, not {self.hooks}")
        return out


def naive_claude_agent(root: Path, payload: dict[str, Any], env: dict[str, str]) -> Method:
    """A Python agent that discovers Claude hooks per event the naive way and runs them."""
    settings_path = root / ".claude" / "settings.json"
    tool_name = str(payload["tool_name"])

    def fire_once() -> None:
        with open(settings_path) as handle:
            settings = json.load(handle)
        data = json.dumps({**payload, "hook_event_name": "PreToolUse"}).encode()
        for group in settings.get("hooks", {}).get("PreToolUse", []):
            matcher = group.get("matcher") or ""
            if matcher not in ("", "*") and not re.fullmatch(matcher, tool_name):
                continue
            for hook in group.get("hooks", []):
                proc = subprocess.run(
                    ["/bin/sh", "-c", hook["command"]],
                    input=data,
                    capture_output=True,
                    env=env,
                    cwd=root,
                    check=False,
                )
                if proc.returncode != 0:
                    raise BenchError(f"naive agent: hook exited {proc.returncode}")
                if proc.stdout.strip():
                    json.loads(proc.stdout)

    return lambda n: timed(fire_once, n)


def naive_cline_agent(root: Path, payload: dict[str, Any], env: dict[str, str]) -> Method:
    """A Python agent that looks for the Cline hook file per event and runs it."""
    hook = root / ".clinerules" / "hooks" / "PreToolUse"

    def fire_once() -> None:
        data = json.dumps(payload).encode()
        try:
            info = os.stat(hook)
        except FileNotFoundError:
            return
        if stat.S_ISREG(info.st_mode) and os.access(hook, os.X_OK):
            proc = subprocess.run(
                [str(hook)], input=data, capture_output=True, env=env, cwd=root, check=False
            )
            if proc.returncode != 0:
                raise BenchError(f"naive agent: hook exited {proc.returncode}")
            if proc.stdout.strip():
                json.loads(proc.stdout)

    return lambda n: timed(fire_once, n)


def node_spawner(
    node: str, ws: Workspace, argv: list[str], payload_file: Path, cwd: Path, warmup: int
) -> Method:
    """Node's child_process.spawn of the hook, timed per spawn inside Node."""

    def run(n: int) -> list[float]:
        proc = subprocess.run(
            [node, str(ws.base / "spawner.js"), str(n), str(warmup), str(payload_file), *argv],
            capture_output=True,
            env=ws.env,
            cwd=cwd,
            check=False,
        )
        if proc.returncode != 0:
            raise BenchError(f"node spawner failed ({proc.returncode}): {proc.stderr.decode()}")
        times = json.loads(proc.stdout)
        return [float(t) for t in times]

    return run


# -- the figures -----------------------------------------------------------------------


def bench_rpc(daemon: Daemon, ws: Workspace, sizes: Sizes) -> Table:
    progress("1. fire round trip without a matching hook")
    with Client(daemon.socket) as client:
        fire = DaemonFire(client, "claude", ws.root("none"), claude_payload(ws.root("none")), 0)
        fire.check()

        def unknown_method() -> None:
            try:
                client.call("bench/no-such-method")
            except RemoteError:
                pass
            else:
                raise BenchError("an unknown method was answered without an error")

        methods: dict[str, Method] = {
            "status": lambda n: timed(client.status, n),
            "fire": fire,
            "unknown": lambda n: timed(unknown_method, n),
        }
        for method in methods.values():
            method(sizes.warmup)
        fire.daemon_ms.clear()
        samples = interleaved(methods, sizes.rpc, 1)
    status, fires, unknown = samples["status"], samples["fire"], samples["unknown"]
    table = Table(
        "rpc",
        f"1. fire round trip, no matching hook (one connection, {len(fires)} sequential fires)",
        ["request", "p50 ms", "p99 ms", "p50 ratio", "p99 ratio"],
    )
    table.rows = [
        ["status round trip (baseline)", fmt_ms(p50(status)), fmt_ms(percentile(status, 99)),
         "1.00x", "1.00x"],
        ["fire, no matching hook", fmt_ms(p50(fires)), fmt_ms(percentile(fires, 99)),
         fmt_ratio(ratio(p50(fires), p50(status))),
         fmt_ratio(ratio(percentile(fires, 99), percentile(status, 99)))],
        ["  of which inside the daemon (durationMs)", fmt_ms(p50(fire.daemon_ms)),
         fmt_ms(percentile(fire.daemon_ms, 99)), "", ""],
        ["unknown method -> error (transport only)", fmt_ms(p50(unknown)),
         fmt_ms(percentile(unknown, 99)), fmt_ratio(ratio(p50(unknown), p50(status))),
         fmt_ratio(ratio(percentile(unknown, 99), percentile(status, 99)))],
    ]  # fmt: skip
    table.notes.append(
        "ratio: fire / status on the same connection, interleaved sample by sample; "
        "'inside the daemon' is the fire's own durationMs (lookup, "
        "run, combine), the rest is transport, framing, dispatch and progress messages. "
        "status is not free (it summarizes the whole registry, see figure 4); the unknown "
        "method's error reply is the floor of transport + dispatch."
    )
    table.data = {
        "status": summary(status),
        "fire_no_hook": summary(fires),
        "fire_no_hook_daemon_duration": summary(fire.daemon_ms),
        "unknown_method": summary(unknown),
        "ratio_p50_fire_vs_status": ratio(p50(fires), p50(status)),
        "ratio_p99_fire_vs_status": ratio(percentile(fires, 99), percentile(status, 99)),
    }
    return table


def bench_one_hook(daemon: Daemon, ws: Workspace, sizes: Sizes, node: str | None) -> Table:
    progress("2. fire with one trivial hook: daemon vs python-naive vs node")
    table = Table(
        "one_hook",
        f"2. one trivial hook per fire ({sizes.spawn} fires per method, interleaved)",
        ["hook / runner", "p50 ms", "p99 ms", "in daemon", "daemon/this"],
    )
    one, cline = ws.root("one"), ws.root("cline")
    kinds: list[tuple[str, str, Path, dict[str, Any], Method, list[str], Path]] = [
        (
            "claude",
            "claude 'true' (/bin/sh -c true)",
            one,
            claude_payload(one),
            naive_claude_agent(one, claude_payload(one), ws.env),
            ["/bin/sh", "-c", "true"],
            ws.base / "claude-payload.json",
        ),
        (
            "cline",
            "cline hook file (sh script: echo {})",
            cline,
            cline_payload(cline),
            naive_cline_agent(cline, cline_payload(cline), ws.env),
            [str(cline / ".clinerules" / "hooks" / "PreToolUse")],
            ws.base / "cline-payload.json",
        ),
    ]
    with Client(daemon.socket) as client:
        for agent, label, root, payload, naive, argv, payload_file in kinds:
            fire = DaemonFire(client, agent, root, payload, 1)
            fire.check()
            methods: dict[str, Method] = {
                "daemon": fire,
                "python-naive": naive,
                "direct": direct_spawn(argv, payload_file.read_bytes(), ws.env, root),
            }
            if node is not None:
                methods["node"] = node_spawner(node, ws, argv, payload_file, root, 10)
            for name, method in methods.items():
                if name != "node":  # the node script warms itself up
                    method(sizes.warmup)
            fire.hook_ms.clear()
            samples = interleaved(methods, sizes.spawn, sizes.spawn_block)
            daemon_p50 = p50(samples["daemon"])
            data: dict[str, Any] = {
                "daemon": summary(samples["daemon"]),
                "daemon_hook_duration": summary(fire.hook_ms),
                "python_naive": summary(samples["python-naive"]),
                "ratio_daemon_vs_python_naive": ratio(daemon_p50, p50(samples["python-naive"])),
                "direct": summary(samples["direct"]),
                "ratio_daemon_vs_direct": ratio(daemon_p50, p50(samples["direct"])),
                "overhead_vs_direct_ms": daemon_p50 - p50(samples["direct"]),
            }
            table.rows.append([label, "", "", "", ""])
            table.rows.append(
                ["  daemon (Client.fire round trip)", fmt_ms(daemon_p50),
                 fmt_ms(percentile(samples["daemon"], 99)), fmt_ms(p50(fire.hook_ms)), "1.00x"]
            )  # fmt: skip
            table.rows.append(
                ["  python naive (parse + subprocess.run)", fmt_ms(p50(samples["python-naive"])),
                 fmt_ms(percentile(samples["python-naive"], 99)), "",
                 fmt_ratio(data["ratio_daemon_vs_python_naive"])]
            )  # fmt: skip
            table.rows.append(
                ["  direct spawn (subprocess.run)", fmt_ms(p50(samples["direct"])),
                 fmt_ms(percentile(samples["direct"], 99)), "",
                 fmt_ratio(data["ratio_daemon_vs_direct"])]
            )  # fmt: skip
            if "node" in samples:
                data["node"] = summary(samples["node"])
                data["ratio_daemon_vs_node"] = ratio(daemon_p50, p50(samples["node"]))
                table.rows.append(
                    ["  node child_process.spawn", fmt_ms(p50(samples["node"])),
                     fmt_ms(percentile(samples["node"], 99)), "",
                     fmt_ratio(data["ratio_daemon_vs_node"])]
                )  # fmt: skip
            else:
                data["node"] = None
                table.rows.append(["  node: node not found, skipped", "", "", "", ""])
            table.data[agent] = data
    if node is None:
        table.notes.append("node not found, skipped")
    table.notes.append(
        "daemon/this: the daemon's p50 round trip divided by that runner's p50 (below 1.00x "
        "the daemon is faster). 'in daemon': the hook's spawn-to-exit time measured by the "
        "daemon; round trip minus it is the daemon's and the RPC's overhead. 'direct "
        "spawn': this process runs the same argv with the same stdin (subprocess.run), "
        "nothing else: the daemon's round trip minus it is all that going through hookd adds."
    )
    return table


def direct_spawn(argv: list[str], stdin: bytes, env: dict[str, str], cwd: Path) -> Method:
    """The hook started straight from this process, in its own session as agents and
    hookd start hooks (a session costs: with the kernel's autogroups each is a scheduling
    group of its own): the floor of any runner."""

    def once() -> None:
        proc = subprocess.run(argv, input=stdin, capture_output=True, env=env, cwd=cwd,
                              start_new_session=True, check=False)  # fmt: skip
        if proc.returncode != 0:
            raise BenchError(f"direct spawn of {argv}: exit {proc.returncode}")

    return lambda n: timed(once, n)


LEAN_TARGETS = {"node_ratio": 0.8, "overhead_ms": 0.3, "no_hook_ms": 0.15}
"""Issue 15's lean-path targets (p50): a trivial sh hook through hookd at most 0.8x Node's
spawn of it, at most 0.3 ms over a direct spawn, a fire with no matching hook 150 us."""


def bench_lean(rpc: Table, one_hook: Table) -> Table:
    """Figure 7: issue 15's lean-path targets, read off figures 1 and 2 (same run)."""
    table = Table(
        "lean",
        "7. lean path targets (p50, from figures 1 and 2 of this run)",
        ["figure", "measured", "target", "met"],
    )
    claude = one_hook.data.get("claude", {})
    fire_p50 = rpc.data["fire_no_hook"]["p50_ms"]
    floor = rpc.data["unknown_method"]["p50_ms"]
    rows: list[tuple[str, float | None, float, str]] = [
        ("claude 'true' through hookd / node spawn", claude.get("ratio_daemon_vs_node"),
         LEAN_TARGETS["node_ratio"], "x"),
        ("claude 'true': hookd minus direct spawn, ms", claude.get("overhead_vs_direct_ms"),
         LEAN_TARGETS["overhead_ms"], " ms"),
        ("fire, no matching hook, ms", fire_p50, LEAN_TARGETS["no_hook_ms"], " ms"),
    ]  # fmt: skip
    for label, value, target, unit in rows:
        shown = "-" if value is None else f"{value:.2f}{unit}" if unit == "x" else f"{value:.3f}"
        met = "" if value is None else "yes" if value <= target else "no"
        table.rows.append([label, shown, f"<= {target:g}{unit.strip()}", met])
        table.data[label] = {"value": value, "target": target, "met": met == "yes"}
    table.notes.append(
        f"The no-hook fire is {ratio(fire_p50, floor):.2f}x this run's transport floor (an "
        f"unknown method answered with an error, {floor:.3f} ms): what a fire adds to any "
        "request. Milliseconds move with the machine; the ratios are the figures to compare."
    )
    return table


def bench_concurrency(daemon: Daemon, ws: Workspace, sizes: Sizes) -> Table:
    progress(f"3. {SLEEP_HOOKS} hooks of {SLEEP_S * 1000:.0f} ms in one fire")
    root = ws.root("sleep10")
    with Client(daemon.socket) as client:
        fire = DaemonFire(client, "claude", root, claude_payload(root), SLEEP_HOOKS)
        fire.check()
        walls = fire(sizes.sleep_fires)
    single = SLEEP_S * 1000
    serial = single * SLEEP_HOOKS
    wall = p50(walls)
    table = Table(
        "concurrency",
        f"3. {SLEEP_HOOKS} hooks of 'sleep {SLEEP_S}' in one fire ({len(walls)} fires)",
        ["what", "p50 ms", "max ms", "wall/this"],
    )
    table.rows = [
        ["fire wall time (client side)", fmt_ms(wall), fmt_ms(max(walls)), ""],
        [f"one hook: {single:.0f} ms (ideal)", fmt_ms(single), "", fmt_ratio(ratio(wall, single))],
        [f"{SLEEP_HOOKS} x {single:.0f} ms (sequential)", fmt_ms(serial), "",
         fmt_ratio(ratio(wall, serial))],
    ]  # fmt: skip
    table.notes.append(
        "wall/this near 1.00x vs one hook means the hooks ran concurrently; the excess is "
        "spawn and supervision of 10 processes on this machine."
    )
    table.data = {
        "fire_wall": summary(walls),
        "ratio_vs_single_hook": ratio(wall, single),
        "ratio_vs_sequential": ratio(wall, serial),
    }
    return table


def wait_for_watcher(client: Client, minimum_dirs: int, timeout_s: float = 20.0) -> dict[str, Any]:
    """Wait until the daemon's watcher covers the new roots and has stopped changing."""
    deadline = time.monotonic() + timeout_s
    last: tuple[int, int] | None = None
    stable = 0
    status = client.status()
    while time.monotonic() < deadline:
        status = client.status()
        watcher = status["watcher"]
        current = (watcher["directories"], watcher["restarts"])
        stable = stable + 1 if current == last and current[0] >= minimum_dirs else 0
        if stable >= 3:
            break
        last = current
        time.sleep(0.2)
    return status


def registry_methods(client: Client, root: Path, prefix: str) -> dict[str, Method]:
    """The two measured fires on ``root``: one running the 'true' hook, one matching none."""
    match = DaemonFire(client, "claude", root, claude_payload(root), 1)
    nomatch = DaemonFire(client, "claude", root, claude_payload(root, CLAUDE_PAYLOAD_NO_MATCH), 0)
    match.check()
    nomatch.check()
    return {f"{prefix}match": match, f"{prefix}nomatch": nomatch}


def bench_registry(daemon: Daemon, control: Daemon, ws: Workspace, sizes: Sizes) -> Table:
    progress(f"4. fire latency with {HOOKS_PER_ROOT} vs {ROOT_COUNT * HOOKS_PER_ROOT} hooks")
    measured = ws.root("measured")
    with (
        Client(daemon.socket, timeout_s=120.0) as client,
        Client(control.socket, timeout_s=120.0) as control_client,
    ):
        methods = registry_methods(client, measured, "")
        methods.update(registry_methods(control_client, measured, "control_"))
        wait_for_watcher(client, 1)
        wait_for_watcher(control_client, 1)
        for method in methods.values():
            method(sizes.warmup)
        before_status = client.status()
        before = interleaved(methods, sizes.registry_fires, 1)
        before["status"] = timed(client.status, sizes.status_runs)

        roots = [str(ws.many_root(i)) for i in range(ROOT_COUNT)]
        started = time.perf_counter()
        for index in range(0, len(roots), ADD_ROOTS_BATCH):
            client.add_roots(roots[index : index + ADD_ROOTS_BATCH])
        register_ms = (time.perf_counter() - started) * 1000
        progress(f"   registered {ROOT_COUNT} roots in {register_ms:.0f} ms; waiting for watcher")
        settled = time.perf_counter()
        after_status = wait_for_watcher(client, ROOT_COUNT)
        settle_ms = (time.perf_counter() - settled) * 1000
        for method in methods.values():
            method(sizes.warmup)
        after = interleaved(methods, sizes.registry_fires, 1)
        after["status"] = timed(client.status, sizes.status_runs)

    hooks_before = before_status["hooks"]["total"]
    hooks_after = after_status["hooks"]["total"]
    expected = HOOKS_PER_ROOT * (ROOT_COUNT + 1)
    table = Table(
        "registry",
        f"4. fire latency vs registry size ({hooks_before} -> {hooks_after} registered hooks, "
        f"{len(before_status['roots'])} -> {len(after_status['roots'])} roots)",
        ["request on the measured root", f"p50 @{hooks_before}", f"p50 @{hooks_after}",
         "after/before", "vs control", "min after/before"],
    )  # fmt: skip
    labels = {
        "nomatch": f"fire, 0 matching hooks (tool Read) x{len(after['nomatch'])}",
        "match": f"fire, 1 matching hook ('true') x{len(after['match'])}",
        "status": f"status RPC (summarizes the registry) x{len(after['status'])}",
    }
    for key, label in labels.items():
        raw = ratio(p50(after[key]), p50(before[key]))
        controlled: float | None = None
        entry: dict[str, Any] = {
            "before": summary(before[key]),
            "after": summary(after[key]),
            "ratio_p50_after_vs_before": raw,
        }
        if f"control_{key}" in after:
            before_vs_control = ratio(p50(before[key]), p50(before[f"control_{key}"]))
            after_vs_control = ratio(p50(after[key]), p50(after[f"control_{key}"]))
            controlled = ratio(after_vs_control, before_vs_control)
            entry.update(
                control_before=summary(before[f"control_{key}"]),
                control_after=summary(after[f"control_{key}"]),
                ratio_p50_vs_control_before=before_vs_control,
                ratio_p50_vs_control_after=after_vs_control,
                ratio_p50_after_vs_before_controlled=controlled,
            )
        entry["ratio_min_after_vs_before"] = ratio(min(after[key]), min(before[key]))
        table.rows.append(
            [label, fmt_ms(p50(before[key])), fmt_ms(p50(after[key])), fmt_ratio(raw),
             fmt_ratio(controlled), fmt_ratio(entry["ratio_min_after_vs_before"])]
        )  # fmt: skip
        table.data[key] = entry
    table.data.update(
        hooks_before=hooks_before,
        hooks_after=hooks_after,
        register_ms=register_ms,
        watcher_settle_ms=settle_ms,
        watcher_directories=after_status["watcher"]["directories"],
    )
    table.notes.append(
        f"{ROOT_COUNT} roots registered with roots/add in batches of {ADD_ROOTS_BATCH} in "
        f"{register_ms:.0f} ms; the watcher then covered "
        f"{after_status['watcher']['directories']} directories after {settle_ms:.0f} ms."
    )
    table.notes.append(
        "after/before: same daemon, the two phases necessarily one after the other. "
        "vs control: drift-free version: a second daemon that only knows the measured root "
        "was fired interleaved with it in both phases; the figure is (after/control after) / "
        "(before/control before). min after/before: the fastest sample of each phase, the "
        "least noise-sensitive estimate of the intrinsic cost. Fire ratios near 1.00x: fire "
        "cost does not grow with the registry; status is expected to grow."
    )
    if hooks_after != expected:
        table.notes.append(
            f"WARNING: status reports {hooks_after} hooks, expected {expected} "
            f"({ROOT_COUNT} roots x {HOOKS_PER_ROOT} + the measured root's {HOOKS_PER_ROOT})."
        )
    return table


def bench_cli(daemon: Daemon, ws: Workspace, sizes: Sizes) -> Table:
    progress("5. hookd status wall time and trio-free imports")
    status_argv = [sys.executable, "-m", "hookd", "--socket", daemon.socket, "status"]
    pass_argv = [sys.executable, "-c", "pass"]

    def runner(argv: list[str]) -> Method:
        def once() -> None:
            proc = subprocess.run(argv, capture_output=True, env=ws.env, cwd=ws.base, check=False)
            if proc.returncode != 0:
                raise BenchError(f"{argv} exited {proc.returncode}: {proc.stderr.decode()}")

        return lambda n: timed(once, n)

    methods = {"hookd status": runner(status_argv), "python -c pass": runner(pass_argv)}
    for method in methods.values():
        method(2)
    samples = interleaved(methods, sizes.cli_runs, 1)
    cli, bare = samples["hookd status"], samples["python -c pass"]

    probe = subprocess.run(
        [sys.executable, "-c",
         "import sys, hookd.daemon.cli.main, hookd.client; print('trio' in sys.modules)"],
        capture_output=True, text=True, env=ws.env, cwd=ws.base, check=False,
    )  # fmt: skip
    trio_loaded = probe.stdout.strip()
    table = Table(
        "cli",
        f"5. 'hookd status' wall time ({len(cli)} runs each, interleaved)",
        ["command", "p50 ms", "p99 ms", "ratio"],
    )
    table.rows = [
        ["python -c pass (baseline)", fmt_ms(p50(bare)), fmt_ms(percentile(bare, 99)), "1.00x"],
        ["python -m hookd --socket S status", fmt_ms(p50(cli)), fmt_ms(percentile(cli, 99)),
         fmt_ratio(ratio(p50(cli), p50(bare)))],
        ["difference (what hookd's CLI adds)", fmt_ms(p50(cli) - p50(bare)), "", ""],
    ]  # fmt: skip
    ok = probe.returncode == 0 and trio_loaded == "False"
    table.notes.append(
        "import hookd.daemon.cli.main + hookd.client loads trio: "
        + (trio_loaded if probe.returncode == 0 else f"probe failed: {probe.stderr.strip()}")
        + (" (ok: the CLI stays trio-free)" if ok else " (NOT OK: the CLI should not need trio)")
    )
    table.data = {
        "hookd_status": summary(cli),
        "python_pass": summary(bare),
        "difference_p50_ms": p50(cli) - p50(bare),
        "ratio_p50": ratio(p50(cli), p50(bare)),
        "trio_imported_by_cli": trio_loaded == "True" if probe.returncode == 0 else None,
    }
    return table


def bench_memory(readings: Sequence[Reading]) -> Table:
    table = Table(
        "memory",
        "6. daemon memory and idle CPU",
        ["when", "VmRSS MB", "VmHWM MB", "RSS vs start", "idle CPU %"],
    )
    starts: dict[str, int] = {}
    for reading in readings:
        rss = reading.memory_kb.get("VmRSS")
        hwm = reading.memory_kb.get("VmHWM")
        cpu = reading.idle_cpu_percent
        cpu_text = "n/a" if cpu is None else f"{cpu:.1f}"
        if rss is None:
            table.rows.append([reading.label, "n/a", "n/a", "", cpu_text])
        else:
            start = starts.setdefault(reading.daemon, rss)
            table.rows.append(
                [reading.label, f"{rss / 1024:.1f}", f"{(hwm or 0) / 1024:.1f}",
                 fmt_ratio(ratio(rss, start)), cpu_text]
            )  # fmt: skip
        table.data[reading.label] = {"rss_kb": rss, "hwm_kb": hwm, "idle_cpu_percent": cpu}
    table.notes.append(
        "VmRSS/VmHWM from /proc/<pid>/status; 'RSS vs start': RSS / that daemon's RSS after "
        "start-up; idle CPU: user+system time over the idle wait / wall time, % of one core."
    )
    return table


# -- main ------------------------------------------------------------------------------


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def header(sizes: Sizes, quick: bool, node: str | None) -> str:
    node_version = "not found"
    if node is not None:
        probe = subprocess.run([node, "--version"], capture_output=True, text=True, check=False)
        node_version = probe.stdout.strip() or "?"
    try:
        from importlib.metadata import version

        hookd_version = version("hookd")
    except Exception:  # noqa: BLE001 - only for the header
        hookd_version = "?"
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"hookd {hookd_version} benchmark ({'quick' if quick else 'full'} mode, "
        f"figure 2 interleaved in blocks of {sizes.spawn_block}, the rest sample by sample)\n"
        f"python {platform.python_version()}  node {node_version}  "
        f"{os.cpu_count()} CPUs  {platform.system()} {platform.release()}  load {load}\n"
        "All ratios are against a baseline measured in this same run (interleaved)."
    )


FIGURE_ORDER = ("rpc", "one_hook", "concurrency", "registry", "cli", "memory", "lean")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer samples (< 30 s)")
    parser.add_argument(
        "--json", action="store_true", help="also print all figures as JSON on the last line"
    )
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args(argv)
    sizes = Sizes.for_mode(args.quick)
    node = shutil.which("node")
    signal.signal(signal.SIGTERM, _terminate)

    began = time.perf_counter()
    tables: list[Table] = []
    problems: list[str] = []
    readings: list[Reading] = []
    daemons: list[Daemon] = []
    failed = False
    print(header(sizes, args.quick, node), flush=True)
    ws = make_workspace()
    progress(f"workspace {ws.base}")
    try:
        progress(f"writing fixtures ({ROOT_COUNT} roots x {HOOKS_PER_ROOT} hooks)")
        write_fixtures(ws)
        fixtures_done = time.time()

        first = Daemon(ws, "a")
        daemons.append(first)
        with running(first, problems):
            readings.append(idle_reading(first, "A after start-up", sizes.idle_s))
            time.sleep(max(0.0, fixtures_done + RACY_WAIT_S - time.time()))
            tables.append(bench_rpc(first, ws, sizes))
            tables.append(bench_one_hook(first, ws, sizes, node))
            tables.append(bench_lean(tables[-2], tables[-1]))
            tables.append(bench_concurrency(first, ws, sizes))
            tables.append(bench_cli(first, ws, sizes))
            with Client(first.socket) as client:
                fires = client.status()["fires"]
            readings.append(
                idle_reading(first, f"A after figures 1-3, 5 ({fires} fires)", sizes.idle_s)
            )

        second = Daemon(ws, "b")
        daemons.append(second)
        with running(second, problems):
            readings.append(idle_reading(second, "B after start-up", sizes.idle_s))
            control = Daemon(ws, "control")
            daemons.append(control)
            with running(control, problems):
                tables.append(bench_registry(second, control, ws, sizes))
            readings.append(
                idle_reading(second, "B after the 5,000-hook registration", sizes.idle_s)
            )
    except KeyboardInterrupt:
        failed = True
        problems.append("interrupted")
    except Exception as exc:  # noqa: BLE001 - report what we have, clean up, exit 1
        failed = True
        problems.append(f"benchmark failed: {exc!r}\n{traceback.format_exc()}")
    finally:
        if args.keep:
            progress(f"kept {ws.base}")
        else:
            shutil.rmtree(ws.base, ignore_errors=True)

    if readings:
        tables.append(bench_memory(readings))
    tables.sort(key=lambda t: FIGURE_ORDER.index(t.key))
    for table in tables:
        print("\n" + table.render())
    startup = {d.name: round(d.startup_ms, 1) for d in daemons if d.startup_ms}
    if startup:
        print(
            "\ndaemon start-up (spawn to first status answer): "
            + ", ".join(f"{name.upper()} {ms:.0f} ms" for name, ms in startup.items())
        )
    # bench/warm.py: fresh vs warm Python hooks (its own process: no daemon of ours there)
    subprocess.run([sys.executable, str(Path(__file__).with_name("warm.py")),
                    *(["--quick"] if args.quick else [])], check=False)  # fmt: skip
    total_s = time.perf_counter() - began
    print(f"total benchmark time {total_s:.1f} s")
    if problems:
        print("\nPROBLEMS:")
        for problem in problems:
            print(f"  - {problem}")
    if args.json:
        report = {
            "mode": "quick" if args.quick else "full",
            "python": platform.python_version(),
            "node": node is not None,
            "cpus": os.cpu_count(),
            "figures": {t.key: t.data for t in tables},
            "startup_ms": startup,
            "problems": problems,
            "total_s": round(total_s, 2),
        }
        print(json.dumps(report, sort_keys=True))
    return 1 if failed or problems else 0


if __name__ == "__main__":
    sys.exit(main())
