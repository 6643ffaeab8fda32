"""Round 3, acceptance 2: random records, drawn by the console at 80×24 and 160×48, never put a control
sequence of their own into what the console writes to its terminal.

Each example writes a home whose goals, ids' neighbours, paths, summaries, reasons, errors, descriptions and
outputs hold arbitrary Unicode (control characters, escapes, direction and zero-width characters, lone
surrogates where a column can hold them) and markup, opens the console on it with a driver that keeps every
byte the console writes, and walks it: every pane, the toasts, a detail screen of each kind of record, the
undo confirmation, at both sizes. `foreign` (see `terminal_output.py`) must find nothing but Textual's own
sequences in what was written.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.console import create_app
from app.screens.confirm import ConfirmScreen
from app.screens.record_detail import DetailScreen
from tests.console.test_demo_flow import until
from tests.hardening.hostile_records import Hostile, Seeded, announce, seed
from tests.hardening.terminal_output import SEQUENCE, capture, foreign, written
from tests.property import examples
from widgets.approval_list import ApprovalList
from widgets.program_list import ProgramList
from widgets.receipt_journal import ReceiptJournal
from widgets.task_queue import TaskQueue

FRAGMENTS = ("\x1b7\x1b[4;110H", "\x1b8", "\x1b[2J", "\x1b[31m", "\x1b[0m", "\x1b]0;title\x07", "\x1b]8;;http://x\x1b\\",
             "\x9b1;1H", "\x1bP+q\x1b\\", "\r", "\n", "\t", "\x08", "\x00", "\x7f", "\u202e", "\u2066", "\u200b",
             "\u2028", "\ufeff", "\ud800", "\udfff", "[red]", "[/]", "[b]", "[$error]", "[secret:hmac:0a1b]", "[@click=quit]",
             "\\x1b", "{file}")
"""Pieces attacks are made of, mixed into the random text so every example carries some."""
CHARACTERS = st.characters(codec=None, exclude_categories=())
TEXT = st.lists(st.one_of(st.text(CHARACTERS, max_size=12), st.sampled_from(FRAGMENTS)), min_size=1, max_size=8).map(
    "".join)
SIZES = ((80, 24), (160, 48))


@st.composite
def hostiles(draw) -> Hostile:
    """Every field random; each starts with an escape of a form Textual never writes, so a field drawn raw
    anywhere is caught even where the rest of its text happens to look like Textual's own sequences."""
    def field() -> str:
        return "\x1b7" + draw(TEXT)

    return Hostile(goal=field(), error=field(), path=field(), summary=field(), reason=field(), description=field(),
                   output=field(), task_id=f"t-{draw(st.text(CHARACTERS, max_size=6))}")


async def walk(home: Path, workspace: Path, hostile: Hostile) -> str:
    """Open the console on the home and draw everything that shows the records; what it wrote."""
    seeded: Seeded = await seed(home, workspace, hostile)
    with capture():
        app = create_app(home, workspace)
        app.bell = lambda: None  # the console's own bell is the one control character it writes by design
        async with app.run_test(size=SIZES[0], notifications=True) as pilot:
            panes = {"1": (app.query_one(TaskQueue), seeded.failed), "2": (app.query_one(ApprovalList), seeded.approval),
                     "3": (app.query_one(ReceiptJournal), seeded.receipt), "4": (app.query_one(ProgramList), seeded.program)}
            await until(pilot, lambda: all(key in table.rows for table, key in panes.values()), "the records")
            announce(home, hostile)
            app.reader.nudge()  # as another process's write is noticed, without waiting for the next poll
            await until(pilot, lambda: "program not stored" in SEQUENCE.sub("", written(app)), "the toasts")
            for size, shown in zip(SIZES, ("12", "34")):
                await pilot.resize_terminal(*size)
                for pane, (table, key) in panes.items():
                    await pilot.press(pane)
                    table.move_cursor(row=table.get_row_index(key))
                    if pane in shown:
                        await pilot.press("enter")
                        await until(pilot, lambda: isinstance(app.screen, DetailScreen) and not any(
                            "Loading" in str(widget.render()) for widget in app.screen.query("#detail-body > *")),
                            f"the detail of {key}")
                        await pilot.press("escape")
            await pilot.press("u")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the undo confirmation")
            await pilot.press("escape")
            await pilot.pause()
            return written(app)


@settings(max_examples=examples(everyday=10, thorough=60), deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile=hostiles())
def test_r3_a2_random_records_never_reach_the_terminal_as_control_sequences(hostile: Hostile) -> None:
    with tempfile.TemporaryDirectory() as folder:
        output = asyncio.run(walk(Path(folder) / "home", Path(folder) / "workspace", hostile))
    assert foreign(output) == []
