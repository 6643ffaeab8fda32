"""The bundled demo web app Warden's browser agents are tested and demonstrated on.

Contacts, notes, settings and a slow reports page, served on loopback by `DemoSite`;
`/api/state` and `/api/reset` let task setups and evaluators see and fix its state.
"""

from engine.demo_site.server import DemoSite

__all__ = ["DemoSite"]
