"""The Python client's README: its first example, run as written against a real daemon,
prints what its comments say."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from hookd_testing import claude_settings, command, write_json

README = Path(__file__).resolve().parents[2] / "client" / "python" / "README.md"


def test_the_first_example_runs_as_written(served, workspace, tmp_path: Path) -> None:
    path, _ = served
    example = re.search(r"```python\n(.*?)```", README.read_text("utf-8"), re.S)
    assert example, "the client README has no python example"
    script = tmp_path / "first_fire.py"
    script.write_text(example.group(1))
    write_json(workspace / ".claude" / "settings.json", claude_settings(
        "PreToolUse", command("echo 'rm is not allowed here' >&2; exit 2"), matcher="Bash"))  # fmt: skip

    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=60, cwd=workspace, env={**os.environ, "HOOKD_SOCKET": path})  # fmt: skip

    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "block"
    assert "-> 2" in lines[1]
    assert lines[-1] == "blocked: rm is not allowed here"
    gone = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=60, cwd=workspace,
                          env={**os.environ, "HOOKD_SOCKET": str(tmp_path / "none.sock")})  # fmt: skip
    assert gone.returncode == 1
    assert gone.stderr.startswith("start the daemon first: ")
