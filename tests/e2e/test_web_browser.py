"""The club web page in a real browser: Debian's Chromium, headless, driven by
Playwright, against the real bot on the loopback Discord.

A replay steps through a finished Scrabble game and a chess game and the board
changes; the live page shows a move made through the loopback Discord within
seconds without a reload. Screenshots are saved as test artifacts (in
``$CLUBBOT_TEST_ARTIFACTS/web``, default ``/tmp/clubbot-test-artifacts/web``)
and checked by their pixels: the board is there, not a blank page.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.services.board_links import BoardLinks, Kind
from tests.e2e.club import Club
from tests.e2e.test_chess import _move, _start
from tests.e2e.test_scrabble import game_state, reply_text
from tests.e2e.test_scrabble_members import (
    _first_seat_zero_seed,
    board_at,
    deal_from,
    open_game,
)
from tests.e2e.test_web import page_path, web

CHROMIUM = os.environ.get("CHROMIUM_PATH") or "/usr/bin/chromium"
HAVE_CHROMIUM = os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)
pytestmark = pytest.mark.skipif(
    not HAVE_CHROMIUM,
    reason=f"Chromium not found at {CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)",
)
# Without the background-networking flags Chromium dials out at start, and this
# closed network refuses it.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(os.environ.get("CLUBBOT_TEST_ARTIFACTS") or "/tmp/clubbot-test-artifacts") / "web"
SCRABBLE_TW = (196, 38, 38)  # the triple-word squares' red (bot/render/scrabble.py)
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 640}  # the board pages' smallest screen (issue #28)


@pytest.fixture
async def browser(tmp_path: Path) -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        context = await pw.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"),  # a fresh user-data-dir
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1100, "height": 1400},
        )
        try:
            yield context
        finally:
            await context.close()


@pytest.fixture
async def touch_phone() -> AsyncIterator[Any]:
    """A small phone's touch screen: 360 × 640, touch events, a phone's user agent (the
    board pages are played there with ``tap()``)."""
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        chromium = await pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        context = await chromium.new_context(
            viewport=SMALL_PHONE, has_touch=True, is_mobile=True, device_scale_factor=2
        )
        try:
            yield context
        finally:
            await context.close()
            await chromium.close()


async def _watched(browser: Any) -> tuple[Any, list[str]]:
    """A new tab and the errors it reports (a script error, a blocked resource, a
    content-security-policy violation): a page in good order reports none."""
    page = await browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, errors


async def open_board(
    club: Club, context: Any, user: Any, kind: Kind, subject_id: int
) -> tuple[Any, list[str]]:
    """``user``'s board of one game or round (issue #28), opened from the private link
    the bot makes, and the errors the tab reports; the link's secret is not left in the
    address bar, and the page has drawn its first state."""
    assert club.bot is not None and club.bot.web is not None
    path = await BoardLinks(club.bot.ctx).link(club.guild.id, user.id, kind, subject_id)
    assert path is not None
    page, errors = await _watched(context)
    await page.goto(club.bot.web.url + path)
    await page.wait_for_url(f"**/board/{kind}/{subject_id}")
    assert "/p/" not in page.url
    await page.locator(f"#{kind}[data-version]").wait_for()
    return page, errors


async def board_version(page: Any, kind: str) -> int:
    """The version of the state a board page shows."""
    return int(await page.locator(f"#{kind}").get_attribute("data-version"))


async def at_board_version(page: Any, kind: str, version: int, timeout_ms: int = 10_000) -> None:
    """Waits until the board page shows ``version``."""
    await page.locator(f'#{kind}[data-version="{version}"]').wait_for(timeout=timeout_ms)


async def _page_on(club: Club) -> str:
    text = await web(club, club.moderator, "on")
    assert club.bot is not None and club.bot.web is not None
    return club.bot.web.url + page_path(text)


def _save(name: str, data: bytes) -> Image.Image:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / name).write_bytes(data)
    return Image.open(io.BytesIO(data)).convert("RGB")


async def _board_shot(page: Any, name: str) -> Image.Image:
    """The board as the browser drew it (an element screenshot), saved; and the whole page."""
    _save(f"{name}-page.png", await page.screenshot(full_page=True))
    board = page.locator("#board")
    await board.wait_for()
    loaded = await board.evaluate("img => img.complete && img.naturalWidth > 0")
    assert loaded, f"{name}: the board image did not load"
    return _save(f"{name}-board.png", await board.screenshot())


def _colours(image: Image.Image) -> int:
    return len(image.getcolors(maxcolors=1 << 20) or [])


def _share(image: Image.Image, rgb: tuple[int, int, int], tolerance: int = 12) -> float:
    px = image.load()
    w, h = image.size
    hits = total = 0
    for y in range(0, h, 3):
        for x in range(0, w, 3):
            r, g, b = px[x, y]
            total += 1
            if abs(r - rgb[0]) + abs(g - rgb[1]) + abs(b - rgb[2]) <= tolerance:
                hits += 1
    return hits / total


def _differs(a: Image.Image, b: Image.Image) -> int:
    """How many pixels differ between two same-sized board shots."""
    if a.size != b.size:
        return a.size[0] * a.size[1]
    pa, pb = a.load(), b.load()
    return sum(
        1 for y in range(0, a.size[1], 2) for x in range(0, a.size[0], 2) if pa[x, y] != pb[x, y]
    )


def _chess_squares(image: Image.Image) -> set[tuple[int, int, int]]:
    """The board's two square colours: the most common colours of an 8x8 board's cells."""
    colours = sorted(image.getcolors(maxcolors=1 << 20) or [], reverse=True)
    return {c for _, c in colours[:2]}


async def _finished_scrabble(club: Club) -> int:
    """Two plays from the tiles dealt (no rigging: the replay deals the same), a pass
    and a resignation."""
    dc = club.dc
    deal_from(club, _first_seat_zero_seed())
    alice, bob = club.members["alice"], club.members["bob"]
    game_id, thread, _ = await open_game(club, alice, bob, clock="1d")
    rack = [t for t in game_state(club.db_path, game_id)["engine"]["racks"][0] if t != "?"]
    first = "".join(rack[:2]).lower()
    ix = await dc.slash(alice, thread, "scrabble play", word=first, position="8H")
    assert (await reply_text(ix)).startswith("You played"), ix
    await board_at(club, thread, 1)
    other = [t for t in game_state(club.db_path, game_id)["engine"]["racks"][1] if t != "?"]
    # Down through the first play's first letter, on H8.
    second = (other[0] + first[0]).lower()
    ix = await dc.slash(bob, thread, "scrabble play", word=second, position="H7")
    assert (await reply_text(ix)).startswith("You played"), ix
    await board_at(club, thread, 2)
    ix = await dc.slash(alice, thread, "scrabble pass")
    assert await reply_text(ix) == "You passed."
    await board_at(club, thread, 3)
    ix = await dc.slash(bob, thread, "scrabble resign")
    await reply_text(ix)
    await dc.wait_until(lambda: _status(club, game_id) == "finished" or None, what="the game's end")
    return game_id


def _number(club: Club, game_id: int) -> int:
    """The number members know the game by (the page's links show it; addresses keep the id)."""
    import sqlite3

    with sqlite3.connect(club.db_path) as db:
        (number,) = db.execute("select number from games where id = ?", (game_id,)).fetchone()
    return int(number)


def _status(club: Club, game_id: int) -> str:
    import sqlite3

    with sqlite3.connect(club.db_path) as db:
        (status,) = db.execute("select status from games where id = ?", (game_id,)).fetchone()
    return str(status)


async def test_a_replay_steps_through_a_finished_scrabble_game_and_the_board_changes(
    club: Club, browser: Any
) -> None:
    await club.start(web_port=0)
    game_id = await _finished_scrabble(club)
    base = await _page_on(club)
    page, errors = await _watched(browser)
    await page.goto(base)
    assert await page.locator("h1").inner_text() == "Library Games Club"
    club_page = _save("club-page.png", await page.screenshot(full_page=True))
    assert _colours(club_page) > 20  # text and a table drawn, not a blank page
    await page.get_by_role("link", name=f"Scrabble #{_number(club, game_id)}").click()
    await page.wait_for_url(f"**/games/{game_id}")
    assert "Move 4 / 4" in await page.locator("nav.replay").inner_text()
    await page.get_by_role("link", name="« Start").click()
    await page.wait_for_url("**?step=0")
    shots = [await _board_shot(page, "scrabble-step-0")]
    for step in (1, 2, 3):
        await page.locator("#next").click()
        await page.wait_for_url(f"**?step={step}")
        assert f"Move {step} / 4" in await page.locator("nav.replay").inner_text()
        shots.append(await _board_shot(page, f"scrabble-step-{step}"))
    for shot in shots:  # the board is drawn: its red premium squares and many colours
        assert shot.width >= 300 and _colours(shot) > 20
        assert _share(shot, SCRABBLE_TW) > 0.005
    # The two plays put tiles down; the pass changes the header's last turn.
    assert _differs(shots[0], shots[1]) > 200 and _differs(shots[1], shots[2]) > 200
    assert _differs(shots[2], shots[3]) > 0
    alt = await page.locator("#board").get_attribute("alt")
    assert alt and "Scrabble" in alt
    await page.get_by_role("link", name="End »").click()
    await page.wait_for_url("**?step=4")
    async with page.expect_download() as got:
        await page.get_by_role("link", name="Download the game record (GCG)").click()
    gcg = (await got.value).suggested_filename
    assert gcg.startswith("scrabble-") and gcg.endswith(".gcg"), gcg
    assert errors == []
    await page.close()


async def test_a_replay_steps_through_a_chess_game_on_a_phone_sized_screen(
    club: Club, browser: Any
) -> None:
    await club.start(web_port=0)
    alice, bob = club.members["alice"], club.members["bob"]
    game_id, thread = await _start(club, alice, bob)
    for who, san in ((alice, "f3"), (bob, "e5"), (alice, "g4"), (bob, "Qh4#")):
        await _move(club, who, thread, san)
    base = await _page_on(club)
    page = await browser.new_page()
    await page.set_viewport_size(PHONE)
    await page.goto(f"{base}games/{game_id}?step=0")
    shots = [await _board_shot(page, "chess-step-0")]
    for step in range(1, 5):
        await page.locator("#next").click()
        await page.wait_for_url(f"**?step={step}")
        shots.append(await _board_shot(page, f"chess-step-{step}"))
    for shot in shots:
        assert shot.width <= PHONE["width"] and shot.width >= 300  # fits the phone
        assert len(_chess_squares(shot)) == 2 and _colours(shot) > 10
    for before, after in itertools.pairwise(shots):
        assert _differs(before, after) > 50
    text = await page.locator("main").inner_text()
    assert "0-1" in text and "checkmate" in text.lower()
    # No horizontal scrolling on a phone.
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    await page.close()


async def test_the_live_page_shows_a_move_made_in_discord_within_seconds(
    club: Club, browser: Any
) -> None:
    await club.start(web_port=0)
    alice, bob = club.members["alice"], club.members["bob"]
    game_id, thread = await _start(club, alice, bob)
    await _move(club, alice, thread, "e4")
    base = await _page_on(club)
    page, errors = await _watched(browser)
    await page.goto(f"{base}games/{game_id}")
    assert (await page.locator(".status").inner_text()).strip() == "Live"  # the badge alone
    # with JavaScript the note says the page follows the game (no "reload" advice)
    note = await page.locator("#live-note").inner_text()
    assert note.strip() == "New moves appear here as they are played.", note
    before = await _board_shot(page, "chess-live-before")
    assert await page.locator("#board").get_attribute("data-step") == "1"
    await page.evaluate("window.__sameDocument = true")  # a reload would drop this

    await _move(club, bob, thread, "e5")
    started = time.monotonic()
    # Waited for from here, not from inside the page: its policy allows no eval.
    while await page.locator("#board").get_attribute("data-step") != "2":
        assert time.monotonic() - started < 10, "the live page did not show the move"
        await asyncio.sleep(0.1)
    assert await page.evaluate("window.__sameDocument === true")  # refreshed in place
    after = await _board_shot(page, "chess-live-after")
    assert _differs(before, after) > 50
    moves = await page.locator("ol.moves").inner_text()
    assert "e5" in moves and "bob" in moves
    assert "last move e5" in await page.locator("#live .summary").inner_text()
    assert errors == []  # the script ran within the page's content security policy
    await page.close()
