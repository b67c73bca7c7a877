"""A board's tally in the room (issue #29) through aiohttp's test client, on the real
services and database: the state is the board's tally for the member whose link
opened it (their side, whose turn, the entries with their running totals; no rack,
the bot has none); an entry from the page is the /tally command's, scored by the
engine; a refusal is the engine's, in the club's words, and changes nothing; a page
on a tally that changed since is refused as a stale board; another member's cookie
and a link to a game not theirs are refused."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.services import ServiceContext
from bot.services.board_links import LINK_PATH, BoardLinks
from bot.services.sessions import SessionService
from bot.web.board_tally import TallyBoard
from bot.web.metrics import Metrics
from bot.web.server import WebApp
from tests.bot.services.scrabble_support import GUILD, Words
from tests.bot.services.test_session_tally import fresh, room_session
from tests.bot.web import scrabble_pages

web_ctx = scrabble_pages.web_ctx  # a fixture, found by its name in this module
CSRF = re.compile(r'data-csrf="([^"]+)"')


class Tally:
    def __init__(self, svc: SessionService, client: TestClient[Any, Any]) -> None:
        self.svc = svc
        self.client = client

    async def open(self, user_id: int, game_id: int) -> tuple[str, dict[str, str]]:
        path = await BoardLinks(self.svc.core.ctx).link(GUILD, user_id, "tally", game_id)
        assert path is not None and path.startswith(LINK_PATH)
        response = await self.client.get(path)
        html = await response.text()
        assert response.status == 200, html[:300]
        assert str(response.url.path) == f"/board/tally/{game_id}"
        match = CSRF.search(html)
        assert match
        name = f"board_tally_{game_id}"
        cookie = self.client.session.cookie_jar.filter_cookies(response.url)[name].value
        self.client.session.cookie_jar.clear()
        return match.group(1), {name: cookie}

    async def state(self, game_id: int, cookies: dict[str, str]) -> dict[str, Any]:
        response = await self.client.get(f"/board/tally/{game_id}/state", cookies=cookies)
        assert response.status == 200
        data: dict[str, Any] = await response.json()
        return data

    async def post(
        self, game_id: int, csrf: str, cookies: dict[str, str], action: str, body: dict[str, Any]
    ) -> tuple[int, dict[str, Any]]:
        response = await self.client.post(
            f"/board/tally/{game_id}/{action}",
            json=body,
            headers={"X-CSRF-Token": csrf},
            cookies=cookies,
        )
        return response.status, await response.json()


@pytest.fixture
async def tally(web_ctx: ServiceContext) -> AsyncIterator[Tally]:
    svc = fresh(web_ctx, Words())
    web = WebApp(web_ctx, Metrics())
    web.boards.add(TallyBoard(web_ctx, svc))
    client: TestClient[Any, Any] = TestClient(TestServer(web.app()))
    await client.start_server()
    try:
        yield Tally(svc, client)
    finally:
        await client.close()


async def test_a_play_from_the_tally_page_is_the_commands_and_refusals_change_nothing(
    tally: Tally,
) -> None:
    (game_id, members), (other_game, _) = await room_session(tally.svc)
    csrf, cookies = await tally.open(members[1], game_id)
    state = await tally.state(game_id, cookies)
    assert state["seat"] == 1 and state["my_turn"]  # whoever plays first enters first
    assert state["lines"] == [] and "rack" not in state and state["bag"] == 86
    assert len(state["rows"]) == 15 and state["premiums"][7][7] == "D"

    status, answer = await tally.post(
        game_id,
        csrf,
        cookies,
        "play",
        {"word": "QUIZ", "position": "1A", "version": state["version"]},
    )
    assert status == 409 and "centre square H8" in answer["message"]
    assert await tally.state(game_id, cookies) == state

    status, answer = await tally.post(
        game_id,
        csrf,
        cookies,
        "play",
        {"word": "quiz", "position": "8h", "version": state["version"]},
    )
    assert status == 200 and answer["ok"]
    after = answer["state"]
    assert after["lines"] == [
        {
            "number": 1,
            "seat": 1,
            "who": after["seats"][1]["label"],
            "text": "8H QUIZ",
            "score": 44,
            "total": 44,
        }
    ]
    assert not after["my_turn"] and after["to_move"] == 0

    # A page on the tally as it was is refused as a stale board; nothing changes.
    status, answer = await tally.post(game_id, csrf, cookies, "pass", {"version": state["version"]})
    assert status == 409 and answer["code"] == "stale_board"
    # The side corrects its last entry from the page (a pass), on the current version.
    status, answer = await tally.post(
        game_id, csrf, cookies, "correct", {"pass": True, "version": after["version"]}
    )
    assert status == 200 and answer["state"]["lines"][0]["text"] == "pass"

    # Another board's link is its own: this member's cookie does not open it, nor act there.
    response = await tally.client.get(f"/board/tally/{other_game}/state", cookies=cookies)
    assert response.status == 403
    stranger = await BoardLinks(tally.svc.core.ctx).link(GUILD, members[1], "tally", other_game)
    assert stranger is not None
    assert (await tally.client.get(stranger)).status == 403  # not seated on that board
    status, _ = await tally.post(other_game, csrf, cookies, "pass", {})
    assert status == 403
