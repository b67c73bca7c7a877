"""Repositories and the unit of work on a real SQLite file and on PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from sqlalchemy.exc import IntegrityError

from bot.db.models import GameRecord, GameSeatRecord
from bot.db.uow import UnitOfWork
from bot.errors import ConflictError, NotFoundError


async def _new_game(factory, guild_id: int = 1, kind: str = "scrabble") -> int:
    async with UnitOfWork(factory) as uow:
        await uow.guilds.ensure(guild_id, "Library Club")
        await uow.players.ensure(10, "alice")
        await uow.players.ensure(11, "bob")
        game = uow.games.add(
            GameRecord(guild_id=guild_id, kind=kind, status="active", state={"ply": 0}, options={})
        )
        await uow.session.flush()
        uow.session.add_all(
            [
                GameSeatRecord(game_id=game.id, seat=0, user_id=10),
                GameSeatRecord(game_id=game.id, seat=1, user_id=11),
            ]
        )
        await uow.commit()
        return game.id


async def test_leaving_without_commit_changes_nothing(session_factory) -> None:
    game_id = await _new_game(session_factory)
    async with UnitOfWork(session_factory) as uow:
        game = await uow.games.get(game_id)
        await uow.games.save_state(game, expected_version=game.version, state={"ply": 1})
        # no commit: e.g. a validation error after the write
    async with UnitOfWork(session_factory) as uow:
        game = await uow.games.get(game_id)
        assert game.state == {"ply": 0} and game.version == 1


async def test_a_stale_version_gets_a_conflict_and_writes_nothing(session_factory) -> None:
    game_id = await _new_game(session_factory)
    async with UnitOfWork(session_factory) as uow:
        game = await uow.games.get(game_id)
        await uow.games.save_state(game, expected_version=1, state={"ply": 1})
        await uow.commit()
    async with UnitOfWork(session_factory) as uow:
        game = await uow.games.get(game_id)
        with pytest.raises(ConflictError, match="moved on"):
            await uow.games.save_state(game, expected_version=1, state={"ply": 99})
    async with UnitOfWork(session_factory) as uow:
        game = await uow.games.get(game_id)
        assert (game.version, game.state) == (2, {"ply": 1})


async def test_concurrent_writers_never_lose_or_duplicate_an_update(session_factory) -> None:
    game_id = await _new_game(session_factory)

    async def play(worker: int) -> str:
        async with UnitOfWork(session_factory) as uow:
            game = await uow.games.get(game_id)
            version, ply = game.version, game.state["ply"]
            await asyncio.sleep(0.01 * (worker % 3))
            try:
                await uow.games.save_state(game, expected_version=version, state={"ply": ply + 1})
                await uow.moves.append(game_id, ply=ply + 1, notation=f"move by {worker}")
                await uow.commit()
                return "applied"
            except ConflictError:
                return "conflict"

    outcomes = await asyncio.gather(*(play(i) for i in range(20)))
    applied = outcomes.count("applied")
    assert applied >= 1
    async with UnitOfWork(session_factory) as uow:
        game = await uow.games.get(game_id)
        plies = [m.ply for m in await uow.moves.for_game(game_id)]
        # Every applied write moved the state on by exactly one step, in order.
        assert game.state["ply"] == applied == len(plies) == game.version - 1
    assert plies == list(range(1, applied + 1))


async def test_another_guilds_game_is_not_found(session_factory) -> None:
    game_id = await _new_game(session_factory, guild_id=1)
    async with UnitOfWork(session_factory) as uow:
        await uow.guilds.ensure(2, "Other club")
        with pytest.raises(NotFoundError, match=f"#{game_id}"):
            await uow.games.get(game_id, guild_id=2)
        with pytest.raises(NotFoundError):
            await uow.games.get(game_id, guild_id=1, kind="chess")
        assert (await uow.games.get(game_id, guild_id=1)).id == game_id


async def test_move_log_is_append_only_per_ply(session_factory) -> None:
    game_id = await _new_game(session_factory)
    async with UnitOfWork(session_factory) as uow:
        await uow.moves.append(game_id, ply=1, notation="8H QUIZ", score=66)
        await uow.commit()
    async with UnitOfWork(session_factory) as uow:
        with pytest.raises(IntegrityError):
            await uow.moves.append(game_id, ply=1, notation="duplicate")


async def test_times_come_back_timezone_aware_utc(session_factory) -> None:
    game_id = await _new_game(session_factory)
    when = datetime(2026, 12, 1, 18, 30, tzinfo=UTC)
    async with UnitOfWork(session_factory) as uow:
        game = await uow.games.get(game_id)
        await uow.games.save_state(game, expected_version=game.version, deadline=when)
        await uow.commit()
    async with UnitOfWork(session_factory) as uow:
        game = await uow.games.get(game_id)
        assert game.deadline == when and game.deadline.tzinfo is not None


async def test_players_keep_their_last_known_name(session_factory) -> None:
    async with UnitOfWork(session_factory) as uow:
        await uow.players.ensure(42, "Niño")
        await uow.commit()
    async with UnitOfWork(session_factory) as uow:
        await uow.players.ensure(42, "Niño Santos")
        await uow.commit()
    async with UnitOfWork(session_factory) as uow:
        assert await uow.players.names([42]) == {42: "Niño Santos"}


async def test_games_for_player_lists_their_open_games_in_that_guild(session_factory) -> None:
    first = await _new_game(session_factory, guild_id=1)
    await _new_game(session_factory, guild_id=2)
    async with UnitOfWork(session_factory) as uow:
        games = await uow.games.for_player(10, guild_id=1)
        assert [g.id for g in games] == [first]
        assert [s.user_id for s in games[0].seats] == [10, 11]


async def test_a_saved_state_is_written_once_and_other_changes_still_flush(
    engine, session_factory
) -> None:
    from sqlalchemy import event

    game_id = await _new_game(session_factory)
    updates: list[str] = []

    def record(conn, cursor, statement, parameters, context, executemany) -> None:  # type: ignore[no-untyped-def]
        if statement.lstrip().upper().startswith("UPDATE GAMES"):
            updates.append(statement)

    event.listen(engine.sync_engine, "before_cursor_execute", record)
    try:
        async with UnitOfWork(session_factory) as uow:
            game = await uow.games.get(game_id)
            await uow.games.save_state(
                game, expected_version=game.version, state={"ply": 1}, status="active"
            )
            assert game.state == {"ply": 1} and game.version == 2
            game.seats[0].accepted = True  # an ordinary ORM change in the same unit of work
            await uow.commit()
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", record)
    assert len(updates) == 1, updates  # the compare-and-set; no second, unchecked write of the row
    async with UnitOfWork(session_factory) as uow:
        game = await uow.games.get(game_id)
        assert game.state == {"ply": 1} and game.version == 2 and game.seats[0].accepted
