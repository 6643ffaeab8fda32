"""The JSON Schema in docs/programs.md describes what Warden writes and refuses what it refuses to load."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from engine.programs.compiler import Recorded, compile_run
from engine.programs.program import Program, ProgramError
from engine.runtime import Runtime
from engine.tools.call import ToolCall
from programs import SHIPPED

DOCS = Path(__file__).resolve().parents[2] / "docs" / "programs.md"


def schema() -> dict:
    section = DOCS.read_text(encoding="utf-8").split("## JSON Schema", 1)[1]
    return json.loads(re.search(r"```json\n(.*?)\n```", section, re.S).group(1))


def web_trace(url: str, role: str, name: str) -> dict:
    return {"before": {"kind": "web", "url": url, "text": ""}, "target": {"role": role, "name": name, "selector": "a"},
            "after": {"kind": "web", "url": url, "text": f'heading "{name}"'}}


async def test_programs_warden_writes_fit_the_documented_schema(runtime: Runtime) -> None:
    validator = jsonschema.Draft202012Validator(schema())
    shipped = [Program.load(path) for path in sorted(SHIPPED.glob("*.json"))]
    web = compile_run("Open the contact Grace Hopper and mark 3 stars", [
        Recorded(ToolCall("browser.click", {"target": {"x": 40, "y": 3}}), web_trace("http://h/contacts", "link", "Grace Hopper")),
        Recorded(ToolCall("browser.select", {"target": {"label": "Stars"}, "value": "3"}), web_trace("http://h/contacts/7", "combobox", "Stars")),
    ], runtime.registry, "web", {"task": "t"}, {"kind": "web", "start_url": "http://h/contacts"}, {"js": "true"})
    for program in [*shipped, web]:
        validator.validate(program.to_json())
    assert web.goal_template == "Open the contact {contact} and mark {mark} stars", "a lone digit the run used is lifted"
    click = web.transitions[0].action
    assert click.args["target"] == {"role": "link", "name": "{contact}"}, "a pixel click replays on the element it hit"
    assert {"exists": {"role": "link", "name": "{contact}"}} in web.state("s0").check["all"]
    assert {"url": {"contains": "/contacts"}} in web.state("s1").check["all"], "record ids are no page fact"


@pytest.mark.parametrize("breakage, says", [
    (lambda raw: raw.update(format="warden.program/9"), "format"),
    (lambda raw: raw["transitions"].append({**raw["transitions"][0], "from": "ghost"}), "dangles"),
    (lambda raw: raw["states"].append({"id": "island", "check": {"all": []}}), "cannot be reached"),
    (lambda raw: raw.update(revision=0), "revision"),
])
def test_a_hand_broken_program_is_refused_with_a_precise_line(tmp_path: Path, breakage, says: str) -> None:
    raw = json.loads(next(SHIPPED.glob("*.json")).read_text(encoding="utf-8"))
    breakage(raw)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(ProgramError, match=says) as caught:
        Program.load(path)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)
