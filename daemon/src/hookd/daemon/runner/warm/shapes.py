"""Which hook commands are exactly ``python <flags> script.py args...``, and what that
Python would be given.

Only exact shapes are recognised; anything else runs as it always did (a fresh spawn):

* ``python3 x.py a b`` as an argv, or as the whole of a ``sh -c`` / ``bash -c`` command
  made of plain words, quotes and ``$VAR`` / ``${VAR}`` (no other shell syntax);
  ``python``, ``python3``, ``python3.12`` and absolute or relative interpreter paths;
* a script run by its shebang: ``#!/usr/bin/python3 [-flags]`` or
  ``#!/usr/bin/env python3``;
* the interpreter must be a real binary (ELF), not a shell shim (pyenv's, asdf's), and
  CPython's options among those that fix nothing a forked child would see differently;
* ``uv run [--script] x.py args``, ``uv run python x.py args`` (same forms: argv,
  ``sh -c``) and scripts with the shebang ``#!/usr/bin/env -S uv run --script``, with no
  uv option but ``--script``/``-s``, ``--quiet``/``-q``, ``--no-project`` and
  ``--no-progress``: a ``UvCommand``, whose interpreter and environment ``uv_envs``
  asks uv itself for.

``recognize`` answers None for a command that is not a Python script run at all (most
hooks: not counted as a fallback), a reason for a Python run that cannot be warm, or
the ``PythonRun`` (or ``UvCommand``) to give a warm child.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

SHELLS = frozenset({"/bin/sh", "sh", "/bin/bash", "bash", "/usr/bin/bash", "/usr/bin/sh"})
_INTERPRETER_NAME = re.compile(r"python(3(\.\d+)?)?")
_FLAG_LETTERS = frozenset("bBEIOPqsSuR")
"""Options that only set ``sys.flags`` (fixed at start, so part of the zygote's key)."""
_X_OPTIONS = re.compile(
    r"(utf8(=[01])?|dev|warn_default_encoding|no_debug_ranges|frozen_modules=(on|off)"
    r"|int_max_str_digits=\d+|pycache_prefix=.+)"
)
_ENV_REFUSED = (
    "PYTHONTRACEMALLOC", "PYTHONPROFILEIMPORTTIME", "PYTHONVERBOSE", "PYTHONINSPECT",
    "PYTHONMALLOCSTATS", "PYTHONDUMPREFS", "PYTHONSTARTUP", "PYTHONPERFSUPPORT",
)  # fmt: skip
"""Start-up behaviour a child cannot inherit (output at start, per-process state)."""
_BASH_REFUSED = ("BASH_ENV", "SHELLOPTS", "BASHOPTS", "ENV")
_PLAIN = re.compile(r"[A-Za-z0-9_./@%+=:,-]")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_GLOB_OR_IFS = re.compile(r"[*?\[\s]")
_UV_OPTIONS = frozenset({"--script", "-s", "--quiet", "-q", "-qq", "--no-project", "--no-progress"})
"""``uv run`` options that change neither the environment nor what the script is given."""
_UV_RUN = re.compile(r"(^|[\s/])uv\s+run\b")
_ENV_SPLIT_WORD = re.compile(r"[A-Za-z0-9_./:=+-]+")


@dataclass(frozen=True, slots=True)
class PythonRun:
    """``argv0 *flags script *args`` run by the interpreter binary ``executable``."""

    executable: str
    """The file to execute (as found on PATH or named: symlinks not resolved, so a
    virtualenv's ``bin/python`` finds its ``pyvenv.cfg``)."""
    argv0: str
    flags: tuple[str, ...]
    script: str
    """The script argument as given: ``sys.argv[0]``."""
    args: tuple[str, ...]
    cwd: str
    env: tuple[tuple[str, str], ...]
    """The environment, in order, that the interpreter starts with."""
    shell: str | None = None
    """The wrapper shell that would have run it (its additions are in ``env``)."""
    command: str = ""
    """The first word as the shell found it (bash passes it on as ``$_``)."""
    uv: bool = False
    """Run by ``uv run``: uv is the hook's process and Python its child (a stand-in)."""
    nofile: tuple[int, int] | None = None
    """The open-files limit Python starts with (None: a hook's own)."""

    @property
    def file(self) -> str:
        """``__file__``: the script path made absolute as CPython does (not normalised)."""
        return _absolute(self.script, self.cwd)

    @property
    def orig_argv(self) -> tuple[str, ...]:
        return (self.argv0, *self.flags, self.script, *self.args)


@dataclass(frozen=True, slots=True)
class UvCommand:
    """``uv run [options] script args...``: uv runs ``script`` with the Python of the
    environment it resolves for it (the script's own, from its PEP 723 inline metadata,
    or the ambient one)."""

    program: str
    """The uv binary as the exec finds it."""
    words: tuple[str, ...]
    """uv's argv up to and including the script (what uv decides from)."""
    script: str
    """The script argument as given: the Python child's ``sys.argv[0]``."""
    args: tuple[str, ...]
    cwd: str
    env: tuple[tuple[str, str], ...]
    """The environment uv starts with (a wrapper shell's additions come later)."""
    inline: bool
    """uv reads the script's inline metadata (``# /// script``) and runs it in the
    script's own cached environment; otherwise in the ambient (or project) one."""
    shell: str | None = None
    command: str = ""

    @property
    def file(self) -> str:
        return _absolute(self.script, self.cwd)


def _absolute(path: str, cwd: str) -> str:
    return path if os.path.isabs(path) else os.path.join(cwd, path)


def recognize(
    argv: Sequence[str], env: Mapping[str, str], cwd: str | None
) -> PythonRun | UvCommand | str | None:
    """The Python run ``argv`` amounts to; a reason it cannot be warm; None: not Python."""
    if not argv or cwd is None:
        return None
    if len(argv) == 3 and argv[0] in SHELLS and argv[1] == "-c":
        words = shell_words(argv[2], env)
        if words is None:
            if "python" not in argv[2] and not _UV_RUN.search(argv[2]):
                return None
            return "shell syntax beyond plain words"
        if os.path.basename(argv[0]) == "bash" and any(k in env for k in _BASH_REFUSED):
            return "bash would read BASH_ENV, SHELLOPTS or BASHOPTS"
        found = _exec_shape(words, env, cwd)
        if isinstance(found, (PythonRun, UvCommand)):
            return replace(found, shell=argv[0])
        return found
    return _exec_shape(list(argv), env, cwd)


def _exec_shape(
    words: list[str], env: Mapping[str, str], cwd: str
) -> PythonRun | UvCommand | str | None:
    if "/" not in words[0] and words[0] != "uv" and not _INTERPRETER_NAME.fullmatch(words[0]):
        return None  # a command looked up on PATH that is not Python: no stat, no read
    program = find_program(words[0], env, cwd)
    if program is None:
        return None
    found = _program_shape(program, words, env, cwd)
    if isinstance(found, (PythonRun, UvCommand)):
        return replace(found, command=program)
    return found


def _program_shape(
    program: str, words: list[str], env: Mapping[str, str], cwd: str
) -> PythonRun | UvCommand | str | None:
    if _INTERPRETER_NAME.fullmatch(os.path.basename(words[0])):
        return _python_words(program, words[0], words[1:], env, cwd)
    if os.path.basename(words[0]) == "uv":
        return _uv_words(program, words, env, cwd)
    line = _shebang(program)
    if line is None:
        return None
    interpreter, _, argument = line.partition(" ")
    argument = argument.strip(" \t")
    if os.path.basename(interpreter) == "env" and os.path.isabs(interpreter):
        if argument.startswith("-S ") and _UV_RUN.search(argument):
            split = argument[3:].split()
            if not all(_ENV_SPLIT_WORD.fullmatch(word) for word in split) or split[0] != "uv":
                return "a shebang through env -S with quoting or expansions"
            uv = find_program("uv", env, cwd)
            if uv is None:
                return None
            return _uv_words(uv, [*split, words[0], *words[1:]], env, cwd)
        if not argument or not _INTERPRETER_NAME.fullmatch(argument):
            return None if "python" not in argument else "a shebang through env with options"
        found = find_program(argument, env, cwd)
        if found is None:
            return None
        return _python_words(found, argument, [words[0], *words[1:]], env, cwd)
    if not os.path.isabs(interpreter) or not _INTERPRETER_NAME.fullmatch(
        os.path.basename(interpreter)
    ):
        return None
    if argument and (not argument.startswith("-") or " " in argument or "\t" in argument):
        return "a shebang with more than one option word"
    flags = [argument] if argument else []
    return _python_words(interpreter, interpreter, [*flags, words[0], *words[1:]], env, cwd)


def _uv_words(
    program: str, words: Sequence[str], env: Mapping[str, str], cwd: str
) -> UvCommand | str | None:
    """``uv run [options] script args`` (or ``uv run python script args``)."""
    if words[1:2] != ["run"]:
        before_run = words[1:2] and words[1].startswith("-") and "run" in words
        return "uv options before run" if before_run else None  # other uv commands
    index = 2
    while index < len(words) and words[index].startswith("-"):
        if words[index] not in _UV_OPTIONS:
            return f"uv option {words[index].split('=', 1)[0]}"
        index += 1
    if index >= len(words):
        return None
    options = set(words[2:index])
    target = words[index]
    if target == "python" and not options & {"--script", "-s"}:
        if index + 1 >= len(words) or words[index + 1].startswith("-"):
            return "uv run python with interpreter options or no script"
        index += 1
        inline = False
    elif options & {"--script", "-s"} or target.endswith(".py"):
        inline = True
    else:
        return None  # uv runs some other command
    script = words[index]
    if not is_elf(program):
        return "uv is not a binary (a shim or wrapper script)"
    path = os.path.join(cwd, script)
    why = _unusable_script(path)
    if why:
        return why
    refused = [k for k in _ENV_REFUSED if env.get(k)]
    if refused:
        return f"{refused[0]} is set"
    if any(not os.path.isabs(p) for p in env.get("PYTHONPATH", "/").split(":")):
        return "PYTHONPATH names a relative folder"
    if inline:
        try:
            with open(path, "rb") as source:
                inline = has_inline_metadata(source.read())
        except OSError:
            return "the script cannot be read"
    return UvCommand(
        program=program, words=tuple(words[: index + 1]), script=script,
        args=tuple(words[index + 1 :]), cwd=cwd, env=tuple(env.items()), inline=inline,
    )  # fmt: skip


def has_inline_metadata(source: bytes) -> bool:
    """Whether uv reads a ``script`` metadata block from ``source``, found as uv's own
    parser finds it: the first ``# /// script`` starts a line and is the whole line."""
    start = source.find(b"# /// script")
    if start < 0 or (start > 0 and source[start - 1] not in b"\r\n"):
        return False
    return source[start:].split(b"\n", 1)[0].removesuffix(b"\r") == b"# /// script"


def _python_words(
    program: str, argv0: str, rest: Sequence[str], env: Mapping[str, str], cwd: str
) -> PythonRun | str:
    if not is_elf(program):
        return f"{argv0} is not an interpreter binary (a shim or wrapper script)"
    flags: list[str] = []
    index = 0
    while index < len(rest) and rest[index].startswith("-") and rest[index] != "-":
        word = rest[index]
        if word[1:2] in ("W", "X"):
            value = word[2:]
            if not value:
                if index + 1 >= len(rest):
                    return f"option {word} without its value"
                value = rest[index + 1]
                flags.append(word)
                index += 1
            if word[1] == "X" and not _X_OPTIONS.fullmatch(value):
                return f"interpreter option -X {value}"
            flags.append(rest[index] if word[2:] else word)
            index += 1
            continue
        if word.startswith("--") or not set(word[1:]) <= _FLAG_LETTERS:
            return f"interpreter option {word}"
        flags.append(word)
        index += 1
    if index >= len(rest) or rest[index] == "-":
        return "no script file (-c, -m or stdin)"
    script = rest[index]
    refused = [k for k in _ENV_REFUSED if env.get(k)]
    if refused:
        return f"{refused[0]} is set"
    if any(not os.path.isabs(p) for p in env.get("PYTHONPATH", "/").split(":")):
        return "PYTHONPATH names a relative folder"
    why = _unusable_script(os.path.join(cwd, script))
    if why:
        return why
    return PythonRun(
        executable=program, argv0=argv0, flags=tuple(flags), script=script,
        args=tuple(rest[index + 1 :]), cwd=cwd, env=tuple(env.items()),
    )  # fmt: skip


def _unusable_script(path: str) -> str | None:
    """Why CPython would not run ``path`` as plain source (or a warm child could not)."""
    try:
        with open(path, "rb") as script:
            if not stat.S_ISREG(os.fstat(script.fileno()).st_mode):
                return "the script is not a regular file"
            head = script.read(4096)
    except OSError:
        return "the script cannot be read"
    if path.endswith((".pyc", ".pyz", ".zip")) or head.startswith(b"PK\x03\x04"):
        return "the script is a zip archive or compiled file"
    if len(head) >= 4 and head[2:4] == b"\r\n" and not head.startswith(b"#"):
        return "the script looks compiled"
    if b"\0" in head:
        return "the script has NUL bytes"
    return None


def find_program(name: str, env: Mapping[str, str], cwd: str) -> str | None:
    """Where an exec of ``name`` with ``env`` in ``cwd`` finds it (execvp's PATH search),
    or None: not found or not executable (a fresh spawn reports that)."""
    if not name:
        return None
    if "/" in name:
        path = os.path.join(cwd, name)
        return path if _executable(path) else None
    search = env.get("PATH")
    if search is None:
        return None
    for folder in search.split(":"):
        path = os.path.join(cwd, folder or ".", name)
        if _executable(path):
            return os.path.join(folder, name) if folder else path
    return None


def _executable(path: str) -> bool:
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISREG(mode) and os.access(path, os.X_OK)


def is_elf(path: str) -> bool:
    try:
        with open(path, "rb") as binary:
            return binary.read(4) == b"\x7fELF"
    except OSError:
        return False


def _shebang(path: str) -> str | None:
    """The interpreter line the kernel would read (``#!`` dropped, one space between the
    interpreter and its single argument), or None."""
    try:
        with open(path, "rb") as script:
            head = script.read(256)
    except OSError:
        return None
    if not head.startswith(b"#!") or b"\n" not in head:
        return None
    line = head[2 : head.index(b"\n")].decode("utf-8", "surrogateescape").strip(" \t")
    interpreter, _, argument = line.replace("\t", " ").partition(" ")
    return f"{interpreter} {argument.strip()}".strip()


def shell_words(command: str, env: Mapping[str, str]) -> list[str] | None:
    """The words a POSIX shell makes of ``command`` when it is a simple command of plain
    characters, quotes and ``$NAME`` / ``${NAME}`` expansions that split and glob to
    themselves; None for anything else (and for an assignment or a tilde)."""
    words: list[str] = []
    index, end = 0, len(command)
    while True:
        while index < end and command[index] in " \t":
            index += 1
        if index >= end:
            break
        word: list[str] = []
        quoted = False
        while index < end and command[index] not in " \t":
            char = command[index]
            if char == "'":
                close = command.find("'", index + 1)
                if close < 0:
                    return None
                word.append(command[index + 1 : close])
                quoted, index = True, close + 1
            elif char == '"':
                close = index + 1
                while close < end and command[close] != '"':
                    if command[close] in "\\`":
                        return None
                    close += 1
                if close >= end:
                    return None
                inner = _expand(command[index + 1 : close], env, quoted=True)
                if inner is None:
                    return None
                word.append(inner)
                quoted, index = True, close + 1
            elif char == "$":
                name, index = _variable(command, index)
                if name is None:
                    return None
                value = env.get(name, "")
                if _GLOB_OR_IFS.search(value):
                    return None
                word.append(value)
            elif _PLAIN.match(char):
                word.append(char)
                index += 1
            else:
                return None
        text = "".join(word)
        if not text and not quoted:
            return None  # an empty unquoted expansion disappears: not worth modelling
        words.append(text)
    if not words or ("=" in words[0] and _NAME.match(words[0].split("=", 1)[0])):
        return None
    return words


def _variable(text: str, index: int) -> tuple[str | None, int]:
    if text.startswith("${", index):
        close = text.find("}", index)
        name = text[index + 2 : close] if close > 0 else ""
        return (name, close + 1) if _NAME.fullmatch(name) else (None, index)
    match = _NAME.match(text, index + 1)
    return (match.group(), match.end()) if match else (None, index)


def _expand(text: str, env: Mapping[str, str], *, quoted: bool) -> str | None:
    parts: list[str] = []
    index = 0
    while index < len(text):
        if text[index] == "$":
            name, index = _variable(text, index)
            if name is None:
                return None
            parts.append(env.get(name, ""))
        else:
            parts.append(text[index])
            index += 1
    return "".join(parts)
