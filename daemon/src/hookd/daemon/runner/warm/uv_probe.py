"""Ask uv itself how it runs a script: with which Python, in which environment, with
which environment variables, file limit and process layout.

The probe is the hook's own ``uv run`` command (the same uv, argv, folder and
environment) with one addition: ``PYTHONPATH`` starts with a folder holding hookd's
``sitecustomize.py``. uv never reads ``PYTHONPATH`` (its interpreter queries run
isolated, ``-I``), so it resolves, checks and syncs the script's environment exactly as
it does for the hook, then starts the Python it chose; that Python imports the
``sitecustomize`` while it starts, before the script: it reports what uv gave it (its
argv and environment as exec'd, file limit, parent, process group, ``sys.prefix``, the
stat of the environment's folders) and exits without running the script.

What uv adds to its child's environment is modelled (``child_environment``: ``PATH``
prefixed with the environment's scripts folder, ``UV``, ``UV_RUN_RECURSION_DEPTH``,
``VIRTUAL_ENV``, all sorted by name as Rust's ``Command`` passes them) and every probe
checks the model against what uv really gave; a mismatch, any output from uv, or a
layout other than "uv's child in uv's own process group" makes the environment unusable
warm, with the reason.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import trio

from ..custody import HOOK_ID_ENV
from .shapes import UvCommand
from .uv_inputs import Signature

PROBE_TIMEOUT_S = 60.0
UV_MAX_NOFILE = 0x100000
"""uv raises its soft open-files limit to its hard one, capped here (its children
inherit it)."""

SITECUSTOMIZE = r'''"""hookd's uv probe: what uv gave this Python; exits before the script."""
import json, os, sys, time


def _signature(path):
    try:
        info = os.stat(path)
    except OSError:
        return None
    return [info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns]


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _report():
    import resource
    here = os.path.dirname(os.path.abspath(__file__))
    ppid = os.getppid()
    try:
        parent = os.readlink("/proc/%d/exe" % ppid)
    except OSError:
        parent = ""
    path = [p for p in sys.path if p and os.path.abspath(p) != here]
    watched = [os.path.join(sys.prefix, "pyvenv.cfg")] + [p for p in path if os.path.isabs(p)]
    latin = lambda raw: [part.decode("latin-1") for part in raw.split(b"\0")[:-1]]
    return {
        "cmdline": latin(_read("/proc/self/cmdline")),
        "environ": latin(_read("/proc/self/environ")),
        "parent": parent,
        "ppid": ppid,
        "pgid": os.getpgrp(),
        "parentPgid": os.getpgid(ppid),
        "sid": os.getsid(0),
        "executable": sys.executable,
        "prefix": sys.prefix,
        "basePrefix": sys.base_prefix,
        "nofile": list(resource.getrlimit(resource.RLIMIT_NOFILE)),
        "stamps": [[p, _signature(p)] for p in watched],
        "now": time.time_ns(),
    }


os.write(1, json.dumps(_report()).encode())
os._exit(0)
'''

_WRAPPER = """import os, resource, sys
resource.setrlimit(resource.RLIMIT_NOFILE, (int(sys.argv[1]), int(sys.argv[2])))
with open("/proc/self/environ", "rb") as f:
    env = dict(e.split(b"=", 1) for e in f.read().split(b"\\0") if b"=" in e)
os.execve(sys.argv[3], sys.argv[4:], env)
"""
"""Starts uv with the file limit a hook starts with, and the environment exactly as given
(this Python's own start-up may add ``LC_CTYPE``: the exec'd environment is re-read)."""


@dataclass(frozen=True, slots=True)
class UvResolution:
    """How uv runs one script, as a probe saw it."""

    python: str
    """The interpreter uv starts, as its ``argv[0]`` (an absolute path)."""
    path_prefix: str
    """What uv puts in front of ``PATH``."""
    uv_exe: str
    """``UV``: uv's own executable."""
    virtual_env: str | None
    prefix: str
    """The environment (``sys.prefix``)."""
    raises_nofile: bool
    """uv raised its soft open-files limit (and so its child's) before the spawn."""
    stamps: tuple[tuple[str, Signature | None], ...]
    """The environment's ``pyvenv.cfg`` and ``sys.path`` folders as the probe saw them."""
    seen_at_ns: int


def raised_nofile(limits: tuple[int, int]) -> tuple[int, int]:
    """The limit uv gives its child when it starts with ``limits``."""
    soft, hard = limits
    infinity = resource.RLIM_INFINITY
    target = UV_MAX_NOFILE if hard == infinity else min(hard, UV_MAX_NOFILE)
    return (soft, hard) if soft == infinity or soft >= target else (target, hard)


def child_environment(
    uv_env: Mapping[str, str], resolution: UvResolution
) -> tuple[tuple[str, str], ...]:
    """The environment uv 0.x gives the Python it runs: its own plus ``PATH``, ``UV``,
    ``UV_RUN_RECURSION_DEPTH`` and ``VIRTUAL_ENV``, sorted by name (a Rust ``Command``
    whose environment was changed passes it from a sorted map)."""
    env = dict(uv_env)
    path = env.get("PATH")
    env["PATH"] = resolution.path_prefix if path is None else f"{resolution.path_prefix}:{path}"
    env["UV"] = resolution.uv_exe
    env["UV_RUN_RECURSION_DEPTH"] = str(int(env.get("UV_RUN_RECURSION_DEPTH") or 0) + 1)
    if resolution.virtual_env is not None:
        env["VIRTUAL_ENV"] = resolution.virtual_env
    return tuple(sorted(env.items(), key=lambda item: os.fsencode(item[0])))


async def probe(
    command: UvCommand, uv_env: Mapping[str, str], folder: str, nofile: tuple[int, int]
) -> UvResolution | str:
    """Run ``command`` as a probe (``folder`` holds the ``sitecustomize.py``), started
    with ``uv_env`` and the file limit ``nofile``; how uv ran it, or why hookd cannot
    stand in for it."""
    env = {k: ("probe" if k == HOOK_ID_ENV else v) for k, v in uv_env.items()}
    before = env.get("PYTHONPATH")
    env["PYTHONPATH"] = folder if before is None else f"{folder}:{before}"
    argv = [
        sys.executable, "-I", "-S", "-c", _WRAPPER, str(nofile[0]), str(nofile[1]),
        command.program, *command.words, *command.args,
    ]  # fmt: skip
    with trio.move_on_after(PROBE_TIMEOUT_S):
        try:
            done = await trio.run_process(
                argv, stdin=subprocess.DEVNULL, capture_stdout=True, capture_stderr=True,
                cwd=command.cwd, env=env, start_new_session=True, check=False,
                deliver_cancel=_kill_group,
            )  # fmt: skip
        except OSError as exc:
            return f"uv could not start ({exc.strerror or exc})"
        if done.stderr:
            first = done.stderr.decode("utf-8", "replace").strip().splitlines()[:1] or [""]
            return f"uv writes to stderr before the script runs ({first[0][:120]})"
        if done.returncode != 0:
            return f"uv's probe run exited {done.returncode}"
        try:
            report = json.loads(done.stdout)
        except ValueError:
            report = None
        if not isinstance(report, dict):
            return "uv's Python did not report (it ran without site, or wrote at start-up)"
        return _resolution(report, command, env, nofile)
    return f"uv did not start the script within {PROBE_TIMEOUT_S:.0f} s"


async def _kill_group(process: trio.Process) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)


def _resolution(
    report: dict[str, object], command: UvCommand, env: Mapping[str, str], nofile: tuple[int, int]
) -> UvResolution | str:
    cmdline = [_raw(a) for a in _strings(report.get("cmdline"))]
    if cmdline[1:] != [command.script, *command.args] or not os.path.isabs(cmdline[0]):
        return "uv runs the script with interpreter options or another argv"
    if report.get("parent") != os.path.realpath(command.program):
        return "uv does not stay the script's parent"
    ppid = report.get("ppid")
    if not report.get("pgid") == report.get("parentPgid") == report.get("sid") == ppid:
        return "uv puts the script in a process group of its own"
    given = [_pair(entry) for entry in _strings(report.get("environ"))]
    observed = dict(given)
    path = observed.get("PATH", "")
    suffix = env.get("PATH")
    if suffix is not None and not path.endswith(f":{suffix}"):
        return "uv changes PATH other than by a prefix"
    prefix = _raw(str(report.get("prefix")))
    resolution = UvResolution(
        python=cmdline[0],
        path_prefix=path[: len(path) - len(suffix) - 1] if suffix is not None else path,
        uv_exe=observed.get("UV", ""),
        virtual_env=observed.get("VIRTUAL_ENV"),
        prefix=prefix,
        raises_nofile=False,
        stamps=tuple((_raw(str(p)), _signature(s)) for p, s in _pairs_of(report.get("stamps"))),
        seen_at_ns=int(str(report.get("now", 0))),
    )
    model = child_environment(env, resolution)
    if tuple(given) != model:
        names = sorted({name for name, _ in set(given) ^ set(model)})
        if not names:
            return "uv passes its child's environment in an order hookd does not model"
        return f"uv sets variables hookd does not model ({', '.join(names[:3])})"
    limits = tuple(_ints(report.get("nofile")))
    if limits == raised_nofile(nofile):
        return replace(resolution, raises_nofile=limits != nofile)
    if limits == nofile:
        return resolution
    return "uv gives the script a file limit hookd does not model"


def _raw(text: str) -> str:
    """Bytes sent as latin-1 text, back to a str as the daemon spells paths."""
    return os.fsdecode(text.encode("latin-1"))


def _pair(entry: str) -> tuple[str, str]:
    name, _, value = entry.partition("=")
    return _raw(name), _raw(value)


def _strings(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _ints(value: object) -> list[int]:
    return [int(v) for v in value] if isinstance(value, list) else []


def _pairs_of(value: object) -> Sequence[tuple[object, object]]:
    if not isinstance(value, list):
        return []
    return [(p[0], p[1]) for p in value if isinstance(p, list) and len(p) == 2]


def _signature(value: object) -> Signature | None:
    if not isinstance(value, list) or len(value) != 4:
        return None
    return (int(value[0]), int(value[1]), int(value[2]), int(value[3]))
