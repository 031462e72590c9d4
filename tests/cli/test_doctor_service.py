"""``hookd doctor``'s service area against a service installed for real: the units
``hookd service install`` writes, their socket held by the real ``systemd-socket-activate``
behind the stand-in user manager (``user_manager.py``: no ``systemd --user`` runs here).
A healthy service has no problem in that area; stale unit files, and a daemon outside the
service on its socket, are problems whose fix, run, makes them go away."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hookd_testing.activation import fake_systemctl, needs_activate, stop_manager
from hookd_testing.cli import HOOKD
from hookd_testing.doctor import doctor, problems, run_fix


@pytest.fixture
def machine(isolated_home: Path, tmp_path: Path, short_dir: Path) -> Iterator[dict[str, str]]:
    """The environment of a user whose ``systemctl --user`` is the stand-in (``PATH``,
    ``HOOKD_TEST_MANAGER``), with a runtime folder of its own; nothing installed yet."""
    manager = fake_systemctl(tmp_path)
    runtime = short_dir / "run"
    runtime.mkdir(mode=0o700)
    env = {"XDG_RUNTIME_DIR": str(runtime), "HOOKD_TEST_MANAGER": str(manager),
           "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}"}  # fmt: skip
    yield env
    stop_manager(manager)


def hookd(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([*HOOKD, *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env})  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def service_findings(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in report["findings"] if f["area"] == "service"]


def units(home: Path) -> Path:
    return home / ".config" / "systemd" / "user"


@needs_activate
def test_a_healthy_service_then_stale_unit_files_fixed(machine, isolated_home) -> None:
    hookd(machine, "service", "install")
    socket = f"{machine['XDG_RUNTIME_DIR']}/hookd/hookd.sock"

    _, report = doctor(**machine)

    assert problems(report, "service") == []
    files, unit, relay = service_findings(report)
    assert (files["level"], unit["level"], relay["level"]) == ("ok", "ok", "ok")
    assert files["text"] == (f"the systemd service's files are this installation's: "
                             f"{units(isolated_home) / 'hookd.socket'}, "
                             f"{units(isolated_home) / 'hookd.service'}")  # fmt: skip
    held_by = int((Path(machine["HOOKD_TEST_MANAGER"]) / "pid").read_text())
    assert unit["details"]["runsHookd"] == "service"  # doctor's own status call started it
    assert unit["details"]["pid"] == held_by  # the activator, exec'd into hookd
    assert unit["text"] == ("systemd service: socket active (listening), service active "
                            f"(running); runs hookd: systemd (pid {held_by})")  # fmt: skip
    assert relay["text"].startswith(f"hookd-relay defers to the service: when no daemon "
                                    f"answers on its socket it connects to {socket}, or runs "
                                    "'systemctl --user start hookd.socket'")  # fmt: skip

    (units(isolated_home) / "hookd.service").write_text(
        "[Service]\nExecStart=/elsewhere/bin/hookd serve\n"
    )
    code, report = doctor(**machine)

    assert code == 1
    [stale] = problems(report, "service")
    assert stale["text"] == ("the systemd service's files are not what 'hookd service install' "
                             f"writes for this installation: {units(isolated_home) / 'hookd.service'}"
                             " (another hookd's, an older one's, or edited by hand)")  # fmt: skip
    assert stale["fix"] == "hookd service install"
    run_fix(stale["fix"], **machine)
    assert "/elsewhere/" not in (units(isolated_home) / "hookd.service").read_text()
    assert problems(doctor(**machine)[1], "service") == []


@needs_activate
def test_a_daemon_outside_the_service_on_its_socket(machine, tmp_path) -> None:
    """The units are written but not started, and a ``hookd serve`` of its own took the
    socket (as a relay did before the service existed): the fix stops it and starts the
    service, whose daemon then answers there."""
    hookd(machine, "service", "install", "--files-only")
    socket = f"{machine['XDG_RUNTIME_DIR']}/hookd/hookd.sock"
    outside = subprocess.Popen([*HOOKD, "serve"], env={**os.environ, **machine},
                               stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert outside.stderr is not None
        while "ready" not in outside.stderr.readline():
            assert outside.poll() is None
        code, report = doctor(**machine)
        [found] = problems(report, "service")
        run_fix(found["fix"], **machine)
        assert outside.wait(timeout=60) == 0
    finally:
        if outside.poll() is None:
            outside.kill()
        outside.wait()
        outside.stderr.close()  # type: ignore[union-attr]

    assert code == 1
    assert found["text"].startswith(f"a daemon outside the systemd service (pid {outside.pid}) "
                                    f"holds the service's socket {socket} (socket inactive")  # fmt: skip
    assert found["fix"] == (f"hookd --socket {socket} shutdown && systemctl --user enable "
                            "--now hookd.socket hookd.service")  # fmt: skip
    _, report = doctor(**machine)
    assert problems(report, "service") == []
    held_by = int((Path(machine["HOOKD_TEST_MANAGER"]) / "pid").read_text())
    [unit] = [f for f in service_findings(report) if "runsHookd" in f.get("details", {})]
    assert (unit["details"]["runsHookd"], unit["details"]["pid"]) == ("service", held_by)


def test_with_no_user_manager_to_ask_the_state_is_said_not_guessed(isolated_home,
                                                                   tmp_path) -> None:  # fmt: skip
    """Units an older install left (the README's old ``%h/.local/bin/hookd``): stale; once
    written for this installation, with no user manager running (this container) the
    unit's state is a warning saying why, not a guess."""
    folder = units(isolated_home)
    folder.mkdir(parents=True)
    (folder / "hookd.socket").write_text("[Socket]\nListenStream=%t/hookd/hookd.sock\n")
    (folder / "hookd.service").write_text("[Service]\nExecStart=%h/.local/bin/hookd serve\n")

    code, report = doctor(XDG_RUNTIME_DIR=str(tmp_path))

    assert code == 1
    [stale] = problems(report, "service")
    assert f"{folder / 'hookd.socket'}, {folder / 'hookd.service'} (another" in stale["text"]
    assert stale["fix"] == "hookd service install"
    hookd({"XDG_RUNTIME_DIR": str(tmp_path)}, "service", "install", "--files-only")
    found = service_findings(doctor(XDG_RUNTIME_DIR=str(tmp_path))[1])
    assert [f["level"] for f in found] == ["ok", "warning", "ok"]
    assert found[1]["text"].startswith("hookd's systemd service is installed, but its state "
                                       "is unknown: ")  # fmt: skip


@needs_activate
def test_the_service_daemon_is_not_another_daemon(machine, short_dir) -> None:
    """A shell whose HOOKD_SOCKET leads elsewhere, with a daemon there: the service's
    daemon is the service's (its findings say the sockets differ), not "another hookd
    daemon ... stop it", which would contradict them."""
    hookd(machine, "service", "install")
    service_socket = f"{machine['XDG_RUNTIME_DIR']}/hookd/hookd.sock"
    hookd({**machine, "HOOKD_SOCKET": service_socket}, "status")  # the service's daemon starts
    elsewhere = str(short_dir / "elsewhere.sock")
    mine = subprocess.Popen([*HOOKD, "--socket", elsewhere, "serve"], env={**os.environ, **machine},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        for _ in range(300):
            if subprocess.run([*HOOKD, "--socket", elsewhere, "status"], capture_output=True,
                              env={**os.environ, **machine}).returncode == 0:  # fmt: skip
                break
        _, report = doctor(**{**machine, "HOOKD_SOCKET": elsewhere})
    finally:
        mine.terminate()
        mine.wait(30)

    others = [f for f in report["findings"] if f["area"] == "daemon"
              and service_socket in f["text"] and "another hookd daemon" in f["text"]]  # fmt: skip
    assert others == []
