"""A stdio MCP server with one tool, ``echo_it`` (standard library only): what Gemini CLI's
MCP tools look like to its hooks (``mcp_<server>_<tool>``, ``mcp_context``).

    python mcp_echo.py   (configured under ``mcpServers`` in the case's settings)
"""

from __future__ import annotations

import json
import sys
from typing import Any

TOOL = {"name": "echo_it", "description": "echo the text",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}},
                        "required": ["text"]}}  # fmt: skip


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """The reply to one JSON-RPC message (None for a notification)."""
    ident, method = message.get("id"), message.get("method")
    if ident is None:
        return None
    if method == "initialize":
        version = message.get("params", {}).get("protocolVersion", "2024-11-05")
        result: dict[str, Any] = {"protocolVersion": version, "capabilities": {"tools": {}},
                                  "serverInfo": {"name": "echo", "version": "1"}}  # fmt: skip
    elif method == "tools/list":
        result = {"tools": [TOOL]}
    elif method == "tools/call":
        said = json.dumps(message.get("params", {}).get("arguments"))
        result = {"content": [{"type": "text", "text": f"echo: {said}"}]}
    else:
        result = {}
    return {"jsonrpc": "2.0", "id": ident, "result": result}


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        reply = answer(json.loads(line))
        if reply is not None:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
