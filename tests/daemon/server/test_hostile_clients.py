"""Clients as an attacker would write them, against a real ``hookd serve`` process:
half-sent messages (connections reclaimed), clients that never read (RSS bounded, read
from /proc), hundreds of idle connections under ``prlimit --nofile=1024`` with bursts
of fires (never dies, a deny policy never comes back allowed), and 5,000 fuzzed
messages (every request answered, in valid JSON; the daemon never dies).

Each test prints its figures (``-s`` shows them); long soaks live in ``bench/``.
"""

from __future__ import annotations

import contextlib
import json
import random
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from hookd.protocol import MessageDecoder
from hookd_testing import claude_settings, command, write_json
from hookd_testing.process_daemon import process_daemon

pytestmark = pytest.mark.slow


def wait_for(condition: Callable[[], bool], timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.05)


def rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def open_fds(pid: int) -> int:
    import os

    return len(os.listdir(f"/proc/{pid}/fd"))


@contextlib.contextmanager
def sockets(path: str, count: int) -> Iterator[list[socket.socket]]:
    opened: list[socket.socket] = []
    try:
        for _ in range(count):
            conn = socket.socket(socket.AF_UNIX)
            conn.connect(path)
            opened.append(conn)
        yield opened
    finally:
        for conn in opened:
            conn.close()


def strict_json(raw: bytes) -> Any:
    def refuse(name: str) -> None:
        raise ValueError(f"not JSON: {name}")

    return json.loads(raw, parse_constant=refuse)


# half-sent -------------------------------------------------------------------------


def test_half_sent_messages_do_not_keep_their_connections(tmp_path: Path) -> None:
    """200 clients start a message and stop; 50 idle clients send nothing. The 200 are
    answered and closed after message_timeout_s; the 50 idle ones stay."""
    timeout_s = 2.0
    with process_daemon(tmp_path, {"message_timeout_s": timeout_s}) as daemon:
        base_fds = open_fds(daemon.pid)
        with sockets(daemon.socket, 50), sockets(daemon.socket, 200) as half:
            for index, conn in enumerate(half):
                if index % 2:
                    conn.sendall(b'{"jsonrpc":"2.0","id":%d,"method":"status","par' % index)
                else:
                    conn.sendall(b'Content-Length: 100\r\n\r\n{"jsonrpc"')
            sent_at = time.monotonic()
            wait_for(lambda: daemon.status()["connections"] == 51)  # 50 idle + this one
            reclaimed_s = time.monotonic() - sent_at
            answers = []
            for conn in half[:20]:
                conn.settimeout(10)
                data = b""
                while chunk := conn.recv(65536):
                    data += chunk
                answers.append(data)
            status = daemon.status()
            fds_with_idle = open_fds(daemon.pid)
        wait_for(lambda: daemon.status()["connections"] == 1)
        fds_after = open_fds(daemon.pid)
    print(f"\n200 half-sent connections reclaimed {reclaimed_s:.1f} s after the last "
          f"byte (message_timeout_s={timeout_s}); fds {base_fds} -> {fds_with_idle} "
          f"with 50 idle -> {fds_after}")  # fmt: skip

    assert reclaimed_s < timeout_s + 30
    assert status["clients"]["closedIncomplete"] == 200
    assert all(b"Incomplete message" in answer for answer in answers)
    assert fds_with_idle <= base_fds + 50 + 5
    assert fds_after <= base_fds + 2


# not reading -----------------------------------------------------------------------


def flood_without_reading(path: str, clients: int, seconds: float, stop: threading.Event) -> int:
    """``clients`` connections write rpc.discover requests and never read a reply;
    returns how many of them the daemon disconnected."""
    request = b'{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}\n' * 64
    cut = 0

    def one() -> int:
        with socket.socket(socket.AF_UNIX) as conn:
            conn.connect(path)
            conn.settimeout(0.5)
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline and not stop.is_set():
                try:
                    conn.sendall(request)
                except TimeoutError:
                    continue  # the daemon paused reading (in-flight cap): try again
                except OSError:
                    return 1  # disconnected
        return 0

    with ThreadPoolExecutor(clients) as pool:
        cut = sum(pool.map(lambda _: one(), range(clients)))
    return cut


def peak_rss_while(pid: int, work: Callable[[], int]) -> tuple[int, int]:
    peak = rss_bytes(pid)
    result: list[int] = []
    worker = threading.Thread(target=lambda: result.append(work()))
    worker.start()
    while worker.is_alive():
        peak = max(peak, rss_bytes(pid))
        time.sleep(0.02)
    worker.join()
    return peak, result[0]


def test_clients_that_never_read_cannot_grow_the_daemon(tmp_path: Path) -> None:
    """Eight clients write requests and never read: with a 32 MiB total cap the daemon's
    RSS stays within the cap plus a margin (without it: 8 x 64 MiB)."""
    cap = 32 * 1024 * 1024
    with process_daemon(tmp_path, {"max_unsent_bytes_total": cap}) as daemon:
        daemon.status()
        with daemon.client() as client:
            client.call("rpc.discover")  # warm: the document is loaded once
        before = rss_bytes(daemon.pid)
        stop = threading.Event()
        peak, cut = peak_rss_while(
            daemon.pid, lambda: flood_without_reading(daemon.socket, 8, 20.0, stop)
        )
        status = daemon.status()
        after = rss_bytes(daemon.pid)
    grown = peak - before
    print(f"\n8 non-reading clients, max_unsent_bytes_total {cap >> 20} MiB: RSS "
          f"{before >> 20} MiB before, peak {peak >> 20} MiB (+{grown >> 20}), "
          f"{after >> 20} MiB after; {cut} clients disconnected")  # fmt: skip

    assert status["clients"]["disconnectedNotReading"] >= 1
    assert grown < cap + 96 * 1024 * 1024
    assert status["clients"]["unsentBytes"] <= cap


# prlimit ---------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("prlimit") is None, reason="needs util-linux prlimit")
def test_idle_connections_and_bursts_of_fires_under_1024_descriptors(tmp_path: Path) -> None:
    """250 idle connections, then bursts of concurrent fires (10 denying hooks each, some
    naming roots the daemon has not seen): the daemon never dies and never answers
    "allowed"."""
    roots = [tmp_path / f"ws{i}" for i in range(6)]
    for root in roots:  # distinct commands: Claude's de-duplication keeps all ten
        hooks = [command(f"cat >/dev/null; echo no{i} >&2; exit 2") for i in range(10)]
        write_json(root / ".claude/settings.json", claude_settings("PreToolUse", *hooks))
    prefix = ["prlimit", "--nofile=1024:1024"]
    results: list[dict[str, Any]] = []
    with process_daemon(tmp_path, prefix=prefix) as daemon, sockets(daemon.socket, 250):
        wait_for(lambda: daemon.status()["connections"] >= 251)

        def fire(root: Path) -> dict[str, Any]:
            return daemon.fire("claude", "PreToolUse", [str(root)], {"tool_name": "Bash"})

        started = time.monotonic()
        with ThreadPoolExecutor(16) as pool:
            for burst in range(3):
                names = [roots[(burst * 2 + i) % len(roots)] for i in range(16)]
                results.extend(pool.map(fire, names))
        burst_s = time.monotonic() - started
        status = daemon.status()
        alive = daemon.process.poll() is None
    print(f"\n250 idle connections under nofile=1024: 3 bursts of 16 fires x 10 hooks in "
          f"{burst_s:.1f} s; {status['processes']}")  # fmt: skip

    assert alive
    assert len(results) == 48
    allowed = [r for r in results if r["blocked"] is not True]
    assert not allowed, json.dumps(allowed[0]["hooks"][:2], indent=1)
    assert status["connections"] >= 251
    assert status["processes"]["detached"] == 0  # hooks that left nothing are not kept


# fuzz ------------------------------------------------------------------------------


class Fuzzer:
    """Seeded random messages: valid requests, malformed JSON, wrong types, odd ids,
    batches, deep nesting, oversized messages and random bytes."""

    METHODS = ["status", "hooks/list", "fire", "roots/add", "rpc.discover", "nope",
               "$/cancelRequest", "$/progress", "", "hook/run"]  # fmt: skip

    def __init__(self, seed: int, root: Path, max_bytes: int) -> None:
        self.random = random.Random(seed)
        self.root = root
        self.max_bytes = max_bytes
        self.serial = 0
        self.expected: set[Any] = set()
        """Ids that must be answered (each exactly once)."""

    def next_id(self) -> Any:
        self.serial += 1
        return self.serial if self.random.random() < 0.5 else f"id-{self.serial}"

    def params(self) -> Any:
        r = self.random
        choice = r.randrange(8)
        if choice == 0:
            return {"agent": r.choice(["claude", "cline", "augment", "cline-sdk", "x", 3]),
                    "event": r.choice(["Stop", "PreToolUse", "", None]),
                    "workspaceRoots": r.choice([[str(self.root)], [], ["rel"], "x", [1]]),
                    "payload": r.choice([{}, {"tool_name": "Bash"}, [], "s", None]),
                    "timeoutMs": r.choice([None, 1, -1, 10**30, "1", 1.5])}  # fmt: skip
        if choice == 1:
            return {"roots": r.choice([[str(self.root)], ["/a\u0000b"], None, [[]], "x"])}
        if choice == 2:
            return {"id": r.choice([1, "x", None, [1], {}])}
        if choice == 3:
            return [1, 2]
        if choice == 4:
            return "str"
        if choice == 5:
            return {"\udcff": "\ud800", "x" * 50: [None] * 20}
        return {} if choice == 6 else None

    def element(self) -> tuple[dict[str, Any], Any]:
        """One JSON object to send, and the id it must be answered under (or None)."""
        r = self.random
        message: dict[str, Any] = {}
        if r.random() < 0.9:
            message["jsonrpc"] = r.choice(["2.0"] * 8 + ["1.0", 2.0])
        if r.random() < 0.9:
            message["method"] = r.choice(self.METHODS)
        if r.random() < 0.7:
            params = self.params()
            if params is not None:
                message["params"] = params
        if r.random() < 0.05:
            message[r.choice(["result", "error", "extra"])] = 1
        answered = None
        roll = r.random()
        if roll < 0.8:
            request_id = self.next_id()
            message["id"] = request_id
            response_like = "method" not in message and ("result" in message or "error" in message)
            if not response_like:
                answered = request_id
        elif roll < 0.9:
            message["id"] = r.choice([None, True, [1], {"a": 1}])
        return message, answered

    def expect(self, element: tuple[dict[str, Any], Any]) -> dict[str, Any]:
        message, answered = element
        if answered is not None:
            self.expected.add(answered)
        return message

    def line(self) -> bytes:
        r = self.random
        roll = r.random()
        if roll < 0.6:
            return json.dumps(self.expect(self.element())).encode()
        if roll < 0.7:
            items = [self.expect(self.element()) for _ in range(r.randrange(0, 6))]
            return json.dumps(items).encode()
        if roll < 0.75:
            return b'{"jsonrpc":"2.0","id":' + r.choice([b"NaN", b"1e999", b"-Infinity"]) + \
                b',"method":"status"}'  # fmt: skip
        if roll < 0.8:
            depth = r.choice([10, 1000, 100000])
            return b"[" * depth + b"]" * depth
        if roll < 0.82:
            request_id = self.next_id()
            self.expected.add(request_id)
            head = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "fire"})[:-1]
            return head.encode() + b',"params":{"x":"' + b"a" * (self.max_bytes + 10) + b'"}}'
        if roll < 0.9:
            text = json.dumps(self.element()[0]).encode()
            cut = r.randrange(len(text) + 1)
            return text[:cut] + bytes(r.randrange(256) for _ in range(r.randrange(4)))
        junk = bytes(r.randrange(256) for _ in range(r.randrange(1, 200)))
        return junk.replace(b"\n", b" ")


def exchange(path: str, lines: list[bytes]) -> list[Any]:
    """Send every line (NDJSON), half-close, read every reply until the daemon closes."""
    with socket.socket(socket.AF_UNIX) as conn:
        conn.connect(path)
        conn.settimeout(60)
        received: list[Any] = []
        decoder = MessageDecoder(max_message_bytes=1 << 30)

        def reader() -> None:
            while data := conn.recv(1 << 16):
                received.extend(strict_json(body) for body in decoder.feed(data))

        thread = threading.Thread(target=reader)
        thread.start()
        conn.sendall(b'{"jsonrpc":"2.0","method":"status"}\n')  # NDJSON from the first byte
        conn.sendall(b"".join(line + b"\n" for line in lines))
        conn.shutdown(socket.SHUT_WR)
        thread.join(120)
        assert not thread.is_alive(), "the daemon did not answer and close in time"
    return received


def answered_ids(replies: list[Any]) -> list[Any]:
    ids = []
    for reply in replies:
        for item in reply if isinstance(reply, list) else [reply]:
            if isinstance(item, dict) and "method" not in item:
                ids.append(item.get("id"))
    return ids


def test_five_thousand_fuzzed_messages(tmp_path: Path) -> None:
    max_bytes = 64 * 1024
    root = tmp_path / "ws"
    write_json(root / ".claude/settings.json", claude_settings("Stop", command("true")))
    fuzzer = Fuzzer(seed=11, root=root, max_bytes=max_bytes)
    batches = [[fuzzer.line() for _ in range(500)] for _ in range(10)]
    count = sum(len(b) for b in batches)
    with process_daemon(tmp_path, {"max_message_bytes": max_bytes}) as daemon:
        started = time.monotonic()
        with ThreadPoolExecutor(4) as pool:
            replies = [r for rs in pool.map(lambda b: exchange(daemon.socket, b), batches)
                       for r in rs]  # fmt: skip
        elapsed = time.monotonic() - started
        status = daemon.status()
        alive = daemon.process.poll() is None
        log = daemon.log.read_text()
    ids = answered_ids(replies)
    print(f"\nfuzz: {count} messages, {len(fuzzer.expected)} requests with ids, "
          f"{len(replies)} replies in {elapsed:.1f} s")  # fmt: skip

    assert count == 5000
    assert alive
    assert status["pid"] == daemon.pid
    missing = fuzzer.expected - set(ids)
    assert not missing, sorted(map(str, missing))[:20]
    repeated = [i for i in set(ids) if i is not None and ids.count(i) > 1]
    assert not repeated, repeated[:20]
    assert "connection_failed" not in log
