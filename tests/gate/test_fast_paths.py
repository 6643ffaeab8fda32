"""The classifier's shortcuts must agree with the long way round.

Rules are looked up by program name and first operand and checked through specialised
callables; plain words skip the parser; a final newline is added before parsing; pure
helpers are memoised per word. Each shortcut is compared here with the plain computation.
"""

from __future__ import annotations

import pytest

from engine.bench.gate import load_corpus
from engine.gate.memo import per_word
from engine.gate.packs import bank
from engine.gate.shell.analyse import _plain_argv
from engine.gate.shell.parse import _PARSER, _Walker, parse
from engine.gate.shell.unwrap import unwrap
from engine.gate.shell.view import Command, basename
from engine.gate.text import normalise

from .conftest import CORPUS

EXAMPLES = sorted({text for item in bank().shell for text in (*item.examples, *item.counter)})
EXTRA = [
    "git status", "git -C repo reset --hard HEAD", "git checkout -- a b c", "git restore --staged x", "git switch main",
    "git config --get user.name", "git config core.pager less", "git stash list", "git stash pop", "git branch -D x",
    "git worktree remove --force /tmp/wt", "git push --force origin main", "git fetch --all", "git commit -am x",
    "rm -rf ./build", "rm -rf /", "tar -xf a.tar -C /", "find . -name x -delete", "curl -X POST https://x.example",
    "cat a | grep b | sort | uniq", "ls | grep test && echo found", "a | b | c; d | e | f\ng | h | i",
]


def _corpus() -> list[str]:
    return [case.command for case in load_corpus(CORPUS)]


def _commands(text: str) -> list[Command]:
    found = []
    for sc in parse(normalise(text)).commands:
        un = unwrap(sc.argv)
        found.append(Command(tuple(un.argv), tuple(sc.redirects), {**sc.env, **un.env}, sc.stdin, bool(sc.upstream)))
    return found


def _short(text: str) -> str:
    return repr(text[:40])


def _agree(text: str) -> None:
    rules = bank()
    everywhere = [*rules.generic_checks, *(pair for pairs in rules.scoped_checks.values() for pair in pairs)]
    for cmd in _commands(text):
        expected = [item for item in rules.rules_for(cmd.name) if item.matches(cmd)]
        first = cmd.operands[0] if cmd.operands else None
        got = [item for item, check in rules.candidates(cmd.name, first) if check(cmd)]
        assert got == expected, (text, cmd.argv)
        for item, check in everywhere:
            assert bool(check(cmd)) == bool(item.matches(cmd)), (item.id, text)


@pytest.mark.parametrize("text", EXAMPLES + EXTRA, ids=_short)
def test_dispatch_agrees_with_matching_every_rule(text: str) -> None:
    _agree(text)


def test_dispatch_agrees_on_the_corpus() -> None:
    for text in _corpus():
        if len(text) <= 16_000:
            _agree(text)


def test_every_subcommand_table_agrees_with_matching() -> None:
    rules = bank()
    for name, table in rules.first_checks.items():
        for first, pairs in table.items():
            cmd = Command((name, first, "--force", "-f", "x"))
            expected = [item for item in rules.rules_for(name) if item.matches(cmd)]
            assert [item for item, check in pairs if check(cmd)] == expected, (name, first)


def _parse_as_given(text: str):
    """The parse without the added final newline (the slow path)."""
    tree = _PARSER.parse(text.encode("utf-8", "surrogatepass"))
    walker = _Walker(text if text.isascii() else None)
    walker.visit(tree.root_node, 0)
    walker.script.error = walker.script.error or tree.root_node.has_error
    return walker.script


@pytest.mark.parametrize("text", EXTRA + [
    "a | b | c", "x; a | b | c", "time a | b | c", "cat <<EOF\nhi\nEOF", "echo 'unterminated", "ls \\",
    "echo $(a | b | c)", "if true; then a | b | c; fi", "f() { a | b | c; }", "a | b | c &", "# comment | x | y",
], ids=_short)
def test_final_newline_does_not_change_the_parse(text: str) -> None:
    assert parse(text) == _parse_as_given(text)


def test_final_newline_does_not_change_the_corpus_parses() -> None:
    for text in _corpus():
        text = normalise(text)
        if len(text) <= 16_000:
            assert parse(text) == _parse_as_given(text), text


@pytest.mark.parametrize("text", ["ls -la", "git log --oneline -5", "echo 'a b' \"c d\"", "rm -rf /tmp/x",
                                  "aws s3 ls s3://bucket", "  spaced   out\twords  "])
def test_plain_words_split_like_the_parser(text: str) -> None:
    argv = _plain_argv(text)
    assert argv is not None
    assert [sc.argv for sc in _parse_as_given(text).commands] == [argv]


@pytest.mark.parametrize("text", ["a | b", "a; b", "A=1 ls", "echo $x", "echo `x`", "ls > f", "echo \\x", "a\nb"])
def test_plain_words_leave_everything_else_to_the_parser(text: str) -> None:
    assert _plain_argv(text) is None


def test_memo_skips_long_words() -> None:
    calls = []

    @per_word(limit=8)
    def double(word: str) -> str:
        calls.append(word)
        return word * 2

    assert double("abc") == double("abc") == "abcabc"
    assert calls == ["abc"]
    long_word = "x" * 9
    assert double(long_word) == double(long_word)
    assert calls == ["abc", long_word, long_word]
    assert double.cache_info().currsize == 1


def test_basename_is_memoised_but_unchanged() -> None:
    assert basename("/usr/bin/RM.exe") == "rm"
    assert basename("C:\\Windows\\cmd.COM") == "cmd"
    assert basename("x" * 500 + "/rm") == "rm"
