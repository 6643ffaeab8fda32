"""Finding 16: goal templates backtracked exponentially on hostile goals; matching is now linear."""

from __future__ import annotations

import random
import re
import string
from concurrent.futures import ThreadPoolExecutor

import pytest

from engine.programs.program import Program
from engine.programs.selector import select
from engine.programs.template import GoalTemplate
from programs import SHIPPED

HANG_GUARD = 20.0  # seconds: the regex took 38 s and 100 s on these goals; the scan takes milliseconds


def finishes(function, *args):
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(function, *args).result(timeout=HANG_GUARD)


def shipped():
    return [Program.load(path) for path in sorted(SHIPPED.glob("*.json"))]


def test_f16_shipped_template_against_fifty_thousand_spaces() -> None:
    programs = shipped()
    hostile = "Archive the file" + " " * 50_000 + "\t"
    assert finishes(select, hostile, programs) is None
    assert finishes(select, "Archive the file" + " " * 3000 + "report.txt", programs)[1] == {"file": "report.txt"}


def test_f16_six_parameter_template_on_an_eighty_character_goal() -> None:
    template = GoalTemplate.parse("{a} {b} {c} {d} {e} {f}!")
    assert finishes(template.match, "x " * 40) is None
    assert finishes(template.match, "a b c d e f g!") == {"a": "a", "b": "b", "c": "c", "d": "d", "e": "e", "f": "f g"}


@pytest.mark.parametrize("goal", ["a" * 1_000_000, " " * 1_000_000, "Archive the file " + "x " * 500_000])
def test_f16_megabyte_goals_are_answered(goal: str) -> None:
    assert finishes(GoalTemplate.parse("Archive the file {file}").match, goal) is None


def reference(template: str, goal: str) -> dict[str, str] | None:
    """The old semantics, by regular expression: fine for short goals, catastrophic for long ones."""
    pattern, last = "", 0
    for hole in re.finditer(r"\{(\w+)\}", template):
        pattern += loose(template[last : hole.start()]) + f"(?P<{hole.group(1)}>.+?)"
        last = hole.end()
    found = re.match(rf"^\s*{pattern}{loose(template[last:])}\s*$", goal, re.IGNORECASE)
    values = {k: " ".join(v.split()) for k, v in found.groupdict().items()} if found else {}
    return values if values and all(values.values()) else None  # a hole of only whitespace binds nothing


def loose(literal: str) -> str:
    words = literal.split()
    if not words:
        return r"\s+" if literal else ""
    return ((r"\s+" if literal[0].isspace() else "") + r"\s+".join(map(re.escape, words))
            + (r"\s+" if literal[-1].isspace() else ""))


TEMPLATES = ["Archive the file {file}", "Publish the release note for version {version}",
             "copy {src} to {dst}", "{a}-{b}", "rename {old} as {new} now", "v{n}"]


@pytest.mark.parametrize("template", TEMPLATES)
def test_f16_same_answers_as_the_regular_expression_on_ordinary_goals(template: str) -> None:
    chooser = random.Random(template)
    parsed = GoalTemplate.parse(template)
    words = [*template.replace("{", " ").replace("}", " ").split(), "to", "as", "-", "a.txt", "B"]
    for _ in range(400):
        goal = "".join(chooser.choice([*words, " ", "  ", "\t", chooser.choice(string.ascii_letters)])
                       for _ in range(chooser.randint(1, 9)))
        if chooser.random() < 0.5:
            goal = re.sub(r"\{(\w+)\}", lambda m: chooser.choice(["x", "a b", "y.txt"]), template.upper())
        mine = parsed.match(goal)
        assert (None if mine is None else {k: " ".join(v.split()) for k, v in mine.items()}) == reference(template, goal), goal
