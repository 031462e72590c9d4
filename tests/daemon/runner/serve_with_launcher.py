"""``python -P serve_with_launcher.py NAME PYTHON -m hookd ARGS...``: run ``hookd ARGS...``
in this process with the platform launcher NAME at the seam (``launch.BASE``, where a
wrapper would go), so that a real ``hookd serve`` (``process_daemon``, this file and its
NAME as the prefix) starts its hooks through each launcher. Says which on stderr."""

from __future__ import annotations

import sys

from hookd.daemon.cli.main import main
from hookd.daemon.runner import launch

name, _python, dash_m, module, *args = sys.argv[1:]
if (dash_m, module) != ("-m", "hookd"):
    raise SystemExit(f"usage: {__doc__}")
launch.BASE = next(each for each in launch.USABLE if each.name == name)
print(f"hook launcher at the seam: {launch.BASE.name}", file=sys.stderr, flush=True)
raise SystemExit(main(args))
