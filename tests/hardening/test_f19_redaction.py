"""Finding 19 (issue 13, acceptance 8): secrets reached the database, the events and the journal in clear.

A shell command carrying an API key, its output, a token written by `fs.write`, the value
of a secret-named environment variable that a command prints, and a JWT in a command that
waits for a person across a restart were all stored as given. Now every record holds
`[secret:hmac:<12 hex>]` (HMAC-SHA256 under the home's key) instead; the live calls ran with
the real values (the files they wrote say so), and the call approved after the restart
was given its secret back from the home's vault.

What is promised: records and metadata are clean (the database file and its WAL, the
events, receipts, approvals, snapshot manifests and seals). A secret written INTO a
workspace file is the user's data: it is in the workspace, and would be in a snapshot
of that file's prior content if a later step changed it. This test plants secrets only
where the promise holds: the files it writes are new, so no snapshot copies their content.
"""

from __future__ import annotations

import secrets
import stat
from pathlib import Path

import pytest

from engine.events.records import ProgramRejected, ProgramStored
from engine.redaction.key import KEY_FILE
from engine.redaction.redactor import PLACEHOLDER, Redactor, SecretLost
from engine.redaction.vault import VAULT_FILE
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall
from tests.asking import ASKING


def _alnum(n: int) -> str:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    return "".join(secrets.choice(alphabet) for _ in range(n))


@pytest.fixture
def planted(monkeypatch) -> dict[str, str]:
    env_value = "plainvalue" + _alnum(12)
    monkeypatch.setenv("WARDEN_TEST_DEPLOY_TOKEN", env_value)
    return {
        "anthropic": "sk-ant-api03-" + _alnum(40),
        "github": "ghp_" + _alnum(36),
        "env": env_value,
        "jwt": f"eyJhbGciOiJIUzI1NiJ9.eyJ{_alnum(24)}.{_alnum(32)}",
    }


def _files(root: Path, skip: set[str]) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and p.name not in skip]


async def test_no_planted_secret_reaches_the_database_events_or_snapshots(tmp_path, planted):
    home, ws = tmp_path / "home", tmp_path / "ws"
    ws.mkdir()
    spec = TaskSpec(goal="Check the deploy credentials", learn=False, agent=scripted([
        ToolCall("shell.run", {"command": f'echo "key: {planted["anthropic"]}"'}),
        ToolCall("fs.write", {"path": "deploy.conf", "content": f"github = {planted['github']}\n"}),
        ToolCall("shell.run", {"command": f"echo {planted['env']}"}),
        ToolCall("shell.run", {"command": f"export TOKEN={planted['jwt']}; echo \"$TOKEN\" > jwt.txt; "
                                          f"echo \"Authorization: Bearer $TOKEN\""}),
    ]))
    runtime = await Runtime.open(home, ws, Switches(), policy=ASKING)  # a held call keeps its record too
    try:
        task = await runtime.submit(spec)
        await runtime.run_until_idle()
        waiting = [a for a in await runtime.pending_approvals() if a.task_id == task.id]
        assert len(waiting) == 1, (await runtime.task(task.id)).error
        assert planted["jwt"] not in waiting[0].call.canonical()
        assert PLACEHOLDER.search(waiting[0].call.args["command"])
    finally:
        await runtime.close()

    runtime = await Runtime.open(home, ws, Switches(), policy=ASKING)  # another process's redactor: it knows nothing
    try:
        await runtime.approve(waiting[0].id)
        await runtime.run_until_idle()
        done = await runtime.task(task.id)
        assert done.status is TaskStatus.SUCCEEDED, done.error
        outputs = [row["output"] for row in await runtime.store.fetchall(
            "SELECT output FROM steps WHERE task_id = ? ORDER BY idx", (task.id,))]
    finally:
        await runtime.close()

    assert (ws / "deploy.conf").read_text() == f"github = {planted['github']}\n", "the live call kept its value"
    assert (ws / "jwt.txt").read_text() == planted["jwt"] + "\n", "the call run after the restart had its secret back"
    redactor = Redactor(home, environ={})
    assert outputs[0] == f"key: {redactor.placeholder(planted['anthropic'])}\n"
    assert outputs[2] == f"{redactor.placeholder(planted['env'])}\n"
    assert outputs[3] == f"Authorization: Bearer {redactor.placeholder(planted['jwt'])}\n"

    key = home / KEY_FILE
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert stat.S_IMODE((home / VAULT_FILE).stat().st_mode) == 0o600
    records = _files(home, skip={KEY_FILE, VAULT_FILE})
    assert any(p.name == "warden.db" for p in records)
    assert any(p.name == "manifest.json" for p in records), "the snapshot store was looked at"
    for path in records:
        data = path.read_bytes()
        for name, value in planted.items():
            assert value.encode() not in data, f"{name} secret in clear in {path.relative_to(home)}"
    everything = b"".join(p.read_bytes() for p in records if p.name.startswith("warden.db"))
    assert redactor.placeholder(planted["github"]).encode() in everything
    assert redactor.matches(planted["github"], everything.decode("latin-1"))
    assert not redactor.matches("ghp_" + _alnum(36), everything.decode("latin-1"))


def test_each_kind_of_secret_is_found_and_the_context_stays_readable(tmp_path):
    redactor = Redactor(tmp_path, environ={"SERVICE_API_KEY": "k3y-value-12345", "PWD": "/root/work", "HOME": "/root"})
    cases = {
        "curl -H 'Authorization: Bearer abcdefgh12345678' x": "abcdefgh12345678",
        "ANTHROPIC_API_KEY=sk-ant-api03-" + "A" * 30: "sk-ant-api03-" + "A" * 30,
        "key sk-proj-" + "b" * 30: "sk-proj-" + "b" * 30,
        "id AKIAIOSFODNN7EXAMPLE": "AKIAIOSFODNN7EXAMPLE",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "push github_pat_11ABCDEFG0123456789_abcdefghijkl": "github_pat_11ABCDEFG0123456789_abcdefghijkl",
        "slack xoxb-1234567890-abcdefghij": "xoxb-1234567890-abcdefghij",
        "maps AIzaSyA1234567890abcdefghijklmnopqrstuv": "AIzaSyA1234567890abcdefghijklmnopqrstuv",
        "https://api.example/v1?token=abc123xyz&page=2": "abc123xyz",
        "mysql --password=hunter22 -u root": "hunter22",
        "psql postgres://bob:s3cr3tpw@db/x": "s3cr3tpw",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----": "b3BlbnNzaC1rZXk",
        "echo k3y-value-12345": "k3y-value-12345",
        '{"password": "correct horse"}': "correct horse",
        "export API_TOKEN=abcd1234efgh5678 && deploy": "abcd1234efgh5678",
        "DB_PASSWORD=hunter2hunter2 ./run": "hunter2hunter2",
        "SECRET_KEY_BASE=0123456789abcdef0123456789": "0123456789abcdef0123456789",
        "set PASSWORD='correct horse battery staple'": "horse battery staple",
        "accessToken: 'qwertyuiop'": "qwertyuiop",
        '{"clientSecret":"zxcvbnmasdf"}': "zxcvbnmasdf",
        "DB_PASS=letmein99 psql": "letmein99",
        "curl -H 'Authorization: Basic dXNlcjpwYXNzd29yZA=='": "dXNlcjpwYXNzd29yZA",
        "stripe sk_live_51Habcdefghijklmnopqrstuv": "sk_live_51Habcdefghijklmnopqrstuv",
        "git remote glpat-abcdefghij1234567890": "glpat-abcdefghij1234567890",
        "npm_abcdefghijklmnopqrstuvwxyz0123456789": "npm_abcdefghijklmnopqrstuvwxyz0123456789",
        "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH": "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH",
        "mail SG.abcdefghijklmnopqrstuv.ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefgh": "SG.abcdefghijklmnopqrstuv",
        "rk_live_abcdefghijklmnop1234": "rk_live_abcdefghijklmnop1234",
    }
    for text, secret in cases.items():
        redacted = redactor.text(text)
        assert secret not in redacted, text
        assert PLACEHOLDER.search(redacted), text
        assert redactor.text(redacted) == redacted, "a placeholder is never redacted again"
    assert redactor.text("cd /root/work && ls") == "cd /root/work && ls", "PWD is a directory, not a secret"
    for plain in ("TOKEN=$MY_TOKEN ./deploy", "train --max_tokens=1024 tokenizer=bert-base", "bypass=true compass=north",
                  "cat /etc/passwd; passwd root", "author=John sort_key=name primary_key=id"):
        assert redactor.text(plain) == plain, "a name that only looks like a secret's keeps its value readable"
    assert redactor.text("mysql --password=hunter22").startswith("mysql --password=[secret:hmac:")


def test_the_hash_is_stable_per_home_and_differs_between_homes(tmp_path):
    one, again, other = Redactor(tmp_path / "a", {}), Redactor(tmp_path / "a", {}), Redactor(tmp_path / "b", {})
    assert one.placeholder("hunter22") == again.placeholder("hunter22")
    assert one.placeholder("hunter22") != other.placeholder("hunter22")
    assert len(PLACEHOLDER.fullmatch(one.placeholder("hunter22")).group(1)) == 12


def test_a_recorded_call_comes_back_from_the_vault_or_says_it_cannot(tmp_path):
    writer = Redactor(tmp_path, {})
    recorded = writer.scrub({"command": "deploy --token abcd-efgh-ijkl"}, keep=True)
    assert "abcd-efgh-ijkl" not in recorded["command"]
    assert Redactor(tmp_path, {}).reveal(recorded) == {"command": "deploy --token abcd-efgh-ijkl"}
    assert b"abcd-efgh-ijkl" not in (tmp_path / VAULT_FILE).read_bytes(), "the vault holds values sealed"
    unsealed = writer.scrub({"command": "deploy --token zzzz-yyyy-xxxx"})
    with pytest.raises(SecretLost, match="cannot be run again"):
        Redactor(tmp_path, {}).reveal(unsealed)


def test_a_password_typed_into_a_field_is_redacted_once_marked(tmp_path):
    redactor = Redactor(tmp_path, {})
    redactor.mark("Tr0ub4dor&3")
    assert "Tr0ub4dor&3" not in redactor.text('browser.fill "Password" with "Tr0ub4dor&3"')


async def test_a_run_that_used_a_secret_is_not_learned_into_a_program(runtime, run, planted):
    spec = TaskSpec(goal="Print the deploy key", agent=scripted([
        ToolCall("shell.run", {"command": f"echo {planted['anthropic']}"}),
    ]))
    task = await run(runtime, spec)
    assert task.status is TaskStatus.SUCCEEDED, task.error
    rejected = [e for e in await runtime.bus.history(task.id) if isinstance(e, ProgramRejected)]
    assert [e.reason for e in rejected] == ["the run used a secret, and a program would have to hold it; nothing was learned"]
    assert not [e for e in await runtime.bus.history(task.id) if isinstance(e, ProgramStored)]
