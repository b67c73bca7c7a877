"""The Henyo host console on a phone (issue #29), in Debian's Chromium: a round played
aloud is started in Discord through the loopback, and the host referees it from the
console page on a 360 × 640 touch screen: Start, two +5 s, an undo, a double tap on
Got it that counts once, the screen's switch; a press made in the Discord console
meanwhile shows on the open page without a reload. Found by accessible names;
screenshots in the web artifacts.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from tests.e2e import test_web_browser
from tests.e2e.club import Club
from tests.e2e.test_web_browser import (
    CHROMIUM,
    HAVE_CHROMIUM,
    SMALL_PHONE,
    _save,
    at_board_version,
    board_version,
    open_board,
)

pytestmark = pytest.mark.skipif(not HAVE_CHROMIUM, reason=f"Chromium not found at {CHROMIUM}")
phone = test_web_browser.touch_phone  # 360 × 640, touch (a fixture)
WAIT_MS = 10_000
KIND = "henyo_host"


def _round(club: Club) -> tuple[int, str, int]:
    with sqlite3.connect(club.db_path) as db:
        row = db.execute(
            "select id, status, penalties from henyo_rounds order by id desc limit 1"
        ).fetchone()
    return int(row[0]), str(row[1]), int(row[2])


def _presses(club: Club) -> list[tuple[str, str, int]]:
    with sqlite3.connect(club.db_path) as db:
        return list(
            db.execute("select action, via, undone from henyo_presses order by seq").fetchall()
        )


async def _status(page: Any, status: str) -> None:
    await page.locator(f'#{KIND}[data-status="{status}"]').wait_for(timeout=WAIT_MS)


async def test_the_host_referees_a_round_from_the_console_page_on_a_phone(
    club: Club, phone: Any
) -> None:
    dc, clock, channel = club.dc, club.clock, club.channel
    await club.start(web_port=0)
    ix = await dc.slash(
        club.moderator,
        channel,
        "henyo start",
        guesser=club.members["alice"],
        answerer=club.members["bob"],
        referee="host",
        word="sampaguita",
    )
    console = await ix.next_message(timeout=10)
    assert console.ephemeral and "Host console" in console.content
    round_id, status, _ = _round(club)
    assert status == "waiting"

    page, errors = await open_board(club, phone, club.moderator, KIND, round_id)
    assert await page.locator("h1").inner_text() == "Host console · One-off round"
    # The word is folded away until the host asks for it.
    word = page.locator("#word")
    assert not await word.is_visible()
    await page.get_by_text("Show the secret word (only you)").tap()
    assert await word.inner_text() == "sampaguita"
    await page.get_by_text("Show the secret word (only you)").tap()
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= SMALL_PHONE["width"]  # nothing runs off the phone's screen
    _save("henyo-host-phone-waiting.png", await page.screenshot(full_page=True))

    got_it = page.get_by_role("button", name="Got it")
    assert await got_it.is_disabled()
    await page.get_by_role("button", name="Start").tap()
    await _status(page, "running")
    # The press's confirmation is a confirmation, not in the refusals' red.
    counted = page.locator("#notice", has_text="Counted.")
    await counted.wait_for(timeout=WAIT_MS)
    colour = await counted.evaluate("(el) => getComputedStyle(el).color")
    assert colour == "rgb(30, 107, 53)", colour  # the success green, not rgb(179, 38, 30)
    clock.advance(seconds=8)
    penalty = page.get_by_role("button", name="+5 s")
    version = await board_version(page, KIND)
    await penalty.tap()
    await at_board_version(page, KIND, version + 1)
    clock.advance(seconds=4)
    version = await board_version(page, KIND)
    await penalty.tap()
    await at_board_version(page, KIND, version + 1)
    assert await page.locator("#penalties").inner_text() == "2"
    await page.get_by_role("button", name="Undo last").tap()
    await page.locator("#penalties", has_text="1").wait_for(timeout=WAIT_MS)

    # A press in the Discord console shows on the open page (pushed, no reload).
    await page.evaluate("window.__sameDocument = true")
    # The Discord console still shows the round before its Start: its Start, pressed
    # now, was counted already (from the page), so it changes nothing, says so, and
    # the console catches up.
    stale = next(c for c in dc.messages[console.id].custom_ids if ":start:" in c)
    pressed = await dc.click(club.moderator, console, stale)
    await pressed.wait_done(10)
    told = await dc.wait_for_message(
        channel=channel, predicate=lambda m: "already counted" in (m.content or "")
    )
    assert told.ephemeral
    fresh = next(c for c in dc.messages[console.id].custom_ids if ":penalty:" in c)
    pressed = await dc.click(club.moderator, console, fresh)
    await pressed.wait_done(10)
    await page.locator("#penalties", has_text="2").wait_for(timeout=WAIT_MS)
    assert await page.evaluate("window.__sameDocument") is True

    # The screen's switch, by touch.
    switch = page.get_by_label("Show the word on the screen")
    await switch.tap()
    await page.locator("#screen-text", has_text="shows the word").wait_for(timeout=WAIT_MS)

    # Got it, then the same request sent again (a retry on a flaky connection): the
    # retry carries the version the press was made on, and counts once.
    clock.advance(seconds=6)
    version = await board_version(page, KIND)
    await got_it.tap()
    await _status(page, "guessed")
    retried = await page.evaluate(
        """async (version) => {
          const app = document.getElementById("board-app");
          const response = await fetch(`${app.dataset.path}/press`, {
            method: "POST", credentials: "same-origin",
            headers: {"Content-Type": "application/json", "X-CSRF-Token": app.dataset.csrf},
            body: JSON.stringify({press: "got_it", version}),
          });
          return await response.json();
        }""",
        version,
    )
    assert retried["ok"] is True and retried["counted"] is False, retried
    assert "already counted" in retried["note"]
    assert await page.locator("#clock").inner_text() == "28.0 s"  # 18 s + 2 × 5 s
    presses = _presses(club)
    assert [p[0] for p in presses] == ["start", "penalty", "penalty", "undo", "penalty", "got_it"]
    assert [p[1] for p in presses] == ["web", "web", "web", "web", "discord", "web"]
    assert [p[2] for p in presses] == [0, 0, 1, 0, 0, 0]  # the second penalty, undone
    result = await dc.wait_for_message(
        channel=channel, predicate=lambda m: "guessed it" in (m.content or "")
    )
    assert "Time 18.0 s + penalties 10.0 s (2) = final time **28.0 s**" in result.content
    _save("henyo-host-phone-guessed.png", await page.screenshot(full_page=True))
    assert errors == []
