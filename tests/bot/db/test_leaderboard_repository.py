"""The leaderboard and results repositories on a real SQLite file and on PostgreSQL:
pages with their totals, names joined, and the export's reads."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.db.models import GameRecord
from bot.db.uow import UnitOfWork

NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)


async def _club(factory) -> None:
    async with UnitOfWork(factory) as uow:
        await uow.guilds.ensure(1, "club")
        for pid, name in {1: "Ana", 2: "Ben", 3: "Cora"}.items():
            await uow.players.ensure(pid, name)
        for pid, points, when in ((1, 5.0, NOW), (2, 9.0, NOW), (3, 7.0, NOW - timedelta(days=9))):
            standing = await uow.ratings.get_or_new(1, "boggle", pid)
            standing.games, standing.points, standing.last_played_at = 1, points, when
            uow.results.record(
                guild_id=1,
                kind="boggle",
                player_id=pid,
                played_at=when,
                outcome="win" if pid == 2 else "loss",
                round_ref="boggle:1",
                points=points,
            )
        await uow.commit()


async def test_a_page_holds_its_rows_in_order_with_names_and_the_whole_tables_total(
    session_factory,
) -> None:
    await _club(session_factory)
    async with UnitOfWork(session_factory) as uow:
        first = await uow.leaderboard.boggle_points(1, since=None, offset=0, limit=2)
        rest = await uow.leaderboard.boggle_points(1, since=None, offset=2, limit=2)
        week = await uow.leaderboard.boggle_points(
            1, since=NOW - timedelta(days=7), offset=0, limit=10
        )
        wins = await uow.leaderboard.wins(1, since=None, offset=0, limit=10)
    assert [(r.name, r.points, r.wins) for r in first.rows] == [("Ben", 9.0, 0), ("Cora", 7.0, 0)]
    assert first.total == rest.total == 3 and [r.name for r in rest.rows] == ["Ana"]
    assert [r.name for r in week.rows] == ["Ben", "Ana"] and week.total == 2
    top = wins.rows[0]
    assert (top.name, top.wins, top.games) == ("Ben", 1, 1)


async def test_an_empty_page_has_no_rows_and_a_total_of_nothing(session_factory) -> None:
    await _club(session_factory)
    async with UnitOfWork(session_factory) as uow:
        page = await uow.leaderboard.henyo_times(1, since=None, offset=0, limit=10)
        beyond = await uow.leaderboard.boggle_points(1, since=None, offset=50, limit=10)
        assert await uow.leaderboard.calendar(99) is None
        calendar = await uow.leaderboard.calendar(1)
    assert (page.rows, page.total, beyond.rows, beyond.total) == ([], 0, [], 0)
    assert calendar is not None and calendar.timezone == "UTC"


async def test_a_page_read_after_a_commit_in_the_same_unit_of_work_sees_the_new_rows(
    session_factory,
) -> None:
    await _club(session_factory)
    async with UnitOfWork(session_factory) as uow:
        before = await uow.leaderboard.wins(1, since=None, offset=0, limit=10)
        await uow.players.ensure(4, "Dan")
        uow.results.record(
            guild_id=1, kind="chess", player_id=4, played_at=NOW, outcome="win", game_id=None
        )
        await uow.commit()
        after = await uow.leaderboard.wins(1, since=None, offset=0, limit=10)
    assert (before.total, after.total) == (3, 4)


async def test_the_exports_reads_give_every_row_with_its_members_name(session_factory) -> None:
    await _club(session_factory)
    async with UnitOfWork(session_factory) as uow:
        for status in ("finished", "active"):
            uow.games.add(GameRecord(guild_id=1, kind="chess", status=status, state={}, options={}))
        await uow.commit()
    async with UnitOfWork(session_factory) as uow:
        results = [(r.player_id, name) for r, name in await uow.results.for_guild(1)]
        ratings = [(r.player_id, name) for r, name in await uow.ratings.for_guild(1)]
        mine = [r.game_kind for r in await uow.ratings.for_member(1, 2)]
        finished = await uow.games.finished(1, ["chess", "scrabble"])
        none = await uow.games.finished(1, [])
    assert results == [(3, "Cora"), (1, "Ana"), (2, "Ben")]  # oldest first
    assert sorted(ratings) == [(1, "Ana"), (2, "Ben"), (3, "Cora")]
    assert mine == ["boggle"] and [kind for _, kind in finished] == ["chess"] and none == []
