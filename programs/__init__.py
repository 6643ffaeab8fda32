"""Program files shipped with Warden: the corpus every new home starts with."""

from pathlib import Path

SHIPPED = Path(__file__).parent
