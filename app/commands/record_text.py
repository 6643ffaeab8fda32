"""Record text in a command's human output: the one way a command prints what a record says.

Whatever a record holds (a goal, an id, a path, a receipt's summary, a reason, an error, a program's words)
may come from an agent, a web page or another process; `engine/visible.py` says what that risks on a
terminal. And Rich reads `[...]` in a string as markup and `:name:` as an emoji code, so a `[secret:hmac:…]`
placeholder would vanish and a record saying `[red]` or `[link=…]` would be obeyed.

So a command prints through `plain_console()`, which reads neither markup nor emoji codes, and makes every
line or table cell that holds record text with `line` or `cell`: plain Rich `Text`, every hidden character
written as a visible escape by `plain` (the console's widgets do the same through `widgets/record_text.py`).
A command styles its own words by giving `line` a `(text, style)` pair, never markup; a line printed without
Rich is made by `plain`, an error line by `error`, and a JSON document by `json_text`, which stays exact JSON.
Rich is imported when first used.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from engine.visible import visible

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text


def plain_console(*, stderr: bool = False, quiet: bool = False) -> Console:
    """A Rich console for a command's human output: no markup, no emoji codes, no highlighting, so what it is
    given is printed as the text it is."""
    from rich.console import Console

    return Console(highlight=False, markup=False, emoji=False, stderr=stderr, quiet=quiet)


def cell(value: object, style: str = "") -> Text:
    """`value` (or `str(value)`) as plain text in `style`, hidden characters written as escapes."""
    from rich.text import Text

    return Text(plain(value), style=style)


def plain(*parts: object) -> str:
    """`parts` (each `str(part)`) joined, hidden characters written as escapes: a line for `print`."""
    return "".join(visible(part if isinstance(part, str) else str(part)) for part in parts)


def line(*parts: object) -> Text:
    """One line from `parts`, each shown as `cell` shows it; a `(text, style)` pair is styled."""
    from rich.text import Text

    text = Text()
    for part in parts:
        text.append_text(cell(*part) if isinstance(part, tuple) else cell(part))
    return text


def error(message: object) -> None:
    """`warden: <message>` on stderr, on one line, hidden characters written as escapes."""
    print(f"warden: {plain(message)}", file=sys.stderr, flush=True)


def json_text(value: Any, *, indent: int | None = None) -> str:
    """`value` as exact JSON that a terminal only shows: printable text as it is, and every character that is
    not printable (control, direction, zero-width, lone surrogate) as a `\\uXXXX` escape."""
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    if text.isprintable():
        return text
    # json.dumps escapes a line feed inside a string, so one left in `text` is the layout's own
    return "".join(ch if ch.isprintable() or ch == "\n" else _json_escape(ch) for ch in text)


def json_block(value: Any) -> Text:
    """`value` as `json_text` lays it out for a person, two spaces an indent, with Rich's JSON colours."""
    from rich.highlighter import JSONHighlighter

    return JSONHighlighter()(json_text(value, indent=2))


def _json_escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
