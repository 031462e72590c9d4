"""Carrying out an edit plan (``edits.Plan``): shown (``--dry-run``) or made.

Every file appears under its name by a rename (atomic). Rewritten settings files keep
their mode, the file as it was before hookd first changed it (``<file>.hookd.orig``,
given back byte for byte by the write that restores what it said) and the last version
(``<file>.hookd.bak``); moved files keep their mode.
"""

from __future__ import annotations

import contextlib
import difflib
import errno
import json
import os
import shutil
import tempfile
from typing import Any

from ..edits import BACKUP, ORIGINAL, Place, Plan, Remove, Step


def carry_out(plan: Plan, dry_run: bool) -> None:
    """Print the notes, then show (``dry_run``) or make the changes."""
    for note in plan.notes:
        print(f"hookd: {note}")
    changed = {path: texts for path, texts in plan.writes.items() if differ(*texts)}
    if not changed and not plan.steps:
        print("hookd: nothing to change")
        return
    for path, (old, new) in changed.items():
        if dry_run:
            print(_diff(old, new, path), end="")
        else:
            write_atomically(path, old, new)
            print(f"hookd: wrote {path}" + (f" (backup: {path}{BACKUP})" if old else ""))
    for step in plan.steps:
        if dry_run:
            print(_describe(step), end="")
        else:
            said = _describe(step, done=True).splitlines()[0]
            _make(step)
            print(f"hookd: {said}")


def without_backups(plan: Plan) -> None:
    """After ``unadopt``: each settings file the plan writes loses its ``.hookd.bak`` (the
    version before hookd's last write, which no one needs once the hooks are back). Its
    ``.hookd.orig`` goes when the write gives back what it said (``write_atomically``);
    one that stays, because the file now says something else (changed since hookd first
    wrote it), is the person's original, so the plan says where it is and leaves it."""
    for path, (old, new) in plan.writes.items():
        if (old is not None and differ(old, new)) or os.path.lexists(path + BACKUP):
            plan.steps.append(Remove(path + BACKUP))
        kept = path + ORIGINAL
        with contextlib.suppress(FileNotFoundError), open(kept, "rb") as file:
            if not _same_json(file.read(), new):
                plan.notes.append(f"{kept} stays: {path} as it was before hookd first changed "
                                  "it, which now says something else; compare the two, then "
                                  "remove it")  # fmt: skip


def differ(old: str | None, new: str) -> bool:
    """Whether writing ``new`` changes what the settings file says (for JSON, formatting
    alone does not count: a file hookd has nothing to change in is left as its owner
    wrote it; other files, such as Codex's ``config.toml``, are compared as text)."""
    try:
        return bool(json.loads(old or "{}") != json.loads(new))
    except ValueError:
        return (old or "") != new


def _diff(old: str | None, new: str, path: str) -> str:
    lines = difflib.unified_diff((old or "").splitlines(keepends=True),
                                 new.splitlines(keepends=True), path, path)  # fmt: skip
    return "".join(lines)


def _describe(step: Step, done: bool = False) -> str:
    """The step as ``--dry-run`` shows it (what it would do, a written file's diff), or
    as done (``done``: one line in the past tense)."""
    if isinstance(step, Place):
        return f"{'placed' if done else 'place'} {step.source} at {step.target}\n"
    if isinstance(step, Remove):
        return f"{'removed' if done else 'remove'} {step.path}\n"
    if done:
        return f"wrote {step.path} (mode {step.mode:o})\n"
    old = None
    with contextlib.suppress(OSError, UnicodeDecodeError), open(step.path, encoding="utf-8") as f:
        old = f.read()
    return f"write {step.path} (mode {step.mode:o})\n" + _diff(old, step.text, step.path)


def _make(step: Step) -> None:
    if isinstance(step, Place):
        os.makedirs(os.path.dirname(step.target), exist_ok=True)
        _rename_in(step.target, lambda partial: _link_or_copy(step.source, partial))
    elif isinstance(step, Remove):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(step.path)
        if step.tidy_up_to:
            _remove_empty(os.path.dirname(step.path), step.tidy_up_to)
    else:
        os.makedirs(os.path.dirname(step.path), exist_ok=True)
        _rename_in(step.path, lambda partial: _write(partial, step.text, step.mode))


def _rename_in(path: str, fill: Any) -> None:
    """Make the new file under a temporary name beside ``path``, then rename it over."""
    folder = os.path.dirname(path)
    partial = os.path.join(folder, f".hookd-{os.getpid()}-{os.path.basename(path)}.tmp")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(partial)
    try:
        fill(partial)
        os.replace(partial, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)
        raise


def _link_or_copy(source: str, partial: str) -> None:
    """The same file at a new name (mode and all). A symlink is re-made, pointing where
    it pointed (a relative target made absolute, so the move does not break it)."""
    if os.path.islink(source):
        target = os.readlink(source)
        os.symlink(os.path.normpath(os.path.join(os.path.dirname(source), target)), partial)
        return
    try:
        os.link(source, partial)
    except OSError as exc:
        if exc.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK):
            raise
        shutil.copy2(source, partial)


def _write(partial: str, text: str, mode: int) -> None:
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())
    os.chmod(partial, mode)


def _remove_empty(folder: str, top: str) -> None:
    while folder.startswith(top):
        try:
            os.rmdir(folder)
        except OSError:
            return
        folder = os.path.dirname(folder)


def write_atomically(path: str, old: str | None, new: str) -> None:
    """Write ``new`` to ``path`` through a temporary file renamed over it (same mode),
    after copying the old file to ``<path>.hookd.bak`` (and, the first time, to
    ``<path>.hookd.orig``). When ``new`` says what the original said (an ``unadopt``
    after ``adopt``), the original's bytes are written back as they were, formatting and
    all, and ``.hookd.orig`` has done its job."""
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    mode = 0o600
    data = new.encode()
    original = path + ORIGINAL
    restored = False
    if old is not None:
        shutil.copy2(path, path + BACKUP)
        if not os.path.lexists(original):
            shutil.copy2(path, original)
        mode = os.stat(path).st_mode & 0o777
    kept = _original_bytes(original)
    if kept is not None and _same_json(kept, new):
        data, restored = kept, True
    fd, partial = tempfile.mkstemp(dir=folder, prefix=".hookd-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(partial, mode)
        os.replace(partial, path)
    except BaseException:
        os.unlink(partial)
        raise
    if restored:
        os.unlink(original)


def _original_bytes(path: str) -> bytes | None:
    try:
        with open(path, "rb") as file:
            return file.read()
    except FileNotFoundError:
        return None


def _same_json(data: bytes, text: str) -> bool:
    """Whether the original's bytes say what ``text`` says (as JSON; else byte for byte)."""
    try:
        return bool(json.loads(data or b"{}") == json.loads(text))
    except ValueError:
        return data == text.encode()
