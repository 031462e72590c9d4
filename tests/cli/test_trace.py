"""``hookd trace``: a fire of the audit log drawn as a timeline, rendered in headless
Chromium (in a loopback-only network namespace) and read back from the screenshot: each
hook's bar is where the record puts it, as long as its run, in its state's color."""

from __future__ import annotations

import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from agents.harness.netns import netns_argv
from hookd.daemon.cli import trace_command
from hookd_testing import claude_settings, command, write_json
from hookd_testing.cli import cli

CHROMIUM = "chromium-headless-shell"
PAYLOAD = json.dumps({"session_id": "t1", "tool_name": "Bash", "tool_input": {"command": "ls"}})


def _fired(path: str, workspace: Path) -> dict[str, Any]:
    write_json(workspace / ".claude" / "settings.json", claude_settings(
        "PreToolUse", command("sleep 0.6"), command("sleep 0.15; echo no >&2; exit 2"),
        command("sleep 0.3; exit 1"), matcher="Bash"))  # fmt: skip
    fired = cli(path, "fire", "PreToolUse", "--agent", "claude", "--workspace", str(workspace),
                "--quiet", stdin=PAYLOAD)  # fmt: skip
    assert fired.returncode == 2, fired.stderr
    shown = cli(path, "logs", "--show", "last", "--json")
    assert shown.returncode == 0, shown.stderr
    record: dict[str, Any] = json.loads(shown.stdout)
    return record


def _extent(image: Image.Image, y: int, color: str) -> tuple[int, int] | None:
    """The first and last x of ``color`` on row ``y`` (exact: the bars are flat fills)."""
    rgb = tuple(int(color[i : i + 2], 16) for i in (1, 3, 5))
    xs = [x for x in range(image.width) if image.getpixel((x, y))[:3] == rgb]
    return (xs[0], xs[-1]) if xs else None


@pytest.mark.skipif(shutil.which(CHROMIUM) is None,
                    reason=f"{CHROMIUM} is not installed (.ci/run installs it)")  # fmt: skip
def test_the_timeline_is_where_the_record_says(served, workspace, tmp_path: Path) -> None:
    path, _ = served
    record = _fired(path, workspace)
    page = tmp_path / "trace.html"
    drawn = cli(path, "trace", "last", "-o", str(page))
    assert drawn.returncode == 0, drawn.stderr
    at = trace_command.layout(record)
    shot = tmp_path / "trace.png"

    rendered = subprocess.run(
        netns_argv([CHROMIUM, "--no-sandbox", "--headless", "--hide-scrollbars",
                    f"--window-size={trace_command.WIDTH},{at.height}",
                    f"--screenshot={shot}", page.as_uri()]),
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip

    assert rendered.returncode == 0, rendered.stderr
    image = Image.open(shot).convert("RGB")
    states = {bar.index: bar.state for bar in at.bars}
    assert states == {0: "ok", 1: "blocked", 2: "failed"}
    for bar in at.bars:
        found = _extent(image, bar.y + trace_command.ROW // 2, trace_command.COLORS[bar.state])
        assert found is not None, f"hook {bar.index}: no {bar.state} bar in the screenshot"
        left, right = found
        expected_left = at.x(bar.start_ms + bar.queued_ms)
        assert abs(left - expected_left) <= 2, (bar, found)
        assert abs((right - left + 1) - bar.run_ms * at.scale) <= 3, (bar, found)


def test_the_svg_is_well_formed_and_names_the_verdict(served, workspace) -> None:
    path, _ = served
    record = _fired(path, workspace)

    drawn = cli(path, "trace", "--svg", "-o", "-")

    assert drawn.returncode == 0, drawn.stderr
    root = ET.fromstring(drawn.stdout)
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert f"#{record['seq']} claude PreToolUse Bash" in texts
    assert any(t.startswith("deny: 3 hook(s)") for t in texts), texts
    runs = [r for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.get("class") == "run"]
    assert len(runs) == 3
    missing = cli(path, "trace", "9999")
    assert missing.returncode == 1
    assert "no fire #9999" in missing.stderr
