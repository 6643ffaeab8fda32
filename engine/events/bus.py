"""The event bus: every event is persisted as a task event, then fanned out in this process.

`tail` follows the table itself by id, so a client sees what every process on the same
database did (another shell's submissions, approvals, removals), not only this one.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from engine.events.records import Event
from engine.store import Store
from engine.tools.abridge import abridged_json

TAIL_INTERVAL = 0.25


@dataclass(frozen=True)
class Recorded:
    """An event as the table holds it: its sequence number, and when it was written."""

    seq: int
    at: float
    event: Event


class EventBus:
    """Many subscribers, each with its own queue; a slow subscriber never blocks the engine."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._queues: set[asyncio.Queue[Event]] = set()
        self._wakers: set[asyncio.Event] = set()
        self._listeners: list[Callable[[], None]] = []

    async def publish(self, event: Event) -> None:
        """Persist, then fan out, the event as redacted, its call's long text abridged (the step keeps it whole):
        subscribers see what the table holds."""
        payload = self._store.redactor.scrub(event.payload())
        if "call" in payload:
            payload["call"] = abridged_json(payload["call"])
        event = Event.restore(event.kind, event.task_id, payload)
        await self._store.execute(
            "INSERT INTO task_events (task_id, kind, payload, at) VALUES (?, ?, ?, ?)",
            (event.task_id, event.kind, json.dumps(payload), time.time()),
        )
        for queue in self._queues:
            queue.put_nowait(event)
        self.nudge()
        for listener in self._listeners:
            listener()

    def nudge(self) -> None:
        """Wake every tail of this bus now: something was written (here, or by a writer that says so)."""
        for wake in self._wakers:
            wake.set()

    def on_publish(self, listener: Callable[[], None]) -> None:
        """Call `listener` after each publish (on the publishing loop: hop threads inside it if needed)."""
        self._listeners.append(listener)

    def subscribe(self) -> "Subscription":
        """Every event published from this call on, until the subscription is closed."""
        queue: asyncio.Queue[Event] = asyncio.Queue()
        self._queues.add(queue)
        return Subscription(queue, lambda: self._queues.discard(queue))

    async def history(self, task_id: str | None = None) -> list[Event]:
        """The persisted events, oldest first, of one task or of all."""
        if task_id is None:
            rows = await self._store.fetchall("SELECT task_id, kind, payload FROM task_events ORDER BY id")
        else:
            rows = await self._store.fetchall(
                "SELECT task_id, kind, payload FROM task_events WHERE task_id = ? ORDER BY id", (task_id,)
            )
        return [Event.restore(r["kind"], r["task_id"], json.loads(r["payload"])) for r in rows]

    async def recorded(self, task_id: str) -> list[Recorded]:
        """One task's persisted events with their sequence numbers and times, oldest first (a timeline)."""
        rows = await self._store.fetchall(
            "SELECT id, task_id, kind, payload, at FROM task_events WHERE task_id = ? ORDER BY id", (task_id,))
        return [Recorded(r["id"], r["at"], Event.restore(r["kind"], r["task_id"], json.loads(r["payload"])))
                for r in rows]

    async def last_seq(self) -> int:
        row = await self._store.fetchrow("SELECT COALESCE(MAX(id), 0) AS seq FROM task_events")
        return row["seq"]

    async def since(self, after: int, limit: int = 500) -> tuple[list[Recorded], int]:
        """Events persisted after sequence number `after`, oldest first, and the last number read.

        Kinds this Warden does not know (a newer one wrote them) are skipped, not fatal.
        """
        rows = await self._store.fetchall(
            "SELECT id, task_id, kind, payload, at FROM task_events WHERE id > ? ORDER BY id LIMIT ?", (after, limit)
        )
        found = []
        for row in rows:
            try:
                event = Event.restore(row["kind"], row["task_id"], json.loads(row["payload"]))
            except (KeyError, TypeError, ValueError):
                continue
            found.append(Recorded(row["id"], row["at"], event))
        return found, rows[-1]["id"] if rows else after

    async def tail(self, after: int | None = None, interval: float = TAIL_INTERVAL) -> AsyncIterator[Recorded]:
        """Every event written after `after` (default: from now on) by any process, in order, forever.

        A publish in this process wakes it at once; another process's within `interval`.
        """
        last = await self.last_seq() if after is None else after
        wake = asyncio.Event()
        self._wakers.add(wake)
        try:
            while True:
                wake.clear()
                batch, read = await self.since(last)
                for recorded in batch:
                    yield recorded
                if read == last:
                    try:
                        await asyncio.wait_for(wake.wait(), interval)
                    except TimeoutError:
                        pass
                last = read
        finally:
            self._wakers.discard(wake)


class Subscription:
    """An async iterator over one subscriber's queue; registered the moment it is created."""

    def __init__(self, queue: asyncio.Queue[Event], close: Callable[[], None]) -> None:
        self._queue = queue
        self.close = close

    def __aiter__(self) -> "Subscription":
        return self

    async def __anext__(self) -> Event:
        return await self._queue.get()

    def drain(self) -> list[Event]:
        """The events already delivered and not yet read, without waiting for more."""
        events = []
        while not self._queue.empty():
            events.append(self._queue.get_nowait())
        return events
