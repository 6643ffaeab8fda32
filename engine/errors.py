"""The one exception family every client can show as a single line."""


class WardenError(Exception):
    """Something a user can fix: the message is one line and says what is wrong."""
