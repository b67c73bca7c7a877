"""A member's Boggle page in a round played in the room, in Debian's Chromium: its
countdown runs to pens down while the players write on paper, then to the end of the
time to type the lists (not to that end from the start)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.bot.services.test_boggle import ANA, GUILD, T0
from tests.bot.web.test_board_boggle import Board, board, lexicon_file
from tests.e2e.test_web_browser import CHROMIUM, CHROMIUM_ARGS, HAVE_CHROMIUM

pytestmark = [
    pytest.mark.skipif(not HAVE_CHROMIUM, reason=f"Chromium not found at {CHROMIUM}"),
    pytest.mark.clock(T0),
]
__all__ = ["board", "lexicon_file"]  # the fixtures


@pytest.fixture
def backend() -> str:
    return "sqlite"  # the state is tested on both databases in test_board_boggle.py


@pytest.fixture
async def chromium() -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        context = await browser.new_context(viewport={"width": 390, "height": 844})
        try:
            yield context
        finally:
            await context.close()
            await browser.close()


def _seconds(text: str) -> int:
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


async def test_the_countdown_runs_to_pens_down_then_to_the_end_of_typing(
    board: Board, chromium: Any
) -> None:
    info = await board.env.start(where="room", entry_time="2m")
    path = await board.links.link(GUILD, ANA, "boggle", info.id, guild_name="club 1")
    assert path is not None
    page = await chromium.new_page()
    await page.goto(str(board.client.make_url(path)))
    await page.locator("#boggle[data-version]").wait_for()
    left = _seconds(await page.locator("#countdown").inner_text())
    # The paper's countdown (the round's duration), not it and the time to type.
    assert info.duration_s - 5 <= left <= info.duration_s
    board.env.clock.advance(seconds=info.duration_s + 1)
    await board.env.run_due()
    await page.reload()
    await page.locator("#boggle[data-version]").wait_for()
    left = _seconds(await page.locator("#countdown").inner_text())
    assert info.entry_s - 6 <= left <= info.entry_s
    assert await page.locator("#type-word, input").first.is_enabled()
