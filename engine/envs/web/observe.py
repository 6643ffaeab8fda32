"""What a model reads of a page: its URL, its title and its accessibility tree as Playwright writes it (YAML-like)."""

from __future__ import annotations

ARIA_LIMIT = 20_000


def page_text(url: str, title: str, aria: str) -> str:
    """The observation text; an ARIA snapshot past `ARIA_LIMIT` characters is cut at a line, with a note saying so."""
    head = f"URL: {url}\nTitle: {title}\n"
    if len(aria) <= ARIA_LIMIT:
        return head + aria
    cut = aria.rfind("\n", 0, ARIA_LIMIT)
    shown = aria[: cut if cut > 0 else ARIA_LIMIT]
    return head + shown + f"\n… (accessibility tree truncated: {len(shown)} of {len(aria)} characters shown)"
