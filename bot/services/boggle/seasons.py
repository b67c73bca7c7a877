"""The club's Boggle season: kept in the guild's settings (JSON), with its
number, start, target and reset rhythm and the last season's winners; its
standings are the season's results.

A season ends when a round takes someone to the target, when a moderator ends
it, or at a reset boundary (a new month, quarter or year, club time). The next
season starts just after, so the results recorded at that moment (the round
that reached the target) stay in the season they won.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import NotRequired, TypedDict, cast

from bot.db.models import GuildRecord
from bot.db.uow import UnitOfWork
from bot.messages import boggle as msg
from bot.messages.boggle import PreviousSeason
from bot.messages.post import Post
from bot.services.boggle.jobs import JOB_SEASON, season_key
from bot.services.boggle.options import DEFAULT_SEASON_TARGET, club_zone, next_season_boundary
from bot.services.boggle.snapshots import SeasonEnd, SeasonInfo, Standing

KIND = "boggle"
STANDINGS_SHOWN = 10


class SeasonState(TypedDict):
    """``guild.settings["seasons"]["boggle"]``."""

    number: int
    started_at: str  # ISO time
    target: int
    every: str  # "none" | "month" | "quarter" | "year"
    previous: NotRequired[PreviousSeason]


def season_state(guild: GuildRecord | None) -> SeasonState | None:
    """The guild's season as its settings keep it (a bare start time is season 1); None before
    the first."""
    if guild is None:
        return None
    raw = ((guild.settings or {}).get("seasons") or {}).get(KIND)
    if isinstance(raw, str):  # a bare start time, as the leaderboard also accepts
        return SeasonState(number=1, started_at=raw, target=DEFAULT_SEASON_TARGET, every="none")
    if not isinstance(raw, dict) or not raw.get("started_at"):
        return None
    state = SeasonState(
        number=int(raw.get("number", 1)),
        started_at=str(raw["started_at"]),
        target=int(raw.get("target", DEFAULT_SEASON_TARGET)),
        every=str(raw.get("every", "none")),
    )
    if raw.get("previous"):
        state["previous"] = cast(PreviousSeason, raw["previous"])
    return state


def new_season(number: int, started_at: datetime, keep: SeasonState | None = None) -> SeasonState:
    """A season from ``started_at``, keeping the target and rhythm of ``keep``."""
    return SeasonState(
        number=number,
        started_at=started_at.isoformat(),
        target=keep["target"] if keep else DEFAULT_SEASON_TARGET,
        every=keep["every"] if keep else "none",
    )


def write_season(guild: GuildRecord, season: SeasonState) -> None:
    """Keep the season in the guild's settings (saved with the unit of work)."""
    # A new dict all the way down: JSON columns are saved on reassignment.
    settings = dict(guild.settings or {})
    seasons = dict(settings.get("seasons") or {})
    seasons[KIND] = dict(season)
    settings["seasons"] = seasons
    guild.settings = settings


def season_label(season: SeasonState) -> str:
    """The season's label, as its results carry it: S1, S2…"""
    return f"S{season['number']}"


async def ensure_season(uow: UnitOfWork, guild: GuildRecord, now: datetime) -> SeasonState:
    """The guild's season; the first one starts now."""
    season = season_state(guild)
    if season is None:
        season = new_season(1, now)
        write_season(guild, season)
        await uow.boggle.flush()
    return season


async def standings(uow: UnitOfWork, guild_id: int, label: str) -> list[Standing]:
    """The season's table, its first ``STANDINGS_SHOWN`` rows: most points first, then most wins."""
    rows = await uow.boggle.season_standings(guild_id, label, STANDINGS_SHOWN)
    return [Standing(*row) for row in rows]


async def end_season(
    uow: UnitOfWork,
    guild: GuildRecord,
    now: datetime,
    *,
    reason: str,
    table: list[Standing] | None = None,
) -> SeasonEnd | None:
    """Close the season (its leaders win) and start the next."""
    season = season_state(guild)
    if season is None:
        return None
    if table is None:
        table = await standings(uow, guild.id, season_label(season))
    top = table[0].points if table else 0
    winners = [(s.player_id, s.name) for s in table if s.points == top and top > 0]
    number = season["number"]
    fresh = new_season(number + 1, now + timedelta(microseconds=1), season)
    fresh["previous"] = PreviousSeason(
        number=number, winners=winners, points=top, ended_at=now.isoformat(), reason=reason
    )
    write_season(guild, fresh)
    await uow.boggle.flush()
    return SeasonEnd(number, winners, top, reason, number + 1)


async def schedule_reset(
    uow: UnitOfWork, guild: GuildRecord, season: SeasonState, now: datetime
) -> None:
    """Set (or cancel) the job that ends the season at its next boundary."""
    boundary = next_season_boundary(now, season["every"], club_zone(guild.timezone))
    key = season_key(guild.id)
    if boundary is None:
        await uow.jobs.cancel(key)
    else:
        await uow.jobs.schedule(JOB_SEASON, boundary, {"guild_id": guild.id}, key=key)


def season_info(
    guild: GuildRecord | None,
    season: SeasonState,
    table: list[Standing],
    now: datetime,
    ended: SeasonEnd | None = None,
) -> SeasonInfo:
    """The season as members see it: its target, rhythm and next reset, its table, and the season
    before it (``ended``: the one just ended)."""
    tz = club_zone(guild.timezone if guild else None)
    started = datetime.fromisoformat(season["started_at"])
    return SeasonInfo(
        number=season["number"],
        started_at=started,
        target=season["target"],
        every=season["every"],
        next_reset_at=next_season_boundary(max(started, now), season["every"], tz),
        standings=table,
        ended=ended,
        previous=season.get("previous"),
    )


def season_end_post(ended: SeasonEnd, target: int) -> Post:
    """The announcement of a season's winners."""
    return msg.season_end(
        ended.number, ended.winners, ended.points, ended.reason, ended.next_number, target
    )
