"""Scrabble rules engine (RULES.md "Scrabble"): board, scoring, turns, GCG.

Pure: standard library only, randomness from a seed, no clock. See ``game.py``
for the rules as implemented and ``gcg.py`` for import, export and the
conformance checker (``python -m engines.scrabble.gcg check FILE...``).
"""

from engines.scrabble.board import (
    Board,
    Evaluation,
    Tile,
    WordScore,
    face_value,
    parse_position,
    read_typed_word,
    typed_notation,
)
from engines.scrabble.errors import (
    ChallengeError,
    ExchangeError,
    GameOverError,
    InvalidWordError,
    LexiconRequiredError,
    NotationError,
    NotYourTurnError,
    PlacementError,
    RackError,
    RunOnError,
    ScrabbleError,
    StateFormatError,
    TurnError,
    UndeclaredBlankError,
)
from engines.scrabble.game import (
    FINISH_LINE_TARGETS,
    ChallengeResult,
    GameResult,
    PlayResult,
    ScrabbleGame,
    ScrabbleOptions,
)
from engines.scrabble.lexicon import Lexicon, is_word

__all__ = [
    "FINISH_LINE_TARGETS",
    "Board",
    "ChallengeError",
    "ChallengeResult",
    "Evaluation",
    "ExchangeError",
    "GameOverError",
    "GameResult",
    "InvalidWordError",
    "Lexicon",
    "LexiconRequiredError",
    "NotYourTurnError",
    "NotationError",
    "PlacementError",
    "PlayResult",
    "RackError",
    "RunOnError",
    "ScrabbleError",
    "ScrabbleGame",
    "ScrabbleOptions",
    "StateFormatError",
    "Tile",
    "TurnError",
    "UndeclaredBlankError",
    "WordScore",
    "face_value",
    "is_word",
    "parse_position",
    "read_typed_word",
    "typed_notation",
]
