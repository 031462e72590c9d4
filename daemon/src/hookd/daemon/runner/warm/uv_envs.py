"""``uv run`` hooks, warm: ask uv once how it runs a script (``uv_probe``), keep the
answer while nothing it was decided from has changed (``uv_inputs``), and turn each run
of the hook into the ``PythonRun`` of the Python uv would start, with uv's environment
additions and file limit, under a stand-in for uv itself.

A probe runs only once the hook's own fresh run has ended (so uv's output about
creating or syncing the environment stays that run's), and its answer is kept per uv
binary, working folder, uv argv up to the script, and the variables uv reads. The first
runs of a key are fresh ("warming up"); so is every run whose inputs changed, until uv
was asked again.
"""

from __future__ import annotations

import os
import resource
import tempfile
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import trio

from ..custody import HOOK_ID_ENV, Custody
from .shapes import PythonRun, UvCommand, is_elf
from .uv_inputs import Inputs, inputs, project_above, stamps_hold
from .uv_probe import SITECUSTOMIZE, UvResolution, child_environment, probe, raised_nofile

REFUSED = (
    "UV_ENV_FILE", "UV_RUN_RLIMIT_NOFILE", "UV_NO_CACHE", "UV_ISOLATED", "UV_PROJECT",
    "UV_PROJECT_ENVIRONMENT", "UV_WORKING_DIR", "UV_WORKING_DIRECTORY",
    "UV_INTERNAL__PARENT_INTERPRETER",
)  # fmt: skip
"""uv settings under which a run does more than start the resolved Python (reads dotenv
files into its environment, sets a file limit, builds a throwaway cache or environment)
or looks for the project elsewhere: such hooks run fresh."""
READ_PREFIXES = ("UV_", "XDG_", "PYTHON", "CONDA", "_CONDA", "SSL_", "GIT_", "RUST_", "PYX_")
READ_NAMES = frozenset({
    "PATH", "HOME", "PWD", "SHELL", "TMPDIR", "VIRTUAL_ENV", "LC_ALL", "NETRC", "COLUMNS",
    "NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
    "NO_PROXY", "http_proxy", "https_proxy", "all_proxy", "no_proxy", "HTTP_TIMEOUT",
    "CI", "HF_TOKEN", "PIP_IS_CI", "BASH_VERSION", "ZSH_VERSION", "FISH_VERSION",
})  # fmt: skip
"""The variables uv reads (its ``env_vars.rs``, Linux), besides those with a prefix
above: a resolution is kept per their values."""
_KEEP = 128
PROBES_AT_ONCE = 2
"""A probe is a uv and a Python start; many new hooks at once wait their turn."""
MAX_PROBES = 3
PROBE_WINDOW_S = 60.0
"""A key whose answer stopped holding this often (uv making a new environment each
run, a file it reads rewritten all the time) runs fresh without asking uv again."""


@dataclass(slots=True)
class _Known:
    script: str
    inputs: Inputs | None
    """None: taken while a file was changing; never matches, so uv is asked again."""
    outcome: UvResolution | str
    retry: bool
    """An unusable answer may be asked once more (uv may have been syncing right then)."""
    probed_at: tuple[float, ...]
    """When uv was asked for this key lately (``trio.current_time``)."""


class UvEnvironments:
    """uv's answers per key, probes in flight, and their folder of ``sitecustomize.py``."""

    def __init__(self, custody: Custody, prestart: Callable[[PythonRun], None]) -> None:
        self.custody = custody
        self.prestart = prestart
        """Called with the first run a probe made usable: its zygote can start at once."""
        self.probes = 0
        self._known: OrderedDict[tuple[object, ...], _Known] = OrderedDict()
        self._pending: dict[tuple[object, ...], trio.Event] = {}
        self._turns = trio.Semaphore(PROBES_AT_ONCE)
        self._folder: str | None = None
        self._nursery: trio.Nursery | None = None

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Host the probes until cancelled."""
        with tempfile.TemporaryDirectory(prefix="hookd-uv-probe-") as folder:
            _write_probe(folder)
            async with trio.open_nursery() as nursery:
                self._folder, self._nursery = folder, nursery
                try:
                    task_status.started()
                    await trio.sleep_forever()
                finally:
                    self._folder = self._nursery = None

    async def settled(self) -> None:
        """Wait until every probe asked for so far has its answer."""
        while self._pending:
            await next(iter(self._pending.values())).wait()

    def python_run(
        self, command: UvCommand, uv_env: Mapping[str, str], hook_id: str | None
    ) -> PythonRun | str:
        """The Python run uv would start for ``command`` begun with ``uv_env``, or why
        the hook runs fresh (a probe is asked for, to run once ``hook_id`` has ended)."""
        for name in REFUSED:
            if uv_env.get(name):
                return f"{name} is set"
        in_project = not command.inline and "--no-project" not in command.words
        if in_project and project_above(command.cwd) is not None:
            return "a script without inline metadata in a project (uv syncs it each run)"
        key = self._key(command, uv_env)
        if key is None:
            return "uv changed or vanished"
        if key in self._pending:
            return "warming up"
        known = self._known.get(key)
        if known is None:
            why, retry = "warming up", True
        elif known.inputs is None or known.inputs != inputs(command, uv_env):
            why, retry = "what uv decides the script's environment from changed", True
        elif isinstance(known.outcome, str):
            if not known.retry:
                return known.outcome
            why, retry = known.outcome, False
        elif not stamps_hold(known.outcome.stamps, known.outcome.seen_at_ns):
            why, retry = "the script's uv environment changed", True
        else:
            self._known.move_to_end(key)
            return self._run(command, uv_env, known.outcome)
        now = trio.current_time()
        asked = tuple(t for t in (known.probed_at if known else ()) if now - t < PROBE_WINDOW_S)
        if len(asked) >= MAX_PROBES:
            return f"uv's answer keeps changing (asked {MAX_PROBES} times in a minute)"
        if self._nursery is not None:
            self._pending[key] = trio.Event()
            self._nursery.start_soon(
                self._probe, key, command, dict(uv_env), hook_id, retry, (*asked, now)
            )
        return why

    def view(self) -> list[dict[str, Any]]:
        shown = []
        for known in self._known.values():
            if isinstance(known.outcome, str):
                shown.append({"script": known.script, "unusable": known.outcome})
            else:
                shown.append({"script": known.script, "python": known.outcome.python,
                              "environment": known.outcome.prefix})  # fmt: skip
        return shown

    # -------------------------------------------------------------------------------------
    def _key(self, command: UvCommand, uv_env: Mapping[str, str]) -> tuple[object, ...] | None:
        try:
            info = os.stat(command.program)
        except OSError:
            return None
        read = tuple(sorted((k, v) for k, v in uv_env.items() if _read_by_uv(k)))
        return (command.program, info.st_ino, info.st_size, info.st_mtime_ns, command.cwd,
                command.words, read)  # fmt: skip

    def _base_nofile(self) -> tuple[int, int]:
        """The file limit a hook starts with (the daemon's own, unless it raised it)."""
        return self.custody.hook_nofile or resource.getrlimit(resource.RLIMIT_NOFILE)

    def _run(self, command: UvCommand, uv_env: Mapping[str, str], found: UvResolution) -> PythonRun:
        base = self._base_nofile()
        return PythonRun(
            executable=found.python, argv0=found.python, flags=(), script=command.script,
            args=command.args, cwd=command.cwd, env=child_environment(uv_env, found),
            shell=command.shell, command=command.command, uv=True,
            nofile=raised_nofile(base) if found.raises_nofile else base,
        )  # fmt: skip

    async def _probe(
        self,
        key: tuple[object, ...],
        command: UvCommand,
        uv_env: dict[str, str],
        hook_id: str | None,
        retry: bool,
        probed_at: tuple[float, ...],
    ) -> None:
        try:
            if hook_id is not None:
                await self.custody.ended(hook_id)  # its uv's output stays its own
            assert self._folder is not None
            async with self._turns:
                taken_at = time.time_ns()
                seen = inputs(command, uv_env)
                self.probes += 1
                with self.custody.helping():  # uv and its Python: not escapees
                    outcome = await probe(command, uv_env, self._folder, self._base_nofile())
            if isinstance(outcome, UvResolution) and not is_elf(outcome.python):
                outcome = "uv's Python is not an interpreter binary (a shim or wrapper script)"
            self._known[key] = _Known(
                command.file, None if seen.recent(taken_at) else seen, outcome, retry, probed_at
            )
            self._known.move_to_end(key)
            while len(self._known) > _KEEP:
                self._known.popitem(last=False)
            if isinstance(outcome, UvResolution):
                run = self._run(command, uv_env, outcome)
                self.prestart(run)
        finally:
            self._pending.pop(key).set()


def _write_probe(folder: str) -> None:
    Path(folder, "sitecustomize.py").write_text(SITECUSTOMIZE)


def _read_by_uv(name: str) -> bool:
    return name != HOOK_ID_ENV and (name in READ_NAMES or name.startswith(READ_PREFIXES))
