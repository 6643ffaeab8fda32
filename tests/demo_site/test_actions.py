"""Forms change the state `/api/state` shows, redirect to a page that says what happened, and search filters."""

from __future__ import annotations

from tests.demo_site.client import Client
from tests.demo_site.markup import read


def test_add_contact(client: Client) -> None:
    answer = client.submit("/contacts/new", {"name": "Ada Lovelace", "email": "ada@example.org",
                                             "phone": "555-0188", "favourite": "on"})
    assert answer.status == 200 and answer.url.endswith("/contacts/5")
    page = read(answer.text)
    assert page.headings == ["Ada Lovelace"] and page.status == ["Added Ada Lovelace."]
    assert client.state()["contacts"][-1] == {"id": 5, "name": "Ada Lovelace", "email": "ada@example.org",
                                              "phone": "555-0188", "favourite": True}


def test_flash_shows_once(client: Client) -> None:
    client.submit("/contacts/new", {"name": "Ada Lovelace", "email": "", "phone": ""})
    assert read(client.get("/contacts").text).status == []


def test_edit_contact_phone_keeps_the_rest(client: Client) -> None:
    answer = client.submit("/contacts/1/edit", {"name": "Grace Hopper", "email": "grace@example.org", "phone": "555-0199"})
    assert read(answer.text).status == ["Saved Grace Hopper."]
    assert client.state()["contacts"][0] == {"id": 1, "name": "Grace Hopper", "email": "grace@example.org",
                                             "phone": "555-0199", "favourite": False}


def test_unticked_favourite_clears_it(client: Client) -> None:
    client.submit("/contacts/3/edit", {"name": "Katherine Johnson", "email": "", "phone": ""})
    assert client.state()["contacts"][2]["favourite"] is False


def test_delete_after_confirming(client: Client) -> None:
    answer = client.post("/contacts/2/delete", b"")
    assert answer.url.endswith("/contacts") and read(answer.text).status == ["Deleted Alan Turing."]
    assert [c["name"] for c in client.state()["contacts"]] == ["Grace Hopper", "Katherine Johnson", "Edsger Dijkstra"]
    assert client.get("/contacts/2").status == 404


def test_ids_are_not_reused_after_a_delete(client: Client) -> None:
    client.post("/contacts/4/delete", b"")
    added = client.submit("/contacts/new", {"name": "Ada Lovelace"})
    assert added.url.endswith("/contacts/5")


def test_search_filters_by_name_email_or_phone(client: Client) -> None:
    def names(query: str) -> set[str]:
        return {name for name, href in read(client.get(f"/contacts?q={query}").text).links.items()
                if href.startswith("/contacts/") and href[len("/contacts/"):].isdigit()}
    assert names("hopper") == {"Grace Hopper"}
    assert names("alan%40example") == {"Alan Turing"}
    assert names("0103") == {"Katherine Johnson"}
    assert names("") == {"Grace Hopper", "Alan Turing", "Katherine Johnson", "Edsger Dijkstra"}
    assert "No contacts match" in client.get("/contacts?q=nobody").text


def test_new_note(client: Client) -> None:
    answer = client.submit("/notes/new", {"title": "Groceries", "body": "Milk, eggs and bread", "category": "Personal"})
    assert read(answer.text).headings == ["Groceries"] and answer.url.endswith("/notes/3")
    assert client.state()["notes"][-1] == {"id": 3, "title": "Groceries", "body": "Milk, eggs and bread",
                                           "category": "Personal"}


def test_settings_save_and_say_saved(client: Client) -> None:
    answer = client.submit("/settings", {"display_name": "Sam Carter", "theme": "dark", "newsletter": "on"})
    assert read(answer.text).status == ["Saved"]
    assert '<body class="dark">' in answer.text and "Signed in as Sam Carter" in answer.text
    assert client.state()["settings"] == {"display_name": "Sam Carter", "theme": "dark", "newsletter": True}
    client.submit("/settings", {"display_name": "Sam Carter", "theme": "dark"})
    assert client.state()["settings"]["newsletter"] is False


def test_run_a_report(client: Client) -> None:
    answer = client.submit("/reports", {"kind": "Notes by category"})
    page = read(answer.text)
    assert page.headings == ["Notes by category"] and page.status == ["Report ready: Notes by category."]
    assert client.state()["reports"] == [{"id": 1, "kind": "Notes by category",
                                          "lines": ["General: 1", "Work: 1", "Personal: 0", "Ideas: 0"]}]
    assert read(client.get("/reports").text).links["Notes by category #1"] == "/reports/1"
