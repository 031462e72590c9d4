"""hookd's own relay entries in an agent's hook configuration, and which hooks a relay
fire runs.

``hookd adopt`` moves an agent's hooks into hookd-owned files and folders (``Source``
with ``adopted``) and puts a relay entry in their place: a settings handler that runs
``hookd-relay`` (Claude Code, Augment) or a hook file that execs it (Cline). hookd never
runs a relay entry (it would call itself). A fire from the relay (``relay: true``) runs
only adopted hooks, since the agent runs its own; when it names its entry
(``relayEntry``), only those adopted from where that entry sits.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Sequence

from ..model import Dialect, FireRequest, HookSpec, Source
from ..safe_read import read_head
from ..statcache import StatCache

RELAY_PROGRAM = "hookd-relay"
RELAY_COMMAND = re.compile(r"(?:^|[\s/\"'])hookd-relay(?:[\s\"']|$)")
"""A command line that runs the relay."""
HTTP_ENTRY_PATH = "/hookd-relay"
"""The one path the daemon's http entry serves. It ends in ``hookd-relay``, so the rule
for relay entries (``RELAY_COMMAND``) also keeps hookd from running an http entry as a
hook, which would call itself."""
HTTP_PASSCODE_ENV = "HOOKD_HTTP_PASSCODE"
"""The agent's variable an http entry's header reads (no credential-like word in its
name: Claude Code blanks such variables in its scrubbing mode)."""
RELAY_FILE_MAX = 4096
"""A relay file is a few lines; a larger hook file is never one (and is not read)."""
_RELAY_LINE = re.compile(
    rb"^[ \t]*(?:exec[ \t]+)?(?:[^\s#'\"]*/|'[^'\n]*/|\"[^\"\n]*/)?hookd-relay['\"]?(?:[ \t]|$)",
    re.MULTILINE,
)
"""A relay file's line: ``[exec] [PATH/]hookd-relay ...``, the path bare or quoted (a
path with spaces), as ``hookd adopt`` writes it now or wrote it before (a bare name)."""
_relay_files: StatCache[bool] = StatCache()


def owned_folder(home: str, dialect: str, root: str | None) -> str:
    """Where hookd keeps the hooks adopted from an agent's user-level configuration
    (``~/.config/hookd/<agent>``) or a workspace's (``<root>/.hookd/<agent>``, which
    needs ``hookd allow`` like any workspace hook)."""
    return os.path.join(owned_top(home, root), dialect)


def owned_top(home: str, root: str | None) -> str:
    return os.path.join(home, ".config", "hookd") if root is None else os.path.join(root, ".hookd")


def adopted_folder(home: str, root: str | None, folder: str) -> str:
    """The hookd-owned folder of the files adopted from a Cline hook folder: the same
    path under ``~/.config/hookd/cline`` (from the home) or ``<root>/.hookd/cline`` (from
    the root), e.g. ``<root>/.hookd/cline/.clinerules/hooks``. Both Cline runners read
    ``.clinerules/hooks`` (and may share a global folder), each by its own rules: so
    does hookd, in one adopted folder for each of the agents' folders."""
    base = home if root is None else root
    relative = os.path.relpath(folder, base)
    if relative.startswith(os.pardir):
        relative = folder.lstrip(os.sep)  # a folder outside the home: its whole path
    return os.path.join(owned_folder(home, "cline", root), relative)


def with_adopted(
    dialect: Dialect, home: str, folders: Sequence[tuple[str, str | None, str]]
) -> list[Source]:
    """A Cline runner's hook folders (layer, root, path) in its order, each followed by
    the hookd-owned folder of the hooks adopted from it."""
    found = []
    for layer, root, folder in folders:
        found.append(Source(dialect, layer, folder, "hookdir", root))
        found.append(Source(dialect, layer, adopted_folder(home, root, folder), "hookdir", root,
                            adopted=True, adopted_from=folder))  # fmt: skip
    return found


def shell_word(path: str) -> str:
    """``path`` as one word of a ``sh`` command line (quoted only when it needs it)."""
    return shlex.quote(path)


def is_relay_command(command: str) -> bool:
    return RELAY_COMMAND.search(command) is not None


def is_relay_spec(spec: HookSpec) -> bool:
    """A hook that is hookd's own relay entry (a relay file of a hook folder, or a handler
    running ``hookd-relay`` or posting to the http entry): listed as such, never run,
    never counted as a hook to trust."""
    if spec.dialect in _HOOK_FOLDER_DIALECTS:
        return is_relay_file(spec.source)
    return is_relay_command(spec.command)


_HOOK_FOLDER_DIALECTS = frozenset({Dialect.CLINE, Dialect.CLINE_SDK})


def is_relay_file(path: str) -> bool:
    """A hook file whose lines run ``hookd-relay`` (what ``hookd adopt`` writes): read
    once per change of the file (its stat signature), never when it is large."""
    return _relay_files.get(path, lambda: _reads_as_relay(path)) is True


def _reads_as_relay(path: str) -> bool:
    head = read_head(path, RELAY_FILE_MAX + 1)
    return len(head) <= RELAY_FILE_MAX and _RELAY_LINE.search(head) is not None


def runs_in(source: Source, request: FireRequest) -> bool:
    """Whether this fire runs the hooks of ``source``: a direct fire every source's, a
    relay fire only adopted sources' (of the entry it names, when it names one)."""
    if not request.relay:
        return True
    if not source.adopted:
        return False
    return request.relay_entry is None or same_place(source.adopted_from, request.relay_entry)


def same_place(path: str | None, other: str) -> bool:
    return path is not None and os.path.normpath(path) == os.path.normpath(other)
