"""The proof that an `osascript -e …` script only shows something to the person at the machine.

Every line of every `-e` must be one of: `display notification`, `display dialog` or `display
alert` of a literal string with their known clauses (title, subtitle, sound, buttons, default and
cancel button, giving up after N seconds, icon, message, alert kind), `get volume settings`, or
`beep`. Anything else (`do shell script`, `tell application …`, concatenation, a variable, a
script file, JavaScript) is not proven.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.gate.shell.view import Command

_STRING = r'"(?:[^"\\\n]|\\["\\nrt]){0,2000}"'
_NUMBER = r"\d{1,6}"
_BUTTONS = r"\{\s{0,8}" + _STRING + r"(?:\s{0,8},\s{0,8}" + _STRING + r"){0,2}\s{0,8}\}"
_BUTTON = r"(?:" + _STRING + "|" + _NUMBER + ")"
_STATEMENTS = re.compile(
    r"\s{0,40}(?:"
    r"display\s{1,8}notification\s{1,8}" + _STRING
    + r"(?:\s{1,8}(?:with\s{1,8}title|subtitle|sound\s{1,8}name)\s{1,8}" + _STRING + r"){0,3}"
    r"|display\s{1,8}dialog\s{1,8}" + _STRING
    + r"(?:\s{1,8}(?:with\s{1,8}title\s{1,8}" + _STRING + r"|buttons\s{1,8}" + _BUTTONS
    + r"|(?:default|cancel)\s{1,8}button\s{1,8}" + _BUTTON + r"|giving\s{1,8}up\s{1,8}after\s{1,8}" + _NUMBER
    + r"|with\s{1,8}icon\s{1,8}(?:note|caution|stop|" + _NUMBER + r"))){0,6}"
    r"|display\s{1,8}alert\s{1,8}" + _STRING
    + r"(?:\s{1,8}(?:message\s{1,8}" + _STRING + r"|as\s{1,8}(?:critical|informational|warning)|buttons\s{1,8}"
    + _BUTTONS + r"|(?:default|cancel)\s{1,8}button\s{1,8}" + _BUTTON + r"|giving\s{1,8}up\s{1,8}after\s{1,8}"
    + _NUMBER + r")){0,6}"
    r"|get\s{1,8}volume\s{1,8}settings|beep(?:\s{1,8}" + _NUMBER + r")?"
    r")?\s{0,40}",
    re.I,
)
_OUTPUT_FLAGS = re.compile(r"[hseo]{1,4}")
MAX_SCRIPT = 4000


def prove(cmd: "Command") -> str | None:
    """None when every `-e` line of an `osascript` command is a notification, dialog, alert, volume query or beep."""
    args = list(cmd.args)
    lines: list[str] = []
    i = 0
    while i < len(args):
        arg, value = args[i], args[i + 1] if i + 1 < len(args) else None
        if value is None or arg not in ("-e", "-l", "-s"):
            return f"osascript: {arg} is not known to only show a message"
        if arg == "-e":
            lines.extend(value.splitlines() or [""])
        elif arg == "-l" and value.lower() != "applescript" or arg == "-s" and _OUTPUT_FLAGS.fullmatch(value) is None:
            return f"osascript: {arg} {value} is not known to only show a message"
        i += 2
    if not lines or sum(map(len, lines)) > MAX_SCRIPT:
        return "osascript: no script, or one too long to read"
    for line in lines:
        if _STATEMENTS.fullmatch(line) is None:
            return f"osascript: {line.strip()[:80]!r} is not known to only show a message"
    return None
