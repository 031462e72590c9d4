"""An edit of an agent's hook configuration, as a plan: what ``hookd adopt`` /
``unadopt`` / ``relay install`` / ``uninstall`` change, computed by each agent's
``integration`` module and carried out (or shown, ``--dry-run``) by ``cli/file_edits.py``.

A plan holds settings files to rewrite (old and new text) and, for the hook-folder agents,
steps on files (place a file, write a relay file, remove one) in an order that never
leaves a hook unrun: a hook file is placed in hookd's folder before the relay takes its
place. The values are plain data; reading the agent's settings is here too, since every
plan starts from it, but nothing here writes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import UserError


@dataclass(frozen=True)
class Place:
    """Put the file ``source`` at ``target`` too (replacing what is there): a hard link,
    or a copy across file systems, renamed into place. A ``Remove`` of ``source`` after
    it makes a move."""

    source: str
    target: str


@dataclass(frozen=True)
class WriteFile:
    """Write ``text`` to ``path`` with ``mode`` through a rename (a relay file)."""

    path: str
    text: str
    mode: int = 0o755


@dataclass(frozen=True)
class Remove:
    path: str
    tidy_up_to: str | None = None
    """Then remove the folders it leaves empty, up to this one (hookd-owned folders)."""


Step = Place | WriteFile | Remove


@dataclass
class Plan:
    """What one command changes: settings files (path -> (old text or None, new text)),
    file steps in order, and notes for the person."""

    writes: dict[str, tuple[str | None, str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    unshared: set[str] = field(default_factory=set)
    """Files the plan writes that the agent keeps out of a team's repository (Claude
    Code's ``.claude/settings.local.json``): where a project's relay entries go, since
    they name this machine's ``hookd-relay``. ``cli/team_files`` tells the person what
    to commit from this."""


def handed_over(moved: int, source: str, owned: str, adopted_before: bool) -> list[str]:
    """What ``adopt`` says of one settings file: how many hooks moved (or that they were
    adopted before), and the command that lets hookd run a project's hooks."""
    if not moved:
        if adopted_before:
            return [f"already adopted: {source} has no hooks left to hand over; hookd holds "
                    f"them in {owned}"]  # fmt: skip
        return [f"no hooks to hand over in {source}"]
    notes = [f"{moved} hook(s) handed to hookd from {source}"]
    marker = os.sep + ".hookd" + os.sep
    if marker in owned:
        project = owned.split(marker)[0]
        notes.append(f"the project's hooks now live in {project}{os.sep}.hookd: run 'hookd "
                     f"allow {project}' so that hookd runs them")  # fmt: skip
    return notes


def emptied(plan: Plan, owned_file: str, owned: dict[str, Any], owned_text: str | None) -> None:
    """After ``unadopt``: the hookd-owned settings file, its hooks given back, is written
    if something else is left in it, else removed with its backups and the hookd-owned
    folders it leaves empty (``<project>/.hookd/claude``, ``~/.config/hookd/augment``)."""
    if any(key != "hooks" for key in owned) or owned_text is None:
        if owned_text is not None:
            plan.writes[owned_file] = (owned_text, dump_settings(owned))
        return
    top = os.path.dirname(os.path.dirname(owned_file))
    paths = [owned_file + BACKUP, owned_file + ORIGINAL, owned_file]
    plan.steps += [Remove(path, tidy_up_to=top) for path in paths if os.path.lexists(path)]


class SettingsFiles:
    """The JSON settings files one plan reads and changes, each read once, so that a
    plan whose hooks and relay entries sit in two files (a project's shared file and the
    agent's local one) or in one writes each file once."""

    def __init__(self) -> None:
        self._files: dict[str, tuple[dict[str, Any], str | None]] = {}

    def __getitem__(self, path: str) -> dict[str, Any]:
        if path not in self._files:
            self._files[path] = read_settings(path)
        return self._files[path][0]

    def text(self, path: str) -> str | None:
        """The file's text as read (None: it did not exist)."""
        self[path]
        return self._files[path][1]

    def writes(self, *paths: str) -> dict[str, tuple[str | None, str]]:
        """``Plan.writes`` for ``paths`` (each once, in order)."""
        return {path: (self.text(path), dump_settings(self[path])) for path in dict.fromkeys(paths)}


def write_or_drop(plan: Plan, path: str, old: str | None, settings: dict[str, Any]) -> None:
    """Write a file that hookd keeps only for its relay entries, or, when nothing is left
    in it and hookd made it (it has no ``.hookd.orig``: the file as it was before hookd's
    first write; that backup goes once a write gives back what it said), remove it and
    its last backup."""
    if settings.get("hooks") or any(key != "hooks" for key in settings):
        plan.writes[path] = (old, dump_settings(settings))
    elif old is not None and not os.path.lexists(path + ORIGINAL):
        plan.steps += [Remove(p) for p in (path, path + BACKUP) if os.path.lexists(p)]
    elif old is not None:
        plan.writes[path] = (old, dump_settings(settings))


def nothing_adopted(owned: str) -> str:
    """``relay install`` with nothing adopted: an error, and what to run instead."""
    return (f"nothing is adopted in {owned}, so there is nothing to relay: run 'hookd adopt' "
            "first; it writes the relay entries itself")  # fmt: skip


def not_relayed(owned: str) -> str:
    """What ``relay uninstall`` says when hooks stay adopted without relay entries."""
    return (f"the hooks adopted in {owned} will not run inside the agent until 'hookd relay "
            "install' (or 'hookd unadopt' gives them back)")  # fmt: skip


WhyNot = Callable[[Any], "str | None"]
"""Why hookd cannot run a handler for the agent: None (it can), "" (it is hookd's own relay
entry), or the reason, which ``adopt`` says."""


def split_group(
    group: dict[str, Any], event: str, notes: list[str], why_not: WhyNot
) -> tuple[list[Any], list[Any]]:
    """A matcher group's handlers that stay with the agent, and those hookd takes; what
    stays says why in ``notes`` (hookd's own relay entries stay silently)."""
    stay: list[Any] = []
    take: list[Any] = []
    for handler in group.get("hooks", []):
        why = why_not(handler)
        if why is None:
            take.append(handler)
            continue
        stay.append(handler)
        if why:
            what = (
                handler.get("command") or handler.get("type")
                if isinstance(handler, dict)
                else handler
            )
            notes.append(f"{event}: {what!r} stays with the agent: {why}")
    return stay, take


def without_relay(
    hooks: dict[str, Any], is_relay: Callable[[Any], bool]
) -> dict[str, list[dict[str, Any]]]:
    """A hooks section without hookd's relay entries (and the groups and events left
    empty; what is not a group is dropped too)."""
    kept: dict[str, list[dict[str, Any]]] = {}
    for event, groups in hooks.items():
        left = [{**g, "hooks": [h for h in g.get("hooks", []) if not is_relay(h)]}
                for g in groups if isinstance(g, dict)]  # fmt: skip
        if any(g["hooks"] for g in left):
            kept[event] = [g for g in left if g["hooks"]]
    return kept


def read_settings(path: str, *, bom: bool = False) -> tuple[dict[str, Any], str | None]:
    """A JSON settings file (``{}`` when missing) and its text (None when missing); ``bom``:
    the agent reads a file that starts with a byte-order mark, so hookd must too."""
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except FileNotFoundError:
        return {}, None
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}") from None
    try:
        data = json.loads(text.lstrip("\ufeff") if bom else text) if text.strip() else {}
    except ValueError as exc:
        raise UserError(f"{path} is not valid JSON ({exc}); fix it first (hookd changes nothing "
                        "in a file it cannot read)") from None  # fmt: skip
    if not isinstance(data, dict):
        raise UserError(f"{path}: the top level must be a JSON object")
    return data, text


def hooks_section(settings: dict[str, Any], path: str) -> dict[str, list[dict[str, Any]]]:
    """A settings file's ``hooks``: event -> matcher groups (objects only)."""
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict) or not all(isinstance(g, list) for g in hooks.values()):
        raise UserError(f"{path}: \"hooks\" is not an object of lists of matcher groups; fix it "
                        "first (hookd changes nothing in a file it cannot read)")  # fmt: skip
    return {event: [g for g in groups if isinstance(g, dict)] for event, groups in hooks.items()}


def dump_settings(settings: dict[str, Any]) -> str:
    if "hooks" in settings and not settings["hooks"]:
        settings = {k: v for k, v in settings.items() if k != "hooks"}
    return json.dumps(settings, indent=2, ensure_ascii=False) + "\n"


BACKUP = ".hookd.bak"
"""``<file>.hookd.bak``: the file as it was before hookd's last write."""
ORIGINAL = ".hookd.orig"
"""``<file>.hookd.orig``: the file as it was before hookd first changed it, never
overwritten while it is there (a later adopt, install or unadopt keeps it)."""
