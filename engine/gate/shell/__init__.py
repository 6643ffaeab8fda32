"""Shell understanding for the gate: parsing, word decoding, launchers, payload decoding."""
