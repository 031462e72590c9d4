"""How a hook is started on Windows: command lookup, script types, shells, quoting.

Pure functions of the platform facts they are given (``PATH``, ``PATHEXT``, an
existence check), so that they are unit-tested on Linux. **None of this has run on a
real Windows machine**, and the daemon itself serves only Unix sockets today (the
protocol package computes the named-pipe address, ``\\\\.\\pipe\\hookd-<user>``, for the
client side): this module is the part of Windows support that could be written and
pinned here. The dialects call it when ``sys.platform == "win32"``.

Rules, from the agents' documents:

* Claude Code: shell form runs in Git Bash when it is installed, else PowerShell;
  ``shell: "powershell"`` picks PowerShell; exec form needs a real executable (``.cmd``
  and ``.bat`` shims cannot be spawned without a shell).
* Augment: ``.ps1`` through PowerShell, ``.bat``/``.cmd`` through ``cmd.exe``.
* Cline SDK: interpreter by extension (``pwsh`` for ``.ps1``).
"""

from __future__ import annotations

import ntpath
import subprocess
from collections.abc import Callable, Sequence

DEFAULT_PATHEXT = ".COM;.EXE;.BAT;.CMD"
POWERSHELL_FLAGS = ("-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass")
CMD_METACHARACTERS = frozenset('"%^&|<>()!\r\n')
"""Characters ``cmd.exe`` interprets even inside quotes (``%`` and ``!`` expand
variables, ``"`` ends the quoting): never passed through to a batch file (BatBadBut)."""


class UnsafeForCmd(ValueError):
    """A value that ``cmd.exe`` would re-interpret; the message names the character."""


def resolve_command(
    name: str,
    *,
    path_env: str,
    pathext: str | None,
    exists: Callable[[str], bool],
) -> str | None:
    """The file ``name`` runs, as ``CreateProcess`` plus ``PATHEXT`` would find it.

    A name with a directory part is looked up where it points; a bare name only on
    ``PATH`` (deliberately not in the current folder first, as ``cmd.exe`` would: a
    hook's workspace is not trusted to shadow ``git`` or ``node``). A name that already
    has an extension listed in ``PATHEXT`` is tried as is; otherwise each ``PATHEXT``
    extension is tried in order. None when nothing matches.
    """
    extensions = [e.lower() for e in (pathext or DEFAULT_PATHEXT).split(";") if e]
    has_extension = ntpath.splitext(name)[1].lower() in extensions
    candidates = [name] if has_extension else [name + ext for ext in extensions]
    if ntpath.dirname(name):
        folders = [""]
    else:
        folders = [f.strip('"') for f in path_env.split(";") if f.strip()]
    for folder in folders:
        for candidate in candidates:
            path = ntpath.join(folder, candidate) if folder else candidate
            if exists(path):
                return path
    return None


def script_argv(
    path: str,
    args: Sequence[str] = (),
    *,
    powershell: str = "powershell.exe",
    bash: str | None = None,
) -> tuple[str, ...]:
    """How a hook script file is started, by its extension.

    ``.ps1``: PowerShell with ``-File`` (no profile, execution policy bypassed for this
    process only). ``.cmd``/``.bat``: ``cmd.exe /d /s /c`` with the whole command line
    quoted once, and arguments with cmd metacharacters refused (``UnsafeForCmd``).
    ``.sh``: Git Bash when found (``bash``), else an error left to the spawn. ``.py``,
    ``.js``/``.mjs``/``.cjs``, ``.ts``: ``python``, ``node``, ``bun run``. Anything else
    (``.exe``, ``.com``) directly.
    """
    ext = ntpath.splitext(path)[1].lower()
    if ext == ".ps1":
        return (powershell, *POWERSHELL_FLAGS, "-File", path, *args)
    if ext in (".cmd", ".bat"):
        return cmd_argv([path, *args])
    if ext == ".sh":
        return (bash or "bash.exe", path, *args)
    if ext == ".py":
        return ("python.exe", path, *args)
    if ext in (".js", ".mjs", ".cjs"):
        return ("node.exe", path, *args)
    if ext in (".ts", ".mts", ".cts"):
        return ("bun.exe", "run", path, *args)
    return (path, *args)


def cmd_argv(words: Sequence[str]) -> tuple[str, ...]:
    """``cmd.exe /d /s /c "<line>"`` for a batch file and its arguments.

    ``/d`` skips AutoRun commands, ``/s`` makes cmd strip exactly the outer quotes. Each
    word is quoted the ``CreateProcess`` way; a word containing a character cmd would
    still interpret is refused, the mitigation for BatBadBut (CVE-2024-24576 class).
    """
    for word in words:
        bad = sorted(set(word) & CMD_METACHARACTERS)
        if bad:
            raise UnsafeForCmd(
                f"{word!r} contains {''.join(bad)!r}, which cmd.exe would interpret; "
                "batch files cannot take it safely (rename the file or use a .ps1 or .exe)"
            )
    line = subprocess.list2cmdline(list(words))
    return ("cmd.exe", "/d", "/s", "/c", f'"{line}"')


def shell_argv(
    command: str,
    shell: str | None,
    *,
    git_bash: str | None,
    powershell: str = "powershell.exe",
) -> tuple[str, ...]:
    """Claude Code's shell form on Windows: ``shell: "powershell"`` runs PowerShell;
    otherwise Git Bash when installed, else PowerShell ("Defaults to bash, or to
    powershell on Windows when Git Bash isn't installed")."""
    if shell == "powershell" or git_bash is None:
        return (powershell, *POWERSHELL_FLAGS, "-Command", command)
    return (git_bash, "-c", command)


def find_git_bash(program_files: Sequence[str], exists: Callable[[str], bool]) -> str | None:
    """Git for Windows' ``bash.exe`` (``<Program Files>\\Git\\bin\\bash.exe``), if any."""
    for root in program_files:
        candidate = ntpath.join(root, "Git", "bin", "bash.exe")
        if exists(candidate):
            return candidate
    return None


def command_line(argv: Sequence[str]) -> str:
    """The single command line ``CreateProcess`` receives for ``argv`` (MS C runtime
    quoting rules), as ``subprocess`` builds it on Windows."""
    return subprocess.list2cmdline(list(argv))
