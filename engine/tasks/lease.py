"""A runner's lease on a task: a heartbeat while it works, and a stop the moment it cannot beat.

The heartbeat runs on a thread of its own with its own database connection, so blocking
work on the event loop (a slow snapshot, a stalled tool) never silences it. A beat is
written only while the task is running under this claim's epoch; when one cannot be
written, the lease is lost and `ensure` stops the next step. The fence itself is in
the step writes (see `Claim`): the lease only stops a runner early.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from engine.errors import one_line
from engine.tasks.claim import Claim, LeaseLost


class Lease:
    def __init__(self, database: Path, claim: Claim, seconds: float) -> None:
        self.claim = claim
        self._database = database
        self._seconds = seconds
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name=f"lease {claim.task_id}", daemon=True)
        self.lost: str | None = None

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def ensure(self) -> None:
        if self.lost is not None:
            raise LeaseLost(f"task {self.claim.task_id}: {self.lost}")

    def _beat(self) -> None:
        try:
            connection = sqlite3.connect(self._database, timeout=max(self._seconds / 3, 1.0), isolation_level=None)
        except sqlite3.Error as exc:
            self.lost = f"its heartbeat could not open the database ({one_line(exc)})"
            return
        try:
            while not self._stop.wait(self._seconds / 3):
                try:
                    held = connection.execute(
                        "UPDATE tasks SET heartbeat_at = ? WHERE id = ? AND status = 'running' AND claimed_by = ?"
                        " AND epoch = ?", (time.time(), self.claim.task_id, self.claim.runner, self.claim.epoch),
                    ).rowcount == 1
                except sqlite3.Error as exc:
                    self.lost = f"its heartbeat could not be written ({one_line(exc)})"
                    return
                if not held:
                    self.lost = "it is no longer running under this runner's claim"
                    return
        finally:
            connection.close()
