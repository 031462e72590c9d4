"""``hookd allow [DIR]`` and ``hookd deny [DIR]``: they write the trust store themselves
(the daemon need not run, and no RPC can grant trust), and refuse to from inside a hook.

They import the dialect readers (to hash what a workspace configures) but never trio.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping

from ..all_dialects import DIALECTS
from ..errors import UserError
from ..settings import load_settings
from ..trust.ancestry import hook_ancestor
from ..trust.snapshot import snapshot
from ..trust.store import Approval, TrustStore, store_path
from ..validate import validate


def _refuse_inside_a_hook(command: str) -> None:
    inside = hook_ancestor()
    if inside:
        raise UserError(
            f"hookd {command} refuses to run inside a hook ({inside}): trust is granted by "
            "a person, never by a hook. Run it yourself, in your own terminal"
        )


def _workspace(args: argparse.Namespace, verb: str) -> str:
    root = os.path.realpath(args.dir or os.getcwd())
    if not os.path.isdir(root):
        raise UserError(f"not a directory: {args.dir}: name the workspace folder to {verb}")
    return root


def run_allow(args: argparse.Namespace) -> int:
    _refuse_inside_a_hook("allow")
    root = _workspace(args, "allow")
    settings = load_settings(args.config)
    taken = snapshot(DIALECTS, settings.home, settings.system_root, root)
    store = TrustStore(store_path(settings.state_dir))
    before = store.approvals().get(root)
    store.allow(root, taken.files)
    relays = f" and {len(taken.relays)} relay entries" if taken.relays else ""
    print(f"hookd: allowed {root}: {len(taken.hooks)} hook(s){relays}, "
          f"{len(taken.files)} file(s)")  # fmt: skip
    for path in sorted(taken.files):
        print(f"  {path}")
    for dialect, event, command in taken.hooks:
        print(f"  [{dialect}] {event}: {command}")
    for dialect, event, command in taken.relays:
        print(f"  [{dialect}] {event}: {command} (relay entry, not run by hookd)")
    if not taken.files:
        print(
            f"hookd: {root} configures no hooks now; any hook added later waits for "
            "another hookd allow",
            file=sys.stderr,
        )
    for line in _changes(before, taken.files):
        print(f"hookd: {line}", file=sys.stderr)
    for problem in taken.problems:
        print(f"hookd: warning: {problem} (only the hooks listed above run)", file=sys.stderr)
    checked = validate(DIALECTS, settings.home, settings.system_root, [root],
                       os.environ.get("PATH"))  # fmt: skip
    for finding in checked.findings:
        inside = finding.source.startswith(root + os.sep)
        if inside and not any(finding.problem in problem for problem in taken.problems):
            where = ", ".join(finding.dialects)
            print(f"hookd: warning: [{where}] {finding.source}: {finding.problem}",
                  file=sys.stderr)  # fmt: skip
    for reason in taken.refused:
        print(f"hookd: warning: refused all the same: {reason}", file=sys.stderr)
    print(
        "hookd: any change to these files revokes this; run hookd allow again after reviewing it",
        file=sys.stderr,
    )
    return 0


def _changes(before: Approval | None, files: Mapping[str, str]) -> list[str]:
    """What changed since this workspace was last allowed, a line per file (the store
    keeps digests, not contents: which files, not which lines)."""
    if before is None or not before.allowed:
        return []
    lines = [
        f"changed since the last allow ({before.at}): {path}"
        for path, digest in files.items()
        if before.files.get(path) not in (None, digest)
    ]
    lines += [
        f"new since the last allow ({before.at}): {path}"
        for path in files
        if path not in before.files
    ]
    lines += [f"gone since the last allow ({before.at}): {path}"
              for path in before.files if path not in files]  # fmt: skip
    return lines


def run_deny(args: argparse.Namespace) -> int:
    _refuse_inside_a_hook("deny")
    root = _workspace(args, "deny")
    settings = load_settings(args.config)
    TrustStore(store_path(settings.state_dir)).deny(root)
    print(f"hookd: denied {root}: its hooks will not run (hookd allow to allow them)")
    return 0
