"""A runtime on a thread of its own, with its own event loop, so a client's loop never waits on engine work.

The console holds one: every call into the runtime is scheduled on the engine's loop and
awaited from the caller's, and long-running engine work (serving tasks, tailing events,
watching program files) runs there as background jobs until `stop`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from engine.runtime import Runtime

T = TypeVar("T")


class EngineThread:
    def __init__(self, open_runtime: Callable[[], Awaitable["Runtime"]]) -> None:
        self._open = open_runtime
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._jobs: set[concurrent.futures.Future[object]] = set()
        self.runtime: "Runtime | None" = None

    async def start(self) -> "Runtime":
        """Open the runtime on the engine thread; its opening error, if any, is raised here."""
        ready: concurrent.futures.Future[Runtime] = concurrent.futures.Future()
        self._thread = threading.Thread(target=self._main, args=(ready,), name="warden-engine", daemon=True)
        self._thread.start()
        runtime = await asyncio.wrap_future(ready)
        self.runtime = runtime
        return runtime

    def _main(self, ready: concurrent.futures.Future[Runtime]) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            runtime = loop.run_until_complete(self._open())
        except BaseException as exc:
            loop.close()
            try:
                ready.set_exception(exc)
            except concurrent.futures.InvalidStateError:  # nobody waits for the opening any more
                pass
            return
        self._loop = loop  # before the result: whoever awaits it may schedule work at once
        try:
            ready.set_result(runtime)
        except concurrent.futures.InvalidStateError:  # the console stopped waiting (it quit while this opened)
            self._loop = None
            loop.run_until_complete(runtime.close())
            loop.close()
            return
        try:
            loop.run_forever()
        finally:
            loop.close()

    async def call(self, work: Callable[["Runtime"], Awaitable[T]]) -> T:
        """Run `work(runtime)` on the engine's loop and wait for its result from this one."""
        return await asyncio.wrap_future(self._schedule(work))

    def spawn(self, work: Callable[["Runtime"], Awaitable[object]]) -> concurrent.futures.Future[object]:
        """Start background work on the engine's loop; it is cancelled by `stop`."""
        job = self._schedule(work)
        self._jobs.add(job)
        job.add_done_callback(self._jobs.discard)
        return job

    def _schedule(self, work: Callable[["Runtime"], Awaitable[T]]) -> concurrent.futures.Future[T]:
        loop, runtime = self._loop, self.runtime
        if loop is None or runtime is None:
            raise RuntimeError("the engine thread is not running")

        async def wrapped() -> T:
            return await work(runtime)

        return asyncio.run_coroutine_threadsafe(wrapped(), loop)

    async def stop(self) -> None:
        """Cancel background work, close the runtime's database and end the thread."""
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:  # the loop is set on the thread, once the runtime opened
            return
        for job in list(self._jobs):
            job.cancel()

        async def shutdown(runtime: "Runtime") -> None:
            current = asyncio.current_task()
            pending = [task for task in asyncio.all_tasks() if task is not current]
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
            await runtime.close()

        try:
            await self.call(shutdown)
        finally:
            loop.call_soon_threadsafe(loop.stop)
            await asyncio.to_thread(thread.join, 10)
            self._loop = None
