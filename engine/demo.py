"""The bundled demo: a small workspace and four tasks that walk every path of the loop, and two web tasks.

Two tasks of one family (the second is served by replay of the program compiled from
the first), one dangerous step that waits for a person (the demo's policy asks about deletes,
which would otherwise run, undoable), one catastrophic step that is blocked. The catastrophic step targets `/` through the workspace-confined file tool,
so even with gating switched off it cannot reach outside the workspace.

With a browser, two contacts are added on the bundled demo site: the first by the
scripted agent (its run becomes a program), the second by replaying that program.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from engine.tasks.task import TaskSpec, scripted
from engine.tools.call import ToolCall

if TYPE_CHECKING:
    from engine.runtime import Runtime


SCRATCH_BYTES = b"draft notes: keep until the release ships\n"
DEMO_POLICY = """\
# The demo asks about deletes so that you see an approval. Without this table a delete inside the
# workspace runs unasked, because its receipt can undo it (docs/gate.md, "Routes").
[ask]
tools = ["fs.delete"]
"""


def seed_policy(home: Path) -> None:
    """The demo home's policy, unless the home already has one (a person's own is never replaced)."""
    home.mkdir(parents=True, exist_ok=True)
    policy = home / "policy.toml"
    if not policy.exists():
        policy.write_text(DEMO_POLICY, encoding="utf-8")


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


RESET_SITE = ("fetch('/api/reset', {method: 'POST', body: JSON.stringify({dialog: 'never'})})"
              ".then(() => location.reload())")


def new_contact(base_url: str, name: str, email: str, phone: str) -> TaskSpec:
    """Add a contact on the demo site; the evaluator reads the site's state, not the screen."""
    check = (f"fetch('/api/state').then(r => r.json()).then(s => s.contacts.some(c => c.name === {name!r}"
             f" && c.email === {email!r} && c.phone === {phone!r}))")
    return TaskSpec(
        goal=f"Add a contact named {name} with email {email} and phone {phone}",
        env={"kind": "web", "start_url": f"{base_url}/contacts", "allowed_origins": [base_url], "resettable": True,
             "setup": [{"js": RESET_SITE}, {"wait_for": {"role": "heading", "name": "Contacts"}}]},
        evaluator={"js": check},
        agent=scripted((
            ToolCall("browser.click", {"target": {"role": "link", "name": "New contact"}}),
            ToolCall("browser.fill", {"target": {"label": "Name"}, "text": name}),
            ToolCall("browser.fill", {"target": {"label": "Email"}, "text": email}),
            ToolCall("browser.fill", {"target": {"label": "Phone"}, "text": phone}),
            ToolCall("browser.click", {"target": {"role": "button", "name": "Save contact"}}),
            ToolCall("browser.wait", {"target": {"role": "heading", "name": name}}),
        )),
    )


async def web_demo(runtime: "Runtime", base_url: str) -> None:
    """A cold web run, then one served by its program.

    Each task's setup resets the demo site and says so (`resettable`), so the verify gate may
    reset it once more, replay the new program and judge it before storing it verified.
    """
    first = await runtime.submit(new_contact(base_url, "Ada Lovelace", "ada@example.org", "555-0188"))
    while not (await runtime.task(first.id)).status.finished:
        await asyncio.sleep(0.2)
    await runtime.submit(new_contact(base_url, "Grace Hopper", "grace@example.org", "555-0199"))
