"""The one exception family every client can show as a single line."""


class WardenError(Exception):
    """Something a user can fix: the message is one line and says what is wrong."""


def one_line(exc: BaseException) -> str:
    """An exception as one line: a `WardenError`'s own message, anything else prefixed with its type."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if isinstance(exc, WardenError) else f"{type(exc).__name__}: {text}"
