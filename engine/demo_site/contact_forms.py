"""Adding, editing and deleting a contact: forms that POST and redirect, and a confirm step before a delete.

A rejected form is shown again with what was typed and a message, answered 400, and
changes nothing.
"""

from __future__ import annotations

from html import escape

from engine.demo_site.app import App
from engine.demo_site.exchange import NotFound, Request, Response, redirect
from engine.demo_site.fields import checkbox, submitted, text_input
from engine.demo_site.layout import error_box, page
from engine.demo_site.model import Contact
from engine.demo_site.validate import Invalid, contact_from

TEXTS = ("name", "email", "phone")
FLAGS = ("favourite",)


def new_form(app: App, request: Request) -> Response:
    return _form(app, request, "New contact", "/contacts/new", Contact(0, ""))


def add(app: App, request: Request) -> Response:
    values = submitted(request.form(), TEXTS, FLAGS)
    try:
        contact = app.state.add_contact(contact_from(values))
    except Invalid as exc:
        return _form(app, request, "New contact", "/contacts/new", _as_typed(values), str(exc))
    return redirect(f"/contacts/{contact.id}", f"Added {contact.name}.")


def edit_form(app: App, request: Request) -> Response:
    contact = _existing(app, request)
    return _form(app, request, f"Edit {contact.name}", f"/contacts/{contact.id}/edit", contact)


def edit(app: App, request: Request) -> Response:
    contact = _existing(app, request)
    values = submitted(request.form(), TEXTS, FLAGS)
    try:
        saved = app.state.update_contact(contact.id, contact_from(values))
    except Invalid as exc:
        return _form(app, request, f"Edit {contact.name}", f"/contacts/{contact.id}/edit", _as_typed(values), str(exc))
    if saved is None:
        raise NotFound(request.path)
    return redirect(f"/contacts/{saved.id}", f"Saved {saved.name}.")


def confirm_delete(app: App, request: Request) -> Response:
    contact = _existing(app, request)
    content = f"""<h1>Delete {escape(contact.name)}?</h1>
<p>This removes {escape(contact.name)} from your contacts.</p>
<form class="inline" method="post" action="/contacts/{contact.id}/delete">
<button type="submit">Yes, delete</button>
</form>
<form class="inline" method="get" action="/contacts/{contact.id}">
<button type="submit">Cancel</button>
</form>"""
    return page(request, app.state.settings(), f"Delete {contact.name}?", content)


def delete(app: App, request: Request) -> Response:
    contact = app.state.delete_contact(request.id())
    if contact is None:
        raise NotFound(request.path)
    return redirect("/contacts", f"Deleted {contact.name}.")


def _existing(app: App, request: Request) -> Contact:
    contact = app.state.contact(request.id())
    if contact is None:
        raise NotFound(request.path)
    return contact


def _as_typed(values: dict[str, str | bool]) -> Contact:
    """What was typed into a rejected form, to show it again (not validated)."""
    return Contact(0, str(values.get("name", "")), str(values.get("email", "")), str(values.get("phone", "")),
                   values.get("favourite") is True)


def _form(app: App, request: Request, title: str, action: str, contact: Contact, error: str = "") -> Response:
    content = f"""<h1>{escape(title)}</h1>
{error_box(error)}
<form method="post" action="{action}">
{text_input("name", "Name", contact.name, required=True)}
{text_input("email", "Email", contact.email, kind="email", placeholder="name@example.org")}
{text_input("phone", "Phone", contact.phone, kind="tel", placeholder="555-0100")}
{checkbox("favourite", "Favourite", contact.favourite)}
<button type="submit">Save contact</button>
</form>"""
    return page(request, app.state.settings(), title, content, 400 if error else 200)
