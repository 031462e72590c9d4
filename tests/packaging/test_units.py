"""Static checks of the service-manager files under packaging/ (no service is started):
they are what ``hookd service install`` writes, with placeholders (``scripts/regenerate.py``
writes them; ``test_the_shipped_files_are_what_install_writes`` holds them to it)."""

from __future__ import annotations

import configparser
import os
import plistlib
import re
import shutil
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest

PACKAGING = Path(__file__).resolve().parents[2] / "packaging"
SERVICE = PACKAGING / "systemd" / "hookd.service"
SOCKET = PACKAGING / "systemd" / "hookd.socket"
PLIST = PACKAGING / "launchd" / "dev.hookd.plist"

PLACEHOLDERS = {
    "@HOOKD_BIN@": "/Users/someone/.local/bin/hookd",
    "@PATH@": "/opt/homebrew/bin:/usr/bin:/bin:/usr/sbin:/sbin",
    "@HOME@": "/Users/someone",
    "@SOCKET@": "/Users/someone/.hookd/hookd.sock",
}


class _MultiValueDict(dict[str, Any]):
    """Keeps every assignment of a repeated key (systemd allows them, e.g. Environment=).

    While parsing, configparser stores each option as a list of lines; extending the
    existing list instead of replacing it makes repeated keys come out newline-joined.
    """

    def __setitem__(self, key: str, value: Any) -> None:
        if isinstance(value, list) and isinstance(self.get(key), list):
            self[key].extend(value)
        else:
            super().__setitem__(key, value)


def parse_unit(text: str) -> dict[str, dict[str, list[str]]]:
    """Section -> key -> every value assigned to it, in file order (keys case-sensitive)."""
    parser = configparser.RawConfigParser(
        strict=False,
        interpolation=None,
        dict_type=_MultiValueDict,
        empty_lines_in_values=False,
    )
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(text)
    return {
        name: {key: value.split("\n") for key, value in parser.items(name, raw=True)}
        for name in parser.sections()
    }


@pytest.fixture(scope="module")
def unit() -> dict[str, dict[str, list[str]]]:
    return parse_unit(SERVICE.read_text("utf-8"))


def fill_placeholders(text: str) -> str:
    for placeholder, value in PLACEHOLDERS.items():
        text = text.replace(placeholder, value)
    return text


@pytest.fixture(scope="module")
def plist() -> dict[str, Any]:
    data = plistlib.loads(fill_placeholders(PLIST.read_text("utf-8")).encode())
    assert isinstance(data, dict)
    return data


def test_unit_parser_keeps_repeated_keys() -> None:
    """The unit parser keeps every value of a key assigned more than once."""
    parsed = parse_unit("[Service]\nEnvironment=A=1\nType=simple\nEnvironment=B=%h\n")
    assert parsed["Service"]["Environment"] == ["A=1", "B=%h"]
    assert parsed["Service"]["Type"] == ["simple"]


def test_service_is_type_notify(unit: dict[str, dict[str, list[str]]]) -> None:
    """The service waits for hookd's READY=1 (Type=notify)."""
    assert unit["Service"]["Type"] == ["notify"]


def test_service_kill_mode_is_mixed(unit: dict[str, dict[str, list[str]]]) -> None:
    """Only the main process gets SIGTERM, so hookd cancels its hooks itself."""
    assert unit["Service"]["KillMode"] == ["mixed"]
    assert unit["Service"]["TimeoutStopSec"] == ["15"]


def test_service_execstart_runs_serve(unit: dict[str, dict[str, list[str]]]) -> None:
    """ExecStart is the installation's hookd (a placeholder here) and `serve`."""
    assert unit["Service"]["ExecStart"] == ["@HOOKD_BIN@ serve"]


def test_the_shipped_files_are_what_install_writes() -> None:
    """packaging/ holds exactly what ``hookd service install`` writes for the placeholders
    (``python scripts/regenerate.py`` writes them again)."""
    from hookd.daemon.service.shipped import shipped

    for name, text in shipped().items():
        assert (PACKAGING.parent / name).read_text("utf-8") == text, name
    assert sorted(p.name for p in PACKAGING.rglob("*") if p.is_file() and p.suffix != ".md") == (
        sorted(Path(name).name for name in shipped())
    )


def test_the_socket_unit(unit: dict[str, dict[str, list[str]]]) -> None:
    """hookd.socket holds the default socket, private, and the service requires it."""
    socket_unit = parse_unit(SOCKET.read_text("utf-8"))
    assert socket_unit["Socket"]["ListenStream"] == ["%t/hookd/hookd.sock"]
    assert socket_unit["Socket"]["SocketMode"] == ["0600"]
    assert socket_unit["Socket"]["DirectoryMode"] == ["0700"]
    assert socket_unit["Install"]["WantedBy"] == ["sockets.target"]
    assert unit["Unit"]["Requires"] == ["hookd.socket"]
    assert unit["Service"]["WatchdogSec"] == ["30"]


def test_service_restart_policy(unit: dict[str, dict[str, list[str]]]) -> None:
    """hookd is restarted after failures only, a second later."""
    assert unit["Service"]["Restart"] == ["on-failure"]
    assert unit["Service"]["RestartSec"] == ["1"]


def test_service_environment(unit: dict[str, dict[str, list[str]]]) -> None:
    """Python output is unbuffered so log lines reach the journal at once."""
    assert "PYTHONUNBUFFERED=1" in unit["Service"]["Environment"]


def test_service_has_no_user_or_group(unit: dict[str, dict[str, list[str]]]) -> None:
    """A user unit sets no User= or Group= (meaningless there)."""
    for section, options in unit.items():
        assert "User" not in options, section
        assert "Group" not in options, section


def test_service_is_wanted_by_default_target(unit: dict[str, dict[str, list[str]]]) -> None:
    """`systemctl --user enable` hooks the unit into the user's default.target."""
    assert unit["Install"]["WantedBy"] == ["default.target"]


def test_plist_placeholders_are_the_documented_ones() -> None:
    """The plist template uses exactly the placeholders the README tells you to fill."""
    text = PLIST.read_text("utf-8")
    assert set(re.findall(r"@[A-Z_]+@", text)) == set(PLACEHOLDERS)
    readme = (PACKAGING / "README.md").read_text("utf-8")
    for placeholder in PLACEHOLDERS:
        assert f"`{placeholder}`" in readme, placeholder


def test_plist_label_and_program(plist: dict[str, Any]) -> None:
    """The agent is dev.hookd and runs `<absolute hookd> serve`."""
    assert plist["Label"] == "dev.hookd"
    assert PLIST.name == f"{plist['Label']}.plist"
    assert plist["ProgramArguments"] == [
        PLACEHOLDERS["@HOOKD_BIN@"],
        "--socket",
        PLACEHOLDERS["@SOCKET@"],
        "serve",
    ]
    assert plist["EnvironmentVariables"]["HOOKD_SOCKET"] == PLACEHOLDERS["@SOCKET@"]


def test_plist_keep_alive_and_logs(plist: dict[str, Any]) -> None:
    """The agent starts at load, is restarted on failure and logs stderr to a file."""
    assert plist["RunAtLoad"] is True
    keep_alive = plist["KeepAlive"]
    assert keep_alive == {"SuccessfulExit": False} or keep_alive == {"Crashed": True}
    assert plist["ProcessType"] == "Interactive"
    assert plist["EnvironmentVariables"]["PATH"] == PLACEHOLDERS["@PATH@"]
    assert plist["StandardErrorPath"] == PLACEHOLDERS["@HOME@"] + "/Library/Logs/hookd.log"


def test_systemd_analyze_verify(tmp_path: Path) -> None:
    """`systemd-analyze --user verify` accepts the unit (ExecStart pointed at a stub)."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not on PATH (not a systemd system)")
    stub = tmp_path / "bin" / "hookd"
    stub.parent.mkdir()
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(stub.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    text = SERVICE.read_text("utf-8").replace("@HOOKD_BIN@", str(stub))
    unit_dir = tmp_path / "units"
    unit_dir.mkdir()
    copy = unit_dir / SERVICE.name
    copy.write_text(text)
    (unit_dir / SOCKET.name).write_text(SOCKET.read_text("utf-8"))
    runtime_dir = tmp_path / "run"  # the user manager needs one; CI has no login session
    runtime_dir.mkdir(mode=0o700)
    env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime_dir), "SYSTEMD_LOG_COLOR": "0"}
    result = subprocess.run(
        [analyze, "--user", "verify", str(unit_dir / SOCKET.name), str(copy)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    output = result.stdout + result.stderr
    # verify exits 0 on mere warnings (unknown keys, bad values): fail on those too.
    complaints = [line for line in output.splitlines() if "hookd." in line]
    assert result.returncode == 0, output
    assert complaints == [], output


def test_service_sets_the_open_files_limit(unit: dict[str, dict[str, list[str]]]) -> None:
    """systemd's default soft limit (1024) is too few for a shared daemon under load;
    the soft part stays 1024 for hooks, hookd raises itself to the hard part."""
    assert unit["Service"]["LimitNOFILE"] == ["1024:65536"]


def test_plist_sets_the_open_files_limit(plist: dict[str, Any]) -> None:
    assert plist["SoftResourceLimits"] == {"NumberOfFiles": 1024}
    assert plist["HardResourceLimits"] == {"NumberOfFiles": 65536}
