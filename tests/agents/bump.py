"""Move a pinned agent to another version and say which cases changed.

    python tests/agents/bump.py claude-code 2.1.340      # or cline-sdk, cline, auggie, codex, gemini
    python tests/agents/bump.py claude-code 2.1.340 --dry-run   # run both, pin nothing

It runs the agent's suite at the pinned version, pins the new one in versions.json (the
one place that names it), installs it (install.sh) and runs the suite again, then prints
every case whose outcome changed: those are the places where the new agent behaves
differently, to match in hookd and record in docs/compatibility.md. With --dry-run, or
when the new version cannot be installed, versions.json is left as it was.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from pathlib import Path

HERE = Path(__file__).parent
VERSIONS = HERE / "versions.json"
SUITES = {"claude-code": "claude", "cline-sdk": "cline_sdk", "cline": "cline", "auggie": "augment",
          "codex": "codex", "gemini": "gemini", "copilot": "copilot",
          "droid": "droid", "qwen": "qwen"}  # fmt: skip
"""Each pinned agent's suite folder under tests/agents/."""


def outcomes(agent: str) -> dict[str, str]:
    """Each case of the agent's suite and its outcome (passed, failed, error, skipped)."""
    suite = HERE / SUITES[agent]
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.xml"
        subprocess.run(
            [sys.executable, "-m", "pytest", str(suite), "-q", "-p", "no:cacheprovider",
             f"--junitxml={report}"],
            cwd=HERE.parents[1], check=False,
        )  # fmt: skip
        if not report.exists():
            raise SystemExit(f"bump: the {agent} suite did not run (see pytest's output above)")
        found: dict[str, str] = {}
        for case in ElementTree.parse(report).iter("testcase"):
            outcome = "passed"
            for child in case:
                if child.tag in ("failure", "error", "skipped"):
                    outcome = {"failure": "failed"}.get(child.tag, child.tag)
            found[case.get("name", "?")] = outcome
        return found


def changes(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """One line per case whose outcome is not the same in both runs."""
    lines = []
    for name in sorted(before.keys() | after.keys()):
        old, new = before.get(name, "absent"), after.get(name, "absent")
        if old != new:
            lines.append(f"{name}: {old} -> {new}")
    return lines


def pin(versions: dict[str, str]) -> None:
    text = json.dumps(versions, indent=2) + "\n"
    partial = VERSIONS.with_suffix(".tmp")
    partial.write_text(text)
    os.replace(partial, VERSIONS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agent", choices=sorted(SUITES), help="the pinned agent to move")
    parser.add_argument("version", help="the npm version to pin, e.g. 2.1.340")
    parser.add_argument("--dry-run", action="store_true", help="run both, keep the old pin")
    args = parser.parse_args(argv)
    versions: dict[str, str] = json.loads(VERSIONS.read_text())
    old = versions[args.agent]
    if old == args.version:
        print(f"bump: {args.agent} is already pinned at {old}")
        return 0
    print(f"== {args.agent} {old}: the suite as pinned")
    before = outcomes(args.agent)
    pin({**versions, args.agent: args.version})
    try:
        installed = subprocess.run(["bash", str(HERE / "install.sh")], check=False).returncode
        if installed != 0:
            pin(versions)
            print(f"bump: {args.agent} {args.version} could not be installed; "
                  f"the pin stays at {old}", file=sys.stderr)  # fmt: skip
            return 1
        print(f"== {args.agent} {args.version}: the same suite")
        after = outcomes(args.agent)
    finally:
        if args.dry_run:
            pin(versions)
    changed = changes(before, after)
    print(f"\n{len(changed)} of {len(after)} cases changed from {old} to {args.version}:")
    print("\n".join(changed) or "(none)")
    kept = old if args.dry_run else args.version
    print(f"\nversions.json pins {args.agent} {kept}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
