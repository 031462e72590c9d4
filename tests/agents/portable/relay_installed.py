"""The matrix's relay install for one agent, as a user runs it: the matrix's portable
hooks file written into the case's home, then the real ``hookd relay install --agent
AGENT`` (user scope: the entries the user's portable hooks file needs), asserted to
succeed and to write the relay entries for them. (The Cline runners' and auggie's
matrix modules share it; ``matrix.py`` is another engineer's and stays as it is.)"""

from __future__ import annotations

from pathlib import Path

from agents.harness.cline_cases import make_places
from agents.portable.matrix import Portable, relay_install, write_portable_hooks


async def cline_case(agent: str, root: Path) -> tuple[dict[str, Path], Portable]:
    """A Cline runner's case folders (its suite's ``make_places``), the portable hooks
    installed for ``agent`` in its home."""
    places = make_places(root)
    return places, await installed(agent, places["home"], places["ws"])


async def installed(agent: str, home: Path, ws: Path) -> Portable:
    """The portable hooks written into ``home`` and the agent's relay installed for them."""
    portable = write_portable_hooks(home)
    said = await relay_install(agent, home, "--project", str(ws))
    assert "wrote " in said, said
    assert "portable hooks" in said, said
    return portable
