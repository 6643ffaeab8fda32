"""An Android phone: its UI hierarchy as the screen, uiautomator2 as the hands, targets and predicates over both."""

from engine.envs.android.device import AndroidError, Device, android_unavailable
from engine.envs.android.environment import KIND, AndroidEnv
from engine.envs.android.hierarchy import HierarchyError
from engine.envs.android.targets import TargetError

__all__ = ["KIND", "AndroidEnv", "AndroidError", "Device", "HierarchyError", "TargetError", "android_unavailable"]
