"""The Programs pane: the program list beside the selected program's graph, zoomed as one pane."""

from __future__ import annotations

from textual.containers import Horizontal


class ProgramsPane(Horizontal):
    """A container the screen may maximize: zooming the list or the graph zooms both, side by side."""

    ALLOW_MAXIMIZE = True
