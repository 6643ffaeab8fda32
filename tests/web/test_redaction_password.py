"""Text typed into a password field is marked secret before the call is recorded (issue 13, acceptance 8).

The page says which field is a password (`type="password"`); the target (`#pw`) does not. The
live fill types the real value (the site receives it), while the database file and its WAL
hold only the keyed hash, in the call, the receipt, the events and the page text seen after.
The agent here is a model stand-in that knows the password (it is not in the task's spec).
"""

from __future__ import annotations

import secrets
from pathlib import Path
from urllib.parse import parse_qs

from engine.redaction.redactor import Redactor
from engine.runtime import Runtime, Switches
from engine.agents.scripted import ScriptedAgent
from engine.tasks.task import TaskSpec, TaskStatus
from engine.tools.call import ToolCall

LOGIN = """<!doctype html><html><head><title>Sign in</title></head><body>
<form action="/echo" method="post">
  <label for="user">Username</label> <input id="user" name="user">
  <label for="pw">Passphrase</label> <input id="pw" name="pw" type="password">
  <button type="submit">Sign in</button>
</form></body></html>"""


async def test_a_password_typed_into_a_field_never_reaches_the_database(tmp_path: Path, site) -> None:
    site.pages["/login"] = LOGIN
    password = "pw-" + secrets.token_urlsafe(12)
    spec = TaskSpec(goal="Sign in as ada", learn=False, env={"kind": "web", "start_url": site.url("/login"),
                                                             "timeout_s": 5},
                    agent={"kind": "knows-the-password"})
    steps = [
        ToolCall("browser.fill", {"target": {"css": "#user"}, "text": "ada"}),
        ToolCall("browser.fill", {"target": {"css": "#pw"}, "text": password}),
        ToolCall("browser.click", {"target": {"role": "button", "name": "Sign in"}}),
    ]
    agents = {"knows-the-password": lambda spec, context: ScriptedAgent(steps, context.tools)}
    runtime = await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches(), agents=agents)
    try:
        task = await runtime.submit(spec)
        for _ in range(5):
            await runtime.run_until_idle()
            pending = [a for a in await runtime.pending_approvals() if a.task_id == task.id]
            for approval in pending:
                await runtime.approve(approval.id)
            if not pending:
                break
        done = await runtime.task(task.id)
    finally:
        await runtime.close()
    assert done.status is TaskStatus.SUCCEEDED, done.error
    assert parse_qs(site.posts[-1][1])["pw"] == [password], "the live call typed the real value"
    home = tmp_path / "home"
    stored = b"".join(p.read_bytes() for p in home.glob("warden.db*"))
    assert password.encode() not in stored
    assert Redactor(home, environ={}).placeholder(password).encode() in stored
    assert b'"ada"' in stored, "a plain field's text is kept as typed"
