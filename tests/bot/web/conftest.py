"""A club with games, rounds and an event, and its web page served by aiohttp's
test client: the real services on the test's database and clock."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.services import ServiceContext
from bot.services.chess import ChessService, PlayerRef
from bot.services.scrabble import Member, NewGameRequest
from bot.services.web import WebService
from bot.web.metrics import Metrics
from bot.web.server import WebApp
from tests.bot.services.scrabble_support import (
    GUILD,
    THREAD,
    Words,
    engine_of,
    make_service,
    seat_member,
    started,
)

OTHER_GUILD = 11
SNEAKY = "<script>alert(1)</script>"
CLUB_NAME = "Club <b>Night</b>"
ANA = Member(1, SNEAKY)
BEN = Member(2, "Ben & Co")
CHESS_WHITE, CHESS_BLACK = PlayerRef(3, "carol"), PlayerRef(4, "dave")


@dataclass
class World:
    ctx: ServiceContext
    client: TestClient[Any, Any]
    base: str
    scrabble_done: int = 0
    scrabble_live: int = 0
    chess_done: int = 0
    chess_live: int = 0
    secrets: list[str] = field(default_factory=list)  # racks and words a page must not show
    metrics: Metrics = field(default_factory=Metrics)
    gateway: list[bool] = field(default_factory=lambda: [True])

    async def get(self, path: str, **kwargs: Any) -> Any:
        return await self.client.get(path, **kwargs)


async def _scrabble(ctx: ServiceContext, world: World) -> None:
    service = make_service(ctx, Words())
    game_id = await started(service, _request(ANA, BEN))
    # A play, then a pass, an exchange and a resignation: a finished game of four moves.
    game = await engine_of(ctx, game_id)
    seat = game.current_seat
    user = await seat_member(ctx, game_id, seat)
    word = "".join("e" if t == "?" else t for t in game.racks[seat][:2])
    await service.moves.play(game_id, user, word, "8H")
    game = await engine_of(ctx, game_id)
    other = await seat_member(ctx, game_id, game.current_seat)
    await service.moves.pass_turn(game_id, other)
    game = await engine_of(ctx, game_id)
    tiles = game.racks[game.current_seat][:3].replace("?", "")
    world.secrets.append(tiles)
    await service.moves.exchange(game_id, user, tiles)
    await service.moves.resign(game_id, other)
    world.scrabble_done = game_id

    live = await started(service, _request(ANA, BEN))
    game = await engine_of(ctx, live)
    seat = game.current_seat
    user = await seat_member(ctx, live, seat)
    word = "".join("e" if t == "?" else t for t in game.racks[seat][:2])
    await service.moves.play(live, user, word, "8H")
    game = await engine_of(ctx, live)
    world.secrets.extend(game.racks)
    world.scrabble_live = live


def _request(creator: Member, opponent: Member) -> NewGameRequest:
    return NewGameRequest(
        guild_id=GUILD, guild_name="Club", channel_id=20, creator=creator, opponents=[opponent]
    )


async def _chess(ctx: ServiceContext, world: World) -> None:
    service = ChessService(ctx, rng=random.Random(7))

    async def new() -> int:
        snap = await service.starting.challenge(
            guild_id=GUILD,
            guild_name="Club",
            channel_id=20,
            challenger=CHESS_WHITE,
            opponent=CHESS_BLACK,
            time_control="3d",
            color="white",
        )
        await service.starting.accept(snap.game_id, CHESS_BLACK)
        await service.starting.open_in(snap.game_id, THREAD + snap.game_id)
        return snap.game_id

    async def play(game_id: int, *sans: str) -> None:
        for san in sans:
            snap = await service.reading.snapshot(game_id)
            await service.moves.play(game_id, snap.to_move.user_id, san, reply_channel_id=THREAD)

    world.chess_done = await new()
    await play(world.chess_done, "f3", "e5", "g4", "Qh4#")
    world.chess_live = await new()
    await play(world.chess_live, "e4", "e5")


@pytest.fixture
async def world(ctx: ServiceContext) -> AsyncIterator[World]:
    page = await WebService(ctx).set(GUILD, CLUB_NAME, "on")
    assert page.path is not None
    metrics = Metrics()
    gateway = [True]
    app = WebApp(ctx, metrics, lambda: gateway[0], poll_ms=500).app()
    client: TestClient[Any, Any] = TestClient(TestServer(app))
    await client.start_server()
    w = World(ctx, client, page.path, metrics=metrics, gateway=gateway)
    try:
        await _scrabble(ctx, w)
        await _chess(ctx, w)
        await WebService(ctx).set(GUILD, CLUB_NAME, "on")  # the games renamed it "Club"
        yield w
    finally:
        await client.close()
