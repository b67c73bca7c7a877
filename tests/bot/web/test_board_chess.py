"""A member's chess board page (issue #28) through aiohttp's test client, on the real
services and database: the state's legal moves (castling, en passant, promotion)
from python-chess on the member's turn only, moves, draws and resignation made
through the page as the slash commands make them (the move log, the version, the
board for the thread in the outbox), and every refusal leaving the game as it was."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.messages import i18n
from bot.services import ServiceContext
from bot.services.board_links import LINK_PATH, BoardLinks
from bot.services.chess import ChessService, PlayerRef
from bot.services.club import ClubService
from bot.web.boards import RateLimit
from bot.web.metrics import Metrics
from bot.web.server import WebApp
from tests.clock import FakeClock
from tests.conftest import make_service_context

GUILD, CHANNEL, THREAD = 4100, 4200, 4300
WHITE, BLACK, CAROL = PlayerRef(31, "ana"), PlayerRef(32, "ben"), PlayerRef(33, "carol")
CSRF = re.compile(r'data-csrf="([^"]+)"')


@dataclass
class Chess:
    ctx: ServiceContext
    service: ChessService
    client: TestClient[Any, Any]
    browsers: list[aiohttp.ClientSession] = field(default_factory=list)

    async def new_game(self, *sans: str, time: str = "3d") -> int:
        """A game between ana (White) and ben (Black) in its thread, these moves played."""
        snap = await self.service.starting.challenge(
            guild_id=GUILD,
            guild_name="Chess Club",
            channel_id=CHANNEL,
            challenger=WHITE,
            opponent=BLACK,
            time_control=time,
            color="white",
        )
        await self.service.starting.accept(snap.game_id, BLACK)
        await self.service.starting.open_in(snap.game_id, THREAD)
        await self.play(snap.game_id, *sans)
        return snap.game_id

    async def play(self, game_id: int, *sans: str) -> None:
        for san in sans:
            snap = await self.service.reading.snapshot(game_id)
            await self.service.moves.play(game_id, snap.to_move.user_id, san)

    async def open(self, user: PlayerRef, game_id: int) -> Page:
        """The member's link opened: the cookie set, the page read, its CSRF token kept."""
        path = await BoardLinks(self.ctx).link(GUILD, user.user_id, "chess", game_id)
        assert path is not None and path.startswith(LINK_PATH)
        # Each member has a browser of their own (their own cookies).
        browser = aiohttp.ClientSession(
            str(self.client.make_url("/")), cookie_jar=aiohttp.CookieJar(unsafe=True)
        )
        self.browsers.append(browser)
        response = await browser.get(path)
        html = await response.text()
        assert response.status == 200, html[:300]
        assert str(response.url.path) == f"/board/chess/{game_id}"
        match = CSRF.search(html)
        assert match, html[:500]
        return Page(self, browser, game_id, match.group(1), html)

    async def game_row(self, game_id: int) -> tuple[int, str, list[str]]:
        """The game's version, status and stored moves (UCI), read from the database."""
        async with self.ctx.reader() as uow:
            game = await uow.games.get(game_id)
            return game.version, game.status, list(game.state["moves"])

    async def thread_posts(self) -> list[str]:
        """The board posts waiting in the outbox for the games' thread (their text)."""
        async with self.ctx.reader() as uow:
            rows = await uow.outbox.pending(limit=500)
            return [
                str(row.payload.get("content", ""))
                for row in rows
                if row.target_kind == "channel" and row.target_id == THREAD
            ]


@dataclass
class Page:
    chess: Chess
    browser: aiohttp.ClientSession
    game_id: int
    csrf: str
    html: str

    @property
    def path(self) -> str:
        return f"/board/chess/{self.game_id}"

    async def state(self) -> dict[str, Any]:
        response = await self.browser.get(f"{self.path}/state")
        assert response.status == 200, await response.text()
        data: dict[str, Any] = await response.json()
        return data

    async def post(self, action: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        response = await self.browser.post(
            f"{self.path}/{action}", json=body, headers={"X-CSRF-Token": self.csrf}
        )
        return response.status, await response.json()

    async def move(self, origin: str, target: str, promotion: str | None = None) -> dict[str, Any]:
        version = (await self.state())["version"]
        status, answer = await self.post(
            "move", {"from": origin, "to": target, "promotion": promotion, "version": version}
        )
        assert status == 200 and answer["ok"], answer
        return answer


@pytest.fixture
def web_ctx(session_factory: Any, clock: FakeClock) -> ServiceContext:
    return make_service_context(
        session_factory, clock, lexicon="default", stockfish_path="", web_port=0
    )


@pytest.fixture
async def chess_web(web_ctx: ServiceContext) -> AsyncIterator[Chess]:
    web = WebApp(web_ctx, Metrics())
    web.boards.limit = RateLimit(1000)  # these tests send many changes a second
    client: TestClient[Any, Any] = TestClient(TestServer(web.app()))
    await client.start_server()
    chess = Chess(web_ctx, ChessService(web_ctx, rng=random.Random(3)), client)
    try:
        yield chess
    finally:
        for browser in chess.browsers:
            await browser.close()
        await client.close()


def _targets(state: dict[str, Any], origin: str) -> dict[str, bool]:
    return {t["to"]: t["promotion"] for t in state["legal"].get(origin, [])}


async def test_the_state_shows_the_position_and_the_members_side_and_legal_moves_on_their_turn(
    chess_web: Chess,
) -> None:
    game_id = await chess_web.new_game("e4")
    black = await (await chess_web.open(BLACK, game_id)).state()
    assert black["me"] == "black" and black["turn"] == "black" and black["my_turn"]
    assert black["fen"] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert black["board"][0] == ["r", "n", "b", "q", "k", "b", "n", "r"]  # rank 8, a to h
    assert black["board"][4][4] == "P" and black["board"][6][4] is None  # e4, e2
    assert black["last_move"] == {"from": "e2", "to": "e4", "san": "e4"}
    assert _targets(black, "g8") == {"f6": False, "h6": False}
    assert sum(len(t) for t in black["legal"].values()) == 20
    assert black["players"]["black"] == {"name": "ben", "computer": False, "you": True}
    assert black["status_text"] == "Your move." and black["sans"] == ["e4"]
    assert black["last_text"] == "Last move: 1. e4."
    clock = black["clock"]
    assert clock["running"] == "black" and not clock["live"]
    assert clock["black_ms"] == clock["white_ms"] == 3 * 86_400_000
    # White's page: the same position, no moves to choose (not their turn).
    white = await (await chess_web.open(WHITE, game_id)).state()
    assert white["legal"] == {} and not white["my_turn"] and white["me"] == "white"
    assert white["status_text"] == "ben to move (Black)."
    assert white["version"] == black["version"]


async def test_the_page_s_footer_names_the_club_s_time_zone_not_a_read_only_page(
    chess_web: Chess,
) -> None:
    game_id = await chess_web.new_game("e4")
    await ClubService(chess_web.ctx).setup(GUILD, "Chess Club", timezone="Asia/Manila")
    page = await chess_web.open(BLACK, game_id)
    footer = page.html.split('<footer class="site">', 1)[1]
    assert "Times are in the club&#39;s time zone, Asia/Manila." in footer
    assert "read-only" not in footer


async def test_en_passant_and_castling_are_offered_and_played_as_the_engine_has_them(
    chess_web: Chess,
) -> None:
    game_id = await chess_web.new_game("e4", "a6", "e5", "d5")
    page = await chess_web.open(WHITE, game_id)
    state = await page.state()
    assert _targets(state, "e5") == {"d6": False, "e6": False}  # exd6 en passant
    assert "g1" not in _targets(state, "e1")  # the knight and bishop still in the way
    await page.move("e5", "d6")
    _, _, moves = await chess_web.game_row(game_id)
    assert moves[-1] == "e5d6"
    await chess_web.play(game_id, "c6", "Nf3", "a5", "Bc4", "a4")
    state = await page.state()
    assert state["board"][2][3] == "P" and state["board"][3][3] is None  # d6 taken, d5 gone
    assert _targets(state, "e1") == {"e2": False, "f1": False, "g1": False}  # O-O
    answer = await page.move("e1", "g1")
    assert "O-O" in answer["headline"]
    after = answer["state"]  # the answer carries the state the move left
    assert after["board"][7][5:7] == ["R", "K"] and after["last_move"]["san"] == "O-O"
    assert (await chess_web.game_row(game_id))[2][-1] == "e1g1"


async def test_a_promotion_is_flagged_and_played_with_the_piece_chosen(chess_web: Chess) -> None:
    game_id = await chess_web.new_game("e4", "d5", "exd5", "c6", "dxc6", "Nd7", "cxb7", "a5")
    page = await chess_web.open(WHITE, game_id)
    state = await page.state()
    assert _targets(state, "b7") == {"a8": True, "b8": True, "c8": True}
    assert len(state["legal"]["b7"]) == 3  # one entry per square, the piece chosen after
    version = state["version"]
    # Without the piece it is refused (the engine asks which), and nothing changes.
    status, answer = await page.post("move", {"from": "b7", "to": "a8", "version": version})
    assert status == 409 and answer["code"] == "promotion_needed", answer
    assert (await chess_web.game_row(game_id))[0] == version
    answer = await page.move("b7", "a8", "n")
    assert answer["state"]["board"][0][0] == "N" and answer["state"]["last_move"]["san"] == "bxa8=N"
    assert (await chess_web.game_row(game_id))[2][-1] == "b7a8n"


async def test_a_move_made_on_the_page_is_stored_and_its_board_goes_to_the_thread(
    chess_web: Chess,
) -> None:
    game_id = await chess_web.new_game()
    page = await chess_web.open(WHITE, game_id)
    version, _, _ = await chess_web.game_row(game_id)
    posts_before = await chess_web.thread_posts()
    answer = await page.move("g1", "f3")
    assert answer["version"] == version + 1 and answer["headline"] == "ana played **Nf3**."
    assert (await chess_web.game_row(game_id)) == (version + 1, "active", ["g1f3"])
    async with chess_web.ctx.reader() as uow:
        (move,) = await uow.moves.for_game(game_id)
        assert (move.ply, move.notation, move.user_id) == (1, "Nf3", WHITE.user_id)
    posts = await chess_web.thread_posts()
    assert len(posts) == len(posts_before) + 1  # the board, for the thread, once
    assert "ana played **Nf3**." in posts[-1] and "Moves: 1. Nf3" in posts[-1]
    state = await page.state()
    assert state["version"] == version + 1 and state["legal"] == {}


async def test_a_move_made_on_a_board_that_changed_since_is_refused_and_changes_nothing(
    chess_web: Chess,
) -> None:
    game_id = await chess_web.new_game("e4")
    page = await chess_web.open(BLACK, game_id)
    seen = (await page.state())["version"]
    # Meanwhile ana offers a draw in Discord: the game's version moves on.
    await chess_web.service.endings.draw(game_id, WHITE.user_id, "offer")
    before = await chess_web.game_row(game_id)
    posts = await chess_web.thread_posts()
    status, answer = await page.post("move", {"from": "e7", "to": "e5", "version": seen})
    assert status == 409 and answer == {
        "ok": False,
        "code": "stale_board",
        "message": "The board changed: look again.",
    }
    assert await chess_web.game_row(game_id) == before and before[0] == seen + 1
    assert await chess_web.thread_posts() == posts
    await page.move("e7", "e5")  # looked again: it goes


async def test_bad_moves_and_bad_requests_are_refused_with_the_game_left_as_it_was(
    chess_web: Chess,
) -> None:
    game_id = await chess_web.new_game("e4")
    black = await chess_web.open(BLACK, game_id)
    version = (await black.state())["version"]
    before = await chess_web.game_row(game_id)
    for body in (
        {"from": "e7", "to": "e4", "version": version},  # not a legal move
        {"from": "e2", "to": "e3", "version": version},  # White's pawn
        {"from": "e7", "to": "e9", "version": version},
        {"from": "e7", "to": "e5", "version": "12"},
        {"from": "e7", "to": "e5"},
        {"from": "e7", "to": "e5", "promotion": "k", "version": version},
    ):
        status, answer = await black.post("move", body)
        assert status == 409 and not answer["ok"] and answer["message"], (body, answer)
    white = await chess_web.open(WHITE, game_id)
    status, answer = await white.post("move", {"from": "d2", "to": "d4", "version": version})
    assert status == 409 and "It's ben's move" in answer["message"], answer
    status, answer = await white.post("draw", {"action": "surrender"})
    assert status == 409
    assert await chess_web.game_row(game_id) == before


async def test_another_members_link_or_cookie_cannot_act_in_the_game(chess_web: Chess) -> None:
    game_id = await chess_web.new_game("e4")
    other_game = await chess_web.new_game()
    before = await chess_web.game_row(game_id)
    # carol is not in the game: her link does not open it.
    path = await BoardLinks(chess_web.ctx).link(GUILD, CAROL.user_id, "chess", game_id)
    assert path is not None
    response = await chess_web.client.get(path)
    assert response.status == 403
    # ben's cookie for this game, sent for another game: refused there.
    page = await chess_web.open(BLACK, game_id)
    token = page.browser.cookie_jar.filter_cookies(chess_web.client.make_url(page.path))[
        f"board_chess_{game_id}"
    ].value
    response = await chess_web.client.post(
        f"/board/chess/{other_game}/move",
        json={"from": "e7", "to": "e5", "version": before[0]},
        headers={"X-CSRF-Token": page.csrf},
        cookies={f"board_chess_{other_game}": token},
    )
    assert response.status == 403
    assert (await response.json())["code"] == "link_not_yours"
    # Without the page's CSRF token nothing is done either.
    response = await page.browser.post(
        f"{page.path}/move", json={"from": "e7", "to": "e5", "version": before[0]}
    )
    assert response.status == 403 and (await response.json())["code"] == "csrf"
    assert await chess_web.game_row(game_id) == before
    assert (await chess_web.game_row(other_game))[2] == []


async def test_a_draw_is_offered_and_accepted_and_a_resignation_ends_a_game(
    chess_web: Chess,
) -> None:
    game_id = await chess_web.new_game("e4", "e5")
    white, black = await chess_web.open(WHITE, game_id), await chess_web.open(BLACK, game_id)
    state = await white.state()
    assert state["draw"]["can_offer"] and not state["draw"]["can_claim"]
    status, answer = await white.post("draw", {"action": "offer"})
    assert status == 200 and answer["state"]["draw"]["offered_by"] == "white"
    assert answer["state"]["draw"]["text"] == "You offered a draw: waiting for ben to answer."
    theirs = await black.state()
    assert theirs["draw"] == {
        "offered_by": "white",
        "text": "ana offers a draw.",
        "can_offer": False,
        "can_claim": False,
    }
    status, answer = await black.post("draw", {"action": "accept"})
    assert status == 200, answer
    assert answer["state"]["status"] == "finished" and answer["state"]["result"] == "1/2-1/2"
    assert answer["state"]["status_text"] == "1/2-1/2 — Draw: agreed."
    assert not answer["state"]["can_resign"] and answer["state"]["legal"] == {}
    assert (await chess_web.game_row(game_id))[1] == "finished"
    assert "accepted the draw offer" in (await chess_web.thread_posts())[-1]

    second = await chess_web.new_game("f3", "e5")
    page = await chess_web.open(WHITE, second)
    status, answer = await page.post("resign", {})
    assert status == 200 and answer["state"]["result"] == "0-1"
    assert (await chess_web.game_row(second))[1] == "finished"
    assert "ana resigned." in (await chess_web.thread_posts())[-1]


async def test_a_threefold_repetition_can_be_claimed_from_the_page(chess_web: Chess) -> None:
    shuffle = ("Nf3", "Nf6", "Ng1", "Ng8") * 2
    game_id = await chess_web.new_game(*shuffle)
    page = await chess_web.open(WHITE, game_id)
    state = await page.state()
    assert state["draw"]["can_claim"]
    status, answer = await page.post("draw", {"action": "claim"})
    assert status == 200 and answer["state"]["result"] == "1/2-1/2", answer


async def test_a_filipino_club_s_board_refuses_and_speaks_in_filipino(chess_web: Chess) -> None:
    game_id = await chess_web.new_game("e4")
    await ClubService(chess_web.ctx).setup(GUILD, "Chess Club", language="fil")
    fil = i18n.translations("fil")
    page = await chess_web.open(BLACK, game_id)
    assert '<html lang="fil">' in page.html
    assert f'data-piece-n="{fil.gettext("white knight")}"' in page.html
    state = await page.state()
    assert state["status_text"] == fil.gettext("Your move.") != "Your move."
    seen = state["version"]
    await chess_web.service.endings.draw(game_id, WHITE.user_id, "offer")
    status, answer = await page.post("move", {"from": "e7", "to": "e5", "version": seen})
    assert status == 409 and answer["code"] == "stale_board"
    assert (
        answer["message"]
        == fil.gettext("The board changed: look again.")
        == ("Nagbago ang board: tingnan ulit.")
    )
    status, answer = await page.post("move", {"from": "e7", "to": "e4", "version": seen + 1})
    assert status == 409 and answer["code"] == "illegal_chess_move"
    assert "e7e4" in answer["message"] and "is not legal here" not in answer["message"]


async def test_the_page_and_its_files_weigh_under_the_budget(chess_web: Chess) -> None:
    """The issue's budget: a board page at most 150 KB before images (the HTML as
    served, its module, the shared module and the style sheets)."""
    game_id = await chess_web.new_game("e4")
    page = await chess_web.open(WHITE, game_id)
    total = len(page.html.encode())
    for path in (
        "/static/board/chess.js",
        "/static/board/common.js",
        "/static/board/chess.css",
        "/static/style.css",
    ):
        response = await chess_web.client.get(path)
        assert response.status == 200, path
        total += len(await response.read())
    assert total < 150_000, total
