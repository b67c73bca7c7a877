from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select

from bot.db.models import ResultRecord
from bot.db.uow import UnitOfWork
from bot.services.results import SeatOutcome, record_game_result

WHEN = datetime(2026, 11, 29, tzinfo=UTC)


async def _setup(factory, ids):
    async with UnitOfWork(factory) as uow:
        await uow.guilds.ensure(1, "club")
        for i in ids:
            await uow.players.ensure(i, f"p{i}")
        await uow.commit()


async def test_a_win_raises_the_winner_and_lowers_the_loser(session_factory) -> None:
    await _setup(session_factory, [1, 2])
    async with UnitOfWork(session_factory) as uow:
        changes = await record_game_result(
            uow,
            guild_id=1,
            kind="chess",
            game_id=None,
            played_at=WHEN,
            seats=[SeatOutcome(0, [1], rank=0, score=1), SeatOutcome(1, [2], rank=1, score=0)],
        )
        await uow.commit()
    by_user = {c.user_id: c for c in changes}
    assert by_user[1].after > 1500 > by_user[2].after
    assert (
        abs((by_user[1].after - 1500) - (1500 - by_user[2].after)) < 1e-6
    )  # symmetric from equal ratings
    async with UnitOfWork(session_factory) as uow:
        r1 = await uow.ratings.get_or_new(1, "chess", 1)
        assert (r1.games, r1.wins, r1.losses) == (1, 1, 0)
        assert r1.rd < 350


async def test_team_seats_record_each_member_and_rate_them_alike(session_factory) -> None:
    await _setup(session_factory, [1, 2, 3, 4])
    async with UnitOfWork(session_factory) as uow:
        changes = await record_game_result(
            uow,
            guild_id=1,
            kind="scrabble",
            game_id=7,
            played_at=WHEN,
            seats=[
                SeatOutcome(0, [1, 2], rank=1, score=350),
                SeatOutcome(1, [3, 4], rank=0, score=420),
            ],
        )
        await uow.commit()
    after = {c.user_id: c.after for c in changes}
    assert after[1] == after[2] < 1500 < after[3] == after[4]
    async with session_factory() as s:
        rows = list(
            (await s.execute(select(ResultRecord).order_by(ResultRecord.player_id))).scalars()
        )
    assert [(r.player_id, r.outcome, r.score, r.opponent_score) for r in rows] == [
        (1, "loss", 350, 420),
        (2, "loss", 350, 420),
        (3, "win", 420, 350),
        (4, "win", 420, 350),
    ]


async def test_unrated_game_keeps_ratings_but_counts_the_result(session_factory) -> None:
    await _setup(session_factory, [1, 2])
    async with UnitOfWork(session_factory) as uow:
        changes = await record_game_result(
            uow,
            guild_id=1,
            kind="scrabble",
            game_id=None,
            played_at=WHEN,
            rated=False,
            seats=[SeatOutcome(0, [1], rank=0), SeatOutcome(1, [2], rank=0)],
        )
        await uow.commit()
        assert changes == []
    async with UnitOfWork(session_factory) as uow:
        r = await uow.ratings.get_or_new(1, "scrabble", 1)
        assert (r.rating, r.draws) == (1500, 1)
