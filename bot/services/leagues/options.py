"""What a league is made with, checked, and the names of its jobs."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from bot.errors import InvalidInputError
from bot.messages import leagues as msg
from bot.services.tournaments.hooks import JOB_LEAGUE_DIVISION_FINISHED
from engines.leagues import MAX_DIVISION, MIN_DIVISION

OWNER = "league"  # the sign-up lists' owner_kind: a season's sign-ups
JOB_SEASON_END = "league.season_end"
JOB_OPEN_DIVISION = "league.open_division"
JOB_DIVISION_FINISHED = JOB_LEAGUE_DIVISION_FINISHED
GAME_KINDS = ("chess", "scrabble")
RESULT_KIND = "league"  # results rows: a member's season in a division (a win: its winner)

DEFAULT_WEEKS = 4
MAX_WEEKS = 8
DEFAULT_SIZE = 6
DEFAULT_MOVERS = 1
MAX_MOVERS = 3
DEFAULT_CLOCK = "3d"  # Scrabble's asynchronous turn clock, chess's correspondence days


@dataclass(frozen=True)
class NewLeague:
    """``/league new``'s options, as typed."""

    guild_id: int
    guild_name: str
    channel_id: int
    creator_id: int
    creator_name: str
    game: str
    name: str | None = None
    weeks: int | None = None
    division_size: int | None = None
    movers: int | None = None
    clock: str | None = None
    pairs: bool = False
    is_moderator: bool = True
    in_thread: bool = False


@dataclass(frozen=True)
class Settings:
    """``/league settings``: the options to change (None: as they are)."""

    weeks: int | None = None
    division_size: int | None = None
    movers: int | None = None
    clock: str | None = None


def read_kind(game: str) -> str:
    """The game a league is of, as typed: chess or Scrabble."""
    value = game.strip().lower()
    if value not in GAME_KINDS:
        raise InvalidInputError(msg.UNKNOWN_GAME)
    return value


def checked(options: dict[str, Any], change: Settings, kind: str) -> dict[str, Any]:
    """``options`` with ``change`` applied, each value checked."""
    out = dict(options)
    if change.weeks is not None:
        if not 1 <= change.weeks <= MAX_WEEKS:
            raise InvalidInputError(msg.weeks_range(MAX_WEEKS))
        out["weeks"] = change.weeks
    if change.division_size is not None:
        if not MIN_DIVISION <= change.division_size <= MAX_DIVISION:
            raise InvalidInputError(msg.size_range(MIN_DIVISION, MAX_DIVISION))
        out["division_size"] = change.division_size
    if change.movers is not None:
        if not 0 <= change.movers <= MAX_MOVERS:
            raise InvalidInputError(msg.movers_range(MAX_MOVERS))
        out["movers"] = change.movers
    if change.clock is not None:
        _check_clock(kind, change.clock)
        out["clock"] = change.clock.strip()
    return out


def _check_clock(kind: str, typed: str) -> None:
    if kind == "chess":
        from bot.services.chess.options import read_time_control

        if read_time_control(typed).kind != "correspondence":
            raise InvalidInputError(msg.CORRESPONDENCE_ONLY)
    else:
        from bot.services.scrabble.options import CLOCK, parse_duration

        clock = parse_duration(typed, CLOCK)
        if clock is not None and clock < timedelta(hours=1):
            raise InvalidInputError(msg.CORRESPONDENCE_ONLY)


def defaults() -> dict[str, Any]:
    """A new league's settings before the director's choices."""
    return {
        "weeks": DEFAULT_WEEKS,
        "division_size": DEFAULT_SIZE,
        "movers": DEFAULT_MOVERS,
        "clock": DEFAULT_CLOCK,
    }


def season_end_key(season_id: int) -> str:
    """The key of a season's end job (one per season)."""
    return f"league:season_end:{season_id}"


def open_division_key(tournament_id: int) -> str:
    """The key of the job that makes a division's games (one per division)."""
    return f"league:open_division:{tournament_id}"
