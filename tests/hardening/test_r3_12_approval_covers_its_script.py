"""Round three, finding 12: an approval did not cover the script it runs.

`sh run.sh` was approved with `run.sh` shown; another task's safe `fs.write` then rewrote
`run.sh`, and the approved command ran the new script. An approval is now bound to the
contents of the files its command runs as code (their SHA-256, pinned when it is asked and
checked again at dispatch): a changed script is asked about afresh, showing the new text.

Every command here only writes a word into a file of the test's own workspace.
"""

from __future__ import annotations

import pytest

from engine.gate.approvals import ApprovalStatus
from engine.gate.classifier import Classifier
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall


@pytest.fixture
async def runtime(asking_runtime):
    """Every dangerous call asks here (tests/asking.py): what an approval pins is the subject; an unconfined shell would ask the same."""
    return asking_runtime

APPROVED = "echo approved > out.txt\n"
REWRITTEN = "echo rewritten > out.txt\n"


@pytest.fixture
def needs_sandbox(runtime):
    tool = runtime.registry.get("shell.run")
    if tool.unavailable:
        pytest.skip(tool.unavailable)


def shell(command: str) -> TaskSpec:
    return TaskSpec(goal="Run the script", agent=scripted([ToolCall("shell.run", {"command": command})]), learn=False)


async def test_r3_12_a_rewritten_script_is_asked_about_again(runtime, ws, needs_sandbox):
    (ws / "run.sh").write_text(APPROVED)
    task = await runtime.submit(shell("sh run.sh"))
    await runtime.run_task(task.id)
    [asked] = await runtime.pending_approvals()
    await runtime.approve(asked.id, by="alice")

    other = await runtime.submit(TaskSpec(goal="Rewrite run.sh", learn=False, agent=scripted(
        [ToolCall("fs.write", {"path": "run.sh", "content": REWRITTEN})])))
    await runtime.run_task(other.id)
    assert (await runtime.queue.get(other.id)).status is TaskStatus.SUCCEEDED, "the rewrite is a safe call that runs"
    assert (ws / "run.sh").read_text() == REWRITTEN

    await runtime.run_task(task.id)
    assert not (ws / "out.txt").exists(), "the approved command ran a script nobody approved"
    assert (await runtime.queue.get(task.id)).status is TaskStatus.PAUSED
    [again] = await runtime.pending_approvals()
    assert again.id != asked.id and again.task_id == task.id
    assert [(code.path, code.text) for code in again.code] == [("run.sh", REWRITTEN)]
    assert "run.sh" in again.reason and "changed" in again.reason
    assert (await runtime.approvals.get(asked.id)).status is ApprovalStatus.WITHDRAWN

    await runtime.approve(again.id, by="alice")
    await runtime.run_task(task.id)
    assert (await runtime.queue.get(task.id)).status is TaskStatus.SUCCEEDED
    assert (ws / "out.txt").read_text() == "rewritten\n"


async def test_r3_12_the_approval_shows_and_pins_what_it_runs(runtime, ws, needs_sandbox):
    (ws / "sub").mkdir()
    (ws / "sub" / "run.sh").write_text(APPROVED)
    task = await runtime.submit(shell("cd sub && sh run.sh"))
    await runtime.run_task(task.id)
    [asked] = await runtime.pending_approvals()
    [code] = asked.code
    assert (code.path, code.text, code.size) == ("sub/run.sh", APPROVED, len(APPROVED))
    await runtime.approve(asked.id)
    await runtime.run_task(task.id)
    assert (await runtime.queue.get(task.id)).status is TaskStatus.SUCCEEDED
    assert (ws / "sub" / "out.txt").read_text() == "approved\n"


@pytest.mark.parametrize(("command", "files"), [
    ("sh run.sh", ["run.sh"]),
    ("bash ./x.sh arg", ["x.sh"]),
    ("python3 tools/job.py --fast", ["tools/job.py"]),
    ("source env.sh", ["env.sh"]),
    (". ./env.sh", ["env.sh"]),
    ("./tool.sh a", ["tool.sh"]),
    ("cd sub && sh run.sh", ["sub/run.sh"]),
    ("sh a.sh; bash b.sh", ["a.sh", "b.sh"]),
    ("ls", []),
    ("sh -c 'echo hi'", []),
])
def test_r3_12_the_gate_names_the_files_a_command_runs_as_code(command, files):
    verdict = Classifier().classify(ToolCall("shell.run", {"command": command}))
    assert list(verdict.code) == files


async def test_r3_12_a_rewrite_racing_the_dispatch_is_caught_before_the_approval_is_spent(runtime, ws, needs_sandbox,
                                                                                        monkeypatch):
    """The pins are read again after the step's snapshot, the last thing before the approval is spent."""
    (ws / "run.sh").write_text(APPROVED)
    task = await runtime.submit(shell("sh run.sh"))
    await runtime.run_task(task.id)
    [asked] = await runtime.pending_approvals()
    await runtime.approve(asked.id)
    prepare = runtime.journal.prepare

    async def rewritten_meanwhile(*args, **kwargs):
        (ws / "run.sh").write_text(REWRITTEN)
        return await prepare(*args, **kwargs)

    monkeypatch.setattr(runtime.journal, "prepare", rewritten_meanwhile)
    await runtime.run_task(task.id)
    assert not (ws / "out.txt").exists()
    [again] = await runtime.pending_approvals()
    assert [code.text for code in again.code] == [REWRITTEN]
    assert (await runtime.approvals.get(asked.id)).status is ApprovalStatus.WITHDRAWN


def test_r3_12_the_approval_view_shows_the_pinned_text():
    from app.screens.approval_detail import ApprovalDetailScreen
    from engine.gate.approvals import Approval
    from engine.gate.explain import ApprovalDetail, explain
    from engine.tools.pins import Pin, PinKind

    call = ToolCall("shell.run", {"command": "sh run.sh; sh ../x.sh"})
    script = b"echo \x1b[2J hi\n"
    code = (Pin.of_content("run.sh", script, len(script), "ab" * 32), Pin("../x.sh", PinKind.UNREACHABLE))
    approval = Approval("a-1", "t-1", 0, call, call.digest(), "dangerous", "local_reversible", ("exec.script",), "r",
                        ApprovalStatus.PENDING, 0.0, 1.0, None, None, None, binding="b", code=code)
    detail = ApprovalDetail(approval, "Run it", explain(call, Classifier()), (), "waiting")
    shown = "\n".join(str(getattr(widget, "content", "")) for widget in ApprovalDetailScreen("a-1").render_detail(detail))
    assert "run.sh  13 bytes" in shown and "[2J hi" in shown and "\x1b" not in shown and "more bytes" not in shown
    assert "../x.sh  is outside the workspace: not pinned" in shown
