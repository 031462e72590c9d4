"""Codex CLI's own hook review, for hookd's relay entries.

Codex runs a hook of a user's or a project's files only once the user reviewed it: its
user ``config.toml`` pins the hook by a hash of its definition,

    [hooks.state."<hooks.json path>:<event label>:<group>:<handler>"]
    trusted_hash = "sha256:<hex of sha256 of the definition as canonical JSON>"

and skips a hook without one in silence. ``hookd adopt`` writes the relay entries that
stand for hooks the user handed over; so that the user reviews once (``hookd allow``, for a
workspace's), it writes their pins too, in a block of its own that ``unadopt`` and ``relay
uninstall`` take out again; and it leaves every other line of the file as it was.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from collections.abc import Mapping

from ...errors import UserError
from .events import SNAKE

MARKER = "# hookd relay entry: reviewed for Codex by 'hookd adopt' (hookd unadopt removes it)"
_REPLACED = "# hookd: it took the place of: trusted_hash = "
_QUOTED_KEY = r'"(?:[^"\\\n]|\\.)*"'
_BLOCK = re.compile(
    rf"(?m)\n?^{re.escape(MARKER)}\n"
    rf"(?:{re.escape(_REPLACED)}(?P<old>\"[^\"\n]*\")\n)?"
    rf"\[hooks\.state\.(?P<key>{_QUOTED_KEY})\]\n"
    r"trusted_hash = \"[^\"\n]*\"\n"
)
"""One block hookd wrote (with the blank line before it), and the review it replaced."""


def key(path: str, event: str, group: int, handler: int) -> str:
    """A handler's key in Codex's ``[hooks.state]``."""
    return f"{path}:{SNAKE[event]}:{group}:{handler}"


def trusted_hash(event: str, matcher: str | None, command: str, timeout: int) -> str:
    """The hash Codex pins a command handler by: sha256 of the canonical JSON (keys sorted,
    compact) of its normalized definition (the effective timeout, ``async`` as written)."""
    definition: dict[str, object] = {
        "event_name": SNAKE[event],
        "hooks": [{"type": "command", "command": command, "timeout": timeout, "async": False}],
    }
    if matcher is not None:
        definition["matcher"] = matcher
    canonical = json.dumps(definition, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()


def with_pins(
    text: str | None, pins: Mapping[str, str], path: str, scope: str
) -> tuple[str, list[str]]:
    """``config.toml``'s text with hookd's pins for the relay entries of ``scope`` (a
    ``hooks.json``) replaced by ``pins`` (key -> hash), and notes for the person.

    A key where Codex holds a review of the hook that stood there before (its own form,
    ``trusted_hash`` alone) takes hookd's pin, and the block remembers that review, which
    ``without_pins`` writes back; any other review there is left, and said (two tables
    of one name would break the file)."""
    kept = without_pins(text or "", scope)
    existing = _state(kept, path)
    notes: list[str] = []
    blocks = []
    for name, digest in pins.items():
        held = existing.get(name)
        replaced = ""
        if held is not None:
            if isinstance(held, Mapping) and held.get("trusted_hash") == digest:
                continue
            own_form = _own_review(kept, name)
            if own_form is None:
                notes.append(f"{path} holds Codex's settings of another hook at {name}: "
                             "review hookd's relay entry in Codex (/hooks), or remove that "
                             "[hooks.state] entry and run 'hookd relay install --agent "
                             "codex'")  # fmt: skip
                continue
            kept = kept.replace(own_form.group(0), "", 1)
            replaced = f"{_REPLACED}{json.dumps(held['trusted_hash'])}\n"  # type: ignore[index]
        blocks.append(f"\n{MARKER}\n{replaced}[hooks.state.{json.dumps(name)}]\n"
                      f"trusted_hash = {json.dumps(digest)}\n")  # fmt: skip
    if not blocks:
        return kept, notes
    body = kept if not kept or kept.endswith("\n") else kept + "\n"
    joined = body + "".join(blocks)
    found = _state(joined, path)
    missing = [n for n in pins if _pinned(found.get(n)) != pins[n]]
    if missing and not notes:
        raise UserError(f"{path}: hookd could not add Codex's review of its relay entries "
                        "to this file (its [hooks] table is written inline?); review them in "
                        "Codex (/hooks) instead")  # fmt: skip
    return joined, notes


def _own_review(text: str, name: str) -> re.Match[str] | None:
    """Codex's own review of ``name`` as Codex writes one (a table holding
    ``trusted_hash`` alone), if the file has it so."""
    pattern = (rf"(?m)^\[hooks\.state\.{re.escape(json.dumps(name))}\]\n"
               r'trusted_hash = "[^"\n]*"\n(?=\n|\[|\Z)')  # fmt: skip
    return re.search(pattern, text)


def _pinned(entry: object) -> object:
    return entry.get("trusted_hash") if isinstance(entry, Mapping) else None


def without_pins(text: str, scope: str | None = None) -> str:
    """``config.toml``'s text without the blocks hookd wrote (for the relay entries of
    ``scope``, a ``hooks.json``; None: all), each review it replaced written back."""

    def put_back(block: re.Match[str]) -> str:
        key = json.loads(block.group("key"))
        if scope is not None and not key.startswith(f"{scope}:"):
            return block.group(0)
        old = block.group("old")
        if old is None:
            return ""
        return f"\n[hooks.state.{block.group('key')}]\ntrusted_hash = {old}\n"

    return _BLOCK.sub(put_back, text)


def _state(text: str, path: str) -> Mapping[str, object]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path} is not valid TOML ({exc}); fix it first (hookd changes "
                        "nothing in a file it cannot read)") from None  # fmt: skip
    hooks = data.get("hooks")
    state = hooks.get("state") if isinstance(hooks, dict) else None
    return state if isinstance(state, dict) else {}
