"""Regenerate every file derived from the agent table and the protocol, or check them.

    python scripts/regenerate.py           # write what is stale
    python scripts/regenerate.py --check   # exit 1 naming what is stale (tests, CI)

* ``client/python/src/hookd/_relay_table.py``: what ``hookd-relay`` answers when hookd is
  down, from the agents' packages (``hookd.daemon.relay_table``), and the same table with
  the relay's words for the native relay, ``client/python/native/relay_table.h``;
* ``daemon/src/hookd/daemon/cli/agent_choices.py``: the ``--scope`` values and each
  agent's scopes, for the parser (``relay_commands.render_choices``);
* the ``Agent`` enum of ``protocol/src/hookd/protocol/openrpc.json``, from
  ``hookd.protocol.AGENTS``;
* the README's portable-hooks support matrix, from ``all_dialects.PORTABLE``
  (``hookd.daemon.portable_matrix``);
* ``packaging/systemd/hookd.{socket,service}`` and ``packaging/launchd/dev.hookd.plist``,
  what ``hookd service install`` writes, with placeholders (``hookd.daemon.service.shipped``);
* ``client/typescript/src/generated/protocol.ts``, from that document (``npm ci`` in
  ``client/typescript`` first; skipped, and said, without its packages).

Adding an agent (``docs/design.md``) ends with this command.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

from hookd.daemon.all_dialects import INTEGRATIONS
from hookd.daemon.cli.relay_commands import render_choices
from hookd.daemon.portable_matrix import render as render_matrix
from hookd.daemon.portable_matrix import replaced
from hookd.daemon.relay_table import render, render_c
from hookd.daemon.service.shipped import shipped
from hookd.protocol import AGENTS

REPO = Path(__file__).resolve().parents[1]
RELAY_TABLE = REPO / "client/python/src/hookd/_relay_table.py"
RELAY_TABLE_C = REPO / "client/python/native/relay_table.h"
CHOICES = REPO / "daemon/src/hookd/daemon/cli/agent_choices.py"
OPENRPC = REPO / "protocol/src/hookd/protocol/openrpc.json"
TYPESCRIPT = REPO / "client/typescript"
README = REPO / "README.md"


def openrpc_text() -> str:
    """The OpenRPC document with its ``Agent`` enum set to ``AGENTS``."""
    document = json.loads(OPENRPC.read_text())
    document["components"]["schemas"]["Agent"]["enum"] = list(AGENTS)
    return json.dumps(document, indent=2) + "\n"


def stale_python() -> dict[Path, str]:
    """The Python-side files whose text differs from what they should say."""
    wanted = {
        RELAY_TABLE: render(),
        RELAY_TABLE_C: render_c(),
        CHOICES: render_choices(INTEGRATIONS),
        OPENRPC: openrpc_text(),
        README: replaced(README.read_text(), render_matrix()),
        **{REPO / name: text for name, text in shipped().items()},
    }
    return {
        path: text for path, text in wanted.items() if not path.exists() or path.read_text() != text
    }


def typescript(check: bool) -> int:
    """Build the TypeScript client's scripts and run its generator (``--check``: compare)."""
    if shutil.which("npx") is None or not (TYPESCRIPT / "node_modules").is_dir():
        print("regenerate: client/typescript has no node_modules (run 'npm ci' there): the "
              "TypeScript types were not checked", file=sys.stderr)  # fmt: skip
        return 0
    subprocess.run(["npx", "--no-install", "tsc", "-p", "."], cwd=TYPESCRIPT, check=True)
    command = ["node", "dist/scripts/gen-protocol.js", *(["--check"] if check else [])]
    return subprocess.run(command, cwd=TYPESCRIPT).returncode


def _again() -> dict[Path, str]:
    """What is still stale once ``hookd.relay`` reads the relay table just written (the
    native relay's usage line names the agents from it: an agent added takes two rounds)."""
    import importlib

    import hookd._relay_table
    import hookd.relay

    importlib.reload(hookd._relay_table)
    importlib.reload(hookd.relay)
    return stale_python()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    parser.add_argument("--no-typescript", action="store_true", help="leave out the TS types")
    args = parser.parse_args()
    stale = stale_python()
    if args.check:
        for path in stale:
            print(f"regenerate: {path.relative_to(REPO)} is stale", file=sys.stderr)
    while stale and not args.check:
        for path, text in stale.items():
            path.write_text(text)
            print(f"regenerate: wrote {path.relative_to(REPO)}")
        stale = _again()
    code = 1 if args.check and stale else 0
    if not args.no_typescript:
        code = max(code, typescript(args.check))
    return code


if __name__ == "__main__":
    raise SystemExit(main())
