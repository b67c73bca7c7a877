"""Chess on a member's own board (issue #28) in Debian's Chromium, through the
loopback Discord: the real bot serves the page from the member's private link,
the opponent plays in Discord and their moves appear on the open page without a
reload, and what is done on the page reaches the thread as the commands' posts.

Elements are found by their accessible names ("white knight on g1", "e4, empty")
as a screen reader would; screenshots at desktop and phone size are saved with
the web page's (``$CLUBBOT_TEST_ARTIFACTS/web``).
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

import pytest

from tests.e2e import test_web_browser
from tests.e2e.club import Club
from tests.e2e.test_chess import _move, _start
from tests.e2e.test_web_browser import (
    CHROMIUM,
    HAVE_CHROMIUM,
    SMALL_PHONE,
    _number,
    _save,
    at_board_version,
    board_version,
    open_board,
)

pytestmark = pytest.mark.skipif(not HAVE_CHROMIUM, reason=f"Chromium not found at {CHROMIUM}")
WAIT_MS = 10_000
# The web page's tests' browsers (fixtures): the desktop one, and a small phone's touch screen.
browser = test_web_browser.browser
touch_phone = test_web_browser.touch_phone


async def _board_page(club: Club, context: Any, user: Any, game_id: int) -> tuple[Any, list[str]]:
    """``user``'s board of the game, opened from the private link the bot makes."""
    return await open_board(club, context, user, "chess", game_id)


async def _version(page: Any) -> int:
    return await board_version(page, "chess")


async def _at_version(page: Any, version: int) -> None:
    await at_board_version(page, "chess", version, WAIT_MS)


def _square(page: Any, name: str) -> Any:
    """The square whose accessible name starts with ``name`` ("e4, empty" matches
    "e4, empty, a legal move")."""
    return page.get_by_role("button", name=re.compile("^" + re.escape(name)))


async def _click_move(page: Any, origin: str, target: str) -> None:
    """A move by two clicks, waited for until the page shows its state."""
    version = await _version(page)
    await _square(page, origin).click()
    await _square(page, target).click()
    await _at_version(page, version + 1)


async def _discord_move(club: Club, page: Any, user: Any, thread: Any, san: str) -> None:
    """The opponent moves in Discord; the open page shows it (pushed, no reload)."""
    version = await _version(page)
    await _move(club, user, thread, san)
    await _at_version(page, version + 1)


def _game(club: Club, game_id: int) -> tuple[str, list[str], str | None]:
    import json

    with sqlite3.connect(club.db_path) as db:
        status, state = db.execute(
            "select status, state from games where id = ?", (game_id,)
        ).fetchone()
    data = json.loads(state)
    return str(status), list(data["moves"]), data.get("result")


async def _shot(page: Any, name: str) -> None:
    _save(f"{name}.png", await page.screenshot(full_page=True))


async def test_a_game_to_checkmate_by_clicks_with_a_promotion_castling_and_a_drag(
    club: Club, browser: Any
) -> None:
    await club.start(web_port=0)
    alice, bob = club.members["alice"], club.members["bob"]
    game_id, thread = await _start(club, alice, bob, time="10+5")
    page, errors = await _board_page(club, browser, alice, game_id)
    await page.evaluate("window.__sameDocument = true")  # a reload would drop this
    assert await page.locator("h1").inner_text() == f"Chess #{_number(club, game_id)}"
    assert "Your move." in await page.locator("#status").inner_text()
    assert await page.locator("#board .sq").count() == 64
    await _shot(page, "chess-board-start")

    await _click_move(page, "white pawn on e2", "e4, empty")
    post = await club.dc.wait_for_message(thread, predicate=lambda m: "alice played" in m.content)
    assert "**e4**" in post.content  # the page's move reached the thread
    await _discord_move(club, page, bob, thread, "d5")
    assert await _square(page, "black pawn on d5").count() == 1
    await _click_move(page, "white pawn on e4", "black pawn on d5")
    await _discord_move(club, page, bob, thread, "c6")
    await _click_move(page, "white pawn on d5", "black pawn on c6")
    await _discord_move(club, page, bob, thread, "Nd7")
    await _click_move(page, "white pawn on c6", "black pawn on b7")
    await _discord_move(club, page, bob, thread, "a5")

    # The promotion asks for the piece in a dialog.
    version = await _version(page)
    await _square(page, "white pawn on b7").click()
    await _square(page, "black rook on a8").click()
    dialog = page.get_by_role("dialog", name="Promote the pawn to:")
    await dialog.wait_for()
    await _shot(page, "chess-board-promotion")
    await dialog.get_by_role("button", name="Queen").click()
    await _at_version(page, version + 1)
    assert await _square(page, "white queen on a8").count() == 1

    await _discord_move(club, page, bob, thread, "h6")
    # A drag: the bishop carried from f1 to c4 (pointer events, as a finger would).
    version = await _version(page)
    await _square(page, "white bishop on f1").drag_to(_square(page, "c4, empty"))
    await _at_version(page, version + 1)
    await _discord_move(club, page, bob, thread, "h5")
    await _click_move(page, "white knight on g1", "h3, empty")
    await _discord_move(club, page, bob, thread, "h4")
    await _click_move(page, "white king on e1", "g1, empty")  # castling
    assert await _square(page, "white rook on f1").count() == 1
    await _discord_move(club, page, bob, thread, "a4")
    await _click_move(page, "white queen on d1", "f3, empty")
    await _discord_move(club, page, bob, thread, "a3")
    assert "O-O" in await page.locator("#moves").inner_text()
    await _shot(page, "chess-board-before-mate")
    await _click_move(page, "white queen on f3", "black pawn on f7")

    status = page.locator("#status")
    assert "checkmate" in (await status.inner_text()).lower()
    assert await page.get_by_role("button", name="Resign").is_hidden()
    finished, moves, result = _game(club, game_id)
    assert (finished, result) == ("finished", "1-0") and "e1g1" in moves and "b7a8q" in moves
    await club.dc.wait_for_message(thread, predicate=lambda m: "checkmate" in m.content)
    assert await page.evaluate("window.__sameDocument === true")  # never reloaded
    await _shot(page, "chess-board-mate")
    assert errors == []
    await page.close()


async def test_a_draw_offered_in_discord_is_accepted_on_the_board_after_a_keyboard_move(
    club: Club, browser: Any
) -> None:
    await club.start(web_port=0)
    alice, bob = club.members["alice"], club.members["bob"]
    game_id, thread = await _start(club, alice, bob)
    page, errors = await _board_page(club, browser, alice, game_id)

    # Keyboard only: Tab onto the board, arrows to e2, Enter, arrows to e4, Enter.
    for _ in range(30):
        await page.keyboard.press("Tab")
        if await page.locator("#board .sq:focus").count():
            break
    focused = page.locator("#board .sq:focus")
    start = await focused.get_attribute("data-square")
    assert start is not None
    files, ranks = "abcdefgh", "12345678"
    dx = files.index("e") - files.index(start[0])
    dy = ranks.index("2") - ranks.index(start[1])
    for _ in range(abs(dx)):
        await page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
    for _ in range(abs(dy)):
        await page.keyboard.press("ArrowUp" if dy > 0 else "ArrowDown")
    assert await page.locator("#board .sq:focus").get_attribute("aria-label") == (
        "white pawn on e2"
    )
    version = await _version(page)
    await page.keyboard.press("Enter")
    assert "selected" in (await page.locator("#board .sq:focus").get_attribute("aria-label"))
    await page.keyboard.press("ArrowUp")
    await page.keyboard.press("ArrowUp")
    await page.keyboard.press("Enter")
    await _at_version(page, version + 1)
    assert _game(club, game_id)[1] == ["e2e4"]
    await _shot(page, "chess-board-keyboard")

    # bob answers and offers a draw in Discord; the page shows the offer.
    await _discord_move(club, page, bob, thread, "e5")
    version = await _version(page)
    offer = await club.dc.slash(bob, thread, "chess draw", action="offer")
    await offer.wait_done()
    await _at_version(page, version + 1)
    assert "bob offers a draw." in await page.locator("#draw-note").inner_text()
    accept = page.get_by_role("button", name="Accept the draw")
    await accept.wait_for()
    await _shot(page, "chess-board-draw-offer")
    await accept.click()
    await page.locator('#chess[data-status="finished"]').wait_for(timeout=WAIT_MS)
    assert "Draw: agreed." in await page.locator("#status").inner_text()
    assert _game(club, game_id)[0::2] == ("finished", "1/2-1/2")
    await club.dc.wait_for_message(
        thread, predicate=lambda m: "accepted the draw offer" in m.content
    )
    assert errors == []
    await page.close()


async def test_a_move_by_touch_on_a_phone_screen(club: Club, touch_phone: Any) -> None:
    await club.start(web_port=0)
    alice, bob = club.members["alice"], club.members["bob"]
    game_id, thread = await _start(club, alice, bob, time="10+5")
    await _move(club, alice, thread, "d4")
    page, errors = await _board_page(club, touch_phone, bob, game_id)
    # Black's side is at the bottom of Black's board.
    box = await _square(page, "black king on e8").bounding_box()
    top = await _square(page, "white king on e1").bounding_box()
    assert box is not None and top is not None and box["y"] > top["y"]
    board = await page.locator("#board").bounding_box()
    assert board is not None and board["width"] <= SMALL_PHONE["width"] and board["width"] >= 300
    assert await page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    await _shot(page, "chess-board-phone")
    version = await _version(page)
    await _square(page, "black knight on g8").tap()
    await _square(page, "f6, empty").tap()
    await _at_version(page, version + 1)
    assert _game(club, game_id)[1] == ["d2d4", "g8f6"]
    await _shot(page, "chess-board-phone-after")
    # Flipped, White's side is below.
    await page.get_by_role("button", name="Flip the board").tap()
    box = await _square(page, "black king on e8").bounding_box()
    top = await _square(page, "white king on e1").bounding_box()
    assert box is not None and top is not None and box["y"] < top["y"]
    assert errors == []
    await page.close()


async def test_a_game_resigned_in_discord_shows_its_end_on_the_open_page(
    club: Club, browser: Any
) -> None:
    await club.start(web_port=0)
    alice, bob = club.members["alice"], club.members["bob"]
    game_id, thread = await _start(club, alice, bob)
    page, errors = await _board_page(club, browser, alice, game_id)
    await page.evaluate("window.__sameDocument = true")  # a reload would drop this
    await _click_move(page, "white pawn on e2", "e4, empty")
    await _discord_move(club, page, bob, thread, "e5")

    # bob resigns in Discord: the open page shows the end, pushed, without a reload.
    version = await _version(page)
    resign = await club.dc.slash(bob, thread, "chess resign")
    await resign.wait_done()
    await _at_version(page, version + 1)
    await page.locator('#chess[data-status="finished"]').wait_for(timeout=WAIT_MS)
    status = await page.locator("#status").inner_text()
    assert "1-0" in status and "bob resigned" in status, status
    assert await page.locator("#notice").inner_text() == ""  # no refusal
    # The final position, read-only: no move, draw or resignation is offered.
    assert await _square(page, "white pawn on e4").count() == 1
    assert await _square(page, "black pawn on e5").count() == 1
    for name in ("Resign", "Offer a draw", "Claim a draw"):
        assert await page.get_by_role("button", name=name).is_hidden()
    await _square(page, "white knight on g1").click()
    assert await page.locator("#board .sq.target").count() == 0  # no legal moves drawn
    assert await page.evaluate("window.__sameDocument === true")  # never reloaded
    assert _game(club, game_id)[0::2] == ("finished", "1-0")
    await _shot(page, "chess-board-resigned")

    # The link opened after the end shows the same final position, read-only.
    again, more_errors = await _board_page(club, browser, alice, game_id)
    assert "bob resigned" in await again.locator("#status").inner_text()
    assert await _square(again, "black pawn on e5").count() == 1
    assert await again.get_by_role("button", name="Resign").is_hidden()
    assert errors == [] and more_errors == []
    await again.close()
    await page.close()
