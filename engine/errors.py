"""The one exception family every client can show as a single line."""

import errno


class WardenError(Exception):
    """Something a user can fix: the message is one line and says what is wrong."""


class DiskFull(WardenError):
    """The disk Warden keeps its records on (the database, snapshots) is full: nothing more can be recorded
    until space is freed. No task is at fault and retrying cannot help, so a runner stops for it, saying so
    in one line, rather than fail its tasks one by one or retry in silence."""


def out_of_space(exc: BaseException) -> bool:
    """Whether an OS error says a disk (or a quota on it) is full."""
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)


def one_line(exc: BaseException) -> str:
    """An exception as one line: a `WardenError`'s own message, anything else prefixed with its type."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if isinstance(exc, WardenError) else f"{type(exc).__name__}: {text}"
