"""Which user is on the other end of a loopback TCP connection (Linux ``sock_diag``).

A Unix socket tells its peer's uid (``SO_PEERCRED``); TCP does not, yet on loopback both
ends are sockets of this machine, and the kernel knows who owns each. One exact lookup
of the client's socket (``SOCK_DIAG_BY_FAMILY`` on a ``NETLINK_SOCK_DIAG`` socket, what
``ss`` uses; no privilege needed) returns its owner's uid and its TCP state, without
scanning ``/proc/net/tcp``. Only an established socket counts: one its owner has already
closed is reported as root's.
"""

from __future__ import annotations

import errno
import ipaddress
import itertools
import os
import socket
import struct
from dataclasses import dataclass

NETLINK_SOCK_DIAG = 4
SOCK_DIAG_BY_FAMILY = 20
NLMSG_ERROR = 2
NLM_F_REQUEST = 1
TCP_ESTABLISHED = 1
_NO_COOKIE = 0xFFFFFFFF
_HEADER = struct.Struct("=IHHII")  # nlmsghdr: length, type, flags, seq, pid
_REQUEST = struct.Struct("=BBBBI")  # inet_diag_req_v2: family, protocol, ext, pad, states
_ENDS = struct.Struct("!HH16s16s")  # inet_diag_sockid: sport, dport, src, dst (network order)
_TAIL = struct.Struct("=III")  # inet_diag_sockid: interface, cookie[2]
_MESSAGE = struct.Struct("=BBBB")  # inet_diag_msg: family, state, timer, retrans
_OWNER = struct.Struct("=IIIII")  # then: expires, rqueue, wqueue, uid, inode
_SOCKID_BYTES = _ENDS.size + _TAIL.size
_sequence = itertools.count(1)


class PeerUnknown(OSError):
    """The kernel could not say who owns the client's socket."""


@dataclass(frozen=True, slots=True)
class TcpPeer:
    uid: int
    established: bool


def tcp_peer(local: tuple[str, int], remote: tuple[str, int]) -> TcpPeer:
    """The owner of the socket at ``remote`` connected to ``local`` (both loopback
    addresses as ``getsockname()`` / ``getpeername()`` give them).

    Raises:
        PeerUnknown: no such socket, or no ``sock_diag`` on this system.
    """
    family = socket.AF_INET6 if ":" in local[0] else socket.AF_INET
    # Seen from the client's socket: it is the source, the listener the destination.
    request = _REQUEST.pack(family, socket.IPPROTO_TCP, 0, 0, 0xFFFFFFFF)
    request += _ENDS.pack(remote[1], local[1], _packed(remote[0]), _packed(local[0]))
    request += _TAIL.pack(0, _NO_COOKIE, _NO_COOKIE)
    sequence = next(_sequence) & 0xFFFFFFFF
    header = _HEADER.pack(_HEADER.size + len(request), SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST,
                          sequence, 0)  # fmt: skip
    try:
        with socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, NETLINK_SOCK_DIAG) as diag:
            diag.settimeout(1.0)
            diag.sendto(header + request, (0, 0))
            reply = diag.recv(65536)
    except (OSError, AttributeError) as exc:  # AttributeError: no AF_NETLINK (not Linux)
        raise PeerUnknown(errno.EOPNOTSUPP, f"no sock_diag here: {exc}") from None
    return _parse(reply, sequence)


def _packed(address: str) -> bytes:
    """An address as ``inet_diag_sockid`` holds it: 16 bytes, IPv4 in the first four."""
    return ipaddress.ip_address(address.split("%")[0]).packed.ljust(16, b"\0")


def _parse(reply: bytes, sequence: int) -> TcpPeer:
    if len(reply) < _HEADER.size:
        raise PeerUnknown(errno.EPROTO, "short sock_diag reply")
    _length, kind, _flags, seq, _pid = _HEADER.unpack_from(reply)
    if seq != sequence:
        raise PeerUnknown(errno.EPROTO, "sock_diag answered another request")
    if kind == NLMSG_ERROR:
        (code,) = struct.unpack_from("=i", reply, _HEADER.size)
        raise PeerUnknown(-code, f"sock_diag: {errno.errorcode.get(-code, -code)}")
    body = _HEADER.size
    if len(reply) < body + _MESSAGE.size + _SOCKID_BYTES + _OWNER.size:
        raise PeerUnknown(errno.EPROTO, "short sock_diag message")
    _family, state, _timer, _retrans = _MESSAGE.unpack_from(reply, body)
    *_, uid, _inode = _OWNER.unpack_from(reply, body + _MESSAGE.size + _SOCKID_BYTES)
    return TcpPeer(uid=uid, established=state == TCP_ESTABLISHED)


def check_available() -> None:
    """Look up one loopback connection of our own.

    Raises:
        PeerUnknown: this system cannot say who owns a TCP socket (not Linux, or no
            ``inet_diag``), so the http entry could not refuse other users.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        with socket.create_connection(listener.getsockname(), timeout=1.0):
            served, _ = listener.accept()
            with served:
                peer = tcp_peer(served.getsockname(), served.getpeername())
            if peer.uid != os.geteuid():
                raise PeerUnknown(errno.EPROTO, f"sock_diag named uid {peer.uid} for our own "
                                  f"socket (we are {os.geteuid()})")  # fmt: skip
