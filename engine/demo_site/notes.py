"""The notes list, a note's page, and the new-note form with its category `<select>`."""

from __future__ import annotations

from html import escape

from engine.demo_site.app import App
from engine.demo_site.exchange import NotFound, Request, Response, redirect
from engine.demo_site.fields import select, submitted, text_area, text_input
from engine.demo_site.layout import error_box, page
from engine.demo_site.model import CATEGORIES, Note
from engine.demo_site.validate import Invalid, note_from

TEXTS = ("title", "body", "category")


def note_list(app: App, request: Request) -> Response:
    items = "".join(f'<li><a href="/notes/{n.id}">{escape(n.title)}</a> <small>({escape(n.category)})</small></li>'
                    for n in app.state.notes())
    content = f"""<h1>Notes</h1>
<p><a href="/notes/new">New note</a></p>
{f'<ul aria-label="Notes">{items}</ul>' if items else "<p>No notes yet.</p>"}"""
    return page(request, app.state.settings(), "Notes", content)


def note_page(app: App, request: Request) -> Response:
    note = app.state.note(request.id())
    if note is None:
        raise NotFound(request.path)
    paragraphs = "".join(f"<p>{escape(line)}</p>" for line in note.body.splitlines() if line.strip())
    content = f"""<h1>{escape(note.title)}</h1>
<p>Category: {escape(note.category)}</p>
<article>{paragraphs or "<p>(empty)</p>"}</article>"""
    return page(request, app.state.settings(), note.title, content)


def new_form(app: App, request: Request) -> Response:
    return _form(app, request, Note(0, ""))


def add(app: App, request: Request) -> Response:
    values = submitted(request.form(), TEXTS)
    try:
        note = app.state.add_note(note_from(values))
    except Invalid as exc:
        typed = Note(0, str(values.get("title", "")), str(values.get("body", "")), str(values.get("category", "")))
        return _form(app, request, typed, str(exc))
    return redirect(f"/notes/{note.id}", "Note saved.")


def _form(app: App, request: Request, note: Note, error: str = "") -> Response:
    content = f"""<h1>New note</h1>
{error_box(error)}
<form method="post" action="/notes/new">
{text_input("title", "Title", note.title, required=True)}
{text_area("body", "Body", note.body)}
{select("category", "Category", [(c, c) for c in CATEGORIES], note.category)}
<button type="submit">Save note</button>
</form>"""
    return page(request, app.state.settings(), "New note", content, 400 if error else 200)
