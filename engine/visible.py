"""Record text as a terminal may show it: every character that would act on the terminal or hide itself is
written as a visible escape.

Anything a record holds (a goal, a path, a receipt's summary, an error, an event's words) may come from an
agent, a web page or another process. Written to a terminal as it is, an escape sequence in it moves the
cursor and repaints the screen (a path holding `ESC 7 ESC[4;110H` once rewrote the Approvals pane), a
direction override reorders what follows, and a zero-width character hides a difference a person is meant
to see. So the console draws every record's words through `visible` (`widgets/record_text.py`), as plain
text, never as markup.
"""

from __future__ import annotations

NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def visible(text: str, *, newlines: bool = False) -> str:
    """`text` with every character that is not printable written as a Python-style escape: control characters
    (C0, DEL, C1, ESC as `\\x1b`), direction overrides and isolates (`\\u202e`, `\\u2066`), zero-width and
    format characters (`\\u200b`, `\\ufeff`), line and paragraph separators, lone surrogates (`\\ud800`) and
    unassigned code points. Printable text, spaces and backslashes are kept as they are. With `newlines`, a
    line feed is kept (for a block of text a screen shows line by line); otherwise it is `\\n` too."""
    if text.isprintable() or (newlines and "\n" in text and text.replace("\n", "").isprintable()):
        return text
    return "".join(ch if ch.isprintable() or (newlines and ch == "\n") else _escape(ch) for ch in text)


def _escape(ch: str) -> str:
    if ch in NAMED:
        return NAMED[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
