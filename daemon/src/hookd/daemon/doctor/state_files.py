"""Whether hookd can write its trust store (``hookd allow``) and its audit log: the
daemon's own paths when it answers (``status``: ``trust.store``, ``audit.path``), else
those of hookd's configuration; and what the daemon itself reported of them (a trust
store it cannot read, audit records it dropped)."""

from __future__ import annotations

import os
import shlex
from typing import Any

from ..audit import audit_path
from ..trust.files import unsafe_reason
from ..trust.store import store_path
from .findings import Finding


def check(status: dict[str, Any] | None, state_dir: str | None) -> list[Finding]:
    trust = (status or {}).get("trust") or {}
    audit = (status or {}).get("audit") or {}
    fallback = state_dir or ""
    found = []
    store = trust.get("store") or (store_path(fallback) if state_dir else None)
    if store:
        found.append(_writable("trust store", store, trusted=True))
    if trust.get("storeProblem"):
        aside = shlex.quote(str(store))
        again = f"mv {aside} {aside}.broken  (then 'hookd allow' each workspace again)"
        found.append(Finding("state", "problem", f"the daemon says: {trust['storeProblem']}",
                             again))  # fmt: skip
    log = audit.get("path") or (audit_path(fallback) if state_dir else None)
    if log:
        found.append(_writable("audit log", log, trusted=False))
    if audit.get("dropped"):
        said = (f"the daemon dropped {audit['dropped']} audit record(s): {audit.get('lastError')}; "
                "once the file can be written again, restart it")  # fmt: skip
        found.append(Finding("state", "problem", said, "hookd shutdown"))
    return found


def _writable(what: str, path: str, trusted: bool) -> Finding:
    """The file when it exists (writable, a regular file, and for the trust store no one
    else's to change), else the folder it would be made in."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return _creatable(what, path)
    except OSError as exc:
        return Finding("state", "problem", f"the {what} {path} cannot be read: {exc.strerror}",
                       f"ls -l {shlex.quote(path)}  (then fix its owner or mode)")  # fmt: skip
    if not os.path.isfile(path):
        return Finding("state", "problem", f"the {what} {path} is not a regular file",
                       f"mv {shlex.quote(path)} {shlex.quote(path + '.aside')}")  # fmt: skip
    unsafe = unsafe_reason(path, info) if trusted else None
    if unsafe:
        return Finding(
            "state", "problem", f"the {what}: {unsafe}", f"chmod go-w {shlex.quote(path)}"
        )
    if info.st_uid != os.geteuid():
        return Finding("state", "problem", f"the {what} {path} belongs to uid {info.st_uid}",
                       f"sudo chown {os.geteuid()} {shlex.quote(path)}")  # fmt: skip
    if not os.access(path, os.W_OK):
        return Finding("state", "problem", f"the {what} {path} is not writable",
                       f"chmod u+w {shlex.quote(path)}")  # fmt: skip
    return Finding("state", "ok", f"the {what} {path} is writable")


def _creatable(what: str, path: str) -> Finding:
    folder = os.path.dirname(path)
    existing = folder
    while not os.path.exists(existing) and os.path.dirname(existing) != existing:
        existing = os.path.dirname(existing)
    if os.path.isdir(existing) and os.access(existing, os.W_OK | os.X_OK):
        return Finding("state", "ok", f"the {what} {path} does not exist yet; {folder} can "
                       "hold it")  # fmt: skip
    return Finding("state", "problem", f"the {what} {path} cannot be made: {existing} is not "
                   "a folder this user can write", f"mkdir -p {shlex.quote(folder)}  (as the "
                   "owner of " + f"{existing}, then chown it to this user)")  # fmt: skip
