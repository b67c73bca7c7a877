"""What a host types, read and checked before any unit of work opens.

An event's options (pairs, time limit, penalty, categories, language, strict; the
durations read by the one grammar, ``engines.durations``, a bare number being
seconds), a round's request (one-off players, category, the host's own word)
and a word for the club's bank. Engine errors become ``InvalidInputError`` here, with the
engine's user-safe message.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from bot.errors import InvalidInputError
from bot.messages import henyo as messages
from bot.messages.henyo import aloud
from bot.messages.i18n import N_
from bot.services.durations import read_required_duration
from bot.services.henyo.snapshots import Member
from engines.durations import Duration
from engines.henyo import (
    CATEGORIES,
    HenyoWordError,
    WordEntry,
    clean_bank_word,
    clean_word,
    parse_categories,
    parse_category,
    parse_language,
)
from engines.text import TextError

DEFAULT_PAIRS = 5
# Who rules on a round: the channel's typed replies, or the host's presses (played aloud).
REFEREES = ("typed", "host")
MAX_PAIRS = 25
DEFAULT_TIME_LIMIT_MS = 120_000
DEFAULT_PENALTY_MS = 5_000
# A bare number is seconds for both (the cog's option descriptions say so).
TIME_LIMIT = Duration(N_("the time limit"), "s", timedelta(seconds=10), timedelta(minutes=10))
PENALTY = Duration(N_("the penalty"), "s", timedelta(0), timedelta(seconds=60))


def duration_ms(spec: Duration, typed: str | None, default_ms: int) -> int:
    """``typed`` read by ``spec``, in milliseconds (a penalty may be ``2.5s``)."""
    if typed is None:
        return default_ms
    return round(read_required_duration(spec, typed) / timedelta(milliseconds=1))


def user_error(error: TextError) -> InvalidInputError:
    """An engine's refusal (a word, a duration) passed on with its template and fields."""
    return InvalidInputError.passing_on(error)


@dataclass(frozen=True)
class EventOptions:
    """An event's settings as the host gave them, checked (the times in milliseconds)."""

    pairs: int
    time_limit_ms: int
    penalty_ms: int
    categories: tuple[str, ...]
    language: str
    strict: bool = False  # bare Oo / Hindi / Pwede only: the polite forms are penalised
    referee: str = "typed"  # the event's rounds: typed replies, or the host's presses aloud


def read_referee(referee: str | None) -> str | None:
    """``typed`` or ``host`` (None: not chosen); anything else is refused."""
    if referee is None:
        return None
    chosen = referee.strip().lower()
    if chosen not in REFEREES:
        raise InvalidInputError(aloud.REFEREE_CHOICES)
    return chosen


def event_options(
    *,
    pairs: int | None,
    time_limit: str | None,
    penalty: str | None,
    categories: str | None,
    language: str | None,
    strict: bool = False,
    referee: str | None = None,
) -> EventOptions:
    """The event's options checked, the defaults filling in what the host left out."""
    pairs = DEFAULT_PAIRS if pairs is None else pairs
    if not 1 <= pairs <= MAX_PAIRS:
        raise InvalidInputError(messages.pairs_range(MAX_PAIRS))
    try:
        return EventOptions(
            pairs,
            duration_ms(TIME_LIMIT, time_limit, DEFAULT_TIME_LIMIT_MS),
            duration_ms(PENALTY, penalty, DEFAULT_PENALTY_MS),
            parse_categories(categories),
            parse_language(language),
            strict,
            read_referee(referee) or "typed",
        )
    except HenyoWordError as exc:
        raise user_error(exc) from None


@dataclass(frozen=True)
class RoundRequest:
    """``/henyo start``: the event's next pair (no players given) or a one-off pair."""

    guesser: Member | None
    answerer: Member | None
    category: str | None
    word: str | None  # the host's own secret, cleaned
    strict: bool = False  # bare words only for this round (an event's own setting adds to it)
    referee: str | None = None  # typed | host; None: the event's choice (one-off: typed)


def round_request(
    *,
    guesser: Member | None,
    answerer: Member | None,
    category: str | None,
    word: str | None,
    strict: bool = False,
    referee: str | None = None,
) -> RoundRequest:
    """``/henyo start``'s options checked: both players or neither, two different members, a
    known category, a clean word."""
    if (guesser is None) != (answerer is None):
        raise InvalidInputError(messages.BOTH_PLAYERS)
    if guesser is not None and answerer is not None and guesser.id == answerer.id:
        raise InvalidInputError(messages.TWO_PLAYERS)
    try:
        chosen_category = parse_category(category) if category else None
        secret = clean_word(word) if word is not None else None
    except HenyoWordError as exc:
        raise user_error(exc) from None
    return RoundRequest(guesser, answerer, chosen_category, secret, strict, read_referee(referee))


def bank_word(text: str) -> str:
    """A word typed for the club's bank (to add or take out), as it is shown."""
    try:
        return clean_bank_word(text)
    except HenyoWordError as exc:
        raise user_error(exc) from None


def new_word(word: str, category: str, language: str) -> WordEntry:
    """A word for the club's bank, as it will be shown."""
    try:
        return WordEntry(
            clean_bank_word(word),
            parse_category(category),
            parse_language(language, allow_any=False),
        )
    except HenyoWordError as exc:
        raise user_error(exc) from None


def categories_wanted(category: str | None) -> list[str]:
    """The categories a word-bank listing shows: the one named, or all of them."""
    try:
        return [parse_category(category)] if category else list(CATEGORIES)
    except HenyoWordError as exc:
        raise user_error(exc) from None
