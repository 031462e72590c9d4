"""Access to the OpenRPC document that describes the protocol (``openrpc.json``)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def load_openrpc() -> dict[str, Any]:
    """The OpenRPC 1.3 document shipped with this package (served by ``rpc.discover``)."""
    text = resources.files("hookd.protocol").joinpath("openrpc.json").read_text("utf-8")
    document: dict[str, Any] = json.loads(text)
    return document
