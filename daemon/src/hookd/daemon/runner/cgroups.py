"""Each hook in a cgroup of its own (Linux cgroup v2), where the daemon may make them.

A process group or a session is something a process can leave (``setsid``); an
environment marker is something it can clear (``env -i``); a cgroup is neither: every
process a hook starts is in the hook's cgroup unless something with write access to
the cgroup tree moves it out. So where the daemon has a cgroup v2 subtree of its own,
it makes ``<its cgroup>/hookd-<daemon id>/<n>`` for hook ``n``, moves the hook's leader
into it right after the start, and kills by ``cgroup.kill`` (Linux 5.14), which takes
every process in the cgroup at once, however it detached itself.

Usable when the daemon's own cgroup (``/proc/self/cgroup``, the ``0::`` line) is on a
cgroup2 mount it can write to: a systemd user service with ``Delegate=yes``
(``packaging/systemd/hookd.service``), or a writable hierarchy when run as root (a
container). Otherwise ``open`` says why not and the daemon keeps the subreaper custody
(``custody.py``), which it runs in both cases.

The move is a write of the pid to ``cgroup.procs`` right after the spawn returns (for
the lean launcher: once the child has called ``exec``, on the event loop's thread). The
kernel's migration first waits for an RCU grace period when none is under way (~1 ms
here; ~50 µs between hooks that follow each other closely), and a fork the hook makes
during that wait still lands in the old cgroup: a shell hook forks its first command
well within it. So the hook is stopped (``SIGSTOP``) before the write and continued
after it: a fork it attempts once the signal is pending is restarted after the stop,
in its new cgroup. What remains is the few microseconds between ``exec`` and the
signal, in which the new program is still being loaded; the subreaper sweep is there
for anything that could leave through them. Python's ``subprocess`` cannot spawn into
a cgroup (``clone3``'s ``CLONE_INTO_CGROUP``; glibc 2.39's
``posix_spawnattr_setcgroup_np`` is not on every system yet), and a ``preexec_fn`` that
moves the child costs a ``fork`` of the whole daemon (milliseconds) instead of a
``vfork``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
from pathlib import Path

from ..procfs import is_stopped

CGROUP_ROOT_PREFIX = "hookd-"


class HookCgroups:
    """The daemon's ``hookd-<id>`` cgroup and one cgroup per hook inside it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        """``<the daemon's cgroup>/hookd-<daemon id>``."""
        self._root_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)

    @classmethod
    def open(cls, instance: str) -> HookCgroups | str:
        """Make the daemon's cgroup for its hooks; or why the daemon cannot."""
        own = own_cgroup_dir()
        if isinstance(own, str):
            return own
        root = own / f"{CGROUP_ROOT_PREFIX}{instance}"
        try:
            os.mkdir(root)
        except OSError as exc:
            return f"cannot make a cgroup under {own} ({exc.strerror or exc})"
        if not (root / "cgroup.kill").exists():
            os.rmdir(root)
            return "the kernel has no cgroup.kill (Linux 5.14 and later)"
        if not os.access(own / "cgroup.procs", os.W_OK):
            os.rmdir(root)
            return f"cannot move processes within {own} (its cgroup.procs is not writable)"
        return cls(root)

    # one hook ---------------------------------------------------------------------
    def make(self, name: str) -> None:
        """The hook's cgroup (``OSError`` if it cannot be made)."""
        os.mkdir(name, dir_fd=self._root_fd)

    def place(self, name: str, pid: int) -> None:
        """Move ``pid`` into hook ``name``'s cgroup, stopped meanwhile (see the module's
        doc); a process already gone is no error.

        Raises:
            OSError: the kernel refused the move.
        """
        stopped = is_stopped(pid)  # by itself (``kill -STOP $$``): it stays stopped
        try:
            if not stopped:
                os.kill(pid, signal.SIGSTOP)
        except ProcessLookupError:
            return
        try:
            _write(f"{name}/cgroup.procs", str(pid).encode(), self._root_fd)
        except OSError as exc:
            if exc.errno != errno.ESRCH:
                raise
        finally:
            if not stopped:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)

    def populated(self, name: str) -> bool:
        """Whether a process (other than a zombie) is left in hook ``name``'s cgroup."""
        try:
            events = _read(f"{name}/cgroup.events", self._root_fd)
        except OSError:
            return False
        return b"populated 1" in events

    def kill(self, name: str = "") -> None:
        """SIGKILL every process in hook ``name``'s cgroup (``""``: of every hook)."""
        with contextlib.suppress(FileNotFoundError):  # removed: nothing was left in it
            _write(f"{name}/cgroup.kill" if name else "cgroup.kill", b"1", self._root_fd)

    def remove(self, name: str) -> bool:
        """Remove hook ``name``'s cgroup; False while a process is still in it."""
        try:
            os.rmdir(name, dir_fd=self._root_fd)
        except FileNotFoundError:
            return True
        except OSError as exc:
            if exc.errno == errno.EBUSY:
                return False
            raise
        return True

    def hook_of(self, pid: int) -> str | None:
        """The name of the hook cgroup ``pid`` is in, if it is in one of ours."""
        try:
            text = _read(f"/proc/{pid}/cgroup", None)
        except OSError:
            return None
        for line in text.splitlines():
            if line.startswith(b"0::"):
                parts = Path(os.fsdecode(line[3:])).parts
                if self.root.name in parts[:-1]:  # hookd-<id>/<n>, or below it
                    return parts[parts.index(self.root.name) + 1]
                return None
        return None

    # the whole tree ---------------------------------------------------------------
    def names(self) -> list[str]:
        try:
            return [entry.name for entry in os.scandir(self.root) if entry.is_dir()]
        except FileNotFoundError:
            return []  # the watchdog removed them (it does at the daemon's end too)

    def close(self) -> bool:
        """Remove every empty hook cgroup and, when all are gone, the daemon's own;
        whether everything was removed."""
        left = [name for name in self.names() if not self.remove(name)]
        if left:
            return False
        try:
            os.rmdir(self.root)
        except FileNotFoundError:
            pass
        except OSError:
            return False
        if self._root_fd >= 0:
            os.close(self._root_fd)
            self._root_fd = -1
        return True


def own_cgroup_dir() -> Path | str:
    """The directory of this process's cgroup v2 (its ``0::`` line, on a cgroup2 mount
    whose root covers it); or why there is none."""
    try:
        lines = _read("/proc/self/cgroup", None).splitlines()
    except OSError:
        return "no /proc/self/cgroup (not Linux)"
    unified = [os.fsdecode(line[3:]) for line in lines if line.startswith(b"0::")]
    if not unified:
        return "this process is in no cgroup v2 hierarchy"
    path = unified[0]
    for mount_root, mount_point in _cgroup2_mounts():
        if path == mount_root or path.startswith(mount_root.rstrip("/") + "/"):
            relative = path[len(mount_root.rstrip("/")) :].lstrip("/")
            return Path(mount_point) / relative if relative else Path(mount_point)
    return f"no cgroup2 mount shows this process's cgroup ({path})"


def _cgroup2_mounts() -> list[tuple[str, str]]:
    """(root in the hierarchy, mount point) of each cgroup2 mount."""
    try:
        text = _read("/proc/self/mountinfo", None)
    except OSError:
        return []
    found = []
    for line in text.decode(errors="replace").splitlines():
        before, _sep, after = line.partition(" - ")
        fields = before.split()
        if after.split()[:1] == ["cgroup2"] and len(fields) >= 5:
            found.append((_unescape(fields[3]), _unescape(fields[4])))
    return found


def _unescape(field: str) -> str:
    """mountinfo writes space, tab, newline and backslash as octal escapes."""
    for code in ("040", "011", "012", "134"):
        field = field.replace("\\" + code, chr(int(code, 8)))
    return field


def _read(path: str, dir_fd: int | None) -> bytes:
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC, dir_fd=dir_fd)
    try:
        return os.read(fd, 65536)
    finally:
        os.close(fd)


def _write(path: str, data: bytes, dir_fd: int | None) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC, dir_fd=dir_fd)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)
