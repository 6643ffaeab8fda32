"""Tool calls, the tool registry and the built-in tools."""
