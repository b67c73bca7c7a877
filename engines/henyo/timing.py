"""Round timing from Discord timestamps, to the millisecond.

Every Discord id (message, interaction) is a snowflake whose top bits are the
milliseconds since the Discord epoch at which Discord created it. A round's
clock starts at the bot's announcement message and stops at the guesser's
message, so both ends are Discord's own times: how late the bot saw a message,
or whether it restarted in between, changes nothing.

Durations a host types (the time limit, the penalty) are read and written by
``engines.durations``, the one grammar every game shares.

Times are shown and compared to the tenth of a second, rounded half up as the
club's stopwatch sheet does (so 37.45 s reads 37.5 s); two pairs whose final
times read the same are tied.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

DISCORD_EPOCH_MS = 1_420_070_400_000
_UNIX_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class HenyoTimingError(ValueError):
    """A time that cannot be used (a negative id, a naive datetime); the message says why."""


def snowflake_ms(snowflake: int) -> int:
    """Unix time in milliseconds at which Discord created ``snowflake``."""
    if snowflake < 0:
        raise HenyoTimingError("A Discord id is never negative.")
    return (snowflake >> 22) + DISCORD_EPOCH_MS


def snowflake_time(snowflake: int) -> datetime:
    """``snowflake_ms`` as an aware UTC datetime (exact: no float rounding)."""
    return _UNIX_EPOCH + timedelta(milliseconds=snowflake_ms(snowflake))


def snowflake_at(unix_ms: int, sequence: int = 0) -> int:
    """The smallest-looking snowflake Discord could mint at ``unix_ms`` (tests, backfills)."""
    if unix_ms < DISCORD_EPOCH_MS:
        raise HenyoTimingError("Discord ids start in 2015.")
    return ((unix_ms - DISCORD_EPOCH_MS) << 22) | (sequence & 0x3FFFFF)


def datetime_ms(moment: datetime) -> int:
    """Unix milliseconds of an aware datetime, truncated, in integer arithmetic."""
    if moment.tzinfo is None:
        raise HenyoTimingError("Times must carry a time zone.")
    return (moment - _UNIX_EPOCH) // timedelta(milliseconds=1)


def elapsed_ms(start_snowflake: int, end_snowflake: int) -> int:
    """Milliseconds from one Discord event to another (negative if ``end`` came first)."""
    return snowflake_ms(end_snowflake) - snowflake_ms(start_snowflake)


def within_limit(elapsed: int, limit_ms: int) -> bool:
    """A message counts while the clock has not passed the limit (the limit itself counts)."""
    return 0 <= elapsed <= limit_ms


def final_time_ms(elapsed: int, penalties: int, penalty_ms: int) -> int:
    """Time to guess plus every penalty, as the sheet computes the "end time"."""
    if elapsed < 0 or penalties < 0 or penalty_ms < 0:
        raise HenyoTimingError("Times and penalties are never negative.")
    return elapsed + penalties * penalty_ms


def tenths(ms: int) -> int:
    """Tenths of a second, rounded half up: the precision times are compared in."""
    return (ms + 50) // 100


def format_time(ms: int | None) -> str:
    """``7.0 s``, ``37.4 s``, ``1:05.1`` — the same reading the leaderboard shows."""
    if ms is None:
        return "–"
    minutes, rest = divmod(tenths(ms), 600)
    seconds, tenth = divmod(rest, 10)
    return f"{minutes}:{seconds:02d}.{tenth}" if minutes else f"{seconds}.{tenth} s"


@dataclass(frozen=True)
class Timing:
    """A finished guess: when, how many penalties, and the result."""

    elapsed_ms: int
    penalties: int
    penalty_ms: int

    @property
    def penalty_total_ms(self) -> int:
        """What the penalties add to the time."""
        return self.penalties * self.penalty_ms

    @property
    def final_ms(self) -> int:
        """The time to guess plus every penalty: the pair's result."""
        return final_time_ms(self.elapsed_ms, self.penalties, self.penalty_ms)
