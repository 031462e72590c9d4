"""The README's "Check your set-up" block, each command run as written against a real
daemon on the default socket, alone in a pid namespace where one can be made (other
tests' daemons run as the same user): each says what the README promises."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from hookd_testing import write_json
from hookd_testing.alone import namespace, with_daemon
from hookd_testing.cli import HOOKD

README = Path(__file__).resolve().parents[2] / "README.md"
HEADING = "## Check your set-up"
MARK = "=== exit "


def the_commands() -> list[str]:
    section = README.read_text("utf-8").split(HEADING, 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "the section has no ```sh block"
    return [line.split("#", 1)[0].strip() for line in block.group(1).splitlines() if line.strip()]


def test_each_command_of_the_section_runs_as_written(isolated_home, tmp_path, short_dir) -> None:
    app = isolated_home / "src" / "app"
    write_json(app / ".claude" / "settings.json", {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 2"}]}]}})  # fmt: skip
    adopt = [*HOOKD, "adopt", "--agent", "claude", "--scope", "project", "--project", str(app)]
    assert subprocess.run(adopt, capture_output=True, timeout=60).returncode == 0
    commands = the_commands()
    assert [c.split()[:2] for c in commands] == [["hookd", "doctor"]] * 3
    script = "\n".join(f'{command}\necho "{MARK}$?"' for command in commands)
    env = {**os.environ, "XDG_RUNTIME_DIR": str(short_dir),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}  # fmt: skip

    done = subprocess.run([*namespace(), "bash", "-c",
                           with_daemon(script, isolated_home, tmp_path / "serve.log")],
                          capture_output=True, text=True, timeout=300, env=env,
                          cwd=isolated_home)  # fmt: skip

    assert done.returncode == 0, done.stderr
    outputs = re.split(rf"^{MARK}(\d+)$", done.stdout, flags=re.M)
    said = dict(zip(commands, zip(outputs[0::2], map(int, outputs[1::2]), strict=False),
                    strict=False))  # fmt: skip
    plain, in_project, as_json = (said[c] for c in commands)
    socket = short_dir / "hookd" / "hookd.sock"
    project_relay = f"claude project in {app}: the relay entries are this installation's"
    for out, code in (plain, in_project):
        assert f"answers on {socket} ($XDG_RUNTIME_DIR)" in out
        if namespace():  # alone: nothing to fix
            assert code == 0, out
            assert out.strip().splitlines()[-1].startswith("hookd doctor: no problems found")
    assert project_relay not in plain[0]
    assert f"ok       relay    {project_relay}" in in_project[0]
    report = json.loads(as_json[0])
    assert report["ok"] is (as_json[1] == 0)
    assert report["ok"] or not namespace()
    assert {f["area"] for f in report["findings"]} >= {"daemon", "service", "state", "relay"}
