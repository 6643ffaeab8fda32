"""Record text as console content: the one way a widget or screen turns what a record says into something drawn.

Whatever a record holds may come from an agent, a web page or another process (`engine/visible.py` says
what that risks), so it is drawn through `shown`: every hidden character becomes a visible escape, and the
text is never read as markup, so a record saying `[red]` or `[secret:hmac:…]` shows exactly that. Text put
into a markup template goes in as a `$variable` through `engine.visible.visible`, and Textual substitutes
variables as plain text.
"""

from __future__ import annotations

from textual.content import Content

from engine.visible import visible


def shown(text: object, style: str = "", *, newlines: bool = False) -> Content:
    """`text` (or `str(text)`) as plain content in `style`, hidden characters written as escapes; with
    `newlines`, line feeds are kept, for a block a screen shows line by line."""
    plain = visible(text if isinstance(text, str) else str(text), newlines=newlines)
    return Content.styled(plain, style) if style else Content(plain)
