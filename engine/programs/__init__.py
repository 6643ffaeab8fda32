"""PreAct programs: compile a solved run, verify it, store it, and replay it later."""
