"""How well known a word is, for the words the bot puts forward by itself
(a round's "best words nobody found"): a member should recognise them.

The measure is SCOWL's size level, the list in which a word first appears
(10, 20, 35, 40, 50, 55, 60, 70; SCOWL's README: "size 35 is the recommended
small size, 50 the medium and 70 the large. Sizes 70 and below contain words
found in most dictionaries while the 80 size contains all the strange and
unusual words people like to use in word games"). ``word_levels.txt.gz``
beside this module holds every word up to size 70 with its level; a word not
in it (SCOWL's 80, or a club's own list) is rare. The file is built by
``python -m engines.boggle.build_levels`` from the same SCOWL lists as the
default word list (its licence: ``engines/lexicon/data/LICENSE-SCOWL.txt``).
"""

from __future__ import annotations

import gzip
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from engines.boggle.grid import BoggleError

_DATA_FILE = "word_levels.txt.gz"
FAMILIAR_LEVEL = 50  # SCOWL's medium size: words most members know
DICTIONARY_LEVEL = 70  # SCOWL's large size: in most dictionaries
UNLISTED_LEVEL = 80  # not in the file: SCOWL's "strange and unusual" words, or another list's


@dataclass(frozen=True)
class WordLevels:
    """Word → SCOWL size level; a word not listed is ``UNLISTED_LEVEL``."""

    levels: Mapping[str, int] = field(default_factory=dict)

    def level(self, word: str) -> int:
        """``word``'s SCOWL size level; ``UNLISTED_LEVEL`` when it is not listed."""
        return self.levels.get(word.casefold(), UNLISTED_LEVEL)

    def band(self, word: str) -> int:
        """0: familiar (size 50 or less), 1: in most dictionaries (up to 70), 2: rare.

        Bands rather than levels: within one, a longer word that scores more
        goes first, so "best words" are not the shortest common ones.
        """
        level = self.level(word)
        if level <= FAMILIAR_LEVEL:
            return 0
        return 1 if level <= DICTIONARY_LEVEL else 2

    def __len__(self) -> int:
        return len(self.levels)


def parse_levels(text: str) -> WordLevels:
    """``=<level>`` lines open a level; each other line is a word of it; ``#`` lines are comments."""
    levels: dict[str, int] = {}
    current: int | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("="):
            if not line[1:].isdigit():
                raise BoggleError(f"Word levels line {number}: {line!r} is not a level.")
            current = int(line[1:])
        elif current is None:
            raise BoggleError(f"Word levels line {number}: a word before any level.")
        else:
            levels.setdefault(line.casefold(), current)
    return WordLevels(levels)


@lru_cache(maxsize=1)
def word_levels() -> WordLevels:
    """The built-in levels, read once from the package."""
    data = resources.files(__package__).joinpath(_DATA_FILE).read_bytes()
    return parse_levels(gzip.decompress(data).decode("ascii"))
