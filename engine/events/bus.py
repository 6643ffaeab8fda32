"""An in-process async bus: every event is persisted as a task event, then fanned out."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable

from engine.events.records import Event
from engine.store import Store


class EventBus:
    """Many subscribers, each with its own queue; a slow subscriber never blocks the engine."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._queues: set[asyncio.Queue[Event]] = set()

    async def publish(self, event: Event) -> None:
        await self._store.execute(
            "INSERT INTO task_events (task_id, kind, payload, at) VALUES (?, ?, ?, ?)",
            (event.task_id, event.kind, json.dumps(event.payload()), time.time()),
        )
        for queue in self._queues:
            queue.put_nowait(event)

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
