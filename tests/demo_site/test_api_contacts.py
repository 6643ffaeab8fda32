"""The demo site's contact API: a JSON create answers the record and its id, and a DELETE by that id removes it."""

from __future__ import annotations

import json
import urllib.request

from engine.demo_site import DemoSite
from tests.demo_site.client import Answer, Client


def delete(client: Client, path: str) -> Answer:
    return client._send(urllib.request.Request(client.base + path, method="DELETE"))


def test_a_contact_created_through_the_api_is_answered_with_its_id_and_deleted_by_it(site: DemoSite, client: Client) -> None:
    created = client.post("/api/contacts", json.dumps({"name": "Ada Lovelace", "email": "ada@example.org"}).encode(),
                          "application/json")
    assert created.status == 201
    record = created.json()
    assert record["name"] == "Ada Lovelace" and isinstance(record["id"], int)
    assert record in client.state()["contacts"]
    gone = delete(client, f"/api/contacts/{record['id']}")
    assert gone.status == 200 and gone.json() == {"deleted": record}
    assert all(c["id"] != record["id"] for c in client.state()["contacts"])
    again = delete(client, f"/api/contacts/{record['id']}")
    assert again.status == 404 and "error" in again.json()


def test_a_create_that_is_not_a_contact_is_refused_with_400_and_changes_nothing(site: DemoSite, client: Client) -> None:
    before = client.state()["contacts"]
    for body in (b"not json", b"[]", json.dumps({"id": 9, "name": "X"}).encode(), json.dumps({"email": "a@b.c"}).encode()):
        refused = client.post("/api/contacts", body, "application/json")
        assert refused.status == 400 and refused.json()["error"], body
    assert client.state()["contacts"] == before
