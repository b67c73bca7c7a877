"""What a move costs the database (issue #32): the statements a ``/chess move`` and a
``/scrabble play`` send through the service layer, called as the cogs call it (the game
is the one of the thread the command is typed in, found by the use case itself), on a
real SQLite file and on PostgreSQL. Counted as sent (a ``before_cursor_execute``
listener), BEGIN and COMMIT apart: a unit of work is counted as a transaction begun.

The move's own statements are pinned: the game read with its seats and names in one
statement, its state written once (compare-and-set), the move logged, the board queued
in the outbox, in one unit of work. Its timers (jobs) are bounded, not pinned: their
statements are the scheduler's business. Also here: what this process remembers of the
database so as not to ask again (an achievement earned) is remembered right, and the
names shown are the members' current ones.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db import repositories
from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade_to_head
from bot.db.models import GuildRecord, PlayerRecord
from bot.db.models_daily import AchievementRecord
from bot.db.uow import UnitOfWork
from bot.services import ServiceContext
from bot.services.chess import ChessService, PlayerRef
from bot.services.club import ClubService
from bot.services.scrabble import ScrabbleService
from tests.bot.services.scrabble_support import (
    GUILD,
    THREAD,
    engine_of,
    posts,
    seat_member,
    set_racks,
    started,
)
from tests.clock import FakeClock
from tests.conftest import make_service_context

CHESS_THREAD = 31
ALICE, BOB = PlayerRef(1, "alice"), PlayerRef(2, "bob")
_TABLE = re.compile(r"\b(?:FROM|INTO|UPDATE)\s+(\w+)")


@dataclass
class Sent:
    statements: list[str] = field(default_factory=list)
    transactions: int = 0

    @property
    def kinds(self) -> list[str]:
        """Each statement as its verb and its table: "SELECT games", "INSERT moves"…"""
        out = []
        for text in self.statements:
            table = _TABLE.search(text)
            out.append(f"{text.split()[0].upper()} {table.group(1) if table else '?'}")
        return out

    def on(self, *tables: str) -> list[str]:
        """The statements on these tables, sorted."""
        return sorted(k for k in self.kinds if k.split()[1] in tables)


@contextmanager
def counted(engine: AsyncEngine) -> Iterator[Sent]:
    sent = Sent()

    def statement(conn: Any, cursor: Any, text: str, *args: Any) -> None:
        if not text.startswith(("BEGIN", "COMMIT", "ROLLBACK")):
            sent.statements.append(" ".join(text.split()))

    def begun(conn: Any) -> None:
        sent.transactions += 1

    event.listen(engine.sync_engine, "before_cursor_execute", statement)
    event.listen(engine.sync_engine, "begin", begun)
    try:
        yield sent
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", statement)
        event.remove(engine.sync_engine, "begin", begun)


async def challenge(chess: ChessService, white: PlayerRef = ALICE, black: PlayerRef = BOB) -> int:
    """``/chess new`` in the club's channel: the club and both members stored."""
    snap = await chess.starting.challenge(
        guild_id=GUILD,
        guild_name="Club",
        channel_id=20,
        challenger=white,
        opponent=black,
        time_control="3d",
        color="white",
    )
    return snap.game_id


async def chess_game(chess: ChessService) -> int:
    game_id = await challenge(chess)
    snap = await chess.starting.accept(game_id, BOB)
    await chess.starting.open_in(snap.game_id, CHESS_THREAD)
    return snap.game_id


async def chess_move(chess: ChessService, user: PlayerRef, move: str) -> None:
    """``/chess move`` typed in the game's thread, as the cog calls it."""
    asked = chess.finder.asked(
        guild_id=GUILD, user_id=user.user_id, channel_id=CHESS_THREAD, ref=None
    )
    await chess.moves.play(asked, user.user_id, move, reply_channel_id=CHESS_THREAD, guild_id=GUILD)


async def scrabble_play(service: ScrabbleService, user: int, word: str, position: str) -> None:
    """``/scrabble play`` typed in the game's thread, as the cog calls it."""
    asked = service.finder.asked(guild_id=GUILD, user_id=user, channel_id=THREAD, ref=None)
    await service.moves.play(asked, user, word, position, guild_id=GUILD)


async def test_a_chess_move_is_one_unit_of_work_of_few_statements(
    ctx: ServiceContext, engine: AsyncEngine
) -> None:
    chess = ChessService(ctx)
    await chess_game(chess)
    await chess_move(chess, ALICE, "e4")
    with counted(engine) as sent:
        await chess_move(chess, BOB, "e5")
    # The game with its seats and names, its state, the move; the board for the thread.
    assert sent.on("games", "game_seats", "players", "moves") == [
        "INSERT moves",
        "SELECT games",
        "UPDATE games",
    ], sent.statements
    assert sent.on("outbox") == ["INSERT outbox"]
    assert len(sent.on("jobs")) <= 2, sent.statements  # the flag and the reminder moved
    assert len(sent.statements) <= 6, sent.statements  # nothing else
    assert sent.transactions == 1  # no lookup of the game before its unit of work


async def test_a_scrabble_play_is_one_unit_of_work_of_few_statements(
    ctx: ServiceContext, engine: AsyncEngine, service: ScrabbleService
) -> None:
    game_id = await started(service)
    game = await engine_of(ctx, game_id)
    user = await seat_member(ctx, game_id, game.current_seat)
    await set_racks(ctx, game_id, {game.current_seat: "QUIETLY"})
    with counted(engine) as sent:
        await scrabble_play(service, user, "QUIET", "8H")
    # The game, its state, the play; the board for the thread and the turn's DM.
    assert sent.on("games", "game_seats", "players", "moves", "achievements") == [
        "INSERT moves",
        "SELECT games",
        "UPDATE games",
    ], sent.statements
    assert 1 <= len(sent.on("outbox")) <= 2, sent.statements  # two rows: one INSERT or two
    assert len(sent.on("jobs")) <= 3, sent.statements  # the turn clock, its reminder, the window
    assert len(sent.statements) <= 8, sent.statements  # nothing else
    assert sent.transactions == 1


async def test_a_first_bingo_is_granted_in_one_statement_and_not_asked_again(
    ctx: ServiceContext, engine: AsyncEngine, service: ScrabbleService
) -> None:
    async def bingo_made_final(game_id: int, user: int | None = None) -> tuple[int, Sent]:
        """A bingo (by ``user``, if given) made final by the opponent's pass."""
        game = await engine_of(ctx, game_id)
        seat = game.current_seat
        if user is not None and await seat_member(ctx, game_id, seat) != user:
            await service.moves.pass_turn(game_id, await seat_member(ctx, game_id, seat))
            seat = 1 - seat
        await set_racks(ctx, game_id, {seat: "RETAINS"})
        user = await seat_member(ctx, game_id, seat)
        other = await seat_member(ctx, game_id, 1 - seat)
        await scrabble_play(service, user, "RETAINS", "8H")
        with counted(engine) as sent:  # the opponent passes: the bingo is past challenge
            await service.moves.pass_turn(game_id, other, guild_id=GUILD)
        return user, sent

    user, first = await bingo_made_final(await started(service))
    assert first.on("achievements") == ["INSERT achievements"]  # asked and added at once
    ctx.clock.now += timedelta(minutes=1)
    _, second = await bingo_made_final(await started(service), user)
    assert second.on("achievements") == [], second.statements  # known earned: not asked
    announced = [p.payload["content"] for p in await posts(ctx)]
    assert sum("First bingo" in text for text in announced) == 1


async def test_an_achievement_is_remembered_only_once_its_transaction_commits(
    ctx: ServiceContext, engine: AsyncEngine
) -> None:
    def earned() -> AchievementRecord:
        return AchievementRecord(
            guild_id=GUILD, player_id=1, code="first_win", earned_at=ctx.clock(), detail={}
        )

    async with ctx.uow() as uow:
        await uow.guilds.ensure(GUILD, "Club")
        await uow.players.ensure(1, "alice")
        await uow.commit()
    async with ctx.uow() as uow:  # granted, then rolled back (a lost race, say)
        assert await uow.achievements.add_once(earned())
    async with ctx.uow() as uow:  # so it is granted again, and this time kept
        assert await uow.achievements.add_once(earned())
        await uow.commit()
    async with ctx.uow() as uow:
        with counted(engine) as sent:
            assert not await uow.achievements.add_once(earned())
            assert await uow.achievements.has(GUILD, 1, "first_win")
        assert sent.statements == []  # remembered: nothing asked
        rows = await uow.session.execute(select(AchievementRecord.player_id))
        assert list(rows.scalars()) == [1]


async def test_what_is_remembered_of_one_database_is_not_taken_for_another(
    tmp_path: Path,
) -> None:
    async def grant(path: Path) -> bool:
        engine = create_engine(f"sqlite+aiosqlite:///{path}")
        try:
            await upgrade_to_head(engine)
            async with UnitOfWork(create_session_factory(engine)) as uow:
                await uow.guilds.ensure(GUILD, "Club")
                await uow.players.ensure(1, "alice")
                added = await uow.achievements.add_once(
                    AchievementRecord(
                        guild_id=GUILD,
                        player_id=1,
                        code="first_win",
                        earned_at=datetime(2026, 1, 1, tzinfo=UTC),
                        detail={},
                    )
                )
                await uow.commit()
            return added
        finally:
            await engine.dispose()

    assert await grant(tmp_path / "one.db")
    assert await grant(tmp_path / "two.db")  # a fresh database: earned there too
    assert not await grant(tmp_path / "one.db")  # a new engine on the first: read, not assumed


async def test_a_member_renamed_between_moves_is_shown_by_the_new_name(
    ctx: ServiceContext, service: ScrabbleService
) -> None:
    game_id = await started(service)
    game = await engine_of(ctx, game_id)
    user = await seat_member(ctx, game_id, game.current_seat)
    async with ctx.uow() as uow:  # the member changed their name; a command wrote it
        await uow.players.ensure(user, "Renamed Member")
        await uow.commit()
    await set_racks(ctx, game_id, {game.current_seat: "QUIETLY"})
    await scrabble_play(service, user, "QUIET", "8H")
    board = [p for p in await posts(ctx) if p.target_id == THREAD][-1]
    assert "Renamed Member" in board.payload["content"]
    view = await service.reading.board(
        service.finder.asked(guild_id=GUILD, user_id=user, channel_id=THREAD, ref=None), user
    )
    assert "Renamed Member" in view.summary


async def name_of(ctx: ServiceContext, user_id: int) -> str:
    async with ctx.reader() as uow:
        player = await uow.session.get(PlayerRecord, user_id)
        assert player is not None
        return player.display_name


async def test_a_new_game_of_a_club_and_members_this_process_stored_asks_nothing_of_them(
    ctx: ServiceContext, engine: AsyncEngine
) -> None:
    chess = ChessService(ctx)
    await challenge(chess)  # the club and both members stored
    with counted(engine) as sent:
        await challenge(chess)
    assert sent.on("guilds") == [], sent.statements
    assert sent.on("players") == ["SELECT players"], sent.statements  # the names it shows


async def test_a_member_renamed_is_written_at_their_next_game_and_shown_by_it(
    ctx: ServiceContext,
) -> None:
    chess = ChessService(ctx)
    await challenge(chess)
    game_id = await challenge(chess, PlayerRef(ALICE.user_id, "Alice Renamed"))
    assert await name_of(ctx, ALICE.user_id) == "Alice Renamed"
    snap = await chess.reading.snapshot(game_id)
    assert snap.white.name == "Alice Renamed"


def other_process(database_url: str, clock: FakeClock) -> tuple[AsyncEngine, ServiceContext]:
    """A second bot process on the same database: an engine (and pool) of its own."""
    engine = create_engine(database_url)
    return engine, make_service_context(create_session_factory(engine), clock)


async def test_a_club_setting_changed_by_another_process_is_seen(
    ctx: ServiceContext, database_url: str, clock: FakeClock
) -> None:
    chess = ChessService(ctx)
    await challenge(chess)  # this process stored the club
    engine, elsewhere = other_process(database_url, clock)
    try:
        await ClubService(elsewhere).setup(GUILD, "Club", timezone="Asia/Manila")
        assert (await ClubService(ctx).get(GUILD)).timezone == "Asia/Manila"
        await challenge(chess)  # a game made here after it leaves the setting as it is
        assert (await ClubService(elsewhere).get(GUILD)).timezone == "Asia/Manila"
        async with ctx.reader() as uow:
            guild = await uow.session.get(GuildRecord, GUILD)
            assert guild is not None and guild.timezone == "Asia/Manila"
    finally:
        await engine.dispose()


async def test_a_name_another_process_wrote_is_written_again_once_this_ones_memory_lapses(
    ctx: ServiceContext, database_url: str, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same member under two servers' nicknames, each server's games in a process of
    its own: the players row holds the name written last, and a process trusts the name
    it wrote itself for ``NAME_KEPT_SECONDS`` only."""
    chess = ChessService(ctx)
    await challenge(chess)  # here she is "alice"
    engine, elsewhere = other_process(database_url, clock)
    try:
        await challenge(ChessService(elsewhere), PlayerRef(ALICE.user_id, "Alicia"))
        assert await name_of(ctx, ALICE.user_id) == "Alicia"
        later = time.monotonic() + repositories.common.NAME_KEPT_SECONDS + 1
        monkeypatch.setattr(repositories.common.time, "monotonic", lambda: later)
        await challenge(chess)  # "alice" again here, after the memory lapsed: written
        assert await name_of(ctx, ALICE.user_id) == "alice"
    finally:
        await engine.dispose()
