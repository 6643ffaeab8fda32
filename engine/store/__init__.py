"""One SQLite database (WAL) holds every fact Warden keeps."""

from engine.store.database import Store, StoreError

__all__ = ["Store", "StoreError"]
