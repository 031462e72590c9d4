"""Secrets kept out of what hookd writes down about a hook (its output's tail in a fire's
result and in the audit log): the values of the environment's variables whose names
say they hold a credential (``API_KEY``, ``GITHUB_TOKEN``, ``DB_PASSWORD``...), the
agent's (the fire's ``env``) and the daemon's. A hook that prints one shows
``[scrubbed: NAME]`` in its place.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

_SECRET_WORD = re.compile(
    r"(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|CREDENTIALS?|AUTH|COOKIE|"
    r"PRIVATE_KEY|ACCESS_KEY|SESSION_KEY|PAT)(?:_|$)"
)
MIN_SECRET_CHARS = 8
"""Shorter values are left: ``PASS=1`` would scrub every "1" of a hook's output."""


_KNOWN: dict[frozenset[tuple[str, str]], dict[str, str]] = {}
"""Each environment's secrets, by its items: an agent sends the same environment with
every event, and hashing it is a tenth of the cost of matching every name again."""
_KNOWN_MAX = 64


def secret_values(environments: Iterable[Mapping[str, str]]) -> dict[str, str]:
    """Value -> the variable it is the value of, for every credential-named variable."""
    found: dict[str, str] = {}
    for env in environments:
        key = frozenset(env.items())
        secrets = _KNOWN.get(key)
        if secrets is None:
            secrets = {}
            for name, value in env.items():
                if len(value) >= MIN_SECRET_CHARS and _SECRET_WORD.search(name.upper()):
                    secrets.setdefault(value, name)
            if len(_KNOWN) >= _KNOWN_MAX:
                _KNOWN.clear()
            _KNOWN[key] = secrets
        for value, name in secrets.items():
            found.setdefault(value, name)
    return found


def scrub(text: str, secrets: Mapping[str, str]) -> str:
    """``text`` with every secret value replaced by ``[scrubbed: NAME]`` (the longest
    first, so a secret inside another is not half replaced)."""
    for value in sorted(secrets, key=len, reverse=True):
        if value in text:
            text = text.replace(value, f"[scrubbed: {secrets[value]}]")
    return text
