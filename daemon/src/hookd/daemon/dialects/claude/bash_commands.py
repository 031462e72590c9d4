"""The simple commands inside a Bash command line, for Claude's ``if: "Bash(...)"`` rules.

A quote-aware scanner, not a shell: it knows quotes and escapes, the separators
(``;``, ``&&``, ``||``, ``|``, ``&``, newlines), subshells ``( )`` and groups ``{ }``,
command substitution (``$( )`` and backticks, inside double quotes too, at any depth),
process substitution, redirections, comments, and the keywords that open or close
compound commands (``if``/``then``/``do``...). Each simple command comes back as its words
with quotes removed and leading ``VAR=value`` assignments stripped.

What it does not model (here-documents, ``case``, function definitions, unterminated
quotes or parentheses) raises ``Unparsed``: the caller then fails open and runs the hook,
as Claude Code does "when the Bash command can't be parsed".
"""

from __future__ import annotations

import re

_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=")
_PREFIX_KEYWORDS = frozenset(
    {"if", "then", "elif", "else", "fi", "do", "done", "while", "until", "!", "{", "}", "time"}
)
_HEADER_KEYWORDS = frozenset({"for", "select"})
"""``for x in a b`` is a loop header, not a command."""
_UNMODELLED_KEYWORDS = frozenset({"case", "esac", "function", "coproc", "[[", "]]"})
MAX_DEPTH = 64
"""Nesting of substitutions and subshells past this is refused (``Unparsed``, so the
hook runs) rather than scanned: no recursion limit can be reached from a command."""
_SUBSTITUTED = "\x00"
"""Stands in a word for a substituted part: the word's value is only known at run time."""


class Unparsed(ValueError):
    """The command uses something this scanner does not model."""


def simple_commands(command: str) -> list[list[str]]:
    """Every simple command of ``command``, nested ones included, as lists of words.

    Raises:
        Unparsed: a construct the scanner does not model, or a syntax error.
    """
    scanner = _Scanner(command)
    scanner.sequence(closing=None)
    return scanner.commands


class _Scanner:
    def __init__(self, text: str, depth: int = 0) -> None:
        self.text = text
        self.pos = 0
        self.commands: list[list[str]] = []
        self.depth = depth

    # sequences of commands ------------------------------------------------------------
    def sequence(self, closing: str | None) -> None:
        """Scan commands up to the end, or up to an unmatched ``closing`` (consumed)."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Unparsed(f"nested more than {MAX_DEPTH} levels deep")
        text = self.text
        words: list[str] = []
        word: list[str] | None = None
        redirect_target = False
        depth = 0

        def add(part: str) -> None:
            nonlocal word
            if word is None:
                word = []
            word.append(part)

        def end_word() -> None:
            nonlocal word, redirect_target
            if word is not None:
                if redirect_target:
                    redirect_target = False
                else:
                    words.append("".join(word))
                word = None

        def end_command() -> None:
            nonlocal words
            end_word()
            if redirect_target:
                raise Unparsed("a redirection without a target")
            self._add(words)
            words = []

        while self.pos < len(text):
            char = text[self.pos]
            two = text[self.pos : self.pos + 2]
            if char == "\\":
                if two == "\\\n":  # a line continuation
                    self.pos += 2
                    continue
                if self.pos + 1 >= len(text):
                    raise Unparsed("a trailing backslash")
                add(text[self.pos + 1])
                self.pos += 2
            elif char == "'":
                end = text.find("'", self.pos + 1)
                if end < 0:
                    raise Unparsed("an unterminated single quote")
                add(text[self.pos + 1 : end])
                self.pos = end + 1
            elif char == '"':
                add(self._double_quoted())
            elif char == "`":
                self._backticks()
                add(_SUBSTITUTED)
            elif two in ("$'", '$"'):
                raise Unparsed("ANSI-C or locale quoting ($'...', $\"...\")")
            elif char == "$" and two == "$(":
                self._dollar_paren()
                add(_SUBSTITUTED)
            elif char in " \t":
                end_word()
                self.pos += 1
            elif char == "#" and word is None:
                newline = text.find("\n", self.pos)
                self.pos = len(text) if newline < 0 else newline
            elif char in "<>" or two == "&>":
                if word is not None and "".join(word).isdigit():
                    word = None  # a file descriptor number: 2>&1
                end_word()
                if self._redirection():
                    redirect_target = True
                else:
                    add(_SUBSTITUTED)  # <(...) stands as a word: its path
            elif char in ";&|\n":
                if two == ";;":
                    raise Unparsed("case clauses")
                end_command()
                self.pos += 2 if two in ("&&", "||", "|&") else 1
            elif char == "(":
                if word is not None:
                    raise Unparsed("a function definition or an array")
                end_command()
                depth += 1
                if self.depth + depth > MAX_DEPTH:
                    raise Unparsed(f"nested more than {MAX_DEPTH} levels deep")
                self.pos += 1
            elif char == ")":
                end_command()
                self.pos += 1
                if depth:
                    depth -= 1
                elif closing == ")":
                    self.depth -= 1
                    return
                else:
                    raise Unparsed("an unmatched )")
            else:
                add(char)
                self.pos += 1
        end_command()
        if closing is not None or depth:
            raise Unparsed("an unterminated ( or $(")
        self.depth -= 1

    def _add(self, words: list[str]) -> None:
        while words and (words[0] in _PREFIX_KEYWORDS or _ASSIGNMENT.match(words[0])):
            words = words[1:]
        if not words or words[0] in _HEADER_KEYWORDS:
            return
        if words[0] in _UNMODELLED_KEYWORDS:
            raise Unparsed(f"{words[0]!r} is not modelled")
        self.commands.append([w.replace(_SUBSTITUTED, "$") for w in words])

    # quoting and substitution ---------------------------------------------------------
    def _double_quoted(self) -> str:
        """Scan ``"..."`` from its opening quote; substitutions inside are commands too."""
        text = self.text
        self.pos += 1
        parts: list[str] = []
        while self.pos < len(text):
            char = text[self.pos]
            if char == '"':
                self.pos += 1
                return "".join(parts)
            if char == "\\" and self.pos + 1 < len(text):
                following = text[self.pos + 1]
                parts.append(following if following in '$`"\\\n' else "\\" + following)
                self.pos += 2
            elif char == "`":
                self._backticks()
                parts.append(_SUBSTITUTED)
            elif text.startswith("$(", self.pos):
                self._dollar_paren()
                parts.append(_SUBSTITUTED)
            else:
                parts.append(char)
                self.pos += 1
        raise Unparsed("an unterminated double quote")

    def _dollar_paren(self) -> None:
        """``$(( arithmetic ))`` is skipped; ``$( commands )`` (``$((rm x); ls)`` among
        them) is scanned as commands. Arithmetic that holds a substitution is refused."""
        text = self.text
        if text.startswith("$((", self.pos):
            end = _matching_parens(text, self.pos + 1)
            if _matching_parens(text, self.pos + 2) == end - 1:  # $(( ... )): arithmetic
                body = text[self.pos + 3 : end - 1]
                if "$(" in body or "`" in body:
                    raise Unparsed("a command substitution inside arithmetic")
                self.pos = end + 1
                return
        self.pos += 2
        self.sequence(closing=")")

    def _backticks(self) -> None:
        text = self.text
        end = self.pos + 1
        while end < len(text) and text[end] != "`":
            end += 2 if text[end] == "\\" else 1
        if end >= len(text):
            raise Unparsed("an unterminated backtick")
        inner = _Scanner(re.sub(r"\\([$`\\])", r"\1", text[self.pos + 1 : end]), self.depth)
        inner.sequence(closing=None)
        self.commands.extend(inner.commands)
        self.pos = end + 1

    def _redirection(self) -> bool:
        """Consume a redirection operator (True), or scan a process substitution
        ``<( )``/``>( )``, which is a word, not a redirection (False)."""
        text = self.text
        if text.startswith(("<(", ">("), self.pos):
            self.pos += 2
            self.sequence(closing=")")
            return False
        if text.startswith("<<", self.pos) and not text.startswith("<<<", self.pos):
            raise Unparsed("here-documents")
        operator = re.compile(r"&>>?|<<<|>>|<>|>\||[<>]&?")
        match = operator.match(text, self.pos)
        assert match is not None  # the caller saw < or > or &>
        self.pos = match.end()
        return True


def _matching_parens(text: str, start: int) -> int:
    """Index of the ``)`` that closes the ``(`` at ``start`` (parentheses nest)."""
    depth = 0
    for index in range(start, len(text)):
        if text[index] == "(":
            depth += 1
        elif text[index] == ")":
            depth -= 1
            if depth == 0:
                return index
    raise Unparsed("an unterminated $((")
