"""Unicode and terminal clean-up applied before any rule sees a command.

Attackers hide commands behind look-alike letters, full-width forms, zero-width joiners
and terminal escapes; rules only ever see the folded, printable form.
"""

from __future__ import annotations

import re
import unicodedata

_ANSI = re.compile(r"\x1b(?:\[[0-9;?]{0,32}[ -/]{0,4}[@-~]|\][^\x07\x1b]{0,512}(?:\x07|\x1b\\)|[@-Z\\-_])")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_FORMAT = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufe00-\ufe0f\ufeff\ufff0-\ufff8]")
_CONFUSABLES = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t",
        "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j", "ԁ": "d", "һ": "h", "ӏ": "l", "ԛ": "q", "ԝ": "w",
        "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
        "У": "Y", "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J",
        "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u",
        "χ": "x", "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
        "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
        "ɡ": "g", "ɑ": "a", "ı": "i", "ȷ": "j", "ℓ": "l",
        "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2212": "-", "\u2010": "-", "\u2011": "-",
        "\u2013": "-", "\u2014": "-", "\u00a0": " ",
    }
)


def normalise(text: str) -> str:
    """Strip escapes and control characters, fold compatibility forms and look-alike letters."""
    if not text.isprintable():  # printable text has no carriage return, escape or control character
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if "\x1b" in text:
            text = _ANSI.sub("", text)
        text = _CONTROL.sub("", text)
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKC", text)
    text = _FORMAT.sub("", text)
    return text.translate(_CONFUSABLES)
