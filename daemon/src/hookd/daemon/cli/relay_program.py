"""Which ``hookd-relay`` the relay entries name: this installation's, by its absolute path.

An agent runs its hooks with its own ``PATH``, which often lacks hookd's virtualenv (an
agent started from a desktop launcher, a service, another shell). A bare ``hookd-relay``
then fails to start (``sh: hookd-relay: not found``, exit 127), which Claude Code and
auggie read as a failing hook: the adopted hooks would never run and the action would go
on, silently. So ``adopt`` and ``relay install`` write the path of the relay installed
beside the Python running hookd, and say so when that path may not reach the agent.

Two relays answer alike (``tests/client/test_relay_native.py``): the native one, built at
``pip install`` where a compiler comes from PyPI (``client/python/native``), installed in
the data folder of this installation (``<data>/libexec/hookd/hookd-relay``), and the
Python one, the console script. ``relay_path`` names the native one when it is there and
runs, else the Python one; ``relay_kind`` tells which a path is, for ``hookd relay
install``, ``hookd status`` and ``hookd hooks`` to say.
"""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from hookd.relay import VERSION as RELAY_VERSION

from ..dialects.relay_entries import RELAY_PROGRAM

_TEMPORARY = ("/tmp", "/var/tmp", "/dev/shm")


NATIVE_IN_DATA = "libexec/hookd/hookd-relay"
"""Where the client package installs the native relay, under its installation's data
folder (``client/python/native/build.py``'s ``RELAY_IN_DATA``; a test holds them equal)."""
RELAY_DISTRIBUTIONS = ("hookd", "hookd-client")
"""The distributions that may carry it: the whole of hookd (the repository's root) or the
client alone (``client/python``)."""


CHOICE_ENV = "HOOKD_RELAY"


def relay_path() -> str:
    """The absolute path of this installation's ``hookd-relay``: the native one when it is
    installed and runs (``native_relay``), else the Python one (``python_relay``), or the
    Python one whatever there is when ``HOOKD_RELAY=python``."""
    if os.environ.get(CHOICE_ENV) == "python":
        return python_relay()
    return native_relay() or python_relay()


@functools.cache
def native_relay() -> str | None:
    """The native relay of this installation, when it is there and answers ``--version``
    as a relay of this client's version does; None otherwise (not built here, or built
    for another machine)."""
    for candidate in _native_candidates():
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK) and _runs(candidate):
            return os.path.abspath(candidate)
    return None


def _native_candidates() -> list[str]:
    """Where ``pip`` put it (the record of the distribution that carries it), then where
    it would go in this Python's data folders (``python client/python/native/build.py
    --install``)."""
    from importlib.metadata import PackageNotFoundError, distribution

    found = []
    for name in RELAY_DISTRIBUTIONS:
        try:
            carrier = distribution(name)
        except PackageNotFoundError:
            continue
        found += [str(carrier.locate_file(f)) for f in carrier.files or []
                  if str(f).replace(os.sep, "/").endswith(NATIVE_IN_DATA)]  # fmt: skip
    found.append(os.path.join(sysconfig.get_path("data"), NATIVE_IN_DATA))
    user_scheme = f"{os.name}_user"
    if user_scheme in sysconfig.get_scheme_names():
        found.append(os.path.join(sysconfig.get_path("data", user_scheme), NATIVE_IN_DATA))
    return [os.path.normpath(p) for p in found]


def _runs(path: str) -> bool:
    try:
        done = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30,
                              check=False)  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0 and done.stdout.startswith(f"hookd-relay {RELAY_VERSION} (native, ")


def relay_kind(path: str) -> str:
    """``native`` or ``python`` (the relay program at ``path`` by its first bytes: a
    script starts with ``#!``), or ``missing`` when there is none there."""
    try:
        with open(path if os.path.isabs(path) else shutil.which(path) or path, "rb") as file:
            head = file.read(2)
    except OSError:
        return "missing"
    return "python" if head == b"#!" else "native"


def describe(path: str) -> str:
    """One line saying which relay ``path`` is, for the user."""
    kind = relay_kind(path)
    if kind == "native":
        return f"the native relay {path}"
    if kind == "python":
        return f"the Python relay {path}" + ("" if native_relay() else f" ({why_not_native()})")
    return f"{path} (no relay program there)"


def why_not_native() -> str:
    """Why this installation has no native relay, in words."""
    places = _native_candidates()
    there = next((p for p in places if os.path.exists(p)), None)
    if there:
        return (f"the native relay at {there} does not run here: reinstall hookd's client "
                "package to build it again")  # fmt: skip
    return ("no native relay was built at install (it needs the 'ziglang' package from PyPI "
            "on Linux x86_64/aarch64 or macOS): see "
            f"{Path('docs') / 'design.md'}, 'The native relay'")  # fmt: skip


def python_relay() -> str:
    """The absolute path of this installation's Python ``hookd-relay``: in the scripts
    folder of the Python running hookd (a virtualenv's ``bin``, or the user scheme's
    ``~/.local/bin``), else the one on ``PATH``; the bare name when there is none
    (``warnings`` says so)."""
    folders = [os.path.dirname(sys.executable), sysconfig.get_path("scripts")]
    user_scheme = f"{os.name}_user"
    if user_scheme in sysconfig.get_scheme_names():
        folders.append(sysconfig.get_path("scripts", user_scheme))
    for folder in folders:
        candidate = os.path.join(folder, RELAY_PROGRAM)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
    found = shutil.which(RELAY_PROGRAM)
    return os.path.abspath(found) if found else RELAY_PROGRAM


def shell_word(path: str) -> str:
    """``path`` as one word of a ``sh`` command line (quoted only when it needs it)."""
    return shlex.quote(path)


def warnings(path: str) -> list[str]:
    """What may keep the agent from running the relay at ``path``, in words."""
    if not os.path.isabs(path):
        return [f"no {RELAY_PROGRAM} found beside this hookd ({sys.executable}) nor on "
                f"PATH: the entries name a bare '{RELAY_PROGRAM}', which the agent must find "
                "on its own PATH; reinstall hookd's client package, then run 'hookd relay "
                "install'"]  # fmt: skip
    said = []
    if shell_word(path) != path:
        said.append(f"the relay's path {path!r} has spaces or shell characters: the entries "
                    "quote it, but an entry edited by hand must keep the quotes; a path "
                    "without them is safer (reinstall hookd there, then 'hookd relay "
                    "install')")  # fmt: skip
    temporary = {os.path.realpath(p) for p in (tempfile.gettempdir(), *_TEMPORARY)}
    real = os.path.realpath(path)
    if any(real.startswith(folder + os.sep) for folder in temporary):
        said.append(f"the relay {path} lives in a temporary folder, which may be cleaned up or "
                    "hidden from a sandboxed agent (a private /tmp): install hookd elsewhere, "
                    "then run 'hookd relay install'")  # fmt: skip
    return said
