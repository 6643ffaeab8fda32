"""A delete whose working directory cannot be known is judged as if that directory were the worst it
could be (issue 25): `cd -` with no earlier `cd` in the script, `popd` with nothing pushed, `pushd +N`,
a `cd` through `CDPATH`, and a `cd` to a value read at run time (`cd $(cat f)`, `cd "$x"`) could each
land at `/` or the home directory, so `rm -rf *` after them is rated as `cd / && rm -rf *` is. Where
the script itself says where it went (`cd build`, `pushd x … popd`, `cd a && cd -`), nothing changes.

These strings are data: they are rated, never run.
"""

from __future__ import annotations

import pytest

from engine.gate.classifier import Classifier
from engine.gate.verdict import Level
from engine.tools.call import ToolCall

UNKNOWN = [
    "cd - && rm -rf *",
    "cd -; rm -rf .",
    "popd; rm -rf ./*",
    "popd && rm -rf *",
    "pushd +1 && rm -rf *",
    "pushd && rm -rf *",
    "CDPATH=/ cd etc && rm -rf *",
    "CDPATH=/; cd etc && rm -rf *",
    "export CDPATH=/; cd etc; rm -rf *",
    "cd \"$OLDPWD\" && rm -rf *",
    "cd $(cat f) && rm -rf *",
    "read d < f; cd \"$d\" && rm -rf *",
    "cd `cat f` && rm -rf ./*",
    "cd $UNSET_DIR && rm -rf *",
]

KNOWN = [
    "cd build && rm -rf *",
    "cd build/out && rm -rf ./*",
    "pushd build && rm -rf * && popd",
    "pushd build; popd; rm -rf *",
    "cd build && cd - && rm -rf *",
    "rm -rf *",
    "cd ./etc && rm -rf *",
]


@pytest.fixture(scope="module")
def rate():
    classifier = Classifier()
    return lambda command: classifier.classify(ToolCall("shell.run", {"command": command}))


def test_the_worst_directory_is_catastrophic(rate) -> None:
    assert rate("cd / && rm -rf *").level is Level.CATASTROPHIC


@pytest.mark.parametrize("command", UNKNOWN)
def test_a_delete_in_an_unknown_directory_is_rated_as_at_the_worst(rate, command: str) -> None:
    assert rate(command).level is Level.CATASTROPHIC, (command, rate(command))


@pytest.mark.parametrize("command", KNOWN)
def test_a_delete_where_the_script_says_it_went_keeps_its_rating(rate, command: str) -> None:
    verdict = rate(command)
    assert verdict.level is Level.DANGEROUS, (command, verdict)


def test_moving_to_an_unknown_directory_alone_is_not_a_delete(rate) -> None:
    assert rate("cd - && ls").level is Level.SAFE
    assert rate("popd; ls -la").level is Level.SAFE
