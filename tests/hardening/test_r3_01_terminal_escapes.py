"""Round 3, finding 1: approval spoofing through terminal escapes.

The Approvals row escaped its call, but other rendered text did not: two safe `fs.write` calls whose
paths held `ESC 7 ESC[4;110H …` repainted the Approvals pane to read `fs.write path='precious.txt' …`
while the pending call was an `fs.delete`. Every string that comes from a record now reaches the
terminal through one function that writes hidden characters as visible escapes, and never as markup.

Here records hold escapes, C1 controls, direction overrides, zero-width characters, separators and
markup in every field the console shows; the console draws every pane, every detail screen, both
confirmations, the toasts, the status line and the error log, at two sizes. What it writes to its
terminal holds no control sequence but its own, and the markup shows as the text it is.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.console import create_app
from app.screens.confirm import ConfirmScreen
from app.screens.record_detail import DetailScreen
from engine.visible import visible
from tests.console.test_demo_flow import until
from tests.hardening.hostile_records import Hostile, announce, seed
from tests.hardening.terminal_output import SEQUENCE, capture, foreign, written
from widgets.approval_list import ApprovalList
from widgets.program_list import ProgramList
from widgets.receipt_journal import ReceiptJournal
from widgets.status_line import StatusLine
from widgets.task_queue import TaskQueue

SPOOF = "\x1b7\x1b[4;110Hfs.write path='precious.txt' … writes a file\x1b8"
HOSTILE = Hostile(
    goal="[red]Deploy[/red] \x1b[2J\u202eevil",
    error="\x1b]0;pwned\x07 [b]boom[/b] \x9b31m",
    path=f"precious.txt{SPOOF}\u200b\ud800",
    summary=f"wrote {SPOOF} [secret:hmac:abcd]",
    reason="[$error]safe\u2066x\u2069 \r\n next",
    description="desc \x00\x7f\u2028\ufeff[i]",
    output="out\x1b[31mred\nline two",
    task_id="t-\x1b[7mid",
)
HIDDEN = ["\x00", "\x07", "\t", "\n", "\r", "\x1b", "\x7f", "\x85", "\x9b", "\u061c", "\u200b", "\u200d", "\u200f",
          "\u2028", "\u2029", "\u202a", "\u202e", "\u2066", "\u2069", "\ufeff", "\ud800", "\udfff"]


def text_of(output: str) -> str:
    """What the terminal shows, without Textual's own sequences."""
    return SEQUENCE.sub("", output)


@pytest.mark.parametrize("char", HIDDEN, ids=[f"U+{ord(c):04X}" for c in HIDDEN])
def test_r3_01_every_hidden_character_is_written_as_a_visible_escape(char: str) -> None:
    shown = visible(f"a{char}b")
    assert shown.isprintable() and shown.startswith("a") and shown.endswith("b") and len(shown) > 3
    assert visible(f"a{char}b", newlines=True) == ("a\nb" if char == "\n" else shown)


def test_r3_01_printable_text_is_kept_as_it_is() -> None:
    text = "Archive the file café/report 2.txt — 🎉 [red]x[/red] C:\\temp"
    assert visible(text) == text
    assert visible("\x1b[31m") == "\\x1b[31m" and visible("\u202e") == "\\u202e" and visible("\ud800") == "\\ud800"


async def test_r3_01_record_text_reaches_the_terminal_only_as_visible_escapes(tmp_path: Path) -> None:
    home, workspace = tmp_path / "home", tmp_path / "workspace"
    seeded = await seed(home, workspace, HOSTILE)
    with capture():
        app = create_app(home, workspace)
        app.bell = lambda: None  # the console's own bell is the one control character it writes by design
        async with app.run_test(size=(160, 48), notifications=True) as pilot:
            tasks, approvals = app.query_one(TaskQueue), app.query_one(ApprovalList)
            journal, programs = app.query_one(ReceiptJournal), app.query_one(ProgramList)
            await until(pilot, lambda: (tasks.row_count, approvals.row_count, journal.row_count) == (2, 1, 1)
                        and seeded.program in programs.rows, "the records")
            announce(home, HOSTILE)
            app.reader.nudge()  # as another process's write is noticed, without waiting for the next poll
            await until(pilot, lambda: "program not stored" in text_of(written(app)), "the toasts")
            app.report_error("undo task", f"stopped at {seeded.receipt}: {HOSTILE.error}")

            async def detail(pane: str, key: str) -> None:
                await pilot.press(pane)
                table = {"1": tasks, "2": approvals, "3": journal, "4": programs}[pane]
                table.move_cursor(row=table.get_row_index(key))
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, DetailScreen) and not any(
                    "Loading" in str(widget.render()) for widget in app.screen.query("#detail-body > *")),
                    f"the detail of {key}")
                await pilot.press("escape")

            await detail("1", seeded.failed)
            await detail("2", seeded.approval)
            await detail("3", seeded.receipt)
            await detail("4", seeded.program)
            programs.move_cursor(row=programs.get_row_index(seeded.program))
            for pane, key, table in (("3", "u", journal), ("1", "c", tasks)):
                await pilot.press(pane)
                table.move_cursor(row=table.get_row_index(seeded.receipt if key == "u" else seeded.paused))
                await pilot.press(key)
                await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), f"the confirmation of {key}")
                await pilot.press("escape")
            await pilot.press("exclamation_mark")
            await until(pilot, lambda: app.screen.query("#error-log"), "the error log")
            await pilot.press("escape")
            await pilot.resize_terminal(80, 24)
            for pane in "1234":
                await pilot.press(pane)
            await pilot.pause()
            assert "no longer" not in app.query_one(StatusLine).last_error
            output = written(app)
    assert foreign(output) == []
    shown = text_of(output)
    for literal in ("[red]Deploy[/red]", "[secret:hmac:abcd]", "[$error]safe", "[b]boom[/b]", "\\x1b7\\x1b[4;110H",
                    "\\u202e", "\\u200b"):
        assert literal in shown, f"{literal!r} is shown as the text it is"
    assert re.search(r"precious\.txt\\x1b7", shown), "the spoofing path shows its escapes"
