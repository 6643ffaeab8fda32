"""The Textual console and the `warden` command line."""
