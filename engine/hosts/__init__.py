"""Agents Warden does not run itself, under its gate, journal and console: host sessions and their hooks."""
