"""``hookd adopt`` and ``hookd relay`` for every agent in the table (issue 22): each either
works or exits 1 with a message saying what to do, never 3 ("a bug"); the choices and
scopes the CLI offers are the table's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from hookd.daemon.all_dialects import ADOPTABLE, INTEGRATIONS
from hookd.daemon.cli import relay_commands
from hookd.daemon.dialects import integration as contract
from hookd.daemon.errors import UserError
from hookd.daemon.model import Dialect
from hookd.protocol import AGENTS

HOOKD = [sys.executable, "-m", "hookd"]
COMMANDS = [("adopt",), ("unadopt",), ("relay", "install"), ("relay", "uninstall")]


def hookd(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("scope", ["user", "project", "local"])
def test_every_agent_and_scope_works_or_says_why(tmp_path, agent, command, scope) -> None:
    """Nothing to hand over in an empty home: adopt and unadopt say so (exit 0), install
    says nothing is adopted yet; a scope the agent does not have names the ones it has."""
    home, project = tmp_path / "adopt-home", tmp_path / "adopt-project"
    home.mkdir()
    project.mkdir()

    done = hookd(*command, "--agent", agent, "--scope", scope, "--home", str(home),
                 "--project", str(project), "--dry-run")  # fmt: skip

    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr
    scopes = INTEGRATIONS[Dialect(agent)].ADOPT_SCOPES
    if scope not in scopes:
        assert done.returncode == 1
        assert f"--scope {scope} is not a {agent} scope: use " in done.stderr
        assert all(name in done.stderr for name in scopes)
    elif command == ("relay", "install"):
        assert done.returncode == 1
        assert "nothing is adopted" in done.stderr
    else:
        assert done.returncode == 0, done.stderr


def test_an_agent_that_cannot_be_adopted_is_refused_naming_those_that_can(monkeypatch) -> None:
    """An agent whose package says ``ADOPT_SCOPES = {}``: a user error (exit 1), never a
    KeyError reported as a bug (exit 3). Stood in for by a module of the contract's own
    defaults, since every agent hookd speaks today can be adopted."""
    stand_in = ModuleType("stand_in")
    stand_in.ADOPT_SCOPES = contract.NO_SCOPES  # type: ignore[attr-defined]
    stand_in.plan = contract.cannot_plan  # type: ignore[attr-defined]
    monkeypatch.setitem(relay_commands.INTEGRATIONS, Dialect.AUGMENT, stand_in)  # type: ignore[arg-type]

    with pytest.raises(UserError) as refused:
        relay_commands._adoptable("augment", "adopt", "user")

    said = str(refused.value)
    assert said.startswith("hookd cannot adopt augment's hooks yet")
    assert f"Agents whose hooks can be handed to hookd: {', '.join(ADOPTABLE)}" in said


def test_help_names_each_agents_scopes_as_the_table_has_them() -> None:
    """The parser does not load the agents' packages (``hookd status`` starts fast), so its
    scope list is written out: it must be the table's."""
    from hookd.daemon.cli import main

    assert relay_commands.scopes_help(INTEGRATIONS) == main.SCOPES_HELP
    every = {scope for i in INTEGRATIONS.values() for scope in i.ADOPT_SCOPES}
    assert set(main.ADOPT_SCOPES) == every


def test_the_relay_entry_path_is_absolute(tmp_path: Path) -> None:
    """Regression guard for the plan's relay: ``relay_program.relay_path`` is handed to
    every agent's plan, never looked up inside a dialect."""
    from hookd.daemon.cli.relay_program import relay_path

    assert Path(relay_path()).is_absolute()
