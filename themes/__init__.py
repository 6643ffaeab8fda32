"""Warden's registered themes and its stylesheet; widgets use theme variables, never colours."""

from __future__ import annotations

from pathlib import Path

from textual.theme import Theme

STYLESHEET = Path(__file__).with_name("warden.tcss")

WARDEN_DARK = Theme(
    name="warden-dark",
    primary="#5FA8D3",
    secondary="#62B6CB",
    accent="#F4A259",
    warning="#F4D35E",
    error="#EE6055",
    success="#60D394",
    background="#12161C",
    surface="#1B2129",
    panel="#232B35",
    dark=True,
)

WARDEN_LIGHT = Theme(
    name="warden-light",
    primary="#1D5C8A",
    secondary="#2C7DA0",
    accent="#C8553D",
    warning="#B58900",
    error="#C0392B",
    success="#2E8B57",
    background="#F6F7F9",
    surface="#FFFFFF",
    panel="#E6EAF0",
    dark=False,
)

WARDEN_HIGH_CONTRAST = Theme(
    name="warden-high-contrast",
    primary="#FFFFFF",
    secondary="#FFFF00",
    accent="#00FFFF",
    warning="#FFFF00",
    error="#FF5F5F",
    success="#5FFF5F",
    foreground="#FFFFFF",
    background="#000000",
    surface="#000000",
    panel="#1C1C1C",
    boost="#FFFFFF",
    dark=True,
    variables={"text-muted": "#D0D0D0", "border": "#FFFFFF", "block-cursor-background": "#0000AF",
               "block-cursor-foreground": "#FFFFFF", "footer-key-foreground": "#FFFF00"},
)

THEMES = (WARDEN_DARK, WARDEN_LIGHT, WARDEN_HIGH_CONTRAST)
