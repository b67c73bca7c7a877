"""Chess clocks: time controls and the arithmetic of remaining time.

Pure: every function takes the moment it reasons about (``at``); nothing reads
the wall clock. Two kinds of control:

* **live** (``10+5``, ``3m``, ``90s+2``, ``1:30``): each side has a bank of time
  that runs while it is their move; an increment is added after each move.
* **correspondence** (``3d``, ``12h``, ``1h30m``, a bare number of days): each
  move must be made within a fixed allowance counted from the opponent's move.

Durations are read with the one grammar of ``engines.durations``.

A correspondence player may take a **vacation**: while it lasts their own clock
does not run (the opponent's still does). Vacations are bounded per game.

All durations are whole milliseconds so a clock survives a JSON round trip exactly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Literal, NotRequired, TypedDict

import chess

from engines.durations import Duration, DurationError, format_duration
from engines.text import N_, Text, TextError

LIVE: Literal["live"] = "live"
CORRESPONDENCE: Literal["correspondence"] = "correspondence"

DEFAULT_TIME_CONTROL = "3d"
MIN_LIVE_SECONDS = 10
MAX_LIVE_SECONDS = 3 * 60 * 60
MAX_INCREMENT_SECONDS = 60
MIN_CORRESPONDENCE_SECONDS = 60 * 60
MAX_CORRESPONDENCE_SECONDS = 14 * 24 * 60 * 60
MAX_VACATION_DAYS = 14  # per player per game, all vacations together
DAY_MS = 24 * 60 * 60 * 1000

# The one duration grammar (engines.durations) reads each part of a time control;
# which parts there are decides its kind (see parse_time_control).
LIVE_CLOCK = Duration(
    N_("each side's time on a live clock"),
    "m",
    timedelta(seconds=MIN_LIVE_SECONDS),
    timedelta(seconds=MAX_LIVE_SECONDS),
)
INCREMENT = Duration(
    N_("the increment"), "s", timedelta(0), timedelta(seconds=MAX_INCREMENT_SECONDS)
)
TIME_PER_MOVE = Duration(
    N_("the time per move"),
    "d",
    timedelta(seconds=MIN_CORRESPONDENCE_SECONDS),
    timedelta(seconds=MAX_CORRESPONDENCE_SECONDS),
)
_ANY_LENGTH = Duration("a time control", "d", timedelta(0), timedelta(weeks=10**4))
# In the grammar every English unit's spelling starts with its letter (h, hr, hour;
# d, day; w, wk, week), so a number followed by one of these, or by a Filipino
# unit of an hour or longer (oras, araw, linggo), is written in hours or longer.
_LONG_UNIT = re.compile(r"\d\s*(?:[hdw]|oras|araw|linggo)")
_BARE_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_WORDS = {"correspondence": DEFAULT_TIME_CONTROL, "corr": DEFAULT_TIME_CONTROL, "daily": "1d"}

HOW_TO_WRITE = N_(
    "Write the time as days or hours per move for correspondence (`3d`, `12h`, `1h30m`; "
    "a plain number is days) or as a live clock: minutes + seconds added per move (`10+5`), "
    "or a total like `3m`, `90s` or `1:30`."
)


class TimeControlError(TextError):
    """The time control could not be read or is out of bounds."""


class ClockError(TextError):
    """A clock operation that the rules do not allow (e.g. moving after the flag fell)."""


class VacationError(ClockError):
    """A vacation that cannot be granted."""


def _ms(delta: timedelta) -> int:
    return delta // timedelta(milliseconds=1)


@dataclass(frozen=True)
class TimeControl:
    """A game's time control: a live bank with its increment, or a correspondence allowance
    per move."""

    kind: Literal["live", "correspondence"]
    # live: each side's starting bank; correspondence: the allowance per move
    base_seconds: int
    increment_seconds: int = 0

    @property
    def is_live(self) -> bool:
        """Whether the control is a live clock rather than correspondence."""
        return self.kind == LIVE

    @property
    def base_ms(self) -> int:
        """``base_seconds`` in milliseconds."""
        return self.base_seconds * 1000

    @property
    def increment_ms(self) -> int:
        """``increment_seconds`` in milliseconds."""
        return self.increment_seconds * 1000

    def text(self) -> str:
        """A canonical spelling that ``parse_time_control`` reads back to this control."""
        if self.is_live:
            if self.base_seconds % 60 == 0:
                return f"{self.base_seconds // 60}+{self.increment_seconds}"
            return f"{self.base_seconds}s+{self.increment_seconds}"
        # Written with its units (an hour at least, so it reads back as correspondence).
        days, rest = divmod(self.base_seconds, 86400)
        hours, rest = divmod(rest, 3600)
        minutes, seconds = divmod(rest, 60)
        parts = zip((days, hours, minutes, seconds), "dhms", strict=True)
        return "".join(f"{amount}{unit}" for amount, unit in parts if amount)

    def label(self) -> str:
        """How the control reads to a player: ``10+5``, ``3 days per move``."""
        if self.is_live:
            return self.text()
        if self.base_seconds % 86400 == 0:
            days = self.base_seconds // 86400
            return f"{days} day{'s' if days != 1 else ''} per move"
        hours = self.base_seconds / 3600
        return f"{hours:g} hour{'s' if hours != 1 else ''} per move"

    def pgn_tag(self) -> str:
        """The PGN ``TimeControl`` value: ``600+5`` live, ``1/259200`` (one move per N s) otherwise."""
        if self.is_live:
            return f"{self.base_seconds}+{self.increment_seconds}"
        return f"1/{self.base_seconds}"


def parse_time_control(text: str | None) -> TimeControl:
    """Read ``3d``, ``12h``, ``1h30m``, ``3`` (days), ``10+5``, ``3m``, ``90s``, ``1:30``, ``90s+2``.

    The durations are engines.durations' grammar. Days and hours (or weeks) are
    correspondence: the time per move, a plain number being days. Minutes,
    seconds and a clock's ``1:30`` are a live clock: each side's total. ``A+B``
    is always live: ``A`` each (a plain number is minutes) plus ``B`` added per
    move (a plain number is seconds).
    """
    raw = " ".join((text or "").strip().lower().split())
    raw = _WORDS.get(raw.replace(" ", ""), raw or DEFAULT_TIME_CONTROL)
    if "+" in raw:
        base, increment = raw.split("+", 1)
        return TimeControl(
            LIVE,
            _whole_seconds(base, LIVE_CLOCK, text),
            _whole_seconds(increment, INCREMENT, text),
        )
    if _BARE_NUMBER.fullmatch(raw) or _LONG_UNIT.search(raw):
        return TimeControl(CORRESPONDENCE, _whole_seconds(raw, TIME_PER_MOVE, text), 0)
    return TimeControl(LIVE, _whole_seconds(raw, LIVE_CLOCK, text), 0)


def _whole_seconds(part: str, spec: Duration, text: str | None) -> int:
    try:
        return round(spec.parse_required(part).total_seconds())
    except DurationError as error:
        try:
            _ANY_LENGTH.parse_required(part)
        except DurationError:
            shown = (text or "").strip()[:30].replace("`", "'")
            raise TimeControlError(
                N_("I can't read {typed} as a time control. {help}"),
                typed=f"`{shown}`",
                help=Text(HOW_TO_WRITE),
            ) from None
        raise TimeControlError(error.text) from None  # readable, outside this part's limits


class ClockDict(TypedDict):
    """A clock as JSON (``ChessClock.to_dict``): times in ISO 8601, banks in milliseconds."""

    control: str
    to_move: str  # "white" or "black"
    turn_started_at: str
    white_ms: int
    black_ms: int
    white_pauses: NotRequired[list[list[str]]]  # [start, end] of each vacation
    black_pauses: NotRequired[list[list[str]]]


@dataclass(frozen=True)
class Pause:
    """A stretch of time during which one player's clock does not run."""

    start: datetime
    end: datetime

    @property
    def ms(self) -> int:
        """How long the pause lasts, in milliseconds (never negative)."""
        return max(0, _ms(self.end - self.start))


def _overlap_ms(start: datetime, end: datetime, pauses: tuple[Pause, ...]) -> int:
    total = 0
    for pause in pauses:
        lo, hi = max(start, pause.start), min(end, pause.end)
        if hi > lo:
            total += _ms(hi - lo)
    return total


def _moment_after(start: datetime, budget_ms: int, pauses: tuple[Pause, ...]) -> datetime:
    """The moment at which ``budget_ms`` of unpaused time has passed since ``start``."""
    cursor, left = start, max(0, budget_ms)
    for pause in sorted(pauses, key=lambda p: p.start):
        if pause.end <= cursor:
            continue
        if pause.start > cursor:
            available = _ms(pause.start - cursor)
            if available >= left:
                return cursor + timedelta(milliseconds=left)
            left -= available
        cursor = max(cursor, pause.end)
    return cursor + timedelta(milliseconds=left)


@dataclass(frozen=True)
class ChessClock:
    """Both sides' time, whose move it is and since when."""

    control: TimeControl
    to_move: chess.Color
    turn_started_at: datetime
    white_ms: int
    black_ms: int
    white_pauses: tuple[Pause, ...] = ()
    black_pauses: tuple[Pause, ...] = ()

    @classmethod
    def start(
        cls, control: TimeControl, at: datetime, to_move: chess.Color = chess.WHITE
    ) -> ChessClock:
        """The clock as a game starts: both banks full, ``to_move``'s turn from ``at``."""
        return cls(control, to_move, at, control.base_ms, control.base_ms)

    # ---------------------------------------------------------------- reading

    def bank_ms(self, color: chess.Color) -> int:
        """Time ``color`` had when their current (or next) turn began."""
        if not self.control.is_live:
            return self.control.base_ms
        return self.white_ms if color == chess.WHITE else self.black_ms

    def pauses(self, color: chess.Color) -> tuple[Pause, ...]:
        """``color``'s vacations."""
        return self.white_pauses if color == chess.WHITE else self.black_pauses

    def elapsed_ms(self, at: datetime) -> int:
        """Time the side to move has used this turn, vacations excluded."""
        if at <= self.turn_started_at:
            return 0
        wall = _ms(at - self.turn_started_at)
        return max(0, wall - _overlap_ms(self.turn_started_at, at, self.pauses(self.to_move)))

    def remaining_ms(self, color: chess.Color, at: datetime) -> int:
        """What ``color`` has left at ``at`` (never negative)."""
        if color != self.to_move:
            return self.bank_ms(color)
        return max(0, self.bank_ms(color) - self.elapsed_ms(at))

    def flag_time(self) -> datetime:
        """When the side to move runs out of time if they do not move."""
        return _moment_after(
            self.turn_started_at, self.bank_ms(self.to_move), self.pauses(self.to_move)
        )

    def has_flagged(self, at: datetime) -> bool:
        """Whether the side to move has run out of time by ``at``."""
        return at >= self.flag_time()

    def reminder_time(self, lead: timedelta) -> datetime:
        """When the side to move has ``lead`` left (at once if the allowance is shorter)."""
        return _moment_after(
            self.turn_started_at, self.bank_ms(self.to_move) - _ms(lead), self.pauses(self.to_move)
        )

    # ---------------------------------------------------------------- moving

    def after_move(self, at: datetime) -> ChessClock:
        """The clock once the side to move has moved at ``at``; refuses a move after the flag fell."""
        if self.has_flagged(at):
            raise ClockError(N_("Your time ran out before that move."))
        at = max(at, self.turn_started_at)
        to_move = not self.to_move
        if not self.control.is_live:
            return replace(self, to_move=to_move, turn_started_at=at)
        left = self.bank_ms(self.to_move) - self.elapsed_ms(at) + self.control.increment_ms
        if self.to_move == chess.WHITE:
            return replace(self, to_move=to_move, turn_started_at=at, white_ms=left)
        return replace(self, to_move=to_move, turn_started_at=at, black_ms=left)

    # ---------------------------------------------------------------- vacations

    def vacation_until(self, color: chess.Color, at: datetime) -> datetime | None:
        """The end of ``color``'s vacation running at ``at``, if any."""
        for pause in self.pauses(color):
            if pause.start <= at < pause.end:
                return pause.end
        return None

    def vacation_ms_used(self, color: chess.Color) -> int:
        """The vacation ``color`` has taken in this game, booked days included, in milliseconds."""
        return sum(p.ms for p in self.pauses(color))

    def vacation_days_left(self, color: chess.Color) -> float:
        """The days of vacation ``color`` may still take in this game."""
        return max(0, MAX_VACATION_DAYS * DAY_MS - self.vacation_ms_used(color)) / DAY_MS

    def with_vacation(self, color: chess.Color, at: datetime, days: int) -> ChessClock:
        """Start (or replace) ``color``'s vacation: ``days`` from ``at``; ``0`` ends it now.

        A running vacation is cut at ``at`` first, so its unused days go back to
        the allowance. The total per player per game is ``MAX_VACATION_DAYS``.
        """
        if self.control.is_live:
            raise VacationError(
                N_("Vacations pause correspondence games only: a live clock keeps running.")
            )
        if days < 0:
            raise VacationError(
                N_("A vacation lasts a whole number of days from 0 (end it now) upwards.")
            )
        if days > MAX_VACATION_DAYS:
            raise VacationError(
                N_("A vacation can last at most {maximum} days."), maximum=MAX_VACATION_DAYS
            )
        kept = tuple(
            Pause(p.start, min(p.end, at)) if p.start <= at < p.end else p
            for p in self.pauses(color)
            if p.start < at  # a vacation that has not begun yet is dropped
        )
        kept = tuple(p for p in kept if p.ms > 0)
        if days > 0:
            new = Pause(at, at + timedelta(days=days))
            used = sum(p.ms for p in kept) + new.ms
            if used > MAX_VACATION_DAYS * DAY_MS:
                left = max(0, MAX_VACATION_DAYS * DAY_MS - sum(p.ms for p in kept)) / DAY_MS
                raise VacationError(
                    N_(
                        "That is more vacation than this game allows: "
                        "{left} of {maximum} days are left."
                    ),
                    left=f"{left:.1f}",
                    maximum=MAX_VACATION_DAYS,
                )
            kept = kept + (new,)
        if color == chess.WHITE:
            return replace(self, white_pauses=kept)
        return replace(self, black_pauses=kept)

    # ---------------------------------------------------------------- storage

    def to_dict(self) -> ClockDict:
        """The clock as JSON for storage (``from_dict`` reads it back)."""
        return {
            "control": self.control.text(),
            "to_move": "white" if self.to_move == chess.WHITE else "black",
            "turn_started_at": self.turn_started_at.isoformat(),
            "white_ms": self.white_ms,
            "black_ms": self.black_ms,
            "white_pauses": [[p.start.isoformat(), p.end.isoformat()] for p in self.white_pauses],
            "black_pauses": [[p.start.isoformat(), p.end.isoformat()] for p in self.black_pauses],
        }

    @classmethod
    def from_dict(cls, data: ClockDict) -> ChessClock:
        """The clock ``to_dict`` stored."""

        def pauses(spans: list[list[str]]) -> tuple[Pause, ...]:
            return tuple(
                Pause(datetime.fromisoformat(s), datetime.fromisoformat(e)) for s, e in spans
            )

        return cls(
            control=parse_time_control(data["control"]),
            to_move=chess.WHITE if data["to_move"] == "white" else chess.BLACK,
            turn_started_at=datetime.fromisoformat(data["turn_started_at"]),
            white_ms=int(data["white_ms"]),
            black_ms=int(data["black_ms"]),
            white_pauses=pauses(data.get("white_pauses", [])),
            black_pauses=pauses(data.get("black_pauses", [])),
        )


def clock_face(ms: int) -> str:
    """What a chess clock's face shows: ``9:35`` or ``1:02:03``; a day or more is
    a duration as the bot writes every other (``2 days 4 h``)."""
    seconds = max(0, ms) // 1000
    if seconds >= 86400:
        return format_duration(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


__all__ = [
    "CORRESPONDENCE",
    "DEFAULT_TIME_CONTROL",
    "HOW_TO_WRITE",
    "LIVE",
    "MAX_VACATION_DAYS",
    "ChessClock",
    "ClockDict",
    "ClockError",
    "Pause",
    "TimeControl",
    "TimeControlError",
    "VacationError",
    "clock_face",
    "parse_time_control",
]
