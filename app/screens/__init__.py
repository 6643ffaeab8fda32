"""Screens pushed over the console's panes."""
