"""Ratings on the seat mean, for every mix of seats: pairs, threes, single players."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select

from bot.db.models import ResultRecord
from bot.db.uow import UnitOfWork
from bot.services.results import SeatOutcome, record_game_result
from engines.ratings import glicko2

WHEN = datetime(2026, 11, 29, tzinfo=UTC)


async def _club(factory, ratings: dict[int, float]) -> None:
    async with UnitOfWork(factory) as uow:
        await uow.guilds.ensure(1, "club")
        for user_id, rating in ratings.items():
            await uow.players.ensure(user_id, f"p{user_id}")
            rec = await uow.ratings.get_or_new(1, "scrabble", user_id)
            rec.rating, rec.rd = rating, 100.0
        await uow.commit()


async def _record(factory, seats: list[SeatOutcome]):
    async with UnitOfWork(factory) as uow:
        changes = await record_game_result(
            uow, guild_id=1, kind="scrabble", game_id=9, played_at=WHEN, seats=seats
        )
        await uow.commit()
    return {c.user_id: c for c in changes}


async def test_partners_of_different_strength_move_alike_from_their_seat_mean(session_factory):
    # 1800 & 1200 (mean 1500) beat 1500 & 1500: the same result as equals beating equals.
    await _club(session_factory, {1: 1800, 2: 1200, 3: 1500, 4: 1500})
    changes = await _record(
        session_factory,
        [SeatOutcome(0, [1, 2], rank=0, score=400), SeatOutcome(1, [3, 4], rank=1, score=300)],
    )
    gain = {u: c.after - c.before for u, c in changes.items()}
    assert gain[1] > 0 and abs(gain[1] - gain[2]) < 1e-9
    assert gain[3] < 0 and abs(gain[3] - gain[4]) < 1e-9
    expected, _, _ = glicko2(1500, 100, 0.06, [(1500, 100, 1.0)])
    assert abs(gain[1] - (expected - 1500)) < 1e-9


async def test_a_single_player_beside_pairs_is_rated_against_each_pair_s_mean(session_factory):
    await _club(session_factory, {1: 1600, 2: 1400, 3: 1700, 4: 1500, 5: 1550})
    changes = await _record(
        session_factory,
        [
            SeatOutcome(0, [1, 2], rank=1, score=300),  # mean 1500
            SeatOutcome(1, [3, 4], rank=2, score=250),  # mean 1600
            SeatOutcome(2, [5], rank=0, score=410),  # alone
        ],
    )
    expected, _, _ = glicko2(1550, 100, 0.06, [(1500, 100, 1.0), (1600, 100, 1.0)])
    assert abs(changes[5].after - expected) < 1e-9
    middle, _, _ = glicko2(1500, 100, 0.06, [(1600, 100, 1.0), (1550, 100, 0.0)])
    assert abs((changes[1].after - 1600) - (middle - 1500)) < 1e-9
    assert abs((changes[2].after - 1400) - (middle - 1500)) < 1e-9
    async with session_factory() as s:
        rows = {
            r.player_id: (r.outcome, r.score, r.opponent_score)
            for r in (await s.execute(select(ResultRecord))).scalars()
        }
    # One row per member; the spread is counted against the best other seat.
    assert rows == {
        1: ("loss", 300, 410),
        2: ("loss", 300, 410),
        3: ("loss", 250, 410),
        4: ("loss", 250, 410),
        5: ("win", 410, 300),
    }


async def test_four_pairs_each_record_both_members(session_factory):
    ids = {i: 1500.0 for i in range(1, 9)}
    await _club(session_factory, ids)
    changes = await _record(
        session_factory,
        [SeatOutcome(s, [2 * s + 1, 2 * s + 2], rank=s, score=400 - 50 * s) for s in range(4)],
    )
    assert set(changes) == set(ids)
    for seat in range(4):
        a, b = changes[2 * seat + 1], changes[2 * seat + 2]
        assert abs(a.after - b.after) < 1e-9
    assert changes[1].after > changes[3].after > 1500 > changes[5].after > changes[7].after
