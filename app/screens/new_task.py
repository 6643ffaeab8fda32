"""The new-task form (`n`): a goal, the environment it acts in and the agent that serves it, or a spec file.

Two agents need no model and no key: `scripted` proposes the steps typed in the form (a JSON list of
calls, `[{"tool": "fs.write", "args": {...}}]`), and `none` (replay only) leaves the task to a stored
program: if none fits its goal, it fails at once with "no stored program serves this goal".

The form checks what it can (an empty goal, a web task without a start URL, a spec file that does not
parse) and then hands the task to `queue`; anything either refuses (an agent with no key set) is said in
one line in the form, which stays open, and nothing is queued.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from engine import specfile
from engine.errors import WardenError
from engine.tasks.task import TaskSpec
from engine.visible import visible

ENVIRONMENTS = (("workspace (files and a confined shell)", "workspace"), ("web (a browser)", "web"),
                ("desktop (an X display)", "desktop"), ("android (a device)", "android"))
AGENTS = (("auto: whichever model has a key set", "auto"), ("Claude (ANTHROPIC_API_KEY)", "anthropic"),
          ("Gemini (GEMINI_API_KEY, web only)", "gemini"), ("scripted: the steps below, no model", "scripted"),
          ("none (replay only): a stored program serves it, or it fails at once", "none"))


@dataclass(frozen=True)
class NewTask:
    """What the form produced: a spec as JSON, and whether it names the bundled demo site (`{demo}`)."""

    raw: dict[str, Any]
    needs_demo_site: bool = False


def spec_from_fields(goal: str, env: str, start_url: str, agent: str, steps: str = "") -> dict[str, Any]:
    raw: dict[str, Any] = {"goal": goal.strip(), "env": {"kind": env}}
    if env == "web":
        if not start_url.strip():
            raise ValueError("a web task needs a start URL")
        raw["env"] = {"kind": "web", "start_url": start_url.strip()}
    if agent == "scripted":
        raw["agent"] = {"kind": "scripted", "steps": scripted_steps(steps)}
    elif agent != "none":
        raw["agent"] = {"kind": agent}
    TaskSpec.from_json(raw)
    return raw


def scripted_steps(text: str) -> list[Any]:
    """The steps field as a list of calls; whether each is a real call is the scripted agent's check, on queueing."""
    if not text.strip():
        raise ValueError('a scripted task needs its steps: a JSON list such as [{"tool": "fs.write", "args": {…}}]')
    try:
        steps = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"the steps are not JSON: {exc}") from None
    if not isinstance(steps, list) or not steps:
        raise ValueError('the steps are a non-empty JSON list of calls, [{"tool": ..., "args": {...}}, ...]')
    return steps


def spec_from_file(path: Path) -> NewTask:
    raw = specfile.read(path)
    if "goal_js" in raw:
        raise ValueError(f"{path}: its goal comes from the page (goal_js); run it with `warden run --spec`")
    if not specfile.mentions_demo(raw):
        TaskSpec.from_json(raw)
    return NewTask(raw, specfile.mentions_demo(raw))


class NewTaskScreen(ModalScreen[str | None]):
    """Dismissed with what `queue` answered (the queued task's id), or None when cancelled."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="new_task.cancel"),
        Binding("ctrl+s", "submit", "Queue it", id="new_task.submit"),
    ]
    DEFAULT_CSS = """
    NewTaskScreen { align: center middle; }
    NewTaskScreen > Vertical {
        width: 90%; max-width: 100; height: auto; max-height: 95%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    NewTaskScreen Label { margin-top: 1; color: $text-muted; }
    NewTaskScreen #new-task-error { color: $error; height: auto; margin-top: 1; }
    NewTaskScreen Horizontal { height: auto; margin-top: 1; }
    NewTaskScreen Button { margin-right: 2; }
    """

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "New task"
            yield Label("Goal")
            yield Input(placeholder="e.g. Archive the file report.csv", id="goal")
            yield Label("Environment")
            yield Select(ENVIRONMENTS, value="workspace", allow_blank=False, id="env")
            yield Label("Start URL (web tasks)")
            yield Input(placeholder="https://…", id="start-url")
            yield Label("Agent")
            yield Select(AGENTS, value="auto", allow_blank=False, id="agent")
            yield Label("Steps (scripted agent): a JSON list of calls")
            yield Input(placeholder='[{"tool": "fs.write", "args": {"path": "hello.txt", "content": "hello"}}]',
                        id="steps")
            yield Label("…or a spec file (JSON or TOML; it overrides the fields above)")
            yield Input(placeholder="path/to/task.json", id="spec-file")
            yield Static("", id="new-task-error")
            with Horizontal():
                yield Button("Queue it", variant="primary", id="submit")
                yield Button("Cancel", id="cancel")
            yield Static("[$text-muted]ctrl+s queue it · escape cancel · tab next field[/]")

    def __init__(self, queue: Callable[[NewTask], Awaitable[str]]) -> None:
        super().__init__()
        self.queue = queue

    def on_mount(self) -> None:
        self.query_one("#goal", Input).focus()

    @on(Button.Pressed, "#submit")
    @on(Input.Submitted)
    def action_submit(self) -> None:
        self.submit()

    @work(exclusive=True, group="new-task", exit_on_error=False)
    async def submit(self) -> None:
        try:
            queued = await self.queue(self._read_form())
        except (ValueError, TypeError, WardenError) as exc:
            self.query_one("#new-task-error", Static).update(Content(f"✖ {visible(str(exc))}"))
            return
        self.dismiss(queued)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)

    def _read_form(self) -> NewTask:
        path = self.query_one("#spec-file", Input).value.strip()
        if path:
            return spec_from_file(Path(path).expanduser())
        return NewTask(spec_from_fields(self.query_one("#goal", Input).value, str(self.query_one("#env", Select).value),
                                        self.query_one("#start-url", Input).value,
                                        str(self.query_one("#agent", Select).value),
                                        self.query_one("#steps", Input).value))
