"""What trust and the audit log cost a fire: figure 2's fire (one Claude ``true`` hook on
PreToolUse/Bash, one persistent client), on daemons that differ only in that:

* ``before``: the daemon without trust and audit (``--before-src DIR``: a ``daemon/src``
  of an earlier commit, e.g. ``git archive bfb4780 daemon/src | tar -x -C /tmp/before``);
* ``trust_all``: trust off (only the file-safety checks), audit off;
* ``allowed``: trust on, the workspace allowed with ``hookd allow`` (the hash cache and
  the approval check on every fire), audit off;
* ``allowed+audit``: as ``allowed``, with the audit log on (the default configuration).

The methods take turns (interleaved, as ``run.py`` does), so a noisy phase of the
machine hits all of them; compare the ratios against ``before`` (or ``trust_all``).

    python bench/trust_overhead.py [--quick] [--before-src DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from hookd.client import Client, HookdClientError
from hookd.daemon.all_dialects import DIALECTS
from hookd.daemon.audit import AuditLog, Peer
from hookd.daemon.model import Dialect, FireRequest
from hookd.daemon.registry.registry import Registry
from hookd.daemon.settings import Settings
from hookd.daemon.trust.gate import TrustGate
from hookd.daemon.trust.snapshot import snapshot
from hookd.daemon.trust.store import TrustStore

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run.py's helpers, as bench.run
from bench.run import (
    BenchError,
    DaemonFire,
    claude_payload,
    claude_settings,
    interleaved,
    make_workspace,
    p50,
    percentile,
    write_claude,
)


class ConfiguredDaemon:
    """``hookd serve`` with its own config file (and optionally another ``daemon/src``)."""

    def __init__(self, base: Path, env: dict[str, str], name: str, config: dict[str, Any],
                 src: str | None = None) -> None:  # fmt: skip
        self.name = name
        self.dir = base / f"daemon-{name}"
        self.dir.mkdir()
        self.socket = str(self.dir / "hookd.sock")
        self.config = self.dir / "hookd.toml"
        self.config.write_text("".join(f"{k} = {json.dumps(v)}\n" for k, v in config.items()))
        self.env = dict(env)
        if src is not None:
            self.env["PYTHONPATH"] = src
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, home: Path, system_root: Path) -> None:
        argv = [sys.executable, "-m", "hookd", "--socket", self.socket, "serve",
                "--config", str(self.config), "--home", str(home),
                "--system-root", str(system_root), "--log-format", "json"]  # fmt: skip
        with open(self.dir / "daemon.log", "wb") as log:
            self.process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log,
                                            stderr=subprocess.STDOUT, env=self.env)  # fmt: skip
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                raise BenchError(
                    f"daemon {self.name} exited: {(self.dir / 'daemon.log').read_text()}"
                )
            try:
                with Client(self.socket, timeout_s=2.0) as client:
                    client.status()
                return
            except (HookdClientError, OSError):
                if time.monotonic() > deadline:
                    raise BenchError(f"daemon {self.name} not ready after 30 s") from None
                time.sleep(0.02)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def in_process(root: Path, home: Path, system_root: Path, base: Path, n: int) -> dict[str, float]:
    """Microseconds per call, in this process: the registry's ``hooks_for`` without a trust
    gate, with ``trust_all``, and with the workspace allowed; and one audit record."""
    settings = Settings(home=str(home), system_root=str(system_root), state_dir=str(base))
    store = TrustStore(str(base / "trust.json"))
    store.allow(str(root), snapshot(DIALECTS, str(home), str(system_root), str(root)).files)
    registries = {
        "no gate": Registry(settings, DIALECTS),
        "trust_all": Registry(settings, DIALECTS, TrustGate(store, DIALECTS, home=str(home),
                                                            trust_all=True)),
        "allowed": Registry(settings, DIALECTS, TrustGate(store, DIALECTS, home=str(home))),
    }  # fmt: skip
    request = FireRequest(Dialect.CLAUDE, "PreToolUse", (str(root),), claude_payload(root))
    module = DIALECTS[Dialect.CLAUDE]
    for registry in registries.values():
        specs, _warnings, _unread = registry.hooks_for(request, module)
        if len(specs) != 1 or specs[0].refused:
            raise BenchError(f"in-process: expected one runnable hook, got {specs}")

    def calls(registry: Registry) -> Any:
        def run(count: int) -> list[float]:
            started = time.perf_counter()
            for _ in range(count):
                registry.hooks_for(request, module)
            return [(time.perf_counter() - started) * 1e6 / count]

        return run

    timings = interleaved({name: calls(r) for name, r in registries.items()}, 20 * n, n)
    figures = {name: min(values) for name, values in timings.items()}
    audit = AuditLog(str(base / "audit.jsonl"), 1 << 30, 1)
    result = DaemonFireResult.example(root)
    started = time.perf_counter()
    for _ in range(n):
        audit.fire(peer=Peer(1, 0), request_id=1, agent="claude", event="PreToolUse",
                   roots=[str(root)], depth=0, result=result)  # fmt: skip
    figures["audit record"] = (time.perf_counter() - started) * 1e6 / n
    audit.close()
    return figures


class DaemonFireResult:
    @staticmethod
    def example(root: Path) -> dict[str, Any]:
        """A fire result with one hook, as figure 2's fire answers."""
        hook = {"index": 0, "dialect": "claude", "layer": "project", "source": str(root),
                "command": "true", "exitCode": 0, "durationMs": 1.4, "timedOut": False,
                "error": None, "blocked": False, "decision": None}  # fmt: skip
        return {"blocked": False, "decision": None, "reason": None, "continue": True,
                "hooks": [hook], "durationMs": 2.1, "warnings": [], "asyncStarted": []}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    parser.add_argument("--before-src", metavar="DIR", help="daemon/src of the 'before' commit")
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = parser.parse_args()
    samples_n, block = (400, 50) if args.quick else (2000, 50)

    ws = make_workspace()
    root = ws.root("one")
    write_claude(root, claude_settings(["true"]))
    payload = claude_payload(root)
    state = ws.base / "state"
    variants: dict[str, tuple[dict[str, Any], str | None]] = {}
    if args.before_src:
        variants["before"] = ({"state_dir": str(state / "before")}, args.before_src)
    variants["trust_all"] = ({"state_dir": str(state / "all"), "trust_all": True,
                              "audit_log": False}, None)  # fmt: skip
    variants["allowed"] = ({"state_dir": str(state / "allowed"), "audit_log": False}, None)
    variants["allowed+audit"] = ({"state_dir": str(state / "audit")}, None)
    daemons = [ConfiguredDaemon(ws.base, ws.env, name, config, src)
               for name, (config, src) in variants.items()]  # fmt: skip
    clients: list[Client] = []
    try:
        for daemon in daemons:
            if daemon.name.startswith("allowed"):
                subprocess.run([sys.executable, "-m", "hookd", "allow", str(root),
                                "--config", str(daemon.config)],
                               check=True, env=ws.env, capture_output=True)  # fmt: skip
            daemon.start(ws.home, ws.system_root)
        time.sleep(0.1)  # past the racy window of the files just written
        methods = {}
        for daemon in daemons:
            client = Client(daemon.socket)
            clients.append(client)
            fire = DaemonFire(client, "claude", root, payload, 1)
            fire.check()
            fire(50)  # warm-up
            methods[daemon.name] = fire
        samples = interleaved(dict(methods), samples_n, block)
        baseline = "before" if "before" in samples else "trust_all"
        base_p50 = p50(samples[baseline])
        figures: dict[str, Any] = {}
        print(
            f"fire with one trusted hook ({samples_n} fires each, interleaved in blocks of {block})"
        )
        print(f"{'daemon':<16}{'p50 ms':>9}{'p99 ms':>9}{'in daemon':>11}{'vs ' + baseline:>16}")
        for name, values in samples.items():
            inside = p50(methods[name].daemon_ms)
            figures[name] = {"p50": p50(values), "p99": percentile(values, 99),
                             "daemon_p50": inside, "ratio": p50(values) / base_p50}  # fmt: skip
            print(f"{name:<16}{p50(values):>9.3f}{percentile(values, 99):>9.3f}"
                  f"{inside:>11.3f}{p50(values) / base_p50:>15.3f}x")  # fmt: skip
        calls = 2000 if args.quick else 10000
        micro = in_process(root, ws.home, ws.system_root, ws.base / "micro", calls)
        print(f"\nin this process, microseconds per call (best of 20 rounds of {calls} calls)")
        for name, value in micro.items():
            print(f"{name:<16}{value:>9.1f} us")
        figures["in_process_us"] = micro
        if args.json:
            print(json.dumps(figures))
    finally:
        for client in clients:
            client.close()
        for daemon in daemons:
            daemon.stop()
        shutil.rmtree(ws.base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
