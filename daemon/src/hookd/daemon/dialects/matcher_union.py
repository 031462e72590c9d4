"""One matcher for a relay entry that stands for several adopted groups: it must match
whatever any of their matchers matches (the agent then starts the relay only for what
the adopted hooks are for, not for every Read and Grep), and may match more, never less:
hookd's own selection runs only the hooks whose matcher matches.

Each agent reads matchers its own way, so each agent's ``integration`` builds its union
(``union_matcher``) from these pieces; Claude Code's is ``claude.rules.union_matcher``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

BACKREFERENCE = re.compile(r"\\[1-9]|\\k<")
"""A back-reference counts groups: another matcher's groups before it would move it."""


def distinct(
    matchers: Iterable[Any], everything: Iterable[str], strip: bool = False
) -> list[str] | None:
    """The distinct matchers of the groups, in order, or None when one of them matches
    everything (absent, not a string, or one of ``everything``); ``strip``: the agent
    trims a matcher first."""
    found: list[str] = []
    wide = set(everything)
    for matcher in matchers:
        if not isinstance(matcher, str):
            return None
        matcher = matcher.strip() if strip else matcher
        if matcher in wide:
            return None
        if matcher not in found:
            found.append(matcher)
    return found or None


def compiles(pattern: str) -> bool:
    """Whether a regular expression compiles (Python's reading stands for the agent's
    JavaScript or Rust one, as in the dialects' own matchers)."""
    try:
        re.compile(pattern)
    except re.error:
        return False
    return True


def alternation(patterns: list[str]) -> str | None:
    """Regular expressions as one that matches where any of them does (each a group of
    its own, so one's ``^`` or ``|`` stays its own); None when that cannot be promised (a
    pattern that does not compile, a back-reference)."""
    if any(not compiles(p) or BACKREFERENCE.search(p) for p in patterns):
        return None
    return patterns[0] if len(patterns) == 1 else "|".join(f"(?:{p})" for p in patterns)


def exactly(name: str) -> str:
    """A regular expression matching ``name`` and nothing else."""
    return f"^{re.escape(name)}$"
