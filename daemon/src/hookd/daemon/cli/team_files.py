"""What a project-scope ``adopt`` or ``relay install`` leaves in a git work tree: which of
the files it writes a team commits, which stay on this machine, and the ``.gitignore``
lines for the latter (written into ``<project>/.gitignore`` with ``--gitignore``).

A relay entry names this machine's ``hookd-relay`` by its absolute path. Where the agent
reads a settings file of its own that a team does not share (``Plan.unshared``: Claude
Code's and auggie's ``settings.local.json``), the project's entries go there, and the
rest is the team's to commit: the shared file without the hooks, and ``.hookd/<agent>``
with them (each teammate with hookd writes relay entries of their own with ``relay
install``). Where it reads none, the shared file names this machine, so the adoption can
only be this person's: what to keep out of the repository, and how. hookd's backups
(``*.hookd.bak``, ``*.hookd.orig``) are always this machine's.

git answers what it tracks and already ignores (``ls-files``, ``check-ignore``); outside
a git work tree, or without git, there is nothing to say.
"""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Iterable

from ..dialects.relay_entries import RELAY_COMMAND
from ..edits import BACKUP, ORIGINAL, Place, Plan, WriteFile
from ..errors import UserError

BACKUP_LINES = ("*" + BACKUP, "*" + ORIGINAL)
OWNED = ".hookd"


def advise(plan: Plan, project: str, agent: str, command: str, write: bool) -> None:
    """Add to ``plan`` what to commit and what to keep out, and (``write``) the step that
    adds the missing ``.gitignore`` lines. ``command`` is the ``relay install`` command
    a teammate runs."""
    written = _written(plan, project)
    if not written:
        return
    tracked = _git(project, ["ls-files", "-z", "--", *written])
    if tracked is None:
        return
    texts = {os.path.relpath(path, project): text for path, text in
             [*((p, new) for p, (_old, new) in plan.writes.items()),
              *((s.path, s.text) for s in plan.steps if isinstance(s, WriteFile))]}  # fmt: skip
    owned = [p for p in written if p.split(os.sep, 1)[0] == OWNED]
    names_machine = [p for p in written if p not in owned and _local(project, p) not in
                     plan.unshared and RELAY_COMMAND.search(texts.get(p, ""))]  # fmt: skip
    unshared = [p for p in written if _local(project, p) in plan.unshared]
    shared = [p for p in written if p not in owned and p not in names_machine + unshared]
    if names_machine:
        folders = sorted({os.path.join(*p.split(os.sep)[:2]) for p in owned})
        ignored = [*(f"/{f}/" for f in folders),
                   *(f"/{p}" for p in names_machine if p not in tracked)]  # fmt: skip
        plan.notes += _yours_only(agent, names_machine, [p for p in names_machine if p in tracked],
                                  shared, folders)  # fmt: skip
    else:
        ignored = [f"/{p}" for p in unshared]
        plan.notes += _the_teams(shared + owned, unshared, command)
    _offer(plan, project, [*ignored, *BACKUP_LINES], written, write)


def _written(plan: Plan, project: str) -> list[str]:
    """The files under ``project`` the plan writes, relative to it."""
    paths = [*plan.writes, *(s.path for s in plan.steps if isinstance(s, WriteFile)),
             *(s.target for s in plan.steps if isinstance(s, Place))]  # fmt: skip
    inside = (os.path.relpath(p, project) for p in paths)
    return sorted({p for p in inside if not p.startswith(os.pardir)})


def _local(project: str, relative: str) -> str:
    return os.path.join(project, relative)


def _the_teams(commit: list[str], unshared: list[str], command: str) -> list[str]:
    notes = [f"for git: commit {_listed(commit)}: the adopted hooks live in {OWNED}/, run by "
             f"hookd (a teammate without hookd no longer runs them); a teammate with hookd "
             f"runs '{command}' for relay entries naming their own hookd-relay"]  # fmt: skip
    if unshared:
        notes.append(f"for git: keep {_listed(unshared)} (this machine's relay entries) and "
                     "hookd's backups out of the repository")  # fmt: skip
    return notes


def _yours_only(
    agent: str, machine: list[str], tracked: list[str], shared: list[str], folders: list[str]
) -> list[str]:
    notes = [f"for git: {_listed(machine)}: this machine's hookd-relay is named there, and "
             f"{agent} reads no settings file of its own that a team does not share, so this "
             f"adoption stays yours: do not commit {_listed(machine + shared)}, nor "
             f"{_listed([f + '/' for f in folders]) or 'the adopted hooks'} or hookd's "
             "backups"]  # fmt: skip
    if tracked:
        quoted = " ".join(tracked)
        notes.append(f"for git: git tracks {_listed(tracked)}: 'git update-index "
                     f"--skip-worktree {quoted}' keeps your change out of 'git status' and "
                     f"commits ('git update-index --no-skip-worktree {quoted}' after "
                     "unadopt)")  # fmt: skip
    return notes


def _offer(plan: Plan, project: str, lines: list[str], written: list[str], write: bool) -> None:
    """The ``.gitignore`` lines git does not already follow: said, and written with
    ``write`` (a step ``--dry-run`` shows)."""
    probes = {line: _probe(line, written) for line in lines}
    asked = "".join(p + "\0" for ps in probes.values() for p in ps)
    ignored = _git(project, ["check-ignore", "--no-index", "-z", "--stdin"], asked) or set()
    missing = [line for line, ps in probes.items() if not all(p in ignored for p in ps)]
    path = os.path.join(project, ".gitignore")
    if not missing:
        plan.notes.append(f"for git: git already ignores {' '.join(lines)}")
        return
    if not write:
        shown = "".join(f"\n    {line}" for line in missing)
        plan.notes.append(f"for git: lines for {path} ('--gitignore' adds them):{shown}")
        return
    old = _read(path, missing)
    new = old + ("\n" if old and not old.endswith("\n") else "")
    new += "# this machine's files of 'hookd adopt'\n" + "".join(f"{x}\n" for x in missing)
    mode = os.stat(path).st_mode & 0o777 if os.path.exists(path) else 0o644
    plan.steps.append(WriteFile(path, new, mode))


def _probe(line: str, written: list[str]) -> list[str]:
    """Paths a line is for, to ask git whether it ignores them already."""
    if line in BACKUP_LINES:
        return [p + line[1:] for p in written] or ["x" + line[1:]]
    return [line.strip("/") + ("/x" if line.endswith("/") else "")]


def _git(project: str, args: Iterable[str], stdin: str = "") -> set[str] | None:
    """The NUL-separated paths a git command prints in ``project`` (None: no git, or not
    a work tree). ``check-ignore`` exits 1 when it prints nothing."""
    try:
        done = subprocess.run(["git", "-C", project, *args], input=stdin.encode(),
                              capture_output=True, timeout=60, check=False)  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return None  # no advice rather than a traceback: git is missing or hangs
    if done.returncode not in (0, 1) or (done.returncode == 1 and done.stdout):
        return None
    return {p for p in done.stdout.decode(errors="replace").split("\0") if p}


def _read(path: str, missing: list[str]) -> str:
    """A ``.gitignore`` as text; "" when there is none. One hookd cannot rewrite safely (not
    a regular file, not UTF-8) is a user error naming the lines to add by hand."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise UserError(f"{path} is not a regular file: hookd does not rewrite it; add "
                            f"these lines yourself: {' '.join(missing)}")  # fmt: skip
        with open(path, encoding="utf-8") as file:
            return file.read()
    except FileNotFoundError:
        return ""
    except UnicodeDecodeError:
        raise UserError(
            f"{path} is not UTF-8 text: hookd does not rewrite it; add these "
            f"lines yourself: {' '.join(missing)}"
        ) from None


def _listed(paths: list[str]) -> str:
    return ", ".join(paths)
