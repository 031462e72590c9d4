"""The native ``hookd-relay`` (issue 30) is the Python relay's behaviour, byte for byte:
both run on the same inputs (arguments, stdin, environment, working folder) against the
same daemon, a real one or a fake one that misbehaves on purpose, and their stdout,
stderr and exit code must be equal; what they send hookd must mean the same. And
neither hangs nor crashes on hostile input: a huge stdin, stdin that is not JSON, a reply
cut mid-message, a daemon that accepts and never answers (or never reads), a socket path
too long for ``sun_path``, signals arriving while it waits."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hookd.daemon.cli import relay_program
from hookd.relay import version
from hookd_testing import claude_settings, command, write_json
from hookd_testing.relays import NATIVE, PYTHON_RELAY

REPO = Path(__file__).resolve().parents[2]
SUPPORTED = sys.platform == "darwin" or (
    sys.platform == "linux" and os.uname().machine in ("x86_64", "aarch64")
)
needs_native = pytest.mark.skipif(NATIVE is None, reason="no native relay installed")
Run = tuple[bytes, bytes, int]


def _build_module() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "native_build", REPO / "client/python/native/build.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- the native relay is installed, current, and named by the entries ------------------------


@pytest.mark.skipif(not SUPPORTED, reason="no ziglang wheel for this platform")
def test_the_native_relay_is_installed_and_built_from_this_source() -> None:
    """Where PyPI has a compiler, ``pip install`` built the relay from this source (a
    stale one: ``pip install -e .``, or ``python client/python/native/
    build.py --install``)."""
    assert NATIVE is not None, relay_program.why_not_native()
    done = subprocess.run([NATIVE, "--version"], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == _build_module().version_line(), (
        "the installed native relay is not built from this source: run 'python "
        "client/python/native/build.py --install' (or 'pip install -e .')"
    )
    assert relay_program.relay_path() == NATIVE
    assert relay_program.relay_kind(NATIVE) == "native"
    assert relay_program.relay_kind(relay_program.python_relay()) == "python"


def test_the_install_layout_is_said_once() -> None:
    build = _build_module()
    assert build.RELAY_IN_DATA == relay_program.NATIVE_IN_DATA
    assert build.DAEMON_IN_DATA == "bin/hookd"


def test_the_python_relay_says_its_version() -> None:
    done = subprocess.run([*PYTHON_RELAY, "--version"], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, version() + "\n")


def test_hookd_relay_python_writes_entries_with_the_python_relay(monkeypatch) -> None:
    monkeypatch.setenv("HOOKD_RELAY", "python")
    assert relay_program.relay_path() == relay_program.python_relay()


# -- running both ---------------------------------------------------------------------------


def run(program: list[str], argv: list[Any], stdin: bytes, env: dict[Any, Any],
        cwd: Any = None, timeout: float = 120) -> Run:  # fmt: skip
    done = subprocess.run([*program, *argv], input=stdin, env=env, cwd=cwd,
                          capture_output=True, timeout=timeout)  # fmt: skip
    assert done.returncode >= 0, f"{program} died of signal {-done.returncode}"
    return done.stdout, done.stderr, done.returncode


def both(argv: list[Any], stdin: bytes, env: dict[Any, Any], cwd: Any = None) -> Run:
    """Both relays on the same input: equal stdout, stderr and exit code, returned."""
    python = run(PYTHON_RELAY, argv, stdin, env, cwd)
    native = run([NATIVE], argv, stdin, env, cwd)  # type: ignore[list-item]
    assert native == python, f"native:\n{native!r}\npython:\n{python!r}"
    return python


def base_env(socket_path: str, **more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOOKD_")}
    return {**env, "HOOKD_SOCKET": socket_path, "HOOKD_NO_SPAWN": "1", **more}


# -- when hookd cannot be reached: each agent's table answer ------------------------------

CLINE_EVENT = {"hookName": "PreToolUse", "taskId": "t"}
SDK_EVENT = {"hookName": "tool_call", "taskId": "t"}
STDINS = {
    "claude event": json.dumps({"hook_event_name": "PreToolUse"}).encode(),
    "cline event": json.dumps(CLINE_EVENT).encode(),
    "sdk event": json.dumps(SDK_EVENT).encode(),
    "sdk event, spaced and escaped": b'\r\n {"hookName" : "tool\\u005fcall"}\t',
    "sdk event after a BOM": b"\xef\xbb\xbf" + json.dumps(SDK_EVENT).encode(),
    "two names, the last counts": b'{"hookName": "tool_call", "hookName": "PreToolUse"}',
    "name with a NUL": b'{"hookName": "tool_call\\u0000"}',
    "name is a list": b'{"hookName": ["tool_call"]}',
    "not an object": b'["tool_call"]',
    "not JSON": b"tool_call",
    "cut": b'{"hookName": "tool_call"',
    "trailing data": b'{"hookName": "tool_call"} x',
    "not UTF-8": b'{"hookName": "tool_call", "x": "\xff"}',
    "a lone surrogate escape": b'{"hookName": "tool_call", "x": "\\udcff"}',
    "NaN and Infinity": b'{"hookName": "tool_call", "x": [NaN, -Infinity]}',
    "4300 digits": b'{"hookName": "tool_call", "x": ' + b"9" * 4300 + b"}",
    "4301 digits": b'{"hookName": "tool_call", "x": ' + b"9" * 4301 + b"}",
    "nested 400 deep": b'{"hookName": "tool_call", "x": ' + b"[" * 400 + b"]" * 400 + b"}",
    "a control character": b'{"hookName": "tool_call\x01"}',
    "empty": b"",
}


@needs_native
@pytest.mark.parametrize("agent", ["claude", "cline", "cline-sdk", "augment", "codex"])
@pytest.mark.parametrize("policy", ["continue", "block", "", "BLOCK"])
def test_each_agents_unreachable_answer_is_the_same(short_dir, agent, policy) -> None:
    """Each agent's failing and blocking answer, and Cline's runner switch (one relay
    file serves both runners: the event's own runner answers) on every kind of stdin."""
    env = base_env(str(short_dir / "none.sock"), HOOKD_RELAY_ON_ERROR=policy)
    entry = ["/p/.clinerules/hooks/PreToolUse"] if agent.startswith("cline") else []
    answers = {name: both([agent, *entry], stdin, env) for name, stdin in STDINS.items()}
    if agent == "cline":  # the switch happened where the SDK's event is readable
        assert answers["sdk event"] != answers["cline event"]
        assert answers["sdk event after a BOM"] == answers["sdk event"]
        assert answers["not JSON"] == answers["cline event"]


@needs_native
@pytest.mark.parametrize("argv", [
    [], ["claud"], [""], ["it's"], ['say "x"'], ["é"], [b"cl\xffaude"], ["a\nb\tc\\"],
    ["\u2028\U0001f600\x7f"], ["claude", "extra"], ["cline", "a", "b'c"],
    ["augment", ".*", b"\xed\xa0\x80"], ["claude", ""], ["-x"],
])  # fmt: skip
@pytest.mark.parametrize("policy", ["continue", "block"])
def test_bad_entries_are_refused_alike(tmp_path, argv, policy) -> None:
    env = base_env(str(tmp_path / "none.sock"), HOOKD_RELAY_ON_ERROR=policy)
    _, err, code = both(argv, b"{}", env)
    if not argv or argv[0] != "cline":  # Cline's block is a cancel answer, exit 0
        assert code == (2 if policy == "block" else 1)
    assert err.count(b"\n") == 1


@needs_native
@pytest.mark.parametrize("environ", [
    {"HOOKD_SOCKET": "/nonexistent/dir/hookd.sock"},
    {"HOOKD_SOCKET": b"/tmp/hk-\xff-none/hookd.sock"},
    {"HOOKD_SOCKET": "relative/hookd.sock"},
    {"HOOKD_SOCKET": "", "XDG_RUNTIME_DIR": "/nonexistent/run/"},
    {"XDG_RUNTIME_DIR": "relative", "TMPDIR": "/nonexistent/tmp"},
    {"TMPDIR": ""},
    {"HOOKD_SOCKET": "/tmp/" + "x" * 200 + ".sock"},
    {"HOOKD_SOCKET": "/dev/null"},
    {"HOOKD_SOCKET": "/etc/passwd/hookd.sock"},
])  # fmt: skip
def test_where_the_socket_is_not_the_answer_is_the_same(environ) -> None:
    """Every socket rule, and sockets that are not there (a path too long for sun_path,
    a file that is no socket, a folder that is a file): the same line."""
    env: dict[Any, Any] = {k: v for k, v in os.environ.items()
                           if not k.startswith("HOOKD_") and k not in ("XDG_RUNTIME_DIR", "TMPDIR")}  # fmt: skip
    env.update({"HOOKD_NO_SPAWN": "1", **environ})
    _, err, code = both(["claude"], b"{}", env)
    assert code == 1
    assert err.startswith(b"hookd-relay: ")


@needs_native
def test_a_socket_path_too_long_is_said(tmp_path) -> None:
    path = "/tmp/" + "y" * 150 + "/hookd.sock"
    out, err, code = both(["claude"], b"{}", base_env(path))
    assert b"is too long for a Unix socket" in err
    assert (out, code) == (b"", 1)


@needs_native
def test_help_is_the_same() -> None:
    for flag in ("-h", "--help"):
        out, _, code = both([flag], b"", dict(os.environ))
        assert code == 0
        assert out.startswith(b"usage: hookd-relay AGENT")


# -- a fake daemon -----------------------------------------------------------------------------

Behaviour = Callable[[socket.socket, bytes], None]


class FakeDaemon:
    """A Unix socket server in a thread: it reads each request line (unless told not to)
    and answers with ``behave(conn, request)``; ``requests`` keeps what arrived."""

    def __init__(self, path: str, behave: Behaviour, read: bool = True) -> None:
        self.path = path
        self.behave = behave
        self.read = read
        self.requests: list[bytes] = []
        self.stop = threading.Event()
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(path)
        self.server.listen(16)
        self.server.settimeout(0.1)
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.server.accept()
            except TimeoutError:
                continue
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        with conn:
            request = b""
            if self.read:
                conn.settimeout(60)
                while not request.endswith(b"\n"):
                    chunk = conn.recv(1 << 20)
                    if not chunk:
                        break
                    request += chunk
                self.requests.append(request)
            with contextlib.suppress(OSError):
                self.behave(conn, request)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)
        self.server.close()


@pytest.fixture
def fake(short_dir: Path) -> Iterator[Callable[..., FakeDaemon]]:
    made: list[FakeDaemon] = []

    def start(behave: Behaviour, read: bool = True) -> FakeDaemon:
        daemon = FakeDaemon(str(short_dir / f"fake{len(made)}.sock"), behave, read)
        made.append(daemon)
        return daemon

    yield start
    for daemon in made:
        daemon.close()


def replying(*chunks: bytes, pause: float = 0.0) -> Behaviour:
    def behave(conn: socket.socket, request: bytes) -> None:
        for chunk in chunks:
            conn.sendall(chunk)
            if pause:
                time.sleep(pause)

    return behave


def result(stdout: Any = "", stderr: Any = "", code: Any = 0) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": 1, "result": {
        "stdout": stdout, "stderr": stderr, "exitCode": code}}).encode() + b"\n"  # fmt: skip


REPLIES = {
    "an answer": result('{"decision": "block"}', "why\n", 2),
    "unicode, a pair and lone surrogates": (
        b'{"id":1,"result":{"stdout":"\\ud83d\\ude00 \xc3\xa9 \\udcff \\ud800x","stderr":'
        b'"\\u2028\\u0000\xed\xa0\x80","exitCode":0}}\n'
    ),
    "exit 300": result(code=300),
    "exit -1": result(code=-1),
    "exit 2**63": result(code=2**63),
    "exit -2**63": result(code=-(2**63)),
    "exit 2**70": result(code=2**70),
    "exit -0": b'{"id":1,"result":{"stdout":"","stderr":"","exitCode":-0}}\n',
    "exit 1.0": b'{"id":1,"result":{"stdout":"","stderr":"","exitCode":1.0}}\n',
    "exit true": b'{"id":1,"result":{"stdout":"","stderr":"","exitCode":true}}\n',
    "exit string": result(code="1"),
    "exit 4301 digits": b'{"id":1,"result":{"stdout":"","stderr":"","exitCode":'
    + b"1" * 4301
    + b"}}\n",
    "exit 4300 digits": b'{"id":1,"result":{"stdout":"","stderr":"","exitCode":'
    + b"1" * 4300
    + b"}}\n",
    "no stderr": b'{"id":1,"result":{"stdout":"","exitCode":0}}\n',
    "result null": b'{"id":1,"result":null}\n',
    "stdout twice, the last counts": b'{"id":1,"result":{"stdout":"a","stderr":"","exitCode":0,'
    b'"stdout":"b"}}\n',
    "an error": b'{"id":1,"error":{"code":-32602,"message":"Invalid params","data":"no"}}\n',
    "an error without data": b'{"id":1,"error":{"code":-32000,"message":"Too large"}}\n',
    "an error with object data": b'{"id":1,"error":{"code":-1,"message":"m","data":{"a":1}}}\n',
    "an error of odd types": b'{"id":1,"error":{"code":1.5,"message":7,"data":null}}\n',
    "an error with code -0": b'{"id":1,"error":{"code":-0,"message":"m\\nn","data":"d\\u0000"}}\n',
    "an error that is null": b'{"id":1,"error":null,"result":{}}\n',
    "an error that is a string": b'{"id":1,"error":"no"}\n',
    "id 1.0": b'{"id":1.0,"result":{"stdout":"x","stderr":"","exitCode":0}}\n',
    "id 1e0": b'{"id":10e-1,"result":{"stdout":"x","stderr":"","exitCode":0}}\n',
    "id true": b'{"id":true,"result":{"stdout":"x","stderr":"","exitCode":0}}\n',
    "id as a string": b'{"id":"1","result":{"stdout":"x","stderr":"","exitCode":0}}\n',
    "another message first": b'{"jsonrpc":"2.0","method":"$/progress","params":{}}\n'
    b'[1]\n7\n{"id":2,"result":{}}\n' + result("second"),
    "a blank line first": b"\n" + result("x"),
    "not JSON": b"hello\n",
    "cut mid-message": result("a long answer")[:30],
    "whole but no newline": result("unterminated")[:-1],
    "CRLF": result("crlf")[:-1] + b"\r\n",
    "a BOM": b"\xef\xbb\xbf" + result("bom"),
    "two BOMs": b"\xef\xbb\xbf\xef\xbb\xbf" + result("bom"),
    "NaN in the result": b'{"id":1,"result":{"stdout":"","stderr":"","exitCode":0,"x":NaN}}\n',
    "trailing garbage": result("x")[:-1] + b" x\n",
    "invalid UTF-8": b'{"id":1,"result":{"stdout":"\xff","stderr":"","exitCode":0}}\n',
    "an invalid escape": b'{"id":1,"result":{"stdout":"\\x41","stderr":"","exitCode":0}}\n',
    "a raw control character": b'{"id":1,"result":{"stdout":"\x07","stderr":"","exitCode":0}}\n',
    "nested 300 deep": b'{"id":1,"x":' + b"[" * 300 + b"]" * 300 + b"," + result("deep")[1:],
    "two answers": result("first") + result("second"),
    "nothing": b"",
}


@needs_native
@pytest.mark.parametrize("reply", list(REPLIES))
@pytest.mark.parametrize("agent", ["claude", "cline-sdk"])
def test_every_reply_is_read_alike(fake, reply, agent) -> None:
    """What hookd answers (and what a broken or foreign daemon might): the same bytes
    out, the same failing answer when the reply is no answer."""
    daemon = fake(replying(REPLIES[reply]))
    entry = ["/p/.clinerules/hooks/PreToolUse"] if agent == "cline-sdk" else []
    both([agent, *entry], json.dumps(SDK_EVENT).encode(), base_env(daemon.path))
    both([agent, *entry], json.dumps(SDK_EVENT).encode(),
         base_env(daemon.path, HOOKD_RELAY_ON_ERROR="block"))  # fmt: skip


@needs_native
def test_a_reply_in_pieces_is_read_whole(fake) -> None:
    answer = result("x" * 100_000, "e" * 3000, 2)
    pieces = [answer[i : i + 7001] for i in range(0, len(answer), 7001)]
    daemon = fake(replying(*pieces, pause=0.002))
    out, err, code = both(["claude"], b"{}", base_env(daemon.path))
    assert (out, err, code) == (b"x" * 100_000, b"e" * 3000, 2)


# -- what hookd is sent ---------------------------------------------------------------------------

ALL_BYTES = bytes(range(256))
INVALID_UTF8 = (b"\xe0\x80A \xed\xa0\x80 \xf0\x90\x80 \xc0\xaf \xf4\x90\x80\x80 \xe2\x82 \x80 "
                b"\xef\xbf\xbd \xf0\x9f\x98\x80 \xc3")  # fmt: skip


@needs_native
@pytest.mark.parametrize("stdin", [
    b"", b"{}", ALL_BYTES, INVALID_UTF8, b"\xef\xbb\xbf{}", b'{"a": "\\u0000\x00"}',
    "naïve ☃ \U0001f600 \u2028".encode(), b"\r\n\t\\\"'/" * 100,
])  # fmt: skip
def test_what_hookd_is_sent_means_the_same(fake, tmp_path, stdin) -> None:
    """stdin as Python decodes it (U+FFFD for each invalid part), the arguments, the
    working folder and the environment as Python reads them (a byte that is not UTF-8
    as a lone surrogate), less hookd's own variables."""
    daemon = fake(replying(result("ok")))
    folder = os.path.join(os.fsencode(tmp_path), b"cwd-\xff-\xc3\xa9")
    os.mkdir(folder)
    env: dict[Any, Any] = base_env(daemon.path, HOOKD_RELAY_ON_ERROR="block")
    env.update({b"ODD_\xff": b"v\xfe\xc3\xa9", "LISTEN_FDS": "3", "NOTIFY_SOCKET": "/x",
                "WATCHDOG_USEC": "1", "HOOKD_X": "1", "EMPTY": "", "EQ": "a=b"})  # fmt: skip
    both(["augment", b"m\xffatcher"], stdin, env, cwd=folder)
    python, native = (json.loads(r)["params"] for r in daemon.requests)
    assert native == python
    assert python["stdin"] == stdin.decode("utf-8", "replace")
    assert python["cwd"] == os.fsdecode(folder)
    assert python["onError"] == "block"
    assert not any(
        k.startswith(("HOOKD_", "LISTEN_", "NOTIFY", "WATCHDOG_")) for k in python["env"]
    )
    assert python["env"]["ODD_\udcff"] == "v\udcfe\xe9"


# -- hostile input -------------------------------------------------------------------------------


@needs_native
def test_a_daemon_that_never_answers_is_waited_for_within_the_bound(fake) -> None:
    """hookd accepted and hangs: the relay answers as a failing hook at its bound
    (``HOOKD_RELAY_WAIT_S``; the default is an hour, past any hook's timeout)."""
    daemon = fake(lambda conn, request: time.sleep(30))
    started = time.monotonic()
    _, err, code = both(["claude"], b"{}", base_env(daemon.path, HOOKD_RELAY_WAIT_S="1.5"))
    assert time.monotonic() - started < 25  # two relays, 1.5 s each
    assert code == 1
    assert b"did not answer within 1.5 s" in err


@needs_native
def test_a_daemon_that_never_reads_a_huge_event_is_waited_for_within_the_bound(fake) -> None:
    """40 MB to a daemon that reads nothing: the relay stops at its bound, not when the
    socket's buffer would drain."""
    daemon = fake(lambda conn, request: time.sleep(30), read=False)
    stdin = json.dumps({"tool_input": {"content": "z" * 40_000_000}}).encode()
    started = time.monotonic()
    out, err, code = both(["claude"], stdin, base_env(daemon.path, HOOKD_RELAY_WAIT_S="1",
                                                      HOOKD_RELAY_ON_ERROR="block"))  # fmt: skip
    assert time.monotonic() - started < 40
    assert (out, code) == (b"", 2)
    assert b"did not answer within 1 s" in err


@needs_native
def test_a_daemon_that_closes_while_the_relay_writes_is_a_failing_hook(fake) -> None:
    """hookd stops reading and closes (as it may with a message over its limit): what it
    said before closing is the answer; nothing said is a failing hook."""
    said = fake(replying(b'{"id":1,"error":{"code":-32001,"message":"Message too large"}}\n'),
                read=False)  # fmt: skip
    silent = fake(replying(), read=False)
    stdin = b'{"x": "' + b"q" * 30_000_000 + b'"}'
    _, err, _ = both(["claude"], stdin, base_env(said.path))
    assert b"hookd refused the event: Message too large (-32001)" in err
    _, err, _ = both(["claude"], stdin, base_env(silent.path))
    assert b"closed the connection before answering" in err or b"lost the connection" in err


@needs_native
def test_signals_while_waiting_change_nothing(fake, relay) -> None:
    """Stopped and continued, and sent signals whose default is to do nothing, while it
    waits for hookd (EINTR where a call is interrupted): the same answer, no crash."""
    daemon = fake(_late_answer(2.0))
    process = subprocess.Popen([*relay, "claude"], stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=base_env(daemon.path))  # fmt: skip
    deadline = time.monotonic() + 1.5
    while time.monotonic() < deadline and process.poll() is None:
        for sent in (
            signal.SIGSTOP,
            signal.SIGCONT,
            signal.SIGWINCH,
            signal.SIGCHLD,
            signal.SIGURG,
        ):
            process.send_signal(sent)
        time.sleep(0.01)
    process.send_signal(signal.SIGCONT)
    out, err = process.communicate(timeout=60)
    assert (out, err, process.returncode) == (b"after the wait", b"", 0)


def _late_answer(after: float) -> Behaviour:
    def behave(conn: socket.socket, request: bytes) -> None:
        time.sleep(after)
        conn.sendall(result("after the wait"))

    return behave


async def test_a_huge_event_reaches_the_hook_whole(relay, rpc, settings, workspace) -> None:
    """Tens of MB on stdin (under hookd's 64 MB message limit) reach the adopted hook."""
    import trio

    adopted = Path(settings.home) / ".config" / "hookd" / "claude" / "settings.json"
    write_json(adopted, claude_settings("PreToolUse", command("wc -c >&2; exit 2")))
    event = {"hook_event_name": "PreToolUse", "tool_name": "Write", "cwd": str(workspace),
             "tool_input": {"content": "w" * 40_000_000}}  # fmt: skip
    stdin = json.dumps(event).encode()
    env = base_env(settings.socket_path, CLAUDE_PROJECT_DIR=str(workspace))
    done = await trio.run_process([*relay, "claude"], stdin=stdin, env=env, capture_stdout=True,
                                  capture_stderr=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-500:]
    reason = json.loads(done.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert int(reason) > 40_000_000  # the event as the agent would write it


async def test_an_event_over_hookds_limit_is_a_failing_hook(relay, rpc, settings) -> None:
    """Over the daemon's message limit: hookd refuses it, the relay says so, promptly."""
    import trio

    stdin = b'{"hook_event_name": "PreToolUse", "x": "' + b"o" * 70_000_000 + b'"}'
    with trio.fail_after(120):
        done = await trio.run_process([*relay, "claude"], stdin=stdin,
                                      env=base_env(settings.socket_path), capture_stdout=True,
                                      capture_stderr=True, check=False)  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.startswith(b"hookd-relay: hookd refused the event: ")
    assert done.stderr.count(b"\n") == 1


async def test_stdin_that_is_not_json_is_answered_by_hookd_alike(rpc, settings) -> None:
    """The daemon answers what is not the agent's event: both relays pass its answer on."""
    import trio

    if NATIVE is None:
        pytest.skip("no native relay installed")
    env = base_env(settings.socket_path)
    for stdin in (b"not json", b"\xff\xfe", b"[1, 2]", b"{}", b""):
        runs = [await trio.run_process([*program, "claude"], stdin=stdin, env=env, cwd="/",
                                       capture_stdout=True, capture_stderr=True, check=False)
                for program in (PYTHON_RELAY, [NATIVE])]  # fmt: skip
        python, native = ((r.stdout, r.stderr, r.returncode) for r in runs)
        assert native == python
        assert python[2] == 1
        assert python[1].startswith(b"hookd-relay: the event on stdin ")
