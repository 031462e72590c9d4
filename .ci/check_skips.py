"""Fail CI when tests skip for a reason not listed in ``.ci/known-skips``, or for a listed
reason more often than it allows: a skip that nobody expected (a tool the install step
failed to install, a fixture that can no longer run here) must not pass as green.

    python .ci/check_skips.py REPORT.xml [REPORT.xml ...]

Each report is pytest's ``--junitxml``. Standard library only.
"""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ElementTree
from collections import Counter
from pathlib import Path

KNOWN = Path(__file__).with_name("known-skips")


def known_reasons() -> list[tuple[int, re.Pattern[str], str]]:
    """``(most, pattern, line)`` for each line of ``known-skips``: ``MOST REGEX``."""
    reasons = []
    for line in KNOWN.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            most, pattern = line.strip().split(maxsplit=1)
            reasons.append((int(most), re.compile(pattern), line.strip()))
    return reasons


def skips(report: Path) -> list[tuple[str, str]]:
    """``(test, reason)`` of every skipped test in a JUnit report."""
    found = []
    for case in ElementTree.parse(report).iter("testcase"):
        skipped = case.find("skipped")
        if skipped is not None:
            reason = skipped.get("message") or skipped.text or ""
            found.append((f"{case.get('classname')}::{case.get('name')}", reason))
    return found


def main(reports: list[str]) -> int:
    reasons = known_reasons()
    counted: Counter[str] = Counter()
    unknown = []
    total = 0
    for report in reports:
        for test, reason in skips(Path(report)):
            total += 1
            match = next((line for _most, p, line in reasons if p.search(reason)), None)
            if match is None:
                unknown.append(f"{test}: {reason}")
            else:
                counted[match] += 1
    over = [f"{counted[line]} skips (at most {most}) for: {line}"
            for most, _p, line in reasons if counted[line] > most]  # fmt: skip
    for line in unknown:
        print(f"unexpected skip: {line}", file=sys.stderr)
    for line in over:
        print(f"too many skips: {line}", file=sys.stderr)
    if unknown or over:
        print(f"{len(unknown)} unexpected and {len(over)} over-counted skip reason(s): list a "
              f"real one in {KNOWN} (with why it cannot run in CI), or fix what made the "
              "tests skip", file=sys.stderr)  # fmt: skip
        return 1
    print(f"skips: {total}, every one for a known reason ({dict(counted) or 'none'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
