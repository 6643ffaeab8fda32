"""Form controls, each with a real `<label for>`, so an agent can find it by its label text."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape


def text_input(name: str, label: str, value: str = "", *, kind: str = "text", placeholder: str = "",
               required: bool = False) -> str:
    extra = (f' placeholder="{escape(placeholder)}"' if placeholder else "") + (" required" if required else "")
    return (f'<label for="{name}">{escape(label)}</label>'
            f'<input type="{kind}" id="{name}" name="{name}" value="{escape(value)}"{extra}>')


def text_area(name: str, label: str, value: str = "", *, rows: int = 6) -> str:
    return (f'<label for="{name}">{escape(label)}</label>'
            f'<textarea id="{name}" name="{name}" rows="{rows}">{escape(value)}</textarea>')


def select(name: str, label: str, options: Sequence[tuple[str, str]], chosen: str) -> str:
    """A `<select>` of (value, text) options with `chosen` selected."""
    items = "".join(f'<option value="{escape(value)}"{" selected" if value == chosen else ""}>{escape(text)}</option>'
                    for value, text in options)
    return f'<label for="{name}">{escape(label)}</label><select id="{name}" name="{name}">{items}</select>'


def checkbox(name: str, label: str, checked: bool) -> str:
    return (f'<label class="check" for="{name}"><input type="checkbox" id="{name}" name="{name}" value="on"'
            f'{" checked" if checked else ""}> {escape(label)}</label>')


def submitted(form: dict[str, list[str]], texts: Sequence[str], flags: Sequence[str] = ()) -> dict[str, str | bool]:
    """A form's values by field: each text field's value (missing → absent), each checkbox as ticked or not."""
    values: dict[str, str | bool] = {name: form[name][0] for name in texts if name in form}
    values.update({name: name in form for name in flags})
    return values
