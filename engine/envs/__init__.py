"""Environments an agent acts in: one package per kind, each behind the `Environment` protocol."""
