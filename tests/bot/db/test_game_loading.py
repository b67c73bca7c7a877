"""A game with its seats costs as few statements as it can (issue #32): loaded by id
or by thread in one statement (a join), made with its seats in one flush and one
read of its number. On a real SQLite file and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db.models import GameRecord
from bot.db.uow import UnitOfWork


@contextmanager
def statements(engine: AsyncEngine) -> Iterator[list[str]]:
    """The SQL statements sent while the block runs (BEGIN and COMMIT aside)."""
    sent: list[str] = []

    def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if not statement.startswith(("BEGIN", "COMMIT")):
            sent.append(statement)

    event.listen(engine.sync_engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", record)


async def test_a_game_is_made_and_loaded_with_its_seats_in_few_statements(
    engine: AsyncEngine, session_factory
) -> None:
    async with UnitOfWork(session_factory) as uow:
        await uow.guilds.ensure(1, "Library Club")
        for user_id, name in ((10, "alice"), (11, "bob"), (12, "carol")):
            await uow.players.ensure(user_id, name)
        await uow.commit()

    async with UnitOfWork(session_factory) as uow:
        with statements(engine) as sent:
            game = await uow.games.add_with_seats(
                GameRecord(
                    guild_id=1,
                    kind="scrabble",
                    status="invited",
                    state={},
                    options={},
                    thread_id=77,
                ),
                [(1, 12, False), (0, 11, True), (0, 10, True)],
            )
            assert game.number == 1
            assert [(s.seat, s.user_id, s.accepted) for s in game.seats] == [
                (0, 10, True),
                (0, 11, True),
                (1, 12, False),
            ]
        assert len(sent) == 3, sent  # the game, its seats, its number
        game_id = game.id
        await uow.commit()

    for load in ("id", "thread"):
        async with UnitOfWork(session_factory) as uow:
            with statements(engine) as sent:
                if load == "id":
                    loaded = await uow.games.get(game_id, kind="scrabble")
                else:
                    found = await uow.games.by_thread(77, kind="scrabble")
                    assert found is not None
                    loaded = found
                assert [(s.seat, s.user_id) for s in loaded.seats] == [(0, 10), (0, 11), (1, 12)]
            assert len(sent) == 1, (load, sent)
