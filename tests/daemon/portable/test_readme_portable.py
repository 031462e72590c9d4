"""The README's portable guard, as printed there, guards each agent hookd speaks."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hookd.daemon.all_dialects import PORTABLE
from hookd.daemon.cli.fire_inputs import example

README = Path(__file__).resolve().parents[3] / "README.md"


def readme_guard() -> dict:
    text = README.read_text()
    found = re.search(r"<!-- portable-example -->\n```json\n(.*?)\n```", text, re.S)
    assert found, "the README's portable example is gone"
    return json.loads(found.group(1))


@pytest.mark.skipif(shutil.which("jq") is None, reason="the README's guard uses jq")
@pytest.mark.parametrize("agent", sorted(d.value for d in PORTABLE))
async def test_the_readme_guard_blocks_rm_rf_in_every_agent(
    agent: str, rpc, workspace, isolated_home
) -> None:
    guard = isolated_home / ".config" / "hookd" / "hooks.json"
    guard.parent.mkdir(parents=True)
    guard.write_text(json.dumps(readme_guard()))
    mapping = next(m for d, m in PORTABLE.items() if d.value == agent)
    event = next(own for own, shared in mapping.EVENTS.items() if shared == "PreToolUse")
    payload = example(agent, event, str(workspace))  # a shell tool running "rm -rf build"
    assert "rm -rf build" in json.dumps(payload)
    safe = json.loads(json.dumps(payload).replace("rm -rf build", "ls build"))

    blocked = await rpc.fire(agent, event, [str(workspace)], payload)
    passed = await rpc.fire(agent, event, [str(workspace)], safe)

    assert blocked["blocked"] is True, blocked
    assert f"rm -rf is not allowed ({agent})" in blocked["reason"]  # Copilot words it its way
    assert passed["blocked"] is False


def readme_install() -> list[str]:
    text = README.read_text()
    found = re.search(r"<!-- portable-install -->\n```sh\n(.*?)\n```", text, re.S)
    assert found, "the README's relay install block is gone"
    return found.group(1).splitlines()


@pytest.mark.skipif(shutil.which("jq") is None, reason="the README's guard uses jq")
def test_the_readme_install_reaches_every_agent(isolated_home, settings) -> None:
    """The README's block as written, in a fresh home with the guard in place: each
    agent's relay install succeeds (with nothing adopted: the portable hooks alone need the
    entries), and ``hookd hooks`` says the guard runs in every agent."""
    guard = isolated_home / ".config" / "hookd" / "hooks.json"
    guard.parent.mkdir(parents=True)
    guard.write_text(json.dumps(readme_guard()))
    script = "\n".join(readme_install())
    daemon = subprocess.Popen([sys.executable, "-m", "hookd", "--socket", settings.socket_path,
                               "serve", "--home", str(isolated_home)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    env = {**os.environ, "HOOKD_SOCKET": settings.socket_path, "HOOKD_NO_SPAWN": "1",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}  # fmt: skip
    try:
        for _ in range(600):
            ready = subprocess.run([sys.executable, "-m", "hookd", "status"], env=env,
                                   capture_output=True)  # fmt: skip
            if ready.returncode == 0:
                break
        done = subprocess.run(["bash", "-e", "-c", script], env=env, cwd=isolated_home,
                              capture_output=True, text=True, timeout=300)  # fmt: skip
    finally:
        daemon.terminate()
        daemon.wait(30)

    assert done.returncode == 0, done.stderr
    runs_in = next(line for line in done.stdout.splitlines() if "runs in:" in line)
    assert set(runs_in.split("runs in:")[1].replace(",", " ").split()) == {
        d.value for d in PORTABLE
    }
    claude = json.loads((isolated_home / ".claude" / "settings.json").read_text())
    (group,) = claude["hooks"]["PreToolUse"]
    assert group["matcher"] == "Bash"
    assert "hookd-relay" in group["hooks"][0]["command"]
    gemini = json.loads((isolated_home / ".gemini" / "settings.json").read_text())
    assert "run_shell_command" in gemini["hooks"]["BeforeTool"][0]["matcher"]
