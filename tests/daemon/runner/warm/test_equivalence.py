"""Warm and fresh runs of the same Python hooks give the same exit code, stdout, stderr
and files (issue 15's equivalence suite).

Each case runs the hook through ``run_hook_process`` twice under one custody: fresh (no
warm pool), then warm (after its zygote is ready; the pool must count a hit). The
hooks are in the style of public hook collections: JSON on stdin, tracebacks, exit
codes, ``sys.exit`` messages, atexit handlers, threads, signals, non-UTF-8 output, large
stdin, a third-party import, files left unclosed, subprocesses that inherit the
environment, shebangs and ``sh -c`` wrappers.
"""

from __future__ import annotations

import difflib
import os
import resource
import shutil
import sys
import textwrap
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import trio

from hookd.daemon.runner import launch
from hookd.daemon.runner.custody import Custody
from hookd.daemon.runner.process import ProcessLimits, run_hook_process
from hookd.daemon.runner.warm.launcher import warm_first
from hookd.daemon.runner.warm.pool import WarmPool
from hookd.daemon.runner.warm.zygote import Zygote
from hookd.daemon.settings import Settings

PYTHON = "/usr/bin/python3"
pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not os.path.exists(PYTHON),
    reason="warm interpreters need Linux (pidfd) and a system Python",
)
OTHER_PYTHONS = sorted(
    str(p) for p in Path("~root/.pyenv/versions").expanduser().glob("3.*/bin/python3.*")
    if p.name.count(".") == 1 and p.name.split(".")[1].isdigit() and int(p.name.split(".")[1]) >= 9
)  # fmt: skip
"""pyenv's CPython 3.9 and later, where present (this machine's kind has them)."""

SCRIPTS = {
    "reads_json.py": """
        import json, sys
        event = json.load(sys.stdin)
        print(json.dumps({"decision": "block", "reason": event["tool_input"]["command"]}))
    """,
    "introspect.py": '''
        """doc"""
        import os, signal, sys, json, resource
        print(sorted(k for k in globals()), __name__, __doc__, __file__, __spec__, __package__)
        print(type(__loader__).__name__, __loader__.name, __loader__.path)
        print(sys.argv, getattr(sys, "orig_argv", None), sys.path[0], sys.executable)
        print(sys.flags, sys.stdout.encoding, sys.stdout.errors, sys.stdout.line_buffering)
        print(sys.stdin.encoding, sys.stdin.errors, sys.stderr.errors, sys.stdout.seekable())
        print(os.getcwd(), os.getsid(0) == os.getpid(), os.getpgrp() == os.getpid())
        print([signal.getsignal(s) for s in (signal.SIGINT, signal.SIGPIPE, signal.SIGTERM,
               signal.SIGCHLD, signal.SIGXFSZ, signal.SIGHUP)])
        print(signal.pthread_sigmask(signal.SIG_BLOCK, []), os.umask(0o22))
        print(sorted(os.listdir("/proc/self/fd")), [os.get_blocking(fd) for fd in (0, 1, 2)])
        print(resource.getrlimit(resource.RLIMIT_NOFILE), sys.getrecursionlimit())
        print([(k, v) for k, v in os.environ.items() if k != "HOOKD_HOOK_ID"])
        print(os.environ.get("HOOKD_HOOK_ID", "").count(":"))
        print(json.load(sys.stdin)["tool_input"])
    ''',
    "uncaught.py": """
        import sys
        def inner():
            return {}["missing"]
        def outer():
            try:
                inner()
            except KeyError as exc:
                raise ValueError("while looking up") from exc
        print("before", flush=True)
        outer()
    """,
    "exit_codes.py": """
        import sys
        kind = sys.argv[1]
        print("stdout text", end="")
        sys.stderr.write("rm is not allowed here\\n")
        if kind == "int": sys.exit(2)
        if kind == "text": sys.exit("refused: " + kind)
        if kind == "none": sys.exit()
        if kind == "big": sys.exit(2 ** 70)
        if kind == "os": import os; os._exit(7)
        if kind == "raise": raise SystemExit(300)
    """,
    "atexit_threads.py": """
        import atexit, threading, time, sys
        def late():
            time.sleep(0.05)
            print("non-daemon thread finished", flush=True)
        def bye(name):
            print("atexit", name, "__file__" in globals())
        atexit.register(bye, "first")
        atexit.register(bye, "second")
        threading.Thread(target=late).start()
        threading.Thread(target=lambda: time.sleep(30), daemon=True).start()
        print("main done")
    """,
    "signals.py": """
        import os, signal, sys
        kind = sys.argv[1]
        print("about to", kind, flush=True)
        if kind == "term":
            os.kill(os.getpid(), signal.SIGTERM)
        if kind == "handled":
            signal.signal(signal.SIGUSR1, lambda *a: print("handled USR1", flush=True))
            os.kill(os.getpid(), signal.SIGUSR1)
            print("after handler")
        if kind == "interrupt":
            raise KeyboardInterrupt
    """,
    "bytes_out.py": """
        import sys
        sys.stdout.buffer.write(b"\\xff\\xfe not utf-8 \\x80\\n")
        sys.stdout.flush()
        print("caf\\u00e9 \\udcff".encode("utf-8", "surrogateescape").decode("latin-1"))
        sys.stderr.buffer.write(bytes(range(256)))
    """,
    "large_stdin.py": """
        import hashlib, sys
        data = sys.stdin.buffer.read()
        print(len(data), hashlib.sha256(data).hexdigest())
    """,
    "dotenv_style.py": """
        import json, os, sys
        from fakedotenv import load_dotenv
        load_dotenv(os.path.join(json.load(sys.stdin)["out"], "..", ".env"))
        print(os.environ["API_MODE"], load_dotenv.__module__)
    """,
    "files.py": """
        import json, os, sys, tempfile
        out = json.load(sys.stdin)["out"]
        left_open = open(os.path.join(out, "unclosed.txt"), "w")
        left_open.write("written, never closed")
        with open(os.path.join(out, "closed.bin"), "wb") as f:
            f.write(bytes(range(10)))
        class Flushes:
            def __del__(self, open=open, join=os.path.join):
                with open(join(out, "del.txt"), "w") as f:
                    f.write("finalized")
        keeper = Flushes()
        import atexit
        atexit.register(lambda: open(os.path.join(out, "atexit.txt"), "w").write("at exit"))
    """,
    "subprocess_env.py": """
        import subprocess, sys
        listing = subprocess.run(["env"], capture_output=True, text=True).stdout
        print([line for line in listing.splitlines() if not line.startswith("HOOKD_HOOK_ID=")])
        print(subprocess.run([sys.executable, "-c", "import sys; print(sys.argv)", "x"],
                             capture_output=True, text=True).stdout)
    """,
    "excepthook.py": """
        import sys
        def hook(kind, value, tb):
            print("custom hook:", kind.__name__, value, tb.tb_frame.f_code.co_name,
                  tb.tb_next is None, file=sys.stderr)
        sys.excepthook = hook
        raise RuntimeError("handled by the script's own excepthook")
    """,
    "syntax_error.py": """
        print("never")
        def broken(:
            pass
    """,
    "shebang_env.py": """#!/usr/bin/env python3
        import sys
        print(sys.argv, sys.orig_argv[0], sys.flags.unbuffered)
    """,
    "shebang_flags.py": """#!/usr/bin/python3 -u
        import sys
        print(sys.argv, sys.orig_argv, sys.flags.unbuffered, sys.stdout.write_through)
    """,
}

FAKE_DOTENV = """
import os
def load_dotenv(path):
    with open(path) as f:
        for line in f:
            key, _, value = line.strip().partition("=")
            os.environ.setdefault(key, value)
    return True
"""


@dataclass
class Env:
    hooks: Path
    tmp: Path
    env: dict[str, str]
    custody: Custody
    pool: WarmPool

    def use_warm(self, warm: bool) -> None:
        """Hooks start with the warm interpreters in front (as in the daemon), or fresh
        through the launcher in force."""
        self.custody.launcher = warm_first(self.pool, launch.BASE) if warm else launch.BASE

    async def run(self, argv: Sequence[str], stdin: bytes, *, warm: bool) -> object:
        self.use_warm(warm)
        outcome = await run_hook_process(
            argv, stdin=stdin, cwd=str(self.hooks), env=self.env,
            limits=ProcessLimits(timeout_s=30), custody=self.custody,
        )  # fmt: skip
        return outcome


@pytest.fixture
async def warm_env(tmp_path: Path) -> AsyncIterator[Env]:
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for name, source in SCRIPTS.items():
        text = textwrap.dedent(source) if not source.startswith("#!") else (
            source.split("\n", 1)[0] + "\n" + textwrap.dedent(source.split("\n", 1)[1])
        )  # fmt: skip
        (hooks / name).write_text(text)
        (hooks / name).chmod(0o755)
    site = tmp_path / "site"
    (site / "fakedotenv").mkdir(parents=True)
    (site / "fakedotenv" / "__init__.py").write_text(FAKE_DOTENV)
    (tmp_path / ".env").write_text("API_MODE=from-dotenv\n")
    env = {
        "PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8",
        "PYTHONPATH": str(site), "CLAUDE_PROJECT_DIR": str(tmp_path), "TZ": "UTC",
    }  # fmt: skip
    async with pool_env(hooks, tmp_path, env) as running:
        yield running


@asynccontextmanager
async def pool_env(hooks: Path, tmp: Path, env: dict[str, str]) -> AsyncIterator[Env]:
    """A running warm pool under its own custody, for hooks in ``hooks``."""
    custody = Custody(16)
    pool = WarmPool(Settings(warm_idle_s=120.0), custody)
    async with trio.open_nursery() as nursery:
        await nursery.start(pool.run)
        yield Env(hooks, tmp, env, custody, pool)
        nursery.cancel_scope.cancel()


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


async def _compare(
    warm_env: Env, argv: Sequence[str], stdin: bytes = b"{}", *, prime: bool = False
) -> tuple[object, object]:
    """Fresh, then warm (once its zygote is ready): identical outcomes and files.
    ``prime``: one fresh run first, not compared (``uv run`` builds the script's
    environment on its first run and says so)."""
    outcomes = []
    trees = []
    for round_ in ("prime", "fresh", "warming", "warm")[0 if prime else 1 :]:
        out = warm_env.tmp / f"out-{round_}"
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir()
        data = stdin.replace(b"OUT", str(out).encode())
        hits = warm_env.pool.hits
        outcome = await warm_env.run(argv, data, warm=round_ not in ("prime", "fresh"))
        if round_ == "prime":
            continue
        if round_ == "warming":
            await warm_env.pool.settled()
            continue
        if round_ == "warm":
            assert warm_env.pool.hits == hits + 1, dict(warm_env.pool.fallbacks)
        outcomes.append(outcome)
        trees.append(_tree(out))
    fresh, warm = outcomes
    assert warm.exit_code == fresh.exit_code  # type: ignore[attr-defined]
    for stream in ("stdout", "stderr"):
        got, want = getattr(warm, stream), getattr(fresh, stream)
        diff = difflib.unified_diff(want.decode("latin-1").splitlines(),
                                    got.decode("latin-1").splitlines(), "fresh", "warm")  # fmt: skip
        assert got == want, "\n".join(diff)
    assert trees[0] == trees[1]
    return fresh, warm


DIRECT_CASES = [
    ("reads_json.py", []),
    ("introspect.py", ["a b", "--flag"]),
    ("uncaught.py", []),
    ("exit_codes.py", ["int"]),
    ("exit_codes.py", ["text"]),
    ("exit_codes.py", ["none"]),
    ("exit_codes.py", ["big"]),
    ("exit_codes.py", ["os"]),
    ("exit_codes.py", ["raise"]),
    ("atexit_threads.py", []),
    ("signals.py", ["term"]),
    ("signals.py", ["handled"]),
    ("signals.py", ["interrupt"]),
    ("bytes_out.py", []),
    ("dotenv_style.py", []),
    ("files.py", []),
    ("subprocess_env.py", []),
    ("excepthook.py", []),
    ("syntax_error.py", []),
]
"""Each script with the arguments that pick its behaviour (``uv run`` reuses them)."""

JSON_EVENT = b'{"tool_name": "Bash", "tool_input": {"command": "rm -rf build"}, "out": "OUT"}'


@pytest.mark.parametrize(("script", "args"), DIRECT_CASES)
async def test_direct_argv(warm_env: Env, script: str, args: list[str]) -> None:
    fresh, _warm = await _compare(warm_env, [PYTHON, script, *args], JSON_EVENT)
    assert fresh.exit_code is not None  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "command",
    [
        "python3 reads_json.py",
        "python3 \"$CLAUDE_PROJECT_DIR\"/hooks/introspect.py 'quoted arg' ${HOME}",
        "python3 -u ./introspect.py",
        "python3 subprocess_env.py",
        "python3 signals.py term",
        "python3 exit_codes.py int",
        "./shebang_env.py one",
        "./shebang_flags.py two",
    ],
)
async def test_through_the_shell(warm_env: Env, command: str) -> None:
    await _compare(warm_env, ["/bin/sh", "-c", command], JSON_EVENT)


async def test_shebang_exec(warm_env: Env) -> None:
    await _compare(warm_env, [str(warm_env.hooks / "shebang_env.py"), "x"], JSON_EVENT)


async def test_without_a_locale(warm_env: Env) -> None:
    """No ``LANG``: CPython's start-up coerces the C locale and adds ``LC_CTYPE`` to the
    environment; a warm child's environment gets it too."""
    warm_env.env.pop("LANG")
    fresh, _ = await _compare(warm_env, [PYTHON, "introspect.py"], JSON_EVENT)
    assert b"('LC_CTYPE', 'C.UTF-8')" in fresh.stdout  # type: ignore[attr-defined]


async def test_the_hooks_file_limit(warm_env: Env) -> None:
    """The daemon raised its own open-files limit: a hook gets the one it inherited, a
    warm one before its first line (the zygote has the daemon's)."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    warm_env.custody.hook_nofile = (256, hard)
    fresh, _ = await _compare(warm_env, [PYTHON, "introspect.py"], JSON_EVENT)
    assert f"(256, {hard})".encode() in fresh.stdout  # type: ignore[attr-defined]


async def test_large_stdin(warm_env: Env) -> None:
    payload = b'{"blob": "' + b"x" * (4 * 1024 * 1024) + b'"}'
    fresh, _ = await _compare(warm_env, [PYTHON, "large_stdin.py"], payload)
    assert fresh.stdout.startswith(str(len(payload)).encode())  # type: ignore[attr-defined]


@pytest.mark.parametrize("python", OTHER_PYTHONS)
async def test_other_interpreters(warm_env: Env, python: str) -> None:
    for script in ("introspect.py", "uncaught.py", "exit_codes.py", "atexit_threads.py"):
        for folder in warm_env.tmp.glob("out-*"):
            for f in folder.iterdir():
                f.unlink()
            folder.rmdir()
        await _compare(warm_env, [python, script, "arg"], JSON_EVENT)


async def test_a_shadowing_script_folder_runs_fresh(warm_env: Env) -> None:
    (warm_env.hooks / "json.py").write_text("raise SystemExit('the local json module')\n")
    for _ in range(3):
        outcome = await warm_env.run([PYTHON, "reads_json.py"], JSON_EVENT, warm=True)
        await warm_env.pool.settled()
        assert outcome.stderr == b"the local json module\n"
    assert warm_env.pool.hits == 0
    assert any("shadows the preloaded module json" in why for why in warm_env.pool.fallbacks)


async def test_shims_options_and_switches_run_fresh(warm_env: Env, tmp_path: Path) -> None:
    shim = tmp_path / "shim" / "python3"
    shim.parent.mkdir()
    shim.write_text('#!/bin/sh\nexec /usr/bin/python3 "$@"\n')
    shim.chmod(0o755)
    env = warm_env.env
    warm_env.env = {**env, "PATH": f"{shim.parent}:/usr/bin:/bin"}
    await warm_env.run(["/bin/sh", "-c", "python3 reads_json.py"], JSON_EVENT, warm=True)
    warm_env.env = env
    await warm_env.run([PYTHON, "-X", "importtime", "reads_json.py"], JSON_EVENT, warm=True)
    await warm_env.run(["/bin/sh", "-c", "python3 reads_json.py | cat"], JSON_EVENT, warm=True)
    reasons = set(warm_env.pool.fallbacks)
    assert "python3 is not an interpreter binary (a shim or wrapper script)" in reasons
    assert "interpreter option -X importtime" in reasons
    assert "shell syntax beyond plain words" in reasons
    warm_env.pool.exclude = (str(warm_env.hooks / "reads_*.py"),)
    await warm_env.run([PYTHON, "reads_json.py"], JSON_EVENT, warm=True)
    assert warm_env.pool.fallbacks["excluded by warm_python_exclude"] == 1
    assert warm_env.pool.hits == 0


async def test_a_missing_working_directory_is_the_same_spawn_error(warm_env: Env) -> None:
    await _compare(warm_env, [PYTHON, "reads_json.py"], JSON_EVENT)
    env = warm_env
    gone = env.tmp / "gone"
    gone.mkdir()
    argv = [PYTHON, str(env.hooks / "reads_json.py")]
    env.use_warm(True)
    first = await run_hook_process(argv, stdin=b"{}", cwd=str(gone), env=env.env,
                                   limits=ProcessLimits(timeout_s=30), custody=env.custody)  # fmt: skip
    await env.pool.settled()
    assert first.exit_code == 1
    gone.rmdir()
    warm = await run_hook_process(argv, stdin=b"{}", cwd=str(gone), env=env.env,
                                  limits=ProcessLimits(timeout_s=30), custody=env.custody)  # fmt: skip
    env.use_warm(False)
    fresh = await run_hook_process(argv, stdin=b"{}", cwd=str(gone), env=env.env,
                                   limits=ProcessLimits(timeout_s=30), custody=env.custody)  # fmt: skip
    assert warm.spawn_error == fresh.spawn_error is not None
    assert "does not exist" in warm.spawn_error


async def test_timeout_kills_the_warm_hook_group(warm_env: Env) -> None:
    (warm_env.hooks / "sleeps.py").write_text(
        "import subprocess, time\nsubprocess.Popen(['sleep', '60'])\nprint('started', flush=True)\n"
        "time.sleep(60)\n"
    )
    argv = [PYTHON, "sleeps.py"]
    warm_env.use_warm(True)
    await run_hook_process(argv, stdin=b"", cwd=str(warm_env.hooks), env=warm_env.env,
                           limits=ProcessLimits(timeout_s=0.5, term_grace_s=0.2),
                           custody=warm_env.custody)  # fmt: skip
    await warm_env.pool.settled()
    outcome = await run_hook_process(argv, stdin=b"", cwd=str(warm_env.hooks), env=warm_env.env,
                                     limits=ProcessLimits(timeout_s=0.5, term_grace_s=0.2),
                                     custody=warm_env.custody)  # fmt: skip
    assert warm_env.pool.hits == 1
    assert outcome.timed_out
    assert outcome.stdout == b"started\n"
    assert outcome.exit_code == -15


async def test_idle_and_busy_zygotes_retire_quietly(tmp_path: Path) -> None:
    """An idle zygote goes after ``warm_idle_s``; one retired while its hook runs goes
    when the hook ends; neither takes the pool (or the daemon) down."""
    (tmp_path / "gated.py").write_text("import sys\nprint(open(sys.argv[1]).read())\n")
    gate = tmp_path / "gate"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    custody = Custody(8)
    pool = WarmPool(Settings(warm_idle_s=60.0), custody)
    custody.launcher = warm_first(pool, custody.launcher)
    outcomes = []

    async def hook() -> None:
        outcomes.append(await run_hook_process(
            [PYTHON, "gated.py", str(gate)], stdin=b"", cwd=str(tmp_path), env=env,
            limits=ProcessLimits(timeout_s=30), custody=custody,
        ))  # fmt: skip

    async def run_gated(started: Callable[[], None] = lambda: None) -> None:
        """One hook, held until this task opens the gate (a FIFO) and writes to it."""
        os.mkfifo(gate)
        async with trio.open_nursery() as hooks:
            hooks.start_soon(hook)
            with trio.fail_after(30):
                writer = await trio.to_thread.run_sync(open, gate, "w")  # the hook runs
            started()
            with writer:
                writer.write("done")
        gate.unlink()

    async def warm_zygote() -> Zygote:
        await run_gated()
        await pool.settled()
        [zygote] = pool._zygotes.values()
        assert zygote.ready.is_set()
        return zygote

    async with trio.open_nursery() as nursery:
        await nursery.start(pool.run)
        idle = await warm_zygote()
        assert idle.process is not None
        title = Path(f"/proc/{idle.process.pid}/cmdline").read_bytes()
        assert len(title) < 300, title[:300]  # ps shows a line, not the zygote's 10 KB
        assert b"_zygote.py" in title
        pool.idle_s = 0.0
        pool.housekeeping()
        with trio.fail_after(30):
            await idle.process.wait()  # retired as idle, and gone
        assert pool.view()["interpreters"] == []
        pool.idle_s = 60.0
        busy = await warm_zygote()
        assert busy.process is not None
        idle.last_used = busy.last_used = trio.current_time() - 3600  # not used for an hour
        await run_gated(pool.housekeeping)  # while its hook runs it is not idle
        assert pool._zygotes
        assert not busy.retired
        await run_gated(lambda: pool._retire(busy, "over warm_max_rss_mib"))
        with trio.fail_after(30):
            await busy.process.wait()  # once its hook ended
        assert [o.stdout for o in outcomes] == [b"done\n"] * 4
        assert pool.hits == 2
        nursery.cancel_scope.cancel()
