"""The live scoped grants: each approval a person gave for more than one call, newest first, with its scope,
what it covers (the pattern as the person read it when granting it), who gave it, until when, and how many
calls it has let run. `r` (or delete) asks to revoke the highlighted one; the screen holding the list
confirms it and the engine revokes it, so the next matching call asks again."""

from __future__ import annotations

import time
from dataclasses import dataclass

from textual.binding import Binding
from textual.content import Content
from textual.message import Message

from engine.gate.grants import Grant, Scope
from widgets.record_rows import Column, Row
from widgets.record_table import RecordTable
from widgets.record_text import shown

SCOPES = {Scope.TASK: "this task", Scope.PATTERN: "session"}


def until(grant: Grant, now: float | None = None) -> str:
    """When the grant stops covering calls: its expiry (`03:48`, or `Sun 03:48` on another day), and for a task
    grant its task's end, whichever comes first."""
    today = time.localtime(time.time() if now is None else now)
    moment = time.localtime(grant.expires_at)
    expiry = time.strftime("%H:%M" if moment[:3] == today[:3] else "%a %H:%M", moment)
    return f"task end / {expiry}" if grant.scope is Scope.TASK else expiry


class GrantList(RecordTable):
    COLUMNS = (
        Column("id", 13),
        Column("scope", 10),
        Column("covers", share=4, least=20),
        Column("by", share=1, least=8),
        Column("until", 20),
        Column("uses", 5),
    )
    EMPTY = "no live grants: every call past the gate's route asks a person"
    NOUNS = ("live grant", "live grants")
    NEWEST_FIRST = True
    BINDINGS = [Binding("r,delete", "revoke", "Revoke grant", id="warden.grants.revoke")]

    @dataclass
    class RevokeRequested(Message):
        """The person asked to revoke the highlighted grant (it is confirmed before it is revoked)."""

        grant_id: str

    def show_grants(self, grants: list[Grant]) -> None:
        now = time.time()
        self.show(self.row_of(grant) for grant in grants if grant.live(now))

    @staticmethod
    def row_of(grant: Grant) -> Row:
        return Row(grant.id, (
            shown(grant.id),
            Content(SCOPES.get(grant.scope, grant.scope.value)),
            shown(grant.describe()),
            shown(grant.granted_by),
            Content(until(grant)),
            Content(str(grant.uses)),
        ), grant.granted_at, words=f"{grant.scope.value} {grant.task_id or ''}")

    def request_revoke(self) -> bool:
        """Post `RevokeRequested` for the highlighted grant; False when there is none."""
        return self.request(self.RevokeRequested)

    def action_revoke(self) -> None:
        if not self.request_revoke():
            self.notify("No grant is highlighted: there is nothing to revoke.", severity="warning")
