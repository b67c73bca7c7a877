"""What a session, a tournament round and a league season tell the server's events,
each in its own transaction (see ``events``): one call where it starts or moves, one
where it ends or is cancelled. A league division is a tournament: its round makes no
event of its own (the season has one).
"""

from __future__ import annotations

from datetime import datetime

from bot.db.models_leagues import LeagueRecord, LeagueSeasonRecord
from bot.db.models_sessions import ClubSessionRecord
from bot.db.models_tournaments import TournamentRecord, TournamentRoundRecord
from bot.db.uow import UnitOfWork
from bot.messages import schedule as msg
from bot.services.scheduling.events import (
    LEAGUE_SEASON,
    SESSION,
    TOURNAMENT_ROUND,
    place_event,
    remove_event,
)


async def round_scheduled(
    uow: UnitOfWork, t: TournamentRecord, rnd: TournamentRoundRecord, now: datetime
) -> None:
    """A tournament round under way (or its deadline moved): its event, until the deadline,
    in the tournament's channel (or the room, for one played over the board)."""
    options = t.options or {}
    if "league_id" in options or rnd.deadline is None:
        return
    await place_event(
        uow,
        guild_id=t.guild_id,
        owner_kind=TOURNAMENT_ROUND,
        owner_id=rnd.id,
        name=msg.round_event_name(t.name or "", rnd.number),
        starts_at=rnd.started_at or now,
        ends_at=rnd.deadline,
        now=now,
        channel_id=t.channel_id,
        location=msg.in_the_room() if options.get("where") == "room" else "",
    )


async def round_over(uow: UnitOfWork, rnd: TournamentRoundRecord, now: datetime) -> None:
    """A tournament round done (or its tournament ended): its event goes."""
    await remove_event(uow, TOURNAMENT_ROUND, rnd.id, now)


async def session_scheduled(
    uow: UnitOfWork, session: ClubSessionRecord, *, in_room: bool, now: datetime
) -> None:
    """A club session started: its event, until its deadline, in its channel or the room."""
    if session.deadline is None:
        return
    await place_event(
        uow,
        guild_id=session.guild_id,
        owner_kind=SESSION,
        owner_id=session.id,
        name=msg.session_event_name(),
        starts_at=session.started_at or now,
        ends_at=session.deadline,
        now=now,
        channel_id=session.channel_id,
        location=msg.in_the_room() if in_room else "",
    )


async def session_over(uow: UnitOfWork, session_id: int, now: datetime) -> None:
    """A club session ended or cancelled: its event goes."""
    await remove_event(uow, SESSION, session_id, now)


async def season_scheduled(
    uow: UnitOfWork, league: LeagueRecord, season: LeagueSeasonRecord, now: datetime
) -> None:
    """A league season under way (for the leagues' service to call): its event, from its
    start to its end."""
    if season.ends_at is None:
        return
    await place_event(
        uow,
        guild_id=league.guild_id,
        owner_kind=LEAGUE_SEASON,
        owner_id=season.id,
        name=msg.season_event_name(league.name or "", season.number),
        starts_at=season.starts_at or now,
        ends_at=season.ends_at,
        now=now,
        channel_id=league.channel_id,
    )


async def season_over(uow: UnitOfWork, season_id: int, now: datetime) -> None:
    """A league season finished: its event goes."""
    await remove_event(uow, LEAGUE_SEASON, season_id, now)
