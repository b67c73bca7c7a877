"""The daily Boggle grid on its member's own board page (issue #31) in Debian's Chromium
on a 360 × 640 touch screen, through the loopback Discord: alice's private `/boggle
daily` answer carries her link (hers, to today's grid); on the page her own countdown
runs from when she opened the grid; she traces a word by taps and one by sliding her
finger, DMs another (the open page shows it), and once her countdown is over a word
sent from the page is refused in the page's words and nothing changes; `/boggle daily`
again offers no link.

Cells are found by their accessible names ("row 2 column 3, letter V"); where a word
runs is asked of the engine. Screenshots are saved with the web page's
(``$CLUBBOT_TEST_ARTIFACTS/web``)."""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.e2e import test_web_browser
from tests.e2e.club import Club
from tests.e2e.links import board_link, link_buttons, names
from tests.e2e.test_board_boggle import _add, _cell, _cells, _listed, _slide_by_touch, _words
from tests.e2e.test_boggle_daily import START, daily, daily_words, wait_said
from tests.e2e.test_web_browser import CHROMIUM, HAVE_CHROMIUM, SMALL_PHONE, _save, _watched

pytestmark = [
    pytest.mark.skipif(not HAVE_CHROMIUM, reason=f"Chromium not found at {CHROMIUM}"),
    pytest.mark.clock(START),
]
__all__ = ["daily_words"]  # the fixture: a small word list, the test grid every day
BASE = "https://games.example.org"
WAIT_MS = 10_000
touch_phone = test_web_browser.touch_phone  # 360 × 640, touch (a fixture)


def _entries(club: Club, user: Any) -> list[str]:
    with sqlite3.connect(club.db_path) as db:
        (entries,) = db.execute(
            "select entries from boggle_daily_plays where player_id = ?", (user.id,)
        ).fetchone()
    return [entry["via"] for entry in json.loads(entries)]


async def _shot(page: Any, name: str) -> None:
    _save(f"{name}.png", await page.screenshot(full_page=True))


async def test_the_days_grid_traced_by_touch_merged_with_dms_and_refused_after_the_countdown(
    club: Club, daily_words: Path, touch_phone: Any
) -> None:
    dc, clock = club.dc, club.clock
    alice = club.members["alice"]
    await club.start(web_port=0, web_base_url=BASE)
    grid = await daily(club, alice)
    label, url = board_link(grid)
    assert label == "Open the board" and url.startswith(f"{BASE}/p/")
    guild_id, user_id, kind, daily_id = names(url)
    assert (guild_id, user_id, kind) == (club.guild.id, alice.id, "boggle_daily")
    clock.advance(seconds=30)  # her countdown runs from when she opened the grid

    assert club.bot is not None and club.bot.web is not None
    page, errors = await _watched(touch_phone)
    await page.goto(club.bot.web.url + urlsplit(url).path)
    await page.wait_for_url(f"**/board/boggle_daily/{daily_id}")
    assert "/p/" not in page.url
    await page.locator("#boggle[data-version]").wait_for()
    assert await page.locator("h1").inner_text() == "Daily Word Boggle — 2026-03-08"
    assert "Your own countdown runs" in await page.locator("#status").inner_text()
    countdown = await page.get_by_role("timer").inner_text()
    assert countdown in ("2:30", "2:29", "2:28"), countdown  # 3 minutes from her opening
    assert await page.locator(".boggle-cell").count() == 16
    assert await page.get_by_text("Nobody sees your list before the day's results.").count()

    # A word by taps, one by sliding a finger through the cells.
    for index in _cells("tonic"):
        await _cell(page, index).tap()
    await _add(page, "tonic", tap=True)
    await _slide_by_touch(page, "canoe")
    # A DM'd word joins the same list; the open page shows it (pushed, no reload).
    await dc.dm(alice, "envoy", at=clock.now)
    await wait_said(club, alice, r"1 new word — your list for today's grid")
    await _listed(page, "envoy")
    assert await _words(page) == ["tonic", "canoe", "envoy"]
    assert _entries(club, alice) == ["web", "web", "dm"]
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= SMALL_PHONE["width"]  # nothing runs off the phone's screen
    await _shot(page, "boggle-daily-phone")

    # Her countdown ends: a word from the page is refused, her list stays as it was.
    clock.advance(minutes=3)
    await page.get_by_label("Or type a word").tap()
    await page.keyboard.type("covet")
    await page.keyboard.press("Enter")
    notice = page.locator("#notice")
    await notice.filter(has_text="Your countdown for this grid ended at").wait_for(timeout=WAIT_MS)
    assert "<t:" not in await notice.inner_text()
    await page.locator("#status", has_text="Your countdown is over").wait_for(timeout=WAIT_MS)
    assert await _cell(page, 0).is_disabled()
    assert await _words(page) == ["tonic", "canoe", "envoy"]
    assert _entries(club, alice) == ["web", "web", "dm"]
    await _shot(page, "boggle-daily-phone-over")
    assert [e for e in errors if "409" not in e] == []
    await page.close()

    # Opened again after her countdown: the same grid, no form and no link.
    again = await daily(club, alice)
    assert not link_buttons(again.components or ())
    assert START + timedelta(minutes=3) < clock.now
