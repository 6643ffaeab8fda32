"""Messages the console posts to itself."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from engine.events.records import Event


@dataclass
class EngineReported(Message):
    """The engine published an event; every pane refresh starts here."""

    event: Event
