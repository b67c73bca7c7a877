"""Word Boggle on a member's own board (issue #28) in Debian's Chromium, through the
loopback Discord: a moderator starts a round (a fixed seed, a known grid); a member
traces words on the page by clicks and by sliding, corrects one, types another with
the keyboard alone, and DMs more words, all one list; another member plays on a
360 × 640 touch screen; the round closes, the results post in the channel counts the
merged lists, and the open pages show the results without a reload.

Cells are found by their accessible names ("row 2 column 3, letter V") as a screen
reader would; where a word runs is asked of the engine (``find_path``), not worked
out here. Screenshots at desktop and phone size are saved with the web page's
(``$CLUBBOT_TEST_ARTIFACTS/web``).
"""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime
from typing import Any

import pytest

import bot.services.boggle as boggle_service
from engines.boggle import Grid, find_path
from tests.e2e import test_web_browser
from tests.e2e.club import Club
from tests.e2e.test_boggle import boggle_words, wait_said
from tests.e2e.test_web_browser import (
    ARTIFACTS,
    CHROMIUM,
    HAVE_CHROMIUM,
    SMALL_PHONE,
    _save,
    open_board,
)

pytestmark = pytest.mark.skipif(not HAVE_CHROMIUM, reason=f"Chromium not found at {CHROMIUM}")
__all__ = ["boggle_words"]  # the fixture (a small word list, a fixed seed)
GRID = Grid.parse("I T V A/T E V W/Y O N I/L U C A")  # seed 42, classic16
PHONE = SMALL_PHONE
WAIT_MS = 10_000
browser = test_web_browser.browser  # the web page's tests' desktop browser (a fixture)


phone = test_web_browser.touch_phone  # 360 × 640, touch (a fixture)


async def _board_page(club: Club, context: Any, user: Any, round_id: int) -> tuple[Any, list[str]]:
    """``user``'s board of the round, opened from the private link the bot makes."""
    assert club.bot is not None and club.bot.web is not None
    # The bot knows the member where it gives the link (Discord): their name is on file.
    async with club.bot.ctx.uow() as uow:
        await uow.players.ensure(user.id, user.name)
        await uow.commit()
    return await open_board(club, context, user, "boggle", round_id)


def _round(club: Club) -> tuple[int, datetime]:
    with sqlite3.connect(club.db_path) as db:
        round_id, ends_at = db.execute("select id, ends_at from boggle_rounds").fetchone()
    ends = datetime.fromisoformat(ends_at)
    return int(round_id), ends if ends.tzinfo else ends.replace(tzinfo=UTC)


def _entries(club: Club, user: Any) -> list[str]:
    import json

    with sqlite3.connect(club.db_path) as db:
        (entries,) = db.execute(
            "select entries from boggle_submissions where player_id = ?", (user.id,)
        ).fetchone()
    return [entry["via"] for entry in json.loads(entries)]


def _cells(word: str) -> list[int]:
    path = find_path(GRID, word)
    assert path is not None, word
    return list(path)


def _cell(page: Any, index: int) -> Any:
    row, column = divmod(index, GRID.width)
    face = GRID.rows[row][column]
    return page.get_by_role("button", name=f"row {row + 1} column {column + 1}, letter {face}")


async def _listed(page: Any, word: str) -> None:
    """The word is on the page's list (its Remove button is there), and the list saved."""
    await page.get_by_role("button", name=f"Remove {word.upper()}").wait_for(timeout=WAIT_MS)
    await page.locator("#saving", has_text="Saved.").wait_for(timeout=WAIT_MS)


async def _add(page: Any, word: str, *, tap: bool = False) -> None:
    assert await page.locator("#traced").inner_text() == f"Traced: {word.upper()}"
    add = page.get_by_role("button", name="Add word")
    await (add.tap() if tap else add.click())
    await _listed(page, word)


async def _trace_by_clicks(page: Any, word: str) -> None:
    for index in _cells(word):
        await _cell(page, index).click()
    await _add(page, word)


async def _trace_by_sliding(page: Any, word: str) -> None:
    """Press on the first cell, slide through the others' middles, let go (a mouse)."""
    centres = [await _centre(page, index) for index in _cells(word)]
    await page.mouse.move(*centres[0])
    await page.mouse.down()
    for x, y in centres[1:]:
        await page.mouse.move(x, y, steps=6)
    await page.mouse.up()
    await _add(page, word)


async def _centre(page: Any, index: int) -> tuple[float, float]:
    box = await _cell(page, index).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


async def _slide_by_touch(page: Any, word: str) -> None:
    """A finger on the first cell, slid through the others, lifted (real touch input)."""
    centres = [await _centre(page, index) for index in _cells(word)]
    cdp = await page.context.new_cdp_session(page)

    async def touch(kind: str, x: float | None = None, y: float | None = None) -> None:
        points = [] if x is None else [{"x": x, "y": y, "id": 1}]
        await cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    await touch("touchStart", *centres[0])
    previous = centres[0]
    for x, y in centres[1:]:
        for step in range(1, 7):
            await touch(
                "touchMove",
                previous[0] + (x - previous[0]) * step / 6,
                previous[1] + (y - previous[1]) * step / 6,
            )
        previous = (x, y)
    await touch("touchEnd")
    await cdp.detach()
    # Chromium takes a tap this soon after a slide for the end of a gesture: a moment first.
    await page.wait_for_timeout(400)
    await _add(page, word, tap=True)


async def _keyboard_word(page: Any, word: str) -> None:
    """Tab onto the grid, arrows to each cell, Space to pick it, Tab to Add word, Enter."""
    for _ in range(20):
        await page.keyboard.press("Tab")
        if await page.locator(".boggle-cell:focus").count():
            break
    here = int(await page.locator(".boggle-cell:focus").get_attribute("data-index"))
    for index in _cells(word):
        (row, column), (to_row, to_column) = divmod(here, GRID.width), divmod(index, GRID.width)
        for _ in range(abs(to_row - row)):
            await page.keyboard.press("ArrowDown" if to_row > row else "ArrowUp")
        for _ in range(abs(to_column - column)):
            await page.keyboard.press("ArrowRight" if to_column > column else "ArrowLeft")
        await page.keyboard.press("Space")
        here = index
    await page.keyboard.press("Tab")
    assert await page.evaluate("document.activeElement.id") == "add-word"
    await page.keyboard.press("Enter")
    await _listed(page, word)


async def _words(page: Any) -> list[str]:
    return [w.lower() for w in await page.locator("#words .boggle-word").all_inner_texts()]


async def _weight(page: Any) -> int:
    """The page's bytes before images: the document, its styles and its modules."""
    return int(
        await page.evaluate(
            """() => [...performance.getEntriesByType("navigation"),
                      ...performance.getEntriesByType("resource")]
                .filter((e) => !/\\.(png|ico|svg)$/.test(e.name) && !e.name.endsWith("/events"))
                .reduce((sum, e) => sum + e.decodedBodySize, 0)"""
        )
    )


async def _shot(page: Any, name: str) -> None:
    _save(f"{name}.png", await page.screenshot(full_page=True))


async def test_a_round_traced_corrected_merged_with_dms_and_scored_on_the_board(
    club: Club, boggle_words: Any, browser: Any, phone: Any
) -> None:
    dc, clock, channel = club.dc, club.clock, club.channel
    alice, bob = club.members["alice"], club.members["bob"]
    await club.start(web_port=0)
    ix = await dc.slash(club.moderator, channel, "boggle start", duration="3m")
    await ix.wait_done()
    await wait_said(club, channel, r"Word Boggle — round #1\*\*")
    round_id, ends_at = _round(club)

    page, errors = await _board_page(club, browser, alice, round_id)
    await page.evaluate("window.__sameDocument = true")  # a reload would drop this
    assert await page.locator("h1").inner_text() == "Word Boggle round 1"
    assert await page.locator(".boggle-cell").count() == 16
    weight = await _weight(page)
    assert 10_000 < weight <= 150_000, weight
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "boggle-board-weight.txt").write_text(f"{weight} bytes before images\n")
    await _shot(page, "boggle-board-start")

    # Three words traced by clicks, one of them by sliding through the cells.
    await _trace_by_clicks(page, "convey")
    await _trace_by_clicks(page, "tonic")
    await _trace_by_sliding(page, "acne")
    # One corrected: ACNE taken off, CANE traced instead.
    await page.get_by_role("button", name="Remove ACNE").click()
    await _trace_by_clicks(page, "cane")
    assert await _words(page) == ["convey", "tonic", "cane"]

    # Alice DMs more words: one list, shown on the open page (pushed, no reload).
    await dc.dm(alice, "toucanet canoe tonic", at=clock.now)
    await wait_said(club, alice, r"2 new words — your list for round #1 .* has \*\*5\*\*")
    await page.get_by_role("button", name="Remove TOUCANET").wait_for(timeout=WAIT_MS)
    assert await _words(page) == ["convey", "tonic", "cane", "toucanet", "canoe"]

    # Keyboard only: one word by arrows and Space, then one typed and Enter.
    await _keyboard_word(page, "covet")
    await page.get_by_label("Or type a word").focus()
    await page.keyboard.type("zebra")
    await page.keyboard.press("Enter")
    await _listed(page, "zebra")
    note = page.locator("#words li", has_text="ZEBRA").locator(".boggle-note")
    assert await note.inner_text() == "Not on the grid"  # the rules' words; not "not a word"
    await _shot(page, "boggle-board-words")

    # Bob plays on a phone, by touch: taps, then a slide of his finger.
    mobile, mobile_errors = await _board_page(club, phone, bob, round_id)
    for index in _cells("tonic"):
        await _cell(mobile, index).tap()
    await _add(mobile, "tonic", tap=True)
    await _slide_by_touch(mobile, "canoe")
    assert await _words(mobile) == ["tonic", "canoe"]  # his own list only
    width = await mobile.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]  # nothing runs off the phone's screen
    await _shot(mobile, "boggle-board-phone")
    assert await _words(page) == ["convey", "tonic", "cane", "toucanet", "canoe", "covet", "zebra"]
    assert _entries(club, alice).count("dm") == 1 and _entries(club, alice)[-1] == "web"

    # The round ends: lists close, the results are posted and shown on the open pages.
    clock.now = ends_at + boggle_service.CLOSE_GRACE
    await club.tick()
    await club.tick()
    results = await wait_said(club, channel, r"round #1 results")
    fields = {f["name"]: f["value"] for f in results.embeds[0]["fields"]}
    # convey 3 + cane 1 + toucanet 11 + covet 2; tonic and canoe are on Bob's list too.
    alice_words = fields["1. alice — 17 points"]
    assert re.search(r"Scored: .*TOUCANET \(11\)", alice_words), alice_words
    for word in ("CONVEY (3)", "CANE (1)", "COVET (2)"):
        assert word in alice_words
    assert "Cancelled (on another list too): TONIC, CANOE" in alice_words
    assert "Not on the grid: ZEBRA" in alice_words and "ACNE" not in alice_words
    assert "2. bob — 0 points" in fields

    for shown in (page, mobile):
        await shown.locator('#boggle[data-status="scored"]').wait_for(timeout=WAIT_MS)
        await shown.get_by_role("heading", name="The round's results").wait_for()
        ranking = await shown.locator("#ranking").inner_text()
        assert "alice: 17 points" in ranking and "TOUCANET — Scored (11)" in ranking
        assert await _cell(shown, 0).is_disabled()  # the grid stays, to read the results by
        assert await shown.get_by_role("button", name="Add word").count() == 0
        assert await shown.locator(".boggle-remove").count() == 0
    assert await page.evaluate("window.__sameDocument === true")  # never reloaded
    await _shot(page, "boggle-board-results")
    await _shot(mobile, "boggle-board-phone-results")
    assert errors == [] and mobile_errors == []
    await page.close()
    await mobile.close()
