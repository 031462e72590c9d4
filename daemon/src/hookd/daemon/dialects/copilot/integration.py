"""How GitHub Copilot CLI reaches hookd: ``hookd adopt --agent copilot``, its relay entries.

    hookd adopt --agent copilot --scope user      # ~/.copilot/hooks/ ($COPILOT_HOME/hooks/)
    hookd adopt --agent copilot --scope project   # <project>/.github/hooks/

``adopt`` moves the command handlers of every hook file of the scope's folder into the
same file under the hookd-owned folder (``dialect.adopted_folder``: read with Copilot's
rules at the same place), and puts one relay entry per event key in their place:
``<this installation's hookd-relay> copilot <the file> <the key>``. Copilot runs every
file's entries (it never merges identical ones, ``copilot-research.md §1.1``), so each
entry names its own file and runs only the hooks adopted from it; and a camelCase payload
does not name its event, so the entry names it. Hooks hookd cannot run for the agent stay
where they are, and the plan says why: ``http`` and ``prompt`` handlers. The ``hooks`` of
the settings files stay with Copilot too (move them to a hook file to hand them over).

The portable hooks' events (``PlanOptions.portable``) ride on the same entries: each event
the portable file of the scope uses joins the first file's entry for it in Copilot's order
(its matcher widened to the portable hooks' tools, its timeout to theirs), where the
portable hooks run (``portable.runs_portable``); an event no adopted file relays gets its
entry in ``hookd-portable.json`` of the folder, which holds only relay entries and goes
with them.

A project's relay entries run only where Copilot trusts the folder (``trustedFolders`` of
``~/.copilot/config.json``, ``--trust-folder``; ``copilot-research.md §1.2``); the hooks
they stand for run once ``hookd allow`` trusts the project.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from typing import Any

from hookd.protocol import FireResult

from ...edits import Plan, Remove, not_relayed, nothing_adopted, read_settings
from ...errors import UserError
from ...model import Dialect, FireRequest
from ..claude import rules as claude_rules
from ..codex import integration as codex_integration
from ..integration import AdoptAction, HttpEntry, PlanOptions, RelayAnswer, RelayCall, RelayFacts
from ..matcher_union import BACKREFERENCE, distinct
from ..portable_needs import Needs, PortableNeed
from ..relay_entries import RELAY_COMMAND, shell_word
from . import config
from .dialect import adopted_folder, errored
from .events import (
    AGENT_EVENT,
    AGENT_NAME_MATCHED,
    DEFAULT_TIMEOUT_S,
    PASCAL,
    TOOL_MATCHED,
    WARNS_ON_EXIT2,
)

DIALECT = Dialect.COPILOT
ADOPT_SCOPES: Mapping[str, str] = {
    "user": "~/.copilot/hooks/ ($COPILOT_HOME/hooks/)",
    "project": "<project>/.github/hooks/",
}
RELAY = RelayFacts(entry_args=2, event_key="", event_arg=1)
"""An entry names its own file and its event key (``hookd-relay copilot FILE KEY``)."""
HTTP_ENTRY: HttpEntry | None = None
RELAY_ARGUMENT = "copilot"
SETTINGS_STAY = (
    "the hooks of Copilot's settings files (settings.json, .claude/settings*.json) "
    "stay with Copilot: move them to a hook file to hand them over"
)
RELAY_MARGIN_S = 10
"""How much longer the relay entry may run than the hooks it relays, one after another."""
PORTABLE_FILE = "hookd-portable.json"
"""The hook file (in the scope's folder) of the relay entries for the portable hooks'
events that no adopted file relays."""


def relay_answer(request: FireRequest, result: FireResult) -> RelayAnswer:
    """One Copilot hook's answer: the combined answer as JSON on stdout, exit 0; a
    warning for the user (a hook's exit-2 stderr) as exit 2 with it on stderr (Copilot
    still reads stdout there); a block that came from a hook's failure as exit 1 (Copilot
    fails the same way, naming the relay entry's file, which is the hook's own)."""
    native = result["native"]
    stdout = json.dumps(native, ensure_ascii=False) if native else ""
    if errored(result):
        return RelayAnswer("", (result["reason"] or "hook failed") + "\n", 1)
    warning = result["systemMessage"]
    if warning and AGENT_EVENT[request.event] in WARNS_ON_EXIT2:
        return RelayAnswer(stdout, warning + "\n", 2)
    return RelayAnswer(stdout, "", 0)


def failing_answer(message: str, block: bool) -> RelayAnswer:
    """Blocking: exit 2 with a deny in Copilot's words on stdout (a tool call is denied
    with the line as its reason, a permission request too; elsewhere the line is shown
    as a warning and nothing is blocked: a blocked stop would make the agent go on).
    Letting the action go on: exit 0 and no answer (the line on stderr is in Copilot's
    debug log only: exit 1 would deny a tool call)."""
    if block:
        deny = {"permissionDecision": "deny", "permissionDecisionReason": message,
                "behavior": "deny", "message": message}  # fmt: skip
        return RelayAnswer(json.dumps(deny), message + "\n", 2)
    return RelayAnswer("", message + "\n", 0)


def relay_entry(call: RelayCall) -> str | None:
    """``hookd-relay copilot <file> <key>``: the file the entry stands for."""
    return os.path.normpath(os.path.join(call.cwd, call.args[0])) if call.args else None


def relay_roots(call: RelayCall) -> tuple[str, ...]:
    """The project's root: ``COPILOT_PROJECT_DIR`` (Copilot gives it to every hook), else
    the git root of the event's ``cwd`` as Codex finds it (the same rule)."""
    given = call.env.get("COPILOT_PROJECT_DIR", "")
    if os.path.isabs(given):
        return (os.path.normpath(given),)
    return codex_integration.relay_roots(call)


# -- adopt ------------------------------------------------------------------------------


def plan(action: AdoptAction, home: str, scope: str, project: str, options: PlanOptions) -> Plan:
    if scope == "user":
        folder, owned = os.path.join(_user_folder(home, options.environ), "hooks"), (
            adopted_folder(home, None))  # fmt: skip
    else:
        folder, owned = os.path.join(project, ".github", "hooks"), adopted_folder(home, project)
    return _ACTIONS[action](folder, owned, options.relay, by_event(options.portable))


def by_event(needs: Needs) -> dict[str, PortableNeed]:
    """The portable needs per agent event (camelCase): either spelling's key carries it."""
    found: dict[str, PortableNeed] = {}
    for key, need in needs.items():
        event = AGENT_EVENT[key]
        had = found.get(event)
        if had is not None:
            tools = None if had.tools is None or need.tools is None else had.tools | need.tools
            need = PortableNeed(tools, max(had.timeout_s, need.timeout_s))
        found[event] = need
    return found


def _user_folder(home: str, environ: Mapping[str, str]) -> str:
    moved = environ.get("COPILOT_HOME", "").strip()
    return moved if os.path.isabs(moved) else os.path.join(home, ".copilot")


def _read(path: str) -> tuple[dict[str, Any], str | None]:
    data, text = read_settings(path, bom=True)
    if not isinstance(data.get("hooks", {}), dict):
        raise UserError(f'{path}: not a Copilot hook file (an object whose "hooks" is an '
                        "object); fix it first")  # fmt: skip
    return data, text


def _dump(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _hooks(data: dict[str, Any]) -> dict[str, list[Any]]:
    hooks = data.get("hooks", {})
    return {k: v for k, v in hooks.items() if isinstance(v, list)}


def _why_not(handler: Any) -> str | None:
    """Why hookd cannot run this handler for the agent (None: it can; "": it is hookd's
    own relay entry)."""
    if not isinstance(handler, dict):
        return "not a handler object"
    kind = handler.get("type", "command")
    command = " ".join(str(handler.get(k, "")) for k in ("bash", "command", "powershell", "exec"))
    if kind == "command" and RELAY_COMMAND.search(command):
        return ""
    if kind != "command":
        return f"a {kind!r} handler: hookd runs command handlers only for Copilot"
    return None


def _split(item: Any) -> tuple[Any, Any]:
    """What of an item (a handler or a group) stays with the agent and what hookd takes
    (None: nothing), and why what stays stays."""
    if isinstance(item, dict) and isinstance(item.get("hooks"), list):
        stay = [h for h in item["hooks"] if _why_not(h) is not None]
        take = [h for h in item["hooks"] if _why_not(h) is None]
        return ({**item, "hooks": stay} if stay else None), (
            {**item, "hooks": take} if take else None
        )
    return (None, item) if _why_not(item) is None else (item, None)


def _reasons(item: Any) -> list[str]:
    handlers = (
        item["hooks"] if isinstance(item, dict) and isinstance(item.get("hooks"), list) else [item]
    )
    return [why for h in handlers if (why := _why_not(h))]


def _timeout(item: Any) -> float:
    handlers = (
        item["hooks"] if isinstance(item, dict) and isinstance(item.get("hooks"), list) else [item]
    )
    total = 0.0
    for handler in handlers:
        value = (
            handler.get("timeoutSec", handler.get("timeout")) if isinstance(handler, dict) else None
        )
        total += (
            value
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0
            else DEFAULT_TIMEOUT_S
        )
    return total


def _entry(relay: str, agent_file: str, key: str, timeout: float) -> dict[str, Any]:
    command = f"{shell_word(relay)} {RELAY_ARGUMENT} {shell_word(agent_file)} {key}"
    return {"type": "command", "bash": command, "timeoutSec": int(timeout) + RELAY_MARGIN_S}


def _without_relay(hooks: dict[str, list[Any]]) -> dict[str, list[Any]]:
    kept: dict[str, list[Any]] = {}
    for key, items in hooks.items():
        left = []
        for item in items:
            if isinstance(item, dict) and isinstance(item.get("hooks"), list):
                inner = [h for h in item["hooks"] if _why_not(h) != ""]
                if inner:
                    left.append({**item, "hooks": inner})
            elif _why_not(item) != "":
                left.append(item)
        if left or key not in AGENT_EVENT:
            kept[key] = left
    return kept


def _mirror(path: str, folder: str, owned: str) -> str:
    return os.path.join(owned, os.path.relpath(path, folder))


def _adopt(folder: str, owned: str, relay: str, needs: dict[str, PortableNeed]) -> Plan:
    """Move every file's command handlers into its hookd-owned twin; relay their keys
    and the portable hooks' events."""
    plan = Plan()
    moved = 0
    needs = dict(needs)
    files = [path for path in config.folder_files(folder) if not _is_portable_file(path, folder)]
    if not files:
        plan.notes.append(f"no hook files to hand over in {folder}")
    for path in files:
        agent, agent_text = _read(path)
        owned_file = _mirror(path, folder, owned)
        owned_data, owned_text = _read(owned_file)
        kept: dict[str, list[Any]] = {}
        owned_hooks = owned_data.setdefault("hooks", {})
        for key, items in _hooks(agent).items():
            for item in items:
                stay, take = _split(item)
                if key in AGENT_EVENT and take is not None:
                    owned_hooks.setdefault(key, []).append(take)
                    moved += (
                        len(take["hooks"])
                        if "hooks" in take
                        and isinstance(take, dict)
                        and isinstance(take.get("hooks"), list)
                        else 1
                    )
                elif take is not None:
                    stay = item
                if stay is not None:
                    kept.setdefault(key, []).append(stay)
                    plan.notes += [
                        f"{path}: {key}: {why}; it stays with Copilot" for why in _reasons(stay)
                    ]
        if "version" in agent:
            owned_data.setdefault("version", agent["version"])
        agent["hooks"] = _without_relay(kept)
        _add_entries(agent, path, owned_data, relay, needs)
        if owned_hooks:
            plan.writes[owned_file] = (owned_text, _dump(owned_data))
        plan.writes[path] = (agent_text, _dump(agent))
    plan.notes.insert(0, f"{moved} hook(s) handed to hookd from {folder} (now in {owned})")
    if os.sep + ".hookd" + os.sep in owned:
        project = owned.split(os.sep + ".hookd" + os.sep)[0]
        plan.notes.append(f"the project's hooks now live in {project}{os.sep}.hookd: run 'hookd "
                          f"allow {project}' so that hookd runs them")  # fmt: skip
    plan.notes.append(SETTINGS_STAY)
    _portable_file(folder, relay, needs, plan)
    return plan


def _add_entries(agent: dict[str, Any], path: str, owned: dict[str, Any], relay: str,
                 needs: dict[str, PortableNeed]) -> None:  # fmt: skip
    """One relay entry per key of the file's adopted hooks; the first key of an event
    still in ``needs`` (camelCase before PascalCase, as Copilot runs them) carries the
    portable hooks too, and the event leaves ``needs``."""
    hooks = agent.setdefault("hooks", {})
    adopted = {key: items for key, items in _hooks(owned).items() if key in AGENT_EVENT and items}
    for key in sorted(adopted, key=lambda k: k in PASCAL):
        items = adopted[key]
        timeout = sum(_timeout(item) for item in items)
        matchers = [i.get("matcher") if isinstance(i, dict) else None for i in items]
        need = needs.pop(AGENT_EVENT[key], None)
        if need is not None:
            timeout += need.timeout_s
            matchers.append(_tools_matcher(key, need))
        entry = _entry(relay, path, key, timeout)
        matcher = union_matcher(key, matchers)
        if matcher is not None:
            entry["matcher"] = matcher
        hooks.setdefault(key, []).append(entry)


def _tools_matcher(key: str, need: PortableNeed) -> str | None:
    """A matcher of ``key`` for the portable hooks' tools (None: every tool): exact names,
    escaped where the key reads a regular expression."""
    if need.tools is None:
        return None
    names = sorted(need.tools)
    return "|".join(names if key in PASCAL else [re.escape(name) for name in names])


def _is_portable_file(path: str, folder: str) -> bool:
    return os.path.normpath(path) == os.path.join(os.path.normpath(folder), PORTABLE_FILE)


def _portable_file(folder: str, relay: str, needs: dict[str, PortableNeed], plan: Plan) -> None:
    """The relay entries of the portable hooks' events no adopted file relays, in the
    folder's ``hookd-portable.json`` (written, rewritten, or removed when none is left)."""
    path = os.path.join(folder, PORTABLE_FILE)
    data, text = _read(path)
    hooks = _without_relay(_hooks(data))
    for event, need in needs.items():
        entry = _entry(relay, path, event, need.timeout_s)
        matcher = union_matcher(event, [_tools_matcher(event, need)])
        if matcher is not None:
            entry["matcher"] = matcher
        hooks.setdefault(event, []).append(entry)
    if needs:
        plan.notes.append(f"relaying the portable hooks' {', '.join(needs)} through {path}")
    if any(hooks.values()) or (text is not None and not _only_relay(data)):
        data["hooks"] = hooks
        data.setdefault("version", 1)
        plan.writes[path] = (text, _dump(data))
    elif text is not None:
        plan.steps.append(Remove(path))


def _only_relay(data: dict[str, Any]) -> bool:
    """A hook file with nothing but relay entries (and ``version``): hookd's own."""
    return set(data) <= {"version", "hooks"} and not any(_without_relay(_hooks(data)).values())


def union_matcher(key: str, matchers: list[Any]) -> str | None:
    """A relay entry's matcher for the items adopted under ``key`` (``dialect.matches``,
    ``copilot-research.md §3.4``; None: no matcher). A camelCase key tests
    ``^(?:matcher)$``, so the matchers joined by ``|`` match exactly what they match
    (one that is invalid, which Copilot skips with its hook, adds nothing). A PascalCase
    tool key reads Claude's matchers and the runtime name's ``|`` tokens: lists of exact
    names join into one list; with an expression among them, no matcher. Other keys
    ignore matchers (or are not known to read them)."""
    event = AGENT_EVENT.get(key)
    if event not in TOOL_MATCHED | AGENT_NAME_MATCHED:
        return None
    if key in PASCAL and key != "PermissionRequest" and event in TOOL_MATCHED:
        found = distinct(matchers, ("*",))
        if found is None or len(found) == 1:
            return found[0] if found else None
        union = claude_rules.union_matcher("PreToolUse", found)
        return union if union is not None and "(?:" not in union else None
    found = distinct(matchers, (".*",))
    usable = [m for m in found or () if m not in ("", "*") and config.anchored(m) is not None]
    if found is None or not usable or any(BACKREFERENCE.search(m) for m in usable):
        return None
    return "|".join(usable)


def _owned_files(folder: str, owned: str) -> list[tuple[str, str]]:
    """Each hookd-owned file and its agent file."""
    return [(file, os.path.join(folder, os.path.relpath(file, owned)))
            for file in config.folder_files(owned)]  # fmt: skip


def _unadopt(folder: str, owned: str, relay: str, needs: dict[str, PortableNeed]) -> Plan:
    plan = Plan()
    returned = 0
    for owned_file, path in _owned_files(owned=owned, folder=folder):
        agent, agent_text = _read(path)
        owned_data, _ = _read(owned_file)
        hooks = _without_relay(_hooks(agent))
        for key, items in _hooks(owned_data).items():
            hooks.setdefault(key, []).extend(items)
            returned += len(items)
        agent["hooks"] = hooks
        agent.setdefault("version", owned_data.get("version", 1))
        plan.writes[path] = (agent_text, _dump(agent))
        for extra in (".hookd.bak", ".hookd.orig", ""):
            if os.path.lexists(owned_file + extra):
                plan.steps.append(Remove(owned_file + extra, tidy_up_to=os.path.dirname(owned)))
    plan.notes.append(f"{returned} hook(s) given back to {folder}")
    _portable_file(folder, relay, {}, plan)
    return plan


def _install(folder: str, owned: str, relay: str, needs: dict[str, PortableNeed]) -> Plan:
    pairs = [(o, p) for o, p in _owned_files(folder, owned) if not _is_portable_file(p, folder)]
    if not pairs and not needs:
        raise UserError(nothing_adopted(owned))
    needs = dict(needs)
    plan = Plan(notes=[f"relaying the hooks adopted in {owned}"] if pairs else [])
    for owned_file, path in pairs:
        agent, agent_text = _read(path)
        owned_data, _ = _read(owned_file)
        agent["hooks"] = _without_relay(_hooks(agent))
        agent.setdefault("version", 1)
        _add_entries(agent, path, owned_data, relay, needs)
        plan.writes[path] = (agent_text, _dump(agent))
    _portable_file(folder, relay, needs, plan)
    return plan


def _uninstall(folder: str, owned: str, relay: str, needs: dict[str, PortableNeed]) -> Plan:
    plan = Plan()
    for path in config.folder_files(folder):
        if _is_portable_file(path, folder):
            _portable_file(folder, relay, {}, plan)
            continue
        agent, agent_text = _read(path)
        hooks = _without_relay(_hooks(agent))
        if hooks != _hooks(agent):
            agent["hooks"] = hooks
            plan.writes[path] = (agent_text, _dump(agent))
    if _owned_files(folder, owned):
        plan.notes.append(not_relayed(owned))
    return plan


_ACTIONS: dict[AdoptAction, Callable[[str, str, str, dict[str, PortableNeed]], Plan]] = {
    "adopt": _adopt, "unadopt": _unadopt, "install": _install, "uninstall": _uninstall,
}  # fmt: skip
"""Each action's plan from (the agent's hook folder, the hookd-owned folder, the relay,
the portable hooks' needs per agent event)."""
