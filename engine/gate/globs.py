"""Shell globs, so the gate can ask whether a word like `/etc/shado?` could name a given path.

Only what bash does by default: braces expand first (`{a,b}`), then `*`, `?` and `[…]` match
within one path component and never a leading dot. Matching is a plain two-pointer walk,
not a regex: a hostile command can hold a thousand distinct globs, and compiling a regex
for each would cost more than the whole analysis. A word with many braces has them
widened to `*`, which only ever matches more (the cautious direction).
"""

from __future__ import annotations

import re
from typing import Any

from engine.gate.memo import per_word

HAS_GLOB = re.compile(r"[*?\[]")
MAX_EXPANSIONS = 16
_BRACE = re.compile(r"\{([^{}]{0,200},[^{}]{0,200})\}")
_CONSTRUCT = re.compile(r"\[[^\]/]{0,200}\]|[*?]")
_RUNS = re.compile(r"\[[^\]]{0,200}\]|[*?\[]")
_LITERAL = re.compile(r"[A-Za-z0-9]")
_STAR = ("*",)
_ONE = ("?",)

Token = tuple[Any, ...]  # ("*",), ("?",), ("=", char) or ("[", negate, ranges)


def expand(word: str) -> list[str]:
    """The words a brace expression stands for (`a{b,c}` gives `ab`, `ac`), at most `MAX_EXPANSIONS`.

    Past that the braces become `*`, one word that matches at least as much.
    """
    if "{" not in word or "," not in word:
        return [word]
    done: list[str] = []
    todo = [word]
    while todo:
        current = todo.pop()
        match = _BRACE.search(current)
        if match is None:
            done.append(current)
        else:
            head, tail = current[: match.start()], current[match.end() :]
            todo.extend(head + alternative + tail for alternative in match.group(1).split(","))
        if len(done) + len(todo) > MAX_EXPANSIONS:
            return [_BRACE.sub("*", word)]
    return done


def literal_prefix(glob: str) -> str:
    """The text before the first wildcard."""
    found = HAS_GLOB.search(glob)
    return glob if found is None else glob[: found.start()]


def literal_suffix(glob: str) -> str:
    """The text after the last wildcard (or class)."""
    end = max(glob.rfind("*"), glob.rfind("?"), glob.rfind("]"))
    return glob[end + 1 :] if end != -1 else glob


def candidates(glob: str, paths: tuple[str, ...]) -> list[str]:
    """The `paths` a glob could match going by its literal text alone (its ends, and every run of
    literal characters in between); `matches` decides among them."""
    head, tail = literal_prefix(glob), literal_suffix(glob)
    runs = [run for run in _RUNS.split(glob[len(head) : len(glob) - len(tail)]) if run]
    return [path for path in paths if path.startswith(head) and path.endswith(tail) and all(run in path for run in runs)]


def has_letters(glob: str) -> bool:
    """True when a glob fixes at least one letter or digit (`*.pem`, not `*` or `.*`)."""
    return _LITERAL.search(_CONSTRUCT.sub("", glob)) is not None


def matches(glob: str, path: str) -> bool:
    """True when the glob (braces already expanded) matches `path` as bash would."""
    parts, names = _tokens(glob), path.split("/")
    return len(parts) == len(names) and all(_component(tokens, name) for tokens, name in zip(parts, names))


@per_word(limit=256)
def _tokens(glob: str) -> tuple[tuple[Token, ...], ...]:
    return tuple(_tokenise(part) for part in glob.split("/"))


def _tokenise(part: str) -> tuple[Token, ...]:
    tokens: list[Token] = []
    i = 0
    while i < len(part):
        ch = part[i]
        end = part.find("]", i + 2) if ch == "[" else -1
        if ch == "*":
            if not tokens or tokens[-1] is not _STAR:
                tokens.append(_STAR)
        elif ch == "?":
            tokens.append(_ONE)
        elif end != -1:
            body = part[i + 1 : end]
            negate = body[:1] in ("!", "^")
            tokens.append(("[", negate, _ranges(body[1:] if negate else body)))
            i = end
        else:
            tokens.append(("=", ch))
        i += 1
    return tuple(tokens)


def _ranges(body: str) -> tuple[tuple[str, str], ...]:
    out, i = [], 0
    while i < len(body):
        if i + 2 < len(body) and body[i + 1] == "-":
            out.append((body[i], body[i + 2]))
            i += 3
        else:
            out.append((body[i], body[i]))
            i += 1
    return tuple(out)


def _one(token: Token, ch: str) -> bool:
    kind = token[0]
    if kind == "=":
        return token[1] == ch
    if kind == "?":
        return True
    inside = any(low <= ch <= high for low, high in token[2])
    return inside != token[1]


def _component(tokens: tuple[Token, ...], text: str) -> bool:
    """Two-pointer wildcard match, backtracking only to the last `*`: linear in practice,
    at worst the product of the two lengths. A leading dot is matched only by a literal dot."""
    if text.startswith(".") and (not tokens or tokens[0][0] != "="):
        return False
    t = s = 0
    star, resume = -1, 0
    while s < len(text):
        if t < len(tokens) and tokens[t] is _STAR:
            star, resume = t, s
            t += 1
        elif t < len(tokens) and _one(tokens[t], text[s]):
            t += 1
            s += 1
        elif star != -1:
            resume += 1
            s, t = resume, star + 1
        else:
            return False
    while t < len(tokens) and tokens[t] is _STAR:
        t += 1
    return t == len(tokens)
