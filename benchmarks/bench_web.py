"""The club web page: the server's time per page and each page's weight.

A club on a SQLite file is filled through the real services (a finished 60-ply
chess game, a live one, 25 short finished ones for the club page to list, a
Scrabble game with a few plays), and each page is
fetched through aiohttp's test client on the loopback, so a figure is the
server's whole work for the request: the database reads, the replay to the
asked step, the template, and for a board image its drawing (cold) or the
cache (warm). A page's weight is what a browser downloads for it: the HTML,
the stylesheet, the script when the page has one, and the board image.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from benchmarks._core import Row, ms_row
from benchmarks._web_games import GUILD, chess_game, scrabble_game
from bot.config import load_settings
from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade_to_head
from bot.scheduler import Scheduler
from bot.services import ServiceContext
from bot.services.chess import ChessService
from bot.services.web import WebService
from bot.web.server import WebApp

PAGE_BUDGET_MS = 50.0  # a page, database to HTML
BOARD_COLD_BUDGET_MS = 150.0  # drawing a board the cache has not seen
WEIGHT_BUDGET_KB = 150.0
CLUB_GAMES = 25  # HTML + CSS + JS + the board image of a game page


async def _measure(quick: bool) -> list[Row]:
    repeat = 15 if quick else 60
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        engine = create_engine(url)
        await upgrade_to_head(engine)
        factory = create_session_factory(engine)
        ctx = ServiceContext(
            settings=load_settings(None, database_url=url, stockfish_path=""),
            session_factory=factory,
            scheduler=Scheduler(factory),
        )
        chess_service = ChessService(ctx, rng=random.Random(7))
        done = await chess_game(chess_service, 60, 2026, finish=True)
        live = await chess_game(chess_service, 20, 2027)
        for seed in range(CLUB_GAMES):  # a club page with a season's worth of games listed
            await chess_game(chess_service, 6, 3000 + seed, finish=True)
        scrabble = await scrabble_game(ctx, plays=True)
        page = await WebService(ctx).set(GUILD, "Bench club", "on")
        base = page.path
        assert base is not None
        client: TestClient[Any, Any] = TestClient(TestServer(WebApp(ctx).app()))
        await client.start_server()
        try:
            rows = await _pages(client, base, done, live, scrabble, repeat)
        finally:
            await client.close()
            await engine.dispose()
    return rows


async def _timed(client: TestClient[Any, Any], path: str, repeat: int) -> tuple[list[float], bytes]:
    body = b""
    for _ in range(3):
        body = await (await client.get(path)).read()
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        response = await client.get(path)
        body = await response.read()
        samples.append((time.perf_counter() - started) * 1000)
        assert response.status == 200, (path, response.status)
    return samples, body


async def _pages(
    client: TestClient[Any, Any], base: str, done: int, live: int, scrabble: int, repeat: int
) -> list[Row]:
    css = len(await (await client.get("/static/style.css")).read())
    js = len(await (await client.get("/static/live.js")).read())
    rows = []
    home, home_html = await _timed(client, base, repeat)
    rows.append(ms_row("web: club page (leaderboard, 28 games listed)", home, PAGE_BUDGET_MS))
    replay, replay_html = await _timed(client, f"{base}games/{done}?step=30", repeat)
    rows.append(ms_row("web: chess replay page at move 30 of 60", replay, PAGE_BUDGET_MS))
    live_page, live_html = await _timed(client, f"{base}games/{live}", repeat)
    rows.append(ms_row("web: live chess page", live_page, PAGE_BUDGET_MS))
    poll, _ = await _timed(client, f"{base}games/{live}/live.json", repeat)
    rows.append(ms_row("web: live refresh (live.json)", poll, PAGE_BUDGET_MS))
    sc_page, sc_html = await _timed(client, f"{base}games/{scrabble}?step=1", repeat)
    rows.append(
        ms_row("web: Scrabble replay page (replayed from the log)", sc_page, PAGE_BUDGET_MS)
    )

    cold = []
    for step in range(min(repeat, 60)):
        started = time.perf_counter()
        response = await client.get(f"{base}games/{done}/board.png?step={step}")
        await response.read()
        cold.append((time.perf_counter() - started) * 1000)
    rows.append(ms_row("web: chess board image, first request (drawn)", cold, BOARD_COLD_BUDGET_MS))
    warm, chess_png = await _timed(client, f"{base}games/{done}/board.png?step=30", repeat)
    rows.append(ms_row("web: chess board image, cached", warm, PAGE_BUDGET_MS))
    sc_cold = []
    for step in range(6):
        started = time.perf_counter()
        await (await client.get(f"{base}games/{scrabble}/board.png?step={step}")).read()
        sc_cold.append((time.perf_counter() - started) * 1000)
    rows.append(
        ms_row("web: Scrabble board image, first request (drawn)", sc_cold, BOARD_COLD_BUDGET_MS)
    )
    _, scrabble_png = await _timed(client, f"{base}games/{scrabble}/board.png?step=1", 3)
    etag = (await client.get(f"{base}games/{done}/board.png?step=30")).headers["ETag"]
    not_modified, _ = await _timed_304(
        client, f"{base}games/{done}/board.png?step=30", etag, repeat
    )
    rows.append(ms_row("web: board image revalidated (304)", not_modified, PAGE_BUDGET_MS))

    def kb(*sizes: int) -> float:
        return sum(sizes) / 1024

    weights = [
        ("web weight: club page (HTML + CSS)", kb(len(home_html), css)),
        (
            "web weight: chess replay page (HTML + CSS + board)",
            kb(len(replay_html), css, len(chess_png)),
        ),
        (
            "web weight: live chess page (HTML + CSS + JS + board)",
            kb(len(live_html), css, js, len(chess_png)),
        ),
        (
            "web weight: Scrabble replay page (HTML + CSS + board)",
            kb(len(sc_html), css, len(scrabble_png)),
        ),
    ]
    for metric, value in weights:
        rows.append(Row(metric, "KB", WEIGHT_BUDGET_KB, value, spread=f"{value:.1f} KB"))
    return rows


async def _timed_304(
    client: TestClient[Any, Any], path: str, etag: str, repeat: int
) -> tuple[list[float], bytes]:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        response = await client.get(path, headers={"If-None-Match": etag})
        await response.read()
        assert response.status == 304
        samples.append((time.perf_counter() - started) * 1000)
    return samples, b""


def run(quick: bool) -> list[Row]:
    return asyncio.run(_measure(quick))
