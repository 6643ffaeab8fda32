"""One SQLite database (WAL) holds every fact Warden keeps."""

from engine.store.database import DatabaseDamaged, Store, StoreError

__all__ = ["DatabaseDamaged", "Store", "StoreError"]
