"""Build the native ``hookd-relay`` (``relay.c`` beside this file) with the C compiler that
installs from PyPI: the ``ziglang`` wheel's ``zig cc``. Standard library only: the client
package's build hook (``client/python/hatch_build.py``) runs it at ``pip install``, the
tests and CI run it as a program.

    python client/python/native/build.py OUT            # build the relay at OUT
    python client/python/native/build.py --install      # into this environment, where
                                                        # 'pip install' puts it

Where it goes: ``<data>/libexec/hookd/hookd-relay``, ``<data>`` being the installation's
data folder (a virtualenv's root, ``~/.local``, ``/usr/local``), whose ``bin`` holds the
``hookd`` program the relay starts when no daemon answers (``RELAY_IN_DATA``,
``DAEMON_IN_DATA``). Its name is ``hookd-relay``, as the Python relay's: every rule that
recognises a relay entry recognises both. ``relay_program.relay_path`` picks it when it
is there and runs.

A build that cannot be made (no ``ziglang`` wheel for this platform, a compiler error)
is no failure of the install: the Python relay serves (``BuildError`` says why).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES = ("relay.c", "relay_table.h")
RELAY_IN_DATA = "libexec/hookd/hookd-relay"
"""Where the native relay is installed, under the installation's data folder."""
DAEMON_IN_DATA = "bin/hookd"
"""Where the ``hookd`` program is, under the same folder (its scripts folder)."""
FLAGS = ["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-s"]
BUILD_TIMEOUT_S = 600
"""zig's first build fills its cache (its libc's start files): tens of seconds."""


class BuildError(Exception):
    """Why the native relay could not be built; ``str()`` says it in one line."""


def source_digest() -> str:
    """What ``hookd-relay --version`` names its source by: the relay's own check that it
    was built from the source beside it."""
    digest = hashlib.sha256()
    for name in SOURCES:
        digest.update((HERE / name).read_bytes())
    return digest.hexdigest()[:16]


def version_line() -> str:
    """What a relay built from this source says to ``--version``."""
    from_header = (HERE / "relay_table.h").read_text()
    version = from_header.split('#define RELAY_VERSION "', 1)[1].split('"', 1)[0]
    return f"hookd-relay {version} (native, source {source_digest()})"


def compiler() -> list[str]:
    """``python -m ziglang cc`` of this Python, when the ``ziglang`` wheel is installed."""
    import importlib.util

    if importlib.util.find_spec("ziglang") is None:
        raise BuildError("no C compiler: the 'ziglang' package is not installed in "
                         f"{sys.executable} ('pip install ziglang')")  # fmt: skip
    return [sys.executable, "-m", "ziglang", "cc"]


def build(out: Path) -> Path:
    """Compile the relay to ``out`` and check that it runs (``--version``)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    depth = len(Path(RELAY_IN_DATA).parts)
    defines = [f'-DRELAY_SOURCE="{source_digest()}"', f"-DRELAY_DEPTH={depth}",
               f'-DDAEMON_IN_DATA="{DAEMON_IN_DATA}"']  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="hookd-relay-build") as tmp:
        built = Path(tmp) / "hookd-relay"
        command = [*compiler(), *FLAGS, *defines, "-o", str(built), str(HERE / "relay.c")]
        env = {**os.environ, "ZIG_LOCAL_CACHE_DIR": str(Path(tmp) / "zig-cache")}
        try:
            done = subprocess.run(command, capture_output=True, text=True, env=env,
                                  timeout=BUILD_TIMEOUT_S, check=False)  # fmt: skip
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise BuildError(f"the C compiler did not run: {exc}") from None
        if done.returncode != 0:
            said = (done.stderr.strip() or done.stdout.strip()).splitlines()[-12:]
            raise BuildError("the C compiler failed: " + " | ".join(said))
        check(built)
        os.replace(built, out) if _same_device(built, out) else _copy(built, out)
    return out


def check(relay: Path) -> None:
    """The relay at ``relay`` runs here and is built from this source."""
    try:
        done = subprocess.run([str(relay), "--version"], capture_output=True, text=True,
                              timeout=60, check=False)  # fmt: skip
    except OSError as exc:
        raise BuildError(f"the relay built does not run here: {exc}") from None
    if done.returncode != 0 or done.stdout.strip() != version_line():
        raise BuildError(f"the relay built does not run here: {done.stdout!r} {done.stderr!r}")


def installed_path(scheme: str | None = None) -> Path:
    """Where ``pip install`` puts the native relay in this environment (``scheme``: a
    sysconfig install scheme, this Python's default when None)."""
    data = sysconfig.get_path("data", scheme) if scheme else sysconfig.get_path("data")
    return Path(data) / RELAY_IN_DATA


def _same_device(a: Path, b: Path) -> bool:
    return os.stat(a).st_dev == os.stat(b.parent).st_dev


def _copy(source: Path, target: Path) -> None:
    import shutil

    partial = target.with_name(f".{target.name}.{os.getpid()}")
    shutil.copy2(source, partial)
    os.replace(partial, target)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("out", nargs="?", type=Path, help="the file to build")
    where.add_argument("--install", action="store_true", help="into this environment")
    args = parser.parse_args()
    out = installed_path() if args.install else args.out
    try:
        build(out)
    except BuildError as exc:
        print(f"hookd-relay: not built: {exc}", file=sys.stderr)
        return 1
    print(f"hookd-relay: built {out} ({version_line()})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
