"""Warden's runtime: gate, durable tasks, journal, tools, agents and programs.

The engine never imports Textual; the console and the CLI are its clients.
"""
