"""The room's screen (issue #29) in Debian's Chromium at a projector's 1920 × 1080, through
the loopback Discord with the real bot.

A moderator's ``/club screen`` gives a private link button (a member is refused
privately); the page it opens needs nothing more: a Boggle round started in Discord
appears on the already-open screen with its grid and a countdown ticking, then its
results and the best words nobody found; a Henyo round's pair, clock and penalties
appear as the answerer earns them, and the secret is never in the page, in any state
it fetched or in any event pushed to it; a club session shows every board with its
scores, whose turn with its clock, and the session's clock. Every text on the screen
is at least 48 px, nothing runs off it, and a lost connection shows a mark and comes
back by itself. Screenshots are saved with the web page's
(``$CLUBBOT_TEST_ARTIFACTS/web``, ``screen-*.png``).
"""

from __future__ import annotations

import re
import shutil
import socket
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import bot.services.boggle as boggle_service
from bot.web.screen import RECENT
from tests.clock import FakeClock
from tests.e2e.club import Club, open_club
from tests.e2e.links import board_link, names
from tests.e2e.test_boggle import boggle_words, wait_said
from tests.e2e.test_henyo import Henyo
from tests.e2e.test_web_browser import CHROMIUM, CHROMIUM_ARGS, HAVE_CHROMIUM, _save
from tests.leaks import shows_secret

pytestmark = pytest.mark.skipif(not HAVE_CHROMIUM, reason=f"Chromium not found at {CHROMIUM}")
__all__ = ["boggle_words"]  # the fixture (a small word list, a fixed seed)
BASE = "https://games.example.org"  # the address the bot's links name (WEB_BASE_URL)
PROJECTOR = {"width": 1920, "height": 1080}
MIN_PX = 48
WAIT_MS = 10_000

# Every event the page's EventSource hands to its listeners, kept for the test to read.
RECORD_EVENTS = """
(() => {
  window.__pushed = [];
  const add = EventSource.prototype.addEventListener;
  EventSource.prototype.addEventListener = function (type, listener, options) {
    const wrapped = (event) => { window.__pushed.push(String(event.data ?? "")); listener(event); };
    return add.call(this, type, wrapped, options);
  };
})();
"""


@pytest.fixture
async def projector(tmp_path: Path) -> AsyncIterator[Any]:
    """Chromium as a projector's computer runs it: 1920 × 1080, no touch."""
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        chromium = await pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        context = await chromium.new_context(viewport=PROJECTOR)
        try:
            yield context
        finally:
            await context.close()
            await chromium.close()


@pytest.fixture
async def big_club(
    loopback: Any, tmp_path: Path, clock: FakeClock, migrated_sqlite_template: Path
) -> AsyncIterator[Club]:
    """The club with twelve members: a session of two boards."""
    shutil.copyfile(migrated_sqlite_template, tmp_path / "club.db")
    async for c in open_club(loopback, tmp_path, clock, extra_members=6):
        yield c


class Screen:
    """The screen's tab, with what it fetched and was pushed."""

    def __init__(self, page: Any, errors: list[str], states: list[str]) -> None:
        self.page = page
        self.errors = errors
        self.states = states

    async def panel(self, name: str) -> None:
        await self.page.locator(f'#screen[data-panel="{name}"]').wait_for(timeout=WAIT_MS)

    async def text(self) -> str:
        return str(await self.page.locator("#screen").inner_text())

    async def pushed(self) -> list[str]:
        return list(await self.page.evaluate("window.__pushed"))

    async def smallest_text(self) -> tuple[float, str]:
        """The smallest computed font size of any element holding text, and its text."""
        found = await self.page.evaluate(
            """() => {
              let least = [Infinity, ""];
              for (const el of document.querySelectorAll("body *")) {
                const own = [...el.childNodes].some(
                  (n) => n.nodeType === 3 && n.textContent.trim());
                if (!own || !el.getClientRects().length) { continue; }
                const size = parseFloat(getComputedStyle(el).fontSize);
                if (size < least[0]) { least = [size, el.textContent.trim().slice(0, 40)]; }
              }
              return least;
            }"""
        )
        return float(found[0]), str(found[1])

    async def readable(self, name: str) -> None:
        """Every text ≥ 48 px, nothing below the screen's bottom; saved as ``name``."""
        size, text = await self.smallest_text()
        assert size >= MIN_PX, f"{name}: {text!r} is {size} px"
        height = await self.page.evaluate("document.getElementById('screen').scrollHeight")
        assert height <= PROJECTOR["height"], f"{name}: {height} px tall"
        _save(f"{name}.png", await self.page.screenshot())


def free_port() -> int:
    """A port free now (the bot restarts on it, so an open page can reconnect)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def screen_link(club: Club) -> str:
    """``/club screen`` by the moderator: a private answer with one link button, to the
    club's own screen; its path on the bot's own web server."""
    ix = await club.dc.slash(club.moderator, club.channel, "club screen")
    await ix.wait_done()
    answer = ix.followups[-1] if ix.followups else ix.answer
    assert answer.ephemeral, answer.content
    assert "The room's screen for Library Games Club" in answer.content
    label, url = board_link(answer)
    assert label == "Open the screen" and url.startswith(f"{BASE}/p/")
    guild, moderator, kind, subject = names(url)
    assert (guild, moderator, kind, subject) == (
        club.guild.id,
        club.moderator.id,
        "screen",
        club.guild.id,
    )
    return url.removeprefix(BASE)


async def open_screen(club: Club, context: Any) -> Screen:
    assert club.bot is not None and club.bot.web is not None
    path = await screen_link(club)
    page = await context.new_page()
    errors: list[str] = []
    states: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))

    async def keep(response: Any) -> None:
        if response.url.endswith("/state"):
            states.append(await response.text())

    page.on("response", keep)
    await page.add_init_script(RECORD_EVENTS)
    await page.goto(club.bot.web.url + path)
    await page.wait_for_url(f"**/board/screen/{club.guild.id}")
    assert "/p/" not in page.url
    await page.locator("#screen[data-version]").wait_for()
    return Screen(page, errors, states)


async def test_a_member_is_refused_the_screen_and_without_web_pages_there_is_none(
    club: Club,
) -> None:
    await club.start()
    ix = await club.dc.slash(club.moderator, club.channel, "club screen")
    await ix.wait_done()
    answer = ix.followups[-1] if ix.followups else ix.answer
    assert answer.ephemeral and "web pages are off" in answer.content
    assert not (answer.components or [])
    await club.stop()
    await club.start(web_port=0, web_base_url=BASE)
    ix = await club.dc.slash(club.members["alice"], club.channel, "club screen")
    await ix.wait_done()
    answer = ix.followups[-1] if ix.followups else ix.answer
    assert answer.ephemeral and "Only the club's moderators" in answer.content
    assert not (answer.components or [])


def _round(club: Club) -> tuple[int, datetime]:
    with sqlite3.connect(club.db_path) as db:
        round_id, ends_at = db.execute("select id, ends_at from boggle_rounds").fetchone()
    ends = datetime.fromisoformat(ends_at)
    return int(round_id), ends if ends.tzinfo else ends.replace(tzinfo=UTC)


async def test_a_boggle_round_appears_on_the_open_screen_with_its_countdown_then_its_results(
    club: Club, boggle_words: Any, projector: Any
) -> None:
    dc, clock, channel = club.dc, club.clock, club.channel
    alice, bob = club.members["alice"], club.members["bob"]
    port = free_port()
    await club.start(web_port=port, web_base_url=BASE)
    screen = await open_screen(club, projector)
    page = screen.page
    await screen.panel("idle")
    assert await page.locator("h1").first.inner_text() == "Library Games Club"
    await page.evaluate("window.__sameDocument = true")  # a reload would drop this
    await screen.readable("screen-idle")

    # The bot restarts (a deploy): the screen shows its mark while the server is away,
    # and comes back by itself.
    before_stop = len(screen.errors)
    await club.stop()
    await page.locator("#connection.lost").wait_for(timeout=WAIT_MS)
    assert await page.locator("#connection").inner_text() == "Reconnecting…"
    _save("screen-reconnecting.png", await page.screenshot())
    await club.start(web_port=port, web_base_url=BASE)
    await page.locator("#connection.lost").wait_for(state="hidden", timeout=WAIT_MS)
    # Chromium logs each try made while the server was away; nothing else may be logged.
    during = screen.errors[before_stop:]
    assert all("ERR_CONNECTION_REFUSED" in e for e in during), during
    del screen.errors[before_stop:]

    ix = await dc.slash(club.moderator, channel, "boggle start", duration="3m")
    await ix.wait_done()
    await wait_said(club, channel, r"Word Boggle — round #1\*\*")
    await screen.panel("boggle")
    assert await page.locator("h1").inner_text() == "Word Boggle — round 1"
    cells = await page.locator(".cell").all_inner_texts()
    assert cells[:4] == ["I", "T", "V", "A"] and len(cells) == 16
    countdown = page.locator("#boggle-left")
    first = await countdown.inner_text()
    assert re.fullmatch(r"[23]:\d\d", first), first
    await page.wait_for_function(
        "(first) => document.getElementById('boggle-left').textContent !== first",
        arg=first,
        timeout=WAIT_MS,
    )  # ticking on the page, from the server's end time
    await screen.readable("screen-boggle")

    await dc.dm(alice, "toucan canoe tonic", at=clock.now)
    await wait_said(club, alice, r"your list for round #1")
    await dc.dm(bob, "canoe envoy", at=clock.now)
    await wait_said(club, bob, r"your list for round #1")
    shown = await page.content()
    assert "TOUCAN" not in shown.upper() and "ENVOY" not in shown.upper()  # lists are private

    _round_id, ends_at = _round(club)
    clock.now = ends_at + boggle_service.CLOSE_GRACE
    await club.tick()
    await club.tick()
    await wait_said(club, channel, r"round #1 results")
    await screen.panel("boggle_result")
    text = await screen.text()
    assert "Results" in text and "Best words nobody found" in text
    assert re.search(r"1\s+alice\s+5 points", text), text  # toucan 3 + tonic 2
    await screen.readable("screen-boggle-results")

    # A while later, with nothing else on, the club's own screen: its leaderboard.
    clock.now += RECENT + timedelta(minutes=1)
    await screen.panel("idle")
    text = await screen.text()
    assert "Leaderboard" in text and re.search(r"1\s+alice", text), text
    await screen.readable("screen-idle-leaderboard")
    assert await page.evaluate("window.__sameDocument === true")  # never reloaded
    assert all(re.fullmatch(r"\d+", data) for data in await screen.pushed() if data)
    assert screen.errors == [], screen.errors
    await page.close()


async def test_a_boggle_round_in_the_room_shows_the_time_to_type_after_its_countdown(
    club: Club, boggle_words: Any, projector: Any
) -> None:
    """Issue #29: a round played in the room, on paper: its grid and countdown, then
    "Type your words now" with the time left to type the lists, then the results."""
    dc, clock, channel = club.dc, club.clock, club.channel
    await club.start(web_port=free_port(), web_base_url=BASE)
    screen = await open_screen(club, projector)
    page = screen.page
    ix = await dc.slash(club.moderator, channel, "boggle start", duration="3m", where="room")
    await ix.wait_done()
    await wait_said(club, channel, r"Word Boggle — round #1\*\*")
    await screen.panel("boggle")
    assert "Write your words on paper" in await screen.text()
    assert re.fullmatch(r"[23]:\d\d", await page.locator("#boggle-left").inner_text())

    clock.now += timedelta(minutes=3)  # pens down
    await club.tick()
    await wait_said(club, channel, r"Round #1: pens down!")
    await page.get_by_text("Type your words now").wait_for(timeout=WAIT_MS)
    text = await screen.text()
    assert "Time left to type" in text and "Word Boggle — round 1" in text
    assert re.fullmatch(r"[12]:\d\d", await page.locator("#boggle-left").inner_text())
    await screen.readable("screen-boggle-typing")

    _round_id, ends_at = _round(club)
    clock.now = ends_at + boggle_service.CLOSE_GRACE
    await club.tick()
    await club.tick()
    await screen.panel("boggle_result")
    assert screen.errors == [], screen.errors
    await page.close()


async def test_a_henyo_round_shows_its_clock_and_penalties_and_never_its_secret(
    club: Club, projector: Any
) -> None:
    await club.start(web_port=0, web_base_url=BASE)
    h = Henyo(club)
    screen = await open_screen(club, projector)
    page = screen.page
    await h.slash(h.host, "henyo event open")
    for guesser, answerer in (("alice", "bob"), ("carol", "dave")):
        await h.slash(h[guesser], "henyo register", partner=h[answerer])

    announcement, secret, _round_id = await h.start_round(h["bob"])
    await screen.panel("henyo")
    text = await screen.text()
    assert "alice guesses · bob answers" in text and "0 penalties (+0 s)" in text
    clock = page.locator("#henyo-time")
    first = await clock.inner_text()
    await page.wait_for_function(
        "(first) => document.getElementById('henyo-time').textContent !== first",
        arg=first,
        timeout=WAIT_MS,
    )  # the running time ticks on the page
    await h.say(h["bob"], "siguro", announcement, 5.0)
    await h.posted("Penalty")
    await page.get_by_text("1 penalty (+5 s)").wait_for(timeout=WAIT_MS)
    await h.say(h["bob"], "ewan ko", announcement, 8.0)
    await page.get_by_text("2 penalties (+10 s)").wait_for(timeout=WAIT_MS)
    await screen.readable("screen-henyo")
    for shown in (await page.content(), *screen.states, *await screen.pushed()):
        assert not shows_secret(shown, secret)  # the tests' one leak check (whole words)

    await h.say(h["alice"], secret, announcement, 30.0)
    await h.posted("guessed it")
    await screen.panel("henyo_result")
    text = await screen.text()
    assert "Guessed! Final time 40.0 s" in text  # 30 s + two penalties
    assert "Standings" in text and re.search(r"1\s+alice & bob\s+40.0 s", text), text
    await screen.readable("screen-henyo-result")
    assert screen.errors == [], screen.errors
    await page.close()


async def test_a_club_session_shows_every_board_its_turns_and_clocks(
    big_club: Club, projector: Any
) -> None:
    club = big_club
    dc = club.dc
    await club.start(web_port=0, web_base_url=BASE)
    screen = await open_screen(club, projector)
    page = screen.page
    opened = await dc.slash(club.moderator, club.channel, "scrabble session open", length="70m")
    card = opened.original
    signup = next(c for c in card.custom_ids if c.startswith("session:signup"))
    for member in club.members.values():
        await dc.click(member, card, signup)
    await dc.slash(club.moderator, club.channel, "scrabble session start")  # the boards formed
    await screen.panel("session")
    started = await dc.slash(club.moderator, club.channel, "scrabble session start")
    assert "boards are opening" in started.answer.content
    await page.locator("#session-left").wait_for(timeout=WAIT_MS)
    await page.locator(".board .turn").nth(1).wait_for(timeout=WAIT_MS)
    boards = page.locator(".board")
    assert await boards.count() == 2
    pairs = 0
    for index in range(2):
        board = boards.nth(index)
        assert await board.locator("h2").inner_text() == f"Board {index + 1}"
        seats = await board.locator("li").all_inner_texts()
        assert len(seats) >= 2 and all(re.search(r" & .*: 0$", s) for s in seats), seats
        pairs += len(seats)
        turn = await board.locator(".turn").inner_text()
        assert re.fullmatch(r"To play: .+ & .+ [0-3]:\d\d", turn), turn
    assert pairs == 6  # the twelve members, in pairs
    left = await page.locator("#session-left").inner_text()
    assert re.fullmatch(r"(69|70):\d\d", left), left
    await screen.readable("screen-session")
    assert screen.errors == [], screen.errors
    await page.close()
