"""A definition file's YAML frontmatter, read as Claude Code 2.1.328 reads it (pinned by
tests/agents/claude case ``subagent-frontmatter-yaml-1-2``).

The agent finds the block with ``/^---\\s*\\n([\\s\\S]*?)---\\s*\\n?/`` (after a byte-order
mark) and parses it with Bun's ``Bun.YAML.parse``: YAML 1.2 core-schema scalars, where
PyYAML's defaults are YAML 1.1's (``on``/``yes``/``no`` booleans, ``010`` octal, ``1_000``
and ``1:30`` numbers, timestamps). ``load`` uses a PyYAML loader whose implicit types
are the ones Bun gives, checked value by value against Bun 1.4.4 (the agent's):
``null``/``~``/empty, ``true``/``false`` in three spellings, decimal integers (leading
zeros allowed), ``0o``/``0x`` with an optional sign, floats with ``.inf``/``.nan``;
everything else is a string. A block that fails to parse is tried again as the agent
does, with unquoted ``key: value`` lines that hold YAML syntax quoted and leading tabs
made two spaces each.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import yaml

_BLOCK = re.compile(r"---\s*\n([\s\S]*?)---\s*\n?")
_LINE = re.compile(r"^([a-zA-Z_-]+):\s+(\S.*)$")
_NEEDS_QUOTES = re.compile(r"[{}[\]*&#!|>%@`]|: ")
_LEADING_TABS = re.compile(r"^\t+", re.MULTILINE)

_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_INT = re.compile(r"^(?:[-+]?[0-9]+|[-+]?0o[0-7]+|[-+]?0x[0-9a-fA-F]+)$")
_FLOAT = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)


def block(text: str) -> str | None:
    """The frontmatter's text, or None when the file has none."""
    text = text.removeprefix("\ufeff")
    if text.find("---", 3) < 0:
        return None
    found = _BLOCK.match(text)
    return found.group(1) if found else None


def load(front: str) -> Any:
    """The frontmatter's value; raises ``yaml.YAMLError`` when neither reading parses."""
    import yaml  # only once a definition is read: the daemon starts without it

    loader = _loader()
    try:
        return yaml.load(front, Loader=loader)
    except yaml.YAMLError:
        retried = _LEADING_TABS.sub(lambda m: "  " * len(m[0]), _quoted(front))
        return yaml.load(retried, Loader=loader)


def _quoted(front: str) -> str:
    """The agent's second try: each ``key: value`` line whose unquoted value holds YAML
    syntax (``: ``, ``#``, brackets...) gets the value double-quoted; a flow list that
    parses is left alone."""
    return "\n".join(_quoted_line(line) for line in front.split("\n"))


def _quoted_line(line: str) -> str:
    found = _LINE.match(line)
    if found is None:
        return line
    key, value = found.groups()
    if any(value.startswith(q) and value.endswith(q) for q in ('"', "'")):
        return line
    if value.startswith("[") and value.endswith("]") and isinstance(_parsed(value), list):
        return line
    if not _NEEDS_QUOTES.search(value):
        return line
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'{key}: "{escaped}"'


def _parsed(value: str) -> Any:
    import yaml

    try:
        return yaml.load(value, Loader=_loader())
    except yaml.YAMLError:
        return None


@lru_cache(maxsize=1)
def _loader() -> type[yaml.SafeLoader]:
    """PyYAML's safe loader with Bun's YAML 1.2 implicit types."""
    import yaml

    class Yaml12Loader(yaml.SafeLoader):
        pass

    Yaml12Loader.yaml_implicit_resolvers = {}
    resolvers = (
        ("tag:yaml.org,2002:null", _NULL, ["~", "n", "N", ""]),
        ("tag:yaml.org,2002:bool", _BOOL, list("tTfF")),
        ("tag:yaml.org,2002:int", _INT, list("-+0123456789")),
        ("tag:yaml.org,2002:float", _FLOAT, list("-+.0123456789")),
    )
    for tag, pattern, first in resolvers:
        Yaml12Loader.add_implicit_resolver(tag, pattern, first)
    Yaml12Loader.add_constructor("tag:yaml.org,2002:int", _integer)
    Yaml12Loader.add_constructor("tag:yaml.org,2002:float", _float)
    return Yaml12Loader


def _integer(loader: yaml.SafeLoader, node: Any) -> int:
    text = loader.construct_scalar(node)
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-")
    if digits.startswith("0o"):
        return sign * int(digits[2:], 8)
    if digits.startswith("0x"):
        return sign * int(digits[2:], 16)
    return sign * int(digits, 10)


def _float(loader: yaml.SafeLoader, node: Any) -> float:
    text = loader.construct_scalar(node)
    sign = -1.0 if text.startswith("-") else 1.0
    digits = text.lstrip("+-").lower()
    if digits == ".inf":
        return sign * math.inf
    if digits == ".nan":
        return math.nan
    return sign * float(digits)
