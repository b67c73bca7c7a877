"""Scrabble's inputs and settings: who sits where, the options of ``/scrabble new``
read and checked, and the settings a game keeps (``games.options``).

Durations are read by the one grammar (``engines.durations``): a bare number is
hours for the turn clock and days for the deadline (the options say so).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, TypedDict

from bot.errors import InvalidInputError
from bot.messages import scrabble as msg
from bot.messages.i18n import N_, _
from bot.services.durations import read_duration
from engines.durations import Duration
from engines.scrabble import FINISH_LINE_TARGETS, ScrabbleError, ScrabbleOptions
from engines.scrabble.movegen import LEVELS

LIVE_CLOCK_LIMIT = timedelta(hours=1)  # a shorter turn clock means live play
ENDING_WINDOW_LIVE = timedelta(minutes=10)
ENDING_WINDOW_ASYNC = timedelta(hours=24)
MIN_CLOCK = timedelta(seconds=10)
MAX_CLOCK = timedelta(days=14)
MIN_DEADLINE = timedelta(minutes=1)
MAX_DEADLINE = timedelta(days=90)
DEFAULT_CLOCK = "1d"
DEFAULT_DEADLINE = "7d"
MAX_REMINDER_LEAD = timedelta(hours=12)

# A bare number is hours for the turn clock and days for the deadline: the units
# a member thinks in for a game that may last a week (the cog's option says so).
CLOCK = Duration(N_("the turn clock"), "h", MIN_CLOCK, MAX_CLOCK, allow_off=True)
DEADLINE = Duration(N_("the game deadline"), "d", MIN_DEADLINE, MAX_DEADLINE, allow_off=True)
LIVE_CLOCK = "3m"  # `live` as a turn clock: as the society plays

VARIANTS = ("standard", "finish_line", "nine_tiles")
_VARIANT_WORDS = {
    "finish": "finish_line",
    "9": "nine_tiles",
    "9_tiles": "nine_tiles",
    "9_tile": "nine_tiles",
}
COMPUTER_LEVELS = msg.COMPUTER_LEVELS  # the values are ``movegen.LEVELS``
DEFAULT_COMPUTER_LEVEL = "casual"
assert set(COMPUTER_LEVELS) == set(LEVELS)


@dataclass(frozen=True)
class Member:
    """A member as a command names them (or this bot, taking the computer's seat)."""

    user_id: int
    name: str
    is_bot: bool = False
    computer: bool = False  # this bot itself: the seat is played by the move generator


@dataclass(frozen=True)
class NewGameRequest:
    """What ``/scrabble new`` asks for: where, by whom, against whom, its options as typed."""

    guild_id: int
    guild_name: str
    channel_id: int
    creator: Member
    opponents: Sequence[Member] = ()  # not read by ``Invitations.create_seated``
    # Any seat may be a pair: ``partner`` is the creator's, ``opponent_partner``
    # the first opponent's, ``opponent2_partner`` and ``opponent3_partner`` the others'.
    partner: Member | None = None
    opponent_partner: Member | None = None
    opponent2_partner: Member | None = None
    opponent3_partner: Member | None = None
    clock: str | None = None
    deadline: str | None = None
    challenge: str | None = None
    variant: str | None = None
    target: str | None = None
    word_list: str | None = None
    explain: bool = False
    ending: str | None = None
    # Set when the command runs inside a thread: the game plays there (threads can't nest).
    in_thread: bool = False
    computer_level: str | None = None  # only with the computer seated
    hints: bool = False  # /scrabble hint allowed; the game is then not rated
    lookups: bool = True  # False: /scrabble check refuses this game's players while it runs

    @property
    def partners(self) -> tuple[Member | None, ...]:
        """Each seat's partner, in seat order (the creator's first)."""
        return (
            self.partner,
            self.opponent_partner,
            self.opponent2_partner,
            self.opponent3_partner,
        )


def parse_duration(text: str | None, spec: Duration) -> timedelta | None:
    """``text`` read by the one duration grammar; ``None`` for no limit (``off``)."""
    if text is None:
        return None
    if spec is CLOCK and text.strip().lower().startswith("live"):
        text = text.strip()[4:].strip() or LIVE_CLOCK
    return read_duration(spec, text)


class SettingsJson(TypedDict):
    """``games.options`` of a Scrabble game (older rows may lack the later keys)."""

    rules: dict[str, Any]  # ScrabbleOptions.to_json()
    clock_seconds: int | None
    deadline_seconds: int | None
    lexicon: str
    explain: bool
    variant: str
    hints: bool
    computer_seat: int | None
    computer_level: str | None
    lookups: bool


@dataclass(frozen=True)
class GameSettings:
    """Everything chosen when the game was created (stored in ``games.options``)."""

    rules: ScrabbleOptions
    clock_seconds: int | None
    deadline_seconds: int | None
    lexicon: str
    explain: bool
    variant: str
    hints: bool = False
    computer_seat: int | None = None
    computer_level: str | None = None
    lookups: bool = True  # /scrabble check words allowed to the players while it runs

    @property
    def rated(self) -> bool:
        """Rated games are between members, without help: no computer seat, no hints."""
        return self.computer_seat is None and not self.hints

    @property
    def clock(self) -> timedelta | None:
        """The turn clock; None when turns are not timed."""
        return None if self.clock_seconds is None else timedelta(seconds=self.clock_seconds)

    @property
    def live(self) -> bool:
        """Live play: a turn clock under an hour."""
        return self.clock is not None and self.clock < LIVE_CLOCK_LIMIT

    @property
    def ending_window(self) -> timedelta:
        """How long a play that would end the game stays open to challenge: 10 minutes
        in live play, 24 hours otherwise."""
        return ENDING_WINDOW_LIVE if self.live else ENDING_WINDOW_ASYNC

    @property
    def reminder_lead(self) -> timedelta | None:
        """How long before the turn clock runs out the seat is reminded (a third of the
        clock, at most 12 hours); None without a clock, or with one under 30 seconds."""
        if self.clock is None or self.clock < timedelta(seconds=30):
            return None
        return min(self.clock / 3, MAX_REMINDER_LEAD)

    def to_json(self) -> SettingsJson:
        """The settings as ``games.options`` keeps them."""
        return {
            "rules": self.rules.to_json(),
            "clock_seconds": self.clock_seconds,
            "deadline_seconds": self.deadline_seconds,
            "lexicon": self.lexicon,
            "explain": self.explain,
            "variant": self.variant,
            "hints": self.hints,
            "computer_seat": self.computer_seat,
            "computer_level": self.computer_level,
            "lookups": self.lookups,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameSettings:
        """The settings a game's ``games.options`` keeps (keys older rows lack take their
        defaults)."""
        return cls(
            rules=ScrabbleOptions.from_json(data["rules"]),
            clock_seconds=data.get("clock_seconds"),
            deadline_seconds=data.get("deadline_seconds"),
            lexicon=data["lexicon"],
            explain=bool(data.get("explain")),
            variant=data.get("variant", "standard"),
            hints=bool(data.get("hints")),
            computer_seat=data.get("computer_seat"),
            computer_level=data.get("computer_level"),
            lookups=bool(data.get("lookups", True)),
        )

    def describe(self) -> str:
        """The game's rules and options in words, for its invitation and first board."""
        return msg.rules_text(
            challenge=self.rules.challenge,
            target=self.rules.target_score,
            rack_size=self.rules.rack_size,
            clock_seconds=self.clock_seconds,
            deadline_seconds=self.deadline_seconds,
            end_rule=self.rules.end_rule,
            explain=self.explain,
            computer_level=self.computer_level,
            hints=self.hints,
            computer_seat=self.computer_seat is not None,
            lookups=self.lookups,
        )


def read_settings(
    request: NewGameRequest,
    seats: int,
    computer_seat: int | None,
    *,
    word_lists: Sequence[str],
    default_word_list: str,
) -> GameSettings:
    """The options of ``/scrabble new``, checked (``InvalidInputError`` says what is wrong)."""
    challenge = (request.challenge or "double").strip().lower()
    if challenge not in ("double", "single", "void"):
        raise InvalidInputError(_("The challenge rule is `double`, `single` or `void`."))
    variant = (request.variant or "standard").strip().lower().replace(" ", "_").replace("-", "_")
    variant = _VARIANT_WORDS.get(variant, variant)
    if variant not in VARIANTS:
        raise InvalidInputError(_("The variant is `standard`, `finish_line` or `nine_tiles`."))
    target = _target(request.target, variant, seats)
    ending = (request.ending or "six_zeros").strip().lower()
    if ending not in ("six_zeros", "two_passes"):
        raise InvalidInputError(_("The ending rule is `six_zeros` or `two_passes`."))
    clock = parse_duration(request.clock if request.clock is not None else DEFAULT_CLOCK, CLOCK)
    deadline = parse_duration(
        request.deadline if request.deadline is not None else DEFAULT_DEADLINE, DEADLINE
    )
    level = _level(request.computer_level, computer_seat)
    word_list = known_word_list(request.word_list or default_word_list, word_lists)
    try:
        rules = ScrabbleOptions(
            seats=seats,
            rack_size=9 if variant == "nine_tiles" else 7,
            challenge=challenge,
            end_rule=ending,
            target_score=target,
        )
    except ScrabbleError as exc:
        raise InvalidInputError.passing_on(exc, sentence=True) from exc
    return GameSettings(
        rules=rules,
        clock_seconds=int(clock.total_seconds()) if clock else None,
        deadline_seconds=int(deadline.total_seconds()) if deadline else None,
        lexicon=word_list,
        explain=request.explain,
        variant=variant,
        hints=bool(request.hints),
        computer_seat=computer_seat,
        computer_level=level,
        lookups=request.lookups,
    )


def known_word_list(name: str, word_lists: Sequence[str]) -> str:
    """``name`` if it is one of the club's word lists (never a path a member typed)."""
    name = name.strip()
    if name not in word_lists:
        known = ", ".join(f"`{msg.lexicon_display_name(n)}`" for n in word_lists)
        raise InvalidInputError(
            _("I don't know that word list. This club has: {lists}.").format(lists=known)
        )
    return name


def _level(text: str | None, computer_seat: int | None) -> str | None:
    level = (text or "").strip().lower() or None
    if computer_seat is None:
        if level is not None:
            raise InvalidInputError(
                _("The computer's `level` is for a game against me: name me as an opponent.")
            )
        return None
    level = level or DEFAULT_COMPUTER_LEVEL
    if level not in COMPUTER_LEVELS:
        raise InvalidInputError(_("The computer's level is `casual`, `equity` or `strong`."))
    return level


def _target(text: str | None, variant: str, seats: int) -> int | None:
    if text is None or not text.strip():
        return FINISH_LINE_TARGETS["intermediate"][seats] if variant == "finish_line" else None
    cleaned = text.strip().lower().split()[0]
    if cleaned in FINISH_LINE_TARGETS:
        return FINISH_LINE_TARGETS[cleaned][seats]
    if not cleaned.isdigit() or not 10 <= int(cleaned) <= 2000:
        raise InvalidInputError(
            _(
                "The finish line is a score from 10 to 2000, or a level: "
                "`beginner`, `intermediate` or `expert`."
            )
        )
    return int(cleaned)


MAX_SEAT_MEMBERS = 3  # a pair, or a pair with a third (a session's member left over)


def seat_members(request: NewGameRequest) -> list[list[Member]]:
    """Who sits at each seat of ``/scrabble new`` (any seat may be a pair), or why
    the line-up can't play."""
    if not 1 <= len(request.opponents) <= 3:
        raise InvalidInputError(_("A Scrabble game has 2 to 4 seats: name 1 to 3 opponents."))
    heads = [request.creator, *request.opponents]
    for index, partner in enumerate(request.partners):
        if partner is not None and index >= len(heads):
            raise InvalidInputError(msg.partner_without_seat(index))
    return check_seats(
        [
            [head] + ([partner] if partner is not None else [])
            for head, partner in zip(heads, request.partners, strict=False)
        ],
        creator=request.creator,
    )


def check_seats(
    seats: Sequence[Sequence[Member]], *, creator: Member | None = None
) -> list[list[Member]]:
    """The seats checked: 2 to 4, each a player or a team (up to ``MAX_SEAT_MEMBERS``),
    in any mix; every member in one place only; the computer (this bot) alone in
    a seat of its own; no other bot. ``InvalidInputError`` says what is wrong."""
    if not 2 <= len(seats) <= 4:
        raise InvalidInputError(_("A Scrabble game has 2 to 4 seats."))
    if any(not 1 <= len(seat) <= MAX_SEAT_MEMBERS for seat in seats):
        raise InvalidInputError(
            _("Each seat is one player or a team of 2 to {maximum} members.").format(
                maximum=MAX_SEAT_MEMBERS
            )
        )
    everyone = [m for seat in seats for m in seat]
    if any(m.is_bot and not m.computer for m in everyone):
        raise InvalidInputError(
            _(
                "Other bots can't play Scrabble here: invite club members, "
                "or me to play the computer."
            )
        )
    seen: set[int] = set()
    for member in everyone:
        if member.user_id in seen:
            raise InvalidInputError(msg.member_twice(member.name))
        seen.add(member.user_id)
    computers = [seat for seat in seats if any(m.computer for m in seat)]
    if any(len(seat) > 1 for seat in computers):
        raise InvalidInputError(
            _("The computer plays a seat of its own: it can't be part of a pair.")
        )
    if creator is not None and creator.computer:
        raise InvalidInputError(_("The computer can't open a game: name me as an opponent."))
    return [list(seat) for seat in seats]
