"""Access to the OpenRPC document that describes the protocol (``openrpc.json``)."""

from __future__ import annotations

import json
import os
from typing import Any

_cached: dict[str, Any] | None = None


def load_openrpc() -> dict[str, Any]:
    """The OpenRPC 1.3 document shipped with this package (served by ``rpc.discover``)."""
    global _cached
    if _cached is None:
        path = os.path.join(os.path.dirname(__file__), "openrpc.json")
        with open(path, encoding="utf-8") as handle:
            _cached = json.load(handle)
    return _cached
