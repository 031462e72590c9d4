"""The README's "When a hook does not do what you expect" block, run as it stands (its
``/tmp/why`` moved into the test's folder) against a real daemon: each of its commands
says what the comments beside it promise."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
HEADING = "## When a hook does not do what you expect"


def the_block() -> str:
    text = README.read_text("utf-8")
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    found = re.search(r"```sh\n(.*?)```", section, re.S)
    assert found, "the section has no ```sh block"
    return found.group(1)


def test_the_readme_block_says_why(served, tmp_path: Path, isolated_home: Path) -> None:
    path, _ = served
    folder = tmp_path / "why"
    script = the_block().replace("/tmp/why", str(folder))
    env = {**os.environ, "HOOKD_SOCKET": path,
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}  # fmt: skip

    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env,
                          timeout=120, cwd=tmp_path)  # fmt: skip

    out, err = done.stdout, done.stderr
    assert done.returncode == 0, err
    # 1. validate
    assert f"{folder}/guard.sh does not exist" in out, out
    # 2. explain
    assert "why: its matcher 'bash' does not match the tool 'Bash'" in out
    assert "(did you mean 'Bash'?)" in out
    # 3. fire: the failed hook's line on stderr, with its last line of output
    said = 'failed: Failed with non-blocking status code 1: no guard configured for {"session'
    assert err.count(said) == 2, err
    # 4. logs --show last (its payload and the hook's output), then the replay (above: twice)
    assert 'payload: {"session_id":"example-session"' in out
    assert "no guard configured for" in out
    trace = (folder / "trace.html").read_text()
    assert "<svg" in trace
    assert "failed" in trace
