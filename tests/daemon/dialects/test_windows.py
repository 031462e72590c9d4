r"""Windows launch rules (``hookd.daemon.dialects.windows``), at the level Linux allows.

Nothing here starts a process: the module only builds paths, argv tuples and the one
command line ``CreateProcessW`` receives, from platform facts given as parameters. None
of it has run on a real Windows machine (docs/compatibility.md says so).

Where a rule is about how a Windows program *parses* its command line, the test checks
the built line against a model of that parser written here from its source or
specification: ``CommandLineToArgvW`` (Microsoft's "Parsing C command-line arguments",
post-2008 rules), Cygwin's legacy ``build_argv``/``quoted``/``globify``
(winsup/cygwin/dcrt0.cc) and the MSVCRT-like rewrite proposed on cygwin-patches
(2021, v6). The MS C runtime quoting is also checked against ``subprocess.list2cmdline``.

"""

from __future__ import annotations

import ntpath
import re
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from hookd.daemon.dialects import windows as win

CLAUDE = "claude-code-hooks-reference-v2.1.240.md"
AUGMENT = "augment-hooks.md"
CLINE = "cline-hooks.md"
CLINE_DESIGN = "cline-hooks-design.md"
SDK_NOTES = "notes/cline-implementation.md §2C (Cline SDK inferHookCommand)"
RUST = "Rust make_bat_command_line (CVE-2024-24576 fix)"

GIT_BASH = r"C:\Program Files\Git\bin\bash.exe"
PWSH = r"C:\Program Files\PowerShell\7\pwsh.exe"
PS51 = win.WINDOWS_POWERSHELL
CMD = win.WINDOWS_CMD
PS_FLAGS = ("-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass")
CMD_FLAGS = ("/d", "/e:ON", "/v:OFF", "/s", "/c")
PATH = r"C:\Tools;C:\Program Files\nodejs;C:\Windows\System32"
TAIL = "\nif (-not $?) { if ($LASTEXITCODE) { exit $LASTEXITCODE } exit 1 }"


@dataclass(frozen=True)
class Case:
    """``run()`` must return ``expected``, or raise it when it is an exception class."""

    id: str
    rule: str
    run: Callable[[], Any]
    expected: Any


def check(case: Case) -> None:
    if isinstance(case.expected, type) and issubclass(case.expected, BaseException):
        with pytest.raises(case.expected):
            case.run()
        return
    assert case.run() == case.expected, case.rule


def files(*paths: str) -> Callable[[str], bool]:
    """An existence check over a fixed set of Windows paths (case-insensitive, as NTFS)."""
    folded = {p.lower() for p in paths}
    return lambda path: path.lower() in folded


def lookup(name: str, *present: str, pathext: str | None = ".COM;.EXE;.BAT;.CMD", **kw: Any):
    return lambda: win.resolve_command(name, PATH, pathext, files(*present), **kw)


# --- PATH and PATHEXT -----------------------------------------------------------------

LOOKUPS = [
    Case("pathext-order", "cmd tries the PATHEXT extensions in order: .COM before .EXE",
         lookup("git", r"C:\Tools\git.exe", r"C:\Tools\git.com"), r"C:\Tools\git.com"),
    Case("path-order", "the PATH folders are searched in order",
         lookup("node", r"C:\Program Files\nodejs\node.exe", r"C:\Windows\System32\node.exe"),
         r"C:\Program Files\nodejs\node.exe"),
    Case("folder-before-extension", "each folder is tried with every extension before the next",
         lookup("tool", r"C:\Tools\tool.cmd", r"C:\Program Files\nodejs\tool.exe"),
         r"C:\Tools\tool.cmd"),
    Case("npm-shim", f"{CLAUDE} §Exec form: npm installs .cmd shims, found through PATHEXT",
         lookup("eslint", r"C:\Tools\eslint.cmd"), r"C:\Tools\eslint.cmd"),
    Case("explicit-extension-wins", "a name with an extension is tried as written first",
         lookup("tool.exe", r"C:\Tools\tool.exe", r"C:\Tools\tool.exe.exe"), r"C:\Tools\tool.exe"),
    Case("explicit-unlisted-extension", "any explicit extension names the file (Go's LookPath; "
         "augment §Structure: command is the script's path)",
         lookup("check.ps1", r"C:\Tools\check.ps1"), r"C:\Tools\check.ps1"),
    Case("explicit-then-appended", "after the name as written, the PATHEXT extensions are "
         "appended (cmd finds foo.v2.exe for foo.v2)",
         lookup("foo.v2", r"C:\Tools\foo.v2.exe"), r"C:\Tools\foo.v2.exe"),
    Case("extensionless-never", "Windows never runs an extensionless file",
         lookup("hook", r"C:\Tools\hook"), None),
    Case("folder-part-only-there", "a name with a folder part is looked up there only",
         lookup(r"C:\hooks\check", r"C:\hooks\check.bat", r"C:\Tools\check.exe"),
         r"C:\hooks\check.bat"),
    Case("relative-folder-part-uses-cwd", r"a relative folder part (.\x) is relative to cwd",
         lookup(r".\check", r"C:\ws\.\check.cmd", cwd=r"C:\ws"), r"C:\ws\.\check.cmd"),
    Case("cwd-not-searched", "deliberate: a bare name is not looked up in the current folder "
         "(cmd would, first): a workspace must not shadow git",
         lookup("git", r"C:\ws\git.exe", r"C:\Tools\git.exe", cwd=r"C:\ws"), r"C:\Tools\git.exe"),
    Case("cwd-first-when-asked", "with search_cwd the current folder comes first, as in cmd",
         lookup("git", r"C:\ws\git.exe", r"C:\Tools\git.exe", cwd=r"C:\ws", search_cwd=True),
         r"C:\ws\git.exe"),
    Case("relative-path-entry-skipped", "a relative PATH entry ('.') is the current folder in "
         "disguise: skipped unless search_cwd",
         lambda: win.resolve_command("git", r".;C:\Tools", None, files(r".\git.exe")), None),
    Case("quoted-path-entry", 'PATH entries may be quoted ("C:\\Program Files\\x")',
         lambda: win.resolve_command("x", r'"C:\Program Files\x";C:\y', None,
                                     files(r"C:\Program Files\x\x.exe")),
         r"C:\Program Files\x\x.exe"),
    Case("default-pathext", "no PATHEXT: the Windows default list (.COM;.EXE;.BAT;.CMD;.VBS...)",
         lookup("make", r"C:\Tools\make.bat", pathext=None), r"C:\Tools\make.bat"),
    Case("pathext-case", "PATHEXT is case-insensitive; its entries are normalised",
         lambda: win.split_pathext(" .EXE;.exe;;.Cmd ;junk"), (".exe", ".cmd")),
    Case("executable-only", "EXECUTABLE_PATHEXT finds only what CreateProcess can start",
         lookup("eslint", r"C:\Tools\eslint.cmd", pathext=win.EXECUTABLE_PATHEXT), None),
    Case("env-names-case-insensitive", "Windows environment names are case-insensitive "
         "(node passes Path, not PATH)",
         lambda: win.which_in({"Path": r"C:\Tools", "PathExt": ".EXE"},
                              files(r"C:\Tools\jq.exe"))("jq"), r"C:\Tools\jq.exe"),
]  # fmt: skip


@pytest.mark.parametrize("case", LOOKUPS, ids=lambda c: c.id)
def test_resolve_command(case: Case) -> None:
    check(case)


# --- interpreters and shells that are found -------------------------------------------

WIN_ENV = {"SystemRoot": r"C:\Windows", "ProgramFiles": r"C:\Program Files",
           "ProgramFiles(x86)": r"C:\Program Files (x86)", "LOCALAPPDATA": r"C:\Users\ada\AppData\Local"}  # fmt: skip


def which_table(**found: str) -> Callable[[str], str | None]:
    return lambda name: found.get(name.replace(".", "_"))


FINDERS = [
    Case("git-bash-override", "CLAUDE_CODE_GIT_BASH_PATH names Git Bash installed elsewhere",
         lambda: win.find_git_bash({**WIN_ENV, "CLAUDE_CODE_GIT_BASH_PATH": r"D:\g\bin\bash.exe"},
                                   files(r"D:\g\bin\bash.exe", GIT_BASH)), r"D:\g\bin\bash.exe"),
    Case("git-bash-override-missing", "an override naming no file is ignored",
         lambda: win.find_git_bash({**WIN_ENV, "CLAUDE_CODE_GIT_BASH_PATH": r"D:\nope.exe"},
                                   files(GIT_BASH)), GIT_BASH),
    Case("git-bash-beside-git-cmd", r"<git>\cmd\git.exe on PATH leads to <git>\bin\bash.exe",
         lambda: win.find_git_bash(WIN_ENV, files(r"E:\Git\bin\bash.exe", GIT_BASH),
                                   which_table(git_exe=r"E:\Git\cmd\git.exe")),
         r"E:\Git\bin\bash.exe"),
    Case("git-bash-beside-mingw-git", r"<git>\mingw64\bin\git.exe leads to <git>\bin\bash.exe",
         lambda: win.find_git_bash(WIN_ENV, files(r"E:\Git\bin\bash.exe"),
                                   which_table(git_exe=r"E:\Git\mingw64\bin\git.exe")),
         r"E:\Git\bin\bash.exe"),
    Case("git-bash-program-files", r"the default install, <ProgramFiles>\Git\bin\bash.exe",
         lambda: win.find_git_bash(WIN_ENV, files(GIT_BASH)), GIT_BASH),
    Case("git-bash-x86", "the 32-bit install under ProgramFiles(x86)",
         lambda: win.find_git_bash(WIN_ENV, files(r"C:\Program Files (x86)\Git\bin\bash.exe")),
         r"C:\Program Files (x86)\Git\bin\bash.exe"),
    Case("git-bash-per-user", r"the per-user install, %LOCALAPPDATA%\Programs\Git",
         lambda: win.find_git_bash(WIN_ENV, files(r"C:\Users\ada\AppData\Local\Programs\Git\bin\bash.exe")),
         r"C:\Users\ada\AppData\Local\Programs\Git\bin\bash.exe"),
    Case("git-bash-never-wsl", r"System32\bash.exe starts WSL (claude-plugins-official#2697): never",
         lambda: win.find_git_bash(WIN_ENV, files(), which_table(bash_exe=r"C:\Windows\System32\bash.exe")),
         None),
    Case("git-bash-never-store-alias", r"a WindowsApps alias starts WSL too: never",
         lambda: win.find_git_bash(WIN_ENV, files(), which_table(
             bash_exe=r"C:\Users\ada\AppData\Local\Microsoft\WindowsApps\bash.exe")), None),
    Case("msys2-bash-on-path", "another MSYS bash on PATH is the last resort",
         lambda: win.find_git_bash(WIN_ENV, files(), which_table(bash_exe=r"C:\msys64\usr\bin\bash.exe")),
         r"C:\msys64\usr\bin\bash.exe"),
    Case("no-git-bash", "nothing found: None (the caller falls back or refuses)",
         lambda: win.find_git_bash(WIN_ENV, files()), None),
    Case("pwsh-first", f"{CLAUDE} §Windows PowerShell tool: pwsh.exe first, powershell.exe fallback",
         lambda: win.find_powershell(WIN_ENV, files(PS51), which_table(pwsh_exe=r"C:\p\pwsh.exe")),
         r"C:\p\pwsh.exe"),
    Case("pwsh-install-path", "pwsh at its install path when not on PATH",
         lambda: win.find_powershell(WIN_ENV, files(PWSH, PS51), which_table()), PWSH),
    Case("powershell-fallback", "no pwsh: Windows PowerShell 5.1 at its fixed path",
         lambda: win.find_powershell(WIN_ENV, files(PS51), which_table()), PS51),
    Case("powershell-first-for-augment", f"{AUGMENT} §Script Requirements names powershell.exe",
         lambda: win.find_powershell(WIN_ENV, files(PWSH, PS51), which_table(), prefer_core=False),
         PS51),
    Case("no-powershell", "neither: None",
         lambda: win.find_powershell(WIN_ENV, files(), which_table()), None),
    Case("comspec", "%ComSpec% when it is a cmd.exe",
         lambda: win.comspec({**WIN_ENV, "ComSpec": r"D:\Win\system32\CMD.EXE"}),
         r"D:\Win\system32\CMD.EXE"),
    Case("comspec-not-cmd", "a ComSpec that is not cmd.exe (or is relative) is not used for batch files",
         lambda: win.comspec({**WIN_ENV, "ComSpec": "pwsh.exe"}), r"C:\Windows\System32\cmd.exe"),
    Case("comspec-default", r"never the bare cmd.exe (CreateProcess looks in the current folder first)",
         lambda: win.comspec({"windir": r"D:\W"}), r"D:\W\System32\cmd.exe"),
]  # fmt: skip


@pytest.mark.parametrize("case", FINDERS, ids=lambda c: c.id)
def test_finders(case: Case) -> None:
    check(case)


# --- what runs a script file ----------------------------------------------------------


def script(path: str, *args: str, **kw: Any) -> Callable[[], tuple[str, ...]]:
    kw.setdefault("powershell", PWSH)
    kw.setdefault("bash", GIT_BASH)
    return lambda: win.script_argv(path, args, **kw)


SCRIPTS = [
    Case("ps1", f"{AUGMENT} §Script Requirements: .ps1 with PowerShell; {CLAUDE} PreToolUse "
         "Windows example: -NoProfile -ExecutionPolicy Bypass -File",
         script(r"C:\h\check.ps1", "a b"), (PWSH, *PS_FLAGS, "-File", r"C:\h\check.ps1", "a b")),
    Case("ps1-case", "extensions are case-insensitive",
         script(r"C:\h\CHECK.PS1"), (PWSH, *PS_FLAGS, "-File", r"C:\h\CHECK.PS1")),
    Case("ps1-no-powershell", "no PowerShell: refused with a reason, not a bare name",
         script(r"C:\h\check.ps1", powershell=None), win.LaunchError),
    Case("ps1-shebang-ignored", f"{AUGMENT}: a shebang inside .ps1 is ignored",
         script(r"C:\h\check.ps1", shebang=("bash",)), (PWSH, *PS_FLAGS, "-File", r"C:\h\check.ps1")),
    Case("cmd", f"{AUGMENT}: .cmd with cmd.exe /c; /d /s and a quoted line",
         script(r"C:\h\check.cmd"), (CMD, *CMD_FLAGS, r'""C:\h\check.cmd""')),
    Case("bat-shebang-ignored", f"{AUGMENT}: .bat with cmd.exe, a shebang inside is ignored",
         script(r"C:\h\check.bat", shebang=("bash",)), (CMD, *CMD_FLAGS, r'""C:\h\check.bat""')),
    Case("bat-path-with-parentheses", "a path with spaces and ( ) & is quoted, not refused",
         script(r"C:\Program Files (x86)\R&D\check.bat", "--fast"),
         (CMD, *CMD_FLAGS, r'""C:\Program Files (x86)\R&D\check.bat" --fast"')),
    Case("bat-comspec", "the cmd.exe given (comspec()) is used",
         script(r"C:\h\check.bat", comspec=r"D:\W\System32\cmd.exe"),
         (r"D:\W\System32\cmd.exe", *CMD_FLAGS, r'""C:\h\check.bat""')),
    Case("exe", "an executable runs directly", script(r"C:\h\check.exe", "-v"),
         (r"C:\h\check.exe", "-v")),
    Case("com", ".com runs directly", script(r"C:\h\check.com"), (r"C:\h\check.com",)),
    Case("sh", f"{CLAUDE} §Exec form and shell form: Git Bash on Windows; path with /",
         script(r"C:\h\check.sh", "x"), (GIT_BASH, "C:/h/check.sh", "x")),
    Case("sh-no-git-bash", "no Git Bash: refused (never a bare bash.exe, maybe WSL's)",
         script(r"C:\h\check.sh", bash=None), win.LaunchError),
    Case("py", f"{SDK_NOTES}: .py is py -3 <f> on Windows", script(r"C:\h\PreToolUse.py"),
         ("py", "-3", r"C:\h\PreToolUse.py")),
    Case("js", f"{SDK_NOTES}: .js/.mjs/.cjs is node <f>", script(r"C:\h\PreToolUse.mjs"),
         ("node", r"C:\h\PreToolUse.mjs")),
    Case("ts", f"{SDK_NOTES}: .ts is bun run <f>", script(r"C:\h\PreToolUse.ts"),
         ("bun", "run", r"C:\h\PreToolUse.ts")),
    Case("shebang-node", f"{CLINE} §Hook Files: no extension, the shebang picks the interpreter",
         script(r"C:\h\PreToolUse", shebang=("node",)), ("node", r"C:\h\PreToolUse")),
    Case("shebang-bash", f"{CLINE}: a bash shebang runs in Git Bash",
         script(r"C:\h\PreToolUse", shebang=("/bin/bash", "-e")), (GIT_BASH, "-e", "C:/h/PreToolUse")),
    Case("shebang-python", f"{SDK_NOTES}: python/python3 become py -3 on Windows",
         script(r"C:\h\PreToolUse", shebang=("python3",)), ("py", "-3", r"C:\h\PreToolUse")),
    Case("shebang-other", "any other interpreter by its last path part, arguments kept",
         script(r"C:\h\PreToolUse", shebang=("/usr/bin/perl", "-w")),
         ("perl", "-w", r"C:\h\PreToolUse")),
    Case("extensionless-no-shebang", f"{SDK_NOTES}: anything else runs through bash",
         script(r"C:\h\PreToolUse"), (GIT_BASH, "C:/h/PreToolUse")),
    Case("python-fallback", f"{SDK_NOTES}: py missing, retried as python <f>",
         lambda: win.python_fallback(("py", "-3", r"C:\h\x.py")), ("python", r"C:\h\x.py")),
    Case("python-fallback-other", "no fallback for other interpreters",
         lambda: win.python_fallback(("node", r"C:\h\x.js")), None),
]  # fmt: skip


@pytest.mark.parametrize("case", SCRIPTS, ids=lambda c: c.id)
def test_script_argv(case: Case) -> None:
    check(case)


# --- Claude: shell form, exec form; Cline: hook files ---------------------------------


def shell(command: str, field: str | None, git_bash: str | None = GIT_BASH, **kw: Any):
    kw.setdefault("powershell", PWSH)
    return lambda: win.shell_argv(command, field, git_bash=git_bash, **kw)


CLAUDE_CASES = [
    Case("shell-default-git-bash", f"{CLAUDE} §Exec form and shell form: Git Bash on Windows",
         shell("npm test && echo ok", None), (GIT_BASH, "-c", "npm test && echo ok")),
    Case("shell-bash", f"{CLAUDE} §Command hook fields: shell \"bash\"",
         shell("npm test", "bash"), (GIT_BASH, "-c", "npm test")),
    Case("shell-default-no-git-bash", f"{CLAUDE} §Command hook fields: defaults to powershell "
         "on Windows when Git Bash isn't installed",
         shell("npm test", None, git_bash=None), (PWSH, *PS_FLAGS, "-Command", "npm test" + TAIL)),
    Case("shell-powershell", f"{CLAUDE} §Windows PowerShell tool: shell \"powershell\"",
         shell("Write-Host 'File written'", "powershell"),
         (PWSH, *PS_FLAGS, "-Command", "Write-Host 'File written'" + TAIL)),
    Case("shell-bash-without-git-bash", "explicit bash and no Git Bash: refused, not run by "
         "PowerShell (ustoppble/overclick#63: bash syntax misparsed by PowerShell)",
         shell("./x.sh", "bash", git_bash=None), win.LaunchError),
    Case("shell-unknown", f"{CLAUDE}: shell accepts \"bash\" or \"powershell\"",
         shell("x", "zsh"), win.LaunchError),
    Case("shell-nothing-found", "neither Git Bash nor PowerShell: refused",
         shell("x", None, git_bash=None, powershell=None), win.LaunchError),
    Case("shell-drive-letter", "a command starting with C: gets a leading space (bash ignores "
         "it) so that Git Bash does not read it as a DOS path",
         shell(r'C:\hooks\x.sh "a b"', None), (GIT_BASH, "-c", r' C:\hooks\x.sh "a b"')),
    Case("ps-placeholders", f"{CLAUDE} §Windows PowerShell tool: ${{CLAUDE_PROJECT_DIR}} is "
         "rewritten to ${env:CLAUDE_PROJECT_DIR} (v2.1.198)",
         lambda: win.powershell_placeholders(
             '& "${CLAUDE_PROJECT_DIR}\\a.ps1" "${CLAUDE_PLUGIN_ROOT}" ${CLAUDE_PLUGIN_DATA}'),
         '& "${env:CLAUDE_PROJECT_DIR}\\a.ps1" "${env:CLAUDE_PLUGIN_ROOT}" ${env:CLAUDE_PLUGIN_DATA}'),
    Case("ps-bare-not-rewritten", f"{CLAUDE}: the bare $CLAUDE_PROJECT_DIR is not rewritten",
         lambda: win.powershell_placeholders("& $CLAUDE_PROJECT_DIR\\a.ps1"),
         "& $CLAUDE_PROJECT_DIR\\a.ps1"),
    Case("ps-bare-warned", f"{CLAUDE}: the bare form is reported (Claude logs a warning)",
         lambda: win.bare_placeholders("$CLAUDE_PROJECT_DIR\\a $env:CLAUDE_PLUGIN_ROOT "
                                       "${CLAUDE_PLUGIN_DATA} $CLAUDE_PROJECT_DIRX $CLAUDE_PLUGIN_DATA"),
         ("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_DATA")),
    Case("ps-command-reference-example", f"{CLAUDE} §Windows PowerShell tool example, with the "
         "exit-code line (a script's exit 2 would otherwise reach hookd as 1)",
         shell('& "$env:CLAUDE_PROJECT_DIR\\.claude\\hooks\\check.ps1"', "powershell"),
         (PWSH, *PS_FLAGS, "-Command", '& "$env:CLAUDE_PROJECT_DIR\\.claude\\hooks\\check.ps1"' + TAIL)),
    Case("exec-exe", f"{CLAUDE} §Exec form: command resolved on PATH and spawned with args",
         lambda: win.exec_form_argv("node", ["C:/p/format.js", "--fix"], path_env=PATH,
                                    exists=files(r"C:\Program Files\nodejs\node.exe")),
         (r"C:\Program Files\nodejs\node.exe", "C:/p/format.js", "--fix")),
    Case("exec-powershell-example", f"{CLAUDE} PreToolUse Windows example: powershell.exe + args",
         lambda: win.exec_form_argv("powershell.exe", ["-NoProfile", "-File", "x.ps1"],
                                    path_env=r"C:\Windows\System32\WindowsPowerShell\v1.0",
                                    exists=files(PS51)),
         (PS51, "-NoProfile", "-File", "x.ps1")),
    Case("exec-cmd-shim", f"{CLAUDE} §Exec form note: .cmd shims can't be spawned without a shell",
         lambda: win.exec_form_argv("eslint", [], path_env=PATH, exists=files(r"C:\Tools\eslint.cmd")),
         win.LaunchError),
    Case("exec-explicit-cmd", f"{CLAUDE} §Exec form note: naming the .cmd does not help",
         lambda: win.exec_form_argv(r"C:\Tools\npx.cmd", [], path_env=PATH,
                                    exists=files(r"C:\Tools\npx.cmd")), win.LaunchError),
    Case("exec-missing", "not found: refused with the name",
         lambda: win.exec_form_argv("nope", [], path_env=PATH, exists=files()), win.LaunchError),
    Case("cline-ps1-first", "notes/cline-implementation.md (PR #9552): Windows runs <Hook>.ps1",
         lambda: win.find_hook_file(r"C:\ws\.clinerules\hooks", "PreToolUse", pathext=None,
                                    exists=files(r"C:\ws\.clinerules\hooks\PreToolUse.ps1",
                                                 r"C:\ws\.clinerules\hooks\PreToolUse")),
         r"C:\ws\.clinerules\hooks\PreToolUse.ps1"),
    Case("cline-extensionless", f"{CLINE} §Hook Files: named exactly PreToolUse, no extension",
         lambda: win.find_hook_file(r"C:\h", "PreToolUse", pathext=None,
                                    exists=files(r"C:\h\PreToolUse", r"C:\h\PreToolUse.cmd")),
         r"C:\h\PreToolUse"),
    Case("cline-pathext", f"{CLINE_DESIGN} §2: PATHEXT in the hooks folder (not PATH)",
         lambda: win.find_hook_file(r"C:\h", "PreToolUse", pathext=".EXE;.CMD",
                                    exists=files(r"C:\h\PreToolUse.cmd", r"C:\Tools\PreToolUse.exe")),
         r"C:\h\PreToolUse.cmd"),
    Case("cline-none", "no file: no hook", lambda: win.find_hook_file(
        r"C:\h", "PreToolUse", pathext=None, exists=files()), None),
]  # fmt: skip


@pytest.mark.parametrize("case", CLAUDE_CASES, ids=lambda c: c.id)
def test_claude_and_cline(case: Case) -> None:
    check(case)


# --- cmd.exe: BatBadBut ---------------------------------------------------------------

CMD_ARGS = [
    Case("plain", f"{RUST}: letters, digits and #$*+-./:?@\\_ stay bare",
         lambda: [win.quote_cmd_arg(a) for a in ("-v", r"C:\h\x.txt", "#$*+-./:?@\\_")],
         ["-v", r"C:\h\x.txt", "#$*+-./:?@\\_"]),
    Case("non-ascii", f"{RUST}: printable non-ASCII stays bare", lambda: win.quote_cmd_arg("é"), "é"),
    Case("space", "a space is quoted", lambda: win.quote_cmd_arg("a b"), '"a b"'),
    Case("empty", "an empty argument is kept as \"\"", lambda: win.quote_cmd_arg(""), '""'),
    Case("ampersand", "& | < > ( ) ^ are cmd operators outside quotes: quoted",
         lambda: [win.quote_cmd_arg(a) for a in ("a&calc", "x|y", "a>b", "(x)", "x^y", "a<b")],
         ['"a&calc"', '"x|y"', '"a>b"', '"(x)"', '"x^y"', '"a<b"']),
    Case("percent", f"{RUST}: % becomes %%cd:~,% so %VAR% is not expanded inside quotes",
         lambda: win.quote_cmd_arg("100%"), '"100%%cd:~,%"'),
    Case("percent-var", f"{RUST}: %PATH% reaches the batch file as written",
         lambda: win.quote_cmd_arg("%PATH%"), '"%%cd:~,%PATH%%cd:~,%"'),
    Case("quote", f"{RUST}: a \" is doubled inside quotes (cmd's quote state stays on)",
         lambda: win.quote_cmd_arg('say "hi"'), '"say ""hi"""'),
    Case("backslash-quote", f"{RUST}: backslashes before a \" are doubled",
         lambda: win.quote_cmd_arg('a\\"b'), '"a\\\\""b"'),
    Case("trailing-backslash", f"{RUST}: a trailing backslash forces quotes and is doubled",
         lambda: win.quote_cmd_arg("C:\\dir\\"), '"C:\\dir\\\\"'),
    Case("bang", "! is quoted (and literal: delayed expansion is off, /v:OFF)",
         lambda: win.quote_cmd_arg("!v!"), '"!v!"'),
    Case("newline", "a newline ends cmd's command: refused", lambda: win.quote_cmd_arg("a\nb"),
         win.UnsafeForCmd),
    Case("carriage-return", "CR: refused", lambda: win.quote_cmd_arg("a\rb"), win.UnsafeForCmd),
    Case("script-quote", "a batch path with \" cannot be a file: refused",
         lambda: win.batch_argv('C:\\h\\a"b.bat'), win.UnsafeForCmd),
    Case("script-trailing-backslash", "a batch path ending in \\ is no file: refused",
         lambda: win.batch_argv("C:\\h\\"), win.UnsafeForCmd),
    Case("too-long", "cmd.exe takes at most 8191 characters", lambda: win.batch_argv(
        r"C:\h\x.bat", ["a" * 8200]), win.UnsafeForCmd),
    Case("percent-in-path", "% in the script's own path is escaped too",
         lambda: win.batch_argv(r"C:\100%\x.cmd")[-1], '""C:\\100%%cd:~,%\\x.cmd""'),
]  # fmt: skip


@pytest.mark.parametrize("case", CMD_ARGS, ids=lambda c: c.id)
def test_cmd_quoting(case: Case) -> None:
    check(case)


def _operators_quoted(line: str) -> bool:
    """cmd /s strips the first and last quote; every operator must then be inside quotes
    (cmd's quote flag flips on each "), and every % must be part of %%cd:~,%."""
    assert line.startswith('"')
    assert line.endswith('"')
    inner, inside = line[1:-1], False
    for char in inner:
        if char == '"':
            inside = not inside
        elif char in "&|<>()^" and not inside:
            return False
    return "%" not in inner.replace("%%cd:~,%", "")


HOSTILE = ["a&calc", "x|y", '"&calc&"', 'a" & calc & "b', "^&", "%PATH%", "100%", "(x)", "a>b",
           'C:\\d\\" & calc', "\\\\\"", "!x!", "é&ü", "a\\", 'x"']  # fmt: skip


@pytest.mark.parametrize("word", HOSTILE)
def test_batch_line_keeps_cmd_operators_quoted(word: str) -> None:
    """BatBadBut: whatever the argument, no operator escapes cmd's quotes and no %VAR%
    is left for expansion (the classic attack is '"&calc&"')."""
    argv = win.batch_argv(r"C:\Program Files (x86)\h\check.bat", [word, "plain"])
    assert argv[:-1] == (CMD, *CMD_FLAGS)
    assert _operators_quoted(argv[-1]), argv[-1]


# --- the command line CreateProcess receives -------------------------------------------


def parse_msvcrt(line: str) -> list[str]:
    """CommandLineToArgvW / the MS C runtime since 2008 (arguments after argv[0])."""
    args: list[str] = []
    i, n = 0, len(line)
    # argv[0]: up to the next space, or the quoted run (the program name rule).
    if line.startswith('"'):
        i = line.index('"', 1) + 1
    else:
        while i < n and line[i] not in " \t":
            i += 1
    while True:
        while i < n and line[i] in " \t":
            i += 1
        if i >= n:
            return args
        cur: list[str] = []
        inside = False
        while i < n and (inside or line[i] not in " \t"):
            if line[i] == "\\":
                j = i
                while j < n and line[j] == "\\":
                    j += 1
                if j < n and line[j] == '"':
                    cur.append("\\" * ((j - i) // 2))
                    if (j - i) % 2:
                        cur.append('"')
                        j += 1
                else:
                    cur.append("\\" * (j - i))
                i = j
            elif line[i] == '"':
                if inside and i + 1 < n and line[i + 1] == '"':
                    cur.append('"')
                    i += 2
                else:
                    inside = not inside
                    i += 1
            else:
                cur.append(line[i])
                i += 1
        args.append("".join(cur))


def _words(line: str) -> list[str]:
    """Cygwin's legacy build_argv word split (winshell: quotes preserved for globify)."""
    chars, words, i, n = list(line), [], 0, len(line)
    while i < n:
        if chars[i] in " \t\n\r":
            i += 1
            continue
        start = i
        while i < n:
            if chars[i] not in "\"'":
                i += 1
            else:  # quoted(): step over the run, \ escapes the next char in "..."
                quote, stops = chars[i], "'" if chars[i] == "'" else '\\"'
                while i < n and i + 1 < n:
                    i += 1
                    p = next((k for k in range(i, n) if chars[k] in stops), None)
                    if p is None:
                        i = n
                        break
                    if chars[p] == "\\":
                        i = p + 1
                    elif quote == '"' and p + 1 < n and chars[p + 1] == '"':
                        chars[p] = "\\"
                        i = p + 1
                    else:
                        i = p + 1
                        break
                else:
                    i = n
            if i < n and chars[i] in " \t\n\r":
                break
        words.append("".join(chars[start:i]))
    return words


def _is_dos_path(s: str) -> bool:
    """Cygwin's is_dos_path: X:... or \\\\server\\... (older versions: X: only)."""
    drive = len(s) >= 2 and s[0].isascii() and s[0].isalpha() and s[1] == ":"
    unc = s[:2] == "\\\\" and s[2:3].isascii() and s[2:3].isalpha() and "\\" in s[3:]
    return drive or unc


def _globify_no_match(word: str) -> str:
    """Cygwin's legacy globify when nothing matches (GLOB_NOCHECK | GLOB_QUOTE)."""
    if not word.startswith("~") and not any(c in word for c in "?*[\"'(){}"):
        return word
    dos = _is_dos_path(word) or (word[:1] in "\"'" and len(word) > 2 and _is_dos_path(word[1:]))
    out: list[str] = []
    i = 0
    while i < len(word):
        char = word[i]
        if char not in "\"'":
            if char == "\\" and not dos:  # an unquoted backslash escapes the next char
                i += 1
            out.append(word[i] if i < len(word) else "")
            i += 1
            continue
        quote = char
        i += 1
        while i < len(word) and word[i] != quote:
            if not dos and word[i] == "\\" and i + 1 < len(word) and word[i + 1] in (quote, "\\"):
                i += 1
            out.append(word[i])
            i += 1
        i += 1
    return "".join(out)


def parse_cygwin_legacy(line: str) -> list[str]:
    return [_globify_no_match(w) for w in _words(line)[1:]]


def parse_cygwin_v6(line: str) -> list[str]:
    """The MSVCRT-like next_arg of the cygwin-patches rewrite (2021, v6); no glob match."""
    args: list[str] = []
    i, n = 0, len(line)
    while True:
        while i < n and line[i] in " \t\n\r":
            i += 1
        if i >= n:
            return args[1:]
        out: list[str] = []
        inside, quote, backslashes = False, "", 0
        while i < n and (inside or line[i] not in " \t\n\r"):
            char = line[i]
            i += 1
            if char == "\\":
                backslashes += 1
                continue
            out.append("\\" * (backslashes // 2 if inside else backslashes))
            if backslashes % 2 == 0 and (char == quote if inside else char in "\"'"):
                if inside and i < n and line[i] == quote:
                    out.append(char)
                    i += 1
                else:
                    quote = char if not inside else quote
                    inside = not inside
            else:
                out.append(char)
            backslashes = 0
        args.append("".join(out))


TRICKY = ["plain", "a b", "", 'say "hi"', "a\\b", "a\\\\b", "dir\\", "dir\\\\", 'a\\"b',
          "\\\\server\\share", "*.py", "it's", "~/x", "{a,b}", "tab\there", "x\ny", "é ü",
          "$HOME", "`id`", "%PATH%", "a & b", '"', "\\"]  # fmt: skip


def test_command_line_follows_the_ms_c_runtime() -> None:
    """CreateProcess takes one string; node, python, py, pwsh split it by the C runtime
    rules: every argument comes back as given, and the line equals what
    subprocess.list2cmdline makes wherever no quote is involved."""
    argv = [r"C:\Program Files\nodejs\node.exe", *TRICKY]
    line = win.command_line(argv)
    assert line.startswith('"C:\\Program Files\\nodejs\\node.exe" ')
    assert parse_msvcrt(line) == TRICKY
    plain = [a for a in TRICKY if '"' not in a]
    assert win.list2cmdline(plain) == subprocess.list2cmdline(plain)


def test_command_line_for_git_bash_survives_both_cygwin_parsers() -> None:
    """Git Bash's runtime splits the line itself (quotes, \\ escapes, globbing): every
    argument not starting with a drive letter comes back as given, under the legacy
    parser and the proposed MSVCRT-like one; globs (*.py, {a,b}, ~) stay literal."""
    argv = [GIT_BASH, *TRICKY]
    line = win.command_line(argv)
    assert parse_cygwin_legacy(line) == TRICKY
    assert parse_cygwin_v6(line) == TRICKY


COMMANDS = [  # shell-form commands from the reference and guide, and awkward ones
    '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check-style.sh',
    "jq -r '.tool_input.file_path' | xargs npx prettier --write",
    r"printf '%s\n' \"quoted\" a\\b",
    r'C:\hooks\x.sh "a b" C:\\y',
    "C:/hooks/x.sh",
    'echo "{\\"decision\\": \\"block\\"}"',
]


@pytest.mark.parametrize("command", COMMANDS)
def test_git_bash_receives_the_command_as_written(command: str) -> None:
    """Claude's shell form under Git Bash: bash -c gets the hook's command unchanged
    (or with one leading space, for a command starting with a drive letter)."""
    argv = win.shell_argv(command, None, git_bash=GIT_BASH)
    line = win.command_line(argv)
    for parse in (parse_cygwin_legacy, parse_cygwin_v6):
        flag, received = parse(line)
        assert flag == "-c"
        assert received == (" " + command if command[1:2] == ":" else command)


def test_powershell_receives_the_command_as_written() -> None:
    """pwsh/powershell.exe split by the C runtime rules: -Command gets the text built
    by powershell_command, quotes, backslashes and newlines included."""
    command = '& "${CLAUDE_PROJECT_DIR}\\.claude\\hooks\\check.ps1" "a\\" b"\nWrite-Host done\\'
    line = win.command_line(win.shell_argv(command, "powershell", git_bash=None, powershell=PWSH))
    assert parse_msvcrt(line) == [*PS_FLAGS, "-Command", win.powershell_command(command)]


MSYS_REFUSED = [r"C:\x", 'C:/a"b', "C:\\"]


@pytest.mark.parametrize("word", MSYS_REFUSED)
def test_git_bash_refuses_dos_paths_it_cannot_escape(word: str) -> None:
    """A word starting with a drive letter is a DOS path to Git Bash's runtime, read
    with literal backslashes and no escapes by one parser and not by the other."""
    with pytest.raises(win.UnsafeForMsys):
        win.command_line((GIT_BASH, r"C:/h/check.sh", word))


def test_cmd_line_is_passed_verbatim() -> None:
    """cmd.exe does not use the C runtime rules: its /c line is appended as built (what
    node does with windowsVerbatimArguments), never re-quoted."""
    argv = win.batch_argv(r"C:\my hooks\check.bat", ["a b", 'x"y'], comspec=CMD)
    line = win.command_line(argv)
    assert line == CMD + r' /d /e:ON /v:OFF /s /c ""C:\my hooks\check.bat" "a b" "x""y""'
    assert win.command_line(("cmd", "/c", '"x"')) == 'cmd /c "x"'


# --- the pipe the clients connect to --------------------------------------------------

PIPES = [
    Case("pipe-user", "daemon-conventions §5.5: per-user pipe \\\\.\\pipe\\hookd-<user>",
         lambda: win.pipe_address("ada"), r"\\.\pipe\hookd-ada"),
    Case("pipe-domain-user", "a backslash is not allowed in a pipe name (CreateNamedPipe)",
         lambda: win.pipe_address("CORP\\ada"), r"\\.\pipe\hookd-CORP_ada"),
    Case("pipe-length", "a pipe name is at most 256 characters",
         lambda: len(win.pipe_address("x" * 400)), 256),
]  # fmt: skip


@pytest.mark.parametrize("case", PIPES, ids=lambda c: c.id)
def test_pipe_address(case: Case) -> None:
    check(case)


def _client_address(monkeypatch: pytest.MonkeyPatch, user: str) -> str:
    from hookd.protocol import default_socket_path

    monkeypatch.setattr("sys.platform", "win32")
    monkeypatch.setenv("USERNAME", user)
    monkeypatch.delenv("HOOKD_SOCKET", raising=False)
    return default_socket_path()


def test_clients_connect_where_the_server_would_listen(monkeypatch: pytest.MonkeyPatch) -> None:
    """hookd.protocol's Windows branch and pipe_address agree for an ordinary name."""
    assert _client_address(monkeypatch, "ada") == win.pipe_address("ada")


def test_client_pipe_name_has_no_backslash(monkeypatch: pytest.MonkeyPatch) -> None:
    address = _client_address(monkeypatch, "CORP\\ada")
    assert "\\" not in address[len("\\\\.\\pipe\\") :]


def test_models_agree_with_known_lines() -> None:
    """The parser models above, on lines whose meaning is documented: the MS examples
    ("Parsing C command-line arguments") and Cygwin's quoting of a quoted quote."""
    ms: Mapping[str, list[str]] = {
        'p "abc" d e': ["abc", "d", "e"],
        r"p a\\b d\"e f\"g h": [r"a\\b", 'd"e', 'f"g', "h"],
        r"p a\\\"b c d": [r"a\"b", "c", "d"],
        r'p a\\\\"b c" d e': [r"a\\b c", "d", "e"],
        'p a"b"" c d': ['ab" c d'],
    }
    for line, expected in ms.items():
        assert parse_msvcrt(line) == expected, line
    assert parse_cygwin_legacy(r'bash "a\"b" "c\\d" "e\f"') == ['a"b', "c\\d", "e\\f"]
    assert parse_cygwin_legacy('bash "C:\\x\\\\y"') == ["C:\\x\\\\y"]  # a DOS path: literal
    assert parse_cygwin_v6(r'bash "a\"b" "c\\d"') == ['a"b', "c\\d"]
    assert ntpath.basename(GIT_BASH) == "bash.exe"
    assert re.fullmatch(r"\S+", win.quote_arg("x")) is not None


@pytest.mark.parametrize(
    ("shell", "expected"),
    [
        (None, ("/bin/sh", "-c", 'echo "${CLAUDE_PROJECT_DIR}"')),
        ("bash", ("/bin/sh", "-c", 'echo "${CLAUDE_PROJECT_DIR}"')),
        ("powershell", ("pwsh", "-NoProfile", "-NonInteractive", "-Command",
                        'echo "${env:CLAUDE_PROJECT_DIR}"')),
    ],
)  # fmt: skip
def test_claude_shell_field_on_posix(shell, expected) -> None:
    """On macOS and Linux shell form is sh -c; shell: "powershell" runs PowerShell 7 with
    the placeholders rewritten to ${env:NAME}, as Claude Code does for PowerShell."""
    from hookd.daemon.dialects.claude.dialect import shell_form

    assert shell_form('echo "${CLAUDE_PROJECT_DIR}"', shell, {}) == expected
