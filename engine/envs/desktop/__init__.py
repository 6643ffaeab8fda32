"""The desktop: one X display driven by pyautogui, its tools, and the `title` predicate."""

from engine.envs.desktop.display import NO_DISPLAY, DesktopError, desktop_unavailable
from engine.envs.desktop.environment import KIND, DesktopEnv

__all__ = ["KIND", "NO_DISPLAY", "DesktopEnv", "DesktopError", "desktop_unavailable"]
