"""Scrabble on a member's own board (issue #28) in Debian's Chromium, through the
loopback Discord: the real bot serves the page from the member's private link; the
opponent plays in Discord and their moves appear on the open page without a reload;
what is done on the page reaches the thread as the commands' posts, with the score
the page's preview said.

The deal comes from a fixed seed (the inviter plays first) and the racks are set
by swapping tiles with the bag, so the game is the same every time. Elements are
found by their accessible names ("H8, double word score, centre square, empty",
"rack tile C, 3 points") as a screen reader would; screenshots at desktop and phone
size are saved with the web page's (``$CLUBBOT_TEST_ARTIFACTS/web``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import test_web_browser
from tests.e2e.club import Club
from tests.e2e.test_scrabble import game_state, reply_text
from tests.e2e.test_scrabble_members import _first_seat_zero_seed, deal_from, open_game, set_racks
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
browser = test_web_browser.browser  # the web page's tests' desktop browser (a fixture)
touch_phone = test_web_browser.touch_phone  # 360 × 640, touch (a fixture)
WORDS = ("at", "ta", "cat", "cats", "boat")  # the game's word list: TAX is a phony


async def _game(club: Club, tmp_path: Path, alice_rack: str, bob_rack: str) -> tuple[int, Any]:
    """A game alice (first to play) and bob started in Discord, with these racks."""
    words = tmp_path / "club-words.txt"
    words.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    await club.start(web_port=0, lexicon=str(words))
    deal_from(club, _first_seat_zero_seed())
    alice, bob = club.members["alice"], club.members["bob"]
    game_id, thread, _ = await open_game(club, alice, bob, clock="1d")
    await set_racks(club, game_id, {0: alice_rack, 1: bob_rack})
    return game_id, thread


async def _board_page(club: Club, context: Any, user: Any, game_id: int) -> tuple[Any, list[str]]:
    """``user``'s board of the game, opened from the private link the bot makes."""
    return await open_board(club, context, user, "scrabble", game_id)


async def _version(page: Any) -> int:
    return await board_version(page, "scrabble")


async def _at_version(page: Any, version: int) -> None:
    await at_board_version(page, "scrabble", version, WAIT_MS)


def _square(page: Any, name: str) -> Any:
    """The square named ``name`` ("H8"): its accessible name starts "H8, "."""
    return page.get_by_role("button", name=re.compile(f"^{name}, "))


def _tile(page: Any, letter: str) -> Any:
    """A tile of the member's rack ("rack tile C, 3 points"; "blank" for a blank)."""
    return (
        page.locator("#rack").get_by_role("button", name=re.compile(f"^rack tile {letter},")).first
    )


async def _preview(page: Any, expected: str) -> str:
    """The preview line once it says ``expected`` (the server's answer to the tiles put
    down so far: an earlier one may show first)."""
    line = page.locator("#preview")
    await line.filter(has_text=expected).wait_for(timeout=WAIT_MS)
    return str(await line.inner_text())


async def _discord(
    club: Club, page: Any, user: Any, thread: Any, command: str, **options: Any
) -> str:
    """The opponent's command in Discord; the open page shows its move (pushed, no reload)."""
    version = await _version(page)
    ix = await club.dc.slash(user, thread, command, **options)
    answer = await reply_text(ix)
    await _at_version(page, version + 1)
    return answer


async def _thread_says(club: Club, thread: Any, text: str) -> None:
    await club.dc.wait_for_message(
        thread, predicate=lambda m: text in (m.content or ""), timeout=10
    )


async def _shot(page: Any, name: str) -> None:
    _save(f"{name}.png", await page.screenshot(full_page=True))


async def test_a_game_between_the_board_and_discord_to_its_end(
    club: Club, browser: Any, tmp_path: Path
) -> None:
    game_id, thread = await _game(club, tmp_path, "CATB?TE", "SAXDEIU")
    alice, bob = club.members["alice"], club.members["bob"]
    page, errors = await _board_page(club, browser, alice, game_id)
    await page.evaluate("window.__sameDocument = true")  # a reload would drop this
    assert await page.locator("h1").inner_text() == f"Scrabble #{_number(club, game_id)}"
    assert await page.locator("#status").inner_text() == "Your turn."
    assert await page.locator("#board .sq").count() == 225
    assert await _square(page, "H8").get_attribute("aria-label") == (
        "H8, double word score, centre square, empty, typing goes across"
    )
    assert await _square(page, "A1").get_attribute("aria-label") == "A1, triple word score, empty"
    assert await page.locator("#rack .rack-tile").count() == 7
    await _shot(page, "scrabble-board-start")

    # 1. By taps: a rack tile, then its square; the preview is the engine's.
    version = await _version(page)
    for letter, square in (("C", "H8"), ("A", "I8"), ("T", "J8")):
        await _tile(page, letter).click()
        await _square(page, square).click()
    assert await _preview(page, "CAT 10") == "CAT 10: 10 points."
    assert "your tile, not played yet" in await _square(page, "I8").get_attribute("aria-label")
    await _shot(page, "scrabble-board-preview")
    await page.get_by_role("button", name="Play", exact=True).click()
    await _at_version(page, version + 1)
    await _thread_says(club, thread, "**alice** played **CAT** at 8H for 10")  # as previewed
    assert (await page.locator("#said").inner_text()).startswith("You played CAT at 8H for 10.")
    assert "last play" in await _square(page, "H8").get_attribute("aria-label")

    # 2. bob, in Discord, typing the whole word through alice's tiles.
    await _discord(club, page, bob, thread, "scrabble play", word="CATS", position="8H")
    assert (await _square(page, "K8").get_attribute("aria-label")).startswith("K8, S, last play")
    assert await page.locator("#status").inner_text() == "Your turn."

    # 3. By drag, with a blank: B to I6, the blank to I7 as O, T to I9 (through the A).
    version = await _version(page)
    await _tile(page, "B").drag_to(_square(page, "I6"))
    await _tile(page, "blank").drag_to(_square(page, "I7"))
    dialog = page.get_by_role("dialog", name="Which letter is the blank?")
    await dialog.wait_for()
    await _shot(page, "scrabble-board-blank")
    await dialog.get_by_role("button", name="O", exact=True).click()
    await _tile(page, "T").drag_to(_square(page, "I9"))
    assert (await _square(page, "I7").get_attribute("aria-label")).startswith("I7, blank as O")
    assert await _preview(page, "BOAT 6") == "BOAT 6: 6 points."
    await page.get_by_role("button", name="Play", exact=True).click()
    await _at_version(page, version + 1)
    await _thread_says(club, thread, "**alice** played **BOAT** at I6 for 6")

    # 4. bob plays a phony in Discord; alice challenges it off on the board.
    await _discord(club, page, bob, thread, "scrabble play", word="TAX", position="J8")
    assert (await _square(page, "J10").get_attribute("aria-label")).startswith("J10, X")
    challenge = page.get_by_role("button", name="Challenge", exact=True)
    await challenge.wait_for()
    version = await _version(page)
    await challenge.click()
    await _at_version(page, version + 1)
    said = await page.locator("#said").inner_text()
    assert said == "Your challenge succeeded: TAX is not in the word list."
    assert (await _square(page, "J10").get_attribute("aria-label")).endswith("empty")
    assert await challenge.is_hidden()
    await _thread_says(club, thread, "'s play: **TAX** is not in the word list.")

    # 5. An exchange: two tiles chosen in the dialog.
    version = await _version(page)
    rack_before = game_state(club.db_path, game_id)["engine"]["racks"][0]
    await page.get_by_role("button", name="Exchange", exact=True).click()
    dialog = page.get_by_role("dialog", name="Choose the tiles to exchange")
    await dialog.wait_for()
    chosen = dialog.locator(".rack-tile")
    await chosen.nth(0).click()
    await chosen.nth(1).click()
    assert await chosen.nth(0).get_attribute("aria-pressed") == "true"
    await _shot(page, "scrabble-board-exchange")
    await dialog.get_by_role("button", name="Exchange these tiles").click()
    await _at_version(page, version + 1)
    assert (await page.locator("#said").inner_text()).startswith("You exchanged 2 tiles and drew ")
    exchange = game_state(club.db_path, game_id)["engine"]["moves"][-1]
    assert exchange["type"] == "exchange" and exchange["rack"] == rack_before
    assert len(exchange["tiles"]) == 2
    await _thread_says(club, thread, "**alice** exchanged 2 tiles.")

    # 6. bob passes in Discord, alice passes on the board.
    await _discord(club, page, bob, thread, "scrabble pass")
    version = await _version(page)
    await page.get_by_role("button", name="Pass", exact=True).click()
    await _at_version(page, version + 1)
    assert await page.locator("#said").inner_text() == "You passed."

    # 7. bob plays, the page shows it; alice resigns after saying yes.
    await _discord(club, page, bob, thread, "scrabble play", word="TA", position="J8")
    assert (await _square(page, "J9").get_attribute("aria-label")).startswith("J9, A, last play")
    await _shot(page, "scrabble-board-before-resign")
    await page.get_by_role("button", name="Resign", exact=True).click()
    dialog = page.get_by_role("dialog", name="Resign this game?")
    await dialog.wait_for()
    await dialog.get_by_role("button", name="Yes, resign").click()
    await page.locator('#scrabble[data-status="finished"]').wait_for(timeout=WAIT_MS)
    assert await page.locator("#status").inner_text() == "Game over (resignation): bob won."
    assert await page.get_by_role("button", name="Pass", exact=True).is_hidden()
    await _thread_says(club, thread, "Game over")
    assert game_state(club.db_path, game_id)["engine"]["status"] == "finished"
    assert await page.evaluate("window.__sameDocument === true")  # never reloaded
    await _shot(page, "scrabble-board-over")
    assert errors == []
    await page.close()


async def test_one_play_with_the_keyboard_alone(club: Club, browser: Any, tmp_path: Path) -> None:
    game_id, thread = await _game(club, tmp_path, "CATHYZE", "SAXDEIU")
    page, errors = await _board_page(club, browser, club.members["alice"], game_id)
    for _ in range(40):  # Tab onto the board: its square with the cursor, H8
        await page.keyboard.press("Tab")
        if await page.locator("#board .sq:focus").count():
            break
    focused = page.locator("#board .sq:focus")
    assert (await focused.get_attribute("aria-label")).startswith("H8, ")
    await page.keyboard.press("ArrowUp")
    await page.keyboard.press("ArrowDown")
    version = await _version(page)
    for key in "cat":  # each letter puts its tile down and moves on across
        await page.keyboard.press(key)
    assert (await page.locator("#board .sq:focus").get_attribute("aria-label")).startswith("K8, ")
    await page.keyboard.press("Backspace")  # the T back
    assert await page.locator("#rack .rack-tile").count() == 5
    await page.keyboard.press("t")
    assert await _preview(page, "CAT 10") == "CAT 10: 10 points."
    await _shot(page, "scrabble-board-keyboard")
    await page.keyboard.press("Enter")
    await _at_version(page, version + 1)
    await _thread_says(club, thread, "**alice** played **CAT** at 8H for 10")
    assert errors == []
    await page.close()


async def test_one_play_by_touch_on_a_phone_screen(
    club: Club, touch_phone: Any, tmp_path: Path
) -> None:
    game_id, thread = await _game(club, tmp_path, "CATHYZE", "SAXDEIU")
    page, errors = await _board_page(club, touch_phone, club.members["alice"], game_id)
    board = await page.locator("#board").bounding_box()
    assert board is not None and 300 <= board["width"] <= SMALL_PHONE["width"]
    assert await page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    await _shot(page, "scrabble-board-phone")
    version = await _version(page)
    for letter, square in (("A", "H8"), ("T", "I8")):
        await _tile(page, letter).tap()
        await _square(page, square).tap()
    assert await _preview(page, "AT 4") == "AT 4: 4 points."
    await _shot(page, "scrabble-board-phone-preview")
    await page.get_by_role("button", name="Play", exact=True).tap()
    await _at_version(page, version + 1)
    await _thread_says(club, thread, "**alice** played **AT** at 8H for 4")
    assert errors == []
    await page.close()


async def test_a_game_finished_in_discord_shows_its_final_scores_on_the_open_page(
    club: Club, browser: Any, tmp_path: Path
) -> None:
    game_id, thread = await _game(club, tmp_path, "CATHYZE", "SAXDEIU")
    alice, bob = club.members["alice"], club.members["bob"]
    page, errors = await _board_page(club, browser, alice, game_id)
    await page.evaluate("window.__sameDocument = true")  # a reload would drop this
    version = await _version(page)
    for letter, square in (("C", "H8"), ("A", "I8"), ("T", "J8")):
        await _tile(page, letter).click()
        await _square(page, square).click()
    await _preview(page, "CAT 10")
    await page.get_by_role("button", name="Play", exact=True).click()
    await _at_version(page, version + 1)
    await _discord(club, page, bob, thread, "scrabble play", word="CATS", position="8H")
    await _tile(page, "H").click()  # a tile put down, not played, when the game ends
    # Its preview answered before the game ends (one asked after the end is refused).
    async with page.expect_response(lambda r: r.url.endswith("/preview"), timeout=WAIT_MS):
        await _square(page, "H9").click()

    # bob resigns in Discord: alice's open page shows the end, pushed, without a reload.
    await _discord(club, page, bob, thread, "scrabble resign")
    await page.locator('#scrabble[data-status="finished"]').wait_for(timeout=WAIT_MS)
    assert await page.locator("#status").inner_text() == "Game over (resignation): alice won."
    assert await page.locator("#notice").inner_text() == ""  # no refusal
    final = await club.dc.wait_for_message(
        thread, predicate=lambda m: "Game over" in (m.content or ""), timeout=10
    )
    scores = page.locator("#scores li")
    assert await scores.count() == 2
    for index, name in enumerate(("alice", "bob")):
        who = await scores.nth(index).locator(".who").inner_text()
        score = await scores.nth(index).locator(".score").inner_text()
        assert who.startswith(name) and f"{name} — {score}" in final.content, (who, final.content)
    # The final position, read-only: the tile put down went back, nothing can be done.
    assert (await _square(page, "H9").get_attribute("aria-label")).endswith("empty")
    assert (await _square(page, "K8").get_attribute("aria-label")).startswith("K8, S, last play")
    for name in ("Play", "Pass", "Exchange", "Resign", "Shuffle the rack"):
        assert await page.get_by_role("button", name=name, exact=True).is_hidden()
    assert await page.evaluate("window.__sameDocument === true")  # never reloaded
    await _shot(page, "scrabble-board-finished")
    assert errors == []
    await page.close()
