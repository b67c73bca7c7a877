"""Scrabble behind the bot: a move through the service on SQLite among many live games.

Each measured move is a whole command: load the game row, rebuild the engine
from its JSON, apply the move, version-checked save, move log, timer jobs and
the outbox row, one commit. Also the position autocomplete (every square and
direction tried against the member's rack) and the board image the outbox
renders after each move.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from benchmarks._core import Row, ms_row, time_calls

BUDGET_MOVE_MS = 50.0
BUDGET_AUTOCOMPLETE_MS = 100.0
BUDGET_RENDER_MS = 13.0
BUDGET_PNG_KB = 200.0


class _AllWords:
    def __contains__(self, word: object) -> bool:
        return True


async def _measure(games: int, tmp: Path) -> dict[str, list[float]]:
    from bot.config import load_settings
    from bot.db.engine import create_engine, create_session_factory
    from bot.db.migrate import upgrade_to_head
    from bot.scheduler import Scheduler
    from bot.services import ServiceContext
    from bot.services.scrabble import LexiconCache, Member, NewGameRequest, ScrabbleService

    url = f"sqlite+aiosqlite:///{tmp / 'bench.db'}"
    engine = create_engine(url)
    await upgrade_to_head(engine)
    factory = create_session_factory(engine)
    clock = lambda: datetime(2026, 12, 1, tzinfo=UTC)  # noqa: E731
    ctx = ServiceContext(
        load_settings(None, database_url=url), factory, Scheduler(factory, clock=clock), clock=clock
    )
    service = ScrabbleService(
        ctx,
        rng=random.Random(1),
        lexicons=LexiconCache(lambda name: _AllWords()),
        definitions=lambda: None,
    )
    ids = []
    for n in range(games):
        a, b = Member(1000 + 2 * n, f"p{2 * n}"), Member(1001 + 2 * n, f"p{2 * n + 1}")
        invite = await service.invitations.create(NewGameRequest(1, "Bench", 2, a, [b], clock="3m"))
        await service.invitations.accept(invite.game_id, b.user_id)
        await service.invitations.start(invite.game_id, 3 + n)
        ids.append(invite.game_id)

    async def mover(game_id: int) -> tuple[int, str]:
        view = await service.reading.board(game_id, 0)
        seat = view.current_seat
        return view.seats[seat].user_ids[0], seat

    samples: dict[str, list[float]] = {"play": [], "pass": [], "autocomplete": [], "rack": []}
    measured = ids[: max(40, games // 2)]  # every game is live; half of them are enough samples
    for game_id in measured:
        user, _ = await mover(game_id)
        rack = (await service.reading.rack(game_id, user)).tiles
        word = "".join("e" if t == "?" else t for t in rack[:3])
        t0 = time.perf_counter()
        await service.reading.position_choices(game_id, user, word, "")
        samples["autocomplete"].append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        await service.moves.play(game_id, user, word, "8H")
        samples["play"].append((time.perf_counter() - t0) * 1000)
    for game_id in measured:
        user, _ = await mover(game_id)
        t0 = time.perf_counter()
        await service.moves.pass_turn(game_id, user)
        samples["pass"].append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        await service.reading.rack(game_id, user)
        samples["rack"].append((time.perf_counter() - t0) * 1000)
    picture = (await service.reading.board(ids[0], 0)).picture
    samples["picture"] = [picture]  # type: ignore[list-item]
    await engine.dispose()
    return samples


def run(quick: bool) -> list[Row]:
    from bot.render.scrabble import scrabble_board_png
    from bot.services.scrabble import BoardPicture
    from bot.ui.scrabble import BOARD_PX

    def board_png(picture: BoardPicture) -> bytes:
        return scrabble_board_png(picture.rows, picture.last, picture.header, BOARD_PX)

    games = 40 if quick else 200
    with tempfile.TemporaryDirectory() as tmp:
        samples = asyncio.run(_measure(games, Path(tmp)))
    picture = samples.pop("picture")[0]  # type: ignore[index]
    renders = time_calls(lambda: board_png(picture), repeat=20 if quick else 100)
    size_kb = len(board_png(picture)) / 1024
    label = f"{games} live games, SQLite"
    return [
        ms_row(
            f"scrabble_discord: /scrabble play via the service ({label})",
            samples["play"],
            BUDGET_MOVE_MS,
        ),
        ms_row(
            f"scrabble_discord: /scrabble pass via the service ({label})",
            samples["pass"],
            BUDGET_MOVE_MS,
        ),
        ms_row("scrabble_discord: /scrabble rack read", samples["rack"], BUDGET_MOVE_MS),
        ms_row(
            "scrabble_discord: position autocomplete (450 placements)",
            samples["autocomplete"],
            BUDGET_AUTOCOMPLETE_MS,
        ),
        ms_row(
            "scrabble_discord: board image 900 px after the first move (full boards: bench_render)",
            renders,
            BUDGET_RENDER_MS,
        ),
        Row(
            "scrabble_discord: board PNG size",
            "KB",
            BUDGET_PNG_KB,
            size_kb,
            None,
            f"{size_kb:.1f} KB",
        ),
        Row(
            "scrabble_discord: move commits per second (serial)",
            "/s",
            None,
            1000.0 / statistics.median(samples["play"]),
            None,
            "",
        ),
    ]
