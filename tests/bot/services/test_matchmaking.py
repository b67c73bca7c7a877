"""Seeks and rematches on a real database (SQLite; PostgreSQL when TEST_DATABASE_URL is
set): presses at the same moment make one game."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from bot.db.models import GameRecord
from bot.db.models_seeks import SeekRecord
from bot.errors import ClubError, InvalidInputError
from bot.services import ServiceContext
from bot.services.chess import ChessService, PlayerRef
from bot.services.matchmaking import MAX_OPEN_SEEKS, SEEK_TTL, MatchmakingService
from tests.clock import FakeClock

GUILD, CHANNEL, THREAD = 10, 20, 30
MEMBERS = [(i, name) for i, name in enumerate(("alice", "bob", "carol", "dave", "erin"), 1)]


@pytest.fixture
def match(ctx: ServiceContext) -> MatchmakingService:
    chess = ChessService(ctx, rng=random.Random(3))
    service = MatchmakingService(ctx, chess=chess)
    ctx.scheduler.register_service(chess)
    ctx.scheduler.register_service(service)
    return service


async def _count(ctx: ServiceContext, model: type, *where: object) -> int:
    async with ctx.session_factory() as session:
        stmt = select(func.count()).select_from(model).where(*where)  # type: ignore[arg-type]
        return int((await session.execute(stmt)).scalar_one())


async def _seek(match: MatchmakingService, user: tuple[int, str] = MEMBERS[0]) -> int:
    snap = await match.seeks.post(
        guild_id=GUILD,
        guild_name="Club",
        channel_id=CHANNEL,
        user=user,
        options={"time": "3d", "color": "white"},
    )
    return snap.seek_id


async def test_four_accepts_at_once_make_one_game_and_the_others_are_told_who_was_first(
    ctx: ServiceContext, match: MatchmakingService
) -> None:
    seek_id = await _seek(match)
    results = await asyncio.gather(
        *(match.seeks.accept(seek_id, member) for member in MEMBERS[1:]),
        return_exceptions=True,
    )
    taken = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(taken) == 1 and len(refused) == 3, results
    winner = taken[0].seek.taken_by
    name = dict(MEMBERS)[winner]
    assert all(
        isinstance(r, InvalidInputError) and f"{name} accepted this challenge first" in str(r)
        for r in refused
    ), refused
    assert await _count(ctx, GameRecord) == 1
    async with ctx.reader() as uow:
        game = await uow.games.get(taken[0].game_id)
        assert game.status == "active"
        white = next(s.user_id for s in game.seats if s.seat == 0)
        assert white == MEMBERS[0][0]  # the seeker asked for White


async def test_a_member_has_at_most_three_seeks_and_one_expires_by_its_job(
    ctx: ServiceContext, match: MatchmakingService, clock: FakeClock
) -> None:
    ids = [await _seek(match) for _ in range(MAX_OPEN_SEEKS)]
    with pytest.raises(InvalidInputError, match="3 open challenges already"):
        await _seek(match)
    clock.advance(seconds=SEEK_TTL.total_seconds() + 1)
    await ctx.scheduler.run_due()
    assert await _count(ctx, SeekRecord, SeekRecord.status == "expired") == len(ids)
    with pytest.raises(ClubError, match="expired"):
        await match.seeks.accept(ids[0], MEMBERS[1])
    await _seek(match)  # a place again


async def test_both_players_pressing_rematch_at_once_start_one_game_with_colours_swapped(
    ctx: ServiceContext, match: MatchmakingService
) -> None:
    chess = match.games.chess
    assert chess is not None
    alice, bob = PlayerRef(*MEMBERS[0]), PlayerRef(*MEMBERS[1])
    snap = await chess.starting.challenge(
        guild_id=GUILD,
        guild_name="Club",
        channel_id=CHANNEL,
        challenger=alice,
        opponent=bob,
        time_control="10+5",
        color="white",
    )
    await chess.starting.accept(snap.game_id, bob)
    await chess.starting.open_in(snap.game_id, THREAD)
    await chess.endings.resign(snap.game_id, alice.user_id)

    outcomes = await asyncio.gather(
        *(match.rematches.press(snap.game_id, u) for u in (1, 2, 1, 2, 1, 2)),
    )
    started = [o for o in outcomes if o.new]
    assert len(started) == 1, outcomes
    assert {o.game_id for o in outcomes if o.status == "started"} == {started[0].game_id}
    assert await _count(ctx, GameRecord) == 2
    async with ctx.reader() as uow:
        again = await uow.games.get(started[0].game_id or 0)
        assert {s.seat: s.user_id for s in again.seats} == {0: 2, 1: 1}  # bob has White
        assert again.options["time_control"] == "10+5"
        assert again.created_at - snap.as_of < timedelta(days=1)
