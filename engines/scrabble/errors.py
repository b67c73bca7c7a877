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


class RunOnError(PlacementError):
    """The word typed is only part of the main word the play would form: tiles
    already on the board before or after it run on into it (RULES.md: the word
    a player names is the whole main word). The play is refused, not lengthened.

    ``typed`` and ``whole`` are spelled as the board would hold them (a blank's
    letter in lower case); ``letters`` and ``squares`` are the run-on tiles, in
    board order; ``position`` is where the whole word starts (``8H`` across,
    ``H8`` down), so ``whole`` at ``position`` is the play to type instead.
    """

    def __init__(
        self,
        message: str | Text,
        *,
        typed: str,
        whole: str,
        letters: tuple[str, ...],
        squares: tuple[str, ...],
        position: str,
    ) -> None:
        super().__init__(message)
        self.typed = typed
        self.whole = whole
        self.letters = letters
        self.squares = squares
        self.position = position


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
