"""The league service on a real SQLite file and on PostgreSQL: a season starts once and its
divisions' games are made by their jobs once; the rollover runs once, even twice at once;
refusals change nothing."""

from __future__ import annotations

import asyncio
import random

import pytest
from sqlalchemy import func, select

from bot.db.models import GameRecord, ResultRecord
from bot.db.models_leagues import LeagueSeasonRecord
from bot.db.models_signups import SignupRecord
from bot.errors import ClubError, InvalidInputError, PermissionDeniedError
from bot.services import ServiceContext
from bot.services.leagues import options as opts
from bot.services.leagues.service import LeagueService, Who
from bot.services.tournaments.service import TournamentService
from tests.bot.services.scrabble_support import Words, make_service
from tests.clock import FakeClock

GUILD, CHANNEL, HOST = 1, 10, 99
MEMBERS = {100 + i: f"member{i}" for i in range(14)}


@pytest.fixture
def leagues(ctx: ServiceContext) -> LeagueService:
    tournaments = TournamentService(ctx, scrabble=make_service(ctx, Words()), rng=random.Random(11))
    service = LeagueService(ctx, lambda: tournaments, rng=random.Random(5))
    ctx.scheduler.register_service(tournaments)
    ctx.scheduler.register_service(service)
    return service


def _who(actor: int = HOST) -> Who:
    return Who(GUILD, CHANNEL, None, actor, actor == HOST, "host" if actor == HOST else "m")


async def _count(ctx: ServiceContext, model: type, *where: object) -> int:
    async with ctx.session_factory() as session:
        return int(
            (
                await session.execute(select(func.count()).select_from(model).where(*where))
            ).scalar_one()
        )


async def _season_of_fourteen(leagues: LeagueService) -> None:
    await leagues.create(
        opts.NewLeague(GUILD, "Club", CHANNEL, HOST, "host", "scrabble", name="Test League")
    )
    for uid, name in MEMBERS.items():
        await leagues.join(_who(uid), (uid, name), None)


async def test_a_season_starts_once_and_each_division_makes_its_games_once(
    ctx: ServiceContext, leagues: LeagueService
) -> None:
    await _season_of_fourteen(leagues)
    with pytest.raises(PermissionDeniedError):
        await leagues.start(_who(100))  # not the director
    reply = await leagues.start(_who())
    assert "14 entrants in 3 divisions (5, 5, 4)" in reply.text
    with pytest.raises(InvalidInputError, match="started already"):
        await leagues.start(_who())
    assert await _count(ctx, GameRecord) == 0  # the divisions' jobs make them
    await ctx.scheduler.run_due()
    assert await _count(ctx, GameRecord) == 10 + 10 + 6
    await ctx.scheduler.run_due()
    await leagues.prepare_open_division({"tournament_id": 1})  # a job run again
    assert await _count(ctx, GameRecord) == 26


async def test_the_season_rolls_over_once_even_asked_twice_at_once(
    ctx: ServiceContext, leagues: LeagueService, clock: FakeClock
) -> None:
    await _season_of_fourteen(leagues)
    await leagues.start(_who())
    await ctx.scheduler.run_due()
    async with ctx.uow() as uow:
        season = await uow.leagues.season(1, 1)
        assert season is not None
        season_id = season.id
        assert not await leagues.roll_over(uow, season_id)  # not before its date
    clock.advance(weeks=4, minutes=1)
    # The deadline scores every game (none played): the divisions end; the rollover
    # waits for them rather than running before.
    for _ in range(3):
        await ctx.scheduler.run_due()
    assert await _count(ctx, LeagueSeasonRecord) == 2
    assert await _count(ctx, ResultRecord, ResultRecord.game_kind == "league") == 14
    assert await _count(ctx, SignupRecord, SignupRecord.status == "entered") == 14 * 2

    async def again() -> bool:
        try:
            async with ctx.uow() as uow:
                done = await leagues.roll_over(uow, season_id)
                await uow.commit()
                return done
        except ClubError:
            return False

    assert await asyncio.gather(again(), again()) == [False, False]
    assert await _count(ctx, LeagueSeasonRecord) == 2
    assert await _count(ctx, ResultRecord, ResultRecord.game_kind == "league") == 14


async def test_two_rollovers_at_once_apply_once(
    ctx: ServiceContext, leagues: LeagueService, clock: FakeClock
) -> None:
    await _season_of_fourteen(leagues)
    await leagues.start(_who())
    await ctx.scheduler.run_due()
    async with ctx.uow() as uow:
        season = await uow.leagues.season(1, 1)
        assert season is not None
        season_id = season.id
        # Every division over (as its deadline would leave it), the season's date come.
        for division in await uow.leagues.divisions(season_id):
            t = await uow.tournaments.get(division.tournament_id)
            assert t is not None
            for p in await uow.tournaments.pairings(t.id):
                p.score, p.source = 1.0, "adjudicated"
            t.status = "finished"
        await uow.commit()
    clock.advance(weeks=4, minutes=1)

    async def roll() -> bool:
        try:
            async with ctx.uow() as uow:
                done = await leagues.roll_over(uow, season_id)
                await uow.commit()
                return done
        except Exception:  # the loser: a stale version, or a duplicate season number
            return False

    results = await asyncio.gather(roll(), roll())
    assert sorted(results) == [False, True]
    assert await _count(ctx, LeagueSeasonRecord) == 2
    assert await _count(ctx, ResultRecord, ResultRecord.game_kind == "league") == 14


async def test_bad_settings_are_refused_and_change_nothing(
    ctx: ServiceContext, leagues: LeagueService
) -> None:
    await _season_of_fourteen(leagues)
    with pytest.raises(InvalidInputError, match="long clock"):
        await leagues.configure(_who(), opts.Settings(clock="3m"))
    with pytest.raises(InvalidInputError, match="4 to 10"):
        await leagues.configure(_who(), opts.Settings(division_size=12))
    with pytest.raises(PermissionDeniedError):
        await leagues.configure(_who(100), opts.Settings(weeks=2))
    reply = await leagues.configure(_who(), opts.Settings(weeks=2, movers=2))
    assert "Seasons of 2 weeks" in reply.text and "2 up and 2 down" in reply.text
    async with ctx.uow() as uow:
        league = await uow.leagues.get(1)
        assert league is not None
        assert league.options["division_size"] == 6 and league.options["clock"] == "3d"
