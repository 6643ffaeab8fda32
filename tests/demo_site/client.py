"""A small urllib client for the demo site: a cookie jar (flash messages ride in a cookie) and no exceptions for 4xx."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from http.cookiejar import CookieJar
from typing import Any
from urllib.parse import urlencode


@dataclass(frozen=True)
class Answer:
    status: int
    url: str
    text: str

    def json(self) -> Any:
        return json.loads(self.text)


class Client:
    def __init__(self, base: str) -> None:
        self.base = base
        self._opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))

    def get(self, path: str) -> Answer:
        return self._send(urllib.request.Request(self.base + path))

    def post(self, path: str, body: bytes, content_type: str = "application/x-www-form-urlencoded") -> Answer:
        """POST and follow the redirect, as a browser does after a form."""
        return self._send(urllib.request.Request(self.base + path, body, {"Content-Type": content_type}))

    def submit(self, path: str, fields: dict[str, str]) -> Answer:
        return self.post(path, urlencode(fields).encode())

    def state(self) -> dict[str, Any]:
        return self.get("/api/state").json()

    def reset(self, **start: Any) -> Answer:
        return self.post("/api/reset", json.dumps(start).encode(), "application/json")

    def _send(self, request: urllib.request.Request) -> Answer:
        try:
            with self._opener.open(request, timeout=10) as response:
                return Answer(response.status, response.url, response.read().decode("utf-8"))
        except urllib.error.HTTPError as error:
            with error:
                return Answer(error.code, error.url, error.read().decode("utf-8"))
