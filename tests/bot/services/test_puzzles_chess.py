"""Chess puzzles from a finished club game, through the services (SQLite and PostgreSQL),
with the real Stockfish: the game's finish schedules the search, the job stores the
missed win once, members solve it move by move (the bot playing the replies) or fail it
with one wrong move, ratings move both ways; without Stockfish none are offered."""

from __future__ import annotations

import os
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import SimpleNamespace

import chess
import pytest
from sqlalchemy import select

from bot.db.models_puzzles import PuzzleAttemptRecord, PuzzleRecord
from bot.errors import InvalidInputError
from bot.services import ServiceContext
from bot.services.chess import ChessService
from bot.services.chess.engine import LineSearch, StockfishEngine
from bot.services.chess.options import BOARD_RENDERER
from bot.services.puzzles.daily import chess_post
from bot.services.puzzles.hooks import JOB_FIND, game_finished
from bot.services.puzzles.service import CHESS, PuzzleService
from bot.ui.chess import outbox_board_renderer
from engines.chess_puzzles import EngineLine
from tests.bot.services.test_chess import ALICE, BOB, CAROL, GUILD, FakeEngine, World
from tests.clock import FakeClock
from tests.conftest import sqlite_write_lock_free

STOCKFISH = os.environ.get("STOCKFISH_PATH") or "/usr/games/stockfish"
needs_stockfish = pytest.mark.skipif(
    not (os.path.isfile(STOCKFISH) and os.access(STOCKFISH, os.X_OK)),
    reason=f"Stockfish not found at {STOCKFISH} (apt-get install stockfish, or set STOCKFISH_PATH)",
)

# Legal's mate, missed: after 5...Bxd1?? White mates with 6.Bxf7+ Ke7 7.Nd5#, but takes
# the queen back (6.Kxd1); then White resigns.
LEGAL_MISSED = ["e4", "e5", "Nf3", "d6", "Bc4", "Bg4", "Nc3", "g6", "Nxe5", "Bxd1", "Kxd1", "dxe5"]
LEGAL_PLY = 10
LEGAL_LINE = ["c4f7", "e8e7", "c3d5"]
DAVE = SimpleNamespace(user_id=4, name="dave")


@pytest.fixture
def world(ctx: ServiceContext, clock: FakeClock) -> World:
    service = ChessService(ctx, engine=FakeEngine(), rng=random.Random(7))
    ctx.scheduler.register_service(service)
    return World(service, clock, ctx.scheduler, ctx.session_factory)


@pytest.fixture
def puzzles(ctx: ServiceContext) -> PuzzleService:
    service = PuzzleService(ctx, chess_engine=StockfishEngine(STOCKFISH))
    ctx.scheduler.register_service(service)
    return service


async def finished_game(world: World) -> int:
    """Alice (White) and Bob's game above, Alice resigning at the end."""
    game_id = await world.new_game()
    await world.play(game_id, *LEGAL_MISSED)
    await world.service.endings.resign(game_id, ALICE.user_id)
    return game_id


async def stored(ctx: ServiceContext) -> list[SimpleNamespace]:
    async with ctx.reader() as uow:
        rows = (await uow.session.execute(select(PuzzleRecord).order_by(PuzzleRecord.id))).scalars()
        return [
            SimpleNamespace(id=r.id, kind=r.kind, ply=r.ply, data=dict(r.data), rating=r.rating)
            for r in rows
        ]


async def found_puzzle(ctx: ServiceContext, world: World) -> SimpleNamespace:
    await finished_game(world)
    outcomes = await ctx.scheduler.run_due()
    assert [o.ok for o in outcomes if o.kind == JOB_FIND] == [True]
    [row] = [r for r in await stored(ctx) if r.ply == LEGAL_PLY]
    return row


@needs_stockfish
async def test_a_finished_game_s_missed_win_becomes_a_puzzle_once(ctx, world, puzzles):
    game_id = await finished_game(world)
    await ctx.scheduler.run_due()
    rows = await stored(ctx)
    [row] = [r for r in rows if r.ply == LEGAL_PLY]
    assert row.kind == CHESS and row.data["line"] == LEGAL_LINE
    assert row.data["played"] == "e1d1" and row.data["who"] == "alice"
    assert row.data["fen"].split()[:2] == [
        "rn1qkbnr/ppp2p1p/3p2p1/4N3/2B1P3/2N5/PPPP1PPP/R1BbK2R",
        "w",
    ]
    assert row.data["best_score"] - row.data["second_score"] >= 200
    # Every puzzle kept is a position where the game's move was not the engine's best.
    assert all(r.data["played"] != r.data["line"][0] for r in rows)
    # The job again (a restart, a second finish): nothing new.
    async with ctx.uow() as uow:
        await game_finished(uow, await uow.games.get(game_id), ctx.clock())
        await uow.commit()
    again = await ctx.scheduler.run_due()
    assert [o.ok for o in again if o.kind == JOB_FIND] == [True]
    assert [r.id for r in await stored(ctx)] == [r.id for r in rows]


@needs_stockfish
async def test_a_member_solves_a_chess_puzzle_move_by_move(ctx, world, puzzles):
    row = await found_puzzle(ctx, world)
    view = await puzzles.next_puzzle(GUILD, CAROL.user_id, CAROL.name, CHESS)
    while view.puzzle_id != row.id:  # another puzzle of the game first: given up
        await puzzles.show_solution(GUILD, CAROL.user_id, CAROL.name, view.puzzle_id)
        view = await puzzles.next_puzzle(GUILD, CAROL.user_id, CAROL.name, CHESS)
    assert view.kind == CHESS and view.fen == row.data["fen"] and view.last_move == "g4d1"
    assert "White to move: find the best move." in view.text and "Chess #" in view.text
    assert "FEN " + row.data["fen"] in view.description

    # A text that is no legal move there is refused and changes nothing.
    with pytest.raises(InvalidInputError):
        await puzzles.answer_move(GUILD, CAROL.user_id, CAROL.name, row.id, "Qh5")
    first = await puzzles.answer_move(GUILD, CAROL.user_id, CAROL.name, row.id, "Bxf7+")
    assert first.status == "open" and first.view is not None
    assert "Bxf7+" in first.text and "Ke7" in first.text and "So far: 6. Bxf7+ Ke7" in first.text
    assert first.view.last_move == "e8e7" and first.view.fen.split()[1] == "w"
    # Asked again meanwhile, the same puzzle at the same point.
    resumed = await puzzles.next_puzzle(GUILD, CAROL.user_id, CAROL.name, CHESS)
    assert resumed.resumed and resumed.fen == first.view.fen
    done = await puzzles.answer_move(GUILD, CAROL.user_id, CAROL.name, row.id, "c3d5")  # UCI
    assert done.status == "solved" and done.rating_change and done.rating_change > 0
    assert "✅ Solved! **Nd5#**" in done.text
    assert "**Solution:** 6. Bxf7+ Ke7 7. Nd5#" in done.text and "alice played Kxd1" in done.text
    async with ctx.reader() as uow:
        carol = await uow.ratings.get_or_new(GUILD, "puzzle", CAROL.user_id)
        puzzle = await uow.puzzles.get(row.id)
        assert carol.rating > 1500 and carol.wins == 1
        assert puzzle is not None and puzzle.rating < 1500 and puzzle.solved == 1
    streak = await puzzles.streak(GUILD, CAROL.user_id)
    assert streak is not None and streak.current == 1 and streak.solved == 1


@needs_stockfish
async def test_one_wrong_move_fails_a_chess_puzzle(ctx, world, puzzles):
    row = await found_puzzle(ctx, world)
    await puzzles.open_puzzle(GUILD, DAVE.user_id, DAVE.name, row.id)
    failed = await puzzles.answer_move(GUILD, DAVE.user_id, DAVE.name, row.id, "Kxd1")
    assert failed.status == "failed" and failed.rating_change and failed.rating_change < 0
    assert "❌ **Kxd1** is not the move." in failed.text and "**Solution:**" in failed.text
    again = await puzzles.answer_move(GUILD, DAVE.user_id, DAVE.name, row.id, "Bxf7+")
    assert again.status == "failed" and again.text.startswith("You have seen this one's solution.")
    async with ctx.reader() as uow:
        answers = await uow.session.scalar(
            select(PuzzleAttemptRecord.answers).where(PuzzleAttemptRecord.player_id == DAVE.user_id)
        )
        dave = await uow.ratings.get_or_new(GUILD, "puzzle", DAVE.user_id)
        assert answers == [["Kxd1", False]] and dave.rating < 1500 and dave.losses == 1


@needs_stockfish
async def test_show_solution_gives_a_chess_puzzle_up(ctx, world, puzzles):
    row = await found_puzzle(ctx, world)
    await puzzles.open_puzzle(GUILD, BOB.user_id, BOB.name, row.id)
    shown = await puzzles.show_solution(GUILD, BOB.user_id, BOB.name, row.id)
    assert shown.status == "failed" and "6. Bxf7+ Ke7 7. Nd5#" in shown.text


async def test_without_stockfish_chess_puzzles_are_not_offered_nor_searched(ctx, world):
    puzzles = PuzzleService(ctx)  # the test settings name no Stockfish
    ctx.scheduler.register_service(puzzles)
    assert puzzles.chess_engine is None and puzzles.kinds == ("scrabble",)
    await finished_game(world)
    outcomes = await ctx.scheduler.run_due()
    assert [o.ok for o in outcomes if o.kind == JOB_FIND] == [True]
    assert await stored(ctx) == []
    with pytest.raises(InvalidInputError) as refused:
        await puzzles.next_puzzle(GUILD, CAROL.user_id, CAROL.name, CHESS)
    assert "Stockfish" in str(refused.value) and "STOCKFISH_PATH" in str(refused.value)


@needs_stockfish
async def test_chess_puzzles_found_stay_offered_and_solvable_once_stockfish_is_gone(
    ctx, world, puzzles
):
    row = await found_puzzle(ctx, world)
    without = PuzzleService(ctx)  # the test settings name no Stockfish
    assert without.chess_engine is None
    view = await without.next_puzzle(GUILD, CAROL.user_id, CAROL.name, CHESS)
    assert view.puzzle_id == row.id
    await without.answer_move(GUILD, CAROL.user_id, CAROL.name, row.id, "Bxf7+")
    done = await without.answer_move(GUILD, CAROL.user_id, CAROL.name, row.id, "Nd5#")
    assert done.status == "solved"
    failed = await without.answer_move(GUILD, DAVE.user_id, DAVE.name, row.id, "Kxd1")
    assert failed.status == "failed"
    assert "A chess puzzle ends at its first wrong move." in failed.text
    assert "No tries left" not in failed.text
    # Every one tried: the club has chess puzzles, so it is "all done", not "install it".
    with pytest.raises(InvalidInputError) as refused:
        await without.next_puzzle(GUILD, CAROL.user_id, CAROL.name, CHESS)
    assert "STOCKFISH_PATH" not in str(refused.value)


@needs_stockfish
async def test_no_chess_puzzles_yet_says_where_they_come_from(ctx, puzzles):
    with pytest.raises(InvalidInputError, match="No chess puzzles yet"):
        await puzzles.next_puzzle(GUILD, CAROL.user_id, CAROL.name, CHESS)


async def test_a_chess_daily_puzzle_is_posted_with_its_board_from_the_solver_s_side(clock):
    fen = "rn1qkbnr/ppp2p1p/3p2p1/4N3/2B1P3/2N5/PPPP1PPP/R1BbK2R w KQkq - 0 6"
    data = {
        "ply": 10,
        "fen": fen,
        "line": ["c4f7", "e8e7", "c3d5"],
        "played": "e1d1",
        "best_score": 99997,
        "second_score": -188,
        "last": "g4d1",
        "game_number": 7,
        "who": "alice",
    }
    puzzle = PuzzleRecord(id=5, kind=CHESS, game_id=3, ply=10, data=data)
    post = chess_post(puzzle, clock())
    assert "chess #7 (move 6)" in post.content and "Bxf7" not in post.content
    [board] = post.files
    assert board.renderer == BOARD_RENDERER and board.args["orientation"] == "white"
    assert board.args["last_move"] == "g4d1" and f"FEN {fen}" in board.description
    name, png = await outbox_board_renderer(board.args)
    assert name.endswith(".png") and png.startswith(b"\x89PNG")


class WatchedStockfish(StockfishEngine):
    """Stockfish that notes, at each search, whether SQLite's write lock was free."""

    def __init__(self, path: str, sqlite_path: str) -> None:
        super().__init__(path)
        self.sqlite_path = sqlite_path
        self.lock_free: list[bool] = []

    @asynccontextmanager
    async def line_search(self, depth: int) -> AsyncIterator[LineSearch]:
        async with super().line_search(depth) as search:
            watched = self

            class Watched:
                async def top_lines(self, board: chess.Board, count: int) -> list[EngineLine]:
                    watched.lock_free.append(sqlite_write_lock_free(watched.sqlite_path))
                    return await search.top_lines(board, count)

            yield Watched()


@needs_stockfish
async def test_the_search_runs_before_the_job_s_transaction(ctx, world, database_url):
    if not database_url.startswith("sqlite"):
        pytest.skip("the write lock watched is SQLite's")
    engine = WatchedStockfish(STOCKFISH, database_url.split("///", 1)[1])
    puzzles = PuzzleService(ctx, chess_engine=engine)
    ctx.scheduler.register_service(puzzles)
    await finished_game(world)
    await ctx.scheduler.run_due()
    assert len(engine.lock_free) >= len(LEGAL_MISSED) and all(engine.lock_free)
    assert [r.ply for r in await stored(ctx)] == [LEGAL_PLY]
