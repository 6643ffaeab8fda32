"""Memoisation for pure helpers keyed by one short string (a program name, a flag, a word).

The gate sees the same few hundred words over and over (`git`, `-la`, `rm`), so caching
helpers of one word pays; hostile input can carry 100 KB words, so long keys skip the
cache and memory stays bounded by `maxsize × limit` characters.
"""

from __future__ import annotations

from functools import lru_cache, wraps
from typing import Callable, TypeVar

T = TypeVar("T")


def per_word(limit: int = 64, maxsize: int = 4096) -> Callable[[Callable[[str], T]], Callable[[str], T]]:
    """Decorator: an `lru_cache` for words of at most `limit` characters; longer ones are computed."""

    def decorate(function: Callable[[str], T]) -> Callable[[str], T]:
        cached = lru_cache(maxsize=maxsize)(function)

        @wraps(function)
        def call(word: str) -> T:
            return cached(word) if len(word) <= limit else function(word)

        call.cache_info = cached.cache_info  # type: ignore[attr-defined]
        return call

    return decorate
