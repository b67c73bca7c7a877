"""A draw offer answered on a member's board page (issue #28), through the loopback
Discord with the real bot and its web server: the offer's Accept and Decline
buttons in the thread come off, as they do when the offer is answered in Discord,
and a stale one pressed (its post not yet edited) says privately that the offer
was already answered and changes nothing.

The page is driven over HTTP as its script drives it (the link, the cookie it
sets, the CSRF token from the page, a JSON POST): the browser's part is
``test_board_chess``'s.
"""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Any

import aiohttp

from bot.services.board_links import BoardLinks
from tests.e2e.club import Club
from tests.e2e.test_chess import _move, _start

CSRF = re.compile(r'data-csrf="([^"]+)"')


class Board:
    """A member's chess board page, opened from their private link."""

    def __init__(self, http: aiohttp.ClientSession, base: str, game_id: int, csrf: str) -> None:
        self.http, self.base, self.game_id, self.csrf = http, base, game_id, csrf

    @classmethod
    async def open(cls, club: Club, http: aiohttp.ClientSession, user: Any, game_id: int) -> Board:
        assert club.bot is not None and club.bot.web is not None
        path = await BoardLinks(club.bot.ctx).link(club.guild.id, user.id, "chess", game_id)
        assert path is not None
        async with http.get(club.bot.web.url + path) as response:  # 303 to the page
            assert response.status == 200 and response.url.path == f"/board/chess/{game_id}"
            found = CSRF.search(await response.text())
        assert found is not None
        return cls(http, club.bot.web.url, game_id, found.group(1))

    async def draw(self, action: str) -> dict[str, Any]:
        async with self.http.post(
            f"{self.base}/board/chess/{self.game_id}/draw",
            json={"action": action},
            headers={"X-CSRF-Token": self.csrf},
        ) as response:
            answer: dict[str, Any] = await response.json()
            assert response.status == 200, answer
            return answer


def _state(club: Club, game_id: int) -> tuple[str, dict[str, Any]]:
    with sqlite3.connect(club.db_path) as db:
        status, state = db.execute(
            "select status, state from games where id = ?", (game_id,)
        ).fetchone()
    return str(status), json.loads(state)


async def _offer(club: Club, user: Any, thread: Any, game_id: int) -> Any:
    """``user`` offers a draw in the thread: the board post that carries its buttons."""
    accept = f"chess:draw:accept:{game_id}"
    ix = await club.dc.slash(user, thread, "chess draw", action="offer")
    await ix.wait_done()
    return await club.dc.wait_for_message(
        thread, predicate=lambda m: accept in m.custom_ids, timeout=10
    )


async def _buttons_gone(club: Club, post: Any, game_id: int) -> None:
    ids = {f"chess:draw:accept:{game_id}", f"chess:draw:decline:{game_id}"}
    await club.dc.wait_until(
        lambda: not ids & set(club.dc.messages[post.id].custom_ids),
        timeout=10,
        what="the offer's buttons taken off",
    )


async def test_an_offer_answered_on_the_board_takes_its_discord_buttons_off(club: Club) -> None:
    await club.start(web_port=0)
    alice, bob = club.members["alice"], club.members["bob"]
    game_id, thread = await _start(club, alice, bob)
    await _move(club, alice, thread, "e4")
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        board = await Board.open(club, http, alice, game_id)

        # Declined on the page: the offer's post loses its buttons, the game goes on.
        post = await _offer(club, bob, thread, game_id)
        answer = await board.draw("decline")
        assert answer["state"]["draw"]["offered_by"] is None
        await _buttons_gone(club, post, game_id)
        await club.dc.wait_for_message(thread, predicate=lambda m: "declined" in m.content)
        assert _state(club, game_id)[0] == "active"

        # Offered again and accepted on the page: that post's buttons go too.
        again = await _offer(club, bob, thread, game_id)
        assert again.id != post.id
        answer = await board.draw("accept")
        assert answer["state"]["status"] == "finished"
        await _buttons_gone(club, again, game_id)
        status, state = _state(club, game_id)
        assert (status, state["result"]) == ("finished", "1/2-1/2")


async def test_a_stale_offer_button_says_the_offer_was_answered_and_changes_nothing(
    club: Club,
) -> None:
    await club.start(web_port=0)
    alice, bob = club.members["alice"], club.members["bob"]
    game_id, thread = await _start(club, alice, bob)
    await _move(club, alice, thread, "e4")
    post = await _offer(club, bob, thread, game_id)
    # The job that takes the buttons off has not run yet (as when Discord was slow to
    # take the edit): the post still offers Accept when alice declines on the page.
    assert club.bot is not None
    club.bot.scheduler.stop()
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        board = await Board.open(club, http, alice, game_id)
        await board.draw("decline")
    before = _state(club, game_id)
    assert before[1]["draw_offer"] is None
    ix = await club.dc.click(alice, post, f"chess:draw:accept:{game_id}")
    await ix.wait_done()
    said = ix.followups[-1].content if ix.followups else ix.answer.content
    assert said == "This draw offer was already answered, so nothing changed."
    assert (ix.followups[-1] if ix.followups else ix.answer).ephemeral
    assert _state(club, game_id) == before  # not drawn
    await _buttons_gone(club, post, game_id)  # the pressed post's buttons went
