"""What the console writes to its terminal, captured, and the check that no control sequence in it came from
record data.

`capture()` gives `App.run_test` a driver that is not headless, so the app renders every update into the
terminal sequences it would write to a real terminal, and keeps them. `foreign(output)` lists whatever in
them Textual itself never writes. Textual writes only: styled text as `ESC[<attrs>m text ESC[0m` (one
style at a time, never nested), cursor moves `ESC[<row>;<col>H`, private modes `ESC[?<n>h`/`l`, the
pointer shape `ESC]22;<name>BEL`, and a newline right before a cursor move. So an escape of any other form,
a style opened inside another or a move inside styled text (an escape written by data amid a segment's
text), a newline not followed by a move, and any control, direction or zero-width character in the text are
all foreign: they came from what was drawn, not from Textual.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import textual.drivers.headless_driver as headless

SEQUENCE = re.compile(r"\x1b\[(?P<sgr>[0-9;]*)m|(?P<move>\x1b\[\d+;\d+H)|\x1b\[\?\d+[hl]|\x1b\]22;[a-z-]+\x07")
HIDDEN = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ud800-\udfff]")
"""What must never reach the terminal from data: C0 (newline is checked on its own), DEL, C1, and the
direction, zero-width and separator characters that reorder or hide text, and lone surrogates."""


class CapturingDriver(headless.HeadlessDriver):
    """The headless driver, except that the app renders to it and it keeps every write."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.written: list[str] = []

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        self.written.append(data)


@contextmanager
def capture() -> Iterator[None]:
    """While open, `App.run_test` drives apps with a `CapturingDriver` (the app's `_driver`)."""
    original = headless.HeadlessDriver
    headless.HeadlessDriver = CapturingDriver
    try:
        yield
    finally:
        headless.HeadlessDriver = original


def written(app) -> str:
    """Everything the app wrote to its terminal so far."""
    driver = app._driver
    assert isinstance(driver, CapturingDriver), "run the app inside `capture()`"
    return "".join(driver.written)


def foreign(output: str) -> list[str]:
    """Each place where the output holds what Textual never writes, shown with what surrounds it."""
    problems: list[str] = []

    def said(at: int, what: str) -> None:
        problems.append(f"{what} at {at}: {output[max(0, at - 30):at + 30]!r}")

    styled = False
    at = 0
    while at <= len(output):
        escape = output.find("\x1b", at)
        end = len(output) if escape < 0 else escape
        sequence = SEQUENCE.match(output, escape) if escape >= 0 else None
        for found in HIDDEN.finditer(output, at, end):
            said(found.start(), f"a hidden or control character {found.group()!r}")
        for found in re.finditer("\n", output[at:end]):
            place = at + found.start()
            if place != end - 1 or sequence is None or sequence.group("move") is None:
                said(place, "a newline that is not right before a cursor move")
        if escape < 0:
            break
        if sequence is None:
            said(escape, "an escape Textual never writes")
            at = escape + 1
            continue
        if sequence.group("sgr") is not None:
            closing = sequence.group("sgr") == "0"
            if closing != styled:
                said(escape, "a style closed that was not open" if closing else "a style opened inside another")
            styled = not closing
        elif styled:
            said(escape, "a cursor move or mode inside styled text")
        at = sequence.end()
    return problems
