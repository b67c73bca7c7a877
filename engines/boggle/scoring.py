"""Scoring a Boggle round: shared words are crossed off, the rest score by length."""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from engines.boggle.blocklist import display_blocklist
from engines.boggle.commonness import WordLevels, word_levels
from engines.boggle.grid import Grid
from engines.boggle.points import DEFAULT_MIN_LENGTH, word_score
from engines.boggle.solver import find_words
from engines.boggle.words import WordStatus, check_word, read_words
from engines.lexicon import Lexicon

K = TypeVar("K", bound=Hashable)

DEFAULT_MISSED_LIMIT = 10


@dataclass(frozen=True)
class WordResult:
    """How one word of a player's list fared: its status and points."""

    word: str  # normalised
    status: WordStatus  # SCORED, CANCELLED, NOT_ON_GRID, NOT_A_WORD or TOO_SHORT
    points: int


@dataclass(frozen=True)
class PlayerResult(Generic[K]):
    """A player's list scored: each word's result, in the order first written, and the total."""

    player: K
    words: tuple[WordResult, ...]  # in the order first written
    total: int

    def with_status(self, status: WordStatus) -> tuple[WordResult, ...]:
        """The player's words that ended with ``status``."""
        return tuple(result for result in self.words if result.status is status)


@dataclass(frozen=True)
class MissedWord:
    """A word on the grid that nobody wrote, with what it would have scored."""

    word: str
    points: int


@dataclass(frozen=True)
class RoundResult(Generic[K]):
    """A scored round: each player's result, the winners, the best words missed, and what
    the grid held."""

    players: dict[K, PlayerResult[K]]  # in the submissions' order
    winners: tuple[K, ...]  # every player on the top total; empty when nobody scored
    missed: tuple[MissedWord, ...]  # best words nobody wrote, best first (never a hidden word)
    words_on_grid: int  # how many words of the minimum length the grid holds
    points_on_grid: int  # what they would all score


def player_words(submission: Sequence[str] | str, longest: int | None = None) -> list[str]:
    """A player's distinct normalised words, in the order first written: tokens
    of letters only, at most ``longest`` letters (see ``read_words``)."""
    return list(read_words(submission, longest).words)


def score_round(
    grid: Grid,
    submissions: Mapping[K, Sequence[str] | str],
    lexicon: Lexicon,
    min_length: int = DEFAULT_MIN_LENGTH,
    missed_limit: int = DEFAULT_MISSED_LIMIT,
    hidden: Container[str] | None = None,
    levels: WordLevels | None = None,
) -> RoundResult[K]:
    """Score every player's list for one grid.

    * Words are case-folded and stripped of punctuation at the ends; a word
      counts once per player however often it was written. Tokens that are
      not letters, or longer than the grid can spell, are left out (neither
      judged nor shown: see ``read_words``).
    * A valid word on two or more players' lists is CANCELLED on all of them.
      A shared word that is invalid anyway keeps its own reason (not on the
      grid, not a word, too short): it scores nothing either way, and the
      reason tells the players more than "shared" would.
    * Each remaining valid word scores by length (``word_score``).
    * The best words nobody wrote are those a member would know first
      (``levels``' bands, default: SCOWL's size levels, see ``commonness``),
      then the highest-scoring; they leave out ``hidden`` (default: the
      built-in display blocklist of slurs and obscenities). Hidden words
      still score when a player writes them and still count in the grid's
      totals.
    """
    word_score(min_length, min_length)  # rejects a minimum below 3 up front
    if hidden is None:
        hidden = display_blocklist()
    if levels is None:
        levels = word_levels()
    longest = grid.letters
    lists = {
        player: player_words(submission, longest) for player, submission in submissions.items()
    }
    listed_by = Counter(word for words in lists.values() for word in words)
    on_grid = find_words(grid, lexicon)
    statuses = {word: _status(grid, word, lexicon, min_length, on_grid) for word in listed_by}

    players: dict[K, PlayerResult[K]] = {}
    for player, words in lists.items():
        results = []
        for word in words:
            status = statuses[word]
            if status is WordStatus.VALID:
                status = WordStatus.CANCELLED if listed_by[word] > 1 else WordStatus.SCORED
            points = word_score(len(word), min_length) if status is WordStatus.SCORED else 0
            results.append(WordResult(word, status, points))
        players[player] = PlayerResult(player, tuple(results), sum(r.points for r in results))

    top = max((result.total for result in players.values()), default=0)
    winners = tuple(p for p, result in players.items() if top > 0 and result.total == top)
    gettable = {w: word_score(len(w), min_length) for w in on_grid if len(w) >= min_length}
    missed = sorted(
        (w for w in gettable if w not in listed_by and w not in hidden),
        key=lambda w: (levels.band(w), -gettable[w], -len(w), w),
    )[: max(missed_limit, 0)]
    return RoundResult(
        players=players,
        winners=winners,
        missed=tuple(MissedWord(w, gettable[w]) for w in missed),
        words_on_grid=len(gettable),
        points_on_grid=sum(gettable.values()),
    )


def _status(
    grid: Grid, word: str, lexicon: Lexicon, min_length: int, on_grid: set[str]
) -> WordStatus:
    if len(word) >= min_length and word in on_grid:
        return WordStatus.VALID  # the solver already traced it: skip the path search
    return check_word(grid, word, lexicon, min_length).status
