"""Finding 17a: undo left behind the parent folders a step created.

fs.write of a/b/c.txt creates a/ and a/b/; undoing it now removes the folders that step
created when they are empty again, and never one that existed before it.
"""

from __future__ import annotations

from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall


def calls(*steps: ToolCall) -> TaskSpec:
    return TaskSpec(goal="Make files", agent=scripted(steps))


def write(path: str, content: str = "x\n") -> ToolCall:
    return ToolCall("fs.write", {"path": path, "content": content})


async def undo_all(runtime, task) -> None:
    for receipt in reversed(await runtime.journal.for_task(task.id)):
        await runtime.undo(receipt.id)


async def test_f17_undoing_a_write_removes_the_folders_it_created(runtime, run, ws):
    task = await run(runtime, calls(write("a/b/c.txt")))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    await undo_all(runtime, task)
    assert not (ws / "a").exists()


async def test_f17_a_folder_that_existed_before_is_kept(runtime, run, ws):
    (ws / "a").mkdir()
    task = await run(runtime, calls(write("a/b/c.txt"), ToolCall("fs.append", {"path": "a/d/e.txt", "content": "y"})))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    await undo_all(runtime, task)
    assert (ws / "a").is_dir() and list((ws / "a").iterdir()) == []


async def test_f17_a_created_folder_that_is_not_empty_after_the_restore_is_kept(runtime, run, ws):
    first = await run(runtime, calls(write("a/b/c.txt")))
    second = await run(runtime, calls(write("a/b/other.txt")))
    assert (first.status, second.status) == (TaskStatus.SUCCEEDED, TaskStatus.SUCCEEDED)
    await undo_all(runtime, first)
    assert not (ws / "a" / "b" / "c.txt").exists() and (ws / "a" / "b" / "other.txt").read_text() == "x\n"
    await undo_all(runtime, second)
    assert (ws / "a" / "b").is_dir()  # made by the first step, which was undone before it was empty


async def test_f17_undoing_mkdir_and_move_removes_their_new_parents(runtime, run, ws):
    (ws / "f.txt").write_text("f\n")
    task = await run(runtime, calls(ToolCall("fs.mkdir", {"path": "m/n/o"}),
                                    ToolCall("fs.move", {"src": "f.txt", "dst": "p/q/f.txt"})))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    assert (ws / "m" / "n" / "o").is_dir() and (ws / "p" / "q" / "f.txt").exists()
    await undo_all(runtime, task)
    assert not (ws / "m").exists() and not (ws / "p").exists()
    assert (ws / "f.txt").read_text() == "f\n"
