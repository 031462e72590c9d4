"""Codex CLI 0.171.0 itself against hookd: each case of ``cases.py`` runs in the real
agent (in a loopback-only network namespace, the model scripted by a fake Responses API,
driven as ``codex app-server`` or ``codex exec``), is held to what Codex was seen to do
(``Does``), and then runs through hookd with the payload the agent gave its hooks: what
the agent did must be what hookd's result says, each hook must get the same stdin bytes,
arguments, variables and working directory, run as often, and hooks that overlapped in
time in the agent overlap under hookd.

Every handler a case declares is trusted the way a person trusts it in Codex's
``/hooks`` review (its ``trusted_hash`` in the user's config.toml, computed here by
Codex's recipe and checked against the hash ``hooks/list`` reports), so Codex runs the
hooks as it runs them for a user, with no ``--dangerously-bypass-hook-trust``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import trio

from agents.codex.cases import CASES, NO_MATCHER, Case, Hook
from agents.harness.ahead import Ahead, jobs, selected_cases, trio_side
from agents.harness.recorded import (
    alive_children,
    first_stdin,
    hook_runs,
    hook_script,
    jsonl,
    most_at_once,
    ran_on_the_event,
    records,
    same_out,
)
from agents.harness.scripted import TAG
from hookd.daemon.app import serve
from hookd.daemon.settings import Settings
from hookd_testing import RpcClient
from hookd_testing.cases import case_params

HARNESS = Path(__file__).parents[1] / "harness"
PORT = 18080
"""The fake model's port: free in every case, each agent run has its own network namespace."""
MODEL = "gpt-5.5"
"""A model of Codex's own catalog: it is offered ``exec_command`` and ``apply_patch``."""
ENV_SEEN = "^(CODEX_|CLAUDE_|PLUGIN_|CASE_)"
"""The variables a hook writes down (Codex adds none of its own but a plugin's)."""
SNAKE = {
    "PreToolUse": "pre_tool_use", "PermissionRequest": "permission_request",
    "PostToolUse": "post_tool_use", "PreCompact": "pre_compact", "PostCompact": "post_compact",
    "SessionStart": "session_start", "SessionEnd": "session_end",
    "UserPromptSubmit": "user_prompt_submit", "SubagentStart": "subagent_start",
    "SubagentStop": "subagent_stop", "Stop": "stop", "PreModelRequest": "pre_model_request",
    "PostModelRequest": "post_model_request", "Interrupt": "interrupt",
}  # fmt: skip
"""Codex's label of each event in hook trust keys and hashes."""
NO_MATCHER_EVENTS = ("UserPromptSubmit", "Stop", "PreModelRequest", "PostModelRequest",
                     "Interrupt")  # fmt: skip
"""Events whose matcher Codex drops (the group always runs)."""
CONTEXT_EVENTS = ("PreToolUse", "PostToolUse", "SessionStart", "UserPromptSubmit",
                  "SubagentStart")  # fmt: skip
"""Events that may answer ``additionalContext`` (``additionalContextLimit`` counts there)."""
SHORT_TIMEOUT_EVENTS = ("SessionEnd", "Interrupt")
"""Events whose hooks default to a 1 s timeout, capped at 3 s."""
BASE_CONFIG = """model = "{model}"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false
{config}
[model_providers.fake]
name = "fake"
base_url = "http://127.0.0.1:{port}/v1"
wire_api = "responses"
env_key = "FAKE_KEY"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[feedback]
enabled = false
"""
"""The user's config.toml: the fake model, no approvals, no sandbox, no update check and
no analytics (the namespace has no network anyway)."""


# -- the case's files ------------------------------------------------------------------


def _places(root: Path, case: Case) -> dict[str, Path]:
    names = ("home", "ws", "hooks", "agent", "hookd", "run", "tmp", "market", "system")
    places = {n: root / n for n in names}
    for path in places.values():
        path.mkdir(parents=True)
    places["codex"] = Path(_fill(case.codex_home, places)) if case.codex_home else (
        places["home"] / ".codex")  # fmt: skip
    places["codex"].mkdir(parents=True, exist_ok=True)
    places["cwd"] = Path(_fill(case.cwd, places))
    places["cwd"].mkdir(parents=True, exist_ok=True)
    return places


def _fill(value: Any, places: dict[str, Path]) -> Any:
    """``value`` with ``{home}``, ``{codex}``, ``{ws}`` and ``{hooks}`` filled in, in
    every string."""
    if isinstance(value, str):
        for name in ("home", "codex", "ws", "hooks", "market", "agent", "system", "tmp"):
            if name in places:
                value = value.replace("{" + name + "}", str(places[name]))
        return value
    if isinstance(value, dict):
        return {k: _fill(v, places) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_fill(v, places) for v in value]
    return value


def _layer_file(layer: str, places: dict[str, Path]) -> Path:
    return {
        "user": places["codex"] / "hooks.json",
        "user-toml": places["codex"] / "config.toml",
        "project": places["ws"] / ".codex" / "hooks.json",
        "project-toml": places["ws"] / ".codex" / "config.toml",
        "plugin": places["market"] / "plugins" / "guard" / "hooks" / "hooks.json",
    }[layer]


PLUGIN_ID = "guard@hookd-test"
"""The case's plugin (``guard``) in its local marketplace (``hookd-test``)."""


def _plugin_dir(places: dict[str, Path]) -> Path:
    return places["market"] / "plugins" / "guard"


def _handler(case: Case, hook: Hook, places: dict[str, Path], layer: str) -> dict[str, Any]:
    """The hook's handler as ``layer`` declares it: a plugin names its script by
    ``${PLUGIN_ROOT}`` (its own copy, which Codex installs with the plugin)."""
    script = ("${PLUGIN_ROOT}/hooks/" if layer == "plugin" else f"{places['hooks']}/") + (
        f"{hook.name}.sh")  # fmt: skip
    command = hook.command.replace("{script}", script)
    handler: dict[str, Any] = {"type": "command", "command": _fill(command, places)}
    handler.update(_fill(hook.fields, places))
    if handler["type"] != "command":
        del handler["command"]
    return handler


def _matcher(case: Case, hook: Hook) -> str | None:
    matcher = hook.matcher if hook.matcher is not None else case.matcher
    return None if matcher == NO_MATCHER else matcher


def _declared(case: Case, places: dict[str, Path]) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Each layer's hooks: event -> matcher groups, one group per hook, in case order.
    The hooks' scripts are written on the way (a plugin's into the plugin)."""
    layers: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for hook in case.hooks:
        folders = [places["hooks"]] + ([_plugin_dir(places) / "hooks"] if "plugin" in hook.layers
                                       else [])  # fmt: skip
        for folder in folders:
            folder.mkdir(parents=True, exist_ok=True)
            script = folder / f"{hook.name}.sh"
            script.write_text(_fill(hook_script(hook, ENV_SEEN), places))
            script.chmod(0o755)
        for layer in hook.layers:
            group: dict[str, Any] = {"hooks": [_handler(case, hook, places, layer)]}
            matcher = _matcher(case, hook)
            if matcher is not None:
                group = {"matcher": matcher, **group}
            layers.setdefault(layer, {}).setdefault(hook.event or case.event, []).append(group)
    return layers


def _write_plugin(places: dict[str, Path]) -> None:
    """The local marketplace ``hookd-test`` with its one plugin, ``guard`` (its hooks in
    ``hooks/hooks.json``, written with the others)."""
    market = places["market"]
    (market / ".agents" / "plugins").mkdir(parents=True)
    (market / ".agents" / "plugins" / "marketplace.json").write_text(json.dumps({
        "name": "hookd-test", "owner": {"name": "hookd"},
        "plugins": [{"name": "guard", "source": {"source": "local", "path": "./plugins/guard"},
                     "description": "a test plugin"}],
    }))  # fmt: skip
    manifest = _plugin_dir(places) / ".codex-plugin" / "plugin.json"
    manifest.parent.mkdir(parents=True)
    manifest.write_text(json.dumps({"name": "guard", "version": "1.0.0",
                                    "description": "a test plugin"}))  # fmt: skip


def install_plugin(places: dict[str, Path]) -> list[list[Any]]:
    """What the driver asks the app-server before the thread starts: add the local
    marketplace and install the plugin, as a person does from Codex's plugin browser."""
    market = places["market"]
    return [["marketplace/add", {"source": str(market)}],
            ["plugin/install", {"pluginName": "guard", "marketplacePath":
                                str(market / ".agents" / "plugins" / "marketplace.json")}]]  # fmt: skip


def trust_hash(event: str, matcher: str | None, handler: dict[str, Any]) -> str:
    """Codex's hash of a command handler (what ``[hooks.state."<key>"] trusted_hash``
    holds): sha256 of the compact, key-sorted JSON of the event's label, the group's
    matcher (none on events that ignore it) and the handler as Codex normalised it (the
    effective timeout, ``async``, ``statusMessage`` and a non-default
    ``additionalContextLimit``). The script's contents are not part of it."""
    timeout = handler.get("timeout")
    if event in SHORT_TIMEOUT_EVENTS:
        timeout = min(3, max(1, 1 if timeout is None else timeout))
    else:
        timeout = max(1, 600 if timeout is None else timeout)
    normal: dict[str, Any] = {"type": "command", "command": handler["command"],
                              "timeout": timeout, "async": bool(handler.get("async", False))}  # fmt: skip
    if handler.get("statusMessage") is not None:
        normal["statusMessage"] = handler["statusMessage"]
    limit = handler.get("additionalContextLimit")
    if limit is not None and limit != 2500 and event in CONTEXT_EVENTS:
        normal["additionalContextLimit"] = limit
    identity: dict[str, Any] = {"event_name": SNAKE[event], "hooks": [normal]}
    if matcher is not None and event not in NO_MATCHER_EVENTS:
        identity["matcher"] = matcher
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def _trust_state(case: Case, places: dict[str, Path],
                 layers: dict[str, dict[str, list[dict[str, Any]]]]) -> dict[str, dict[str, Any]]:  # fmt: skip
    """The ``[hooks.state]`` of every command handler of the user's and the project's
    files: trusted, unless its hook says otherwise."""
    state: dict[str, dict[str, Any]] = {}
    for layer, events in layers.items():
        by_command = {_handler(case, hook, places, layer).get("command"): hook
                      for hook in case.hooks}  # fmt: skip
        # A plugin's keys name the plugin and the file's path inside it.
        path = f"{PLUGIN_ID}:hooks/hooks.json" if layer == "plugin" else _layer_file(layer, places)
        for event, groups in events.items():
            for g, group in enumerate(groups):
                for h, handler in enumerate(group["hooks"]):
                    if (handler.get("type") != "command" or not handler.get("command", "").strip()
                            or event not in SNAKE):  # fmt: skip
                        continue
                    hook = by_command.get(handler["command"])
                    entry: dict[str, Any] = {}
                    if hook is None or hook.trusted:
                        entry["trusted_hash"] = trust_hash(event, group.get("matcher"), handler)
                    if hook is not None:
                        entry.update(hook.state)
                    if entry:
                        state[f"{path}:{SNAKE.get(event, event)}:{g}:{h}"] = entry
    return state


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, dict):
        return (
            "{ " + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"
        )
    return "[" + ", ".join(_toml_value(v) for v in value) + "]"


def _toml_hooks(events: dict[str, list[dict[str, Any]]]) -> str:
    """A ``[hooks]`` table (arrays of tables) holding ``events``."""
    lines = []
    for event, groups in events.items():
        for group in groups:
            lines.append(f"\n[[hooks.{event}]]")
            if "matcher" in group:
                lines.append(f"matcher = {_toml_value(group['matcher'])}")
            for handler in group["hooks"]:
                lines.append(f"[[hooks.{event}.hooks]]")
                lines += [f"{key} = {_toml_value(value)}" for key, value in handler.items()]
    return "\n".join(lines) + "\n"


def _setup(case: Case, root: Path, reviewed: bool = True) -> dict[str, Path]:
    """The case's folders and files. ``reviewed=False``: the hooks.json files' hooks have
    no review in Codex (as before a person ran ``/hooks``, or with hooks only ever run
    under ``--dangerously-bypass-hook-trust``)."""
    places = _places(root, case)
    layers = _declared(case, places)
    if "plugin" in layers:
        _write_plugin(places)
    for layer, events in layers.items():
        if layer.endswith("-toml"):
            continue
        path = _layer_file(layer, places)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({**case.top.get(layer, {}), "hooks": events}))
    state = _trust_state(case, places, layers)
    if not reviewed:
        state = {key: entry for key, entry in state.items() if "/hooks.json:" not in key}
    config = BASE_CONFIG.format(model=MODEL, port=PORT, config=_fill(case.config, places))
    if case.trust_project:
        config += f'\n[projects.{json.dumps(str(places["ws"]))}]\ntrust_level = "trusted"\n'
    config += _fill(case.tables, places)
    if "user-toml" in layers:
        config += _toml_hooks(layers["user-toml"])
    for key, entry in state.items():
        config += f"\n[hooks.state.{json.dumps(key)}]\n"
        config += "".join(f"{k} = {_toml_value(v)}\n" for k, v in entry.items())
    (places["codex"] / "config.toml").write_text(config)
    if "project-toml" in layers:
        path = _layer_file("project-toml", places)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_toml_hooks(layers["project-toml"]))
    for where, text in case.files.items():
        path = Path(_fill(where, places))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_fill(text, places))
    return places


# -- the agent's side ------------------------------------------------------------------


def _turns(case: Case, places: dict[str, Path]) -> dict[str, Any]:
    turns = case.turns or (
        {"tool": "exec_command", "args": {"cmd": case.tool_command}},
        {"text": "done."},
    )
    script = {case.id: _fill(list(turns), places)}
    if case.subagent_turns:
        script[f"{case.id}-sub"] = _fill(list(case.subagent_turns), places)
    filled: dict[str, Any] = json.loads(json.dumps(script).replace("{case}", case.id))
    return filled


def agent_env(case: Case, places: dict[str, Path]) -> dict[str, str]:
    """What the case adds to the agent's environment (hookd's fire gets it too)."""
    env = {"HOOK_OUT": str(places["agent"]), **_fill(case.env, places)}
    if case.codex_home:
        env["CODEX_HOME"] = str(places["codex"])
    return env


async def run_agent(
    case: Case, places: dict[str, Path], codex: str, env: dict[str, str] | None = None
) -> dict[str, Any]:
    """Run the agent on the case in its own loopback-only network namespace; what it did."""
    from agents.harness.netns import netns_argv

    run = {
        "codex": codex, "mode": case.mode, "home": str(places["home"]),
        "project": str(places["cwd"]), "tmp": str(places["tmp"]), "port": PORT,
        "prompts": [f"case:{case.id} {prompt}" for prompt in case.prompts],
        "turns": _turns(case, places), "env": {**agent_env(case, places), **(env or {})},
        "thread": _fill(case.thread, places), "answers": case.answers,
        "interrupt": case.interrupt, "compact": case.compact,
        "args": list(_fill(case.exec_args, places)) if case.mode == "exec" else [],
        "before": install_plugin(places) if (places["market"] / ".agents").exists() else [],
        "etc": str(places["system"] / "etc") if (places["system"] / "etc").exists() else None,
        "timeout": 90,
    }  # fmt: skip
    (places["run"] / "run.json").write_text(json.dumps(run))
    driver = [sys.executable, str(HARNESS / "drive_codex.py"), str(places["run"])]
    if run["etc"]:  # the case's /etc/codex, shown in a mount namespace of the agent's own
        driver = ["unshare", "-m", "--propagation", "private", *driver]
    argv = netns_argv(driver)
    driven = await trio.run_process(argv, capture_stdout=True, capture_stderr=True, check=False)
    if driven.returncode != 0:
        pytest.fail("the Codex driver failed (in the loopback-only namespace): "
                    + driven.stderr.decode(errors="replace")[-3000:], pytrace=False)  # fmt: skip
    return observe(case, places)


def observe(case: Case, places: dict[str, Path]) -> dict[str, Any]:
    """What the agent did, from the app-server's messages, the model's requests, the
    marker files and the hooks' own records."""
    messages = jsonl(places["run"] / "appserver.jsonl")
    listed: list[dict[str, Any]] = next((m["result"]["data"] for m in messages
                   if isinstance(m.get("result"), dict) and "data" in m["result"]
                   and m["result"]["data"] and "hooks" in m["result"]["data"][0]), [])  # fmt: skip
    hooks = [hook for entry in listed for hook in entry["hooks"]]
    tagged: dict[str, list[dict[str, Any]]] = {}
    for request in jsonl(places["run"] / "requests.jsonl"):
        found = TAG.search(json.dumps(request.get("input", [])))
        if found:
            tagged.setdefault(found.group(1), []).append(request)
    requests, sub_requests = tagged.get(case.id, []), tagged.get(f"{case.id}-sub", [])
    completed = [m["params"]["run"] for m in messages if m.get("method") == "hook/completed"]
    return {
        "ran": (places["ws"] / "ran").exists(),
        "rewritten": (places["ws"] / "rewritten").exists(),
        "listed": hooks,
        "warnings": [w for entry in listed for w in entry["warnings"]],
        "errors": [e for entry in listed for e in entry.get("errors", [])],
        "runs": [_named(run, hooks) for run in completed],
        "requests": requests,
        "sub_requests": sub_requests,
        "shown": [m["params"]["message"] for m in messages if m.get("method") == "warning"],
        "asked": [m for m in messages if "id" in m and _approval(m)],
        "turns": [m["params"]["turn"] for m in messages if m.get("method") == "turn/completed"],
        "observation": json.loads((places["run"] / "observation.json").read_text()),
        "messages": messages,
    }


def _approval(message: dict[str, Any]) -> bool:
    """Codex asks the client to approve something (``item/.../requestApproval``)."""
    return str(message.get("method", "")).endswith("requestApproval")


def _named(run: dict[str, Any], listed: list[dict[str, Any]]) -> dict[str, Any]:
    """A ``hook/completed`` run with the name of the case's hook it ran (from the command
    ``hooks/list`` shows for its event and place in the order)."""
    command = next((h["command"] for h in listed if h["displayOrder"] == run["displayOrder"]
                    and h["eventName"] == run["eventName"]), "")  # fmt: skip
    found = re.search(r"/hooks/([\w-]+)\.sh", command or "")
    return {**run, "hook": found.group(1) if found else command}


def hook_messages(requests: list[dict[str, Any]]) -> list[str]:
    """The developer messages of the last request after Codex's own (those before the
    ``<environment_context>`` message): what hooks added, in order."""
    if not requests:
        return []
    seen_context, found = False, []
    for item in requests[-1].get("input", []):
        if item.get("type") != "message":
            continue
        text = "".join(part.get("text", "") for part in item.get("content", []))
        if item.get("role") == "user" and text.startswith("<environment_context>"):
            seen_context = True
        elif seen_context and item.get("role") == "developer":
            found.append(text)
    return found


def tool_outputs(requests: list[dict[str, Any]]) -> list[str]:
    """Each tool output the model was sent (in the last request: the whole conversation)."""
    if not requests:
        return []
    return [item.get("output", "") for item in requests[-1].get("input", [])
            if item.get("type") in ("function_call_output", "custom_tool_call_output")]  # fmt: skip


def later_prompts(requests: list[dict[str, Any]]) -> list[str]:
    """The user messages of the last request after Codex's ``<environment_context>`` that
    are not the case's own prompts: a Stop block's ``<hook_prompt>``, a compaction's."""
    if not requests:
        return []
    seen_context, found = False, []
    for item in requests[-1].get("input", []):
        if item.get("type") != "message" or item.get("role") != "user":
            continue
        text = "".join(part.get("text", "") for part in item.get("content", []))
        if text.startswith("<environment_context>"):
            seen_context = True
        elif seen_context and not text.startswith("case:"):
            found.append(text)
    return found


def _matched(seen: list[str], expected: tuple[str, ...], places: dict[str, Path]) -> list[str]:
    """``seen``, with each text that an expected ``re:`` pattern (in the same place)
    matches replaced by that pattern, so that the two lists compare equal."""
    shown = list(seen)
    for index, wanted in enumerate(expected):
        if wanted.startswith("re:") and index < len(shown):
            pattern = wanted[3:]
            for name in ("tmp", "ws", "home", "codex"):
                pattern = pattern.replace("{" + name + "}", re.escape(str(places[name])))
            if re.fullmatch(pattern, shown[index], re.S):
                shown[index] = _fill(wanted, places)
    return shown


def assert_does(case: Case, places: dict[str, Path], agent: dict[str, Any]) -> None:
    """The agent did what ``case.does`` says Codex 0.171.0 does."""
    does = case.does
    problems: list[str] = []

    def check(what: str, seen: Any, expected: Any) -> None:
        if seen != expected:
            problems.append(f"{what}: Codex did {seen!r}, the case says {expected!r}")

    check("tool ran", agent["ran"], does.ran)
    check("rewritten ran", agent["rewritten"], does.rewritten)
    check("model requests", len(agent["requests"]), does.requests)
    check("a subagent's model requests", len(agent["sub_requests"]), does.sub_requests)
    check("a subagent's developer messages", hook_messages(agent["sub_requests"]),
          _fill(list(does.sub_developer), places))  # fmt: skip
    check("a subagent's later prompts", later_prompts(agent["sub_requests"]),
          _fill(list(does.sub_prompts), places))  # fmt: skip
    if does.sub_output is not None:
        outputs = tool_outputs(agent["sub_requests"])
        check("a subagent's tool output", outputs[0] if outputs else None,
              _fill(does.sub_output, places))  # fmt: skip
    check("developer messages", _matched(hook_messages(agent["requests"]), does.developer, places),
          _fill(list(does.developer), places))  # fmt: skip
    check("later prompts", later_prompts(agent["requests"]), _fill(list(does.prompts), places))
    if does.output is not None:
        outputs = tool_outputs(agent["requests"])
        check("tool output", outputs[0] if outputs else None, _fill(does.output, places))
    counts = {hook.name: does.counts.get(hook.name, 1) for hook in case.hooks}
    counts.update(does.counts)
    seen_counts = hook_runs(places["agent"])
    check("hook runs", {name: seen_counts.get(name, 0) for name in counts}, counts)
    finished = {path.name.partition(".done.")[0] for path in places["agent"].glob("*.done.0")}
    check("hooks killed at their timeout", sorted(set(seen_counts) - finished), sorted(does.killed))
    check("children left running", alive_children(places["agent"]), [])
    config = (places["codex"] / "config.toml").read_text()
    for text in _fill(list(does.config_has), places):
        check("config.toml holds", text in config, True)
    if case.mode == "app-server":
        check("discovery warnings", agent["warnings"], _fill(list(does.warnings), places))
        check("turn", agent["turns"][-1]["status"] if agent["turns"] else None, does.turn)
        check("asked for approval", bool(agent["asked"]), does.asked)
        # the discovery warnings (checked above) are shown too
        shown = [text for text in agent["shown"] if text not in agent["warnings"]]
        check("warnings shown", shown, _fill(list(does.shown), places))
        firsts: dict[str, dict[str, Any]] = {}
        for run in agent["runs"]:
            firsts.setdefault(run["hook"], run)
        for name, run in firsts.items():
            expected = _fill(list(does.runs.get(name, ("completed",))), places)
            seen = [run["status"], *(f"{e['kind']}: {e['text']}" for e in run["entries"])]
            check(f"hook {name}", seen, expected)
        for hook in agent["listed"]:
            hook_name = re.search(r"/hooks/([\w-]+)\.sh", hook["command"] or "")
            name = hook_name.group(1) if hook_name else hook["command"]
            declared = next((h for h in case.hooks if h.name == name), None)
            wanted = "trusted" if declared is None or declared.trusted else hook["trustStatus"]
            if hook["isManaged"]:
                wanted = "managed"
            if declared is not None and declared.state.get("trusted_hash"):
                wanted = "modified"
            check(f"trust of {name}", hook["trustStatus"], wanted)
    assert problems == [], "\n".join(problems)


# -- hookd's side ----------------------------------------------------------------------


def project_of(cwd: Path) -> str:
    """The session's project as Codex finds it (what a client fires hookd for): the
    nearest folder holding ``.git`` (its default root marker), else the folder itself."""
    for folder in (cwd, *cwd.parents):
        if (folder / ".git").exists():
            return str(folder)
    return str(cwd)


async def fire_hookd(case: Case, places: dict[str, Path], settings: Settings) -> dict[str, Any]:
    raw = first_stdin(case, places["agent"])
    assert raw is not None, "no hook of the case's event ran in the agent: no payload for hookd"
    env = {"PATH": os.environ["PATH"], "HOME": str(places["home"]), "LANG": "C.UTF-8",
           "SHELL": "/bin/sh", "TMPDIR": str(places["tmp"]), "FAKE_KEY": "dummy",
           **agent_env(case, places), "HOOK_OUT": str(places["hookd"])}  # fmt: skip
    async with trio.open_nursery() as nursery:
        await nursery.start(serve, replace(settings, home=str(places["home"]),
                                           system_root=str(places["system"])))  # fmt: skip
        rpc = await RpcClient.connect(settings.socket_path)
        try:
            result: dict[str, Any] = await rpc.fire(
                "codex", case.event, [project_of(places["cwd"])], json.loads(raw), env=env
            )
            # Every background hook's result: each has then written what it was given.
            result["delivered"] = await _async_results(rpc, result)
        finally:
            await rpc.call("shutdown")
            await rpc.aclose()
    return result


async def _async_results(rpc: RpcClient, result: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``hook/asyncResult`` of every hook the fire sent to the background (30 s at
    most: a missing one fails the case)."""
    expected = sum(1 for entry in result["asyncStarted"] if "notStarted" not in entry)
    with trio.fail_after(30):
        while sum(1 for n in rpc.notifications if n["method"] == "hook/asyncResult") < expected:
            message = await rpc.recv()
            if isinstance(message, dict) and "method" in message:
                rpc.notifications.append(message)
    return [n["params"] for n in rpc.notifications if n["method"] == "hook/asyncResult"]


FIRST_REASON_EVENTS = ("PreToolUse", "PermissionRequest", "UserPromptSubmit")
"""Events where Codex shows the first blocking hook's reason (in configured order); on the
others (PostToolUse's replaced output, a Stop's next prompt) every blocker's, in order."""
UNREPORTED_EVENTS = ("SessionEnd",)
"""Events whose runs app-server never reports (the thread is gone)."""


def _first_runs(agent: dict[str, Any], event: str) -> list[dict[str, Any]]:
    """The first run of each of the event's handlers, in configured order."""
    firsts: dict[int, dict[str, Any]] = {}
    for run in agent["runs"]:
        if run["eventName"] == _camel(event):
            firsts.setdefault(run["displayOrder"], run)
    return [firsts[order] for order in sorted(firsts)]


def _texts(runs: list[dict[str, Any]], kind: str) -> list[str]:
    return [e["text"] for run in runs for e in run["entries"] if e["kind"] == kind]


def expected_action(event: str, blocked: bool, stopped: bool) -> str:
    """What Codex did next, in the fire result's words (``action``)."""
    if event in ("Stop", "SubagentStop"):
        # as for Claude Code: a block blocks the stop (Codex goes on with the reason as a
        # new prompt); else the stop proceeds; continue: false stops
        return "block" if blocked else ("stop" if stopped else "proceed")
    if event == "PostToolUse":
        return "block" if blocked or stopped else "proceed"  # the output replaced, it goes on
    if event == "UserPromptSubmit":
        return "stop" if blocked or stopped else "proceed"  # no model request
    if event in ("PreToolUse", "PermissionRequest"):
        return "block" if blocked else "proceed"
    return "stop" if stopped else "proceed"  # SessionStart, PreCompact: nothing happens


def compare(case: Case, places: dict[str, Path], agent: dict[str, Any],
            hookd: dict[str, Any]) -> list[str]:  # fmt: skip
    """Where hookd's result disagrees with what the agent did (empty: they agree)."""
    problems: list[str] = []

    def check(what: str, agent_did: Any, hookd_says: Any) -> None:
        if agent_did != hookd_says:
            problems.append(f"{what}: the agent {agent_did!r}, hookd {hookd_says!r}")

    event = case.event
    names = ran_on_the_event(case, places["agent"])
    counts = _fire_runs(case, places["agent"])
    if case.differs:  # hookd runs other hooks than Codex, by design (the case says which)
        counts = {n: c for n, c in counts.items() if n not in case.hookd_not}
        counts.update(dict.fromkeys(case.hookd_also, 1))
        names = (names - set(case.hookd_not)) | set(case.hookd_also)
    check("hooks that ran (how often)", counts, _fire_runs(case, places["hookd"]))
    if case.differs:
        if case.hookd_blocks:
            check("hookd blocks (never ran)", True, hookd["blocked"] and hookd["action"] == "block")
        names -= set(case.hookd_also)  # what the others were given, not what these answered
        agent_records = records(places["agent"], names)
        hookd_records = records(places["hookd"], names)
        check("what each hook both ran was given", agent_records.keys(), hookd_records.keys())
        for name in agent_records:
            check(name, *same_out(name, agent_records, places["agent"], hookd_records,
                                   places["hookd"]))  # fmt: skip
        return problems
    agent_records, hookd_records = (
        records(places["agent"], names),
        records(places["hookd"], names),
    )
    for name in sorted(set(agent_records) | set(hookd_records)):
        mine, theirs = same_out(
            name, agent_records, places["agent"], hookd_records, places["hookd"]
        )
        if mine != theirs:
            problems.append(f"{name}: the agent gave {mine!r}, hookd {theirs!r}")
    killed = {n for n in names if not (places["agent"] / f"{n}.done.0").exists()}
    timed_out = {_hook_name(h["command"]) for h in hookd["hooks"] if h["timedOut"]}
    check("hooks killed at their timeout", sorted(killed), sorted(timed_out))
    check("children left running", alive_children(places["hookd"]), [])
    if names and all(hook.sleep for hook in case.hooks if hook.name in names):
        check("most hooks at once", most_at_once(places["agent"] / "order.log"),
              most_at_once(places["hookd"] / "order.log"))  # fmt: skip

    reported = case.mode == "app-server" and event not in UNREPORTED_EVENTS and not any(
        hook.fields.get("async") for hook in case.hooks)  # fmt: skip
    if reported:
        runs = _first_runs(agent, event)
        statuses = [run["status"] for run in runs]
        blocked, stopped = "blocked" in statuses, "stopped" in statuses
        check("hooks in order", [run["hook"] for run in runs],
              [_hook_name(h["command"]) for h in hookd["hooks"]])  # fmt: skip
        check("each hook failed", [status == "failed" for status in statuses],
              [h["error"] is not None for h in hookd["hooks"]])  # fmt: skip
        for run, hook in zip(runs, hookd["hooks"], strict=False):
            error = _entry(run, "error")
            if error is not None:
                check(f"{run['hook']}'s error", error, hook["error"])
        check("blocked", blocked, hookd["blocked"])
        feedback = _texts([run for run in runs if run["status"] == "blocked"], "feedback")
        stops = _texts([run for run in runs if run["status"] == "stopped"], "stop")
        if feedback:
            first_only = event in FIRST_REASON_EVENTS
            check("reason", feedback[0] if first_only else "\n\n".join(feedback), hookd["reason"])
        elif stops and event == "PostToolUse":
            check("reason (the replaced output)", stops[0], hookd["reason"])
        check("continue", not stopped, hookd["continue"])
        check("stopReason", stops[0] if stops else None, hookd["stopReason"])
        check("context", "\n\n".join(_texts(runs, "context")) or None, hookd["context"])
        check("systemMessage", "\n".join(_texts(runs, "warning")) or None, hookd["systemMessage"])
        check("action", expected_action(event, blocked, stopped), hookd["action"])
    problems += _compare_effects(case, places, agent, hookd)
    return problems


def _compare_effects(case: Case, places: dict[str, Path], agent: dict[str, Any],
                     hookd: dict[str, Any]) -> list[str]:  # fmt: skip
    """What the model and the tool saw, against what hookd's result says they get."""
    problems: list[str] = []

    def check(what: str, agent_did: Any, hookd_says: Any) -> None:
        if agent_did != hookd_says:
            problems.append(f"{what}: the agent {agent_did!r}, hookd {hookd_says!r}")

    event, reason = case.event, hookd["reason"]
    # a subagent case's event happens in the subagent: its requests say what it was sent
    requests = agent["sub_requests"] if case.subagent_turns else agent["requests"]
    outputs = tool_outputs(requests)
    if event == "PreToolUse" or (event == "PermissionRequest" and not agent["asked"]):
        check("the tool ran", agent["ran"] or agent["rewritten"], hookd["action"] != "block")
        check("a rewrite ran", agent["rewritten"], hookd["updatedInput"] is not None)
        if agent["rewritten"]:
            check("the rewrite", True, "rewritten" in json.dumps(hookd["updatedInput"]))
    if event == "PreToolUse" and hookd["blocked"] and outputs:
        command = json.loads(first_stdin(case, places["agent"]) or b"{}")["tool_input"]["command"]
        check("the model was sent", outputs[0],
              f"Command blocked by PreToolUse hook: {reason}. Command: {command}")  # fmt: skip
    if event == "PermissionRequest":
        decision = "deny" if hookd["blocked"] else ("allow" if agent["ran"] else None)
        check("the decision", "asked the user" if agent["asked"] else decision,
              "asked the user" if hookd["decision"] is None else hookd["decision"])  # fmt: skip
        if hookd["blocked"] and outputs:
            check("the model was sent", outputs[0],
                  f'exec_command failed: CreateProcess {{ message: "Rejected(\\"{reason}\\")" }}')  # fmt: skip
    if event == "PostToolUse" and hookd["action"] == "block" and outputs:
        check("the output the model was sent", outputs[0], reason)
    if event in ("Stop", "SubagentStop"):
        prompts = later_prompts(requests)
        fragments = re.findall(r"<hook_prompt hook_run_id=\"[^\"]*\">(.*?)</hook_prompt>",
                               prompts[0] if prompts else "", re.S)  # fmt: skip
        check("the next prompt", "\n\n".join(fragments) or None,
              reason if hookd["action"] == "block" else None)  # fmt: skip
    delivered = hookd.get("delivered", [])
    if delivered:  # background hooks: Codex gives their contexts to the model after the
        # tool's output and shows their systemMessages as warnings
        contexts = [note.get("context") for note in delivered if note.get("context")]
        messages = [note.get("systemMessage") for note in delivered if note.get("systemMessage")]
        check("background contexts", hook_messages(requests), contexts)
        check("background systemMessages", [m for m in agent["shown"]
                                             if m not in agent["warnings"]], messages)  # fmt: skip
    if event in ("UserPromptSubmit", "SessionStart") or (
            case.mode == "exec" and event in CONTEXT_EVENTS):  # fmt: skip
        check("the model's developer messages", "\n\n".join(hook_messages(requests)) or None,
              hookd["context"])  # fmt: skip
    return problems


def _fire_runs(case: Case, folder: Path) -> dict[str, int]:
    """How often each hook ran with the payload hookd was fired with (the agent may fire
    the event again later: a second model request, a Stop after a Stop block)."""
    payload = first_stdin(case, folder)
    counts: dict[str, int] = {}
    for path in folder.glob("*.stdin.*"):
        if path.read_bytes() == payload:
            name = path.name.partition(".stdin.")[0]
            counts[name] = counts.get(name, 0) + 1
    return counts


def _hook_name(command: str) -> str:
    found = re.search(r"/hooks/([\w-]+)\.sh", command or "")
    return found.group(1) if found else command


_TOOL_EVENTS = ("PreToolUse", "PermissionRequest", "PostToolUse")


def _camel(event: str) -> str:
    return event[0].lower() + event[1:]


def _entry(run: dict[str, Any], kind: str) -> str | None:
    return next((e["text"] for e in run["entries"] if e["kind"] == kind), None)


# -- the tests -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ahead(
    request: pytest.FixtureRequest,
    codex_bin: str,
    netns: None,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Ahead]:
    """The selected cases' agent runs, started ahead of their tests (``harness/ahead.py``)."""
    cases = selected_cases(request, "test_codex_agent_and_hookd_agree")
    base = tmp_path_factory.mktemp("cases")
    runs = Ahead(trio_side(_agent_side, codex_bin), cases, lambda c: base / c.id, jobs())
    yield runs
    runs.close()


async def _agent_side(codex: str, case: Case, root: Path) -> dict[str, Any]:
    places = _setup(case, root)
    return {"places": places, "agent": await run_agent(case, places, codex)}


@pytest.mark.parametrize("case", case_params(CASES))
async def test_codex_agent_and_hookd_agree(case: Case, ahead: Ahead, settings: Settings) -> None:
    _root, running = ahead.take(case)
    side = await trio.to_thread.run_sync(running.result)
    places, agent = side["places"], side["agent"]
    assert_does(case, places, agent)
    hookd = await fire_hookd(case, places, settings)
    problems = compare(case, places, agent, hookd)
    assert problems == [], "\n".join(problems) + "\nhookd: " + json.dumps(hookd)[:3000]
