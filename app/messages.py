"""Messages the console posts to itself."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from engine.events.records import Event
from engine.programs.program import Program


@dataclass
class EngineReported(Message):
    """An event was written to the database (by this process or another); `at` is when."""

    event: Event
    at: float


@dataclass
class ProgramAccepted(Message):
    """A person accepted an unverified program from the console: it is served from now on."""

    program: Program


@dataclass
class ProgramDiscarded(Message):
    """A person discarded a program from the console: its row and its file are gone."""

    program_id: str


@dataclass
class EngineStopped(Message):
    """The engine stopped serving tasks while the console was open; `why` says what stopped it."""

    why: str


@dataclass
class WatchEnded(Message):
    """Following the program files ended while the console was open; `why` says what ended it."""

    why: str
