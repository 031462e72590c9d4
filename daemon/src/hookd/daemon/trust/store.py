"""The trust store: which workspaces a person allowed, and what exactly they allowed.

One JSON file, ``<state_dir>/trust.json`` (0600, in a 0700 folder), written atomically
(a temporary file, ``fsync``, ``rename``) under an ``flock``, so two ``hookd allow`` at
once cannot lose each other's approval and a crash leaves the old or the new file, never
half of one. The daemon reads it again whenever its stat signature changes (one ``stat``
per fire). A store that others could write is ignored (nothing is trusted) and ``status``
says why.

Shape: ``{"version": 1, "workspaces": {"/real/path": {"state": "allowed" | "denied",
"at": "<UTC ISO time>", "files": {"/path": "sha256:..." | "config:<dialect>:..."}}}}``.
"""

from __future__ import annotations

import fcntl
import json
import os
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime

from ..racy import is_racy
from ..safe_read import UnreadableFile, read_regular_file
from ..statcache import Signature, signature_of
from .files import unsafe_reason

STORE_NAME = "trust.json"
VERSION = 1
MAX_STORE_BYTES = 16 * 1024 * 1024


def store_path(state_dir: str) -> str:
    return os.path.join(state_dir, STORE_NAME)


@dataclass(frozen=True)
class Approval:
    """One workspace's entry: allowed with the digests of what was allowed, or denied."""

    root: str
    state: str
    at: str
    files: Mapping[str, str] = field(default_factory=dict)

    @property
    def allowed(self) -> bool:
        return self.state == "allowed"


class TrustStore:
    """Reads (cached) and writes (locked, atomic) the trust store at ``path``."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._signature: Signature | None = None
        self._read_at_ns = 0
        self._approvals: dict[str, Approval] = {}
        self.problem: str | None = None
        """Why the store on disk is not used (unreadable, not JSON, writable by others)."""

    # reading ------------------------------------------------------------------------
    def approvals(self) -> Mapping[str, Approval]:
        """Every workspace entry, by real path; read again only after the file changed."""
        try:
            info = os.stat(self.path)
        except FileNotFoundError:
            self._signature, self._approvals, self.problem = None, {}, None
            return self._approvals
        except (OSError, ValueError) as exc:
            self._approvals, self.problem = {}, f"cannot read the trust store {self.path}: {exc}"
            return self._approvals
        signature = signature_of(info)
        if signature == self._signature and not is_racy(
            max(info.st_mtime_ns, info.st_ctime_ns), self._read_at_ns
        ):
            return self._approvals
        self._read_at_ns = time.time_ns()
        self._signature = signature
        unsafe = unsafe_reason(self.path, info)
        if unsafe:
            self._approvals = {}
            self.problem = f"the trust store is ignored (nothing is trusted): {unsafe}"
            return self._approvals
        try:
            self._approvals = _parse(read_regular_file(self.path, MAX_STORE_BYTES), self.path)
            self.problem = None
        except (UnreadableFile, ValueError) as exc:
            self._signature = None
            self._approvals = {}
            self.problem = f"the trust store is ignored (nothing is trusted): {exc}"
        return self._approvals

    # writing ------------------------------------------------------------------------
    def allow(self, root: str, files: Mapping[str, str]) -> Approval:
        approval = Approval(root, "allowed", _now(), dict(files))
        with self._locked() as entries:
            entries[root] = approval
        return approval

    def deny(self, root: str) -> Approval:
        approval = Approval(root, "denied", _now())
        with self._locked() as entries:
            entries[root] = approval
        return approval

    @contextmanager
    def _locked(self) -> Iterator[dict[str, Approval]]:
        """The entries on disk, for changing under the lock; written back atomically."""
        folder = os.path.dirname(self.path)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        lock_fd = os.open(self.path + ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(lock_fd, fcntl.LOCK_EX)
            try:
                entries = _parse(read_regular_file(self.path, MAX_STORE_BYTES), self.path)
            except FileNotFoundError:
                entries = {}
            yield entries
            _write_atomically(self.path, _dump(entries))
        finally:
            os.close(lock_fd)


def _parse(data: bytes, path: str) -> dict[str, Approval]:
    try:
        document = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path} is not valid JSON ({exc}); fix or delete it") from None
    if not isinstance(document, dict) or not isinstance(document.get("workspaces"), dict):
        raise ValueError(f'{path} has no "workspaces" object; fix or delete it')
    entries: dict[str, Approval] = {}
    for root, entry in document["workspaces"].items():
        if not isinstance(entry, dict) or entry.get("state") not in ("allowed", "denied"):
            continue  # one bad entry trusts nothing, and spoils nothing else
        files = entry.get("files")
        if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
            files = {}
        entries[root] = Approval(root, entry["state"], str(entry.get("at", "")), files)
    return entries


def _dump(entries: Mapping[str, Approval]) -> bytes:
    document = {
        "version": VERSION,
        "workspaces": {
            root: {"state": a.state, "at": a.at, "files": dict(sorted(a.files.items()))}
            for root, a in sorted(entries.items())
        },
    }
    return (json.dumps(document, indent=1) + "\n").encode()


def _write_atomically(path: str, data: bytes) -> None:
    folder = os.path.dirname(path)
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=".trust.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary)
        raise
    directory = os.open(folder, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
