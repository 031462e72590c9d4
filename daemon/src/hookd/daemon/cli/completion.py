"""``hookd completion bash|zsh|fish``: a completion script made from the parser itself,
so it never lists a command or option the command line does not have.

The parser is walked once into a table (command -> its options, each option's fixed
choices); each shell gets that table in its own form: a bash function (zsh loads it
through ``bashcompinit``), and fish ``complete`` lines.
"""

from __future__ import annotations

import argparse
import shlex
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Command:
    name: str
    help: str
    options: tuple[str, ...]
    choices: dict[str, tuple[str, ...]]
    """Option -> its fixed values (``--agent``: the agents)."""
    positional_choices: tuple[str, ...] = ()
    """Fixed values of its first positional argument (``relay``'s actions)."""


def commands_of(parser: argparse.ArgumentParser) -> list[Command]:
    """Every subcommand with its options and fixed choices, in the parser's order."""
    found: list[Command] = []
    for action in parser._actions:  # argparse keeps its subparsers here and nowhere public
        if not isinstance(action, argparse._SubParsersAction):
            continue
        helps = {a.dest: a.help or "" for a in action._choices_actions}
        for name, sub in action.choices.items():
            options: list[str] = []
            choices: dict[str, tuple[str, ...]] = {}
            positional: tuple[str, ...] = ()
            actions = list(sub._actions)
            for option in actions:
                if isinstance(option, argparse._SubParsersAction):
                    positional = tuple(option.choices)  # relay install|uninstall: their
                    for nested in option.choices.values():  # options are offered too
                        actions += [a for a in nested._actions if a.option_strings]
                    continue
                for flag in option.option_strings:
                    if flag in options:
                        continue
                    options.append(flag)
                    if option.choices is not None:
                        choices[flag] = tuple(str(c) for c in option.choices)
            found.append(Command(name, helps.get(name, ""), tuple(options), choices, positional))
    return found


def script(shell: str, parser: argparse.ArgumentParser) -> str:
    commands = commands_of(parser)
    if shell == "fish":
        return _fish(commands)
    bash = _bash(commands)
    if shell == "zsh":
        return "autoload -U +X bashcompinit && bashcompinit\n" + bash
    return bash


def _bash(commands: list[Command]) -> str:
    names = " ".join(c.name for c in commands)
    cases: list[str] = []
    for command in commands:
        lines = [f"    {command.name})"]
        for flag, values in command.choices.items():
            lines.append(f'      if [ "$prev" = {shlex.quote(flag)} ]; then '
                         f'COMPREPLY=($(compgen -W {shlex.quote(" ".join(values))} -- "$cur")); '
                         "return; fi")  # fmt: skip
        words = " ".join([*command.positional_choices, *command.options])
        lines.append(f'      COMPREPLY=($(compgen -W {shlex.quote(words)} -- "$cur")); return;;')
        cases.append("\n".join(lines))
    body = "\n".join(cases)
    return f"""# hookd completion for bash; install: hookd completion bash >
#   ~/.local/share/bash-completion/completions/hookd
_hookd() {{
  local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}" command="" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "${{COMP_WORDS[i]}}" in
      --socket) ((i++));;
      -*) ;;
      *) command="${{COMP_WORDS[i]}}"; break;;
    esac
  done
  if [ -z "$command" ]; then
    COMPREPLY=($(compgen -W {shlex.quote(names + " --socket --version --help")} -- "$cur"))
    return
  fi
  case "$command" in
{body}
  esac
}}
complete -o default -F _hookd hookd
"""


def _fish(commands: list[Command]) -> str:
    names = " ".join(c.name for c in commands)
    lines = ["# hookd completion for fish (hookd completion fish > "
             "~/.config/fish/completions/hookd.fish)",
             "complete -c hookd -f",
             "complete -c hookd -l socket -r -d 'the daemon socket'",
             "complete -c hookd -l version -d 'print the version'"]  # fmt: skip
    for command in commands:
        lines.append(f"complete -c hookd -n 'not __fish_seen_subcommand_from {names}' "
                     f"-a {command.name} -d {shlex.quote(command.help)}")  # fmt: skip
        seen = f"-n '__fish_seen_subcommand_from {command.name}'"
        if command.positional_choices:
            values = " ".join(command.positional_choices)
            lines.append(f"complete -c hookd {seen} -a {shlex.quote(values)}")
        for flag in command.options:
            spec = f"-l {flag[2:]}" if flag.startswith("--") else f"-s {flag[1:]}"
            fixed = command.choices.get(flag)
            extra = f" -xa {shlex.quote(' '.join(fixed))}" if fixed else ""
            lines.append(f"complete -c hookd {seen} {spec}{extra}")
    return "\n".join(lines) + "\n"
