"""A Scrabble game and its members' board pages through aiohttp's test client, on the
real services and database: what ``test_boards.py`` (the board pages' foundation)
and ``test_board_scrabble.py`` (the Scrabble kind) share."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.services import ServiceContext
from bot.services.board_links import LINK_PATH, BoardLinks
from bot.services.scrabble import Member, ScrabbleService
from bot.web.board_scrabble import ScrabbleBoard
from bot.web.boards import RateLimit
from bot.web.metrics import Metrics
from bot.web.server import WebApp
from tests.bot.services.scrabble_support import (
    ALICE,
    BOB,
    GUILD,
    THREAD,
    Words,
    engine_of,
    make_service,
    request,
    seat_member,
    set_racks,
    started,
)
from tests.clock import FakeClock
from tests.conftest import make_service_context

CSRF = re.compile(r'data-csrf="([^"]+)"')


@dataclass
class Row:
    """A game as the database holds it: what a refused change must leave alone."""

    version: int
    status: str
    moves: int
    engine: dict[str, Any]


@dataclass
class Scrabble:
    ctx: ServiceContext
    service: ScrabbleService
    words: Words
    client: TestClient[Any, Any]
    web: WebApp

    async def new_game(self, *opponents: Member, **options: Any) -> int:
        """A game between Alice and Bob (or these opponents), started in its thread."""
        return await started(self.service, request(*opponents, **options))

    async def member(self, game_id: int, seat: int) -> int:
        return await seat_member(self.ctx, game_id, seat)

    async def mover(self, game_id: int) -> tuple[int, int]:
        """The seat to move and (one of) its member(s)."""
        game = await engine_of(self.ctx, game_id)
        return game.current_seat, await self.member(game_id, game.current_seat)

    async def set_racks(self, game_id: int, racks: dict[int, str]) -> None:
        """Give each seat these tiles, swapped with the bag (the 100 tiles stay the 100)."""
        await set_racks(self.ctx, game_id, racks)

    async def row(self, game_id: int) -> Row:
        """The game's row and its move log, read from the database."""
        async with self.ctx.reader() as uow:
            game = await uow.games.get(game_id)
            moves = await uow.moves.for_game(game_id)
            return Row(game.version, game.status, len(moves), dict(game.state["engine"]))

    async def thread_posts(self) -> list[str]:
        """What the games' thread is to be sent (the outbox's rows, their text)."""
        async with self.ctx.reader() as uow:  # read inside: the read's rollback expires rows
            return [
                str(row.payload.get("content", ""))
                for row in await uow.outbox.pending(limit=500)
                if row.target_kind == "channel" and row.target_id == THREAD
            ]

    async def link(self, user_id: int, game_id: int) -> str:
        path = await BoardLinks(self.ctx).link(GUILD, user_id, "scrabble", game_id)
        assert path is not None and path.startswith(LINK_PATH)
        return path

    async def open(self, user_id: int, game_id: int) -> Page:
        """The member's link opened: the cookie set, the page read, its CSRF token kept.
        The page keeps its own cookie (as the member's own browser would): the test's
        one client opens several members' pages of one game."""
        response = await self.client.get(await self.link(user_id, game_id))
        html = await response.text()
        assert response.status == 200, html[:300]
        assert str(response.url.path) == f"/board/scrabble/{game_id}"
        match = CSRF.search(html)
        assert match, html[:500]
        name = f"board_scrabble_{game_id}"
        cookie = self.client.session.cookie_jar.filter_cookies(response.url)[name].value
        return Page(self, game_id, match.group(1), html, {name: cookie})


@dataclass
class Page:
    scrabble: Scrabble
    game_id: int
    csrf: str
    html: str
    cookies: dict[str, str]

    @property
    def path(self) -> str:
        return f"/board/scrabble/{self.game_id}"

    async def state(self) -> dict[str, Any]:
        response = await self.scrabble.client.get(f"{self.path}/state", cookies=self.cookies)
        assert response.status == 200, await response.text()
        data: dict[str, Any] = await response.json()
        return data

    async def post(self, action: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        response = await self.scrabble.client.post(
            f"{self.path}/{action}",
            json=body,
            headers={"X-CSRF-Token": self.csrf},
            cookies=self.cookies,
        )
        return response.status, await response.json()

    async def change(self, action: str, **body: Any) -> dict[str, Any]:
        """A change made on the page as it stands now (its current version); it must go."""
        version = (await self.state())["version"]
        status, answer = await self.post(action, {**body, "version": version})
        assert status == 200 and answer["ok"], answer
        return answer


def tiles(*placed: tuple[int, int, str] | tuple[int, int, str, bool]) -> list[dict[str, Any]]:
    """Tiles as the page sends them: (row, column, letter[, blank])."""
    return [
        {"row": t[0], "col": t[1], "letter": t[2], "blank": bool(t[3]) if len(t) > 3 else False}
        for t in placed
    ]


@pytest.fixture
def web_ctx(session_factory: Any, clock: FakeClock) -> ServiceContext:
    return make_service_context(
        session_factory, clock, lexicon="default", stockfish_path="", web_port=0
    )


@pytest.fixture
async def scrabble_web(web_ctx: ServiceContext) -> AsyncIterator[Scrabble]:
    """The web app with the Scrabble board on a service whose word list knows every
    word but its phonies (``words.phonies``); the rate limit as the bot has it."""
    words = Words()
    service = make_service(web_ctx, words)
    web = WebApp(web_ctx, Metrics())
    web.boards.add(ScrabbleBoard(web_ctx, service))
    client: TestClient[Any, Any] = TestClient(TestServer(web.app()))
    await client.start_server()
    try:
        yield Scrabble(web_ctx, service, words, client, web)
    finally:
        await client.close()


def unlimited(scrabble: Scrabble) -> None:
    """For tests that send many changes a second (not the rate limit's own)."""
    scrabble.web.boards.limit = RateLimit(1000)


__all__ = ["ALICE", "BOB", "GUILD", "Page", "Row", "Scrabble", "scrabble_web", "tiles", "web_ctx"]
