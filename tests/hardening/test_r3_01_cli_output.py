"""Round 3, finding 1, on the command line: record text in the human output of `warden` commands.

The console draws every record's words through `engine.visible.visible`; the commands printed them raw. A
goal, path, receipt summary, reason, error or program description holding `ESC 7 ESC[4;110H`, a C1 control,
a direction override or a zero-width character reached the terminal as it was, and Rich read `[...]` in it
as markup: `[secret:hmac:…]` placeholders vanished and `[red]` was obeyed.

Here a home holds records whose every text field is hostile, and each listing and show command, the
decision and move lines, the run, submit and worker progress lines and the error lines are run in-process.
Nothing they print holds a control, direction or zero-width character; the escapes show as text, and the
markup shows as the text it is. `--json` stays exact JSON that holds none of those characters raw either.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from app.cli import main
from tests.hardening.hostile_records import Hostile, Seeded, program, seed

SPOOF = "\x1b7\x1b[4;110Hfs.write path='precious.txt' … writes a file\x1b8"
HOSTILE = Hostile(
    goal="[red]Deploy[/red] \x1b[2J\u202eevil\u200b",
    error="\x1b]0;pwned\x07 [b]boom[/b] \x9b31m",
    path=f"precious.txt{SPOOF}\u200b",
    summary=f"wrote {SPOOF} [secret:hmac:abcd]",
    reason="[link=https://example.invalid]safe[/link]\u2066x\u2069 \r\n next",
    description="desc \x00\x7f\u2028\ufeff[i]",
    output="out\x1b[31mred\nline two",
    task_id="t-\x1b[7mid\x9b",
)
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ud800-\udfff]")
"""What must never reach the terminal from a record: every control character but the line feed that ends a
line, and the direction, zero-width and separator characters."""


@pytest.fixture
def seeded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Seeded:
    home = tmp_path / "home"
    monkeypatch.setenv("WARDEN_HOME", str(home))
    monkeypatch.setenv("COLUMNS", "4000")  # a table cell is never wrapped in the middle of an escape
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    return asyncio.run(seed(home, tmp_path / "workspace", HOSTILE))


def cli(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str]:
    """Run `warden ARGS` here; its exit status, and stdout and stderr together."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out + err


def clean(output: str) -> str:
    raw = [f"{found.group()!r} at {found.start()}: {output[max(0, found.start() - 30):found.start() + 30]!r}"
           for found in RAW.finditer(output)]
    assert raw == [], "record text reached the terminal raw"
    return output


def shown(capsys: pytest.CaptureFixture, *args: str, code: int = 0) -> str:
    """What `warden ARGS` prints, checked to hold nothing raw."""
    status, output = cli(capsys, *args)
    assert status == code, output
    return clean(output)


def test_r3_01_listings_show_record_text_as_escapes_and_markup_as_text(seeded: Seeded, capsys) -> None:
    for args in (("tasks",), ("tasks", "list")):
        output = shown(capsys, *args)
        assert "[red]Deploy[/red] \\x1b[2J\\u202eevil\\u200b" in output
        assert "t-\\x1b[7mid\\x9b" in output
    for args in (("approvals",), ("approvals", "list")):
        output = shown(capsys, *args)
        assert "[link=https://example.invalid]safe[/link]\\u2066x\\u2069 \\r\\n next" in output
    for args in (("journal",), ("journal", "list"), ("journal", "list", "--task", seeded.failed)):
        output = shown(capsys, *args)
        assert "wrote \\x1b7\\x1b[4;110Hfs.write path='precious.txt' … writes a file\\x1b8 [secret:hmac:abcd]" in output
    for args in (("programs",), ("programs", "list")):
        output = shown(capsys, *args)
        assert "[red]Deploy[/red] \\x1b[2J\\u202eevil\\u200b" in output
        assert "[secret:hmac:abcd]" in output


def test_r3_01_show_and_diff_show_record_text_as_escapes(seeded: Seeded, capsys) -> None:
    output = shown(capsys, "tasks", "show", seeded.failed)
    assert "[red]Deploy[/red]" in output and "[b]boom[/b]" in output and "\\u202e" in output
    output = shown(capsys, "journal", "show", seeded.receipt)
    assert "[secret:hmac:abcd]" in output and "\\u200b" in output and "\\u202e" in output
    shown(capsys, "journal", "diff", seeded.receipt)
    output = shown(capsys, "programs", "show", seeded.program)
    assert "desc \\x00\\x7f\\u2028\\ufeff[i]" in output and "[link=https://example.invalid]safe[/link]" in output
    assert "\\x1b]0;pwned\\x07 [b]boom[/b] \\x9b31m" in output


def test_r3_01_decision_move_and_error_lines(seeded: Seeded, capsys) -> None:
    output = shown(capsys, "tasks", "retry", seeded.failed)
    assert output.startswith("t-\\x1b[7mid\\x9b queued")
    output = shown(capsys, "tasks", "cancel", "t-\x1b[7m[red]x\u202e", code=1)
    assert "t-\\x1b[7m[red]x\\u202e" in output and output.startswith("warden: ")
    output = shown(capsys, "programs", "show", "p-\x1b[2J[red]x\u200b", code=2)
    assert "p-\\x1b[2J[red]x\\u200b" in output
    output = shown(capsys, "journal", "undo", "r-\x9b2J[b]x", code=1)
    assert "r-\\x9b2J[b]x" in output
    output = shown(capsys, "approvals", "deny", seeded.approval)
    assert output.startswith("a-hostile denied by ")


def test_r3_01_program_import_errors_name_ids_as_escapes(seeded: Seeded, tmp_path: Path, capsys) -> None:
    body = program(HOSTILE)
    body["transitions"][0]["to"] = "s9 \x1b[2J[red]x\u202e"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(body), encoding="utf-8")
    status, output = cli(capsys, "programs", "import", str(bad))
    assert status == 2 and output.startswith("warden: ")
    assert "s9 \\x1b[2J[red]x\\u202e dangles" in clean(output), output


def test_r3_01_json_stays_exact_json_with_nothing_raw(seeded: Seeded, capsys) -> None:
    for args in (("tasks", "--json"), ("tasks", "show", seeded.failed, "--json"), ("approvals", "--json"),
                 ("journal", "--json"), ("journal", "show", seeded.receipt, "--json"),
                 ("journal", "diff", seeded.receipt, "--json"), ("programs", "--json"),
                 ("programs", "show", seeded.program, "--json")):
        output = shown(capsys, *args)
        json.loads(output)
    [task] = [task for task in json.loads(shown(capsys, "tasks", "--json")) if task["id"] == seeded.failed]
    assert task["goal"] == HOSTILE.goal and task["error"] == HOSTILE.error
    [program] = [p for p in json.loads(shown(capsys, "programs", "--json")) if p["id"] == seeded.program]
    assert program["goal_template"] == HOSTILE.goal and program["family"] == f"workspace:{HOSTILE.summary}"
    assert json.loads(shown(capsys, "programs", "export", seeded.program))["description"] == HOSTILE.description


def test_r3_01_run_submit_and_worker_progress_lines(seeded: Seeded, tmp_path: Path, capsys) -> None:
    workspace = tmp_path / "workspace"
    plan = [{"tool": "fs.move", "args": {"src": "missing [red]x[/red]\u202e.txt", "dst": "b.txt"}}]
    spec = {"goal": HOSTILE.goal, "plan": plan}
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(json.dumps(spec), encoding="utf-8")
    for args in (("submit", str(spec_file), "--run"), ("run", "--spec", str(spec_file))):
        status, output = cli(capsys, *args, "--workspace", str(workspace))
        clean(output)
        assert "[red]Deploy[/red] \\x1b[2J\\u202eevil\\u200b" in output, output
        assert "[red]x[/red]\\u202e.txt" in output, output
    shown(capsys, "submit", str(spec_file), "--workspace", str(workspace))
    status, output = cli(capsys, "worker", "--until-idle", "--workspace", str(workspace))
    clean(output)
    assert "[red]x[/red]\\u202e.txt" in output, output
    status, output = cli(capsys, "worker", "--until-idle", "--workspace", str(workspace), "--json")
    clean(output)
