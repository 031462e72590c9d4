"""``hookd adopt`` and the relay files of the hook-folder agents, Cline's original runner
(``cline``) and the Cline SDK (``cline-sdk``): a helper both agents' ``integration``
modules use, since both read the same folders and one relay file serves both.

Such an agent runs every hook file it finds in its folders, one folder after another (the
global and user folders, each workspace's). ``adopt`` moves a folder's files (its hooks
and whatever they keep beside them) into a hookd-owned folder read the same way at the
same layer (``relay_entries.adopted_folder``, the dialects' ``sources``), and writes one
relay file per event in their place, which runs ``hookd-relay AGENT "$0"``: the agent
runs the relay once per folder, and the relay's fire runs that folder's adopted hooks
only, so every hook runs exactly once and the folders keep their order. Folders inside a
hook folder stay.

Both runners read ``<root>/.clinerules/hooks`` (and may share the global folder), each by
its own rules; the relay file serves both (``hookd-relay`` tells them apart by their
events), so a folder's hooks and relay files are those either runner finds: a file named
exactly like the event where the original runner had a hook (it runs only that name),
else ``<Event>.sh``.

The portable hooks (``PlanOptions.portable``) run on a relay fire only from the global
``Cline/Hooks`` folder's relay file (``cline.portable.runs_portable``: every folder's
relay file runs once per event, the portable hooks must run once): ``install`` and
``adopt`` write a relay file there for each event they use, at a project's scope too
(the project's portable hooks run from there as well). It is named exactly like the
event, which both runners run (one file serves both where their global folders are the
same, told apart by the event's ``hookName``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Mapping

from ..edits import Place, Plan, Remove, Step, WriteFile, not_relayed, nothing_adopted
from ..errors import UserError
from ..model import Source
from . import relay_entries
from .base import DialectModule
from .cline import dialect as cline
from .cline_sdk import dialect as cline_sdk
from .integration import AdoptAction, PlanOptions
from .portable_needs import Needs

SCOPES: Mapping[str, str] = {
    "user": "the global hook folders",
    "project": "the project's hook folders",
}
UserFolder = Callable[[Mapping[str, str]], str | None]
"""The agent's user-level hook folder as the caller's environment moves it (the Cline
SDK's ``CLINE_DIR``), or None where it does not move."""
RELAY_FILE = """#!/bin/sh
# hookd relay, written by 'hookd adopt --agent {agent}': hookd runs this event's hooks
# from this folder, kept in {owned}
# ('hookd unadopt --agent {agent}{scope}' gives them back).
exec {relay} {agent} "$0"
"""
"""A relay file; ``{relay}`` is this installation's ``hookd-relay`` by its absolute path
(``PlanOptions.relay``), quoted for ``sh``."""


def relay_file(agent: str, owned: Source, relay: str) -> str:
    """The relay file's text; its undo line names the scope (a project's folder: run in
    the project)."""
    scope = "" if owned.root is None else " --scope project"
    return RELAY_FILE.format(agent=agent, owned=owned.path, scope=scope,
                             relay=relay_entries.shell_word(relay))  # fmt: skip


def plan(
    action: AdoptAction,
    module: DialectModule,
    home: str,
    scope: str,
    project: str,
    options: PlanOptions,
    user_folder: UserFolder,
) -> Plan:
    """The edits of ``action`` (adopt, unadopt, install, uninstall) for every folder of
    ``scope`` (user: the global and user folders; project: the project's), and the
    global folder's relay files for the portable hooks (adopt, install)."""
    agent = module.DIALECT.value
    whole = Plan()
    places = folders(module, home, scope, project, user_folder(options.environ))
    needs = options.portable if action in ("adopt", "install") else {}
    carrier = portable_folder(module, home)
    if action == "install" and not needs and not any(_events(owned) for _f, owned in places):
        raise UserError(nothing_adopted(", ".join(owned.path for _folder, owned in places)))
    for agent_folder, owned in places:
        portable = needs if (agent_folder, owned.path) == (carrier[0], carrier[1].path) else {}
        one = ACTIONS[action](agent, agent_folder, owned, home, options.relay, portable)
        whole.notes += one.notes
        whole.steps += one.steps
    if needs and scope != "user":
        one = carry(agent, carrier[0], carrier[1], options.relay, needs)
        whole.notes += one.notes
        whole.steps += one.steps
    if action == "adopt" and scope == "project" and whole.steps:
        whole.notes.append(f"the project's hooks now live in {project}/.hookd: run 'hookd "
                           f"allow {project}' so that hookd runs them")  # fmt: skip
    return whole


def portable_folder(module: DialectModule, home: str) -> tuple[str, Source]:
    """The runner's global ``Cline/Hooks`` folder and the hookd-owned source beside it:
    the one folder whose relay file runs the portable hooks."""
    for folder, owned in folders(module, home, "user", "/", None):
        if owned.layer == "global":
            return folder, owned
    raise AssertionError(f"{module.DIALECT.value} has no global hook folder")


def carry(agent: str, folder: str, owned: Source, relay: str, needs: Needs) -> Plan:
    """A project's portable hooks: relay files in the global folder for their events
    (added, none removed: the user's own relay files stay)."""
    own_hooks, relays = _hooks(folder, owned)
    notes: list[str] = []
    steps: list[Step] = []
    for event in sorted(needs):
        path = _portable_path(agent, folder, event, own_hooks, relays, notes)
        if path is not None:
            steps.append(WriteFile(path, relay_file(agent, owned, relay)))
    notes.append(f"the project's portable hooks of {', '.join(sorted(needs))} run from the "
                 f"relay files of the global folder {folder} (the agent runs every folder's; "
                 f"only those run them): 'hookd relay uninstall --agent {agent}' removes "
                 "them")  # fmt: skip
    return Plan(notes=notes, steps=_needed(steps))


def folders(
    module: DialectModule, home: str, scope: str, project: str, user_folder: str | None
) -> list[tuple[str, Source]]:
    """(the agent's folder, the hookd-owned source beside it) for every folder of the
    scope; ``user_folder`` (when the environment moves it) in place of the user layer's."""
    found = []
    for source in module.sources(home, "/", [project] if scope == "project" else []):
        if not source.adopted or source.adopted_from is None:
            continue
        if (source.root is None) != (scope == "user"):
            continue
        folder = source.adopted_from
        if source.layer == "user" and user_folder is not None:
            folder = user_folder
        found.append((folder, source))
    return found


def adopt(
    agent: str, folder: str, owned: Source, home: str, relay: str, portable: Collection[str]
) -> Plan:
    """Move the folder's files into hookd's folder; a relay file per event in their place
    (and per ``portable`` event). A hook file is placed in hookd's folder before the relay
    is renamed over it, so the agent never finds neither."""
    own_hooks, relays = _hooks(folder, owned)
    names = [n for n in _files(folder) if os.path.join(folder, n) not in _all(relays)]
    taken = [n for n in names if os.path.lexists(os.path.join(owned.path, n))]
    if taken:
        raise UserError(f"{owned.path} already holds {', '.join(taken)}: hookd would overwrite "
                        f"what it adopted before; move {', '.join(taken)} out of {folder} or "
                        f"out of {owned.path} first")  # fmt: skip
    steps: list[Step] = [Place(os.path.join(folder, n), os.path.join(owned.path, n)) for n in names]
    replaced: set[str] = set()
    adopted = _events(owned) | set(own_hooks)
    for event in sorted(adopted | set(portable)):
        paths = own_hooks.get(event, [])
        if paths:
            target = paths[0]
        elif event in portable:
            target = _exact(agent, folder, event, relays)
        else:
            target = (relays.get(event) or [_relay_name(folder, event, owned)])[0]
        replaced.add(target)
        steps.append(WriteFile(target, relay_file(agent, owned, relay)))
    steps += [Remove(os.path.join(folder, n)) for n in names
              if os.path.join(folder, n) not in replaced]  # fmt: skip
    steps += [Remove(path) for path in _all(relays) if path not in replaced]
    moved = sum(len(paths) for paths in own_hooks.values())
    if moved:
        note = f"{moved} hook file(s) handed to hookd from {folder}"
    elif _events(owned):
        note = f"already adopted: {folder} has no hooks left to hand over; hookd holds them in "
        note += owned.path
    else:
        note = f"no hooks to hand over in {folder}"
    return Plan(notes=[note], steps=_needed(steps))


def unadopt(
    agent: str, folder: str, owned: Source, home: str, relay: str, portable: Collection[str]
) -> Plan:
    """Move hookd's files back into the agent's folder, over the relay files."""
    _own, relays = _hooks(folder, owned)
    names = _files(owned.path)
    clash = [n for n in names if os.path.lexists(os.path.join(folder, n))
             and os.path.join(folder, n) not in _all(relays)]  # fmt: skip
    if clash:
        raise UserError(f"{folder} already has its own {', '.join(clash)}: move it away (or "
                        "'hookd adopt' it) before giving the adopted files back")  # fmt: skip
    back = {os.path.join(folder, n) for n in names}
    steps: list[Step] = [Place(os.path.join(owned.path, n), os.path.join(folder, n)) for n in names]
    steps += [Remove(path) for path in _all(relays) if path not in back]
    top = relay_entries.owned_top(home, owned.root)
    steps += [Remove(os.path.join(owned.path, n), tidy_up_to=top) for n in names]
    note = f"{len(names)} file(s) given back to {folder}" if names else f"none from {folder}"
    return Plan(notes=[note], steps=steps)


def install(
    agent: str, folder: str, owned: Source, home: str, relay: str, portable: Collection[str]
) -> Plan:
    """A relay file for each event hookd holds hooks for or the ``portable`` hooks use,
    none for the others."""
    own_hooks, relays = _hooks(folder, owned)
    steps: list[Step] = []
    notes: list[str] = []
    adopted = _events(owned)
    kept: set[str] = set()
    for event in sorted(set(portable)):
        path = _portable_path(agent, folder, event, own_hooks, relays, notes)
        if path is not None:
            kept.add(path)
            steps.append(WriteFile(path, relay_file(agent, owned, relay)))
    for event in sorted(adopted - set(portable)):
        if event in own_hooks and event not in relays:
            notes.append(f"{event}: {own_hooks[event][0]} is the agent's own hook, so no relay "
                         "file can take its place; 'hookd adopt' hands it over too")  # fmt: skip
            continue
        path = (relays.get(event) or [_relay_name(folder, event, owned)])[0]
        kept.add(path)
        steps.append(WriteFile(path, relay_file(agent, owned, relay)))
    steps += [Remove(path) for path in _all(relays) if path not in kept]
    if adopted or portable:
        notes.append(f"relaying {', '.join(sorted(adopted | set(portable)))} from {folder}"
                     + (" (the portable hooks' too)" if portable else ""))  # fmt: skip
    return Plan(notes=notes, steps=_needed(steps))


def uninstall(
    agent: str, folder: str, owned: Source, home: str, relay: str, portable: Collection[str]
) -> Plan:
    """Remove the relay files (the adopted hooks then do not run until re-installed)."""
    _own, relays = _hooks(folder, owned)
    notes = []
    if _events(owned):
        notes.append(not_relayed(owned.path))
    return Plan(notes=notes, steps=[Remove(path) for path in _all(relays)])


def _hooks(folder: str, owned: Source) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The agents' own hook files in ``folder`` per event, and hookd's relay files there
    per event, as either Cline runner finds them."""
    own: dict[str, list[str]] = {}
    relays: dict[str, list[str]] = {}
    for event, paths in _found(folder, owned).items():
        for path in paths:
            kind = relays if relay_entries.is_relay_file(path) else own
            if path not in kind.get(event, ()):
                kind.setdefault(event, []).append(path)
    return own, relays


def _all(per_event: dict[str, list[str]]) -> list[str]:
    return list(dict.fromkeys(path for paths in per_event.values() for path in paths))


def _found(folder: str, owned: Source) -> dict[str, list[str]]:
    """Event -> the files either runner takes for a hook of it in ``folder``; the
    original runner's (named exactly like the event) first."""
    found: dict[str, list[str]] = {}
    source = Source(owned.dialect, owned.layer, folder, "hookdir", owned.root)
    for module in (cline, cline_sdk):
        for event, specs in module.load(source).hooks.items():
            found.setdefault(event, []).extend(spec.source for spec in specs)
    return found


def _events(owned: Source) -> set[str]:
    return set(_found(owned.path, owned))


def _relay_name(folder: str, event: str, owned: Source) -> str:
    """A file named exactly like the event where the original runner has adopted hooks
    (it runs only that name), else ``<Event>.sh`` (the SDK's)."""
    adopted = Source(owned.dialect, owned.layer, owned.path, "hookdir")
    exact = cline.load_event(adopted, event)
    return os.path.join(folder, event if isinstance(exact, tuple) and exact else f"{event}.sh")


def _portable_path(
    agent: str,
    folder: str,
    event: str,
    own_hooks: dict[str, list[str]],
    relays: dict[str, list[str]],
    notes: list[str],
) -> str | None:
    """Where the portable hooks' relay file of ``event`` goes (``_exact``), or None (with
    a note) where one of the agent's own hooks holds that name."""
    path = _exact(agent, folder, event, relays)
    if os.path.lexists(path) and path not in relays.get(event, ()):
        notes.append(f"{event}: {path} is the agent's own hook, so no relay file for the "
                     "portable hooks can take its place; 'hookd adopt' hands it over "
                     "first")  # fmt: skip
        return None
    return path


def _exact(agent: str, folder: str, event: str, relays: dict[str, list[str]]) -> str:
    """A portable event's relay file: named exactly like the event (both runners run
    that name, so one file serves both in a folder they share); the SDK keeps a relay
    file it already runs for it (``<Event>.sh``)."""
    exact = os.path.join(folder, event)
    if agent == cline_sdk.DIALECT.value and exact not in relays.get(event, ()):
        return (relays.get(event) or [exact])[0]
    return exact


def _files(folder: str) -> list[str]:
    """The files of a folder (symlinks too), not the folders in it."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise UserError(f"cannot read {folder}: {exc.strerror}") from None
    return [e.name for e in entries if e.is_symlink() or e.is_file(follow_symlinks=False)]


def _needed(steps: list[Step]) -> list[Step]:
    """Leave out relay files where there is one already (either runner's) that runs the
    same ``hookd-relay`` (one naming another, or a bare one, is written again)."""
    return [s for s in steps if not (isinstance(s, WriteFile) and _same_relay(s))]


def _same_relay(step: WriteFile) -> bool:
    if not relay_entries.is_relay_file(step.path):
        return False
    wanted = next(line for line in step.text.splitlines() if line.startswith("exec "))
    program = wanted.rsplit(" ", 2)[0]  # "exec <relay>", whichever agent it names
    try:
        with open(step.path, encoding="utf-8") as file:
            return any(line.startswith(program + " ") for line in file.read().splitlines())
    except (OSError, UnicodeDecodeError):
        return False


ACTIONS = {"adopt": adopt, "unadopt": unadopt, "install": install, "uninstall": uninstall}
