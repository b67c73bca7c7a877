"""A member's puzzle page (bot/web/board_puzzle.py) through the web server, on the real
database (SQLite and PostgreSQL): the puzzle's board and rack, and never its solution
before the member's attempt is over; tiles put down are previewed (nothing changes)
and answered as the Answer form's typed word is (a try used, refused plays explained,
the best score solves it and shows the top plays); the page follows answers made in
Discord; another club's member, or a link of another puzzle, cannot open it."""

from __future__ import annotations

import asyncio
import heapq
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.db.models_puzzles import PuzzleRecord
from bot.services import ServiceContext
from bot.services.board_address import BoardAddresses
from bot.services.board_links import BoardLinks
from bot.services.puzzles.service import MAX_TRIES, PuzzleService
from bot.services.scrabble import LexiconCache
from bot.web.boards import cookie_name
from bot.web.server import WebApp
from engines.lexicon import load_lexicon
from engines.scrabble import Board
from engines.scrabble.board import index_name
from engines.scrabble.movegen import MoveGenerator
from engines.scrabble.puzzles import PuzzlePlay, ScrabblePuzzle
from tests.bot.services.scrabble_support import CAROL, DAVE, GUILD, Words, make_service, started
from tests.conftest import make_service_context

ROWS = tuple(".......CAT....." if r == 7 else "." * 15 for r in range(15))
RACK = "DOGSEAR"


@pytest.fixture(scope="module")
def position() -> ScrabblePuzzle:
    """The puzzle: CAT on the centre row, DOGSEAR to play (its top plays by the engine)."""
    board = Board.from_rows(list(ROWS))
    plays = MoveGenerator(load_lexicon()).generate(board, RACK)
    top = heapq.nlargest(5, plays, key=lambda p: p.score)
    return ScrabblePuzzle(
        ply=4,
        seat=0,
        board=ROWS,
        rack=RACK,
        best_score=top[0].score,
        top=tuple(PuzzlePlay(p.position, p.word, p.spelled(board), p.score) for p in top),
        played="8H CAT",
        played_score=10,
    )


def tiles(word: str, position: str) -> list[dict[str, Any]]:
    """A play as the page sends it: the new tiles, square by square (from the engine)."""
    evaluation = Board.from_rows(list(ROWS)).evaluate(word, position)
    sent = []
    for index, cell in evaluation.tiles:
        row, col = divmod(index, 15)
        sent.append({"row": row, "col": col, "letter": cell.upper(), "blank": cell.islower()})
    assert [index_name(i) for i, _ in evaluation.tiles]
    return sent


@dataclass
class Page:
    client: TestClient[Any, Any]
    puzzle_id: int
    token: str
    csrf: str

    def headers(self) -> dict[str, str]:
        return {
            "Cookie": f"{cookie_name('puzzle', self.puzzle_id)}={self.token}",
            "X-CSRF-Token": self.csrf,
        }

    async def state(self) -> dict[str, Any]:
        response = await self.client.get(
            f"/board/puzzle/{self.puzzle_id}/state", headers=self.headers()
        )
        assert response.status == 200, await response.text()
        return dict(await response.json())

    async def post(self, action: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
        response = await self.client.post(
            f"/board/puzzle/{self.puzzle_id}/{action}", json=body, headers=self.headers()
        )
        assert response.status == status, await response.text()
        return dict(await response.json())


@dataclass
class World:
    ctx: ServiceContext
    client: TestClient[Any, Any]
    puzzles: PuzzleService
    puzzle_id: int
    links: BoardLinks

    async def open(self, user: int, puzzle_id: int | None = None, guild: int = GUILD) -> Page:
        subject = self.puzzle_id if puzzle_id is None else puzzle_id
        path = await self.links.link(guild, user, "puzzle", subject, guild_name="club")
        assert path is not None
        token = path.removeprefix("/p/")
        opens = guild == GUILD  # another club's link is refused: it has no session
        csrf = (await self.links.session(token)).csrf if opens else ""
        return Page(self.client, subject, token, csrf)


async def add_puzzle(ctx: ServiceContext, game_id: int, position: ScrabblePuzzle) -> int:
    async with ctx.uow() as uow:
        row = PuzzleRecord(
            guild_id=GUILD,
            kind="scrabble",
            game_id=game_id,
            ply=position.ply,
            data={**position.to_json(), "lexicon": "default", "game_number": 1, "who": "Alice"},
            rating=1500.0,
            rd=350.0,
            volatility=0.06,
            attempts=0,
            solved=0,
            created_at=ctx.clock(),
        )
        await uow.puzzles.add([row])
        await uow.commit()
        return row.id


@pytest.fixture
async def world(session_factory, clock, position: ScrabblePuzzle) -> AsyncIterator[World]:
    ctx = make_service_context(session_factory, clock, lexicon="default", web_port=0)
    game_id = await started(make_service(ctx, Words()))
    puzzle_id = await add_puzzle(ctx, game_id, position)
    puzzles = PuzzleService(ctx, lexicons=LexiconCache())
    client: TestClient[Any, Any] = TestClient(TestServer(WebApp(ctx).app()))
    await client.start_server()
    try:
        yield World(ctx, client, puzzles, puzzle_id, BoardLinks(ctx))
    finally:
        await client.close()


def shows(text: str, secret: str) -> bool:
    """Whether ``secret`` (a word or a square such as K5) appears in ``text`` on its own:
    not inside a longer run of letters, digits, ``-`` or ``_``, such as the page's signed
    link (base64url), where a random "K5" means nothing."""
    return re.search(rf"(?<![A-Za-z0-9_-]){re.escape(secret)}(?![A-Za-z0-9_-])", text) is not None


async def test_the_page_shows_the_board_and_rack_and_no_solution_before_the_end(
    world: World, position: ScrabblePuzzle
) -> None:
    await world.puzzles.next_puzzle(GUILD, CAROL.user_id, CAROL.name)
    carol = await world.open(CAROL.user_id)
    state = await carol.state()
    assert state["game"] == "scrabble" and state["board"] == list(ROWS)
    assert state["rack"] == RACK and state["tries_left"] == MAX_TRIES
    assert state["status"] == "active" and state["can"] == {"play": True, "solution": True}
    assert state["solution"] == "" and state["answers"] == []
    assert "3 tries left" in state["status_text"] and "From Scrabble #1" in state["last_text"]
    page = await world.client.get(f"/board/puzzle/{world.puzzle_id}", headers=carol.headers())
    html = await page.text()
    assert page.status == 200 and 'id="scrabble"' in html and "Show solution" in html
    for shown in (html, json.dumps(state)):
        assert not shows(shown, position.top[0].spelled) and not shows(
            shown, position.top[0].position
        )


async def test_a_preview_scores_the_tiles_and_uses_no_try(
    world: World, position: ScrabblePuzzle
) -> None:
    carol = await world.open(CAROL.user_id)
    best = position.top[0]
    preview = await carol.post("preview", {"tiles": tiles(best.word, best.position)})
    assert preview["legal"] is True and preview["score"] == best.score
    gap = [{"row": 0, "col": 0, "letter": "D", "blank": False}]
    refused = await carol.post("preview", {"tiles": gap})
    assert refused["legal"] is False and refused["message"]
    state = await carol.state()
    assert state["tries_left"] == MAX_TRIES and state["version"] == 0


async def test_answers_on_the_page_are_judged_as_the_forms_and_the_best_solves_it(
    world: World, position: ScrabblePuzzle
) -> None:
    await world.puzzles.next_puzzle(GUILD, CAROL.user_id, CAROL.name)
    carol = await world.open(CAROL.user_id)
    # A tile touching nothing: the board refuses it, explained, and it is a try.
    lone = await carol.post("play", {"tiles": [{"row": 0, "col": 0, "letter": "D"}]})
    assert lone["finished"] is False and lone["message"].startswith("That play can't be made")
    assert "2 tries left" in lone["message"] and "**" not in lone["message"]
    # A play short of the best: a try.
    short = position.top[-1]
    answer = await carol.post("play", {"tiles": tiles(short.word, short.position)})
    assert f"scores {short.score}: there is a better play" in answer["message"]
    assert answer["state"]["tries_left"] == 1 and len(answer["state"]["answers"]) == 2
    # The best: solved, the top plays and the game's move shown, the rating up.
    best = position.top[0]
    solved = await carol.post("play", {"tiles": tiles(best.word, best.position)})
    assert solved["finished"] is True and solved["message"].startswith("✅ Solved!")
    state = solved["state"]
    assert (
        "Top plays:" in state["solution"] and "In Scrabble #1, Alice played" in (state["solution"])
    )
    assert "Top plays:" not in solved["message"]  # shown once, under the answers
    assert state["status"] == "finished" and state["can"]["play"] is False
    assert best.spelled in state["solution"] and "**" not in state["solution"]
    streak = await world.puzzles.streak(GUILD, CAROL.user_id)
    assert streak is not None and streak.rating is not None and streak.rating > 1500
    # Once over, an answer changes nothing: the form's "solved already".
    again = await carol.post("play", {"tiles": tiles(best.word, best.position)})
    assert again["message"].startswith("You solved this puzzle already")


async def test_show_solution_on_the_page_gives_up(world: World, position: ScrabblePuzzle) -> None:
    dave = await world.open(DAVE.user_id)  # opened from a link before any answer
    given_up = await dave.post("solution", {})
    assert given_up["finished"] is True and given_up["message"].startswith("You asked for")
    assert (
        given_up["state"]["phase"] == "failed"
        and position.top[0].spelled in (given_up["state"]["solution"])
    )


async def test_the_page_follows_answers_given_in_discord(world: World) -> None:
    await world.puzzles.next_puzzle(GUILD, CAROL.user_id, CAROL.name)
    carol, dave = await world.open(CAROL.user_id), await world.open(DAVE.user_id)
    first = (await carol.state())["version"]
    stream = await world.client.get(
        f"/board/puzzle/{world.puzzle_id}/events", headers=carol.headers()
    )
    assert stream.status == 200
    assert await _next_version(stream.content) == first
    await dave.post("solution", {})  # another member's attempt: not Carol's news
    assert (await carol.state())["version"] == first
    outcome = await world.puzzles.answer(
        GUILD, CAROL.user_id, CAROL.name, world.puzzle_id, "ZZ", "A1"
    )
    assert outcome.tries_left == MAX_TRIES - 1
    pushed = await _next_version(stream.content)
    assert pushed > first and (await carol.state())["version"] == pushed
    stream.close()


async def test_another_clubs_link_or_another_puzzles_cookie_opens_nothing(world: World) -> None:
    async with world.ctx.uow() as uow:
        await uow.guilds.ensure(GUILD + 1, "other club")
        await uow.commit()
    stranger = await world.open(CAROL.user_id, guild=GUILD + 1)
    response = await world.client.get(
        f"/board/puzzle/{world.puzzle_id}/state", headers=stranger.headers()
    )
    assert response.status == 403 and (await response.json())["code"] == "link_not_yours"
    carol = await world.open(CAROL.user_id)
    response = await world.client.post(
        f"/board/puzzle/{world.puzzle_id + 1}/play",
        json={"tiles": []},
        headers={
            "Cookie": f"{cookie_name('puzzle', world.puzzle_id + 1)}={carol.token}",
            "X-CSRF-Token": carol.csrf,
        },
    )
    assert response.status == 403
    assert (await carol.state())["tries_left"] == MAX_TRIES


async def _next_version(lines: Any, timeout: float = 5) -> int:
    """The next ``version`` event of a server-sent event stream."""

    async def read() -> int:
        event = None
        async for raw in lines:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line.removeprefix("event: ")
            elif line.startswith("data: ") and event == "version":
                return int(line.removeprefix("data: "))
        raise AssertionError("the stream ended")

    return await asyncio.wait_for(read(), timeout)


async def test_the_link_is_offered_only_with_the_pages_served_at_an_address(
    session_factory, clock, world: World
) -> None:
    """The /puzzle answer's button: a member's own link, only with ``WEB_PORT`` and an
    absolute ``WEB_BASE_URL``, and only to a puzzle of their club's."""
    base = "https://games.example.org"
    offered = BoardAddresses(
        make_service_context(session_factory, clock, web_port=0, web_base_url=base)
    )
    url = await offered.url(GUILD, CAROL.user_id, "puzzle", world.puzzle_id)
    assert url is not None and url.startswith(f"{base}/p/")
    assert await offered.url(GUILD + 1, CAROL.user_id, "puzzle", world.puzzle_id) is None
    assert await offered.url(GUILD, CAROL.user_id, "puzzle", world.puzzle_id + 1) is None
    for settings in ({"web_port": 0}, {"web_base_url": base}):
        addresses = BoardAddresses(make_service_context(session_factory, clock, **settings))
        assert await addresses.url(GUILD, CAROL.user_id, "puzzle", world.puzzle_id) is None
