"""One install (issue 29): the repository's root builds the whole of hookd, and the
README's first command works as written where ``pip install`` into the system Python is
refused (PEP 668, Debian and Ubuntu's ``externally-managed-environment``).

The slow test runs that command, taken from README.md as it is, in a copy of the clone,
under a Python made for the test the way a distribution ships one: an installation of its
own (not a virtualenv, which pip never treats as externally managed) whose standard
library folder holds an ``EXTERNALLY-MANAGED`` file, first on ``PATH`` as ``python3`` and
``pip``, with ``HOME`` and the XDG folders in the test's folder. pip's and zig's caches are
the user's: the wheels and zig's libc come from there, the install itself is fresh."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
NATIVE_SUPPORTED = sys.platform == "darwin" or (
    sys.platform == "linux" and os.uname().machine in ("x86_64", "aarch64")
)
INSTALL_DEADLINE_S = 900.0
"""pip builds hookd (and zig the native relay) and fetches its dependencies: about a
minute with warm caches, several on a cold machine."""
SHUTDOWN_DEADLINE_S = 60.0


def _toml(path: Path) -> dict[str, object]:
    return tomllib.loads(path.read_text("utf-8"))


def _project(path: Path) -> dict[str, object]:
    project = _toml(path)["project"]
    assert isinstance(project, dict)
    return project


# -- the root distribution is the three parts, whole -----------------------------------------


def test_the_root_distribution_is_the_three_parts() -> None:
    """Its dependencies are the daemon's less the two parts it holds; its programs are the
    client's and the daemon's; it builds the native relay as the client does."""
    root, client, daemon = (
        _project(REPO / p / "pyproject.toml") for p in (".", "client/python", "daemon")
    )
    parts = {"hookd-protocol==0.1.0", "hookd-client==0.1.0"}
    daemon_deps = daemon["dependencies"]
    assert isinstance(daemon_deps, list)
    assert parts <= set(daemon_deps)
    assert root["dependencies"] == [d for d in daemon_deps if d not in parts]
    assert root["name"] == daemon["name"] == "hookd"
    assert root["version"] == daemon["version"] == client["version"]
    assert root["scripts"] == {**client["scripts"], **daemon["scripts"]}  # type: ignore[dict-item]
    assert (
        _toml(REPO / "pyproject.toml")["build-system"]
        == _toml(REPO / "client/python/pyproject.toml")["build-system"]
    )
    wheel = _toml(REPO / "pyproject.toml")["tool"]["hatch"]["build"]["targets"]["wheel"]  # type: ignore[index]
    sources = ["protocol/src", "client/python/src", "daemon/src"]
    assert wheel["sources"] == wheel["dev-mode-dirs"] == sources
    assert wheel["only-include"] == [f"{s}/hookd" for s in sources]
    assert wheel["hooks"]["custom"]["path"] == "client/python/hatch_build.py"


# -- the README's first command, on an externally managed Python ----------------------------


def readme_first_command() -> str:
    """The first line of the README's first ``sh`` block: the command that installs hookd
    and starts the daemon."""
    text = README.read_text("utf-8")
    block = text.split("```sh\n", 1)[1].split("```", 1)[0]
    first = block.splitlines()[0]
    assert first.rstrip().endswith("# start the daemon"), first
    return first


def _copy_clone(target: Path) -> Path:
    """The repository's files as a fresh clone has them (and any new file not ignored),
    without the virtualenvs, builds and caches of this checkout."""
    listed = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True, check=True, timeout=120,
    ).stdout.decode()  # fmt: skip
    for name in filter(None, listed.split("\0")):
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def externally_managed_python(root: Path) -> Path:
    """A Python installation at ``root`` whose pip refuses to install (PEP 668): this
    interpreter's binary copied to ``root/bin``, its standard library linked in
    ``root/lib``, with pip alone in its first site folder (``site-packages``, or Debian's
    ``local/lib/python3.X/dist-packages``) and the ``EXTERNALLY-MANAGED`` file a
    distribution puts beside its standard library. Returns ``root/bin``: ``python3`` and
    ``pip``."""
    stdlib = Path(sysconfig.get_path("stdlib"))
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    lib = root / "lib" / version
    lib.mkdir(parents=True)
    for entry in stdlib.iterdir():
        if entry.name not in ("site-packages", "dist-packages", "EXTERNALLY-MANAGED"):
            (lib / entry.name).symlink_to(entry)
    bin_dir = root / "bin"
    bin_dir.mkdir()
    base = Path(os.path.realpath(getattr(sys, "_base_executable", sys.executable)))
    python = bin_dir / version
    shutil.copy2(base, python)  # a copy: through a symlink Python would find its own home
    (bin_dir / "python3").symlink_to(version)
    site_dirs = subprocess.run(
        [str(python), "-I", "-c", "import site; print(*site.getsitepackages(), sep='\\n')"],
        capture_output=True, text=True, check=True, timeout=60,
    ).stdout.split()  # fmt: skip
    assert site_dirs, "the copied Python names no site folder"
    site = Path(site_dirs[0])
    assert site.is_relative_to(root), f"the copied Python is not at home in {root}: {site}"
    site.mkdir(parents=True, exist_ok=True)
    import pip

    (site / "pip").symlink_to(Path(pip.__file__).parent)
    (lib / "EXTERNALLY-MANAGED").write_text(
        "[externally-managed]\nError=This Python is managed by the test's distribution: "
        "use a virtualenv (python3 -m venv).\n"
    )  # fmt: skip
    (bin_dir / "pip").write_text(f'#!/bin/sh\nexec "$(dirname "$0")/{version}" -m pip "$@"\n')
    (bin_dir / "pip").chmod(0o755)
    return bin_dir


def _user_cache() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")


def install_env(tmp: Path, python_bin: Path) -> dict[str, str]:
    """A new user's shell: this Python first on ``PATH``, no virtualenv active, no other
    ``hookd`` to be found, ``HOME`` and the XDG folders in ``tmp``; the user's pip and zig
    caches kept (what the test measures is the install, not the download)."""
    home = tmp / "user"
    runtime = tmp / "run"
    for folder in (home, runtime):
        folder.mkdir(mode=0o700)
    cache = _user_cache()
    path = [d for d in os.environ.get("PATH", "").split(os.pathsep)
            if d and not (Path(d) / "hookd").exists() and not (Path(d) / "hookd-relay").exists()]  # fmt: skip
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("HOOKD_", "PYTHON", "PIP_REQUIRE", "PIP_BREAK_SYSTEM", "VIRTUAL_ENV", "CONDA", "UV_"))}  # fmt: skip
    return {
        **env,
        "PATH": os.pathsep.join([str(python_bin), *path]),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local/share"),
        "XDG_STATE_HOME": str(home / ".local/state"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_RUNTIME_DIR": str(runtime),
        "PIP_CACHE_DIR": os.environ.get("PIP_CACHE_DIR", str(cache / "pip")),
        "ZIG_GLOBAL_CACHE_DIR": os.environ.get("ZIG_GLOBAL_CACHE_DIR", str(cache / "zig")),
    }


@pytest.fixture
def started(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], Path, dict[str, str], Path]]:
    """The README's first command, running (it ends in ``hookd serve``); killed, with
    everything it started, if the test leaves it running."""
    clone = _copy_clone(tmp_path / "hookd")
    env = install_env(tmp_path, externally_managed_python(tmp_path / "system"))
    refused = subprocess.run(["pip", "install", "."], cwd=clone, env=env, capture_output=True,
                             text=True, timeout=300)  # fmt: skip
    assert refused.returncode != 0, refused.stdout
    assert "externally-managed-environment" in refused.stderr, refused.stderr
    output = tmp_path / "first-command.log"
    with output.open("wb") as log:
        process = subprocess.Popen(["sh", "-c", readme_first_command()], cwd=clone, env=env,
                                   stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)  # fmt: skip
    try:
        yield process, clone, env, output
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _run(
    argv: list[str], env: dict[str, str], cwd: Path, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, cwd=cwd, env=env, input=stdin, capture_output=True, text=True, timeout=120
    )


def _tail(output: Path) -> str:
    return output.read_text(errors="replace")[-6000:]


def _wait_for_daemon(
    process: subprocess.Popen[bytes], hookd: Path, env: dict[str, str], clone: Path, output: Path
) -> float:
    """Until ``hookd status`` answers (the install done, the daemon up): the seconds it took.
    Fails at once if the command ends first, with what it printed."""
    start = time.monotonic()
    while time.monotonic() - start < INSTALL_DEADLINE_S:
        if process.poll() is not None:
            pytest.fail(f"the README's first command ended ({process.returncode}) before the daemon "
                        f"answered:\n{_tail(output)}")  # fmt: skip
        if hookd.exists() and _run([str(hookd), "status"], env, clone).returncode == 0:
            return time.monotonic() - start
        time.sleep(0.5)
    pytest.fail(f"no daemon answered within {INSTALL_DEADLINE_S:.0f} s:\n"
                f"{_tail(output)}")  # fmt: skip


@pytest.mark.slow
def test_the_readme_first_command_installs_and_starts_hookd_on_an_externally_managed_python(
    started: tuple[subprocess.Popen[bytes], Path, dict[str, str], Path],
) -> None:
    process, clone, env, output = started
    venv_bin = clone / ".venv" / "bin"
    took = _wait_for_daemon(process, venv_bin / "hookd", env, clone, output)
    print(f"README first command: installed and answering in {took:.1f} s")
    socket = Path(env["XDG_RUNTIME_DIR"]) / "hookd" / "hookd.sock"
    assert socket.is_socket(), "the daemon is not on the default socket"

    version = _run([str(venv_bin / "hookd"), "--version"], env, clone)
    assert (version.returncode, version.stdout) == (0, "hookd 0.1.0\n"), version.stderr

    # A user's Claude Code hook, handed to hookd: the entry written names this install's relay.
    home = Path(env["HOME"])
    hook = {"type": "command", "command": "echo 'rm is not allowed here' >&2; exit 2"}
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(
        json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}})
    )
    adopted = _run([str(venv_bin / "hookd"), "adopt", "--agent", "claude"], env, clone)
    assert adopted.returncode == 0, adopted.stderr
    entry = json.loads(settings.read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    native = clone / ".venv" / "libexec" / "hookd" / "hookd-relay"
    expected = native if NATIVE_SUPPORTED else venv_bin / "hookd-relay"
    assert entry == f"{expected} claude", (entry, _tail(output))

    # The entry as the agent runs it, and the Python relay on PATH: both answer from the
    # daemon the README started (HOOKD_NO_SPAWN: neither may start one of its own).
    event = {"hook_event_name": "PreToolUse", "cwd": str(home), "tool_name": "Bash",
             "tool_input": {"command": "rm -rf build"}}  # fmt: skip
    agent_env = {**env, "PATH": f"{venv_bin}{os.pathsep}{env['PATH']}", "HOOKD_NO_SPAWN": "1"}
    for command in (["sh", "-c", entry], ["hookd-relay", "claude"]):
        answered = _run(command, agent_env, home, json.dumps(event))
        assert answered.returncode == 0, (command, answered.stderr)
        decision = json.loads(answered.stdout)["hookSpecificOutput"]
        assert decision["permissionDecision"] == "deny", (command, answered.stdout)
        assert decision["permissionDecisionReason"] == "rm is not allowed here", command

    status = _run([str(venv_bin / "hookd"), "status", "--json"], env, clone)
    assert status.returncode == 0, status.stderr
    stopped = _run([str(venv_bin / "hookd"), "shutdown"], env, clone)
    assert stopped.returncode == 0, stopped.stderr
    assert process.wait(timeout=SHUTDOWN_DEADLINE_S) == 0, _tail(output)
