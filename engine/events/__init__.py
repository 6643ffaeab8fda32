"""Typed event records and the bus that persists and fans them out."""
