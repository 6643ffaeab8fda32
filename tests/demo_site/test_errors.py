"""Unknown pages are 404, wrong methods 405, and a malformed form is 400 with a message that loses nothing."""

from __future__ import annotations

import pytest

from tests.demo_site.client import Client
from tests.demo_site.markup import read


@pytest.mark.parametrize("path", ["/nowhere", "/contacts/99", "/contacts/99/edit", "/contacts/abc", "/notes/7",
                                  "/reports/1", "/api/nothing"])
def test_unknown_path_is_404(client: Client, path: str) -> None:
    assert client.get(path).status == 404


def test_unknown_api_path_answers_json(client: Client) -> None:
    assert "no page" in client.get("/api/nothing").json()["error"]


def test_wrong_method_is_405(client: Client) -> None:
    assert client.post("/contacts", b"").status == 405
    assert client.get("/api/reset").status == 405


def test_posting_to_a_missing_contact_is_404(client: Client) -> None:
    before = client.state()
    assert client.submit("/contacts/99/edit", {"name": "X"}).status == 404
    assert client.post("/contacts/99/delete", b"").status == 404
    assert client.state() == before


@pytest.mark.parametrize("path, fields, message", [
    ("/contacts/new", {"email": "ada@example.org"}, "Name is required."),
    ("/contacts/new", {"name": "  ", "email": ""}, "Name is required."),
    ("/contacts/new", {"name": "Ada", "email": "ada-at-example"}, "Email must look like"),
    ("/contacts/new", {"name": "Ada", "phone": "call me"}, "Phone may hold only"),
    ("/contacts/1/edit", {"name": "", "phone": "555-0199"}, "Name is required."),
    ("/notes/new", {"title": "Groceries", "category": "Chores"}, "Category must be one of"),
    ("/notes/new", {"body": "no title"}, "Title is required."),
    ("/settings", {"display_name": "Sam", "theme": "sepia"}, "Theme must be one of"),
    ("/settings", {"theme": "dark"}, "Display name is required."),
    ("/reports", {"kind": "Everything"}, "Report must be one of"),
])
def test_malformed_form_is_400_with_a_message(client: Client, path: str, fields: dict[str, str], message: str) -> None:
    before = client.state()
    answer = client.submit(path, fields)
    assert answer.status == 400
    assert any(message in alert for alert in read(answer.text).alerts), answer.text
    assert client.state() == before


def test_a_rejected_form_keeps_what_was_typed(client: Client) -> None:
    page = read(client.submit("/contacts/new", {"name": "Ada Lovelace", "email": "ada-at-example", "favourite": "on"}).text)
    assert page.control("Name")["value"] == "Ada Lovelace"
    assert page.control("Email")["value"] == "ada-at-example"
    assert "checked" in page.control("Favourite")


@pytest.mark.parametrize("body", [b"\xff\xfename=x", b"name=%zz&&="])
def test_an_unreadable_body_is_400(client: Client, body: bytes) -> None:
    before = client.state()
    answer = client.post("/contacts/new", body)
    assert answer.status == 400 and "could not be read" in answer.text
    assert client.state() == before
