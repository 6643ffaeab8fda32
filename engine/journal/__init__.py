"""Receipts for every effect, the snapshots behind them, and undo."""
