"""What the relay suites share (``tests/agents/<agent>/test_relay_agent.py``): hand a
case's hooks to hookd with the real ``hookd adopt``, run the agent with hookd serving
(the relay's socket in the agent's environment), and compare what each hook was given
in the plain run and in the relayed one, but for what only one session has."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator, Callable, Collection
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import trio

from hookd.daemon.app import serve
from hookd.daemon.settings import Settings
from hookd_testing import RpcClient
from hookd_testing.relays import ENTRY_RELAY


async def adopt(agent: str, places: dict[str, Path], *scopes: str) -> str:
    """``hookd adopt`` for each scope (the case's home and workspace); its output."""
    said = []
    for scope in scopes:
        done = await trio.run_process(
            [sys.executable, "-m", "hookd", "adopt", "--agent", agent, "--scope", scope,
             "--project", str(places["ws"]), "--home", str(places["home"])],
            capture_stdout=True, capture_stderr=True, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        said.append(done.stdout.decode())
    text = "".join(said)
    # the entries run this installation's relay: the native one where it is installed
    assert "the relay entries run" not in text or f"relay {ENTRY_RELAY}" in text, text
    return text


@asynccontextmanager
async def serving(settings: Settings, home: Path) -> AsyncIterator[dict[str, str]]:
    """hookd serving the case's home; yields the environment the agent's relay needs."""
    async with trio.open_nursery() as nursery:
        await nursery.start(serve, replace(settings, home=str(home)))
        yield {"HOOKD_SOCKET": settings.socket_path, "HOOKD_NO_SPAWN": "1"}
        rpc = await RpcClient.connect(settings.socket_path)
        await rpc.call("shutdown")
        await rpc.aclose()


def given(
    folder: Path, run: str, volatile: Collection[str], parse: Callable[[bytes], Any] = json.loads
) -> dict[str, list[Any]]:
    """Each hook's runs (the ``<hook>.stdin.<n>`` files), each as the event it was given
    with its keys in order, the run's folder name replaced and what only one session
    has (``volatile`` keys, at any depth) left out."""
    runs: dict[str, list[Any]] = {}
    for path in sorted(folder.glob("*.stdin.*")):
        event = parse(path.read_bytes().replace(f"/{run}/".encode(), b"/RUN/"))
        runs.setdefault(path.name.partition(".stdin.")[0], []).append(_kept(event, volatile))
    return runs


def _kept(value: Any, volatile: Collection[str]) -> Any:
    if isinstance(value, dict):
        return [(k, _kept(v, volatile)) for k, v in value.items() if k not in volatile]
    if isinstance(value, list):
        return [_kept(v, volatile) for v in value]
    return value


KILL = """#!/bin/sh
pid=$("{python}" -m hookd status --json | "{python}" -c 'import json,sys; print(json.load(sys.stdin)["pid"])')
echo "$pid" > "{ws}/killed.pid"
kill -9 "$pid"
"{python}" -c '
import socket, sys, time
deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    probe = socket.socket(socket.AF_UNIX)
    try:
        probe.connect(sys.argv[1])
    except OSError:
        break
    finally:
        probe.close()
    time.sleep(0.02)
' "$HOOKD_SOCKET"
"""
"""The tool call of the killed-daemon cases: it kills the daemon serving the session, and
waits until its socket refuses (SIGKILL returns before the process has closed its files:
a relay as quick as the native one could reach the dying daemon and be dropped)."""


KILL_COMMAND = "sh {ws}/kill-hookd.sh && touch {ws}/ran"
"""The tool command that runs it, then marks that the tool ran."""


def write_kill_script(ws: Path) -> None:
    (ws / "kill-hookd.sh").write_text(KILL.format(python=sys.executable, ws=ws))


def assert_started_again(ws: Path, short_dir: Path, pid: int) -> None:
    """After the kill script (``KILL``) killed the daemon mid-session: the one serving now
    (``pid``) is another, and hookd started twice in all."""
    assert pid != int((ws / "killed.pid").read_text())  # another daemon serves
    assert_daemon_starts(short_dir, 2)


def assert_daemon_starts(short_dir: Path, times: int) -> None:
    """The daemons the relays started in this case (``hookd.log`` beside the socket)
    started ``times`` times: once from cold, twice when one was killed mid-session."""
    log = (short_dir / "hookd.log").read_text()
    assert log.count("starting") == times, log


@asynccontextmanager
async def from_cold(places: dict[str, Path], socket: Path) -> AsyncIterator[dict[str, str]]:
    """No daemon runs: the relay inside the agent starts one (the workspace allowed
    first). Yields the environment the agent needs; stops whatever daemon runs then."""
    env = {"PATH": os.environ["PATH"], "HOME": str(places["home"]), "LANG": "C.UTF-8",
           "HOOKD_SOCKET": str(socket)}  # fmt: skip
    allowed = await _hookd(env, "allow", str(places["ws"]))
    assert allowed.returncode == 0, allowed.stderr
    try:
        yield {"HOOKD_SOCKET": str(socket)}
    finally:
        await _hookd(env, "shutdown")


def unreachable(short_dir: Path, policy: str | None) -> tuple[dict[str, str], str]:
    """No daemon on the socket and none to be started (``HOOKD_NO_SPAWN=1``), with
    ``HOOKD_RELAY_ON_ERROR=policy`` (None: unset, the default): the environment the agent
    needs, and the one line the relay then says."""
    socket = short_dir / "none.sock"
    env = {"HOOKD_SOCKET": str(socket), "HOOKD_NO_SPAWN": "1"}
    if policy:
        env["HOOKD_RELAY_ON_ERROR"] = policy
    verdict = "blocking" if policy == "block" else "letting the action go on"
    line = (f"hookd-relay: hookd is not running (no daemon at {socket}: No such file or "
            f"directory); start it with 'hookd serve' ({verdict}: HOOKD_RELAY_ON_ERROR="
            f"{policy or 'continue'})")  # fmt: skip
    return env, line


def hook_runs(folder: Path) -> list[str]:
    """Each run the case's hooks recorded (``<hook>.stdin.<n>``), in name order."""
    return sorted(p.name for p in folder.glob("*.stdin.*"))


async def serving_pid(socket: Path) -> int:
    """The pid of the daemon answering on ``socket``."""
    done = await _hookd({**os.environ, "HOOKD_SOCKET": str(socket)}, "status", "--json")
    log = socket.with_name("hookd.log")
    said = log.read_text() if log.exists() else "(no hookd.log)"
    assert done.returncode == 0, f"hookd status: {done.stderr.decode(errors='replace')}{said}"
    pid: int = json.loads(done.stdout)["pid"]
    return pid


async def _hookd(env: dict[str, str], *args: str) -> Any:
    return await trio.run_process([sys.executable, "-m", "hookd", *args], env=env,
                                  capture_stdout=True, capture_stderr=True, check=False)  # fmt: skip
