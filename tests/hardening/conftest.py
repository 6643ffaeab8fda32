"""The engine tests' fixtures (a runtime on a seeded workspace, a read-only view of its database), shared here."""

from tests.engine.conftest import asking_runtime, db, open_runtime, run, run_approving, runtime, ws  # noqa: F401
