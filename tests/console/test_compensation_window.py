"""A compensable effect runs unasked with its compensator armed: the console shows until when it can be taken back.

The contact is made on the bundled demo site through `warden run --spec` (the compensation example); the
console opened on that home shows the window in the journal row and in the receipt's detail.
"""

from __future__ import annotations

import time
from pathlib import Path

from app.console import create_app
from app.screens.receipt_detail import ReceiptDetailScreen
from tests.cli.test_compensation_cli import made, site  # noqa: F401
from tests.console.test_demo_flow import SIZE, until
from tests.console.test_detail_screens import body_text, open_row
from widgets.receipt_journal import ReceiptJournal


async def test_the_journal_and_the_receipt_show_the_compensation_window(tmp_path: Path, site) -> None:  # noqa: F811
    home = tmp_path / "home"
    receipt = made(tmp_path, home, site, 3600)
    until_clock = time.strftime("%H:%M", time.localtime(receipt["compensation"]["deadline"]))
    app = create_app(home, tmp_path / "ws")
    async with app.run_test(size=SIZE) as pilot:
        journal = app.query_one(ReceiptJournal)
        await until(pilot, lambda: receipt["id"] in journal.rows, "the compensable receipt")
        row = journal.get_row(receipt["id"])
        assert f"until {until_clock}" in " ".join(str(cell) for cell in row)
        await pilot.press("3")
        screen = await open_row(pilot, journal, receipt["id"], ReceiptDetailScreen)
        text = body_text(screen)
        assert "api.delete can take" in text and "back in demo contacts until" in text and "min left" in text
