"""Which handler answers which method and path, and how a handler's failure becomes an answer.

Unknown paths are 404, a known path asked with the wrong method is 405, and anything
`Invalid` a handler lets escape is 400 with its message (JSON for `/api/`, a page otherwise).
"""

from __future__ import annotations

import re
from dataclasses import replace
from html import escape
from http import HTTPStatus

from engine.demo_site import (
    api,
    contact_forms,
    contacts,
    notes,
    perturb,
    reports,
    settings,
)
from engine.demo_site.app import App, Handler
from engine.demo_site.exchange import (
    NotFound,
    Request,
    Response,
    json_response,
    redirect,
)
from engine.demo_site.layout import page
from engine.demo_site.validate import Invalid

ROUTES: tuple[tuple[str, str, Handler], ...] = (
    ("GET", r"/", lambda app, request: redirect("/contacts")),
    ("GET", r"/contacts", contacts.contact_list),
    ("GET", r"/contacts/new", contact_forms.new_form),
    ("POST", r"/contacts/new", contact_forms.add),
    ("GET", r"/contacts/(?P<id>\d+)", contacts.contact_page),
    ("GET", r"/contacts/(?P<id>\d+)/edit", contact_forms.edit_form),
    ("POST", r"/contacts/(?P<id>\d+)/edit", contact_forms.edit),
    ("GET", r"/contacts/(?P<id>\d+)/delete", contact_forms.confirm_delete),
    ("POST", r"/contacts/(?P<id>\d+)/delete", contact_forms.delete),
    ("GET", r"/notes", notes.note_list),
    ("GET", r"/notes/new", notes.new_form),
    ("POST", r"/notes/new", notes.add),
    ("GET", r"/notes/(?P<id>\d+)", notes.note_page),
    ("GET", r"/settings", settings.settings_form),
    ("POST", r"/settings", settings.save),
    ("GET", r"/reports", reports.report_list),
    ("POST", r"/reports", reports.run),
    ("GET", r"/reports/(?P<id>\d+)", reports.report_page),
    ("GET", r"/api/state", api.state),
    ("POST", r"/api/reset", api.reset),
    ("POST", r"/api/contacts", api.create_contact),
    ("DELETE", r"/api/contacts/(?P<id>\d+)", api.delete_contact),
    ("POST", r"/api/perturb/event", perturb.event),
    ("POST", r"/perturb/close", perturb.close_modal),
    ("GET", r"/perturb/replaced", perturb.use_replaced),
    ("POST", r"/perturb/replaced", perturb.use_replaced),
)
_COMPILED = tuple((method, re.compile(pattern), handler) for method, pattern, handler in ROUTES)


def dispatch(app: App, request: Request) -> Response:
    """The answer to one request, drawn as the last reset's perturbation asks (`perturb.py`)."""
    perturb.delay(app, request)
    return perturb.disturb(app, request, _answer(app, request))


def _answer(app: App, request: Request) -> Response:
    matches = [(method, found, handler) for method, pattern, handler in _COMPILED
               if (found := pattern.fullmatch(request.path))]
    chosen = next(((found, handler) for method, found, handler in matches if method == request.method), None)
    try:
        if chosen is None:
            if matches:
                allowed = ", ".join(sorted({method for method, _, _ in matches}))
                answer = _problem(app, request, HTTPStatus.METHOD_NOT_ALLOWED, f"{request.method} is not used here.")
                return replace(answer, headers=(*answer.headers, ("Allow", allowed)))
            raise NotFound(request.path)
        found, handler = chosen
        return handler(app, replace(request, params=found.groupdict()))
    except NotFound:
        return _problem(app, request, HTTPStatus.NOT_FOUND, f"There is no page at {request.path}.")
    except Invalid as exc:
        return _problem(app, request, HTTPStatus.BAD_REQUEST, str(exc))


def _problem(app: App, request: Request, status: HTTPStatus, message: str) -> Response:
    if request.path.startswith("/api/"):
        return json_response({"error": message}, status)
    content = f"<h1>{status.phrase}</h1>\n<p>{escape(message)}</p>"
    return page(request, app.state.settings(), status.phrase, content, status)
