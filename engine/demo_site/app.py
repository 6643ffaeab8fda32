"""What every page handler is given: the site's state and how slow the slow page is."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.demo_site.exchange import Request, Response
from engine.demo_site.state import SiteState


@dataclass(frozen=True)
class App:
    state: SiteState
    slow_seconds: float = 1.5


Handler = Callable[[App, Request], Response]
