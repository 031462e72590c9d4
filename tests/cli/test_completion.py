"""``hookd completion``: the scripts are made from the parser, and the bash one completes
for real in bash (zsh loads the same function through bashcompinit)."""

from __future__ import annotations

import subprocess

from hookd.daemon.cli.main import build_parser
from hookd_testing.cli import HOOKD


def completion(shell: str) -> str:
    done = subprocess.run([*HOOKD, "completion", shell], capture_output=True, text=True,
                          timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def complete_in_bash(script: str, *words: str) -> list[str]:
    """What bash offers after ``hookd WORDS...`` (the last word being completed)."""
    line = " ".join(["hookd", *words])
    program = (f"{script}\nCOMP_WORDS=(hookd {' '.join(repr(w) for w in words)})\n"
               f"COMP_CWORD={len(words)}\nCOMP_LINE={line!r}\n_hookd\n"
               'printf "%s\\n" "${COMPREPLY[@]}"\n')  # fmt: skip
    done = subprocess.run(["bash", "--norc", "-c", program], capture_output=True, text=True,
                          timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_bash_completes_commands_options_and_agents() -> None:
    script = completion("bash")

    assert "explain" in complete_in_bash(script, "ex")
    assert complete_in_bash(script, "fire", "--ag") == ["--agent"]
    assert "gemini" in complete_in_bash(script, "fire", "--agent", "")
    assert complete_in_bash(script, "--socket", "/tmp/s", "tr") == ["trace"]
    assert "install" in complete_in_bash(script, "relay", "")


def test_every_command_is_in_every_shell_script() -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    for shell in ("bash", "zsh", "fish"):
        text = completion(shell)
        missing = [name for name in commands if name not in text]
        assert not missing, (shell, missing)
    assert completion("zsh").startswith("autoload -U +X bashcompinit && bashcompinit\n")
