"""Claude Code's ``http`` hook entry: hookd listens on ``127.0.0.1:http_port`` so the
agent's hooks reach it with no process spawned per event (``http_entry = true``).

Each request is a ``hookd-relay claude`` in HTTP: the event fired with ``relay: true``,
answered as Claude Code reads an http hook's answer (200 with the combined output as
JSON, or an empty 200 when there is nothing to say; any refusal is a status Claude Code
reports as a failed hook, which lets the action go on unless the entry says
``onFailure: "block"``).

Only the user's own agent may drive it. A TCP port is open to every local user and to
every web page, so a request is refused (403) when the socket on the other end is not
owned by this daemon's user or root (``tcp_peer``), when its ``Host`` is not this
daemon's, or when it carries a browser's ``Origin`` / ``Sec-Fetch-*``; without the passcode
(401); and unless it is ``POST /hookd-relay``, JSON, of a bounded size, arriving whole
within ``message_timeout_s`` (``http_request``). One request per connection; a client
that hangs up before the answer cancels its fire, and its hooks are killed.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import time
from collections import Counter
from typing import Any

import structlog
import trio

from ..errors import UserError
from ..model import FireRequest
from ..statcache import StatCache
from .context import Services
from .http_fire import relay_fire, relay_request
from .http_passcode import ENTRY_PATH, load
from .http_request import ClientGone, Refused, answer, parse_event, read_request
from .http_request import refusal as refusal_bytes
from .tcp_peer import PeerUnknown, check_available, tcp_peer

log = structlog.get_logger("hookd.http")
HOST = "127.0.0.1"
SEND_TIMEOUT_S = 10.0
LINGER_S = 1.0
"""After answering, how long the client may take to read and hang up (closing a socket
with unread input resets it, which could lose the answer to an early refusal)."""
LINGER_BYTES = 1024 * 1024
_LOG_EVERY_S = 10.0


class HttpEntry:
    """The listener, its connections, and what they did (``view`` for ``status``)."""

    def __init__(self, services: Services, passcode: str, passcode_file: str) -> None:
        self.services = services
        self.settings = services.settings
        self.port = self.settings.http_port
        self.passcode = passcode
        self.passcode_file = passcode_file
        self.listener: trio.SocketListener | None = None
        self.open = 0
        self.served = 0
        self.abandoned = 0
        self.refused: Counter[int] = Counter()
        self._closing = False
        self._drained = trio.Event()
        """Set when the last connection ends after ``stop``."""
        self._fires: set[trio.CancelScope] = set()
        self._numbers = iter(range(1, 1 << 62))
        self._logged: dict[int, float] = {}
        self._passcodes: StatCache[str | None] = StatCache()

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}{ENTRY_PATH}"

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Listen (``task_status.started`` once bound), serve until cancelled."""
        try:
            check_available()
        except PeerUnknown as exc:
            raise UserError(f"http_entry needs to tell which user is on the other end of a "
                            f"loopback connection, and this system cannot ({exc.strerror}: "
                            "Linux's sock_diag); set http_entry = false") from None  # fmt: skip
        self.listener = await _bind(self.port)
        self.port = self.listener.socket.getsockname()[1]  # http_port 0: the one given (tests)
        log.info("http_entry_listening", url=self.url)
        async with trio.open_nursery() as nursery:
            task_status.started()
            while True:
                try:
                    stream = await self.listener.accept()
                except trio.ClosedResourceError:
                    return  # stop() closed it
                except OSError as exc:  # out of descriptors: refuse for a moment, never die
                    log.warning("http_accept_failed", error=exc.strerror)
                    await trio.sleep(0.1)
                    continue
                self.open += 1  # counted now, before its task starts
                nursery.start_soon(self._serve, stream)

    async def stop(self, grace_s: float) -> None:
        """Refuse new requests, cancel the fires in flight (answered 503, their hooks
        killed) and give the answers ``grace_s`` to leave."""
        self._closing = True
        if self.listener is not None:
            await self.listener.aclose()
        for scope in list(self._fires):
            scope.cancel()
        with trio.move_on_after(grace_s):
            if self.open:
                await self._drained.wait()

    def view(self) -> dict[str, Any]:
        """The ``httpEntry`` part of ``status``."""
        return {
            "url": self.url,
            "passcodeFile": self.passcode_file,
            "open": self.open,
            "served": self.served,
            "abandoned": self.abandoned,
            "refused": {str(status): n for status, n in sorted(self.refused.items())},
        }

    async def _serve(self, stream: trio.SocketStream) -> None:
        try:
            reply = await self._reply(stream)
            if reply is not None:
                with trio.move_on_after(SEND_TIMEOUT_S):
                    await stream.send_all(reply)
                    await _linger(stream)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass  # the client went away; nothing to answer
        finally:
            self.open -= 1
            if self._closing and not self.open:
                self._drained.set()
            await trio.aclose_forcefully(stream)

    async def _reply(self, stream: trio.SocketStream) -> bytes | None:
        """The answer to the connection's one request (None: nobody left to answer)."""
        uid = -1
        try:
            if self.open > self.settings.max_connections:
                raise Refused(503, f"hookd serves at most {self.settings.max_connections} "
                              "connections at once (max_connections); try again")  # fmt: skip
            uid = self._peer_uid(stream)
            with trio.move_on_after(self.settings.message_timeout_s) as waited:
                body = await read_request(
                    stream, port=self.port, passcode=self._current_passcode(),
                    passcode_file=self.passcode_file,
                    max_body_bytes=self.settings.max_message_bytes,
                )  # fmt: skip
            if waited.cancelled_caught:
                limit = self.settings.message_timeout_s
                raise Refused(408, f"the request did not arrive whole within {limit:g} s "
                              "(message_timeout_s)")  # fmt: skip
            request_id = f"http-{next(self._numbers)}"
            request = relay_request(self.services, parse_event(body), request_id)
            if self._closing:
                raise Refused(503, "hookd is shutting down; the next event starts a new one")
            result = await self._fire(stream, request, uid, request_id)
        except Refused as refused:
            self._note_refusal(refused, uid)
            return refusal_bytes(refused)
        except ClientGone:
            return None
        except Exception:  # a bug in one request must not end the daemon
            log.exception("http_entry_failed")
            self.refused[500] += 1
            return refusal_bytes(Refused(500, "hookd failed on this event (a bug: see "
                                         "hookd's log and please report it)"))  # fmt: skip
        if result is None:
            self.abandoned += 1
            return None
        self.served += 1
        native = result.get("native") or {}
        return answer(200, json.dumps(native).encode() if native else b"")

    def _current_passcode(self) -> str:
        """The passcode file's, read again when the file changed (a new passcode works
        without a restart); while there is no file, the last one."""
        try:
            found = self._passcodes.get(self.passcode_file, self._read_passcode)
        except UserError as exc:
            raise Refused(500, str(exc)) from None
        if found is not None:
            self.passcode = found
        return self.passcode

    def _read_passcode(self) -> str | None:
        return load(self.settings.state_dir)

    def _peer_uid(self, stream: trio.SocketStream) -> int:
        """The uid that owns the client's socket; Refused unless ours or root's."""
        try:
            local, remote = stream.socket.getsockname(), stream.socket.getpeername()
        except OSError:
            raise ClientGone from None  # it hung up before it was looked at
        try:
            peer = tcp_peer(local[:2], remote[:2])
        except PeerUnknown as exc:
            raise Refused(403, f"cannot tell who is connecting ({exc.strerror})") from None
        mine = os.geteuid()
        if not peer.established or peer.uid not in (mine, 0):
            who = f"uid {peer.uid}" if peer.established else "a connection being closed"
            raise Refused(403, f"this hookd serves uid {mine}'s agent only, not {who}")
        return peer.uid

    async def _fire(
        self, stream: trio.SocketStream, request: FireRequest, uid: int, request_id: str
    ) -> dict[str, Any] | None:
        """Fire, unless the client hangs up first (None: its fire was cancelled)."""
        results: list[dict[str, Any]] = []
        hung_up = False
        async with trio.open_nursery() as nursery:

            async def watch() -> None:
                nonlocal hung_up
                await _hangup(stream)
                hung_up = True
                nursery.cancel_scope.cancel()

            nursery.start_soon(watch)
            self._fires.add(nursery.cancel_scope)
            try:
                results.append(dict(await relay_fire(self.services, request, uid, request_id)))
            finally:
                self._fires.discard(nursery.cancel_scope)
            nursery.cancel_scope.cancel()
        if results or hung_up:
            return results[0] if results else None
        raise Refused(503, "hookd is shutting down; the next event starts a new one")

    def _note_refusal(self, refused: Refused, uid: int) -> None:
        self.refused[refused.status] += 1
        now = time.monotonic()
        if now - self._logged.get(refused.status, -_LOG_EVERY_S) >= _LOG_EVERY_S:
            self._logged[refused.status] = now  # a flood of refusals is not a flood of lines
            log.warning("http_refused", status=refused.status, reason=refused.message,
                        uid=uid if uid >= 0 else None,
                        so_far=self.refused[refused.status])  # fmt: skip


async def _bind(port: int) -> trio.SocketListener:
    sock = trio.socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        # TIME_WAIT leftovers of a previous daemon do not hold the port; a live listener
        # still does (EADDRINUSE).
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        await sock.bind((HOST, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise UserError(
                f"http_port {port} on {HOST} is taken by another program (`ss -ltnp 'sport = "
                f":{port}'` names it). hookd will not start: your agent's http hook entries "
                "would reach that program instead. Stop it, or choose another http_port in "
                "hookd's config and run 'hookd relay install --agent claude --http' again"
            ) from None
        raise UserError(f"cannot listen on {HOST}:{port} for the http entry: {exc.strerror}; "
                        "choose another http_port (1024-32767) in hookd's config"
                        ) from None  # fmt: skip
    return trio.SocketListener(sock)


async def _hangup(stream: trio.SocketStream) -> None:
    """Return when the client closes its end (what it sends past its request, up to a
    cap, is dropped; past the cap it counts as gone)."""
    received = 0
    while received <= LINGER_BYTES:
        try:
            data = await stream.receive_some(65536)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return
        if not data:
            return
        received += len(data)


async def _linger(stream: trio.SocketStream) -> None:
    """Half-close, then read what the client still sends until it hangs up (bounded)."""
    with trio.move_on_after(LINGER_S):
        await stream.send_eof()
        await _hangup(stream)
