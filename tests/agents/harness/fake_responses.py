"""A scripted stand-in for the OpenAI Responses API, on 127.0.0.1 (standard library only),
for Codex CLI (``wire_api = "responses"``).

Each case's turns are keyed by a ``case:<id>`` tag its prompt carries (Codex sends the
whole conversation every time, so every request of the case has it). Turn N answers the
N-th tagged request: a function call (``{"tool": "exec_command", "args": {...}}``, Codex's
shell tool), a custom tool call (``{"custom": "apply_patch", "input": "*** Begin
Patch..."}``) or a final text (``{"text": ...}``); several items of one answer go in
``{"items": [...]}``. Once a case's turns are used up it answers ``done.``: a Stop hook
that makes Codex go on gets a final text, never the tool call again. Every request body is
recorded (``requests.jsonl``): the next request shows what the hooks put before the model
(developer messages, a block reason in the tool output, a ``<hook_prompt>``).

Codex reads the answer only as a stream (``text/event-stream``): ``response.created``,
then ``response.output_item.added`` and ``.done`` per item, then ``response.completed``
with the usage (Codex reports token counts to PostModelRequest hooks). ``GET .../models``
answers an empty list (Codex then uses its bundled model catalog).
"""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from scripted import Script, publish_port

DONE = {"text": "done."}
USAGE = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
         "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}  # fmt: skip


def _items(turn: dict[str, Any], serial: int) -> list[dict[str, Any]]:
    """The output items of one scripted turn (call ids are unique across the run)."""
    parts = turn.get("items") or [turn]
    items = []
    for index, part in enumerate(parts):
        call_id = part.get("call_id", f"call_{serial}_{index}")
        if "tool" in part:
            item = {"type": "function_call", "id": f"fc_{serial}_{index}", "call_id": call_id,
                    "name": part["tool"], "arguments": json.dumps(part.get("args", {}))}  # fmt: skip
            if "namespace" in part:  # a tool of a namespace (Codex's subagent tools)
                item["namespace"] = part["namespace"]
            items.append(item)
        elif "custom" in part:
            items.append({"type": "custom_tool_call", "id": f"ctc_{serial}_{index}",
                          "call_id": call_id, "name": part["custom"], "input": part["input"],
                          "status": "completed"})  # fmt: skip
        else:
            items.append({"type": "message", "role": "assistant", "id": f"msg_{serial}_{index}",
                          "status": "completed",
                          "content": [{"type": "output_text", "text": part.get("text", "done."),
                                       "annotations": []}]})  # fmt: skip
    return items


def _sse(turn: dict[str, Any], serial: int) -> bytes:
    response_id = f"resp_{serial}"
    events: list[dict[str, Any]] = [{"type": "response.created", "response": {"id": response_id}}]
    for index, item in enumerate(_items(turn, serial)):
        events.append({"type": "response.output_item.added", "output_index": index, "item": item})
        events.append({"type": "response.output_item.done", "output_index": index, "item": item})
    events.append({"type": "response.completed", "response": {"id": response_id, "usage": USAGE}})
    return b"".join(
        f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode() for event in events
    )


def new_script(turns: dict[str, list[dict[str, Any]]], log_path: str) -> Script:
    """This backend's script: a case's turns, then ``done.`` for any request after them."""
    return Script(turns, log_path, when_done=DONE)


def serve(port_file: str, script: Script, port: int = 0) -> None:
    """Answer on 127.0.0.1:``port`` (0: any free port) until the process ends."""
    counter = iter(range(1, 1_000_000))

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("content-length", 0)))
            if not self.path.endswith("/responses"):
                self._send(404, "application/json", b'{"error": {"message": "not here"}}')
                return
            body = json.loads(raw or b"{}")
            turn = script.answer(body, json.dumps(body.get("input", [])))
            self._send(200, "text/event-stream", _sse(turn, next(counter)))

        def do_GET(self) -> None:
            self._send(200, "application/json", b'{"data": [], "models": []}')

        def _send(self, status: int, kind: str, data: bytes) -> None:
            self.send_response(status)
            self.send_header("content-type", kind)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    publish_port(server.server_address[1], port_file)
    server.serve_forever()
