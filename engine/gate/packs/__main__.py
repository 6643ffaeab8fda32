"""`python -m engine.gate.packs --markdown` prints the packs and themes tables for docs/gate.md."""

from __future__ import annotations

import sys

from engine.gate.packs import bank, markdown


def main(argv: list[str]) -> int:
    if "--markdown" in argv:
        print(markdown())
        return 0
    for item in bank().all():
        print(f"{item.id}\t{item.level.label}\t{item.tier.value}\t{','.join(item.themes)}\t{item.reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
