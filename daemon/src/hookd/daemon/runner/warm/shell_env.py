"""The environment a wrapper shell (``sh -c``, ``bash -c``) hands the program it runs.

Shells add and reorder: dash exports its variables in its hash table's order and sets
``PWD``; bash sets ``PWD``, ``SHLVL`` and ``_``. Rather than model each shell, hookd asks
it once: the same shell, run with the same variable names in the same folder, prints the
environment it gives a command; the answer is kept per (shell, folder, names, and the
values the shells rewrite), so only a new combination costs a probe.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext

import trio

from ..custody import HOOK_ID_ENV

_REWRITTEN = ("PWD", "OLDPWD", "SHLVL", "_")
_PROBE_PROGRAM = shutil.which("env") or "/usr/bin/env"
_KEEP = 128


class ShellEnvironments:
    """Probed shell environments, least recently used dropped past ``_KEEP``."""

    async def forks(self, shell: str) -> bool:
        """Whether ``shell -c 'cmd args'`` runs ``cmd`` as its child (dash) rather than
        becoming it (bash's exec of a lone command): a child that dies of a signal then
        makes the shell exit with 128 + the signal's number."""
        if shell not in self._forks:
            try:
                with self._helping():
                    done = await trio.run_process(
                        [shell, "-c", "/bin/cat /proc/self/stat"],
                        capture_stdout=True, stderr=subprocess.DEVNULL,
                        start_new_session=True, check=False,
                    )  # fmt: skip
                fields = done.stdout.rsplit(b")", 1)[-1].split()  # state ppid pgrp session
                self._forks[shell] = done.stdout.split()[0] != fields[3]
            except (OSError, IndexError):
                self._forks[shell] = True
        return self._forks[shell]

    def __init__(self, helping: Callable[[], AbstractContextManager[None]] = nullcontext) -> None:
        self._helping = helping
        """Held around each probe: the custody's, so a probe is no escapee to it."""
        self._forks: dict[str, bool] = {}
        self._known: OrderedDict[tuple[object, ...], tuple[tuple[str, str], ...] | None] = (
            OrderedDict()
        )

    async def given(
        self, shell: str, env: Mapping[str, str], cwd: str, command_path: str
    ) -> tuple[tuple[str, str], ...] | None:
        """What ``shell -c 'command ...'`` started in ``cwd`` with ``env`` gives the
        command (``command_path``: as the shell found it); None if the probe failed."""
        key = (shell, cwd, tuple(env), *(env.get(name) for name in _REWRITTEN))
        if key in self._known:
            self._known.move_to_end(key)
            probed = self._known[key]
        else:
            with self._helping():
                probed = await _probe(shell, env, cwd)
            self._known[key] = probed
            if len(self._known) > _KEEP:
                self._known.popitem(last=False)
        if probed is None:
            return None
        given: list[tuple[str, str]] = []
        for name, value in probed:
            if name == "_":
                value = command_path
            elif name in env and name not in _REWRITTEN:
                value = env[name]
            given.append((name, value))
        return tuple(given)


async def _probe(
    shell: str, env: Mapping[str, str], cwd: str
) -> tuple[tuple[str, str], ...] | None:
    probe_env = {k: ("probe" if k == HOOK_ID_ENV else v) for k, v in env.items()}
    try:
        done = await trio.run_process(
            [shell, "-c", f"{_PROBE_PROGRAM} -0"],
            env=probe_env,
            cwd=cwd,
            capture_stdout=True,
            stderr=subprocess.DEVNULL,
            check=False,
        )
    except OSError:
        return None
    if done.returncode != 0:
        return None
    return _pairs(done.stdout.split(b"\0"))


def _pairs(entries: Sequence[bytes]) -> tuple[tuple[str, str], ...]:
    pairs = []
    for entry in entries:
        if b"=" in entry:
            name, _, value = entry.partition(b"=")
            pairs.append((os.fsdecode(name), os.fsdecode(value)))
    return tuple(pairs)
