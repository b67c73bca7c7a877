"""Words the bot never suggests (the "best words nobody found" of a round).

The word lists keep slurs and obscenities (SCOWL does: they are English
words). A player who writes one is judged like any other word; the bot only
keeps them out of what it puts forward by itself. The list is
``display_blocklist.txt`` beside this module (its header says what is in it
and why).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from engines.boggle.grid import BoggleError

_DATA_FILE = "display_blocklist.txt"


@dataclass(frozen=True)
class DisplayBlocklist:
    """Exact words, and stems whose every continuation is hidden (``fuck*``)."""

    words: frozenset[str] = frozenset()
    prefixes: tuple[str, ...] = ()

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        folded = word.casefold()
        return folded in self.words or folded.startswith(self.prefixes)

    def __len__(self) -> int:
        return len(self.words) + len(self.prefixes)

    def visible(self, words: Iterable[str]) -> list[str]:
        """``words`` without the hidden ones, in their order."""
        return [word for word in words if word not in self]


def parse_blocklist(text: str) -> DisplayBlocklist:
    """One entry per line; ``#`` starts a comment; ``stem*`` hides every word starting with ``stem``."""
    words: set[str] = set()
    prefixes: set[str] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        entry = raw.split("#", 1)[0].strip().casefold()
        if not entry:
            continue
        stem, star = (entry[:-1], True) if entry.endswith("*") else (entry, False)
        if not stem.isascii() or not stem.isalpha():
            raise BoggleError(
                f"Blocklist line {number}: {raw.strip()!r} is not a word (letters a-z, optionally ending in *)."
            )
        (prefixes if star else words).add(stem)
    return DisplayBlocklist(frozenset(words), tuple(sorted(prefixes)))


@lru_cache(maxsize=1)
def display_blocklist() -> DisplayBlocklist:
    """The built-in list, read once from the package."""
    text = resources.files(__package__).joinpath(_DATA_FILE).read_text(encoding="utf-8")
    return parse_blocklist(text)
