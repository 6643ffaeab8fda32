"""`python -m engine.demo_site [--port N]`: serve the demo site in the foreground until Ctrl-C."""

from __future__ import annotations

import argparse
import threading

from engine.demo_site.dialog import MODES
from engine.demo_site.server import DemoSite


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m engine.demo_site", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1", help="a loopback address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8765, help="port to listen on; 0 for any free one (default 8765)")
    parser.add_argument("--dialog", choices=MODES, default="sometimes", help='when the "What\'s new" dialog shows')
    parser.add_argument("--seed", type=int, default=None, help="seed for when the dialog shows (default random)")
    args = parser.parse_args(argv)
    site = DemoSite(dialog=args.dialog, seed=args.seed)
    try:
        url = site.start(args.host, args.port)
    except (OSError, ValueError) as exc:
        parser.exit(1, f"demo site: {exc}\n")
    try:
        print(f"Warden demo site on {url}/contacts (Ctrl-C stops it)", flush=True)
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        site.stop()


if __name__ == "__main__":
    main()
