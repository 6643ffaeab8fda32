"""Acceptance: a browser that dies mid-task, a page that never loads and an unreachable start URL each end the
task with one line, and what the task did before stays on record."""

from __future__ import annotations

import os
import signal
import socket
import threading
from pathlib import Path

from engine.agents.agent import Act, Finish
from engine.demo_site import DemoSite
from engine.events.records import TaskFailed
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus
from engine.tools.call import ToolCall


def chromium_children() -> list[int]:
    """Chromium processes started by this test process (the browser the runtime launched, and its helpers)."""
    mine, found = os.getpid(), []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if b"chrom" in cmdline and _descends(parent, mine):
            found.append(int(entry.name))
    return found


def _descends(pid: int, ancestor: int) -> bool:
    for _ in range(8):
        if pid == ancestor:
            return True
        if pid <= 1:
            return False
        try:
            pid = int((Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            return False
    return False


class CrashingAgent:
    """Fills a field in the page, then kills the browser and asks for a click."""

    name = "crashing"

    def __init__(self) -> None:
        self.killed: list[int] = []

    async def propose(self, observation, history):
        moves = [ToolCall("browser.fill", {"target": {"label": "Search contacts"}, "text": "Grace"})]
        if len(history) < len(moves):
            return Act(moves[len(history)])
        if not self.killed:
            self.killed = chromium_children()
            for pid in self.killed:
                os.kill(pid, signal.SIGKILL)
            return Act(ToolCall("browser.click", {"target": {"role": "link", "name": "New contact"}}))
        return Finish("done")


def web_spec(url: str, **env) -> dict:
    return {"kind": "web", "start_url": url, **env}


async def open_runtime(tmp_path: Path, agent=None) -> Runtime:
    agents = {"crashing": lambda spec, context: agent} if agent else None
    return await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches(), agents=agents)


async def test_a_browser_killed_mid_task_fails_it_with_one_line_and_keeps_earlier_receipts(tmp_path: Path) -> None:
    agent = CrashingAgent()
    runtime = await open_runtime(tmp_path, agent)
    try:
        earlier = await runtime.submit(TaskSpec(goal="Write a file first", learn=False, agent={
            "kind": "scripted", "steps": [{"tool": "fs.write", "args": {"path": "before.txt", "content": "kept"}}]}))
        with DemoSite(dialog="never") as site:
            task = await runtime.submit(TaskSpec(goal="Search, then crash", env=web_spec(site.url + "/contacts"),
                                                 agent={"kind": "crashing"}, learn=False))
            await runtime.run_until_idle()
        failed = await runtime.task(task.id)
        assert agent.killed, "no browser process was found to kill"
        assert failed.status is TaskStatus.FAILED
        assert "browser" in failed.error and "\n" not in failed.error, failed.error
        receipts = await runtime.journal.for_task(task.id)
        assert [r.call.tool for r in receipts] == ["browser.fill", "browser.click"]
        assert receipts[0].summary.startswith("browser.fill") and receipts[1].summary.startswith("FAILED")
        [kept] = await runtime.journal.for_task(earlier.id)
        assert kept.undoable and (tmp_path / "ws" / "before.txt").read_text() == "kept"
        await runtime.undo(kept.id)  # the workspace write can still be undone after the browser died
        assert not (tmp_path / "ws" / "before.txt").exists()
        [event] = [e for e in await runtime.history(task.id) if isinstance(e, TaskFailed)]
        assert event.error == failed.error
    finally:
        await runtime.close()


async def test_a_start_page_that_never_loads_fails_the_task_within_its_timeout(tmp_path: Path) -> None:
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    accepted: list[socket.socket] = []
    threading.Thread(target=lambda: accepted.append(silent.accept()[0]), daemon=True).start()
    url = f"http://127.0.0.1:{silent.getsockname()[1]}/"
    runtime = await open_runtime(tmp_path)
    try:
        task = await runtime.submit(TaskSpec(goal="Open a page that hangs", env=web_spec(url, timeout_s=2),
                                             agent={"kind": "scripted", "steps": []}, learn=False))
        await runtime.run_until_idle()
        failed = await runtime.task(task.id)
        assert failed.status is TaskStatus.FAILED
        assert failed.error.startswith("web environment: ") and url in failed.error and "\n" not in failed.error
    finally:
        await runtime.close()
        silent.close()
        for connection in accepted:
            connection.close()


async def test_an_unreachable_start_url_fails_the_task_with_one_line(tmp_path: Path) -> None:
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{closed.getsockname()[1]}/"
    closed.close()
    runtime = await open_runtime(tmp_path)
    try:
        first = await runtime.submit(TaskSpec(goal="Write a file", agent={"kind": "scripted", "steps": [
            {"tool": "fs.write", "args": {"path": "a.txt", "content": "a"}}]}, learn=False))
        task = await runtime.submit(TaskSpec(goal="Open a closed port", env=web_spec(url),
                                             agent={"kind": "scripted", "steps": []}, learn=False))
        await runtime.run_until_idle()
        failed = await runtime.task(task.id)
        assert failed.status is TaskStatus.FAILED
        assert url in failed.error and "ERR_CONNECTION_REFUSED" in failed.error and "\n" not in failed.error
        assert (await runtime.task(first.id)).status is TaskStatus.SUCCEEDED
        [receipt] = await runtime.journal.for_task(first.id)
        assert receipt.undoable and (tmp_path / "ws" / "a.txt").read_text() == "a"
    finally:
        await runtime.close()
