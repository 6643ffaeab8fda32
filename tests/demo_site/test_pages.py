"""Every page renders with the headings, links, buttons and labelled controls agents look for."""

from __future__ import annotations

from tests.demo_site.client import Client
from tests.demo_site.markup import read

NAV = {"Contacts": "/contacts", "Notes": "/notes", "Reports": "/reports", "Settings": "/settings"}


def test_root_leads_to_the_contacts_list(client: Client) -> None:
    answer = client.get("/")
    assert answer.status == 200 and answer.url.endswith("/contacts")


def test_contacts_list_has_search_new_contact_and_every_contact(client: Client) -> None:
    page = read(client.get("/contacts").text)
    assert page.headings == ["Contacts"]
    assert NAV.items() <= page.links.items()
    assert page.links["New contact"] == "/contacts/new"
    assert page.control("Search contacts") == {"tag": "input", "type": "search", "id": "q", "name": "q", "value": "",
                                               "placeholder": "Name, email or phone"}
    assert page.buttons == ["Search"]
    assert {"Grace Hopper", "Alan Turing", "Katherine Johnson", "Edsger Dijkstra"} <= set(page.links)


def test_contact_form_has_labelled_fields_and_a_named_save_button(client: Client) -> None:
    page = read(client.get("/contacts/new").text)
    assert page.headings == ["New contact"]
    assert page.control("Name")["name"] == "name"
    assert page.control("Email")["type"] == "email"
    assert page.control("Phone")["type"] == "tel"
    assert page.control("Favourite")["type"] == "checkbox"
    assert page.buttons == ["Save contact"]


def test_contact_page_offers_edit_and_delete(client: Client) -> None:
    page = read(client.get("/contacts/1").text)
    assert page.headings == ["Grace Hopper"]
    assert page.links["Edit contact"] == "/contacts/1/edit"
    assert page.buttons == ["Delete contact"]


def test_edit_form_is_filled_with_the_contact(client: Client) -> None:
    page = read(client.get("/contacts/3/edit").text)
    assert page.headings == ["Edit Katherine Johnson"]
    assert page.control("Name")["value"] == "Katherine Johnson"
    assert page.control("Phone")["value"] == "555-0103"
    assert "checked" in page.control("Favourite")
    assert page.buttons == ["Save contact"]


def test_delete_asks_first(client: Client) -> None:
    page = read(client.get("/contacts/2/delete").text)
    assert page.headings == ["Delete Alan Turing?"]
    assert page.buttons == ["Yes, delete", "Cancel"]
    assert client.state()["contacts"][1]["name"] == "Alan Turing"


def test_notes_pages(client: Client) -> None:
    listing = read(client.get("/notes").text)
    assert listing.headings == ["Notes"] and listing.links["New note"] == "/notes/new"
    assert listing.links["Welcome"] == "/notes/1"
    form = read(client.get("/notes/new").text)
    assert form.control("Title")["tag"] == "input"
    assert form.control("Body")["tag"] == "textarea"
    assert form.control("Category")["tag"] == "select"
    assert form.options["category"] == ["General", "Work", "Personal", "Ideas"]
    assert form.buttons == ["Save note"]
    assert read(client.get("/notes/2").text).headings == ["Quarterly planning"]


def test_settings_page(client: Client) -> None:
    page = read(client.get("/settings").text)
    assert page.headings == ["Settings"]
    assert page.control("Display name")["value"] == "Alex Morgan"
    assert page.control("Theme")["tag"] == "select" and page.options["theme"] == ["light", "dark"]
    assert page.control("Send me the newsletter")["type"] == "checkbox"
    assert page.buttons == ["Save"]


def test_reports_page_answers_though_slowly(client: Client) -> None:
    page = read(client.get("/reports").text)
    assert page.headings == ["Reports", "Past runs"]
    assert page.control("Report")["tag"] == "select"
    assert page.buttons == ["Run report"]


def test_a_control_is_never_left_without_a_label(client: Client) -> None:
    for path in ("/contacts", "/contacts/new", "/contacts/1/edit", "/notes/new", "/settings", "/reports"):
        page = read(client.get(path).text)
        assert set(page.controls) <= set(page.labels), path
