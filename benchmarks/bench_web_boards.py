"""Members' own board pages (issue #28): a move made on one page, pushed to another,
and what each board page weighs.

A club on a SQLite file, the bot's web app (``WebApp``: the board routes, their
sessions, CSRF and rate limit, the watch that pushes versions) served on the
loopback by aiohttp, and the real services behind it. Two members open their
private links (the cookie each link sets); each opens the other's page's event
stream as a second browser tab would. For each move: the mover's page POSTs it
(``/board/chess/<id>/move`` with the session cookie and the CSRF token, as
``static/board/common.js`` does), the server applies it through ``ChessService``
(the same use case as ``/chess move``, its outbox rows and timers included), and
the clock stops when the *other* member's page receives the ``version`` event of
the new position. A second figure adds that page's state read (what the page does
on the push), so it is the whole "the opponent's screen shows the move".

Moves are random legal ones, alternately from White's and Black's pages, and a
member makes at most ``RATE`` changes a second (the pages' own limit), so the run
is paced as members are. A finished game is followed by a new one.

A page's weight is what a browser downloads for it before images: the HTML (with
its state), the stylesheets it links and the modules it loads (their imports too).
"""

from __future__ import annotations

import asyncio
import random
import re
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
import chess
from aiohttp.test_utils import TestServer

from benchmarks._core import Row, ms_row
from benchmarks._web_games import BLACK, GUILD, WHITE, chess_game, scrabble_game
from bot.config import load_settings
from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade_to_head
from bot.scheduler import Scheduler
from bot.services import ServiceContext
from bot.services.board_links import BoardLinks, Kind
from bot.services.boggle import BoggleService
from bot.services.chess import ChessService
from bot.web.boards import RATE
from bot.web.server import WebApp

PUSH_BUDGET_MS = 150.0  # issue #28: p99 of a move on the board reaching another open page
WEIGHT_BUDGET_KB = 150.0  # issue #28: a board page before images
PLIES_PER_GAME = 60
CSRF = re.compile(r'data-csrf="([^"]+)"')
ASSETS = re.compile(r'(?:href|src)="(/static/[^"]+\.(?:css|js))"')
IMPORTS = re.compile(r'(?:from|import)\s+"\./([^"]+\.js)"')


class Page:
    """A member's board page: its session (the link's cookie) and CSRF token."""

    def __init__(self, http: aiohttp.ClientSession, base: str, path: str, html: str) -> None:
        found = CSRF.search(html)
        assert found is not None, "no CSRF token on the page"
        self.http, self.base, self.path, self.html, self.csrf = (
            http,
            base,
            path,
            html,
            found.group(1),
        )

    @classmethod
    async def open(
        cls, ctx: ServiceContext, base: str, user: int, kind: Kind, subject: int
    ) -> Page:
        link = await BoardLinks(ctx).link(GUILD, user, kind, subject)
        assert link is not None
        http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        async with http.get(base + link) as response:  # 303 to the page, cookie set
            assert response.status == 200, response.status
            return cls(http, base, response.url.path, await response.text())

    async def post(self, action: str, body: dict[str, Any]) -> dict[str, Any]:
        async with self.http.post(
            f"{self.base}{self.path}/{action}", json=body, headers={"X-CSRF-Token": self.csrf}
        ) as response:
            answer: dict[str, Any] = await response.json()
            assert response.status == 200, answer
            return answer

    async def state(self) -> dict[str, Any]:
        async with self.http.get(f"{self.base}{self.path}/state") as response:
            assert response.status == 200
            data: dict[str, Any] = await response.json()
            return data

    async def weight(self) -> int:
        """The page's bytes before images: HTML, stylesheets, modules and their imports."""
        total = len(self.html.encode())
        seen: set[str] = set()
        todo = ASSETS.findall(self.html)
        while todo:
            asset = todo.pop()
            if asset in seen:
                continue
            seen.add(asset)
            async with self.http.get(self.base + asset) as response:
                assert response.status == 200, asset
                body = await response.read()
            total += len(body)
            if asset.endswith(".js"):
                folder = asset.rsplit("/", 1)[0]
                todo += [f"{folder}/{name}" for name in IMPORTS.findall(body.decode())]
        return total

    async def close(self) -> None:
        await self.http.close()


class Stream:
    """A page's event stream: when each pushed version arrived."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.arrived: dict[int, float] = {}
        self.changed = asyncio.Event()
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async with self.page.http.get(
            f"{self.page.base}{self.page.path}/events", timeout=aiohttp.ClientTimeout(total=None)
        ) as response:
            event = None
            async for raw in response.content:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line.removeprefix("event: ")
                elif line.startswith("data: ") and event == "version":
                    self.arrived[int(line.removeprefix("data: "))] = time.perf_counter()
                    self.changed.set()

    async def until(self, version: int, timeout: float = 10.0) -> float:
        """When ``version`` arrived (waits for it)."""
        async with asyncio.timeout(timeout):
            while version not in self.arrived:
                self.changed.clear()
                await self.changed.wait()
        return self.arrived[version]

    async def close(self) -> None:
        self.task.cancel()
        try:
            await self.task
        except (asyncio.CancelledError, aiohttp.ClientError):
            pass


async def _moves(ctx: ServiceContext, base: str, moves: int) -> tuple[list[float], ...]:
    """(POST answered, pushed to the other page, and that page's state read), in ms."""
    service = ChessService(ctx, rng=random.Random(7))
    rng = random.Random(2026)
    answered: list[float] = []
    pushed: list[float] = []
    shown: list[float] = []
    last_post = {WHITE.user_id: 0.0, BLACK.user_id: 0.0}
    gap = 1.0 / RATE + 0.005  # a member's changes, at most RATE a second
    while len(pushed) < moves:
        game_id = await chess_game(service)
        pages = {
            user: await Page.open(ctx, base, user, "chess", game_id)
            for user in (WHITE.user_id, BLACK.user_id)
        }
        streams = {user: Stream(page) for user, page in pages.items()}
        board = chess.Board()
        version = int((await pages[WHITE.user_id].state())["version"])
        for stream in streams.values():
            await stream.until(version)
        try:
            while (
                len(pushed) < moves
                and not board.is_game_over()
                and len(board.move_stack) < (PLIES_PER_GAME)
            ):
                mover = WHITE.user_id if board.turn == chess.WHITE else BLACK.user_id
                other = BLACK.user_id if mover == WHITE.user_id else WHITE.user_id
                move = rng.choice(sorted(board.legal_moves, key=lambda m: m.uci()))
                wait = last_post[mover] + gap - time.perf_counter()
                if wait > 0:
                    await asyncio.sleep(wait)
                body = {
                    "from": chess.square_name(move.from_square),
                    "to": chess.square_name(move.to_square),
                    "promotion": chess.piece_symbol(move.promotion) if move.promotion else None,
                    "version": version,
                }
                started = time.perf_counter()
                last_post[mover] = started
                answer = await pages[mover].post("move", body)
                done = time.perf_counter()
                version = int(answer["version"])
                arrived = await streams[other].until(version)
                await pages[other].state()
                read = time.perf_counter()
                answered.append((done - started) * 1000)
                pushed.append((arrived - started) * 1000)
                shown.append((read - started) * 1000)
                board.push(move)
        finally:
            for stream in streams.values():
                await stream.close()
            for page in pages.values():
                await page.close()
    return answered, pushed, shown


async def _weights(ctx: ServiceContext, base: str) -> list[Row]:
    chess_id = await chess_game(ChessService(ctx, rng=random.Random(8)))
    scrabble_id = await scrabble_game(ctx)
    boggle = BoggleService(ctx, seeds=lambda: 1)
    round_info = await boggle.starting.start_round(
        guild_id=GUILD, guild_name="Bench club", channel_id=21, started_by=1
    )
    rows = []
    for kind, user, subject in (
        ("scrabble", 3, scrabble_id),
        ("chess", WHITE.user_id, chess_id),
        ("boggle", 1, round_info.id),
    ):
        page = await Page.open(ctx, base, user, kind, subject)  # type: ignore[arg-type]
        try:
            kb = await page.weight() / 1024
        finally:
            await page.close()
        rows.append(
            Row(
                f"web weight: {kind} board page (HTML + CSS + JS)",
                "KB",
                WEIGHT_BUDGET_KB,
                kb,
                spread=f"{kb:.1f} KB",
            )
        )
    return rows


async def _measure(quick: bool) -> list[Row]:
    moves = 60 if quick else 300
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        engine = create_engine(url)
        await upgrade_to_head(engine)
        factory = create_session_factory(engine)
        ctx = ServiceContext(
            settings=load_settings(None, database_url=url, stockfish_path="", web_port=0),
            session_factory=factory,
            scheduler=Scheduler(factory),
        )
        server = TestServer(WebApp(ctx).app(), host="127.0.0.1")
        await server.start_server()
        base = str(server.make_url("")).rstrip("/")
        try:
            answered, pushed, shown = await _moves(ctx, base, moves)
            rows = [
                ms_row("web board: chess move POSTed, applied and answered", answered, None),
                ms_row("web board: chess move pushed to the other page (SSE)", pushed, None),
                ms_row("web board: … and that page's state read (screen updated)", shown, None),
            ]
            rows[1].budget, rows[1].budget_on = PUSH_BUDGET_MS, "p99"
            rows += await _weights(ctx, base)
        finally:
            await server.close()
            await engine.dispose()
    return rows


def run(quick: bool) -> list[Row]:
    return asyncio.run(_measure(quick))
