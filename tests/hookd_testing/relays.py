"""The two relay programs, for tests that run both (issue 30): the Python relay and the
native one this installation built (``client/python/native``), each as a command line
to which the entry's arguments are added. ``ENTRY_RELAY`` is the one ``hookd adopt`` and
``relay install`` write into the entries (the native one, where it is installed)."""

from __future__ import annotations

import sys

import pytest

from hookd.daemon.cli.relay_program import native_relay, relay_path

PYTHON_RELAY = [sys.executable, "-m", "hookd.relay"]
NATIVE = native_relay()
ENTRY_RELAY = relay_path()
KINDS = ("python", "native")


def relay_command(kind: str) -> list[str]:
    """The relay of ``kind`` as a command line (a test of the native relay is skipped
    where it is not installed; ``test_relay_native`` fails there instead, once)."""
    if kind == "python":
        return list(PYTHON_RELAY)
    if NATIVE is None:
        pytest.skip("no native relay installed (see test_the_native_relay_is_installed)")
    return [NATIVE]
