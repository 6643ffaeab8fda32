"""Every scripting command takes `--json`: the bare listings (`warden tasks`, `approvals`, `journal`) print the
same array as their `list` action, `tasks budget` prints the task with its budget, and the flag means the same
before an action as after it."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.tools.call import ToolCall
from tests.asking import asking
from tests.cli.test_records_cli import APPEND, cli, cli_json, queue, ws  # noqa: F401 - ws is a fixture


@pytest.mark.parametrize("command", ["tasks", "approvals", "journal"])
def test_a_bare_listing_prints_the_list_s_json(home: Path, ws: Path, capsys, command: str) -> None:
    asking(home)  # so the contained delete waits for a person and the approvals listing is not empty
    queue(home, ws, APPEND, ToolCall("fs.delete", {"path": "notes.txt"}))
    listed = cli_json(capsys, command, "list")
    assert listed, f"{command} list is empty: nothing would be compared"
    assert cli_json(capsys, command) == listed
    code, out, err = cli(capsys, command, "--json", "list")
    assert (code, err) == (0, "") and out == cli(capsys, command, "list", "--json")[1]


def test_tasks_budget_prints_the_task_with_its_budget(home: Path, ws: Path, capsys) -> None:
    task_id = queue(home, ws, APPEND, run=False)
    raised = cli_json(capsys, "tasks", "budget", task_id, "--steps", "5", "--tokens", "9000")
    assert (raised["id"], raised["status"]) == (task_id, "queued")
    assert raised["raised"] == {"steps": 5, "tokens": 9000}
    assert raised["budget"] == cli_json(capsys, "tasks", "show", task_id)["budget"]
    assert raised["budget"]["steps"] == 5 and raised["budget"]["tokens"] == 9000


def test_tasks_budget_without_a_limit_says_so_on_stderr(home: Path, ws: Path, capsys) -> None:
    task_id = queue(home, ws, APPEND, run=False)
    code, out, err = cli(capsys, "tasks", "budget", task_id, "--json")
    assert (code, out) == (2, "") and err.startswith("warden: give at least one of")
