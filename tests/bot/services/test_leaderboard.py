from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from bot.config import load_settings
from bot.db.models import ResultRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError
from bot.scheduler import Scheduler
from bot.services import ServiceContext
from bot.services.leaderboard import LeaderboardService, format_time_ms, period_start
from bot.services.results import SeatOutcome, record_game_result, record_points
from tests.clock import FakeClock

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)  # a Sunday


def _service(factory, now=NOW) -> LeaderboardService:
    """The service on the test clock (tests/clock.py) pinned at ``now``: periods need dates."""
    clock = FakeClock(now)
    ctx = ServiceContext(
        settings=load_settings(None),
        session_factory=factory,
        scheduler=Scheduler(factory, clock=clock),
        clock=clock,
    )
    return LeaderboardService(ctx)


async def _players(factory, guild_id: int, ids: dict[int, str]) -> None:
    async with UnitOfWork(factory) as uow:
        await uow.guilds.ensure(guild_id, f"guild {guild_id}")
        for pid, name in ids.items():
            await uow.players.ensure(pid, name)
        await uow.commit()


async def _chess(factory, guild_id: int, winner: int, loser: int, when: datetime) -> None:
    async with UnitOfWork(factory) as uow:
        await record_game_result(
            uow,
            guild_id=guild_id,
            kind="chess",
            game_id=None,
            played_at=when,
            seats=[SeatOutcome(0, [winner], 0, 1), SeatOutcome(1, [loser], 1, 0)],
        )
        await uow.commit()


async def test_rated_table_orders_by_rating_and_marks_provisional(session_factory) -> None:
    await _players(session_factory, 1, {1: "Ana", 2: "Ben", 3: "Cora"})
    await _chess(session_factory, 1, 1, 2, NOW - timedelta(days=1))
    await _chess(session_factory, 1, 1, 3, NOW - timedelta(days=1))
    table = await _service(session_factory).table(1, "chess", "all")
    assert next(r.name for r in table.rows) == "Ana"
    assert table.rows[0].wins == 2 and table.rows[0].games == 2
    assert all(r.provisional and r.value.endswith("?") for r in table.rows)


async def test_members_idle_for_90_days_drop_off_the_all_time_rated_table(session_factory) -> None:
    await _players(session_factory, 1, {1: "Ana", 2: "Ben", 3: "Cora", 4: "Dan"})
    await _chess(session_factory, 1, 1, 2, NOW - timedelta(days=120))
    await _chess(session_factory, 1, 3, 4, NOW - timedelta(days=10))
    names = {r.name for r in (await _service(session_factory).table(1, "chess", "all")).rows}
    assert names == {"Cora", "Dan"}
    stats = await _service(session_factory).stats(1, 1)
    assert stats.games["chess"].wins == 1  # kept in the data


async def test_week_table_counts_only_this_weeks_games_in_the_club_time_zone(
    session_factory,
) -> None:
    await _players(session_factory, 1, {1: "Ana", 2: "Ben"})
    await _chess(session_factory, 1, 1, 2, NOW - timedelta(days=2))  # Friday: this week
    await _chess(session_factory, 1, 2, 1, NOW - timedelta(days=8))  # last week
    table = await _service(session_factory).table(1, "chess", "week")
    ana = next(r for r in table.rows if r.name == "Ana")
    assert (ana.games, ana.wins, ana.losses) == (1, 1, 0)
    assert ana.trend is not None and ana.trend > 0


def test_week_starts_on_monday_midnight_local_time() -> None:
    start = period_start("week", NOW, "Asia/Manila", None)
    assert start == datetime(2026, 11, 22, 16, 0, tzinfo=UTC)  # Mon 23 Nov 00:00 +08:00
    assert period_start("month", NOW, "UTC", None) == datetime(2026, 11, 1, tzinfo=UTC)


async def test_boggle_points_and_henyo_times_rank_their_own_way(session_factory) -> None:
    await _players(session_factory, 1, {1: "Ana", 2: "Ben"})
    async with UnitOfWork(session_factory) as uow:
        await record_points(
            uow,
            guild_id=1,
            kind="boggle",
            player_id=1,
            points=12,
            played_at=NOW,
            round_ref="r1",
            outcome="win",
        )
        await record_points(
            uow,
            guild_id=1,
            kind="boggle",
            player_id=2,
            points=7,
            played_at=NOW,
            round_ref="r1",
            outcome="loss",
        )
        await record_points(
            uow,
            guild_id=1,
            kind="henyo",
            player_id=1,
            points=None,
            time_ms=83_400,
            played_at=NOW,
            round_ref="w1",
        )
        await record_points(
            uow,
            guild_id=1,
            kind="henyo",
            player_id=2,
            points=None,
            time_ms=61_250,
            played_at=NOW,
            round_ref="w2",
        )
        await uow.commit()
    svc = _service(session_factory)
    boggle = await svc.table(1, "boggle", "all")
    assert [(r.name, r.value, r.wins) for r in boggle.rows] == [("Ana", "12", 1), ("Ben", "7", 0)]
    boggle_week = await svc.table(1, "boggle", "week")
    assert [(r.name, r.value) for r in boggle_week.rows] == [("Ana", "12"), ("Ben", "7")]
    henyo = await svc.table(1, "henyo", "all")
    assert [(r.name, r.value) for r in henyo.rows] == [("Ben", "1:01.3"), ("Ana", "1:23.4")]


async def test_guilds_do_not_see_each_other(session_factory) -> None:
    await _players(session_factory, 1, {1: "Ana", 2: "Ben"})
    await _players(session_factory, 2, {3: "Cora", 4: "Dan"})
    await _chess(session_factory, 1, 1, 2, NOW)
    await _chess(session_factory, 2, 3, 4, NOW)
    for period in ("all", "week"):
        for kind in ("chess", "all"):
            names = {r.name for r in (await _service(session_factory).table(2, kind, period)).rows}
            assert names == {"Cora", "Dan"}
    assert (await _service(session_factory).stats(2, 1)).games == {}


async def test_tables_page_by_ten(session_factory) -> None:
    await _players(session_factory, 1, {i: f"p{i:02d}" for i in range(1, 24)})
    for i in range(1, 23, 2):
        await _chess(session_factory, 1, i, i + 1, NOW)
    svc = _service(session_factory)
    first = await svc.table(1, "chess", "all", page=0)
    last = await svc.table(1, "chess", "all", page=99)
    assert (first.total, first.pages, len(first.rows)) == (22, 3, 10)
    assert last.page == 2 and len(last.rows) == 2 and last.rows[0].rank == 21


async def test_unknown_game_or_period_is_a_clear_error(session_factory) -> None:
    with pytest.raises(InvalidInputError, match="Pick a game"):
        await _service(session_factory).table(1, "poker", "all")
    with pytest.raises(InvalidInputError, match="Pick a period"):
        await _service(session_factory).table(1, "chess", "year")


def test_times_are_shown_to_the_tenth_of_a_second() -> None:
    assert format_time_ms(7_049) == "7.0 s"
    assert format_time_ms(65_050) == "1:05.1"
    assert format_time_ms(119_960) == "2:00.0"


async def test_henyo_event_wins_count_as_wins_not_as_words(session_factory) -> None:
    await _players(session_factory, 1, {1: "Ana"})
    async with UnitOfWork(session_factory) as uow:
        await record_points(
            uow,
            guild_id=1,
            kind="henyo",
            player_id=1,
            points=None,
            time_ms=50_000,
            played_at=NOW,
            round_ref="henyo:round:1",
        )
        await record_points(
            uow,
            guild_id=1,
            kind="henyo",
            player_id=1,
            points=None,
            time_ms=None,
            played_at=NOW,
            round_ref="henyo:round:2",
            outcome="loss",
        )
        await record_points(
            uow,
            guild_id=1,
            kind="henyo",
            player_id=1,
            points=None,
            played_at=NOW,
            round_ref="henyo:event:1",
            outcome="win",
        )
        await uow.commit()
    [row] = (await _service(session_factory).table(1, "henyo", "all")).rows
    assert (row.value, row.games, row.draws, row.wins) == ("50.0 s", 2, 1, 1)


async def test_a_period_s_rated_table_sums_each_member_s_rating_changes_and_counts_draws(
    session_factory,
) -> None:
    await _players(session_factory, 1, {1: "Ana", 2: "Ben", 3: "Cora"})
    await _chess(session_factory, 1, 1, 2, NOW - timedelta(days=1))
    await _chess(session_factory, 1, 2, 1, NOW - timedelta(days=1))
    await _chess(
        session_factory, 1, 3, 1, NOW - timedelta(days=30)
    )  # last month: not in this week's table
    async with UnitOfWork(session_factory) as uow:
        await record_game_result(
            uow,
            guild_id=1,
            kind="chess",
            game_id=None,
            played_at=NOW - timedelta(hours=1),
            seats=[SeatOutcome(0, [1], 0, 0.5), SeatOutcome(1, [3], 0, 0.5)],
        )
        await uow.commit()
    async with session_factory() as session:
        results = (
            (
                await session.execute(
                    select(ResultRecord).where(ResultRecord.played_at >= NOW - timedelta(days=2))
                )
            )
            .scalars()
            .all()
        )
    expected = {
        pid: sum(
            r.extra["rating_after"] - r.extra["rating_before"]
            for r in results
            if r.player_id == pid
        )
        for pid in (1, 2, 3)
    }
    table = await _service(session_factory).table(1, "chess", "week")
    rows = {r.player_id: r for r in table.rows}
    assert table.total == 3
    assert [
        (rows[1].games, rows[1].wins, rows[1].losses, rows[1].draws),
        (rows[3].games, rows[3].draws),
    ] == [(3, 1, 1, 1), (1, 1)]
    for pid, change in expected.items():
        assert rows[pid].trend == pytest.approx(change)
    assert [r.player_id for r in table.rows] == sorted(
        rows, key=lambda p: -float(rows[p].value.rstrip("?"))
    )


async def test_a_page_past_the_end_of_a_period_table_shows_the_last_page(session_factory) -> None:
    await _players(session_factory, 1, {i: f"p{i:02d}" for i in range(1, 13)})
    for i in range(1, 13, 2):
        await _chess(session_factory, 1, i, i + 1, NOW - timedelta(days=1))
    table = await _service(session_factory).table(1, "chess", "week", page=5)
    assert (table.page, table.pages, table.total, [r.rank for r in table.rows]) == (
        1,
        2,
        12,
        [11, 12],
    )


async def test_a_game_that_just_ended_is_in_the_next_table(session_factory) -> None:
    await _players(session_factory, 1, {1: "Ana", 2: "Ben", 3: "Cora"})
    svc = _service(session_factory)
    await _chess(session_factory, 1, 1, 2, NOW)
    assert {r.name for r in (await svc.table(1, "chess", "all")).rows} == {"Ana", "Ben"}
    await _chess(session_factory, 1, 3, 1, NOW)
    for kind, period in (("chess", "all"), ("chess", "week"), ("all", "all"), ("all", "month")):
        table = await svc.table(1, kind, period)
        assert {r.name for r in table.rows} == {"Ana", "Ben", "Cora"} and table.total == 3, (
            kind,
            period,
        )
