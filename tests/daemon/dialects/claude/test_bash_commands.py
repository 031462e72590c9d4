"""The Bash scanner behind Claude's ``if: "Bash(...)"`` rules: every simple command is
found, quoted separators are not separators, and what it does not model is refused (the
caller then fails open)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookd.daemon.dialects.claude.bash_commands import Unparsed, simple_commands


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("git push", [["git", "push"]]),
        ("FOO=bar BAZ=1 git push", [["git", "push"]]),
        ("npm test && git push || echo no; ls | wc -l & wait",
         [["npm", "test"], ["git", "push"], ["echo", "no"], ["ls"], ["wc", "-l"], ["wait"]]),
        ("echo $(rm -rf /)", [["rm", "-rf", "/"], ["echo", "$"]]),
        ("echo $(rm -rf $(pwd))", [["pwd"], ["rm", "-rf", "$"], ["echo", "$"]]),
        ("echo `rm -rf x`", [["rm", "-rf", "x"], ["echo", "$"]]),
        ('echo "today: $(date) `whoami`"', [["date"], ["whoami"], ["echo", "today: $ $"]]),
        ("(rm -rf /tmp/x)", [["rm", "-rf", "/tmp/x"]]),
        ("{ rm -rf x; }", [["rm", "-rf", "x"]]),
        ("if true; then rm -rf x; else echo keep; fi", [["true"], ["rm", "-rf", "x"], ["echo", "keep"]]),
        ("while read f; do rm \"$f\"; done < list", [["read", "f"], ["rm", "$f"]]),
        ("for f in a b; do rm $f; done", [["rm", "$f"]]),
        ("! time rm x", [["rm", "x"]]),
        ('git commit -m "fix; tidy && more"', [["git", "commit", "-m", "fix; tidy && more"]]),
        ("echo 'a | b' \"c;d\" e\\;f", [["echo", "a | b", "c;d", "e;f"]]),
        ("rm x 2>&1 >/dev/null", [["rm", "x"]]),
        ("> out rm x", [["rm", "x"]]),
        ("cat <(rm x) &>/dev/null", [["rm", "x"], ["cat", "$"]]),
        ("cat <(true) secret.txt", [["true"], ["cat", "$", "secret.txt"]]),
        ("diff <(a) <(b)", [["a"], ["b"], ["diff", "$", "$"]]),
        ("echo $((rm x); ls)", [["rm", "x"], ["ls"], ["echo", "$"]]),
        ("echo $((1 + (2 * 3)))", [["echo", "$"]]),
        ("ls # ; rm x", [["ls"]]),
        ("echo a#b", [["echo", "a#b"]]),
        ("git \\\n  push", [["git", "push"]]),
        ("", []),
    ],
)  # fmt: skip
def test_simple_commands(command: str, expected: list[list[str]]) -> None:
    assert simple_commands(command) == expected


@pytest.mark.parametrize(
    "command",
    ["echo 'open", 'echo "open', "echo $(open", "(open", "close)", "echo `open",
     "cat <<EOF\nrm x\nEOF", "case $x in a) rm x;; esac", "f() { rm x; }", "a=(1 2)",
     "echo trailing\\", "rm x >", "echo $(( $(rm -rf x) ))", "echo $(( `rm x` ))",
     "$'rm' -rf x", "echo $((", "echo " + "$(" * 200 + "rm x" + ")" * 200,
     "(" * 500 + "rm x" + ")" * 500, '"' + "$(" * 100 + "x" + ")" * 100 + '"'],
)  # fmt: skip
def test_what_is_not_modelled_is_refused(command: str) -> None:
    with pytest.raises(Unparsed):
        simple_commands(command)


@given(st.text(alphabet="ab $()`'\"\\;&|<>{}#\n!=", max_size=40))
def test_any_input_gives_commands_or_unparsed(command: str) -> None:
    """Never another exception, never a hang: the caller's fail-open depends on it."""
    try:
        commands = simple_commands(command)
    except Unparsed:
        return
    assert all(isinstance(word, str) for words in commands for word in words)
