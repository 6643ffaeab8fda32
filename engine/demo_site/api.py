"""The JSON endpoints evaluators and task setups use: read the whole state, or reset it to a known start."""

from __future__ import annotations

from engine.demo_site.app import App
from engine.demo_site.exchange import Request, Response, json_response
from engine.demo_site.reset import start_from


def state(app: App, request: Request) -> Response:
    return json_response(app.state.snapshot())


def reset(app: App, request: Request) -> Response:
    """Replace everything with the start the body asks for (see `reset.start_from`); answers the new state."""
    app.state.reset(start_from(request.body))
    return json_response(app.state.snapshot())
