"""``hookd doctor`` on real set-ups: real daemons on real sockets, real relay entries
written by ``hookd adopt``, real agents' ``--version``. Each problem it finds exits 1 and
names a command, and that command, run, makes the problem go away."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookd.daemon.cli import relay_program
from hookd_testing import write_executable, write_json
from hookd_testing.alone import namespace, with_daemon
from hookd_testing.cli import HOOKD, connectable
from hookd_testing.doctor import doctor, problems, run_fix

GUARD = {"type": "command", "command": "echo no >&2; exit 2"}


@pytest.fixture
def second_daemon(
    isolated_home: Path, tmp_path: Path
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A second ``hookd serve`` on a socket of its own, as the relay starts one for an
    agent whose environment names another socket."""
    folder = Path(tempfile.mkdtemp(prefix="hk2", dir="/tmp"))
    path = str(folder / "other.sock")
    with open(tmp_path / "second.log", "wb") as log:
        process = subprocess.Popen([*HOOKD, "--socket", path, "serve", "--home",
                                    str(isolated_home), "--log-format", "json"], stderr=log)  # fmt: skip
    deadline = time.monotonic() + 60
    while not connectable(path):
        assert process.poll() is None, (tmp_path / "second.log").read_text()
        assert time.monotonic() < deadline, "the second hookd did not listen within 60 s"
        time.sleep(0.01)
    yield path, process
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=20)
    shutil.rmtree(folder, ignore_errors=True)


def test_a_second_daemon_is_found_with_its_socket_and_the_command_that_stops_it(
    served, second_daemon
) -> None:
    path, first = served
    other, process = second_daemon

    code, report = doctor(HOOKD_SOCKET=path)

    assert code == 1
    answering = next(f for f in report["findings"] if f["area"] == "daemon" and f["level"] == "ok")
    assert answering["details"] == {"pid": first.pid, "socket": path, "version": "0.1.0"}
    [found] = [f for f in problems(report, "daemon") if f["details"]["pid"] == process.pid]
    assert found["details"]["sockets"] == [other]
    assert f"listens on {other}" in found["text"]
    assert found["fix"] == f"hookd --socket {other} shutdown  (or: kill {process.pid})"
    human = subprocess.run([*HOOKD, "doctor"], capture_output=True, text=True, timeout=120,
                           env={**os.environ, "HOOKD_SOCKET": path})  # fmt: skip
    assert human.returncode == 1
    assert f"fix:     hookd --socket {other} shutdown" in human.stdout

    run_fix(found["fix"])

    assert process.wait(timeout=30) == 0
    code, report = doctor(HOOKD_SOCKET=path)
    assert not [f for f in problems(report, "daemon") if f["details"].get("pid") == process.pid]


def test_a_relay_entry_naming_a_relay_that_is_gone_is_found_and_fixed(isolated_home) -> None:
    settings = write_json(isolated_home / ".claude" / "settings.json",
                          {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [GUARD]}]}})  # fmt: skip
    adopted = subprocess.run([*HOOKD, "adopt", "--agent", "claude"], capture_output=True,
                             text=True, timeout=60)  # fmt: skip
    assert adopted.returncode == 0, adopted.stderr
    assert not problems(doctor()[1], "relay")
    text = settings.read_text()
    assert f"{relay_program.relay_path()} claude" in text
    settings.write_text(text.replace(relay_program.relay_path(), "/nonexistent/bin/hookd-relay"))

    code, report = doctor()

    assert code == 1
    [found] = problems(report, "relay")
    assert found["text"].startswith("claude user: the relay entries name "
                                    "/nonexistent/bin/hookd-relay, which does not exist")  # fmt: skip
    assert found["fix"] == "hookd relay install --agent claude --scope user"
    run_fix(found["fix"])
    assert not problems(doctor()[1], "relay")


def test_relay_entries_missing_an_adopted_matcher_or_standing_for_nothing(isolated_home) -> None:
    settings = write_json(isolated_home / ".claude" / "settings.json",
                          {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [GUARD]}]}})  # fmt: skip
    assert subprocess.run([*HOOKD, "adopt", "--agent", "claude"], timeout=60).returncode == 0
    entries = json.loads(settings.read_text())
    entries["hooks"]["PreToolUse"][0]["matcher"] = "Read"
    write_json(settings, entries)

    [found] = problems(doctor()[1], "relay")
    assert found["text"] == ("claude user: the relay entries do not carry the events and "
                             "matchers of the hooks hookd holds")  # fmt: skip
    assert '+    "matcher": "Bash"' in found["details"]["differences"]
    shutil.rmtree(isolated_home / ".config" / "hookd" / "claude")  # the adopted hooks gone

    [found] = problems(doctor()[1], "relay")
    assert "relay entries are left, but no hook is adopted there" in found["text"]
    assert found["fix"] == "hookd relay uninstall --agent claude --scope user"
    run_fix(found["fix"])
    assert not problems(doctor()[1], "relay")


def test_relay_entries_for_portable_hooks_alone_are_right(isolated_home) -> None:
    """Relay entries that carry only the portable hooks (nothing adopted) are what relay
    install writes: no "stand for nothing ... uninstall" advice that would remove the guard;
    a portable hook for an event the entries lack is a problem whose fix adds it."""
    portable = write_json(isolated_home / ".config" / "hookd" / "hooks.json",
                          {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [GUARD]}]}})  # fmt: skip
    assert subprocess.run([*HOOKD, "relay", "install", "--agent", "claude"],
                          timeout=60).returncode == 0  # fmt: skip

    assert not [f for f in problems(doctor()[1], "relay") if f["text"].startswith("claude user")]

    write_json(portable, {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [GUARD]}],
                                    "Stop": [{"hooks": [GUARD]}]}})  # fmt: skip
    [found] = [f for f in problems(doctor()[1], "relay") if f["text"].startswith("claude user")]
    assert found["fix"] == "hookd relay install --agent claude --scope user"
    run_fix(found["fix"])
    assert not [f for f in problems(doctor()[1], "relay") if f["text"].startswith("claude user")]


def test_a_cline_relay_file_of_another_installation_in_a_project(tmp_path, isolated_home) -> None:
    """A hook folder's relay file (Cline), checked in the --workspace project."""
    project = tmp_path / "project"
    write_executable(project / ".clinerules" / "hooks" / "PreToolUse",
                     "#!/bin/sh\necho '{\"cancel\": true}'\n")  # fmt: skip
    adopt = [*HOOKD, "adopt", "--agent", "cline", "--scope", "project", "--project", str(project)]
    assert subprocess.run(adopt, timeout=60).returncode == 0
    assert not problems(doctor("--workspace", str(project))[1], "relay")
    relay_file = project / ".clinerules" / "hooks" / "PreToolUse"
    other = write_executable(tmp_path / "old-venv" / "bin" / "hookd-relay", "#!/bin/sh\n")
    relay_file.write_text(relay_file.read_text().replace(relay_program.relay_path(), str(other)))

    code, report = doctor("--workspace", str(project))

    assert code == 1
    [found] = problems(report, "relay")
    assert f"the relay entries name {other}, another installation's" in found["text"]
    assert found["fix"] == (f"hookd relay install --agent cline --scope project --project "
                            f"{project}")  # fmt: skip
    run_fix(found["fix"])
    assert not problems(doctor("--workspace", str(project))[1], "relay")


def test_a_clean_set_up_exits_0(isolated_home, tmp_path, short_dir) -> None:
    """A daemon on the default socket, hooks adopted with their relay entries written:
    nothing to fix. Run in a pid namespace where one can be made, so that other tests'
    daemons (of this same user) are not this set-up's; elsewhere they are left out."""
    write_json(isolated_home / ".claude" / "settings.json",
               {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [GUARD]}]}})  # fmt: skip
    assert subprocess.run([*HOOKD, "adopt", "--agent", "claude"], timeout=60).returncode == 0
    script = with_daemon(f"{shlex.join(HOOKD)} doctor --json", isolated_home,
                         tmp_path / "serve.log")  # fmt: skip
    env = {**os.environ, "XDG_RUNTIME_DIR": str(short_dir)}

    done = subprocess.run([*namespace(), "bash", "-c", script], capture_output=True, text=True,
                          timeout=180, env=env)  # fmt: skip

    report = json.loads(done.stdout)
    daemon = next(f for f in report["findings"] if f["area"] == "daemon")
    assert daemon["level"] == "ok", (daemon, (tmp_path / "serve.log").read_text())
    assert daemon["details"]["socket"] == str(short_dir / "hookd" / "hookd.sock")
    found = problems(report)
    others = [f for f in found if f["area"] == "daemon" and "another hookd daemon" in f["text"]]
    if namespace():
        assert found == []
        assert done.returncode == 0
    else:  # other tests' daemons may run beside this one: only those may be reported
        assert found == others
    relay = [f for f in report["findings"] if f["area"] == "relay"]
    assert [f["level"] for f in relay] == ["ok"]
    assert relay[0]["text"].startswith("claude user: the relay entries are this installation's")


def test_a_trust_store_others_may_write_is_a_problem_until_fixed(isolated_home) -> None:
    store = isolated_home / ".local" / "state" / "hookd" / "trust.json"
    store.parent.mkdir(parents=True)
    store.write_text('{"version": 1, "workspaces": {}}')
    store.chmod(0o666)

    code, report = doctor()

    assert code == 1
    [found] = problems(report, "state")
    assert f"{store} is world-writable" in found["text"]
    assert found["fix"] == f"chmod go-w {store}"
    run_fix(found["fix"])
    assert not problems(doctor()[1], "state")


def test_an_agent_at_another_version_or_one_that_hangs(tmp_path) -> None:
    """Another version: a warning with the install command of the pinned one (exit 0);
    an agent whose ``--version`` never ends is killed, its whole process group, and
    doctor still answers."""
    bin_dir = tmp_path / "bin"
    write_executable(bin_dir / "claude", "#!/bin/sh\necho '9.9.9 (Claude Code)'\n")
    write_executable(bin_dir / "codex", f"#!/bin/sh\necho $$ > {tmp_path}/codex.pid\n"
                     "sleep 600 & wait\n")  # fmt: skip
    began = time.monotonic()

    code, report = doctor("--version-timeout", "5",
                          PATH=f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin")  # fmt: skip

    assert time.monotonic() - began < 60
    agents = {f["details"]["program"]: f for f in report["findings"]
              if f["area"] == "agent" and f.get("details")}  # fmt: skip
    assert agents["claude"]["level"] == "warning"
    assert agents["claude"]["text"].startswith("claude 9.9.9 (")
    assert agents["claude"]["fix"] == "npm install -g @anthropic-ai/claude-code@2.1.328"
    assert agents["codex"]["level"] == "warning"
    assert "did not print its version within 5 s (killed)" in agents["codex"]["text"]
    assert not Path(f"/proc/{(tmp_path / 'codex.pid').read_text().strip()}").exists()
    assert code == 0 or all(f["area"] != "agent" for f in problems(report))
