"""A loopback stand-in of Anthropic's Messages API that a real Claude Code can run against.

It plays a script of turns, each either a tool use the model "proposes" or a final text:

    script = [tool_use("Bash", {"command": "echo hello > hello.txt"}), text("done")]
    with MessagesStandIn(script) as api:
        env["ANTHROPIC_BASE_URL"] = api.url
        ...  # run `claude -p ...`; then look at api.bodies(), api.tool_results()

What it serves:
  * `POST /v1/messages` (any query, e.g. `?beta=true`): a streamed reply (server-sent events)
    when the body says `"stream": true`, one JSON message otherwise. The stream is the event
    sequence of the real API: `message_start` (a message with empty content), then per block
    `content_block_start`, one `content_block_delta` (`text_delta`, or `input_json_delta` with
    the tool input as JSON text), `content_block_stop`; then `message_delta` (`stop_reason`
    "tool_use" or "end_turn", and `usage`) and `message_stop`.
  * `POST /v1/messages/count_tokens`: `{"input_tokens": N}`.
  * `HEAD`/`GET` anything: 200 with `{}` for `/`, the real API's 404 error JSON otherwise;
    any other `POST`: 404 error JSON.

Which turn answers a request: only requests that offer `tools` play the script (Claude Code also
asks side questions with no tools, e.g. a short haiku-model call for a title; those get a short
text and leave the script alone). The turn played is the one at the index given by the number of
assistant messages already in the conversation, so a retried request gets the same turn again,
and the tool results that came back are read from the conversation (see `tool_results`). When the
script runs out the reply is a final text saying so, and `exhausted` is set, so the host stops
instead of retrying.

It is bounded: at most `max_requests` requests are answered (the rest get 500) and the server
stops by itself after `max_seconds`.
"""

from __future__ import annotations

import itertools
import json
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit


@dataclass(frozen=True)
class ToolUse:
    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class Text:
    text: str


Turn = ToolUse | Text


def tool_use(name: str, input: dict[str, Any]) -> ToolUse:
    return ToolUse(name, input)


def text(words: str) -> Text:
    return Text(words)


@dataclass(frozen=True)
class Received:
    """One request as the stand-in got it; header names are lower-case, `body` is parsed JSON."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any


EXHAUSTED = "The stand-in's script is exhausted."
SIDE_ANSWER = "Scripted session"


class MessagesStandIn:
    def __init__(self, script: list[Turn], *, max_requests: int = 200, max_seconds: float = 300.0,
                 input_tokens: int = 100, output_tokens: int = 10) -> None:
        self.script = list(script)
        self.max_requests = max_requests
        self.max_seconds = max_seconds
        self.input_tokens = input_tokens
        self.output_tokens = output_tokens
        self.requests: list[Received] = []
        self.exhausted = False
        self.played: list[int] = []  # the script index each main-conversation request was answered with
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._timer: threading.Timer | None = None

    # --- what tests look at -------------------------------------------------------------------

    @property
    def url(self) -> str:
        assert self._server is not None, "the stand-in is not started"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def bodies(self) -> list[dict[str, Any]]:
        """The body of every `POST /v1/messages`, in order."""
        return [r.body for r in self.requests
                if r.method == "POST" and urlsplit(r.path).path == "/v1/messages" and isinstance(r.body, dict)]

    def main_bodies(self) -> list[dict[str, Any]]:
        """The bodies of the requests that played the script (those offering tools)."""
        return [body for body in self.bodies() if body.get("tools")]

    def models(self) -> list[str]:
        return [str(body.get("model")) for body in self.bodies()]

    def tool_results(self) -> list[dict[str, Any]]:
        """The `tool_result` blocks in the latest main-conversation request, in order."""
        bodies = self.main_bodies()
        if not bodies:
            return []
        return [block for message in bodies[-1].get("messages", []) if message.get("role") == "user"
                for block in _blocks(message) if block.get("type") == "tool_result"]

    # --- lifecycle ----------------------------------------------------------------------------

    def start(self) -> "MessagesStandIn":
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _answer(self, method: str) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                request = Received(method, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                with owner._lock:
                    owner.requests.append(request)
                    status, content_type, data = owner._respond(request)
                self.send_response(status)
                self.send_header("content-type", content_type)
                self.send_header("content-length", str(len(data)))
                self.send_header("request-id", f"req_standin_{len(owner.requests):04d}")
                self.end_headers()
                if method != "HEAD":
                    self.wfile.write(data)

            def do_POST(self) -> None:
                self._answer("POST")

            def do_GET(self) -> None:
                self._answer("GET")

            def do_HEAD(self) -> None:
                self._answer("HEAD")

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,),
                                        name="MessagesStandIn", daemon=True)
        self._thread.start()
        self._timer = threading.Timer(self.max_seconds, self._shutdown)
        self._timer.daemon = True
        self._timer.start()
        return self

    def _shutdown(self) -> None:
        server = self._server
        if server is not None:
            server.shutdown()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> "MessagesStandIn":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- answers ------------------------------------------------------------------------------

    def _respond(self, request: Received) -> tuple[int, str, bytes]:
        path = urlsplit(request.path).path.rstrip("/") or "/"
        if len(self.requests) > self.max_requests:
            return _error(500, "api_error", "the stand-in answered its maximum number of requests")
        if request.method in ("GET", "HEAD"):
            if path == "/":
                return 200, "application/json", b"{}"
            return _error(404, "not_found_error", f"Not found: {path}")
        body = request.body if isinstance(request.body, dict) else {}
        if path == "/v1/messages/count_tokens":
            return 200, "application/json", json.dumps({"input_tokens": self.input_tokens}).encode()
        if path != "/v1/messages":
            return _error(404, "not_found_error", f"Not found: {path}")
        if not isinstance(request.body, dict) or not isinstance(body.get("messages"), list):
            return _error(400, "invalid_request_error", "messages: Field required")
        turn = self._turn_for(body)
        message = self._message(body, turn)
        if body.get("stream"):
            return 200, "text/event-stream", _sse(message)
        return 200, "application/json", json.dumps(message).encode()

    def _turn_for(self, body: dict[str, Any]) -> Turn:
        if not body.get("tools"):
            return Text(SIDE_ANSWER)
        index = sum(1 for message in body["messages"] if message.get("role") == "assistant")
        self.played.append(index)
        if index >= len(self.script):
            self.exhausted = True
            return Text(EXHAUSTED)
        return self.script[index]

    def _message(self, body: dict[str, Any], turn: Turn) -> dict[str, Any]:
        if isinstance(turn, ToolUse):
            block: dict[str, Any] = {"type": "tool_use", "id": f"toolu_standin_{next(self._ids):04d}",
                                     "name": turn.name, "input": turn.input}
            stop = "tool_use"
        else:
            block = {"type": "text", "text": turn.text}
            stop = "end_turn"
        return {
            "id": f"msg_standin_{next(self._ids):04d}", "type": "message", "role": "assistant",
            "model": str(body.get("model") or "claude-standin"), "content": [block],
            "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": self.input_tokens, "output_tokens": self.output_tokens,
                      "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
        }


def _blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [block for block in content or [] if isinstance(block, dict)]


def _sse(message: dict[str, Any]) -> bytes:
    """The message as the real API streams it."""
    events: list[dict[str, Any]] = [{
        "type": "message_start",
        "message": {**message, "content": [], "stop_reason": None, "stop_sequence": None,
                    "usage": {**message["usage"], "output_tokens": 1}},
    }]
    for index, block in enumerate(message["content"]):
        if block["type"] == "tool_use":
            start = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        events += [
            {"type": "content_block_start", "index": index, "content_block": start},
            {"type": "content_block_delta", "index": index, "delta": delta},
            {"type": "content_block_stop", "index": index},
        ]
    events += [
        {"type": "message_delta", "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
         "usage": {"output_tokens": message["usage"]["output_tokens"]}},
        {"type": "message_stop"},
    ]
    return "".join(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n" for event in events).encode()


def _error(status: int, kind: str, message: str) -> tuple[int, str, bytes]:
    return status, "application/json", json.dumps({"type": "error", "error": {"type": kind, "message": message}}).encode()
