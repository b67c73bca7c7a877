"""A Swiss round is paired off the event loop (here in a thread, CPU_WORKERS=0; the
bot's worker processes run bot.compute.pairing the same way): a big field's pairing takes a
second or more (the FIDE Dutch system on 64 chess entrants, the club's matching
on 256 Scrabble entrants), and the bot keeps answering everyone meanwhile."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

import pytest

from bot.compute import pairing
from bot.services import ServiceContext
from bot.services.chess import ChessService
from bot.services.tournaments.service import TournamentService
from tests.bot.services.scrabble_support import Words, make_service
from tests.bot.services.test_tournaments import _made, _rows, _start


@pytest.fixture
def tournaments(ctx: ServiceContext) -> TournamentService:
    chess = ChessService(ctx, engine=None, rng=random.Random(3))
    service = TournamentService(
        ctx, chess=chess, scrabble=make_service(ctx, Words()), rng=random.Random(11)
    )
    ctx.scheduler.register_service(service)
    ctx.scheduler.register_service(chess)
    return service


@pytest.mark.parametrize(
    ("game", "engine_name"), [("chess", "dutch_pairings"), ("scrabble", "swiss_pairings")]
)
async def test_the_loop_serves_others_while_a_swiss_round_is_paired(
    ctx: ServiceContext,
    tournaments: TournamentService,
    monkeypatch: pytest.MonkeyPatch,
    game: str,
    engine_name: str,
) -> None:
    loop = asyncio.get_running_loop()
    entered, served = asyncio.Event(), threading.Event()
    real = getattr(pairing, engine_name)

    def engine_waiting_for_the_loop(*args: Any, **kwargs: Any) -> list[pairing.Pairing]:
        loop.call_soon_threadsafe(entered.set)
        # Run on the loop, this would wait for a task the loop cannot run.
        assert served.wait(timeout=20), "the event loop was blocked while pairing"
        result: list[pairing.Pairing] = real(*args, **kwargs)
        return result

    monkeypatch.setattr(pairing, engine_name, engine_waiting_for_the_loop)

    async def another_member() -> None:
        await asyncio.wait_for(entered.wait(), timeout=20)  # the engine was called
        served.set()

    tid = await _made(tournaments, 4, game=game, fmt="swiss", rounds=3)
    await asyncio.gather(_start(tournaments, tid), another_member())
    head, rounds, pairings, _ = await _rows(ctx, tid)
    assert head[:2] == ("running", 1) and [r.number for r in rounds] == [1]
    assert len(pairings) == 2 and all(p.game_id is not None for p in pairings)
