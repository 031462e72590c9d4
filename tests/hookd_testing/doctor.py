"""Running ``hookd doctor --json`` as a person would, for the tests that read its report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from .cli import HOOKD


def doctor(*args: str, **env: str) -> tuple[int, dict[str, Any]]:
    done = subprocess.run([*HOOKD, "doctor", "--json", *args], capture_output=True, text=True,
                          timeout=120, env={**os.environ, **env})  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)


def problems(report: dict[str, Any], area: str | None = None) -> list[dict[str, Any]]:
    return [f for f in report["findings"]
            if f["level"] == "problem" and area in (None, f["area"])]  # fmt: skip


def run_fix(fix: str, **env: str) -> None:
    """The fixing command as a person pastes it (its first form, before any '(or: ...)'),
    with this installation's ``hookd`` first on ``PATH`` (``env``'s, else this one's)."""
    command = fix.split("  (")[0]
    path = env.get("PATH", os.environ["PATH"])
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **env,
                               "PATH": f"{Path(sys.executable).parent}{os.pathsep}{path}"})  # fmt: skip
    assert done.returncode == 0, done.stderr
