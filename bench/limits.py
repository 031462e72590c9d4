"""Soaks for the caps on clients and roots (issue 11); too long for the test suite.

    python bench/limits.py not-reading [--clients 8] [--seconds 20]
    python bench/limits.py half-sent   [--clients 200]
    python bench/limits.py roots       [--roots 3000]

* ``not-reading``: N clients write ``rpc.discover`` requests and never read a reply.
  The daemon's RSS (``/proc/PID/status``) before, at its peak and after, for the total
  cap off (as before: only 64 MiB per connection), at its default (256 MiB) and at 32 MiB.
* ``half-sent``: N clients each send half a message and stop; the time until the daemon
  has closed all of them (default ``message_timeout_s``, 30 s), with as many idle
  clients that send nothing and must stay.
* ``roots``: fires naming N workspace roots one after another (each with a Claude
  settings file, so every new root restarts the watcher over all known roots), with the
  roots kept forever (as before) and with ``max_roots`` (512); then a known root's fire
  latency, and the same after the idle roots were forgotten (``forget_roots_after_s``).

Each starts its own ``hookd serve`` in a temporary directory (HOME inside it) and stops it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from hookd.client import Client, HookdClientError

MiB = 1024 * 1024


@contextmanager
def daemon(config: dict[str, Any]) -> Iterator[tuple[str, int, Path]]:
    """A ``hookd serve`` process with ``config``: (socket, pid, temp dir)."""
    tmp = Path(tempfile.mkdtemp(prefix="hkb"))
    (tmp / "home").mkdir()
    sock = str(tmp / "s.sock")
    conf = tmp / "c.toml"
    values = {"state_dir": str(tmp / "st"), **config}
    conf.write_text("".join(f"{key} = {json.dumps(value)}\n" for key, value in values.items()))
    argv = [sys.executable, "-m", "hookd", "--socket", sock, "serve", "--config", str(conf),
            "--home", str(tmp / "home"), "--system-root", str(tmp / "sys"),
            "--log-format", "json"]  # fmt: skip
    with (tmp / "log").open("wb") as log:
        process = subprocess.Popen(argv, stderr=log, env={**os.environ, "HOME": str(tmp / "home")})
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with Client(sock, timeout_s=5) as client:
                    client.status()
                break
            except (OSError, HookdClientError):
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.05)
        yield sock, process.pid, tmp
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(tmp, ignore_errors=True)


def rss(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def status(sock: str) -> dict[str, Any]:
    with Client(sock, timeout_s=30) as client:
        result: dict[str, Any] = client.status()
        return result


# not reading ---------------------------------------------------------------------


def flood(sock: str, clients: int, seconds: float) -> int:
    request = b'{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}\n' * 64

    def one(_: int) -> int:
        with socket.socket(socket.AF_UNIX) as conn:
            conn.connect(sock)
            conn.settimeout(0.5)
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                try:
                    conn.sendall(request)
                except TimeoutError:
                    continue
                except OSError:
                    return 1
        return 0

    with ThreadPoolExecutor(clients) as pool:
        return sum(pool.map(one, range(clients)))


def not_reading(clients: int, seconds: float) -> None:
    for label, cap in (("no total cap (before)", 1 << 40), ("default 256 MiB", 256 * MiB),
                       ("32 MiB", 32 * MiB)):  # fmt: skip
        with daemon({"max_unsent_bytes_total": cap}) as (sock, pid, _tmp):
            with Client(sock) as client:
                client.call("rpc.discover")
            before = rss(pid)
            peak = before
            result: list[int] = []

            def run(sock: str = sock, result: list[int] = result) -> None:
                result.append(flood(sock, clients, seconds))

            worker = threading.Thread(target=run)
            started = time.monotonic()
            worker.start()
            while worker.is_alive():
                peak = max(peak, rss(pid))
                time.sleep(0.02)
            worker.join()
            took = time.monotonic() - started
            time.sleep(1)
            after = rss(pid)
            cut = status(sock)["clients"]["disconnectedNotReading"]
        print(f"{clients} non-reading clients, {label:>22}: RSS {before / MiB:.0f} MiB -> peak "
              f"{peak / MiB:.0f} MiB (+{(peak - before) / MiB:.0f}), {after / MiB:.0f} MiB "
              f"after; {cut} disconnected in {took:.1f} s")  # fmt: skip


# half-sent -----------------------------------------------------------------------


def half_sent(clients: int) -> None:
    with daemon({}) as (sock, _pid, _tmp):
        idle = [socket.socket(socket.AF_UNIX) for _ in range(clients)]
        half = [socket.socket(socket.AF_UNIX) for _ in range(clients)]
        for conn in idle + half:
            conn.connect(sock)
        for conn in half:
            conn.sendall(b'{"jsonrpc":"2.0","id":1,"method":"status","par')
        started = time.monotonic()
        while status(sock)["connections"] > clients + 1:
            time.sleep(0.1)
        took = time.monotonic() - started
        left = status(sock)
        for conn in idle + half:
            conn.close()
    print(f"{clients} half-sent connections closed {took:.1f} s after their last byte "
          f"(message_timeout_s {left['clients']['messageTimeoutS']:g} s); "
          f"{left['connections'] - 1} idle ones kept")  # fmt: skip


# roots ---------------------------------------------------------------------------


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return (time.perf_counter() - started) * 1000


def p50(samples: list[float]) -> float:
    return statistics.median(samples)


def p95(samples: list[float]) -> float:
    return sorted(samples)[int(len(samples) * 0.95) - 1]


def roots(count: int) -> None:
    base = Path(tempfile.mkdtemp(prefix="hkr"))
    hook = {"type": "command", "command": "true"}
    settings = json.dumps({"hooks": {"Stop": [{"hooks": [hook]}]}})
    paths = []
    for index in range(count + 1):
        folder = base / f"r{index}" / ".claude"
        folder.mkdir(parents=True)
        (folder / "settings.json").write_text(settings)
        paths.append(str(base / f"r{index}"))
    known, others = paths[0], paths[1:]
    try:
        for label, config in (
            ("kept forever (before)", {"max_roots": 1 << 30, "forget_roots_after_s": 0}),
            ("max_roots 512, forget after 20 s", {"forget_roots_after_s": 20}),
        ):
            with daemon(config) as (sock, _pid, _tmp), Client(sock) as client:

                def fire(root: str) -> None:
                    client.fire("claude", "Stop", [root], {})

                fire(known)
                new_root: list[float] = []
                for root in others:
                    new_root.append(timed(partial(fire, root)))
                known_root = [timed(lambda: fire(known)) for _ in range(200)]
                state = status(sock)
                line = (f"{label:>34}: fires naming a new root p50 {p50(new_root[-500:]):.1f} ms "
                        f"p95 {p95(new_root[-500:]):.1f} ms (last 500 of {count}); a known root "
                        f"p50 {p50(known_root):.1f} ms; {len(state['roots'])} roots, "
                        f"{state['watcher']['directories']} dirs watched, "
                        f"{state['watcher']['restarts']} watcher restarts")  # fmt: skip
                if config.get("forget_roots_after_s"):
                    deadline = time.monotonic() + 120
                    while len(status(sock)["roots"]) > 1 and time.monotonic() < deadline:
                        fire(known)
                        time.sleep(1)
                    after = [timed(lambda: fire(known)) for _ in range(200)]
                    state = status(sock)
                    line += (f"\n{'':>34}  after forgetting: a known root p50 "
                             f"{p50(after):.1f} ms; {len(state['roots'])} roots, "
                             f"{state['rootsForgotten']} forgotten, "
                             f"{state['watcher']['directories']} dirs watched")  # fmt: skip
                print(line, flush=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", choices=("not-reading", "half-sent", "roots"))
    parser.add_argument("--clients", type=int)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--roots", type=int, default=3000)
    args = parser.parse_args()
    if args.scenario == "not-reading":
        not_reading(args.clients or 8, args.seconds)
    elif args.scenario == "half-sent":
        half_sent(args.clients or 200)
    else:
        roots(args.roots)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
