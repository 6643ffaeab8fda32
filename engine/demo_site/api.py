"""The JSON endpoints evaluators, task setups and API actions use: read the whole state, reset it to a known
start, or create and delete a contact by its id (the pair a compensable action and its compensator need)."""

from __future__ import annotations

import json
from http import HTTPStatus

from engine.demo_site.app import App
from engine.demo_site.exchange import NotFound, Request, Response, json_response
from engine.demo_site.reset import start_from
from engine.demo_site.validate import Invalid, contact_from


def state(app: App, request: Request) -> Response:
    return json_response(app.state.snapshot())


def reset(app: App, request: Request) -> Response:
    """Replace everything with the start the body asks for (see `reset.start_from`); answers the new state."""
    app.state.reset(start_from(request.body))
    return json_response(app.state.snapshot())


def create_contact(app: App, request: Request) -> Response:
    """A contact from a JSON object (`name` required, `email`, `phone`, `favourite`); answers 201 and the record,
    whose `id` is the key to delete it by."""
    try:
        values = json.loads(request.body.decode("utf-8")) if request.body.strip() else None
    except (UnicodeDecodeError, ValueError) as exc:
        raise Invalid(f"The contact is not JSON: {exc}") from None
    if not isinstance(values, dict) or "id" in values:
        raise Invalid('A contact is a JSON object without an id, e.g. {"name": "Ada Lovelace"}.')
    contact = app.state.add_contact(contact_from(values))
    return json_response(contact.as_json(), HTTPStatus.CREATED)


def delete_contact(app: App, request: Request) -> Response:
    """Delete the contact with this id; answers the record it was, or 404 when there is none (any more)."""
    contact = app.state.delete_contact(request.id())
    if contact is None:
        raise NotFound(request.path)
    return json_response({"deleted": contact.as_json()})
