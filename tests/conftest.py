"""Settings every test process shares, set before any test runs."""

import os

# A hook call starts its home's daemon (`warden serve`); in a test's throwaway home it idles out in seconds,
# not the half hour a person's daemon waits.
os.environ.setdefault("WARDEN_SERVE_IDLE_MINUTES", "0.2")
