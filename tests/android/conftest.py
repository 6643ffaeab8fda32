"""A phone stand-in (`phone.Phone`) behind an `AndroidEnv`, connected the way uiautomator2 would be."""

from __future__ import annotations

import pytest

from engine.envs.android import AndroidEnv
from tests.android.phone import Phone

SERIAL = "emulator-5554"


@pytest.fixture
def phone() -> Phone:
    return Phone()


@pytest.fixture
def connects(phone: Phone) -> list[str | None]:
    """The serials the environment connected with, in order (it should connect once, on first use)."""
    return []


@pytest.fixture
def env(phone: Phone, connects: list[str | None]) -> AndroidEnv:
    def connect(serial: str | None) -> Phone:
        connects.append(serial)
        return phone

    return AndroidEnv(SERIAL, connect=connect)
