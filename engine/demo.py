"""The bundled demo: a small workspace and four tasks that walk every path of the loop.

Two tasks of one family (the second is served by replay of the program compiled from
the first), one dangerous step that waits for a person, one catastrophic step that is
blocked. The catastrophic step targets `/` through the workspace-confined file tool,
so even with gating switched off it cannot reach outside the workspace.
"""

from __future__ import annotations

from pathlib import Path

from engine.tasks.task import TaskSpec, scripted
from engine.tools.call import ToolCall

SCRATCH_BYTES = b"draft notes: keep until the release ships\n"


def seed_workspace(root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    (root / "README.md").write_text("# Demo project\n", encoding="utf-8")
    (root / "CHANGELOG.md").write_text("# Changelog\n", encoding="utf-8")
    (root / "scratch.txt").write_bytes(SCRATCH_BYTES)


def release_note(version: str) -> TaskSpec:
    return TaskSpec(
        goal=f"Publish the release note for version {version}",
        agent=scripted((
            ToolCall("fs.mkdir", {"path": "notes"}),
            ToolCall("fs.write", {
                "path": f"notes/release-{version}.md",
                "content": f"# Release {version}\n\nWhat changed in {version}.\n",
            }),
            ToolCall("fs.append", {"path": "CHANGELOG.md", "content": f"- {version}: see notes/release-{version}.md\n"}),
        )),
        evaluator={"all": [
            {"text": {"path": f"notes/release-{version}.md", "contains": f"# Release {version}"}},
            {"text": {"path": "CHANGELOG.md", "contains": f"- {version}:"}},
        ]},
    )


def demo_tasks() -> list[TaskSpec]:
    return [
        release_note("1.2"),
        release_note("1.3"),
        TaskSpec(
            goal="Delete the scratch file scratch.txt",
            agent=scripted((ToolCall("fs.delete", {"path": "scratch.txt"}),)),
            evaluator={"absent": "scratch.txt"},
        ),
        TaskSpec(
            goal="Clean up everything on the machine",
            agent=scripted((ToolCall("fs.delete", {"path": "/"}),)),
            learn=False,
        ),
    ]
