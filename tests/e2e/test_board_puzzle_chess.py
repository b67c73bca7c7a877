"""A chess puzzle on its member's own board page (issue #31) in Debian's Chromium, through
the loopback Discord, with the real Stockfish: alice and bob's game, where alice missed
Legal's mate (6.Bxf7+ Ke7 7.Nd5#), yields its puzzle. Carol's private /puzzle game:chess
answer carries her link; on a desktop she takes on f7 by two clicks (the bot's reply,
Ke7, played on the board), then drags the knight to d5: solved, the solution line and
her rating change on the page. Dave, on a small phone's touch screen, finds the first
move in Discord's Answer form (his open page shows the reply, no reload), then taps the
king onto the bishop, as alice did: failed, the solution shown.

Squares are found by their accessible names ("white bishop on c4", "d5, empty").
Screenshots are saved with the web page's (``$CLUBBOT_TEST_ARTIFACTS/web``)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.e2e import test_web_browser
from tests.e2e.club import Club
from tests.e2e.links import board_link, names
from tests.e2e.test_chess import STOCKFISH, needs_stockfish
from tests.e2e.test_puzzles import puzzle_rating
from tests.e2e.test_puzzles_chess import answer, finished_game, open_chess_puzzle
from tests.e2e.test_web_browser import CHROMIUM, HAVE_CHROMIUM, _save, _watched

pytestmark = [
    pytest.mark.skipif(not HAVE_CHROMIUM, reason=f"Chromium not found at {CHROMIUM}"),
    needs_stockfish,
]
BASE = "https://games.example.org"
WAIT_MS = 10_000
browser = test_web_browser.browser  # the web page's tests' desktop browser (a fixture)
touch_phone = test_web_browser.touch_phone  # a small phone's touch screen (a fixture)


def _square(page: Any, name: str) -> Any:
    """The square whose accessible name starts with ``name``."""
    return page.get_by_role("button", name=re.compile("^" + re.escape(name)))


async def _version(page: Any) -> int:
    return int(await page.locator("#chess").get_attribute("data-version"))


async def _shot(page: Any, name: str) -> None:
    _save(f"{name}.png", await page.screenshot(full_page=True))


async def _open_page(club: Club, context: Any, shown: Any, user: Any, puzzle: dict[str, Any]):
    """The puzzle's page, opened from the link on ``user``'s private answer."""
    assert shown.ephemeral
    label, url = board_link(shown)
    assert label == "Open the board" and url.startswith(f"{BASE}/p/")
    assert names(url) == (club.guild.id, user.id, "puzzle", puzzle["id"])
    assert club.bot is not None and club.bot.web is not None
    page, errors = await _watched(context)
    await page.goto(club.bot.web.url + urlsplit(url).path)
    await page.wait_for_url(f"**/board/puzzle/{puzzle['id']}")
    assert "/p/" not in page.url
    await page.locator("#chess[data-version]").wait_for()
    return page, errors


async def test_a_chess_puzzle_solved_move_by_move_on_its_page_by_click_and_drag(
    club: Club, browser: Any
) -> None:
    await club.start(web_port=0, web_base_url=BASE, stockfish_path=STOCKFISH)
    puzzle = await finished_game(club)
    carol = club.members["carol"]
    shown = await open_chess_puzzle(club, carol, puzzle)
    page, errors = await _open_page(club, browser, shown, carol, puzzle)
    await page.evaluate("window.__sameDocument = true")  # a reload would drop this
    assert await page.locator("h1").inner_text() == f"Puzzle {puzzle['id']}"
    status = page.locator("#status")
    assert (await status.inner_text()).startswith("White to move: find the best move.")
    assert await page.locator("#board .sq").count() == 64
    # White's side below: the first square of the board is a8, the last h1.
    labels = await page.locator("#board .sq").evaluate_all(
        "squares => squares.map(s => s.dataset.square)"
    )
    assert labels[0] == "a8" and labels[-1] == "h1"
    assert "last move" in await _square(page, "black bishop on d1").get_attribute("aria-label")
    assert await page.get_by_role("button", name="Resign").count() == 0
    await _shot(page, "puzzle-chess-start")

    # Bxf7+ by two clicks: the bishop, then the pawn it takes. The bot plays Ke7.
    version = await _version(page)
    await _square(page, "white bishop on c4").click()
    await _square(page, "black pawn on f7, a legal move").click()
    said = page.locator("#said")
    await said.filter(has_text="Bxf7+ is right. The reply: Ke7.").wait_for(timeout=WAIT_MS)
    await _square(page, "black king on e7, last move").wait_for(timeout=WAIT_MS)
    assert await _version(page) > version
    assert await _square(page, "white bishop on f7").count() == 1
    assert (await status.inner_text()).startswith("White to move: find the next move.")
    moves = page.locator("#moves")
    assert await moves.inner_text() == "Bxf7+ Ke7" and await moves.get_attribute("start") == "6"
    await _shot(page, "puzzle-chess-reply")

    # Nd5# by dragging the knight there (pointer events, as a finger would).
    await _square(page, "white knight on c3").drag_to(_square(page, "d5, empty"))
    await said.filter(has_text="Solved!").wait_for(timeout=WAIT_MS)
    assert "Nd5# was the last move to find" in await said.inner_text()
    solution = await page.locator("#solution-text").inner_text()
    assert solution.startswith("Solution: 6. Bxf7+ Ke7 7. Nd5#"), solution
    assert "alice played Kxd1" in solution and "**" not in solution
    result = await page.locator("#result").inner_text()
    assert re.fullmatch(r"Puzzle rating: \d+ \(\+\d+\)\.", result), result
    assert await status.inner_text() == "You solved this puzzle: the solution is below."
    assert await page.get_by_role("button", name="Show solution").is_hidden()
    assert "Puzzle rating" not in await said.inner_text()  # said once, in #result
    assert await _square(page, "white knight on d5, last move").count() == 1
    assert await page.evaluate("window.__sameDocument") is True
    assert puzzle_rating(club, carol) > 1500
    await _shot(page, "puzzle-chess-solved")
    assert errors == []
    await page.close()


async def test_a_chess_puzzle_failed_by_touch_on_a_phone_after_a_move_in_discord(
    club: Club, touch_phone: Any
) -> None:
    await club.start(web_port=0, web_base_url=BASE, stockfish_path=STOCKFISH)
    puzzle = await finished_game(club)
    dave = club.members["dave"]
    shown = await open_chess_puzzle(club, dave, puzzle)
    page, errors = await _open_page(club, touch_phone, shown, dave, puzzle)
    await page.evaluate("window.__sameDocument = true")
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, width  # no sideways scrolling on a small phone
    await _shot(page, "puzzle-chess-phone-start")

    # Dave answers the first move in Discord: the open page is pushed the reply.
    version = await _version(page)
    right = await answer(club, dave, shown, puzzle["id"], "Bxf7+")
    assert right.content.startswith("✅ **Bxf7+** is right."), right.content
    await _square(page, "black king on e7, last move").wait_for(timeout=WAIT_MS)
    assert await _version(page) > version

    # Then takes the bishop with the king by two taps, as alice did: one wrong move.
    await _square(page, "white king on e1").tap()
    await _square(page, "black bishop on d1, a legal move").tap()
    said = page.locator("#said")
    await said.filter(has_text="Kxd1 is not the move.").wait_for(timeout=WAIT_MS)
    assert await _square(page, "white king on d1, last move").count() == 1
    solution = await page.locator("#solution-text").inner_text()
    assert solution.startswith("Solution: 6. Bxf7+ Ke7 7. Nd5#"), solution
    result = await page.locator("#result").inner_text()
    assert re.fullmatch(r"Puzzle rating: \d+ \(-\d+\)\.", result), result
    assert "over for you" in await page.locator("#status").inner_text()
    assert await page.evaluate("window.__sameDocument") is True
    assert puzzle_rating(club, dave) < 1500
    await _shot(page, "puzzle-chess-phone-failed")
    assert errors == []
    await page.close()
