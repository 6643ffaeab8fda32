"""Messages the console posts to itself."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from engine.events.records import Event


@dataclass
class EngineReported(Message):
    """An event was written to the database (by this process or another); `at` is when."""

    event: Event
    at: float
