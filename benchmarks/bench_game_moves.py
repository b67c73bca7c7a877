"""A game command's database work through the service layer (issue #32): the SQL
statements and the event loop's CPU of a ``/chess move`` and its move autocomplete, a
``/scrabble play``, the position autocomplete and a board, called as the cogs call the
services (the game is the one of the thread the command was typed in), on a SQLite
file or on PostgreSQL.

    python -m benchmarks.bench_game_moves                          # SQLite
    python -m benchmarks.bench_game_moves --database postgresql    # on TEST_DATABASE_URL's server
    python -m benchmarks.bench_game_moves --profile chess          # cProfile of the chess moves
    python -m benchmarks.bench_game_moves --plies 80 --only chess  # chess games 80 plies long

Statements are counted as sent (``before_cursor_execute``; BEGIN and COMMIT apart) and
transactions as begun. CPU is the calling thread's (``time.thread_time``): the event
loop's own, which is what the load benchmark's ``(loop)`` column reports (asyncpg runs
on the loop; aiosqlite's own thread is not counted). No images are drawn and no
Discord is called: what is left is the services, the ORM and the driver. Each move is
chosen (and a Scrabble game read for it) outside the measured call. ``--plies N`` plays
each chess game N plies (unmeasured) first: a command's rules work grows with the game
(a long game is where rebuilding it from its moves shows).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import chess
from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncEngine

from benchmarks._core import Row

GUILD = 1
CHESS_THREAD = 10_000
SCRABBLE_THREAD = 20_000
BENCH_DATABASE = "bench_moves"
DEFAULT_POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"


@dataclass
class Counts:
    statements: int = 0
    transactions: int = 0
    samples: dict[str, list[tuple[float, int, int]]] = field(default_factory=dict)

    def add(self, op: str, cpu_ms: float, statements: int, transactions: int) -> None:
        self.samples.setdefault(op, []).append((cpu_ms, statements, transactions))


def _count(engine: AsyncEngine, counts: Counts) -> None:
    def sent(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if not statement.startswith(("BEGIN", "COMMIT", "ROLLBACK")):
            counts.statements += 1

    def begun(conn: Any) -> None:
        counts.transactions += 1

    event.listen(engine.sync_engine, "before_cursor_execute", sent)
    event.listen(engine.sync_engine, "begin", begun)


async def _measured(counts: Counts, op: str, call: Callable[[], Awaitable[Any]]) -> Any:
    statements, transactions = counts.statements, counts.transactions
    started = time.thread_time()
    result = await call()
    cpu = (time.thread_time() - started) * 1000
    counts.add(op, cpu, counts.statements - statements, counts.transactions - transactions)
    return result


class Bench:
    def __init__(self, url: str, games: int, plies: int = 0) -> None:
        self.url = url
        self.games = games
        self.plies = plies
        self.counts = Counts()
        self.rng = random.Random(7)

    async def setup(self) -> None:
        from bot.config import load_settings
        from bot.db.engine import create_engine, create_session_factory
        from bot.db.migrate import upgrade_to_head
        from bot.scheduler import Scheduler
        from bot.services import ServiceContext
        from bot.services.chess import ChessService
        from bot.services.scrabble import ScrabbleService

        self.engine = create_engine(self.url)
        await upgrade_to_head(self.engine)
        factory = create_session_factory(self.engine)
        self.ctx = ServiceContext(
            settings=load_settings(None, lexicon="default", stockfish_path=""),
            session_factory=factory,
            scheduler=Scheduler(factory),
        )
        self.chess = ChessService(self.ctx, rng=random.Random(1))
        self.scrabble = ScrabbleService(self.ctx, rng=random.Random(2))
        _count(self.engine, self.counts)
        self.chess_games: list[tuple[int, int, tuple[int, int], chess.Board]] = []
        self.scrabble_games: list[tuple[int, int, tuple[int, int]]] = []
        for i in range(self.games):
            await self._new_chess(i)
            await self._new_scrabble(i)
        for _ in range(self.plies):
            for index in range(self.games):
                await self.chess_move(index, measured=False)

    async def _new_chess(self, i: int) -> None:
        from bot.services.chess import PlayerRef

        white, black = PlayerRef(100 + 2 * i, f"white {i}"), PlayerRef(101 + 2 * i, f"black {i}")
        snap = await self.chess.starting.challenge(
            guild_id=GUILD,
            guild_name="Bench club",
            channel_id=1,
            challenger=white,
            opponent=black,
            time_control="3d",
            color="white",
        )
        await self.chess.starting.accept(snap.game_id, black)
        thread = CHESS_THREAD + len(self.chess_games)
        await self.chess.starting.open_in(snap.game_id, thread)
        players = (white.user_id, black.user_id)
        self.chess_games.append((snap.game_id, thread, players, chess.Board()))

    async def _new_scrabble(self, i: int) -> None:
        from bot.services.scrabble import Member, NewGameRequest

        first, second = Member(5000 + 2 * i, f"first {i}"), Member(5001 + 2 * i, f"second {i}")
        outcome = await self.scrabble.invitations.create(
            NewGameRequest(
                guild_id=GUILD,
                guild_name="Bench club",
                channel_id=1,
                creator=first,
                opponents=[second],
            )
        )
        await self.scrabble.invitations.accept(outcome.game_id, second.user_id, GUILD)
        thread = SCRABBLE_THREAD + len(self.scrabble_games)
        await self.scrabble.invitations.start(outcome.game_id, thread)
        self.scrabble_games.append((outcome.game_id, thread, (first.user_id, second.user_id)))

    async def _state(self, game_id: int) -> dict[str, Any]:
        import json

        async with self.engine.connect() as conn:
            raw = (
                await conn.execute(text("select state from games where id = :g"), {"g": game_id})
            ).scalar_one()
        return json.loads(raw) if isinstance(raw, str) else dict(raw)

    # -- the commands, as the cogs call the services ------------------------------------------

    async def chess_move(self, index: int, *, measured: bool = True) -> None:
        _, thread, players, board = self.chess_games[index]
        moves = list(board.legal_moves)
        self.rng.shuffle(moves)
        for move in moves:
            board.push(move)
            over = board.is_game_over(claim_draw=True)
            board.pop()
            if not over:
                break
        else:
            await self._new_chess(index)
            self.chess_games[index] = self.chess_games.pop()
            return
        san = board.san(move)
        user = players[0 if board.turn == chess.WHITE else 1]

        async def command() -> None:
            asked = self.chess.finder.asked(
                guild_id=GUILD, user_id=user, channel_id=thread, ref=None
            )
            await self.chess.moves.play(asked, user, san, reply_channel_id=thread, guild_id=GUILD)

        async def autocomplete() -> None:
            await self.chess.reading.move_choices(
                guild_id=GUILD, user_id=user, channel_id=thread, game_id=None, typed=san[:1]
            )

        if measured:
            await _measured(self.counts, "/chess move autocomplete", autocomplete)
            await _measured(self.counts, "/chess move", command)
        else:
            await command()
        board.push(move)

    async def chess_board(self, index: int) -> None:
        _, thread, players, _ = self.chess_games[index]

        async def command() -> None:
            asked = self.chess.finder.asked(
                guild_id=GUILD, user_id=players[0], channel_id=thread, ref=None, want="any"
            )
            await self.chess.reading.snapshot(asked, guild_id=GUILD)

        await _measured(self.counts, "/chess board", command)

    async def scrabble_play(self, index: int) -> None:
        from tests.reliability.games import legal_play

        game_id, thread, players = self.scrabble_games[index]
        state = await self._state(game_id)
        if state.get("status") not in (None, "active") or "engine" not in state:
            return
        engine = state["engine"]
        user = players[int(engine["current_seat"])]
        try:
            word, position = legal_play(engine, seed=self.rng.randrange(1 << 30))
        except AssertionError:
            return

        async def autocomplete() -> None:
            asked = self.scrabble.finder.asked(
                guild_id=GUILD, user_id=user, channel_id=thread, ref=None
            )
            await self.scrabble.reading.position_choices(asked, user, word, "")

        async def command() -> None:
            asked = self.scrabble.finder.asked(
                guild_id=GUILD, user_id=user, channel_id=thread, ref=None
            )
            await self.scrabble.moves.play(asked, user, word, position, guild_id=GUILD)

        async def board() -> None:
            asked = self.scrabble.finder.asked(
                guild_id=GUILD, user_id=user, channel_id=thread, ref=None
            )
            await self.scrabble.reading.board(asked, user, guild_id=GUILD)

        await _measured(self.counts, "position autocomplete", autocomplete)
        await _measured(self.counts, "position autocomplete, same keystroke", autocomplete)
        await _measured(self.counts, "/scrabble board", board)
        await _measured(self.counts, "/scrabble play", command)

    async def run(self, rounds: int, only: str | None = None) -> None:
        for _ in range(rounds):
            for index in range(self.games):
                if only in (None, "chess"):
                    await self.chess_move(index)
                    await self.chess_board(index)
                if only in (None, "scrabble"):
                    await self.scrabble_play(index)


async def _postgres(admin_url: str) -> str:
    import asyncpg
    from sqlalchemy.engine import make_url

    admin = make_url(admin_url)
    conn = await asyncpg.connect(
        host=admin.host, port=admin.port, user=admin.username, database=admin.database
    )
    try:
        await conn.execute(f"drop database if exists {BENCH_DATABASE} with (force)")
        await conn.execute(f"create database {BENCH_DATABASE}")
    finally:
        await conn.close()
    return admin.set(database=BENCH_DATABASE).render_as_string(hide_password=False)


async def _drop_postgres(admin_url: str) -> None:
    import asyncpg
    from sqlalchemy.engine import make_url

    admin = make_url(admin_url)
    conn = await asyncpg.connect(
        host=admin.host, port=admin.port, user=admin.username, database=admin.database
    )
    try:
        await conn.execute(f"drop database if exists {BENCH_DATABASE} with (force)")
    finally:
        await conn.close()


async def measure(
    database: str,
    *,
    games: int,
    rounds: int,
    warmup: int = 1,
    profile: str | None = None,
    only: str | None = None,
    plies: int = 0,
) -> Counts:
    os.environ.setdefault("CPU_WORKERS", "0")  # suggestions in a thread: not the loop's CPU
    admin = os.environ.get("TEST_DATABASE_URL", DEFAULT_POSTGRES)
    with tempfile.TemporaryDirectory() as tmp:
        url = (
            await _postgres(admin)
            if database == "postgresql"
            else f"sqlite+aiosqlite:///{Path(tmp) / 'club.db'}"
        )
        bench = Bench(url, games, plies)
        only = only or profile
        try:
            await bench.setup()
            await bench.run(warmup, only)
            bench.counts.samples.clear()
            profiler = cProfile.Profile() if profile else None
            if profiler:
                profiler.enable()
            await bench.run(rounds, only)
            if profiler:
                profiler.disable()
                pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
                pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
        finally:
            await bench.engine.dispose()
            if database == "postgresql":
                await _drop_postgres(admin)
        return bench.counts


def _rows(database: str, counts: Counts) -> list[Row]:
    rows = []
    for op, samples in counts.samples.items():
        cpu = [s[0] for s in samples]
        statements = statistics.mean(s[1] for s in samples)
        transactions = statistics.mean(s[2] for s in samples)
        rows.append(
            Row(
                metric=f"{op} on {database}: loop CPU",
                unit="ms",
                budget=None,
                median=statistics.median(cpu),
                p99=None,
                spread=(
                    f"{statements:.2f} statements, {transactions:.2f} transactions "
                    f"(n={len(samples)})"
                ),
            )
        )
    return rows


def run(quick: bool) -> list[Row]:
    counts = asyncio.run(measure("sqlite", games=5 if quick else 10, rounds=3 if quick else 8))
    return _rows("SQLite", counts)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_game_moves")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--profile", choices=("chess", "scrabble"))
    parser.add_argument(
        "--only", choices=("chess", "scrabble"), help="measure one game's commands only"
    )
    parser.add_argument(
        "--plies", type=int, default=0, help="play each chess game this long first (unmeasured)"
    )
    args = parser.parse_args()
    counts = asyncio.run(
        measure(
            args.database,
            games=args.games,
            rounds=args.rounds,
            profile=args.profile,
            only=args.only,
            plies=args.plies,
        )
    )
    print(f"{'command':<48} {'statements':>10} {'transactions':>12} {'loop CPU ms (median)':>21}")
    for op, samples in counts.samples.items():
        statements = statistics.mean(s[1] for s in samples)
        transactions = statistics.mean(s[2] for s in samples)
        cpu = statistics.median(s[0] for s in samples)
        print(f"{op:<48} {statements:>10.2f} {transactions:>12.2f} {cpu:>21.3f}")


if __name__ == "__main__":
    main()
