"""A board's tally in the room on a phone (issue #29), in Debian's Chromium through
the loopback Discord: a club session over real boards is started in Discord, and
alice, at the table with a 360 × 640 touch screen, opens her board's tally from her
private link and enters her pair's first play by touch (the word and its position
typed, Enter play tapped). The engine scores it, the page shows the entry, the
scores and whose turn it is without a reload, the board's thread gets the play,
and the page reports no error. Screenshots go to the web artifacts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engines.scrabble import ScrabbleGame
from tests.e2e import test_web_browser
from tests.e2e.club import Club
from tests.e2e.test_web_browser import (
    SMALL_PHONE,
    _save,
    at_board_version,
    board_version,
    open_board,
)

pytestmark = test_web_browser.pytestmark
touch_phone = test_web_browser.touch_phone  # 360 × 640, touch (a fixture)


def _engine(club: Club, game_id: int) -> ScrabbleGame:
    import sqlite3

    with sqlite3.connect(club.db_path) as db:
        ((state,),) = db.execute("select state from games where id = ?", (game_id,)).fetchall()
    return ScrabbleGame.from_json(json.loads(state)["engine"])


async def _room_board(club: Club) -> tuple[int, Any]:
    """A session in the room for alice & bob and carol & dave: its one board's game and
    thread, once open."""
    dc, m = club.dc, club.members
    await dc.slash(club.moderator, club.channel, "scrabble session open", where="room")
    await dc.slash(m["alice"], club.channel, "scrabble session signup", partner=m["bob"])
    await dc.slash(m["carol"], club.channel, "scrabble session signup", partner=m["dave"])
    for _ in range(2):
        await dc.slash(club.moderator, club.channel, "scrabble session start")
    await dc.wait_for_message(
        channel=club.channel,
        predicate=lambda x: "Where everyone plays" in (x.content or ""),
        timeout=15,
    )
    import sqlite3

    with sqlite3.connect(club.db_path) as db:
        ((game_id, thread_id),) = db.execute(
            "select g.id, g.thread_id from session_boards b join games g on g.id = b.game_id"
        ).fetchall()
    thread = next(t for t in dc.threads_in(club.channel) if t.id == thread_id)
    return game_id, thread


async def test_a_play_entered_by_touch_on_the_tally_page_of_a_phone(
    club: Club, touch_phone: Any, tmp_path: Path
) -> None:
    await club.start(web_port=0)
    game_id, thread = await _room_board(club)
    alice = club.members["alice"]
    page, errors = await open_board(club, touch_phone, alice, "tally", game_id)
    assert await page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    _save("tally-phone.png", await page.screenshot(full_page=True))
    version = await board_version(page, "tally")

    await page.get_by_label("Word").tap()
    await page.keyboard.type("quiz")
    await page.get_by_label("Position", exact=True).tap()
    await page.keyboard.type("8h")
    await page.get_by_role("button", name="Enter play").tap()
    await at_board_version(page, "tally", version + 1)

    entries = page.locator("#lines li")
    assert await entries.count() == 1
    assert "8H QUIZ (+44) → 44" in await entries.first.inner_text()
    assert "alice & bob: 44" in await page.locator("#scores").inner_text()
    assert "to play" in await page.locator("#status").inner_text()
    assert await page.get_by_role("button", name="Enter play").is_disabled()  # not her turn
    assert await page.get_by_role("button", name="Challenge the last play").is_disabled()
    assert await page.locator("#rack-form").is_hidden()  # the game is not over
    engine = _engine(club, game_id)
    seat = next(s for s, users in enumerate(_seats(club, game_id)) if alice.id in users)
    assert engine.scores[seat] == 44
    await club.dc.wait_for_message(
        channel=thread,
        predicate=lambda x: "played **QUIZ** at 8H for 44" in (x.content or ""),
        timeout=10,
    )
    _save("tally-phone-entered.png", await page.screenshot(full_page=True))
    assert errors == []
    await page.close()


def _seats(club: Club, game_id: int) -> list[list[int]]:
    import sqlite3

    with sqlite3.connect(club.db_path) as db:
        found = db.execute(
            "select seat, user_id from game_seats where game_id = ? order by seat", (game_id,)
        ).fetchall()
    seats: dict[int, list[int]] = {}
    for seat, user in found:
        seats.setdefault(seat, []).append(user)
    return [seats[s] for s in sorted(seats)]
