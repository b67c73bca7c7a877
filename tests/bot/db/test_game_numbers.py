"""Game numbers (migration 0006): a number per guild and game kind, members' games
made before it keeping the number they were shown (their id)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from bot.db import migrate
from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import head_revision, upgrade_to_head
from bot.db.models import GameRecord
from bot.db.uow import UnitOfWork

CLUB, OTHER_CLUB = 1, 2
WHEN = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)


async def _old_game(conn, game_id: int, kind: str, guild_id: int = CLUB) -> None:
    """A game row as the bot wrote it before games had numbers (revision 0005)."""
    await conn.execute(
        text(
            "INSERT INTO games (id, guild_id, kind, status, options, state, version,"
            " created_at, updated_at) VALUES (:id, :guild, :kind, 'finished', '{}', '{}', 1,"
            " :at, :at)"
        ),
        {"id": game_id, "guild": guild_id, "kind": kind, "at": WHEN.replace(tzinfo=None)},
    )
    await conn.execute(
        text("INSERT INTO game_seats (game_id, seat, user_id, accepted) VALUES (:id, 0, 10, :yes)"),
        {"id": game_id, "yes": True},
    )


async def _new_game(factory, kind: str, guild_id: int = CLUB) -> tuple[int, int]:
    """A game made now, through the repository: its (id, number)."""
    async with UnitOfWork(factory) as uow:
        await uow.guilds.ensure(guild_id)
        await uow.players.ensure(10, "ana")
        game = await uow.games.add_with_seats(
            GameRecord(guild_id=guild_id, kind=kind, state={}, options={}), [(0, 10, True)]
        )
        await uow.commit()
        return game.id, game.number


async def test_existing_games_keep_their_numbers_and_new_ones_count_per_guild_and_kind(
    database_url: str,
) -> None:
    engine = create_engine(database_url)
    try:
        # A club at revision 0005: a Scrabble game (#1), then a chess game, shown as #2.
        await migrate._run(engine, "upgrade", "0005_command_syncs")
        async with engine.begin() as conn:
            for guild in (CLUB, OTHER_CLUB):
                await conn.execute(
                    text(
                        "INSERT INTO guilds (id, name, timezone, settings, created_at, updated_at)"
                        " VALUES (:id, '', 'UTC', '{}', :at, :at)"
                    ),
                    {"id": guild, "at": WHEN.replace(tzinfo=None)},
                )
            await conn.execute(
                text("INSERT INTO players (id, display_name, updated_at) VALUES (10, 'ana', :at)"),
                {"at": WHEN.replace(tzinfo=None)},
            )
            await _old_game(conn, 1, "scrabble")
            await _old_game(conn, 2, "chess")
            if conn.dialect.name == "postgresql":  # the rows came with their ids
                await conn.execute(text("SELECT setval('games_id_seq', 2)"))

        assert await upgrade_to_head(engine) == head_revision()
        factory = create_session_factory(engine)
        async with UnitOfWork(factory) as uow:
            # Old references resolve to the same games: number = id.
            assert await uow.games.id_of(CLUB, "scrabble", 1) == 1
            assert await uow.games.id_of(CLUB, "chess", 2) == 2
            assert await uow.games.id_of(CLUB, "chess", 1) is None
            seats = (await uow.games.get(2)).seats
            assert [(s.seat, s.user_id) for s in seats] == [(0, 10)]  # nothing lost on the way

        # The next game of each kind continues after that kind's highest number.
        chess_id, chess_number = await _new_game(factory, "chess")
        assert (chess_id, chess_number) == (3, 3)
        assert await _new_game(factory, "scrabble") == (4, 2)
        assert await _new_game(factory, "chess") == (5, 4)

        # A club with only games made after the change: its first chess game is #1,
        # though Scrabble games came first and other clubs have chess games.
        assert [(await _new_game(factory, "scrabble", OTHER_CLUB))[1] for _ in range(2)] == [1, 2]
        assert (await _new_game(factory, "chess", OTHER_CLUB))[1] == 1
        async with UnitOfWork(factory) as uow:
            assert await uow.games.id_of(OTHER_CLUB, "chess", 1) == 8
            assert await uow.games.id_of(OTHER_CLUB, "chess", 2) is None
            assert await uow.games.id_of(CLUB, "chess", 1) is None
    finally:
        await engine.dispose()


async def test_two_games_of_one_guild_and_kind_never_share_a_number(session_factory) -> None:
    await _new_game(session_factory, "chess")
    async with UnitOfWork(session_factory) as uow:
        uow.session.add(GameRecord(guild_id=CLUB, kind="chess", number=1, state={}, options={}))
        with pytest.raises(IntegrityError):
            await uow.session.flush()


async def test_games_added_without_seats_are_numbered_too(session_factory) -> None:
    async with UnitOfWork(session_factory) as uow:
        await uow.guilds.ensure(CLUB)
        first = uow.games.add(GameRecord(guild_id=CLUB, kind="chess", state={}, options={}))
        await uow.session.flush()
        second = uow.games.add(GameRecord(guild_id=CLUB, kind="chess", state={}, options={}))
        await uow.session.flush()
        await uow.session.refresh(first)
        await uow.session.refresh(second)
        assert (first.number, second.number) == (1, 2)
