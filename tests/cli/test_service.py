"""``hookd service install|uninstall|status`` (issue 29): the files ``--dry-run`` prints
pass ``systemd-analyze verify``; the macOS branch's plist parses and pins the socket;
install is idempotent and says so; a daemon outside the service is stopped first; and
with no user manager to ask, the files are written and the command says what to run."""

from __future__ import annotations

import os
import plistlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hookd.daemon.service import systemd
from hookd_testing.activation import fake_systemctl, needs_activate, stop_manager

HOOKD = [sys.executable, "-m", "hookd"]
SCRIPT = str(Path(sys.executable).with_name("hookd"))


def env_for(home: Path, runtime: Path, path: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOOKD_", "XDG_"))}
    runtime.mkdir(mode=0o700, exist_ok=True)
    return {**env, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_RUNTIME_DIR": str(runtime), "PATH": path or env["PATH"]}  # fmt: skip


def service(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, *args], env=env, capture_output=True, text=True,
                          timeout=120)  # fmt: skip


def dry_run_files(output: str) -> dict[str, str]:
    """``--- write PATH`` and the text up to the next ``---`` line."""
    parts = re.split(r"^--- (.*)\n", output, flags=re.MULTILINE)
    return {head.removeprefix("write "): text for head, text in zip(parts[1::2], parts[2::2],
                                                                     strict=True)
            if head.startswith("write ")}  # fmt: skip


def test_the_dry_run_units_pass_systemd_analyze_verify(tmp_path: Path, short_dir: Path) -> None:
    """The units as install would write them, this installation's hookd in ExecStart,
    verified by systemd itself; nothing is written."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not on PATH (not a systemd system)")
    env = env_for(tmp_path / "home", short_dir / "run")
    done = service(env, "service", "install", "--manager", "systemd", "--dry-run")
    assert done.returncode == 0, done.stderr
    files = dry_run_files(done.stdout)
    units = tmp_path / "home" / ".config" / "systemd" / "user"
    assert sorted(files) == [str(units / "hookd.service"), str(units / "hookd.socket")]
    assert not units.exists()
    assert done.stdout.endswith("--- run systemctl --user daemon-reload\n"
                                "--- run systemctl --user enable --now hookd.socket "
                                "hookd.service\n"
                                "--- run systemctl --user try-restart hookd.service\n")  # fmt: skip
    service_text = files[str(units / "hookd.service")]
    assert f"\nExecStart={SCRIPT} serve\n" in service_text
    assert "\nType=notify\n" in service_text
    assert "\nListenStream=%t/hookd/hookd.sock\n" in files[str(units / "hookd.socket")]
    copy = tmp_path / "verify"
    copy.mkdir()
    for path, text in files.items():
        (copy / Path(path).name).write_text(text)

    verified = subprocess.run(
        [analyze, "--user", "verify", str(copy / "hookd.socket"), str(copy / "hookd.service")],
        env={**env, "SYSTEMD_LOG_COLOR": "0"}, capture_output=True, text=True, timeout=120,
    )  # fmt: skip

    output = verified.stdout + verified.stderr
    assert verified.returncode == 0, output
    assert [line for line in output.splitlines() if "hookd." in line] == [], output


def test_the_launchd_branch_by_its_dry_run(tmp_path: Path, short_dir: Path) -> None:
    """macOS's agent, shown on any platform: this hookd, the socket pinned by --socket and
    HOOKD_SOCKET (not TMPDIR's), and the launchctl command."""
    env = env_for(tmp_path / "home", short_dir / "run")
    pinned = str(short_dir / "pinned.sock")
    done = service(env, "--socket", pinned, "service", "install", "--manager", "launchd",
                   "--dry-run")  # fmt: skip
    assert done.returncode == 0, done.stderr
    plist_path = tmp_path / "home" / "Library" / "LaunchAgents" / "dev.hookd.plist"
    (text,) = dry_run_files(done.stdout).values()
    agent = plistlib.loads(text.encode())
    assert agent["Label"] == "dev.hookd"
    assert agent["ProgramArguments"] == [SCRIPT, "--socket", pinned, "serve"]
    assert agent["EnvironmentVariables"]["HOOKD_SOCKET"] == pinned
    assert agent["EnvironmentVariables"]["PATH"] == env["PATH"]
    assert agent["KeepAlive"] == {"SuccessfulExit": False}
    assert done.stdout.splitlines()[0] == f"--- write {plist_path}"
    assert done.stdout.splitlines()[-1] == (
        f"--- run launchctl bootstrap gui/{os.getuid()} {plist_path}"
    )
    assert not plist_path.exists()
    refused = service(env, "service", "install", "--manager", "launchd")
    assert refused.returncode == 1
    assert "add --dry-run to see its files" in refused.stderr


def test_install_twice_changes_nothing_and_says_so(tmp_path: Path, short_dir: Path) -> None:
    env = env_for(tmp_path / "home", short_dir / "run")
    units = tmp_path / "home" / ".config" / "systemd" / "user"

    first = service(env, "service", "install", "--files-only")
    stamps = {p.name: p.stat().st_mtime_ns for p in units.iterdir()}
    second = service(env, "service", "install", "--files-only")
    dry = service(env, "service", "install", "--files-only", "--dry-run")
    status = service(env, "service", "status", "--json")

    assert first.returncode == 0, first.stderr
    assert f"wrote {units / 'hookd.socket'}" in first.stdout
    assert "to start it: systemctl --user daemon-reload && systemctl --user enable" in first.stdout
    assert second.returncode == 0, second.stderr
    assert second.stdout == (f"unchanged {units / 'hookd.socket'}\n"
                             f"unchanged {units / 'hookd.service'}\n"
                             "hookd service: nothing changed (systemd; to start it: "
                             "systemctl --user enable --now hookd.socket hookd.service)\n")  # fmt: skip
    assert {p.name: p.stat().st_mtime_ns for p in units.iterdir()} == stamps
    assert "--- write" not in dry.stdout
    assert status.returncode == 0, status.stdout + status.stderr
    assert '"installed": true' in status.stdout
    assert '"current": true' in status.stdout

    (units / "hookd.service").write_text("[Service]\nExecStart=/elsewhere/hookd serve\n")
    stale = service(env, "service", "status")
    assert stale.returncode == 1
    assert "not this installation's hookd" in stale.stdout

    removed = service(env, "service", "uninstall", "--files-only")
    again = service(env, "service", "uninstall", "--files-only")
    assert removed.returncode == 0, removed.stderr
    assert sorted(units.iterdir()) == []
    assert again.stdout == "hookd service: not installed (systemd); nothing to remove\n"


def test_without_a_user_manager_install_says_what_to_run(tmp_path: Path, short_dir: Path) -> None:
    """No systemctl to run: the files are written, exit 1 naming the command and why."""
    empty = tmp_path / "no-tools"
    empty.mkdir()
    env = env_for(tmp_path / "home", short_dir / "run", path=str(empty))
    done = service(env, "service", "install")
    assert done.returncode == 1
    assert "hookd: cannot run systemctl --user daemon-reload" in done.stderr
    assert (tmp_path / "home" / ".config" / "systemd" / "user" / "hookd.socket").exists()


def test_systemd_takes_no_socket_option(tmp_path: Path, short_dir: Path) -> None:
    env = env_for(tmp_path / "home", short_dir / "run")
    done = service(env, "--socket", "/tmp/x.sock", "service", "install", "--dry-run")
    assert done.returncode == 1
    assert "--socket does not apply to systemd" in done.stderr


def test_exec_start_words_are_escaped() -> None:
    assert systemd.exec_word("/a b/100%/$x") == '"/a b/100%%/$$x"'
    assert systemd.exec_word("/usr/bin/hookd") == "/usr/bin/hookd"


@needs_activate
def test_install_stops_a_daemon_outside_the_service(tmp_path: Path, short_dir: Path) -> None:
    """A daemon a relay started owns the socket: install stops it, then the service's
    daemon answers there (the user manager stood in for by user_manager.py)."""
    manager = fake_systemctl(tmp_path)
    env = env_for(tmp_path / "home", short_dir / "run",
                  path=f"{tmp_path / 'bin'}:{os.environ['PATH']}")  # fmt: skip
    env["HOOKD_TEST_MANAGER"] = str(manager)
    outside = subprocess.Popen([*HOOKD, "serve"], env=env, stderr=subprocess.PIPE, text=True)
    try:
        assert outside.stderr is not None
        while "ready" not in outside.stderr.readline():
            assert outside.poll() is None
        status = service(env, "service", "status")
        installed = service(env, "service", "install")
        outside.wait(timeout=60)
        answered = service(env, "status", "--json")
    finally:
        if outside.poll() is None:
            outside.kill()
        outside.wait()
        outside.stderr.close()  # type: ignore[union-attr]
        stop_manager(manager)
    assert f"runs hookd  outside the service: pid {outside.pid}" in status.stdout
    assert status.returncode == 1
    assert installed.returncode == 0, installed.stderr
    assert f"stopping hookd pid {outside.pid}, started outside the service" in installed.stdout
    assert f'"pid": {(manager / "pid").read_text()}' in answered.stdout
