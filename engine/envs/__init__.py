"""Environments an agent acts in; each can be observed and checked against predicates."""
