"""What the engine needs from a word list: membership, nothing more.

The service owns the list (loaded once, shared by every game); the engine only
asks ``word in lexicon``. Lists in the wild are stored either upper or lower
case, so the engine asks with the upper-case word first and then lower case.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, runtime_checkable


@runtime_checkable
class Lexicon(Protocol):
    """Anything that answers ``word in lexicon`` (a set, a frozenset, a DAWG...)."""

    def __contains__(self, word: object, /) -> bool: ...


def is_word(lexicon: Lexicon, word: str) -> bool:
    """Whether the lexicon holds ``word``, in upper or lower case."""
    upper = word.upper()
    return upper in lexicon or upper.lower() in lexicon


def unknown_words(lexicon: Lexicon, words: Iterable[str]) -> tuple[str, ...]:
    """The words (upper case, first occurrence order, no repeats) the lexicon lacks."""
    missing: list[str] = []
    for word in words:
        upper = word.upper()
        if upper not in missing and not is_word(lexicon, upper):
            missing.append(upper)
    return tuple(missing)
