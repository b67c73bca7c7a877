"""What a host types for a games event, read and checked before any unit of work."""

from __future__ import annotations

import re

from bot.errors import InvalidInputError
from bot.messages import events as msg
from bot.messages.i18n import _

GAMES = ("henyo", "boggle", "scrabble", "chess")
ALIASES = {
    "henyo": "henyo",
    "library henyo": "henyo",
    "boggle": "boggle",
    "word boggle": "boggle",
    "scrabble": "scrabble",
    "chess": "chess",
}
OWNER = "event"  # the sign-up list's owner_kind
DEFAULT_PAIRS = 5
MAX_PAIRS = 20
NAME_CHARS = 100
PRIZE_CHARS = 200
MAX_PLACE = 10
FORMATS = ("round_robin", "knockout", "swiss")
TOURNAMENT_GAMES = ("scrabble", "chess")
VIEW_REGISTER = "event_register"  # the event post's Register button


def read_games(text: str | None) -> list[str]:
    """``henyo, boggle scrabble`` → the games in the host's order; none given: all four."""
    if text is None or not text.strip():
        return list(GAMES)
    words = [w for w in re.split(r"[\s,;/+&]+", text.strip().lower()) if w]
    found: list[str] = []
    skip = False
    for index, word in enumerate(words):
        if skip:
            skip = False
            continue
        pair = " ".join(words[index : index + 2])
        if pair in ALIASES:
            game, skip = ALIASES[pair], True
        elif word in ALIASES:
            game = ALIASES[word]
        else:
            raise InvalidInputError(msg.unknown_game(word))
        if game not in found:
            found.append(game)
    return found


def read_game(text: str) -> str:
    """The one game a host names (``word boggle`` → ``boggle``); any other name is refused."""
    game = ALIASES.get(text.strip().lower())
    if game is None:
        raise InvalidInputError(msg.unknown_game(text))
    return game


def read_pairs(pairs: int | None) -> int:
    """How many pairs an event takes: ``DEFAULT_PAIRS`` when not given, 2 to ``MAX_PAIRS``."""
    value = DEFAULT_PAIRS if pairs is None else pairs
    if not 2 <= value <= MAX_PAIRS:
        raise InvalidInputError(msg.pairs_range(MAX_PAIRS))
    return value


def read_place(place: int | None) -> int:
    """The place a prize is for: first when not given, up to ``MAX_PLACE``."""
    value = 1 if place is None else place
    if not 1 <= value <= MAX_PLACE:
        raise InvalidInputError(msg.place_range(MAX_PLACE))
    return value


def read_prize(text: str) -> str:
    """A prize's line, spacing tidied; an empty one or one over ``PRIZE_CHARS`` is refused."""
    cleaned = " ".join(text.split())
    if not cleaned:
        raise InvalidInputError(_(msg.EMPTY_PRIZE))
    if len(cleaned) > PRIZE_CHARS:
        raise InvalidInputError(msg.prize_too_long(PRIZE_CHARS))
    return cleaned


def read_format(fmt: str | None) -> str:
    """How a Scrabble or chess round is played: round robin when not given, knockout or swiss."""
    value = (fmt or "round_robin").strip().lower().replace(" ", "_")
    if value not in FORMATS:
        raise InvalidInputError(_(msg.UNKNOWN_FORMAT))
    return value
