"""What a portable hook's translation costs a fire (issue 27): the same trivial guard
(``true`` on the shell tool) written in the agent's own settings and written once in
``~/.config/hookd/hooks.json``, fired from the agent, on daemons that differ only in that
(each its own home), interleaved. Also what the portable lookup costs a fire no hook
matches: a daemon whose portable file holds only a SessionStart hook against one with no
portable file at all.

    python bench/portable.py [--quick] [--json]

Read the ratios: ``portable`` / ``own`` is what translating the event for a portable hook
and its answer back costs (on top of the same hook process); ``lookup`` / ``none`` is
what having portable hooks costs every other fire.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hookd.client import Client

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run.py's helpers, as bench.run
from bench.run import BenchError, interleaved, make_workspace, p50, percentile
from bench.trust_overhead import ConfiguredDaemon

GUARD = {"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}
AGENTS: dict[str, tuple[str, dict[str, Any], Callable[[Path], tuple[Path, dict[str, Any]]]]] = {
    "claude": (
        "PreToolUse",
        {"tool_name": "Bash", "tool_input": {"command": "ls"}, "session_id": "bench"},
        lambda root: (root / ".claude" / "settings.json", {"hooks": {"PreToolUse": [GUARD]}}),
    ),
    "gemini": (
        "BeforeTool",
        {"tool_name": "run_shell_command", "tool_input": {"command": "ls"}, "session_id": "b"},
        lambda root: (
            root / ".gemini" / "settings.json",
            {"hooks": {"BeforeTool": [{**GUARD, "matcher": "run_shell_command"}]}},
        ),
    ),
}


class Fires:
    """``n`` fires of one event through a persistent client, timed end to end."""

    def __init__(self, client: Client, agent: str, event: str, root: Path,
                 payload: dict[str, Any], hooks: int) -> None:  # fmt: skip
        self.client, self.agent, self.event = client, agent, event
        self.roots, self.payload, self.hooks = [str(root)], payload, hooks

    def __call__(self, n: int) -> list[float]:
        out: list[float] = []
        for _ in range(n):
            started = time.perf_counter()
            result = self.client.fire(self.agent, self.event, self.roots, self.payload)
            out.append((time.perf_counter() - started) * 1000)
            ran = result["hooks"]
            if len(ran) != self.hooks or any(h.get("exitCode") != 0 for h in ran):
                raise BenchError(f"{self.agent} fire ran {ran}, not {self.hooks} hook(s)")
        return out


def in_process(n: int) -> dict[str, float]:
    """Microseconds per fire of the translation alone, in this process: the agent's payload
    made Claude-shaped (``shared_request``) and a deny with a reason written back as the
    agent's own hook answer (``agent_answer``), per agent."""
    from hookd.daemon.all_dialects import PORTABLE
    from hookd.daemon.cli.fire_inputs import example
    from hookd.daemon.dialects.portable import PortableAnswer
    from hookd.daemon.fire.portable_run import shared_request
    from hookd.daemon.model import FireRequest

    out: dict[str, float] = {}
    deny = PortableAnswer(blocks=True, decision="deny", reason="no rm -rf")
    for dialect, mapping in PORTABLE.items():
        event = next(own for own, shared in mapping.EVENTS.items() if shared == "PreToolUse")
        request = FireRequest(dialect, event, ("/tmp",), example(dialect.value, event, "/tmp"))
        started = time.perf_counter()
        for _ in range(n):
            shared_request(request, mapping, "PreToolUse")
            mapping.agent_answer(request, deny)
        out[dialect.value] = (time.perf_counter() - started) / n * 1e6
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = parser.parse_args()
    samples_n, block = (200, 25) if args.quick else (1000, 50)

    ws = make_workspace()
    homes = {name: ws.base / f"home-{name}" for name in ("own", "portable", "none", "lookup")}
    for home in homes.values():
        home.mkdir()
    portable = homes["portable"] / ".config" / "hookd" / "hooks.json"
    portable.parent.mkdir(parents=True)
    portable.write_text(json.dumps({"hooks": {"PreToolUse": [GUARD]}}))
    lookup = homes["lookup"] / ".config" / "hookd" / "hooks.json"
    lookup.parent.mkdir(parents=True)
    lookup.write_text(json.dumps({"hooks": {"SessionStart": [GUARD]}}))
    config = {"trust_all": True, "audit_log": False}
    daemons = {name: ConfiguredDaemon(ws.base, ws.env, name, config) for name in homes}
    clients: list[Client] = []
    figures: dict[str, Any] = {}
    try:
        for name, daemon in daemons.items():
            daemon.start(homes[name], ws.system_root)
        time.sleep(0.1)  # past the racy window of the files just written
        for agent, (event, payload, own_file) in AGENTS.items():
            root = ws.root(agent)
            path, settings = own_file(root)
            path.parent.mkdir(parents=True)
            path.write_text(json.dumps(settings))
            bare = ws.root(f"{agent}-bare")
            bare.mkdir(parents=True)
            methods: dict[str, Callable[[int], list[float]]] = {}
            for name, where, hooks in (("own", root, 1), ("portable", bare, 1),
                                       ("none", bare, 0), ("lookup", bare, 0)):  # fmt: skip
                client = Client(daemons[name].socket)
                clients.append(client)
                fires = Fires(client, agent, event, where, {**payload, "cwd": str(where)}, hooks)
                fires(30)  # warm-up, and a check that each ran what it should
                methods[name] = fires
            samples = interleaved(methods, samples_n, block)
            row: dict[str, Any] = {
                name: {"p50": p50(s), "p99": percentile(s, 99)} for name, s in samples.items()
            }
            row["portable/own"] = row["portable"]["p50"] / row["own"]["p50"]
            row["lookup/none"] = row["lookup"]["p50"] / row["none"]["p50"]
            figures[agent] = row
        print(f"fire p50/p99 in ms ({samples_n} fires each, interleaved in blocks of {block})")
        print(f"{'agent':<8}{'own':>14}{'portable':>14}{'ratio':>7}"
              f"{'none':>14}{'lookup':>14}{'ratio':>7}")  # fmt: skip
        for agent, row in figures.items():
            cells = [f"{row[n]['p50']:.3f}/{row[n]['p99']:.2f}".rjust(14)
                     for n in ("own", "portable")]  # fmt: skip
            more = [
                f"{row[n]['p50']:.3f}/{row[n]['p99']:.2f}".rjust(14) for n in ("none", "lookup")
            ]
            print(f"{agent:<8}{''.join(cells)}{row['portable/own']:>7.2f}"
                  f"{''.join(more)}{row['lookup/none']:>7.2f}")  # fmt: skip
        translation = in_process(2000 if args.quick else 20000)
        print("translation alone, in process (us per fire: payload there, a deny back):")
        print("  " + ", ".join(f"{agent} {us:.1f}" for agent, us in translation.items()))
        figures["translationUs"] = translation
        if args.json:
            print(json.dumps(figures))
        return 0
    finally:
        for client in clients:
            client.close()
        for daemon in daemons.values():
            daemon.stop()


if __name__ == "__main__":
    sys.exit(main())
