"""`POST /api/reset` puts the site in a known start; the dialog follows its mode and seed."""

from __future__ import annotations

import pytest

from engine.demo_site import DemoSite
from tests.demo_site.client import Client
from tests.demo_site.markup import read


def dialog_shown(client: Client) -> bool:
    return read(client.get("/contacts").text).dialogs == ["whats-new-title"]


def test_reset_undoes_every_change(client: Client) -> None:
    fresh = client.state()
    client.submit("/contacts/new", {"name": "Ada Lovelace"})
    client.submit("/settings", {"display_name": "Sam Carter", "theme": "dark"})
    client.submit("/reports", {"kind": "Contacts overview"})
    answer = client.reset(seed=7, dialog="never")
    assert answer.status == 200
    del fresh["dialog"]
    assert {k: v for k, v in answer.json().items() if k != "dialog"} == fresh


def test_reset_with_records_and_settings(client: Client) -> None:
    client.reset(contacts=[{"name": "Ada Lovelace", "email": "ada@example.org"},
                           {"name": "Charles Babbage", "favourite": True}],
                 notes=[], settings={"theme": "dark"})
    state = client.state()
    assert state["contacts"] == [
        {"id": 1, "name": "Ada Lovelace", "email": "ada@example.org", "phone": "", "favourite": False},
        {"id": 2, "name": "Charles Babbage", "email": "", "phone": "", "favourite": True}]
    assert state["notes"] == []
    assert state["settings"] == {"display_name": "Alex Morgan", "theme": "dark", "newsletter": False}
    assert "No notes yet." in client.get("/notes").text


def test_dialog_always_and_never(client: Client) -> None:
    client.reset(dialog="always")
    page = read(client.get("/contacts").text)
    assert page.dialogs == ["whats-new-title"] and "What's new" in page.headings and "Dismiss" in page.buttons
    assert dialog_shown(client)
    client.reset(dialog="never")
    assert not any(dialog_shown(client) for _ in range(10))
    dialog = client.state()["dialog"]
    assert (dialog["mode"], dialog["visits"], dialog["shown"]) == ("never", 10, 0)


def test_dialog_only_on_the_contacts_list(client: Client) -> None:
    client.reset(dialog="always")
    assert all(read(client.get(path).text).dialogs == [] for path in ("/contacts/1", "/notes", "/settings"))


def test_sometimes_is_fixed_by_the_seed_and_varies_without_one(client: Client) -> None:
    def run(seed: int) -> list[bool]:
        client.reset(seed=seed, dialog="sometimes")
        return [dialog_shown(client) for _ in range(12)]

    first = run(42)
    assert run(42) == first
    assert True in first and False in first
    assert any(run(seed) != first for seed in range(5))
    client.reset()
    assert client.state()["dialog"]["mode"] == "sometimes"


def test_site_built_with_a_seed_starts_in_that_mode() -> None:
    with DemoSite(dialog="always", seed=3) as site:
        assert dialog_shown(Client(site.url))
        assert site.state()["dialog"]["seed"] == 3


@pytest.mark.parametrize("body, message", [
    (b"{not json", "not JSON"),
    (b"[1, 2]", "must be a JSON object"),
    (b'{"dialog": "often"}', "dialog must be one of"),
    (b'{"seed": "x"}', "seed must be a whole number"),
    (b'{"colour": "red"}', "not colour"),
    (b'{"contacts": [{"email": "a@b.org"}]}', "Name is required"),
    (b'{"contacts": [{"name": "A", "email": "nope"}]}', "Email must look like"),
    (b'{"contacts": [{"name": "A", "favourite": "yes"}]}', "Favourite must be true or false"),
    (b'{"contacts": [{"name": "A", "id": 1}, {"name": "B", "id": 1}]}', "same id"),
    (b'{"notes": [{"title": "T", "category": "Chores"}]}', "Category must be one of"),
    (b'{"settings": {"theme": "sepia"}}', "Theme must be one of"),
    (b'\xff\xfe', "not JSON"),
])
def test_a_bad_reset_is_400_and_changes_nothing(client: Client, body: bytes, message: str) -> None:
    client.submit("/contacts/new", {"name": "Ada Lovelace"})
    before = client.state()
    answer = client.post("/api/reset", body, "application/json")
    assert answer.status == 400 and message in answer.json()["error"]
    assert client.state() == before
