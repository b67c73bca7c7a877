"""Finding a finished Scrabble game's puzzles, as the bot's worker processes run it.

A pure function of plain data (the saved game as ``ScrabbleGame.to_json()`` gives it,
the word list by reference) returning JSON-ready puzzles; ``bot.services.puzzles``
sends it to the pool (``bot.offload``), as the Scrabble computer's analysis is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.compute.scrabble import AiOptions, GameState, generator_for
from engines.scrabble.game import ScrabbleGame
from engines.scrabble.puzzles import find_puzzles


def puzzles_of(
    state: GameState, options: AiOptions | None, seats: Sequence[int] | None, margin: int
) -> list[dict[str, Any]]:
    """The game's puzzles (``ScrabblePuzzle.to_json``), in the order of its moves."""
    game = ScrabbleGame.from_json(dict(state))
    found = find_puzzles(generator_for(options), game.moves, margin=margin, seats=seats)
    return [puzzle.to_json() for puzzle in found]
