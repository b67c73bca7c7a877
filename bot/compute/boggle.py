"""Boggle's CPU work, as the bot's worker processes run it: a round's scoring (solving
the grid and checking every list) and the warming of a word list's solver index."""

from __future__ import annotations

from bot.lexicons import WordListRef
from engines.boggle import Grid, RoundResult, score_round, solver_index, word_levels


def score_lists(
    grid: Grid, lists: dict[int, list[str]], words: WordListRef, min_length: int
) -> RoundResult[int]:
    """``score_round`` with the word list by name: what a worker process is sent (the
    grid's solving and every list's checking are the CPU-heavy part of a close)."""
    return score_round(grid, lists, words.lexicon(), min_length)


def warm_boggle(words: WordListRef) -> None:
    """Load the word list, the solver's index and the words' levels in this process."""
    solver_index(words.lexicon())
    word_levels()
