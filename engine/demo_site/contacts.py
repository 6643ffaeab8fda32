"""The contacts list (with its search box and, on some visits, the "What's new" dialog) and a contact's page."""

from __future__ import annotations

from html import escape

from engine.demo_site.app import App
from engine.demo_site.exchange import NotFound, Request, Response
from engine.demo_site.layout import page
from engine.demo_site.model import Contact

WHATS_NEW = """<dialog id="whats-new" aria-labelledby="whats-new-title" aria-modal="true">
<h2 id="whats-new-title">What's new</h2>
<p>Contacts can now be marked as favourites, and reports run from the Reports page.</p>
<form method="dialog"><button type="submit">Dismiss</button></form>
</dialog>
<script>document.getElementById("whats-new").showModal();</script>"""


def contact_list(app: App, request: Request) -> Response:
    query = request.arg("q")
    shows_dialog = app.state.visit_contacts()
    contacts = app.state.contacts(query)
    rows = "".join(_row(c) for c in contacts)
    if rows:
        listing = f"""<table aria-label="Contacts">
<thead><tr>
<th scope="col">Name</th><th scope="col">Email</th><th scope="col">Phone</th><th scope="col">Favourite</th>
</tr></thead>
<tbody>{rows}</tbody>
</table>"""
    elif query:
        listing = f"<p>No contacts match “{escape(query)}”.</p>"
    else:
        listing = "<p>No contacts yet.</p>"
    content = f"""<h1>Contacts</h1>
<form role="search" method="get" action="/contacts">
<label for="q">Search contacts</label>
<input type="search" id="q" name="q" value="{escape(query)}" placeholder="Name, email or phone">
<button type="submit">Search</button>
</form>
<p><a href="/contacts/new">New contact</a></p>
{listing}
{WHATS_NEW if shows_dialog else ""}"""
    return page(request, app.state.settings(), "Contacts", content)


def contact_page(app: App, request: Request) -> Response:
    contact = app.state.contact(request.id())
    if contact is None:
        raise NotFound(request.path)
    content = f"""<h1>{escape(contact.name)}</h1>
<dl>
<dt>Email</dt><dd>{escape(contact.email) or "—"}</dd>
<dt>Phone</dt><dd>{escape(contact.phone) or "—"}</dd>
<dt>Favourite</dt><dd>{"Yes" if contact.favourite else "No"}</dd>
</dl>
<p><a href="/contacts/{contact.id}/edit">Edit contact</a></p>
<form method="get" action="/contacts/{contact.id}/delete"><button type="submit">Delete contact</button></form>"""
    return page(request, app.state.settings(), contact.name, content)


def _row(contact: Contact) -> str:
    return (f'<tr><td><a href="/contacts/{contact.id}">{escape(contact.name)}</a></td>'
            f"<td>{escape(contact.email)}</td><td>{escape(contact.phone)}</td>"
            f"<td>{'★ Yes' if contact.favourite else ''}</td></tr>")
