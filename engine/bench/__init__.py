"""Benchmarks anyone can run: the numbers docs/ quotes come from here."""
