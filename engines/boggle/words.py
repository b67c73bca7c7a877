"""Reading players' words and judging one word against a grid."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from engines.boggle.grid import Grid, neighbour_table
from engines.boggle.points import DEFAULT_MIN_LENGTH
from engines.lexicon import Lexicon

_SEPARATORS = re.compile(r"[\s,;]+")


class WordStatus(str, Enum):
    """What became of a written word: valid (before sharing), scored, cancelled as shared,
    or why it does not count."""

    VALID = "valid"  # on the grid, in the word list, long enough (before sharing)
    SCORED = "scored"
    CANCELLED = "cancelled"  # valid, but on another player's list too
    NOT_ON_GRID = "not_on_grid"
    NOT_A_WORD = "not_a_word"
    TOO_SHORT = "too_short"


@dataclass(frozen=True)
class Verdict:
    """One word judged against a grid before sharing: its status and, when the grid spells
    it, the cells that do."""

    word: str  # normalised
    status: WordStatus  # VALID, TOO_SHORT, NOT_ON_GRID or NOT_A_WORD
    path: tuple[int, ...] | None = None  # cell indices, when the word is on the grid

    @property
    def ok(self) -> bool:
        """Whether the word counts (before sharing)."""
        return self.status is WordStatus.VALID


def parse_word_list(text: str) -> list[str]:
    """Split a DM'd list: words separated by spaces, commas, semicolons or new lines."""
    return [token for token in _SEPARATORS.split(text) if token]


@dataclass(frozen=True)
class WordList:
    """A list as read: its words, and the tokens left out of it (and why).

    ``words`` are distinct and normalised, in the order first written.
    ``not_letters`` are tokens as written that hold something other than
    letters once trimmed (``word:QUIZ``, ``8H``, ``don't``): commands, notes and
    junk, never words of a grid. ``too_long`` are words of letters longer than
    any grid they were read for can spell. Neither is ever judged or shown
    with the round's results.
    """

    words: tuple[str, ...]
    not_letters: tuple[str, ...] = ()
    too_long: tuple[str, ...] = ()

    @property
    def dropped(self) -> int:
        """How many tokens were left out of the list."""
        return len(self.not_letters) + len(self.too_long)


def read_words(written: Sequence[str] | str, longest: int | None = None) -> WordList:
    """A player's list (a message's text, or tokens already split) as a ``WordList``.

    A token is kept when, trimmed of punctuation at its ends and case-folded,
    it is letters only (``str.isalpha``) and at most ``longest`` letters long
    (``Grid.letters``: what the grid could spell if every cell were used);
    tokens of punctuation only are ignored. Each left-out token is reported
    once, in the order written.
    """
    tokens = parse_word_list(written) if isinstance(written, str) else written
    words: dict[str, None] = {}
    not_letters: dict[str, None] = {}
    too_long: dict[str, None] = {}
    for token in tokens:
        word = normalise_word(token)
        if not word:
            continue
        if not word.isalpha():
            not_letters.setdefault(token.strip())
        elif longest is not None and len(word) > longest:
            too_long.setdefault(word)
        else:
            words.setdefault(word)
    return WordList(tuple(words), tuple(not_letters), tuple(too_long))


def normalise_word(written: str) -> str:
    """Case-fold and drop punctuation at either end ("Cats!" -> "cats").

    Characters inside a word stay, so "don't" and "e-mail" are judged as
    written (and are not on any grid).
    """
    word = written.strip().casefold()
    start, end = 0, len(word)
    while start < end and not word[start].isalnum():
        start += 1
    while end > start and not word[end - 1].isalnum():
        end -= 1
    return word[start:end]


def find_path(grid: Grid, word: str) -> tuple[int, ...] | None:
    """Cells spelling ``word`` (normalised) through touching cells, each used once.

    A multi-letter face must match two letters of the word in its printed order.
    """
    cells = grid.cells
    table = neighbour_table(grid.width, grid.height)
    length = len(word)

    def extend(path: list[int], position: int) -> bool:
        if position == length:
            return True
        for cell in table[path[-1]]:
            face = cells[cell]
            if cell not in path and word.startswith(face, position):
                path.append(cell)
                if extend(path, position + len(face)):
                    return True
                path.pop()
        return False

    for start, face in enumerate(cells):
        if word.startswith(face):
            path = [start]
            if extend(path, len(face)):
                return tuple(path)
    return None


def check_word(
    grid: Grid, word: str, lexicon: Lexicon, min_length: int = DEFAULT_MIN_LENGTH
) -> Verdict:
    """Judge one word. Reasons are checked in this order, and the first that applies is given:

    1. too short — cheapest, and true whatever the grid or list say;
    2. not on the grid — a fact anyone can see, so it settles the word before
       any dictionary argument starts;
    3. not a word — on the grid, but not in the game's word list.

    Length counts letters, so a Qu cell adds two ("QUIT" is four letters on three cells).
    """
    normalised = normalise_word(word)
    if len(normalised) < min_length:
        return Verdict(normalised, WordStatus.TOO_SHORT)
    path = find_path(grid, normalised)
    if path is None:
        return Verdict(normalised, WordStatus.NOT_ON_GRID)
    if normalised not in lexicon:
        return Verdict(normalised, WordStatus.NOT_A_WORD, path)
    return Verdict(normalised, WordStatus.VALID, path)
