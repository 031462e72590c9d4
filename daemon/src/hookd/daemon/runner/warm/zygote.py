"""One warm interpreter (``_zygote.py`` running under a hook's Python) and the hook
processes it forks, seen from the daemon.

The daemon keeps what it keeps for a fresh spawn: it makes the three pipes (its ends are
trio streams), the hook is a session leader whose pid is its process group, and
``WarmProcess`` answers ``pid``, ``returncode``, ``wait()`` and the streams as a
``trio.Process`` does, so trio's supervisor (``process_trio``, by way of the warm layer,
``launcher.py``) times it out and kills it the same way. The zygote is the hook's
parent: it reaps it and reports the status; what the hook orphans is re-parented to the
daemon (a subreaper), as a fresh hook's would be.
"""

from __future__ import annotations

import array
import json
import os
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import structlog
import trio

from .shapes import PythonRun

log = structlog.get_logger("hookd.warm")

_SOURCE = Path(__file__).with_name("_zygote.py")
LOADER = "import sys;p=sys.argv.pop(1);exec(compile(open(p,'rb').read(),'<string>','exec'))"
"""The zygote's ``-c`` program: runs ``_zygote.py`` as if its text were the ``-c`` argument
(same ``sys.path``, ``sys.argv``, ``__main__`` and ``<string>`` frames), with a command
line ``ps`` shows in one line instead of the file's 10 KB."""
SEND_BUFFER = 4 * 1024 * 1024
"""Largest spawn request (argv and environment); past it the hook spawns fresh."""
HELLO_TIMEOUT_S = 30.0
ANSWER_TIMEOUT_S = 10.0


class ZygoteError(Exception):
    """The zygote could not start, or stopped answering."""


def _latin1(text: str) -> str:
    return os.fsencode(text).decode("latin-1")


class WarmProcess:
    """A hook forked by a zygote, with the surface of ``trio.Process`` the runner uses."""

    def __init__(self, stdin: trio.lowlevel.FdStream, stdout: trio.lowlevel.FdStream,
                 stderr: trio.lowlevel.FdStream) -> None:  # fmt: skip
        self.pid = 0
        self.stdin: trio.lowlevel.FdStream | None = stdin
        self.stdout: trio.lowlevel.FdStream | None = stdout
        self.stderr: trio.lowlevel.FdStream | None = stderr
        self.returncode: int | None = None
        self._exited = trio.Event()

    async def aclose(self) -> None:
        """Close the daemon's ends of the pipes (a child that never started)."""
        with trio.CancelScope(shield=True):
            for stream in (self.stdin, self.stdout, self.stderr):
                if stream is not None:
                    await stream.aclose()

    async def wait(self) -> int:
        await self._exited.wait()
        assert self.returncode is not None
        return self.returncode

    def exited(self, returncode: int) -> None:
        self.returncode = returncode
        self._exited.set()


class Zygote:
    """A running zygote: its process, its control socket and the children in flight."""

    def __init__(self, run: PythonRun, env: dict[str, str], marker: str) -> None:
        self.run = run
        self.env = env
        self.marker = marker
        self.process: trio.Process | None = None
        self.hello: dict[str, Any] = {}
        self.ready = trio.Event()
        self.failure: str | None = None
        self.retired = False
        self.hits = 0
        self.last_used = trio.current_time()
        self.path_stamps: dict[str, int] = {}
        self._sock: trio.socket.SocketType | None = None
        self._ids = 0
        self._answers: dict[int, tuple[trio.Event, dict[str, Any], WarmProcess]] = {}
        self._children: dict[int, WarmProcess] = {}
        self._stderr = b""

    # lifecycle ------------------------------------------------------------------------
    async def serve(self, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Start the zygote, read its messages until it ends; kills it when cancelled."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        for end in (ours, theirs):
            end.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        null_r, null_w = os.pipe()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        task_status.started()
        try:
            try:
                argv = [self.run.argv0, *self.run.flags, "-c", LOADER, str(_SOURCE)]
                self.process = await trio.lowlevel.open_process(
                    [*argv, str(theirs.fileno())],
                    executable=self.run.executable,
                    stdin=null_r,
                    stdout=out_w,
                    stderr=err_w,
                    pass_fds=(theirs.fileno(),),
                    cwd=self.run.cwd,
                    env=self.env,
                    start_new_session=True,
                )
            except OSError as exc:
                self.failure = f"its interpreter could not start: {exc.strerror or exc}"
                return
            finally:
                for fd in (null_r, null_w, out_w, err_w):
                    os.close(fd)
                theirs.close()
            self._sock = trio.socket.from_stdlib_socket(ours)
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._drain_stderr, err_r)
                await self._read(out_r)
                nursery.cancel_scope.cancel()
        finally:
            self.retired = True
            self._fail_all("its warm interpreter stopped")
            with trio.CancelScope(shield=True):
                await self._stop()
            if not self.ready.is_set():
                self.failure = self.failure or self._why_no_hello()
                self.ready.set()

    async def _stop(self) -> None:
        if self._sock is not None:
            self._sock.close()
        process = self.process
        if process is None:
            return
        with trio.move_on_after(2):
            await process.wait()
        if process.returncode is None:
            process.kill()
            await process.wait()

    def _why_no_hello(self) -> str:
        last = self._stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
        return f"its warm interpreter ended before it was ready ({last[0][:200]})"

    async def _drain_stderr(self, fd: int) -> None:
        stream = trio.lowlevel.FdStream(fd)
        async with stream:
            while chunk := await stream.receive_some(65536):
                self._stderr = (self._stderr + chunk)[-8192:]
                log.warning("zygote_stderr", pid=self.pid, text=chunk.decode("utf-8", "replace"))

    async def _read(self, stdout_fd: int) -> None:
        assert self._sock is not None
        hello = b""
        with trio.move_on_after(HELLO_TIMEOUT_S):
            hello = await self._sock.recv(1 << 20)
        try:
            if not hello:
                return
            self.hello = json.loads(hello)
            self.failure = self._unusable(stdout_fd)
        finally:
            os.close(stdout_fd)
            self.ready.set()
        try:
            while data := await self._sock.recv(1 << 16):
                self._dispatch(json.loads(data))
                if self.retired and not self.busy:
                    return  # its last hook ended: closing the socket ends the zygote
        except trio.ClosedResourceError:
            return  # retired while idle (``retire`` closed the socket)

    def _unusable(self, stdout_fd: int) -> str | None:
        """Why this interpreter cannot stand in for a fresh one, from its hello."""
        os.set_blocking(stdout_fd, False)
        try:
            wrote = os.read(stdout_fd, 1)
        except BlockingIOError:
            wrote = b""
        hello = self.hello
        if wrote or self._stderr:
            return "the interpreter writes output at start-up"
        if hello.get("implementation") != "cpython" or tuple(hello.get("version", ())) < (3, 9):
            return "not CPython 3.9 or later"
        if hello.get("threads", 1) != 1:
            return "the interpreter starts threads at start-up"
        return None

    def _dispatch(self, message: dict[str, Any]) -> None:
        if message["op"] == "exited":
            child = self._children.pop(message["pid"], None)
            if child is not None:
                child.exited(int(message["returncode"]))
            self.last_used = trio.current_time()  # idle from the end of its last hook
            return
        waiting = self._answers.pop(message["id"], None)
        if waiting is not None:
            event, box, child = waiting
            box.update(message)
            if message["op"] == "started":
                child.pid = int(message["pid"])
                self._children[child.pid] = child  # before its "exited" is read
            event.set()

    def _fail_all(self, why: str) -> None:
        for event, box, _child in self._answers.values():
            box.update({"op": "failed", "errno": 0, "why": why})
            event.set()
        self._answers.clear()
        for child in self._children.values():
            child.exited(-9)  # status unknown: the zygote that would have read it is gone
        self._children.clear()

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    @property
    def busy(self) -> int:
        return len(self._children) + len(self._answers)

    def retire(self) -> None:
        """No new hooks; the zygote ends once its running children are reported."""
        self.retired = True
        if not self.busy and self._sock is not None:
            self._sock.close()

    def rss_kib(self) -> int:
        try:
            with open(f"/proc/{self.pid}/statm", "rb") as statm:
                return int(statm.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
        except (OSError, ValueError, IndexError):
            return 0

    # one hook -----------------------------------------------------------------------
    async def spawn(
        self,
        run: PythonRun,
        env: Sequence[tuple[str, str]],
        *,
        shell_forks: bool = False,
        nofile: tuple[int, int] | None = None,
    ) -> WarmProcess:
        """Fork a child that runs ``run`` with ``env``; OSError as ``open_process`` would
        raise it (the working directory missing...), ZygoteError when the zygote failed.
        ``shell_forks``: run under a shell that forks (dash): the pid is a stand-in for
        the shell, whose child runs the script (under ``uv run``, uv's child: a stand-in
        for uv in between). ``nofile``: the open-files limit the script starts with."""
        if self._sock is None or self.retired:
            raise ZygoteError("its warm interpreter is retiring")
        self._ids += 1
        request = {
            "op": "spawn", "id": self._ids, "file": _latin1(run.file),
            "argv": [_latin1(a) for a in (run.script, *run.args)],
            "origArgv": [_latin1(a) for a in run.orig_argv],
            "env": [[_latin1(k), _latin1(v)] for k, v in env], "cwd": _latin1(run.cwd),
            "standIns": ["shell"] * shell_forks + ["uv"] * run.uv,
            "nofile": list(nofile) if nofile is not None else None,
        }  # fmt: skip
        data = json.dumps(request).encode()
        if len(data) > SEND_BUFFER // 2:
            raise ZygoteError("its arguments and environment are too large to send")
        pipes = [os.pipe2(os.O_CLOEXEC) for _ in range(3)]
        theirs = [pipes[0][0], pipes[1][1], pipes[2][1]]
        ours = [pipes[0][1], pipes[1][0], pipes[2][0]]
        event, box = trio.Event(), dict[str, Any]()
        child = WarmProcess(
            trio.lowlevel.FdStream(ours[0]),
            trio.lowlevel.FdStream(ours[1]),
            trio.lowlevel.FdStream(ours[2]),
        )
        self._answers[self._ids] = (event, box, child)
        try:
            # Once sent, the child will run: wait for its pid even if the fire is
            # cancelled meanwhile (the runner then kills its group, as after a spawn).
            with trio.CancelScope(shield=True):
                with trio.move_on_after(ANSWER_TIMEOUT_S) as waited:
                    await self._sock.sendmsg(
                        [data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", theirs))]
                    )
                    await event.wait()
        except OSError as exc:
            self._answers.pop(self._ids, None)
            await child.aclose()
            raise ZygoteError(f"its warm interpreter is gone ({exc})") from exc
        finally:
            for fd in theirs:
                os.close(fd)
        if waited.cancelled_caught:
            await child.aclose()
            self.retired = True
            if self.process is not None:
                self.process.kill()
            raise ZygoteError("its warm interpreter did not answer")
        if box["op"] != "started":
            await child.aclose()
            if box.get("why"):
                raise ZygoteError(box["why"])
            raise OSError(box["errno"], os.strerror(box["errno"]))
        self.hits += 1
        self.last_used = trio.current_time()
        return child

    def stamp_paths(self) -> None:
        """Remember the folders on the zygote's ``sys.path`` as they are now."""
        self.path_stamps = {p: _mtime(p) for p in self.hello.get("path", []) if isinstance(p, str)}

    def paths_changed(self) -> bool:
        """A folder on its ``sys.path`` changed (a package or ``.pth`` file installed or
        removed): a fresh interpreter would start differently."""
        return any(_mtime(p) != stamp for p, stamp in self.path_stamps.items())

    @property
    def idle_s(self) -> float:
        return 0.0 if self.busy else trio.current_time() - self.last_used


def _mtime(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return -1


def preloaded_shadowed(folder: str, modules: Sequence[str]) -> str | None:
    """A module the zygote preloaded that ``folder`` (the script's, first on
    ``sys.path``) would shadow in a fresh run, or None."""
    try:
        names = os.listdir(folder)
    except OSError:
        return None
    wanted = set(modules)
    for name in names:
        stem = name.split(".", 1)[0]
        if stem in wanted:
            return stem
    return None
