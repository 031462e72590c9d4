r"""EXPERIMENTAL. How a hook would be started on Windows: command lookup, script types,
shells, quoting.

**None of this has run on a real Windows machine, and hookd does not run on Windows**:
the server binds ``AF_UNIX`` and the runner kills process groups. The rules live here,
beside the two dialects that call them under ``sys.platform == "win32"`` (Claude's shell
form, Augment's script argv), so that a Windows runner starts from tested rules; on
Linux only :func:`powershell_placeholders` runs (Claude's ``shell: "powershell"``).
Kept rather than parked on a branch because ``docs/compatibility.md``'s Windows section
cites these tests as the documented Windows behaviour; a Windows port must still write
the runner side (``command_line(argv)`` passed as one string, which no runner does yet).

Every function is pure: it takes the platform facts (an environment mapping, ``PATH``,
``PATHEXT``, an existence check, a ``which``-like lookup) as parameters, so that the
rules are unit-tested on Linux (``tests/daemon/dialects/test_windows.py``). The daemon
itself serves only Unix sockets today; :func:`pipe_address` is the name a Windows server
would listen on.

The argv tuples built here are meant for :func:`command_line`, which renders the single
string ``CreateProcessW`` receives. That matters: Windows has no argv, each program
parses its own command line, and three parsers are involved:

* the Microsoft C runtime rules (``CommandLineToArgvW``; node, python, py, bun,
  PowerShell, every ``.exe`` built with MSVC or MinGW): :func:`quote_arg`;
* ``cmd.exe``, which re-parses a batch file's command line with its own rules and
  expands ``%VAR%`` even inside quotes (BatBadBut, CVE-2024-24576 class): the line is
  built by :func:`batch_argv` with :func:`quote_cmd_arg` and passed *verbatim*;
* the MSYS2/Cygwin runtime of Git Bash, which parses the command line itself (quotes,
  backslash escapes, globbing): :func:`quote_msys_arg`.

So on Windows a runner must pass ``command_line(argv)`` as a *string* to
``open_process`` (``subprocess`` then hands it to ``CreateProcess`` untouched), never
the list (``subprocess.list2cmdline`` would re-quote the verbatim ``cmd.exe`` line).

Sources: the agents' documents in ``docs/sources/reference`` (cited per function), the notes
``claude-style-runners.md`` and ``cline-implementation.md``, Rust's
``std::sys::windows::args::make_bat_command_line`` (the BatBadBut fix), and Cygwin's
``winsup/cygwin/dcrt0.cc`` (``quoted``, ``globify``) for Git Bash.
"""

from __future__ import annotations

import ntpath
import re
from collections.abc import Callable, Iterable, Mapping, Sequence

Exists = Callable[[str], bool]
"""True when the path names an existing regular file (``os.path.isfile`` on Windows)."""
Which = Callable[[str], str | None]
"""A ``PATH`` lookup: the full path of a program, or None (see :func:`which_in`)."""

DEFAULT_PATHEXT = ".COM;.EXE;.BAT;.CMD;.VBS;.VBE;.JS;.JSE;.WSF;.WSH;.MSC"
"""Windows 10/11's default ``PATHEXT``, used when the environment has none."""
EXECUTABLE_PATHEXT = ".COM;.EXE"
"""What ``CreateProcess`` itself can start: give this as ``pathext`` for a lookup that
must find a real executable (Claude's exec form, the Cline SDK's interpreters)."""
DIRECT_EXTENSIONS = frozenset({".exe", ".com"})
POWERSHELL_FLAGS = ("-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass")
"""No profile (fast, no profile noise on stdout), never prompt (a prompt would hang on
the piped stdin), and this process only may run local script files."""
CMD_FLAGS = ("/d", "/e:ON", "/v:OFF", "/s", "/c")
"""``/d`` no AutoRun, ``/e:ON`` extensions (needed by the ``%cd:~,%`` escape), ``/v:OFF``
no delayed expansion (``!`` stays literal), ``/s`` strip exactly the outer quotes."""
CMD_LINE_MAX = 8191
"""The longest command line ``cmd.exe`` accepts."""
PLACEHOLDERS = ("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA")
WINDOWS_POWERSHELL = r"C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe"
WINDOWS_CMD = r"C:\Windows\System32\cmd.exe"
WINDOWS_INTERPRETERS: Mapping[str, tuple[str, ...]] = {
    ".py": ("py", "-3"),
    ".js": ("node",),
    ".mjs": ("node",),
    ".cjs": ("node",),
    ".ts": ("bun", "run"),
    ".mts": ("bun", "run"),
    ".cts": ("bun", "run"),
}
"""The Cline SDK's interpreters on Windows (``inferHookCommand``: ``py -3`` for Python,
``node``, ``bun run``); the names are looked up on ``PATH`` by the caller."""
BASH_EXTENSIONS = frozenset({".sh", ".bash", ".zsh", ""})
_CMD_SAFE = frozenset("#$*+-./:?@\\_")
_PS_EXIT_TAIL = "if (-not $?) { if ($LASTEXITCODE) { exit $LASTEXITCODE } exit 1 }"


class LaunchError(ValueError):
    """A hook that cannot be started this way; the message says why and what to do."""


class UnsafeForCmd(LaunchError):
    """A value ``cmd.exe`` cannot be given unambiguously (a newline, a NUL, a ``"`` in a
    file name, or a line over 8191 characters)."""


class UnsafeForMsys(LaunchError):
    """An argument Git Bash's runtime would read differently from what was meant."""


def env_get(env: Mapping[str, str], name: str, default: str | None = None) -> str | None:
    """``env[name]`` with Windows' case-insensitive names (``Path`` is ``PATH``)."""
    if name in env:
        return env[name]
    upper = name.upper()
    for key, value in env.items():
        if key.upper() == upper:
            return value
    return default


def split_pathext(pathext: str | None) -> tuple[str, ...]:
    """``PATHEXT`` as lowercase extensions in order, duplicates and junk dropped; the
    Windows default when it is unset or empty."""
    found: list[str] = []
    for part in (pathext or DEFAULT_PATHEXT).split(";"):
        ext = part.strip().lower()
        if ext.startswith(".") and len(ext) > 1 and ext not in found:
            found.append(ext)
    return tuple(found)


def _is_absolute(path: str) -> bool:
    drive, tail = ntpath.splitdrive(path)
    return drive.startswith(("\\\\", "//")) or (bool(drive) and tail.startswith(("\\", "/")))


def resolve_command(
    name: str,
    path_env: str,
    pathext: str | None,
    exists: Exists,
    *,
    cwd: str | None = None,
    search_cwd: bool = False,
) -> str | None:
    r"""The file ``name`` runs, found the way ``cmd.exe`` finds it; None if nothing.

    * **Candidates.** A name with an explicit extension (any, not only one listed in
      ``PATHEXT``: ``hook.ps1`` names that file) is tried as written first, then with
      each ``PATHEXT`` extension appended in order; a name without one only with the
      extensions (Windows never runs an extensionless file). Go's ``exec.LookPath``
      and ``cmd.exe`` do the same.
    * **Folders.** A name with a folder part (``C:\h\x``, ``.\x``, ``hooks\x``) is looked
      up there only (relative to ``cwd`` when given). A bare name is looked up in the
      ``PATH`` folders in order (quotes around an entry are dropped, empty entries
      skipped).
    * **Current folder: a deliberate difference.** ``cmd.exe`` and ``CreateProcess``
      look in the current folder *first*. hookd does not unless ``search_cwd`` is true
      (and then ``cwd`` is searched first, as cmd does): a hook's workspace must not be
      able to shadow ``git`` or ``node`` with a planted ``git.exe`` (the reason Go 1.19
      made ``LookPath`` refuse such results, ``exec.ErrDot``). For the same reason a
      relative ``PATH`` entry (``.``) is skipped unless ``search_cwd``.
    """
    if not name or "\0" in name:
        return None
    extensions = split_pathext(pathext)
    ext = ntpath.splitext(name)[1]
    candidates = [name] if len(ext) > 1 else []
    candidates += [name + e for e in extensions]
    if ntpath.dirname(name) or ntpath.splitdrive(name)[0]:
        if cwd is not None and not _is_absolute(name):
            candidates = [ntpath.join(cwd, c) for c in candidates]
        return next((c for c in candidates if exists(c)), None)
    folders: list[str] = [cwd] if search_cwd and cwd else []
    for entry in path_env.split(";"):
        folder = entry.strip().strip('"')
        if folder and (search_cwd or _is_absolute(folder)):
            folders.append(folder)
    for folder in folders:
        for candidate in candidates:
            path = ntpath.join(folder, candidate)
            if exists(path):
                return path
    return None


def which_in(env: Mapping[str, str], exists: Exists, *, pathext: str | None = None) -> Which:
    """A ``which`` over ``env``'s ``PATH`` and ``PATHEXT`` (or the ``pathext`` given)."""
    path_env = env_get(env, "PATH", "") or ""
    extensions = pathext if pathext is not None else env_get(env, "PATHEXT")

    def which(name: str) -> str | None:
        return resolve_command(name, path_env, extensions, exists)

    return which


def _system_root(env: Mapping[str, str]) -> str:
    return env_get(env, "SystemRoot") or env_get(env, "windir") or "C:\\Windows"


def comspec(env: Mapping[str, str]) -> str:
    """The ``cmd.exe`` to run batch files with: ``%ComSpec%`` when it is an absolute path
    to a ``cmd.exe``, else ``%SystemRoot%\\System32\\cmd.exe``. Never the bare name:
    ``CreateProcess`` would look for ``cmd.exe`` in the current folder first."""
    given = env_get(env, "ComSpec") or ""
    if _is_absolute(given) and ntpath.basename(given).lower() == "cmd.exe":
        return given
    return ntpath.join(_system_root(env), "System32", "cmd.exe")


def find_powershell(
    env: Mapping[str, str], exists: Exists, which: Which, *, prefer_core: bool = True
) -> str | None:
    """PowerShell's full path, or None.

    Claude Code "auto-detects ``pwsh.exe``, the PowerShell 7 and later executable, and
    falls back to ``powershell.exe`` for Windows PowerShell 5.1" (claude reference
    §Windows PowerShell tool): ``prefer_core`` (the default). Augment documents
    ``powershell.exe`` and the Cline SDK runs ``powershell``: pass ``prefer_core=False``
    to try Windows PowerShell first. Each is looked up on ``PATH`` first, then at its
    standard install path (Cline probes the install paths the same way).
    """
    core = [which("pwsh.exe"), _under_program_files(env, exists, "PowerShell", "7", "pwsh.exe")]
    legacy_path = ntpath.join(
        _system_root(env), "System32", "WindowsPowerShell", "v1.0", "powershell.exe"
    )
    desktop = [which("powershell.exe"), legacy_path if exists(legacy_path) else None]
    for found in (core + desktop) if prefer_core else (desktop + core):
        if found:
            return found
    return None


def _under_program_files(env: Mapping[str, str], exists: Exists, *parts: str) -> str | None:
    for root in _program_files(env):
        candidate = ntpath.join(root, *parts)
        if exists(candidate):
            return candidate
    return None


def _program_files(env: Mapping[str, str]) -> list[str]:
    roots: list[str] = []
    for name in ("ProgramFiles", "ProgramW6432", "ProgramFiles(x86)"):
        value = env_get(env, name)
        if value and value not in roots:
            roots.append(value)
    return roots or ["C:\\Program Files"]


def _is_wsl_launcher(path: str, env: Mapping[str, str]) -> bool:
    """``System32\\bash.exe`` and the Store aliases start WSL, not Git Bash."""
    folded = path.replace("/", "\\").lower()
    system32 = ntpath.join(_system_root(env), "System32").lower() + "\\"
    return folded.startswith(system32) or "\\windowsapps\\" in folded


def find_git_bash(env: Mapping[str, str], exists: Exists, which: Which | None = None) -> str | None:
    r"""Git for Windows' ``bash.exe``, or None. Tried in order:

    1. ``CLAUDE_CODE_GIT_BASH_PATH`` when it names an existing file (Claude Code's own
       override for Git installed elsewhere);
    2. next to ``git.exe`` found on ``PATH``: ``<git>\cmd\git.exe`` and
       ``<git>\mingw64\bin\git.exe`` both lead to ``<git>\bin\bash.exe``;
    3. ``<Program Files>\Git\bin\bash.exe`` (``ProgramFiles``, ``ProgramW6432``,
       ``ProgramFiles(x86)``) and ``%LOCALAPPDATA%\Programs\Git\bin\bash.exe`` (the
       per-user install);
    4. ``bash.exe`` on ``PATH`` (an MSYS2 or Cygwin bash),

    never ``System32\bash.exe`` or a ``WindowsApps`` alias: those start WSL, where the
    hook's Windows paths and environment do not exist (claude-plugins-official#2697 in
    the notes). ``bin\bash.exe`` is preferred to ``usr\bin\bash.exe``: it sets up the
    Git environment (``PATH`` with ``mingw64\bin``) before starting bash.
    """
    override = env_get(env, "CLAUDE_CODE_GIT_BASH_PATH")
    if override and exists(override):
        return override
    if which is not None:
        git = which("git.exe")
        if git and not _is_wsl_launcher(git, env):
            folder = ntpath.dirname(git)
            for root in (ntpath.dirname(folder), ntpath.dirname(ntpath.dirname(folder))):
                candidate = ntpath.join(root, "bin", "bash.exe")
                if root and exists(candidate):
                    return candidate
    roots = [ntpath.join(r, "Git") for r in _program_files(env)]
    local = env_get(env, "LOCALAPPDATA")
    if local:
        roots.append(ntpath.join(local, "Programs", "Git"))
    for root in roots:
        candidate = ntpath.join(root, "bin", "bash.exe")
        if exists(candidate):
            return candidate
    if which is not None:
        found = which("bash.exe")
        if found and not _is_wsl_launcher(found, env):
            return found
    return None


# --- quoting -----------------------------------------------------------------------


def quote_arg(arg: str, *, force: bool = False) -> str:
    """One argument quoted for the Microsoft C runtime (``CommandLineToArgvW``).

    Left bare when it has no space, tab or quote and is not empty (like
    ``subprocess.list2cmdline``); otherwise wrapped in quotes, where a ``"`` is written
    ``\\"`` and backslashes are doubled only where they precede a ``"`` (libuv's
    ``quote_cmd_arg``, which node and so the agents use).
    """
    if "\0" in arg:
        raise LaunchError("an argument cannot contain a NUL character")
    if not force and arg and not any(c in arg for c in ' \t"'):
        return arg
    out = ['"']
    backslashes = 0
    for char in arg:
        if char == "\\":
            backslashes += 1
            continue
        if char == '"':
            out.append("\\" * (2 * backslashes + 1) + '"')
        else:
            out.append("\\" * backslashes + char)
        backslashes = 0
    out.append("\\" * (2 * backslashes) + '"')
    return "".join(out)


def list2cmdline(args: Iterable[str], *, force_quotes: bool = False) -> str:
    """Arguments joined by spaces, each quoted by :func:`quote_arg`."""
    return " ".join(quote_arg(a, force=force_quotes) for a in args)


def _is_drive_spec(arg: str) -> bool:
    return len(arg) >= 2 and arg[0].isascii() and arg[0].isalpha() and arg[1] == ":"


def quote_msys_arg(arg: str) -> str:
    r"""One argument quoted for Git Bash's MSYS2 runtime (Cygwin's ``build_argv``).

    When started by a Windows process, that runtime splits the command line itself:
    ``"`` and ``'`` quote, and (with globbing on, the default) ``globify`` then reads
    a double-quoted run with ``\\`` and ``\"`` as escapes; an unquoted ``*`` or ``?``
    is expanded against the current folder. The MS C runtime quoting is therefore
    wrong for it (``a\\b`` would arrive as ``a\b``). Here every argument is wrapped in
    double quotes (no globbing), ``\`` is written ``\\`` and ``"`` ``\"``.

    One exception, refused with :class:`UnsafeForMsys`: a word starting with a drive
    letter (``C:``) is a "DOS path" to that runtime, read with literal backslashes and
    no escapes, which the MSVCRT-like parser proposed for Cygwin (cygwin-patches, 2021)
    would not do. Such a word
    must hold neither ``\`` nor ``"``: give paths with forward slashes (``C:/h/x.sh``,
    which :func:`script_argv` does). A UNC word (``\\server\share``) is a DOS path to
    newer runtimes too, but its doubled backslashes no longer look like one, so it is
    escaped like any other. Derived from ``winsup/cygwin/dcrt0.cc``; **not verified on
    Windows**, and ``MSYS=noglob`` changes these rules.
    """
    if "\0" in arg:
        raise UnsafeForMsys("an argument cannot contain a NUL character")
    if _is_drive_spec(arg):
        if "\\" in arg or '"' in arg:
            raise UnsafeForMsys(
                f"{arg!r} starts with a drive letter, so Git Bash reads it as a DOS path "
                'where "\\" and \'"\' cannot be escaped; write the path with "/" instead'
            )
        return f'"{arg}"'
    return '"' + arg.replace("\\", "\\\\").replace('"', '\\"') + '"'


def quote_cmd_arg(arg: str, *, force: bool = False) -> str:
    r"""One argument of a batch file's command line, safe from ``cmd.exe`` (BatBadBut).

    ``cmd.exe`` re-parses the line: outside quotes ``& | < > ( ) ^`` are operators and
    ``%VAR%`` is expanded *even inside quotes*; a newline ends the command. The
    mitigation is Rust's (``make_bat_command_line``, the CVE-2024-24576 fix):

    * an argument is quoted unless every character is a letter, a digit, one of
      ``# $ * + - . / : ? @ \ _`` or non-ASCII (and not a control character): so
      every operator is inside quotes, where cmd does not act on it;
    * inside quotes a ``"`` is doubled (``""``: cmd's quote state flips twice and stays
      on) after doubling the backslashes before it; backslashes before the closing
      quote are doubled;
    * ``%`` becomes ``%%cd:~,%``: a ``%`` followed by an empty substring of ``%cd%``,
      so ``%PATH%`` reaches the batch file as written instead of expanded (the yt-dlp
      trick Rust adopted; needs ``/e:ON``); ``!`` is literal under ``/v:OFF``;
    * a newline (CR or LF) or NUL cannot be passed at all: :class:`UnsafeForCmd`.

    What the batch file then does with ``%1`` is its own affair: cmd passes arguments
    to it raw, quotes included.
    """
    bad = sorted({c for c in arg if c in "\r\n\0"})
    if bad:
        names = ", ".join({"\r": "CR", "\n": "LF", "\0": "NUL"}[c] for c in bad)
        raise UnsafeForCmd(f"{arg!r} contains {names}, which cmd.exe cannot pass to a batch file")
    quote = force or not arg or arg.endswith("\\")
    for char in arg:
        if (char.isascii() and not (char.isalnum() or char in _CMD_SAFE)) or (
            not char.isascii() and not char.isprintable()
        ):
            quote = True
    out = ['"'] if quote else []
    backslashes = 0
    for char in arg:
        if char == "\\":
            backslashes += 1
            out.append(char)
            continue
        if char == '"':
            out.append("\\" * backslashes + '"')
        elif char == "%":
            out.append("%%cd:~,")
        backslashes = 0
        out.append(char)
    if quote:
        out.append("\\" * backslashes + '"')
    return "".join(out)


def batch_argv(
    script: str, args: Sequence[str] = (), *, comspec: str = WINDOWS_CMD
) -> tuple[str, ...]:
    """``cmd.exe /d /e:ON /v:OFF /s /c "<line>"`` running a ``.cmd``/``.bat`` file.

    The last element is the verbatim line (:func:`command_line` passes it untouched):
    the script path always quoted, the arguments by :func:`quote_cmd_arg`, the whole
    wrapped in one more pair of quotes, which ``/s`` strips. A script path containing
    ``"`` or ending in ``\\`` (impossible for a real file) is refused, as is a line
    longer than cmd's 8191 characters.
    """
    if '"' in script or script.endswith("\\"):
        raise UnsafeForCmd(f'a batch file path cannot contain \'"\' or end with "\\": {script!r}')
    words = [quote_cmd_arg(script, force=True), *(quote_cmd_arg(a) for a in args)]
    line = '"' + " ".join(words) + '"'
    argv = (comspec, *CMD_FLAGS, line)
    if len(command_line(argv)) > CMD_LINE_MAX:
        raise UnsafeForCmd(
            f"the batch command line would be {len(command_line(argv))} characters; "
            f"cmd.exe accepts at most {CMD_LINE_MAX}"
        )
    return argv


def _program_kind(program: str) -> str:
    name = ntpath.basename(program.replace("/", "\\")).lower()
    if name in ("cmd", "cmd.exe"):
        return "cmd"
    if name in ("bash", "bash.exe", "sh", "sh.exe"):
        return "msys"
    return "msvcrt"


def command_line(argv: Sequence[str]) -> str:
    """The one string ``CreateProcessW`` receives for ``argv``.

    The program is quoted by the C runtime rules. The rest depends on who parses it:
    for ``cmd.exe`` the arguments are joined verbatim (they were built by
    :func:`batch_argv`; node does the same, ``windowsVerbatimArguments``); for
    ``bash.exe``/``sh.exe`` each is quoted by :func:`quote_msys_arg`; for anything
    else by :func:`quote_arg` (what ``subprocess.list2cmdline`` does, except that a
    word with a ``"`` is wrapped in quotes too, as libuv does).
    """
    if not argv:
        raise LaunchError("empty command")
    head = quote_arg(argv[0])
    kind = _program_kind(argv[0])
    if kind == "cmd":
        rest = list(argv[1:])
    elif kind == "msys":
        rest = [quote_msys_arg(a) for a in argv[1:]]
    else:
        rest = [quote_arg(a) for a in argv[1:]]
    return " ".join([head, *rest])


# --- what to run --------------------------------------------------------------------


def _bash_path(path: str) -> str:
    """A Windows path as Git Bash takes it unambiguously: forward slashes."""
    return path.replace("\\", "/")


def _shebang_argv(
    shebang: Sequence[str], path: str, args: Sequence[str], bash: str | None
) -> tuple[str, ...]:
    """A shebang's interpreter on Windows, after ``env`` was dropped (the Cline SDK's
    ``normalizeHookInterpreter``): ``sh``/``bash`` → Git Bash, ``python``/``python3`` →
    ``py -3``, any other name by its last path part (``/usr/bin/perl`` → ``perl``), to
    be looked up on ``PATH``; the interpreter's own arguments are kept."""
    head = ntpath.basename(shebang[0].replace("/", "\\"))
    name = head.lower().removesuffix(".exe")
    if name in ("sh", "bash"):
        return (_need_bash(bash, path), *shebang[1:], _bash_path(path), *args)
    if name in ("python", "python3"):
        return ("py", "-3", *shebang[1:], path, *args)
    return (head, *shebang[1:], path, *args)


def _need_bash(bash: str | None, path: str) -> str:
    if bash is None:
        raise LaunchError(
            f"{path} needs bash: install Git for Windows (or set CLAUDE_CODE_GIT_BASH_PATH "
            "to its bin\\bash.exe); WSL's bash.exe is not used"
        )
    return bash


def script_argv(
    path: str,
    args: Sequence[str] = (),
    *,
    powershell: str | None = WINDOWS_POWERSHELL,
    bash: str | None = None,
    comspec: str = WINDOWS_CMD,
    shebang: Sequence[str] = (),
    interpreters: Mapping[str, tuple[str, ...]] = WINDOWS_INTERPRETERS,
) -> tuple[str, ...]:
    r"""How a hook script file is started on Windows, by its extension (case-insensitive).

    * ``.ps1``: ``<powershell> -NoProfile -NonInteractive -ExecutionPolicy Bypass -File
      <path> args`` (claude reference §PreToolUse Windows example; Cline's runner adds
      ``-NonInteractive``). ``-File``, not Augment's documented ``-Command``: with
      ``-Command`` a script's ``exit 2`` reaches the caller as 1 (PowerShell#13501),
      which would turn Augment's blocking exit code into a non-blocking error.
    * ``.cmd``/``.bat``: :func:`batch_argv` (augment §Script Requirements: "cmd.exe /c").
    * ``.exe``/``.com``: directly.
    A shebang is ignored for those four (augment: "a shebang inside those files is
    ignored"). Then:
    * a ``shebang`` (the interpreter words the caller read from the first line, e.g.
      with ``cline_sdk.shebang_command``): see :func:`_shebang_argv`;
    * an extension in ``interpreters`` (``.py`` ``py -3``, ``.js`` ``node``, ``.ts``
      ``bun run``: the Cline SDK on Windows);
    * ``.sh``, ``.bash``, ``.zsh``, no extension, anything else: Git Bash (``bash``),
      the script path with forward slashes; :class:`LaunchError` when there is none
      (never a bare ``bash.exe``, which may be WSL's).
    Interpreter names (``py``, ``node``, ``bun``, ``perl``) are left for the caller to
    resolve with :func:`resolve_command` and :data:`EXECUTABLE_PATHEXT`.
    """
    ext = ntpath.splitext(path)[1].lower()
    if ext == ".ps1":
        if powershell is None:
            raise LaunchError(
                f"{path} needs PowerShell, and neither pwsh nor powershell.exe was found"
            )
        return (powershell, *POWERSHELL_FLAGS, "-File", path, *args)
    if ext in (".cmd", ".bat"):
        return batch_argv(path, args, comspec=comspec)
    if ext in DIRECT_EXTENSIONS:
        return (path, *args)
    if shebang:
        return _shebang_argv(shebang, path, args, bash)
    if ext in interpreters:
        return (*interpreters[ext], path, *args)
    return (_need_bash(bash, path), _bash_path(path), *args)


def python_fallback(argv: Sequence[str]) -> tuple[str, ...] | None:
    """The Cline SDK's retry when ``py`` does not exist: ``python <file>`` instead of
    ``py -3 <file>``; None for any other argv."""
    if len(argv) >= 2 and tuple(argv[:2]) == ("py", "-3"):
        return ("python", *argv[2:])
    return None


def powershell_placeholders(command: str) -> str:
    """Claude Code (v2.1.198+) rewrites ``${CLAUDE_PROJECT_DIR}``, ``${CLAUDE_PLUGIN_ROOT}``
    and ``${CLAUDE_PLUGIN_DATA}`` in a PowerShell shell-form command to ``${env:NAME}``
    (claude reference §Windows PowerShell tool); the bare ``$NAME`` is not rewritten."""
    for name in PLACEHOLDERS:
        command = command.replace("${" + name + "}", "${env:" + name + "}")
    return command


_BARE = re.compile(r"\$(" + "|".join(PLACEHOLDERS) + r")(?![A-Za-z0-9_])")


def bare_placeholders(command: str) -> tuple[str, ...]:
    """The placeholders a PowerShell command writes bare (``$CLAUDE_PROJECT_DIR``):
    PowerShell reads them as unset local variables; Claude Code logs a warning."""
    return tuple(dict.fromkeys(m.group(1) for m in _BARE.finditer(command)))


def powershell_command(command: str) -> str:
    """The ``-Command`` text for a Claude shell-form hook under PowerShell: placeholders
    rewritten, then one line that keeps a failing last statement's exit code.

    With ``-Command`` PowerShell exits 0 or 1 from ``$?`` only: a last statement
    ``& "$env:CLAUDE_PROJECT_DIR\\.claude\\hooks\\check.ps1"`` whose script ends with
    ``exit 2`` (Claude's "block") would exit 1, a non-blocking error (PowerShell#13501).
    The added line exits with ``$LASTEXITCODE`` when the last statement failed and set
    one, else 1; a command that ends with ``exit N`` never reaches it.
    """
    return powershell_placeholders(command) + "\n" + _PS_EXIT_TAIL


def shell_argv(
    command: str,
    shell: str | None,
    *,
    git_bash: str | None,
    powershell: str | None = WINDOWS_POWERSHELL,
) -> tuple[str, ...]:
    """Claude Code's shell form (a command hook without ``args``) on Windows.

    The ``shell`` field: "Accepts ``bash`` or ``powershell``. Defaults to ``bash``, or
    to ``powershell`` on Windows when Git Bash isn't installed" (claude reference
    §Command hook fields). So:

    * ``"powershell"``: ``<powershell> -NoProfile -NonInteractive -ExecutionPolicy
      Bypass -Command <powershell_command(command)>``;
    * absent: Git Bash when found, else PowerShell;
    * ``"bash"`` without Git Bash: :class:`LaunchError`, not PowerShell: a bash command
      run by PowerShell does something else (``"${env:X}"/hooks/x.sh`` parses as a
      division, ustoppble/overclick#63 in the notes);
    * Git Bash runs ``bash.exe -c <command>`` (non-login, as ``sh -c`` on POSIX). A
      command starting with a drive letter gets one leading space, which bash ignores,
      so that :func:`quote_msys_arg` can escape its backslashes and quotes.
    """
    if shell not in (None, "bash", "powershell"):
        raise LaunchError(f'"shell" must be "bash" or "powershell", not {shell!r}')
    if shell == "bash" or (shell is None and git_bash is not None):
        if git_bash is None:
            raise LaunchError(
                'this hook sets "shell": "bash" and Git Bash was not found: install Git for '
                'Windows, set CLAUDE_CODE_GIT_BASH_PATH, or use "shell": "powershell"'
            )
        return (git_bash, "-c", " " + command if _is_drive_spec(command) else command)
    if powershell is None:
        raise LaunchError("neither Git Bash nor PowerShell was found to run this shell-form hook")
    return (powershell, *POWERSHELL_FLAGS, "-Command", powershell_command(command))


def exec_form_argv(
    command: str, args: Sequence[str], *, path_env: str, exists: Exists
) -> tuple[str, ...]:
    """Claude Code's exec form (``args`` present) on Windows: ``command`` resolved on
    ``PATH`` to a real executable and spawned with ``args``, no shell.

    "On Windows, exec form requires ``command`` to resolve to a real executable such as
    a ``.exe``. The ``.cmd`` and ``.bat`` shims [...] can't be spawned without a shell"
    (claude reference §Exec form and shell form): only ``.exe`` and ``.com`` are looked
    for; a name that resolves to anything else is a :class:`LaunchError` naming the
    documented workaround.
    """
    found = resolve_command(command, path_env, EXECUTABLE_PATHEXT, exists)
    if found is None:
        shim = resolve_command(command, path_env, ".BAT;.CMD", exists)
        if shim is not None:
            found = shim
        else:
            raise LaunchError(f"{command!r} was not found on PATH as a .exe or .com")
    if ntpath.splitext(found)[1].lower() not in DIRECT_EXTENSIONS:
        raise LaunchError(
            f"exec form needs a real executable, and {command!r} is {found}: run the "
            'underlying script with "node" (or another .exe), or use shell form'
        )
    return (found, *args)


def find_hook_file(directory: str, name: str, *, pathext: str | None, exists: Exists) -> str | None:
    """A Cline hook file on Windows: ``<name>.ps1`` (what Cline itself runs on Windows
    since PR #9552), then the extensionless ``<name>`` (cline-hooks.md: "no file
    extensions", run by its shebang), then ``<name>`` + each ``PATHEXT`` extension
    (cline-hooks-design.md: "use PATHEXT [...] in the hooks folder, not PATH")."""
    base = ntpath.join(directory, name)
    for candidate in (base + ".ps1", base, *(base + e for e in split_pathext(pathext))):
        if exists(candidate):
            return candidate
    return None


def pipe_address(user: str) -> str:
    r"""``\\.\pipe\hookd-<user>``, the per-user pipe the clients connect to (as
    ``hookd.protocol.default_socket_path`` computes it). A backslash is not allowed in a
    pipe name, so a ``DOMAIN\user`` becomes ``DOMAIN_user``; the name is cut at 256
    characters, the limit for the whole pipe name."""
    address = "\\\\.\\pipe\\hookd-" + user.replace("\\", "_").replace("/", "_")
    return address[:256]
