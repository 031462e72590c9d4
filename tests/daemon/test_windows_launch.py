"""Windows launch rules, at the level this Linux machine allows: lookup and argv building.

Nothing here starts a process on Windows (none of it has run on a real Windows machine;
docs/compatibility.md says so). Each case names the documented rule it pins.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass

import pytest

from hookd.daemon import windows_launch as win
from hookd.daemon.dialects.claude import shell_form
from hookd.protocol import default_socket_path

CLAUDE = "claude-code-hooks-reference-v2.1.240.md"


@dataclass(frozen=True)
class Lookup:
    id: str
    rule: str
    name: str
    files: frozenset[str]
    expected: str | None
    pathext: str | None = ".COM;.EXE;.BAT;.CMD"


PATH = r"C:\Tools;C:\Program Files\nodejs;C:\Windows\System32"
LOOKUPS = [
    Lookup("pathext-order", "PATHEXT extensions are tried in order: .COM before .EXE",
           "git", frozenset({r"C:\Tools\git.exe", r"C:\Tools\git.com"}), r"C:\Tools\git.com"),
    Lookup("path-order", "PATH folders are searched in order", "node",
           frozenset({r"C:\Program Files\nodejs\node.exe", r"C:\Windows\System32\node.exe"}),
           r"C:\Program Files\nodejs\node.exe"),
    Lookup("cmd-shim", "npm's .cmd shims are found through PATHEXT (Claude: run them in shell form)",
           "eslint", frozenset({r"C:\Tools\eslint.cmd"}), r"C:\Tools\eslint.cmd"),
    Lookup("explicit-extension", "a name with a PATHEXT extension is taken as is", "tool.exe",
           frozenset({r"C:\Tools\tool.exe", r"C:\Tools\tool.exe.exe"}), r"C:\Tools\tool.exe"),
    Lookup("unlisted-extension", "a name whose extension is not in PATHEXT gets one appended",
           "script.ps1", frozenset({r"C:\Tools\script.ps1"}), None),
    Lookup("directory-part", "a name with a folder is looked up there only",
           r"C:\hooks\check", frozenset({r"C:\hooks\check.bat", r"C:\Tools\check.exe"}),
           r"C:\hooks\check.bat"),
    Lookup("not-current-folder", "a bare name is not looked up in the current folder first "
           "(a workspace must not shadow a tool)", "git", frozenset({"git.exe"}), None),
    Lookup("default-pathext", "no PATHEXT: .COM;.EXE;.BAT;.CMD", "make",
           frozenset({r"C:\Tools\make.bat"}), r"C:\Tools\make.bat", pathext=None),
    Lookup("case-insensitive-extension", "PATHEXT is case-insensitive", "tool.EXE",
           frozenset({r"C:\Tools\tool.EXE"}), r"C:\Tools\tool.EXE"),
]  # fmt: skip


@pytest.mark.parametrize("case", LOOKUPS, ids=lambda c: c.id)
def test_resolve_command(case: Lookup) -> None:
    found = win.resolve_command(
        case.name, path_env=PATH, pathext=case.pathext, exists=case.files.__contains__
    )
    assert found == case.expected, case.rule


@dataclass(frozen=True)
class Script:
    id: str
    rule: str
    path: str
    expected: tuple[str, ...]
    args: tuple[str, ...] = ()


SCRIPTS = [
    Script("ps1", "augment-hooks.md: .ps1 scripts run with PowerShell", r"C:\h\check.ps1",
           ("powershell.exe", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass",
            "-File", r"C:\h\check.ps1")),
    Script("cmd", "augment-hooks.md: .cmd scripts run with cmd.exe", r"C:\h\check.cmd",
           ("cmd.exe", "/d", "/s", "/c", r'"C:\h\check.cmd"')),
    Script("bat-with-space", "cmd /s /c strips exactly the outer quotes; a path with spaces "
           "is quoted inside them", r"C:\my hooks\check.bat",
           ("cmd.exe", "/d", "/s", "/c", r'""C:\my hooks\check.bat" --fast"'), ("--fast",)),
    Script("sh", f"{CLAUDE}: shell scripts need Git Bash", r"C:\h\check.sh",
           ("bash.exe", r"C:\h\check.sh")),
    Script("py", "cline-sdk-file-hooks.md: .py runs with python", r"C:\h\PreToolUse.py",
           ("python.exe", r"C:\h\PreToolUse.py")),
    Script("js", "cline-sdk-file-hooks.md: .js runs with node", r"C:\h\PreToolUse.js",
           ("node.exe", r"C:\h\PreToolUse.js")),
    Script("ts", "cline-sdk-file-hooks.md: .ts runs with bun", r"C:\h\PreToolUse.ts",
           ("bun.exe", "run", r"C:\h\PreToolUse.ts")),
    Script("exe", "an executable runs directly", r"C:\h\check.exe", (r"C:\h\check.exe", "-v"),
           ("-v",)),
    Script("ps1-uppercase", "extensions are case-insensitive", r"C:\h\CHECK.PS1",
           ("powershell.exe", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass",
            "-File", r"C:\h\CHECK.PS1")),
]  # fmt: skip


@pytest.mark.parametrize("case", SCRIPTS, ids=lambda c: c.id)
def test_script_argv(case: Script) -> None:
    assert win.script_argv(case.path, case.args) == case.expected, case.rule


@pytest.mark.parametrize("word", ["a&calc", "100%", "x|y", 'say "hi"', "^", "a>b", "(x)", "!v!"])
def test_batch_arguments_cmd_would_interpret_are_refused(word: str) -> None:
    """BatBadBut: cmd.exe re-parses a batch file's command line, so these never pass."""
    with pytest.raises(win.UnsafeForCmd, match=r"cmd\.exe would interpret"):
        win.script_argv(r"C:\h\check.bat", (word,))


@pytest.mark.parametrize(
    ("shell", "git_bash", "expected"),
    [
        (None, r"C:\Program Files\Git\bin\bash.exe",
         (r"C:\Program Files\Git\bin\bash.exe", "-c", "npm test && echo ok")),
        ("bash", r"C:\Program Files\Git\bin\bash.exe",
         (r"C:\Program Files\Git\bin\bash.exe", "-c", "npm test && echo ok")),
        (None, None, ("powershell.exe", *win.POWERSHELL_FLAGS, "-Command", "npm test && echo ok")),
        ("powershell", r"C:\Program Files\Git\bin\bash.exe",
         ("powershell.exe", *win.POWERSHELL_FLAGS, "-Command", "npm test && echo ok")),
    ],
    ids=["default-git-bash", "bash", "no-git-bash-powershell", "shell-powershell"],
)  # fmt: skip
def test_claude_shell_form_on_windows(shell, git_bash, expected) -> None:
    """Claude: shell form runs in Git Bash, or PowerShell when Git Bash isn't installed;
    shell: "powershell" picks PowerShell."""
    assert win.shell_argv("npm test && echo ok", shell, git_bash=git_bash) == expected


def test_git_bash_is_found_under_program_files() -> None:
    files = {r"D:\Apps\Git\bin\bash.exe"}
    found = win.find_git_bash([r"C:\Program Files", r"D:\Apps"], files.__contains__)
    assert found == r"D:\Apps\Git\bin\bash.exe"
    assert win.find_git_bash([r"C:\Program Files"], files.__contains__) is None


def test_command_line_quoting_follows_the_ms_c_runtime() -> None:
    """CreateProcess takes one string: spaces and quotes are escaped the runtime's way."""
    argv = ["node.exe", r"C:\my dir\a.js", 'say "hi"', "a dir\\", "plain\\"]
    line = win.command_line(argv)
    # A backslash is doubled only before a quote: the closing one of "a dir\\".
    assert line == 'node.exe "C:\\my dir\\a.js" "say \\"hi\\"" "a dir\\\\" plain\\'
    assert line == subprocess.list2cmdline(argv)


def test_named_pipe_address_on_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    """The protocol's address on Windows is a per-user named pipe (HOOKD_SOCKET wins)."""
    monkeypatch.setattr("sys.platform", "win32")
    monkeypatch.setenv("USERNAME", "ada")
    monkeypatch.delenv("HOOKD_SOCKET", raising=False)
    assert default_socket_path() == r"\\.\pipe\hookd-ada"
    monkeypatch.setenv("HOOKD_SOCKET", r"\\.\pipe\custom")
    assert default_socket_path() == r"\\.\pipe\custom"


@pytest.mark.parametrize(
    ("shell", "expected"),
    [
        (None, ("/bin/sh", "-c", "echo hi")),
        ("bash", ("/bin/sh", "-c", "echo hi")),
        ("powershell", ("pwsh", "-NoProfile", "-NonInteractive", "-Command", "echo hi")),
    ],
)
def test_claude_shell_field_on_posix(shell, expected) -> None:
    """On macOS and Linux shell form is sh -c; shell: "powershell" runs PowerShell 7."""
    assert shell_form("echo hi", shell, {}) == expected
