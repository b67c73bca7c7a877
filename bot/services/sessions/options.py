"""A club session's options as the moderator gives them, read and checked, and as
the session keeps them (``club_sessions.options``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any

from bot.errors import InvalidInputError
from bot.messages import sessions as messages
from bot.messages import tally as tally_messages
from bot.services.durations import read_required_duration
from engines.durations import Duration
from engines.sessions import BOARD_PAIRS, ODD_CHOICES

DEFAULT_CLOCK = "3m"
DEFAULT_LENGTH = "80m"
# A bare number is minutes for both: a session is one evening.
TURN_CLOCK = Duration("the turn clock", "m", timedelta(seconds=10), timedelta(hours=1))
SESSION_LENGTH = Duration("the session length", "m", timedelta(minutes=1), timedelta(hours=8))
CHALLENGES = ("double", "single", "void")
WHERE = ("online", "room")  # typed into Discord, or over real boards with the bot's tally


@dataclass(frozen=True)
class SessionOptions:
    """How a session plays: the turn clock, its length, explanations, the challenge rule, the
    word list, and where a member left over plays."""

    clock_seconds: int = 180
    length_seconds: int = 80 * 60
    explain: bool = True
    challenge: str = "double"
    word_list: str | None = None
    odd: str = "third"  # a member left over: a pair's third player, or 'alone'
    where: str = "online"  # 'room': played over real boards, the bot keeping the tally
    board_pairs: int = BOARD_PAIRS  # the most pairs a board seats (RULES.md: 4)

    @property
    def in_room(self) -> bool:
        """Whether the boards are real boards in the room (the bot keeps the tally)."""
        return self.where == "room"

    def to_json(self) -> dict[str, Any]:
        """The options as ``club_sessions.options`` keeps them."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SessionOptions:
        """Options as stored: a key this version does not know is dropped, a missing one takes
        its default."""
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**known)


def _duration(text: str, spec: Duration) -> int:
    return int(read_required_duration(spec, text).total_seconds())


def read_options(
    *,
    clock: str | None = None,
    length: str | None = None,
    explain: bool | None = None,
    challenge: str | None = None,
    word_list: str | None = None,
    odd: str | None = None,
    where: str | None = None,
    board_pairs: int | None = None,
) -> SessionOptions:
    """The moderator's options, read and checked: what is left out takes its default (3-minute
    turns, 80 minutes, explanations on, double challenge, a leftover member as a third)."""
    rule = (challenge or "double").strip().lower()
    if rule not in CHALLENGES:
        raise InvalidInputError(messages.CHALLENGE_CHOICES)
    leftover = (odd or "third").strip().lower()
    if leftover not in ODD_CHOICES:
        raise InvalidInputError(messages.ODD_CHOICES)
    place = (where or "online").strip().lower()
    if place not in WHERE:
        raise InvalidInputError(tally_messages.WHERE_CHOICES)
    most = BOARD_PAIRS if board_pairs is None else board_pairs
    if not 2 <= most <= BOARD_PAIRS:
        raise InvalidInputError(tally_messages.BOARD_PAIRS_CHOICES)
    return SessionOptions(
        clock_seconds=_duration(clock or DEFAULT_CLOCK, TURN_CLOCK),
        length_seconds=_duration(length or DEFAULT_LENGTH, SESSION_LENGTH),
        explain=True if explain is None else explain,
        challenge=rule,
        word_list=(word_list or "").strip() or None,
        odd=leftover,
        where=place,
        board_pairs=most,
    )
