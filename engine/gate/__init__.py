"""The risk gate: every tool call is classified before it runs."""
