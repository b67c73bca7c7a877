"""The web benchmarks' games (benchmarks/_web_games.py): one maker for each kind,
shared by the club page's benchmark and the board pages' (not a copy in each), and
each makes the game it says through the real services."""

from __future__ import annotations

import ast
import random
from pathlib import Path

from benchmarks._web_games import WHITE, chess_game, scrabble_game
from bot.services.chess import ChessService

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
ENTRY_POINTS = {"run", "_measure"}  # every benchmark module has its own


def _functions(name: str) -> set[str]:
    tree = ast.parse((BENCHMARKS / name).read_text())
    return {
        node.name for node in tree.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }


def test_the_web_benchmarks_share_their_game_makers() -> None:
    shared = _functions("bench_web.py") & _functions("bench_web_boards.py")
    assert shared <= ENTRY_POINTS, f"defined in both: {sorted(shared - ENTRY_POINTS)}"
    for name in ("bench_web.py", "bench_web_boards.py"):
        assert "from benchmarks._web_games import" in (BENCHMARKS / name).read_text()


async def test_a_chess_game_is_made_after_its_plies_and_finished_when_asked(ctx) -> None:
    service = ChessService(ctx, rng=random.Random(7))
    fresh = await chess_game(service)
    snap = await service.reading.snapshot(fresh)
    assert snap.status == "active" and not snap.moves and snap.white.user_id == WHITE.user_id
    live = await chess_game(service, 6, 2027)
    snap = await service.reading.snapshot(live)
    assert snap.status == "active" and len(snap.moves) == 6
    done = await chess_game(service, 4, 3000, finish=True)
    assert (await service.reading.snapshot(done)).status == "finished"


async def test_a_scrabble_game_is_made_fresh_or_with_a_play_and_passes(ctx) -> None:
    fresh = await scrabble_game(ctx)
    played = await scrabble_game(ctx, plays=True)
    async with ctx.reader() as uow:
        assert await uow.moves.for_game(fresh) == []
        kinds = [m.data.get("type") for m in await uow.moves.for_game(played)]
    assert kinds == ["play", "pass", "pass", "pass", "pass"]
