"""``procfs.unix_listeners`` (how ``hookd doctor`` finds other daemons' sockets) against
socket names made to break it: ``/proc/net/unix`` prints paths raw, so any local user can
bind one whose name holds a newline and a forged entry."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from hookd.daemon import procfs


@pytest.mark.skipif(not os.path.exists("/proc/net/unix"), reason="no /proc (not Linux)")
def test_a_socket_named_to_forge_an_entry_neither_crashes_nor_forges(short_dir: Path) -> None:
    honest = socket.socket(socket.AF_UNIX)
    honest.bind(str(short_dir / "honest.sock"))
    honest.listen(1)
    inode = os.fstat(honest.fileno()).st_ino
    # a folder whose name ends the real entry and starts a forged one claiming the honest
    # socket's inode, and a garbage one: "<dir>/x\n0000: ... <inode> " + "/forged.sock"
    forged = short_dir / f"x\n0000: 00000002 00000000 00010000 0001 01 {inode} "
    forged.mkdir()
    garbage = short_dir / "y\n0000: 00000002 00000000 zz 0001 01 7 "
    garbage.mkdir()
    hostile = [socket.socket(socket.AF_UNIX), socket.socket(socket.AF_UNIX)]
    try:
        for sock, folder in zip(hostile, (forged, garbage), strict=True):
            sock.bind(str(folder / "f.sock"))
            sock.listen(1)
        found = procfs.unix_listeners()
    finally:
        for sock in [honest, *hostile]:
            sock.close()

    assert "/f.sock" not in found.values()
    assert found.get(inode) in (str(short_dir / "honest.sock"), None)
