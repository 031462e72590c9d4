"""hookd's warm Python interpreter (a zygote): started once, forks one child per hook.

Run by ``warm.zygote`` as ``<interpreter> <the hook's flags> -c <a loader of this file>``
(its text is run as the ``-c`` program would be) with
the hook's own start-up environment, fds 0/1/2 on pipes (as a hook's are) and a
SOCK_SEQPACKET control socket whose fd is its one argument. It imports a few
side-effect-free standard library modules, says hello, then serves the daemon:

* ``spawn`` (with the hook's stdin, stdout and stderr pipes attached): fork; the child
  becomes what ``python script.py`` would be at its first line (own session, the hook's
  cwd, fds 0/1/2, environment, argv, ``sys.path[0]``, a fresh ``__main__``) and runs the
  script at this program's top level, so the interpreter's own exit path (``SystemExit``,
  the traceback of an uncaught exception, thread joins, atexit, flushing, finalization)
  is the one a fresh run takes;
* the child is reaped when it exits and its status sent (the daemon's own children are
  reaped as it reads their status, so the pid is free from the same moment);
* stand-ins: where a fresh run's hook process is not Python itself but a program that
  starts it and waits (a shell that forks, ``uv run``), the child stays as that program
  (same pid, session, exit status, signal handling) and Python runs in its child.

Standard library only, no imports from hookd, Python 3.9 and later: it runs under the
hook's interpreter, not hookd's. It never writes to its own stdout or stderr (a child
would inherit the unflushed bytes), and it exits when the daemon closes the socket.
"""

import sys

_STARTUP_MODULES = frozenset(sys.modules)
if not (getattr(sys.flags, "safe_path", 0) or sys.flags.isolated) and sys.path[:1] == [""]:
    del sys.path[0]  # -c put the zygote's cwd first; a script run puts the script's folder

import _socket  # noqa: E402  (imported after the sys.path fix on purpose)
import gc  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import select  # noqa: E402
from types import CodeType, TracebackType  # noqa: E402
from typing import Any, Optional  # noqa: E402

PRELOAD = (
    "argparse", "base64", "collections", "contextlib", "copy", "dataclasses", "datetime",
    "enum", "fnmatch", "functools", "glob", "io", "itertools", "json", "os", "pathlib",
    "random", "re", "resource", "shlex", "shutil", "string", "subprocess", "tempfile",
    "textwrap", "time", "traceback", "typing", "urllib.parse",
)  # fmt: skip
"""Standard library modules whose import reads no environment, starts nothing, registers
no atexit handler and keeps no start time (so not ``logging``, ``hashlib``, ``ssl``,
``asyncio``, ``uuid``, ``platform``); ``random`` reseeds itself in a forked child."""

CONTROL_FD = int(sys.argv[1])
_MAX_MESSAGE = 1 << 22
_UV_FORWARDS = ("SIGTERM", "SIGUSR1", "SIGUSR2", "SIGHUP", "SIGALRM", "SIGQUIT", "SIGWINCH",
                "SIGPIPE")  # fmt: skip
"""Signals ``uv run`` forwards to the Python it waits for, at once (SIGINT: after 200 ms)."""


def _start_up_changes() -> "tuple[list[tuple[bytes, bytes]], list[bytes]]":
    """What this interpreter's own start-up changed in its environment (C locale
    coercion adds ``LC_CTYPE``): a fresh run of a hook changes the hook's the same way,
    since its start-up environment is this one's (the pool's key)."""
    try:
        with open("/proc/self/environ", "rb") as initial_file:
            raw = initial_file.read()
    except OSError:
        return [], []
    initial = dict(entry.split(b"=", 1) for entry in raw.split(b"\0") if b"=" in entry)
    now = os.environb
    added = [(key, value) for key, value in now.items() if initial.get(key) != value]
    return added, [key for key in initial if key not in now]


_ADDED_AT_START, _REMOVED_AT_START = _start_up_changes()


def _send(sock: _socket.socket, message: "dict[str, Any]") -> None:
    sock.send(json.dumps(message).encode())


def _raw(text: str) -> bytes:
    """The daemon sends bytes as latin-1 strings (any byte, no encoding guessed)."""
    return text.encode("latin-1")


def _hello() -> "dict[str, Any]":
    for name in PRELOAD:
        try:
            __import__(name)
        except ImportError:
            pass
    site_code = any(name in sys.modules for name in ("sitecustomize", "usercustomize"))
    for entry in sys.path:
        try:
            names = os.listdir(entry)
        except OSError:
            continue
        for name in names:
            if name.endswith(".pth"):
                try:
                    with open(os.path.join(entry, name), "rb") as pth:
                        lines = pth.read().splitlines()
                except OSError:
                    continue
                imports = any(line.startswith((b"import ", b"import\t")) for line in lines)
                site_code = site_code or imports
    loaded = sorted(
        {name.partition(".")[0] for name in sys.modules}
        - {name.partition(".")[0] for name in _STARTUP_MODULES}
    )
    return {
        "op": "ready",
        "pid": os.getpid(),
        "implementation": sys.implementation.name,
        "version": list(sys.version_info[:3]),
        "executable": sys.executable,
        "path": sys.path,
        "modules": loaded,
        "siteCode": site_code,
        "threads": _thread_count(),
    }


def _thread_count() -> int:
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 1


class _Child:
    """What a forked child needs to become the hook (built in the child)."""

    def __init__(self, request: "dict[str, Any]") -> None:
        self.file = _raw(request["file"])
        self.argv = [os.fsdecode(_raw(a)) for a in request["argv"]]
        self.orig_argv = [os.fsdecode(_raw(a)) for a in request["origArgv"]]
        self.env = [(_raw(k), _raw(v)) for k, v in request["env"]]
        self.cwd = _raw(request["cwd"])
        self.stand_ins = [str(role) for role in request.get("standIns", ())]
        nofile = request.get("nofile")
        self.nofile = (int(nofile[0]), int(nofile[1])) if nofile else None


def _serve() -> _Child:
    """Serve the daemon; returns only in a forked child, which then runs the hook."""
    sock = _socket.socket(fileno=CONTROL_FD)
    poller = select.poll()
    poller.register(CONTROL_FD, select.POLLIN)
    exits: "dict[int, int]" = {}  # pidfd -> pid
    sys.stdout.flush()
    sys.stderr.flush()
    _send(sock, _hello())
    while True:
        for fd, _events in poller.poll():
            if fd != CONTROL_FD:
                pid = exits.pop(fd)
                poller.unregister(fd)
                os.close(fd)
                _pid, status = os.waitpid(pid, 0)
                code = os.waitstatus_to_exitcode(status)
                _send(sock, {"op": "exited", "pid": pid, "returncode": code})
                continue
            data, ancillary, _flags, _addr = sock.recvmsg(_MAX_MESSAGE, _socket.CMSG_SPACE(64))
            if not data:
                os._exit(0)  # the daemon is gone: its watchdog deals with the children
            fds = []
            for level, kind, payload in ancillary:
                if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
                    usable = len(payload) - len(payload) % 4
                    for i in range(0, usable, 4):
                        fds.append(int.from_bytes(payload[i : i + 4], sys.byteorder))
            request = json.loads(data)
            child = _fork(sock, request, fds, poller, exits)
            if child is not None:
                return child


def _fork(
    sock: _socket.socket,
    request: "dict[str, Any]",
    fds: "list[int]",
    poller: "select.poll",
    exits: "dict[int, int]",
) -> Optional[_Child]:
    ready_r, ready_w = os.pipe()
    gc.freeze()  # the child's collections skip the zygote's objects: no copied pages
    pid = os.fork()
    if pid == 0:
        try:
            os.close(ready_r)
            child = _Child(request)
            os.setsid()
            os.chdir(child.cwd)
            for target, fd in enumerate(fds):
                os.dup2(fd, target)
            sock.detach()  # its fd goes with the others below; the object must not close it
            os.closerange(3, ready_w)
            os.closerange(ready_w + 1, _fd_limit())
            environ = os.environb
            environ.clear()
            for key, value in child.env:
                environ[key] = value
            for key in _REMOVED_AT_START:
                environ.pop(key, None)
            for key, value in _ADDED_AT_START:
                environ[key] = value
            if child.nofile is not None:
                resource = sys.modules["resource"]
                resource.setrlimit(resource.RLIMIT_NOFILE, child.nofile)
            for role in child.stand_ins:
                if role == "uv":
                    _stand_in_for_uv(ready_w)
                else:
                    _stand_in_for_the_shell(ready_w)
            os.close(ready_w)
            return child
        except OSError as exc:
            os.write(ready_w, str(exc.errno or 0).encode())
            os._exit(127)
        except BaseException:  # never back into the zygote's loop in a child
            os.write(ready_w, b"0")
            os._exit(127)
    os.close(ready_w)
    for fd in fds:
        os.close(fd)
    report = b""
    while True:
        chunk = os.read(ready_r, 64)
        if not chunk:
            break
        report += chunk
    os.close(ready_r)
    if report:
        os.waitpid(pid, 0)
        _send(sock, {"op": "failed", "id": request["id"], "errno": int(report)})
        return None
    pidfd = os.pidfd_open(pid)
    exits[pidfd] = pid
    poller.register(pidfd, select.POLLIN)
    _send(sock, {"op": "started", "id": request["id"], "pid": pid})
    return None


def _stand_in_for_the_shell(ready_w: int) -> None:
    """Under a shell that forks its command (dash), the hook's pid, session and group are
    the shell's and Python is its child: this process stays as the shell (its status,
    and its note on stderr for a command killed by a signal) and the child runs on."""
    pid = os.fork()
    if pid == 0:
        return
    os.close(ready_w)
    signal = sys.modules["_signal"]
    for number in (signal.SIGINT, signal.SIGPIPE, signal.SIGXFSZ):
        signal.signal(number, signal.SIG_DFL)  # a shell's own dispositions
    _pid, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number not in (signal.SIGINT, signal.SIGPIPE):
            note = signal.strsignal(number) or f"Signal {number}"
            if os.WCOREDUMP(status):
                note += " (core dumped)"
            os.write(2, note.encode() + b"\n")
        os._exit(128 + number)
    os._exit(os.waitstatus_to_exitcode(status))


def _stand_in_for_uv(ready_w: int) -> None:
    """``uv run`` starts Python as its child in its own process group and waits: it
    forwards TERM, HUP, QUIT, USR1, USR2, ALRM, WINCH and PIPE at once, INT after 200 ms
    (its stdin is no terminal), and exits with the child's exit code, or 128 + N when
    the child died of signal N (uv's ``run_to_completion``). This process stays as uv."""
    signal = sys.modules["_signal"]
    forwarded = {getattr(signal, name) for name in _UV_FORWARDS} | {signal.SIGINT}
    # uv's handlers are in place long before a fresh Python gets to run a line; here
    # the child runs at once: signals wait (blocked) until this process handles them.
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, forwarded)
    pid = os.fork()
    if pid == 0:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        return
    os.close(ready_w)

    def forward(number: int, _frame: object) -> None:
        try:
            os.kill(pid, number)
        except OSError:
            pass

    def forward_later(number: int, frame: object) -> None:
        sys.modules["time"].sleep(0.2)
        forward(number, frame)

    for name in _UV_FORWARDS:
        signal.signal(getattr(signal, name), forward)
    signal.signal(signal.SIGINT, forward_later)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    _pid, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        os._exit(128 + os.WTERMSIG(status))
    os._exit(os.waitstatus_to_exitcode(status))


def _fd_limit() -> int:
    try:
        return os.sysconf("SC_OPEN_MAX")
    except (OSError, ValueError):
        return 1024


def _flush_io() -> None:
    """What CPython does between running a script and reporting how it ended."""
    for name in ("stderr", "stdout"):
        stream = getattr(sys, name, None)
        if stream is not None:
            try:
                stream.flush()
            except BaseException:  # ignored, as the interpreter ignores them here
                pass


def _become(child: _Child) -> "tuple[dict[str, Any], str]":
    """Turn this forked process into ``python <flags> script args...`` at its first line."""
    sys.argv = child.argv
    if hasattr(sys, "orig_argv"):
        sys.orig_argv = child.orig_argv
    script = os.fsdecode(child.file)
    if not (getattr(sys.flags, "safe_path", False) or sys.flags.isolated):
        sys.path.insert(0, os.path.dirname(os.path.realpath(child.argv[0])))
    for finder in sys.meta_path:
        invalidate = getattr(finder, "invalidate_caches", None)
        if invalidate is not None:
            invalidate()
    main = type(sys)("__main__")
    namespace = main.__dict__
    namespace["__annotations__"] = {}
    namespace["__builtins__"] = sys.modules["builtins"]
    namespace["__file__"] = script
    namespace["__cached__"] = None
    loader = sys.modules["_frozen_importlib_external"].SourceFileLoader
    namespace["__loader__"] = loader("__main__", script)
    sys.modules["__main__"] = main
    return namespace, script


def _strip(tb: Optional[TracebackType], code: Optional[CodeType]) -> Optional[TracebackType]:
    """The traceback from the script's own top-level frame on (hookd's frames dropped)."""
    while tb is not None and tb.tb_frame.f_code is not code:
        tb = tb.tb_next
    return tb


def _exit_status(exc: SystemExit) -> int:
    """``_Py_HandleSystemExit``: the status of a ``SystemExit`` leaving the script."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF if -(1 << 63) <= code < (1 << 63) else 0xFF
    stream = getattr(sys, "stderr", None)
    text = str(code)
    if stream is None:
        os.write(2, text.encode(errors="backslashreplace"))
    else:
        stream.write(text)
    stream = getattr(sys, "stderr", None)
    if stream is not None:
        stream.write("\n")
    return 1


def _report(exc: BaseException, code: Optional[CodeType]) -> Optional[int]:
    """``PyErr_Print`` for an exception leaving the script: ``sys.last_*``, then the
    script's ``sys.excepthook`` with the script's own traceback. A status when the
    excepthook itself raised ``SystemExit``."""
    tb = _strip(exc.__traceback__, code)
    exc.__traceback__ = tb
    sys.last_type, sys.last_value, sys.last_traceback = type(exc), exc, tb
    if sys.version_info >= (3, 12):
        sys.last_exc = exc
    hook = sys.__dict__.get("excepthook")
    if hook is None:
        sys.stderr.write("sys.excepthook is missing\n")
        sys.__excepthook__(type(exc), exc, tb)
        return None
    try:
        hook(type(exc), exc, tb)
    except SystemExit as hook_exit:
        return _exit_status(hook_exit)
    except BaseException as hook_error:  # what CPython prints for a failing excepthook
        sys.stderr.write("Error in sys.excepthook:\n")
        sys.__excepthook__(type(hook_error), hook_error, hook_error.__traceback__)
        sys.stderr.write("\nOriginal exception was:\n")
        sys.__excepthook__(type(exc), exc, tb)
    return None


def _flush_std_files(*names: str) -> bool:
    """``flush_std_files``: False when a flush failed (the exit status becomes 120)."""
    ok = True
    for name in names:
        stream = getattr(sys, name, None)
        if stream is None or getattr(stream, "closed", False):
            continue
        try:
            stream.flush()
        except BaseException as exc:  # reported as the interpreter reports it
            ok = False
            err = sys.stderr
            if name.endswith("stdout") and err is not None:
                err.write(f"Exception ignored in: {stream!r}\n")
                sys.__excepthook__(type(exc), exc, None)
    return ok


def _clear_module(namespace: "dict[Any, Any]") -> None:
    """``_PyModule_ClearDict``: single-underscore names first, then the rest."""
    for key in list(namespace):
        if isinstance(key, str) and key[:1] == "_" and key[1:2] != "_":
            namespace[key] = None
    for key in list(namespace):
        if isinstance(key, str) and key != "__builtins__" and namespace.get(key) is not None:
            namespace[key] = None


def _finalize(status: int, interrupted: bool, zygote_modules: "set[int]") -> None:
    """What ``Py_FinalizeEx`` does that a script can observe: join non-daemon threads,
    run atexit callbacks, flush stdout and stderr, drop the script's modules and collect
    them (finalizers see intact globals), clear what survives; then exit, without tearing
    down the preloaded modules (whose pages the child shares with the zygote: freeing
    them all would copy them all)."""
    threading = sys.modules.get("threading")
    if threading is not None:
        try:
            threading._shutdown()
        except BaseException as exc:  # as wait_for_thread_shutdown reports it
            sys.stderr.write(f"Exception ignored in: {threading!r}\n")
            tb = exc.__traceback__
            sys.__excepthook__(type(exc), exc, tb.tb_next if tb is not None else None)
    atexit = sys.modules.get("atexit")
    if atexit is not None:
        atexit._run_exitfuncs()
    if not _flush_std_files("stdout", "stderr"):
        status = 120
    if gc.isenabled():
        gc.collect()
    for name in ("last_type", "last_value", "last_traceback", "last_exc"):
        if hasattr(sys, name):
            setattr(sys, name, None)
    sys.stdin, sys.stdout, sys.stderr = sys.__stdin__, sys.__stdout__, sys.__stderr__
    weakref = sys.modules["_weakref"]
    left = []
    for name, module in list(sys.modules.items()):
        if id(module) not in zygote_modules:
            sys.modules[name] = None  # type: ignore[assignment]
            try:
                left.append(weakref.ref(module))
            except TypeError:
                pass
    del module
    gc.collect()
    for ref in reversed(left):
        alive = ref()
        if alive is not None:
            _clear_module(alive.__dict__)
        del alive
    gc.collect()
    if not _flush_std_files("__stdout__", "__stderr__"):
        status = 120
    if interrupted:
        signal = sys.modules["_signal"]
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
        status = 128 + signal.SIGINT
    os._exit(status)


_child = _serve()
_zygote_modules = {id(module) for module in sys.modules.values()}
_namespace, _script = _become(_child)
_code: Optional[CodeType] = None
_status: Optional[int] = 0
_interrupted = False
try:
    with open(_script, "rb") as _source:
        _text = _source.read()
    _code = compile(_text, _script, "exec", dont_inherit=True)
    del _text, _source
    exec(_code, _namespace)
except SystemExit as _exit:
    _flush_io()
    _status = _exit_status(_exit)
    del _exit
except BaseException as _uncaught:
    _flush_io()
    _interrupted = isinstance(_uncaught, KeyboardInterrupt)
    _status = _report(_uncaught, _code)
    del _uncaught
    if _status is None:
        _status = 1
        _namespace.pop("__file__", None)
        _namespace.pop("__cached__", None)
else:
    _flush_io()
    _namespace.pop("__file__", None)
    _namespace.pop("__cached__", None)
_namespace = _code = None  # type: ignore[assignment]  # the script's globals go with it
_finalize(1 if _status is None else _status, _interrupted, _zygote_modules)
