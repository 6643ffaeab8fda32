"""The workspace: a directory, file tools confined to it, and a shell confined by bubblewrap."""

from engine.envs.workspace.environment import KIND, EscapeError, WorkspaceEnv
from engine.envs.workspace.sandbox import Confinement, Sandbox

__all__ = ["KIND", "Confinement", "EscapeError", "Sandbox", "WorkspaceEnv"]
