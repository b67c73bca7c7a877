"""A puzzle on its member's own board page (issue #31) in Debian's Chromium, through the
loopback Discord: a club game finishes and yields its puzzles; carol's private /puzzle
answer carries her link (hers, to that puzzle); on the page she puts a play short of
the best down by clicks and answers (a try used, the page says so), answers once more
in Discord with the form (the open page shows it, no reload), then types the best play
with the keyboard alone: solved, the top plays and the game's move on the page.

Squares and tiles are found by their accessible names ("H8, …", "rack tile D, 2
points"); which tiles a play puts down is asked of the engine. Screenshots are saved
with the web page's (``$CLUBBOT_TEST_ARTIFACTS/web``)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import pytest

from engines.scrabble import Board
from engines.scrabble.board import index_name
from tests.e2e import test_web_browser
from tests.e2e.club import Club
from tests.e2e.links import board_link, names
from tests.e2e.test_puzzles import answer, finished_game, open_puzzle
from tests.e2e.test_web_browser import CHROMIUM, HAVE_CHROMIUM, _save, _watched

pytestmark = pytest.mark.skipif(not HAVE_CHROMIUM, reason=f"Chromium not found at {CHROMIUM}")
BASE = "https://games.example.org"
WAIT_MS = 10_000
browser = test_web_browser.browser  # the web page's tests' desktop browser (a fixture)


def _placed(puzzle: dict[str, Any], play: list[Any]) -> list[tuple[str, str]]:
    """The squares and tiles a top play (``[position, word, spelled, score]``) puts down,
    in order ("K5", "D"); a blank in lower case."""
    evaluation = Board.from_rows(list(puzzle["board"])).evaluate(play[1], play[0])
    return [(index_name(index), cell) for index, cell in evaluation.tiles]


def _square(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=re.compile(f"^{name}, "))


def _tile(page: Any, letter: str) -> Any:
    name = re.compile(f"^rack tile {'blank' if letter == '?' else letter},")
    return page.locator("#rack").get_by_role("button", name=name).first


async def _keyboard_to(page: Any, square: str) -> None:
    """Tab onto the board (its square with the cursor), then the arrow keys to ``square``."""
    for _ in range(40):
        await page.keyboard.press("Tab")
        if await page.locator("#board .sq:focus").count():
            break
    label = await page.locator("#board .sq:focus").get_attribute("aria-label")
    here = label.split(",")[0]
    column, row = ord(here[0]) - ord("A"), int(here[1:])
    to_column, to_row = ord(square[0]) - ord("A"), int(square[1:])
    for _ in range(abs(to_row - row)):
        await page.keyboard.press("ArrowDown" if to_row > row else "ArrowUp")
    for _ in range(abs(to_column - column)):
        await page.keyboard.press("ArrowRight" if to_column > column else "ArrowLeft")
    focused = await page.locator("#board .sq:focus").get_attribute("aria-label")
    assert focused.startswith(f"{square}, "), focused


async def _version(page: Any) -> int:
    return int(await page.locator("#scrabble").get_attribute("data-version"))


async def _shot(page: Any, name: str) -> None:
    _save(f"{name}.png", await page.screenshot(full_page=True))


async def test_a_puzzle_answered_on_its_board_page_by_clicks_in_discord_and_by_keyboard(
    club: Club, browser: Any
) -> None:
    await club.start(web_port=0, web_base_url=BASE)
    await finished_game(club)
    carol = club.members["carol"]
    shown, puzzle = await open_puzzle(club, carol)
    assert shown.ephemeral
    label, url = board_link(shown)
    assert label == "Open the board" and url.startswith(f"{BASE}/p/")
    assert names(url) == (club.guild.id, carol.id, "puzzle", puzzle["id"])
    assert club.bot is not None and club.bot.web is not None
    page, errors = await _watched(browser)
    await page.goto(club.bot.web.url + urlsplit(url).path)
    await page.wait_for_url(f"**/board/puzzle/{puzzle['id']}")
    assert "/p/" not in page.url
    await page.locator("#scrabble[data-version]").wait_for()
    assert await page.locator("h1").inner_text() == f"Puzzle {puzzle['id']}"
    rack = await page.locator("#rack .rack-tile").count()
    assert rack == len(puzzle["rack"])
    assert "3 tries left" in await page.locator("#status").inner_text()
    assert await page.locator("#solution-text").inner_text() == ""
    await _shot(page, "puzzle-board-start")

    # A play short of the best, by clicks: a rack tile, then its square; the preview
    # says its score (no try used), Answer judges it.
    short = next(p for p in reversed(puzzle["top"]) if p[3] < puzzle["top"][0][3])
    for square, cell in _placed(puzzle, short):
        await _tile(page, "?" if cell.islower() else cell).click()
        await _square(page, square).click()
        if cell.islower():
            dialog = page.get_by_role("dialog", name="Which letter is the blank?")
            await dialog.get_by_role("button", name=cell.upper(), exact=True).click()
    await page.locator("#preview", has_text=f"{short[3]} points").wait_for(timeout=WAIT_MS)
    version = await _version(page)
    await page.get_by_role("button", name="Answer", exact=True).click()
    said = page.locator("#said")
    await said.filter(has_text="there is a better play").wait_for(timeout=WAIT_MS)
    assert "2 tries left" in await said.inner_text()
    assert await _version(page) > version
    assert await page.locator("#answers li").count() == 1

    # Carol answers again in Discord (the Answer form): the open page shows it.
    version = await _version(page)
    text = await answer(club, carol, shown, puzzle, "zzz", "A1")
    assert text.startswith("That play can't be made")
    await page.locator("#scrabble").filter(has_text="1 try left").wait_for(timeout=WAIT_MS)
    assert await _version(page) > version and await page.locator("#answers li").count() == 2
    await _shot(page, "puzzle-board-tries")

    # The best play with the keyboard alone: Tab onto the board, the arrows to its first
    # square, the direction set ("/"), its letters typed (Shift for a blank), Enter.
    best = puzzle["top"][0]
    tiles = _placed(puzzle, best)
    await _keyboard_to(page, tiles[0][0])
    down = await page.locator("#direction").get_attribute("aria-pressed") == "true"
    if down == best[0][0].isdigit():  # "8H" runs across, "H8" down
        await page.keyboard.press("/")
    for _square_name, cell in tiles:
        await page.keyboard.press(f"Shift+{cell.upper()}" if cell.islower() else cell.lower())
    await page.locator("#preview", has_text=f"{best[3]} points").wait_for(timeout=WAIT_MS)
    await page.keyboard.press("Enter")
    await said.filter(has_text="Solved!").wait_for(timeout=WAIT_MS)
    judged = await said.inner_text()
    assert f"scores {best[3]}, the best there is" in judged and "Top plays" not in judged
    solution = await page.locator("#solution-text").inner_text()
    assert "Top plays:" in solution and f"{best[0]} {best[2]}" in solution
    assert "**" not in solution and "In Scrabble #" in solution
    assert "You solved this puzzle" in await page.locator("#status").inner_text()
    assert await page.get_by_role("button", name="Answer", exact=True).is_hidden()
    await _shot(page, "puzzle-board-solved")
    assert [e for e in errors if "409" not in e] == []
    await page.close()
