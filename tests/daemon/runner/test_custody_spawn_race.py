"""The subreaper sweep and hooks being spawned at the same moment: ``open_process``
forks in a thread, so a sweep could see a leader before it was adopted, and either kill
it as an escapee (exit -9) or reap it if it had already exited, taking the exit status
its runner needed (a denying hook then read as "exit 0": allowed). Many concurrent
fires of quick denying hooks, against a real daemon that is a subreaper, under each
platform launcher (``runner/launch.py``; the race was ``TRIO``'s)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from hookd.daemon.runner import launch
from hookd_testing import claude_settings, command, write_json
from hookd_testing.process_daemon import process_daemon


def test_concurrent_quick_hooks_keep_their_exit_status(
    tmp_path: Path, platform: launch.Launcher[Any], serve_prefix: list[str]
) -> None:
    root = tmp_path / "ws"
    hooks = [command(f"cat >/dev/null; echo no{i} >&2; exit 2") for i in range(10)]
    write_json(root / ".claude/settings.json", claude_settings("PreToolUse", *hooks))
    with process_daemon(tmp_path, prefix=serve_prefix) as daemon:
        assert daemon.status()["pid"] == daemon.pid
        assert f"hook launcher at the seam: {platform.name}" in daemon.log.read_text()

        def fire(_: int) -> dict[str, Any]:
            return daemon.fire("claude", "PreToolUse", [str(root)], {"tool_name": "Bash"})

        with ThreadPoolExecutor(16) as pool:
            results = list(pool.map(fire, range(48)))
        killed = daemon.status()["processes"]["escapeesKilled"]

    codes = {h["exitCode"] for r in results for h in r["hooks"]}
    assert codes == {2}
    assert all(r["blocked"] is True for r in results)
    assert killed == 0  # no hook of ours mistaken for an escapee
