"""``hookd validate [DIR...]``: the hook configuration of those workspaces (default: the
current folder) and the user's, checked with every agent's reader; exit 1 on a finding.

It reads the files itself (no daemon needed: usable in CI and pre-commit) and imports
the dialect readers, never trio.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from ..all_dialects import DIALECTS
from ..errors import UserError
from ..settings import load_settings
from ..validate import validate


def run_validate(args: argparse.Namespace) -> int:
    roots = [os.path.realpath(d) for d in args.dirs] or [os.path.realpath(os.getcwd())]
    for given, root in zip(args.dirs, roots, strict=False):
        if not os.path.isdir(root):
            raise UserError(f"not a directory: {given}: name a workspace folder to validate")
    settings = load_settings(args.config)
    checked = validate(DIALECTS, settings.home, settings.system_root, roots,
                       os.environ.get("PATH"))  # fmt: skip
    if args.json:
        problems = [finding.as_json() for finding in checked.findings]
        json.dump({"files": checked.files, "hooks": checked.hooks, "problems": problems},
                  sys.stdout, indent=2)  # fmt: skip
        sys.stdout.write("\n")
    else:
        for finding in checked.findings:
            print(f"[{', '.join(finding.dialects)}] {finding.source}: {finding.problem}")
        verdict = f"{len(checked.findings)} problem(s)" if checked.findings else "no problems"
        print(f"hookd: {verdict} in {checked.files} file(s) with {checked.hooks} hook(s)",
              file=sys.stderr)  # fmt: skip
    return 1 if checked.findings else 0
