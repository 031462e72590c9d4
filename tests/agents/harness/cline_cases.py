"""What both Cline suites share: a hook file (a script that records its stdin and the
order it ran in, then answers as the case says), its placement in the folders the agent
reads, running the real agent in the loopback-only namespace, and replaying the captured
payload through an in-process hookd on the same files."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import trio

from hookd.daemon.app import serve
from hookd.daemon.settings import Settings
from hookd_testing import RpcClient

HARNESS = Path(__file__).parent


@dataclass(frozen=True)
class Hook:
    name: str
    """Names its captures (``<name>.stdin.<n>``) and its line in ``order``."""
    event: str = "PreToolUse"
    stdout: str = ""
    stderr: str = ""
    exit: int = 0
    sleep: float = 0
    folder: str = "workspace"
    """A key of the suite's folder table (workspace, user, global...)."""
    file: str | None = None
    """The file name; the event's own name (SDK: ``<Event>.sh``) when not given."""
    mode: int = 0o755
    symlink: bool = False
    """The hook file is a symlink to a script kept outside the folder."""
    shebang: str = "#!/bin/sh"
    every_run: bool = False
    """Answer on every run, not only the first (a tool may be called again)."""
    raw: str | None = None
    """The whole file, verbatim (``{out}`` is the capture folder's variable)."""


def out(obj: Any) -> str:
    return json.dumps(obj)


def _sh(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def script(hook: Hook, ws: Path) -> str:
    if hook.raw is not None:
        return hook.raw.replace("{ws}", str(ws))
    lines = [
        hook.shebang,
        # the run's number, claimed atomically (the same hook may run twice at once)
        f'n=0; while ! mkdir "$HOOK_OUT/{hook.name}.run.$n" 2>/dev/null; do n=$((n+1)); done',
        f'cat > "$HOOK_OUT/{hook.name}.stdin.$n"',
        f'echo {hook.name} >> "$HOOK_OUT/order"',
    ]
    if not hook.every_run:
        lines.append('[ "$n" -gt 0 ] && exit 0')
    if hook.sleep:
        lines.append(f"sleep {hook.sleep}")
    lines += [
        f"printf '%s' {_sh(hook.stdout.replace('{ws}', str(ws)))}",
        f"printf '%s' {_sh(hook.stderr)} >&2",
        f"exit {hook.exit}",
    ]
    return "\n".join(lines) + "\n"


def place(hook: Hook, folder: Path, file: str, ws: Path, elsewhere: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    target = (elsewhere / f"{hook.name}.target") if hook.symlink else folder / file
    target.write_text(script(hook, ws))
    target.chmod(hook.mode)
    if hook.symlink:
        (folder / file).symlink_to(target)


def make_places(root: Path) -> dict[str, Path]:
    places = {n: root / n for n in ("home", "ws", "elsewhere", "agent", "hookd", "run")}
    for path in places.values():
        path.mkdir(parents=True)
    return places


async def run_agent(places: dict[str, Path], run: dict[str, Any]) -> dict[str, Any]:
    """Run the agent once (``drive_cline.py`` in the namespace) and collect what it did."""
    from agents.harness.netns import netns_argv

    run = {"home": str(places["home"]), "project": str(places["ws"]),
           "env": {"HOOK_OUT": str(places["agent"]), **run.pop("env", {})}, **run}  # fmt: skip
    (places["run"] / "run.json").write_text(json.dumps(run))
    argv = netns_argv([sys.executable, str(HARNESS / "drive_cline.py"), str(places["run"])])
    done = await trio.run_process(argv, capture_stdout=True, capture_stderr=True, check=False)
    observation_file = places["run"] / "observation.json"
    if not observation_file.exists():
        raise AssertionError(f"the agent's driver failed: {done.stderr.decode(errors='replace')}")
    log = places["run"] / "requests.jsonl"
    requests = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    tag = run["tag"]
    tagged = [r for r in requests if tag in json.dumps(r.get("messages", []))]
    return {
        "ran": (places["ws"] / "ran").exists(),
        "rewritten": (places["ws"] / "rewritten").exists(),
        "requests": tagged,
        "stdout": (places["run"] / "agent.stdout").read_text(errors="replace"),
        "observation": json.loads(observation_file.read_text()),
        "log": "\n".join(
            p.read_text(errors="replace")
            for p in sorted((places["home"] / ".cline" / "data" / "logs").glob("*.log"))
        ),
    }


def stdins(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if ".stdin." in p.name}


def order(folder: Path) -> list[str]:
    path = folder / "order"
    return path.read_text().split() if path.exists() else []


def payload_of(folder: Path, hooks: tuple[Hook, ...], event: str) -> dict[str, Any] | None:
    """The first payload the agent gave a hook of ``event`` (None: it never fired)."""
    for hook in hooks:
        if hook.event == event and (folder / f"{hook.name}.stdin.0").exists():
            payload: dict[str, Any] = json.loads((folder / f"{hook.name}.stdin.0").read_bytes())
            return payload
    return None


async def fire_hookd(
    agent: str,
    event: str,
    places: dict[str, Path],
    settings: Settings,
    payload: dict[str, Any],
    **extra: Any,
) -> dict[str, Any]:
    env = {"HOOK_OUT": str(places["hookd"]), **extra.pop("env", {})}
    async with trio.open_nursery() as nursery:
        await nursery.start(
            serve, replace(settings, home=str(places["home"]), **extra.pop("settings", {}))
        )
        rpc = await RpcClient.connect(settings.socket_path)
        result: dict[str, Any] = await rpc.fire(
            agent, event, [str(places["ws"])], payload, env=env, **extra
        )
        await rpc.call("shutdown")
        await rpc.aclose()
    return result


def strings(value: Any) -> list[str]:
    """Every string in a JSON value, as sent (not escaped)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


@dataclass
class Compared:
    problems: list[str] = field(default_factory=list)

    def check(self, ok: bool, text: str) -> None:
        if not ok:
            self.problems.append(text)


def relayed_like_plain(
    plain: dict[str, Any], relayed: dict[str, Any], hooks: tuple[Hook, ...]
) -> list[str]:
    """Where the relayed run of a case did otherwise than the plain one (empty: the same):
    whether the tool ran (or its rewritten input), how many requests reached the model,
    and which of the hooks' answers it was sent."""
    c = Compared()
    for key in ("ran", "rewritten"):
        c.check(relayed[key] == plain[key], f"{key}: plain {plain[key]}, relayed {relayed[key]}")
    c.check(len(relayed["requests"]) == len(plain["requests"]), "another number of requests")
    plain_text = "\n".join(strings(plain["requests"]))
    relayed_text = "\n".join(strings(relayed["requests"]))
    for hook in hooks:
        try:
            said = [s for s in strings(json.loads(hook.stdout)) if len(s) > 3]
        except ValueError:
            said = []
        for text in said:
            c.check((text in relayed_text) == (text in plain_text), f"{text!r} reached the "
                    f"model in one run only")  # fmt: skip
    return c.problems
