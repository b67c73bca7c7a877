"""A member's chess puzzle page (bot/web/board_puzzle.py) through the web server, on the
real database (SQLite and PostgreSQL): the puzzle's position from the solver's side
with their legal moves, never its solution before their attempt is over; a move on the
page is judged as the Answer form's (the bot's reply played, the next move asked; a
wrong one fails it), the end shows the solution line and the rating change as data;
Show solution gives up; a move on a position the member has since left in Discord is
refused with nothing changed, and an answer made in Discord is pushed to the page.

The puzzles are stored as the chess search stores them (no Stockfish needed to solve
one: its line is kept with it)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.db.models_puzzles import PuzzleRecord
from bot.services import ServiceContext
from bot.services.board_address import BoardAddresses
from bot.services.board_links import BoardLinks
from bot.services.puzzles.service import CHESS, PuzzleService
from bot.web.boards import cookie_name
from bot.web.server import WebApp
from tests.bot.services.scrabble_support import CAROL, DAVE, GUILD, Words, make_service, started
from tests.bot.web.test_board_puzzle import _next_version
from tests.conftest import make_service_context

# Legal's mate, missed in the game (alice took the queen back: Kxd1).
LEGAL_FEN = "rn1qkbnr/ppp2p1p/3p2p1/4N3/2B1P3/2N5/PPPP1PPP/R1BbK2R w KQkq - 0 6"
LEGAL = {
    "ply": 10,
    "fen": LEGAL_FEN,
    "line": ["c4f7", "e8e7", "c3d5"],
    "played": "e1d1",
    "best_score": 99997,
    "second_score": -188,
    "last": "g4d1",
    "game_number": 7,
    "who": "alice",
}
# Black mates on the back rank (the game's move was h5).
BACK_RANK = {
    "ply": 59,
    "fen": "1r4k1/5pp1/7p/8/8/8/5PPP/6K1 b - - 0 30",
    "line": ["b8b1"],
    "played": "h6h5",
    "best_score": 99999,
    "second_score": 0,
    "last": "f1g1",
    "game_number": 7,
    "who": "bob",
}


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

    async def html(self) -> str:
        response = await self.client.get(f"/board/puzzle/{self.puzzle_id}", headers=self.headers())
        assert response.status == 200
        return await response.text()

    async def post(self, action: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
        response = await self.client.post(
            f"/board/puzzle/{self.puzzle_id}/{action}", json=body, headers=self.headers()
        )
        assert response.status == status, await response.text()
        return dict(await response.json())

    async def move(self, uci: str, version: int | None = None, status: int = 200) -> dict[str, Any]:
        """A move as the chess page sends it, on the version it shows."""
        if version is None:
            version = (await self.state())["version"]
        body = {"from": uci[:2], "to": uci[2:4], "promotion": uci[4:] or None, "version": version}
        return await self.post("move", body, status)


@dataclass
class World:
    ctx: ServiceContext
    client: TestClient[Any, Any]
    puzzles: PuzzleService
    legal: int
    back_rank: int
    links: BoardLinks

    async def open(self, user: int, puzzle_id: int | None = None) -> Page:
        subject = self.legal if puzzle_id is None else puzzle_id
        path = await self.links.link(GUILD, user, "puzzle", subject, guild_name="club")
        assert path is not None
        token = path.removeprefix("/p/")
        return Page(self.client, subject, token, (await self.links.session(token)).csrf)


async def add_chess_puzzle(ctx: ServiceContext, game_id: int, data: dict[str, Any]) -> int:
    async with ctx.uow() as uow:
        row = PuzzleRecord(
            guild_id=GUILD,
            kind=CHESS,
            game_id=game_id,
            ply=int(data["ply"]),
            data=data,
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
async def world(session_factory, clock) -> AsyncIterator[World]:
    # No Stockfish: a stored chess puzzle is solved from its stored line.
    ctx = make_service_context(
        session_factory, clock, lexicon="default", web_port=0, stockfish_path=""
    )
    game_id = await started(make_service(ctx, Words()))  # the game the puzzles come from
    legal = await add_chess_puzzle(ctx, game_id, LEGAL)
    back_rank = await add_chess_puzzle(ctx, game_id, BACK_RANK)
    puzzles = PuzzleService(ctx)
    client: TestClient[Any, Any] = TestClient(TestServer(WebApp(ctx).app()))
    await client.start_server()
    try:
        yield World(ctx, client, puzzles, legal, back_rank, BoardLinks(ctx))
    finally:
        await client.close()


def piece(state: dict[str, Any], square: str) -> str | None:
    """The piece on ``square`` of the page's 8×8 (rank 8 first)."""
    return state["board"][8 - int(square[1])]["abcdefgh".index(square[0])]


async def test_the_page_shows_the_position_from_the_solvers_side_and_no_solution(
    world: World,
) -> None:
    await world.puzzles.open_puzzle(GUILD, CAROL.user_id, CAROL.name, world.legal)
    carol = await world.open(CAROL.user_id)
    state = await carol.state()
    assert state["game"] == "chess" and state["fen"] == LEGAL_FEN
    assert state["me"] == "white" and state["turn"] == "white" and state["my_turn"] is True
    assert piece(state, "c4") == "B" and piece(state, "d1") == "b"
    assert state["last_move"] == {"from": "g4", "to": "d1", "san": None}
    assert {"to": "f7", "promotion": False} in state["legal"]["c4"]
    assert state["status"] == "active" and state["phase"] == "open"
    assert state["can"] == {"move": True, "solution": True} and state["clock"] is None
    assert state["first_move"] == {"number": 6, "black": False} and state["sans"] == []
    assert state["status_text"].startswith("White to move: find the best move.")
    assert "one wrong move ends the puzzle" in state["status_text"]
    assert state["last_text"].startswith("From Chess #7, move 6.")
    assert state["solution"] == "" and state["line"] == [] and state["result"] is None
    html = await carol.html()
    assert 'id="chess"' in html and 'class="chess puzzle"' in html and "Show solution" in html
    assert 'id="side-top"' not in html and 'id="resign"' not in html
    assert "Promote the pawn to:" in html  # the chess page's own dialog
    for shown in (html, json.dumps(state)):
        assert "Nd5" not in shown and "Kxd1" not in shown and "Solution" not in shown


async def test_a_puzzle_solved_move_by_move_on_the_page(world: World) -> None:
    await world.puzzles.open_puzzle(GUILD, CAROL.user_id, CAROL.name, world.legal)
    carol = await world.open(CAROL.user_id)
    right = await carol.move("c4f7")
    assert right["finished"] is False
    assert right["message"] == "✅ Bxf7+ is right. The reply: Ke7."
    # The board after carol's move, then the state with the bot's reply played.
    played = right["played"]
    assert played["last_move"] == {"from": "c4", "to": "f7", "san": "Bxf7+"}
    assert played["check"] == "e8" and played["board"][0][4] == "k"  # before the reply
    state = right["state"]
    assert state["last_move"] == {"from": "e8", "to": "e7", "san": "Ke7"}
    assert state["sans"] == ["Bxf7+", "Ke7"] and piece(state, "e7") == "k"
    assert state["my_turn"] is True and state["status_text"].startswith(
        "White to move: find the next"
    )
    assert "c3" in state["legal"] and state["line"] == []
    solved = await carol.move("c3d5", state["version"])
    assert solved["finished"] is True and "played" not in solved
    assert solved["message"].startswith("✅ Solved! Nd5# was the last move to find.")
    # The solution and the rating are shown once, the state's.
    assert "Solution" not in solved["message"] and "Puzzle rating" not in solved["message"]
    state = solved["state"]
    assert state["phase"] == "solved" and state["status"] == "finished"
    assert state["my_turn"] is False and state["legal"] == {}
    assert state["can"] == {"move": False, "solution": False}
    assert state["sans"] == ["Bxf7+", "Ke7", "Nd5#"] and piece(state, "d5") == "N"
    assert state["last_move"] == {"from": "c3", "to": "d5", "san": "Nd5#"}
    assert state["line"] == ["Bxf7+", "Ke7", "Nd5#"]
    assert state["solution"].startswith("Solution: 6. Bxf7+ Ke7 7. Nd5#")
    assert "In Chess #7, alice played Kxd1." in state["solution"]
    result = state["result"]
    assert result["solved"] is True and result["rating_change"] > 0
    assert (
        result["text"]
        == f"Puzzle rating: {round(result['rating'])} (+{round(result['rating_change'])})."
    )
    assert state["status_text"] == "You solved this puzzle: the solution is below."
    streak = await world.puzzles.streak(GUILD, CAROL.user_id)
    assert streak is not None and streak.solved == 1
    # Once over, a move changes nothing: the form's "solved already".
    again = await carol.move("c3d5", state["version"])
    assert again["message"].startswith("You solved this puzzle already")


async def test_one_wrong_move_on_the_page_fails_it_and_shows_it_with_the_solution(
    world: World,
) -> None:
    dave = await world.open(DAVE.user_id)  # a link opened before any answer
    assert (await dave.state())["version"] == 0
    failed = await dave.move("e1d1", 0)
    assert failed["finished"] is True and failed["message"].startswith("❌ Kxd1 is not the move.")
    state = failed["state"]
    assert state["phase"] == "failed" and piece(state, "d1") == "K"  # the wrong move shown
    assert state["last_move"] == {"from": "e1", "to": "d1", "san": "Kxd1"}
    assert state["line"] == ["Bxf7+", "Ke7", "Nd5#"] and "Bxf7+" in state["solution"]
    assert state["result"]["solved"] is False and state["result"]["rating_change"] < 0
    assert state["status_text"] == "This puzzle is over for you: the solution is below."


async def test_show_solution_on_the_page_gives_up(world: World) -> None:
    await world.puzzles.open_puzzle(GUILD, DAVE.user_id, DAVE.name, world.legal)
    dave = await world.open(DAVE.user_id)
    await dave.move("c4f7")
    given_up = await dave.post("solution", {})
    assert given_up["finished"] is True and given_up["message"].startswith("You asked for")
    state = given_up["state"]
    assert state["phase"] == "failed" and state["sans"] == ["Bxf7+", "Ke7"]  # as it stood
    assert state["line"] == ["Bxf7+", "Ke7", "Nd5#"] and state["result"]["rating_change"] < 0


async def test_a_move_on_a_position_left_in_discord_is_refused_and_the_page_is_pushed_it(
    world: World,
) -> None:
    await world.puzzles.open_puzzle(GUILD, CAROL.user_id, CAROL.name, world.legal)
    carol = await world.open(CAROL.user_id)
    shown = (await carol.state())["version"]
    stream = await world.client.get(f"/board/puzzle/{world.legal}/events", headers=carol.headers())
    assert stream.status == 200 and await _next_version(stream.content) == shown
    # Carol answers in Discord (the Answer form's call): the open page is told.
    outcome = await world.puzzles.answer_move(
        GUILD, CAROL.user_id, CAROL.name, world.legal, "Bxf7+"
    )
    assert outcome.status == "open"
    pushed = await _next_version(stream.content)
    assert pushed > shown
    stream.close()
    # The page, not yet drawn again, sends the move it showed: refused, nothing judged.
    stale = await carol.move("c4f7", shown, status=409)
    assert stale["code"] == "stale_board"
    state = await carol.state()
    assert state["version"] == pushed and state["phase"] == "open"
    assert state["sans"] == ["Bxf7+", "Ke7"]


async def test_a_black_puzzle_is_drawn_from_blacks_side_and_mate_solves_it(world: World) -> None:
    carol = await world.open(CAROL.user_id, world.back_rank)
    state = await carol.state()
    assert state["me"] == "black" and state["turn"] == "black"
    assert state["first_move"] == {"number": 30, "black": True}
    assert state["status_text"].startswith("Black to move")
    solved = await carol.move("b8b1")
    assert solved["state"]["phase"] == "solved" and solved["state"]["check"] == "g1"


async def test_a_move_the_page_never_sends_is_refused_with_nothing_changed(world: World) -> None:
    carol = await world.open(CAROL.user_id)
    for body in (
        {"from": "c4", "to": "f7", "version": "0"},
        {"from": "c4", "to": "f9", "version": 0},
        {"from": "c4", "to": "f7", "promotion": "k", "version": 0},
    ):
        refused = await carol.post("move", body, status=409)
        assert refused["ok"] is False
    illegal = await carol.move("c4c5", 0, status=409)  # no such move there
    assert illegal["ok"] is False and illegal["message"]
    assert (await carol.state())["version"] == 0


async def test_the_link_is_offered_for_a_chess_puzzle_too(session_factory, clock, world: World):
    """/puzzle game:chess's answer: the member's own link to the chess puzzle's page."""
    base = "https://games.example.org"
    offered = BoardAddresses(
        make_service_context(session_factory, clock, web_port=0, web_base_url=base)
    )
    url = await offered.url(GUILD, CAROL.user_id, "puzzle", world.legal)
    assert url is not None and url.startswith(f"{base}/p/")
