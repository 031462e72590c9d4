"""The README's "Run it as a service" block, run as it stands, against the real
``systemd-socket-activate`` behind a stand-in for the user manager (``user_manager.py``:
no ``systemd --user`` can run in this container or in CI, the system not being booted
with systemd): each command says what its comment promises, and the daemon that answers
``hookd status`` is the service's, started by its socket."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from hookd_testing.activation import fake_systemctl, needs_activate, stop_manager

README = Path(__file__).resolve().parents[2] / "README.md"
HEADING = "## Run it as a service"


def the_block() -> str:
    section = README.read_text("utf-8").split(HEADING, 1)[1].split("\n## ", 1)[0]
    found = re.search(r"```sh\n(.*?)```", section, re.S)
    assert found, "the section has no ```sh block"
    return found.group(1)


@needs_activate
def test_the_readme_service_block(tmp_path: Path, short_dir: Path) -> None:
    manager = fake_systemctl(tmp_path)
    home = tmp_path / "home"
    runtime = short_dir / "run"
    runtime.mkdir(mode=0o700)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOOKD_", "XDG_"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
               XDG_RUNTIME_DIR=str(runtime), HOOKD_TEST_MANAGER=str(manager),
               PATH=f"{tmp_path / 'bin'}:{Path(sys.executable).parent}:{os.environ['PATH']}")  # fmt: skip
    units = home / ".config" / "systemd" / "user"
    commands = [line.split("#")[0].strip() for line in the_block().splitlines() if line.strip()]
    outputs = []
    held_by = ""
    try:
        for line in commands:
            done = subprocess.run(["bash", "-c", line], env=env, capture_output=True,
                                  text=True, timeout=120)  # fmt: skip
            assert done.returncode == 0, (line, done.stdout, done.stderr)
            outputs.append(done.stdout)
            if line == "hookd status":
                held_by = (manager / "pid").read_text()  # the activator, exec'd into hookd
    finally:
        stop_manager(manager)
    dry, first, second, status, daemon, removed = outputs
    assert f"--- write {units / 'hookd.socket'}\n" in dry
    assert "--- run systemctl --user enable --now hookd.socket hookd.service" in dry
    assert f"wrote {units / 'hookd.service'}" in first
    assert "ran systemctl --user enable --now hookd.socket hookd.service" in first
    assert "hookd service: nothing changed" in second
    assert "runs hookd  systemd (socket listening" in status
    assert f"socket      {runtime}/hookd/hookd.sock" in status
    assert f"pid {held_by} " in daemon  # the daemon started by the socket answered
    assert "hookd service: uninstalled (systemd)" in removed
    assert not (units / "hookd.socket").exists()
    calls = (manager / "calls").read_text().splitlines()
    assert calls.count("--user daemon-reload") == 2
    assert "--user disable --now hookd.service hookd.socket" in calls
