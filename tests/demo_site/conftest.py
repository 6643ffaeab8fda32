"""A demo site per test on a free loopback port, with the dialog forced off and a short slow page."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.demo_site import DemoSite
from tests.demo_site.client import Client


@pytest.fixture
def site() -> Iterator[DemoSite]:
    with DemoSite(dialog="never", seed=7, slow_seconds=0.05) as running:
        yield running


@pytest.fixture
def client(site: DemoSite) -> Client:
    return Client(site.url)
