"""Computer-use agents: they choose the next call from the goal and the live screen."""
