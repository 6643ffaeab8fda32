"""Textual widgets of the console, one per file; they show records and post messages, never touch the engine."""
