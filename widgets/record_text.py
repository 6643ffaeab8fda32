"""Record text as console content: the one way a widget or screen turns what a record says into something drawn.

Whatever a record holds may come from an agent, a web page or another process (`engine/visible.py` says
what that risks), so it is drawn through `shown`: every hidden character becomes a visible escape, marked
so that it cannot pass for the same letters typed, and the text is never read as markup, so a record
saying `[red]` or `[secret:hmac:…]` shows exactly that. Text put into markup templates goes through
`engine.visible.visible` as a `$variable`, which Textual substitutes as plain text.
"""

from __future__ import annotations

from textual.content import Content

from engine.visible import visible

ESCAPE_STYLE = "reverse"
"""How an escape written for a hidden character is marked: `\\x1b` in a path is not the four characters."""


def shown(text: object, style: str = "", *, newlines: bool = False) -> Content:
    """`text` (or `str(text)`) as plain content in `style`, hidden characters written as marked escapes; with
    `newlines`, line feeds are kept, for a block a screen shows line by line."""
    raw = text if isinstance(text, str) else str(text)
    if raw.isprintable():
        return Content.styled(raw, style) if style else Content(raw)
    pieces: list[str | tuple[str, str]] = []
    plain_from = 0
    for at, char in enumerate(raw):
        if char.isprintable() or (newlines and char == "\n"):
            continue
        if plain_from < at:
            pieces.append(raw[plain_from:at])
        pieces.append((visible(char), ESCAPE_STYLE))
        plain_from = at + 1
    if plain_from < len(raw):
        pieces.append(raw[plain_from:])
    content = Content.assemble(*pieces)
    return content.stylize_before(style) if style else content
