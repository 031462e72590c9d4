"""``uv run`` hooks fresh and warm: identical exit code, stdout, stderr and files (the uv
part of issue 15's equivalence suite).

Each hook runs through the real uv (pinned in requirements-dev.txt), offline, with its
cache in the test's folder: scripts with PEP 723 inline metadata (``dependencies = []``,
or a dotenv-style package uv installs from a wheel the test builds), a script without
metadata run in the ambient Python, the ``uv run`` forms (argv, ``sh -c``, ``--script``,
``uv run python``, the ``#!/usr/bin/env -S uv run --script`` shebang). Warm, hookd asked
uv once how it runs the script and stands in for uv itself: the script is uv's child,
signals sent to uv reach it as uv forwards them, and uv's exit status comes back.
"""

from __future__ import annotations

import base64
import hashlib
import os
import resource
import shutil
import sys
import textwrap
import zipfile
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from hookd.daemon.runner.process import ProcessLimits, run_hook_process
from hookd.daemon.runner.warm.shapes import UvCommand
from hookd.daemon.runner.warm.uv_probe import UvResolution, _pair, _resolution, child_environment

from .test_equivalence import (
    DIRECT_CASES,
    FAKE_DOTENV,
    JSON_EVENT,
    PYTHON,
    SCRIPTS,
    Env,
    _compare,
    pool_env,
)

UV = shutil.which("uv") or str(Path(sys.executable).with_name("uv"))
pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not os.path.exists(PYTHON) or not os.path.exists(UV),
    reason="needs Linux, a system Python and uv (requirements-dev.txt installs it)",
)

INLINE = '# /// script\n# requires-python = ">=3.9"\n# dependencies = []\n# ///\n'
WITH_DOTENV = '# /// script\n# requires-python = ">=3.9"\n# dependencies = ["fakedotenv"]\n# ///\n'


def _body(name: str) -> str:
    return textwrap.dedent(SCRIPTS[name])


REUSED = (
    "reads_json.py", "uncaught.py", "exit_codes.py", "atexit_threads.py", "signals.py",
    "files.py", "subprocess_env.py", "excepthook.py", "bytes_out.py", "introspect.py",
)  # fmt: skip
"""Scripts of the Python suite, run by uv with inline metadata put in front."""
INTROSPECT_UV = """
print(sys.prefix, sys.base_prefix, sys.path)
print(os.getpgrp() == os.getppid(), os.getsid(0) == os.getppid())
"""
DOTENV_HOOK = """
import json, os, sys
from fakedotenv import load_dotenv
load_dotenv(os.path.join(json.load(sys.stdin)["out"], "..", ".env"))
print(os.environ["API_MODE"], load_dotenv.__module__, sys.modules["fakedotenv"].__file__)
"""
TO_UV = """
import os, signal, sys, time
kind = sys.argv[1]
if kind == "usr1":
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
    os.kill(os.getppid(), signal.SIGUSR1)
    print("uv forwarded", signal.Signals(signal.sigwait({signal.SIGUSR1})).name)
if kind == "term":
    print("asking uv to stop", flush=True)
    os.kill(os.getppid(), signal.SIGTERM)
    time.sleep(30)
if kind == "int":
    print("interrupting uv", flush=True)
    os.kill(os.getppid(), signal.SIGINT)
    time.sleep(30)
"""
PLAIN = """
import os, sys
print(sys.argv, sys.orig_argv, sys.executable, sys.prefix)
print([(k, v) for k, v in os.environ.items() if k != "HOOKD_HOOK_ID"])
"""
SHEBANG = """
import os, sys
print(sys.argv, sys.orig_argv, os.environ["VIRTUAL_ENV"] == sys.prefix)
"""
UV_SCRIPTS = {name: INLINE + _body(name) for name in REUSED}
UV_SCRIPTS["introspect.py"] += INTROSPECT_UV
UV_SCRIPTS["dotenv_hook.py"] = WITH_DOTENV + DOTENV_HOOK
UV_SCRIPTS["to_uv.py"] = INLINE + TO_UV
UV_SCRIPTS["plain.py"] = PLAIN
UV_SCRIPTS["shebang.py"] = "#!/usr/bin/env -S uv run --script\n" + INLINE + SHEBANG


def build_wheel(folder: Path, name: str = "fakedotenv", version: str = "1.0") -> Path:
    """A pure-Python wheel of ``FAKE_DOTENV``, for uv to install offline (``--find-links``)."""
    info = f"{name}-{version}.dist-info"
    files = {
        f"{name}/__init__.py": FAKE_DOTENV,
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: hookd-tests\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n",
    }
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=")
        record.append(f"{path},sha256={digest.decode()},{len(text.encode())}")
    record.append(f"{info}/RECORD,,")
    wheel = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
        archive.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return wheel


@pytest.fixture
async def uv_env(tmp_path: Path) -> AsyncIterator[Env]:
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for name, text in UV_SCRIPTS.items():
        (hooks / name).write_text(text)
        (hooks / name).chmod(0o755)
    (tmp_path / ".env").write_text("API_MODE=from-dotenv\n")
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    build_wheel(wheels)
    uv_bin = tmp_path / "bin"
    uv_bin.mkdir()
    (uv_bin / "uv").symlink_to(UV)
    env = {
        "PATH": f"{uv_bin}:/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8",
        "UV_CACHE_DIR": str(tmp_path / "uv-cache"), "UV_OFFLINE": "1",
        "UV_FIND_LINKS": str(wheels), "UV_PYTHON_DOWNLOADS": "never",
        "CLAUDE_PROJECT_DIR": str(tmp_path), "TZ": "UTC",
    }  # fmt: skip
    async with pool_env(hooks, tmp_path, env) as running:
        yield running


@pytest.mark.parametrize(
    ("script", "args"),
    [case for case in DIRECT_CASES if case[0] in REUSED] + [("dotenv_hook.py", [])],
)
async def test_uv_run(uv_env: Env, script: str, args: list[str]) -> None:
    fresh, _ = await _compare(uv_env, ["uv", "run", script, *args], JSON_EVENT, prime=True)
    assert fresh.exit_code is not None  # type: ignore[attr-defined]
    assert len(uv_env.pool.uv.view()) == 1


async def test_signals_reach_the_script_as_uv_forwards_them(uv_env: Env) -> None:
    outcomes = {}
    for kind in ("usr1", "term", "int"):
        _fresh, warm = await _compare(uv_env, ["uv", "run", "to_uv.py", kind], prime=True)
        outcomes[kind] = warm
    assert outcomes["usr1"].stdout == b"uv forwarded SIGUSR1\n"  # type: ignore[attr-defined]
    assert outcomes["term"].exit_code == 128 + 15  # type: ignore[attr-defined]
    assert outcomes["int"].exit_code == 128 + 2  # type: ignore[attr-defined]
    assert b"KeyboardInterrupt" in outcomes["int"].stderr  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "command",
    [
        ["/bin/sh", "-c", 'uv run "$CLAUDE_PROJECT_DIR"/hooks/introspect.py one'],
        ["/bin/bash", "-c", "uv run --quiet introspect.py two"],
        ["/bin/sh", "-c", "uv run --script reads_json.py"],
        ["uv", "run", "-s", "introspect.py"],
        ["/bin/sh", "-c", "uv run introspect.py"],
        ["/bin/sh", "-c", "./shebang.py three"],
        ["./shebang.py", "four"],
    ],
)
async def test_uv_forms(uv_env: Env, command: list[str]) -> None:
    await _compare(uv_env, command, JSON_EVENT, prime=True)


@pytest.mark.parametrize(
    "command",
    [["uv", "run", "plain.py", "x"], ["uv", "run", "python", "plain.py", "y"],
     ["uv", "run", "python", "introspect.py", "z"]],
)  # fmt: skip
async def test_a_script_run_in_the_ambient_python(uv_env: Env, command: list[str]) -> None:
    fresh, _ = await _compare(uv_env, command, JSON_EVENT, prime=True)
    assert b"/usr/bin/python3" in fresh.stdout  # type: ignore[attr-defined]


async def test_without_a_locale(uv_env: Env) -> None:
    """No ``LANG``: CPython's start-up adds ``LC_CTYPE`` to the script's environment."""
    uv_env.env.pop("LANG")
    fresh, _ = await _compare(uv_env, ["uv", "run", "introspect.py"], JSON_EVENT, prime=True)
    assert b"('LC_CTYPE', 'C.UTF-8')" in fresh.stdout  # type: ignore[attr-defined]


async def test_uv_raises_the_file_limit(uv_env: Env) -> None:
    """uv raises its soft open-files limit to the hard one before it starts Python."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 256:
        pytest.skip("the soft file limit is already below what this test lowers it to")
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
    try:
        fresh, _ = await _compare(uv_env, ["uv", "run", "introspect.py"], JSON_EVENT, prime=True)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    expected = min(hard, 0x100000) if hard != resource.RLIM_INFINITY else 0x100000
    assert f"({expected}, {hard})".encode() in fresh.stdout  # type: ignore[attr-defined]


async def test_a_changed_metadata_block_asks_uv_again(uv_env: Env) -> None:
    script = uv_env.hooks / "changes.py"
    script.write_text(INLINE + "import sys\nprint(sys.prefix)\n")
    argv = ["uv", "run", "changes.py"]
    await _compare(uv_env, argv, prime=True)
    script.write_text(WITH_DOTENV + "import fakedotenv\nprint(fakedotenv.__name__)\n")
    hits = uv_env.pool.hits
    changed = await uv_env.run(argv, b"{}", warm=True)
    assert changed.stdout == b"fakedotenv\n"
    assert uv_env.pool.hits == hits
    assert uv_env.pool.fallbacks["what uv decides the script's environment from changed"] == 1
    await uv_env.pool.settled()
    again = await uv_env.run(argv, b"{}", warm=True)
    assert (again.stdout, again.stderr, uv_env.pool.hits) == (b"fakedotenv\n", b"", hits + 1)


async def test_a_new_package_in_the_environment_asks_uv_again(uv_env: Env) -> None:
    argv = ["uv", "run", "introspect.py"]
    await _compare(uv_env, argv, JSON_EVENT, prime=True)
    [known] = uv_env.pool.uv.view()
    site = Path(known["environment"]) / "lib"
    [packages] = site.glob("python3*/site-packages")
    (packages / "added.pth").write_text("")
    hits = uv_env.pool.hits
    await uv_env.run(argv, JSON_EVENT, warm=True)
    assert uv_env.pool.hits == hits
    assert uv_env.pool.fallbacks["the script's uv environment changed"] == 1


async def test_timeout_kills_uv_and_its_script(uv_env: Env) -> None:
    argv = ["uv", "run", "to_uv.py", "sleep"]
    (uv_env.hooks / "to_uv.py").write_text(
        INLINE + "import time\nprint('started', flush=True)\ntime.sleep(60)\n"
    )
    limits = ProcessLimits(timeout_s=1.0, term_grace_s=0.5)
    outcomes = []
    for warm in (False, False, True, True):
        uv_env.use_warm(warm)
        outcomes.append(await run_hook_process(
            argv, stdin=b"", cwd=str(uv_env.hooks), env=uv_env.env, limits=limits,
            custody=uv_env.custody,
        ))  # fmt: skip
        await uv_env.pool.settled()
    fresh, warm = outcomes[1], outcomes[3]
    assert uv_env.pool.hits == 1
    assert fresh.timed_out
    assert warm.timed_out
    assert (warm.exit_code, warm.stdout) == (fresh.exit_code, fresh.stdout) == (143, b"started\n")


@pytest.mark.parametrize(
    ("argv", "extra_env", "reason"),
    [
        (["uv", "run", "--with", "x", "reads_json.py"], {}, "uv option --with"),
        (["uv", "run", "--python", "3.11", "reads_json.py"], {}, "uv option --python"),
        (["uv", "--quiet", "run", "reads_json.py"], {}, "uv options before run"),
        (["uv", "run", "reads_json.py"], {"UV_ENV_FILE": ".env"}, "UV_ENV_FILE is set"),
        (["uv", "run", "reads_json.py"], {"UV_NO_CACHE": "1"}, "UV_NO_CACHE is set"),
        (["uv", "run", "reads_json.py"], {"UV_PROJECT_ENVIRONMENT": "v"},
         "UV_PROJECT_ENVIRONMENT is set"),
        (["/bin/sh", "-c", "uv run reads_json.py | cat"], {}, "shell syntax beyond plain words"),
        (["uv", "run", "python", "-u", "plain.py"], {},
         "uv run python with interpreter options or no script"),
    ],
)  # fmt: skip
async def test_fallbacks(
    uv_env: Env, argv: list[str], extra_env: dict[str, str], reason: str
) -> None:
    uv_env.env.update(extra_env)
    fresh = await uv_env.run(argv, JSON_EVENT, warm=False)
    for _ in range(2):
        warm = await uv_env.run(argv, JSON_EVENT, warm=True)
        await uv_env.pool.settled()
        assert (warm.exit_code, warm.stdout) == (fresh.exit_code, fresh.stdout)
    assert uv_env.pool.hits == 0
    assert uv_env.pool.fallbacks == {reason: 2}


async def test_a_plain_script_in_a_project_runs_fresh(uv_env: Env) -> None:
    (uv_env.hooks / "pyproject.toml").write_text(
        '[project]\nname = "hooks"\nversion = "0"\nrequires-python = ">=3.9"\ndependencies = []\n'
    )
    for _ in range(3):
        outcome = await uv_env.run(["uv", "run", "plain.py"], b"{}", warm=True)
        await uv_env.pool.settled()
        assert str(uv_env.hooks / ".venv").encode() in outcome.stdout
    assert uv_env.pool.hits == 0
    reason = "a script without inline metadata in a project (uv syncs it each run)"
    assert uv_env.pool.fallbacks == {reason: 3}
    # with inline metadata the project does not matter: the script has its own environment
    await _compare(uv_env, ["uv", "run", "reads_json.py"], JSON_EVENT, prime=True)


async def test_uv_output_before_the_script_makes_it_run_fresh(uv_env: Env) -> None:
    """uv warns on every run (``--no-sync`` is a no-op for a script): hookd cannot
    stand in for uv's own output, so the hook keeps running fresh, with the reason."""
    uv_env.env["UV_NO_SYNC"] = "1"
    argv = ["uv", "run", "reads_json.py"]
    for _ in range(4):
        outcome = await uv_env.run(argv, JSON_EVENT, warm=True)
        await uv_env.pool.settled()
        assert b"no-op" in outcome.stderr
    assert uv_env.pool.hits == 0
    assert uv_env.pool.uv.probes == 2
    [known] = uv_env.pool.uv.view()
    assert known["unusable"].startswith("uv writes to stderr before the script runs (warning")


async def test_a_script_whose_inputs_change_every_run_stops_asking_uv(uv_env: Env) -> None:
    """A ``uv.toml`` uv reads is rewritten before every run: after three answers that did
    not hold within a minute, the hook runs fresh without asking uv each time."""
    for run in range(5):
        (uv_env.hooks / "uv.toml").write_text(f"# rewrite {run}\n")
        outcome = await uv_env.run(["uv", "run", "reads_json.py"], JSON_EVENT, warm=True)
        await uv_env.pool.settled()
        assert outcome.exit_code == 0
    assert uv_env.pool.uv.probes == 3
    assert uv_env.pool.hits == 0
    assert uv_env.pool.fallbacks["uv's answer keeps changing (asked 3 times in a minute)"] == 2


def test_the_probe_checks_what_uv_did_against_the_model() -> None:
    """Anything uv does that hookd does not model makes the script's environment
    unusable warm, with the reason (reports as the probe's ``sitecustomize`` writes)."""
    uv = os.path.realpath(UV)
    command = UvCommand(program=UV, words=("uv", "run", "x.py"), script="x.py", args=("a",),
                        cwd="/w", env=(), inline=True)  # fmt: skip
    env = {"PATH": "/usr/bin", "HOME": "/h", "ZZ": "1"}
    limits = (256, 4096)
    report: dict[str, object] = {
        "cmdline": ["/e/bin/python", "x.py", "a"], "parent": uv, "ppid": 10, "pgid": 10,
        "parentPgid": 10, "sid": 10, "prefix": "/e", "nofile": [4096, 4096],
        "environ": ["HOME=/h", "PATH=/e/bin:/usr/bin", f"UV={uv}", "UV_RUN_RECURSION_DEPTH=1",
                    "VIRTUAL_ENV=/e", "ZZ=1"],
        "stamps": [["/e/pyvenv.cfg", [1, 2, 3, 4]]], "now": 5,
    }  # fmt: skip
    found = _resolution(report, command, env, limits)
    assert isinstance(found, UvResolution)
    assert (found.python, found.path_prefix, found.virtual_env) == ("/e/bin/python", "/e/bin", "/e")
    assert found.raises_nofile
    assert child_environment(env, found) == tuple(_pair(e) for e in report["environ"])  # type: ignore[attr-defined]
    changes = {
        "uv sets variables hookd does not model (EXTRA)": {
            "environ": [*report["environ"], "EXTRA=1"]  # type: ignore[misc]
        },
        "uv passes its child's environment in an order hookd does not model": {
            "environ": list(reversed(report["environ"]))  # type: ignore[call-overload]
        },
        "uv changes PATH other than by a prefix": {
            "environ": [e.replace("/e/bin:/usr/bin", "/usr/bin:/e/bin") for e in report["environ"]]  # type: ignore[attr-defined]
        },
        "uv does not stay the script's parent": {"parent": "/bin/sh"},
        "uv puts the script in a process group of its own": {"pgid": 11},
        "uv runs the script with interpreter options or another argv": {
            "cmdline": ["/e/bin/python", "-u", "x.py", "a"]
        },
        "uv gives the script a file limit hookd does not model": {"nofile": [1024, 4096]},
    }
    for reason, change in changes.items():
        assert _resolution({**report, **change}, command, env, limits) == reason
