"""Errors raised by the Scrabble engine.

Every illegal move raises a subclass of :class:`ScrabbleError` (a ``ValueError``)
whose message can be shown to the player as is: it says what is wrong and, where
it helps, how to write the move instead. Its template and fields are kept
(``engines.text``), so the bot writes it again in a club's language. Messages about a rack only ever talk
about the acting player's own tiles, so they are safe to show privately.
"""

from __future__ import annotations

from engines.text import Text, TextError


class ScrabbleError(TextError):
    """Base class: an illegal move or a request the game cannot honour."""


class NotationError(ScrabbleError):
    """The position or the word could not be read."""


class UndeclaredBlankError(NotationError):
    """A ``?`` in the word is not followed by the letter it stands for."""


class PlacementError(ScrabbleError):
    """The tiles do not form a legal placement on the board."""


class RackError(ScrabbleError):
    """The player does not hold the tiles the move needs."""


class InvalidWordError(ScrabbleError):
    """Void challenge mode: the play forms words that are not in the word list."""

    def __init__(self, message: str | Text, words: tuple[str, ...]) -> None:
        super().__init__(message)
        self.words = words


class ExchangeError(ScrabbleError):
    """The exchange is not allowed now (bag too small, tiles not held...)."""


class TurnError(ScrabbleError):
    """The move is not allowed at this point of the game."""


class NotYourTurnError(TurnError):
    """Someone other than the seat to move tried to move."""

    def __init__(self, message: str | Text, current_seat: int) -> None:
        super().__init__(message)
        self.current_seat = current_seat


class GameOverError(TurnError):
    """The game has finished; no more moves are accepted."""


class ChallengeError(ScrabbleError):
    """There is nothing to challenge, or this seat may not challenge it."""


class LexiconRequiredError(ScrabbleError):
    """The game checks words up front but no word list was handed in."""


class StateFormatError(ScrabbleError):
    """A saved state could not be read (unknown format or inconsistent data)."""
