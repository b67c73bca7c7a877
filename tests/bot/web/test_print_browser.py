"""The printed pages (issue #29) in Debian's Chromium: reached from the tournament's and
the session's pages by their "Print" links, printed to PDF on A4 and on Letter (the
page's own size, one page a score sheet, the pairings and the slips on one page), and,
in the print media at the A4 page's printable width, with no tools, black on white,
and every name whole. Screenshots of each printed page are saved with the web page's
(``$CLUBBOT_TEST_ARTIFACTS/web``, ``print-*.png``; the PDFs beside them)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.db.models_sessions import ClubSessionRecord, SessionBoardRecord
from bot.services import signups
from bot.services.club import ClubService
from tests.bot.services.scrabble_support import GUILD
from tests.bot.web.conftest import CLUB_NAME, World
from tests.bot.web.test_events import _event
from tests.bot.web.test_print import formed_session, room_swiss
from tests.e2e.test_web_browser import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, HAVE_CHROMIUM

pytestmark = pytest.mark.skipif(not HAVE_CHROMIUM, reason=f"Chromium not found at {CHROMIUM}")
# PDF points (1/72 in) of each paper, and its printable area in CSS pixels (96 a
# inch) inside the margins of static/paper-*.css (12 mm; half an inch).
POINTS = {"a4": (595, 842), "letter": (612, 792)}
PRINTABLE = {"a4": {"width": 703, "height": 1032}, "letter": {"width": 720, "height": 960}}
THREE_BOARDS = [
    [[31, 32], [33, 34]],
    [[35, 36], [37, 38], [39, 40], [41, 42]],
    [[43, 44], [45, 46], [47, 48]],
]


@pytest.fixture
def backend() -> str:
    """One database is enough for a browser's look at the pages (the reads are
    tested on both in test_print.py)."""
    return "sqlite"


@pytest.fixture
async def chromium() -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        context = await browser.new_context(viewport={"width": 1100, "height": 900})
        try:
            yield context
        finally:
            await context.close()
            await browser.close()


def pdf_pages(data: bytes) -> list[tuple[float, float]]:
    """Each page's size in points, from the PDF's page objects (Chromium writes each
    page's dictionary uncompressed: ``/Type /Page`` with its ``/MediaBox``)."""
    assert data.startswith(b"%PDF-")
    pages = []
    for match in re.finditer(rb"\d+ 0 obj\s*<<(.*?)endobj", data, re.S):
        head = match[1].split(b"stream", 1)[0]
        if not re.search(rb"/Type\s*/Page(?![s\w])", head):
            continue
        box = re.search(rb"/MediaBox\s*\[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", head)
        assert box is not None, "a page without its size"
        pages.append((float(box[3]) - float(box[1]), float(box[4]) - float(box[2])))
    count = re.search(rb"/Type\s*/Pages\s*/Count\s+(\d+)", data)
    assert count is not None and int(count[1]) == len(pages)
    return pages


async def printed(page: Any, paper: str, name: str) -> list[tuple[float, float]]:
    """The page printed to PDF on its own paper size (saved as ``print-<name>.pdf``):
    its pages' sizes, each checked to be the paper's."""
    data = await page.pdf(prefer_css_page_size=True, print_background=False)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"print-{name}.pdf").write_bytes(data)
    pages = pdf_pages(data)
    for width, height in pages:
        assert (round(width), round(height)) == POINTS[paper], (name, width, height)
    return pages


async def as_printed(page: Any, paper: str, name: str) -> None:
    """The print media at the paper's printable area: no tools, black on white, every
    name whole inside its box and the page; a screenshot of it (``print-<name>.png``)."""
    await page.emulate_media(media="print")
    await page.set_viewport_size(PRINTABLE[paper])
    assert not await page.get_by_role("button", name="Print").is_visible()
    assert not await page.locator(".print-tools").is_visible()
    colours = await page.evaluate(
        "() => [getComputedStyle(document.body).color, getComputedStyle(document.body).backgroundColor]"
    )
    assert colours == ["rgb(0, 0, 0)", "rgb(255, 255, 255)"]
    cut = await page.evaluate(
        """(width) => [...document.querySelectorAll('.name')].filter((el) => {
            const box = el.getBoundingClientRect();
            return el.scrollWidth > el.clientWidth + 1 || box.right > width + 0.5 || box.left < 0;
        }).map((el) => el.textContent)""",
        PRINTABLE[paper]["width"],
    )
    assert cut == [], f"names cut or off the page: {cut}"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(ARTIFACTS / f"print-{name}.png"), full_page=True)


async def test_a_round_s_pairings_slips_and_standings_print_on_a4_and_letter(
    world: World, chromium: Any
) -> None:
    tid = await room_swiss(world)
    page = await chromium.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    await page.goto(str(world.client.make_url(f"{world.base}tournaments/{tid}")))
    await page.get_by_role("link", name="the pairings").click()
    await page.wait_for_url(f"**/tournaments/{tid}/print/pairings")
    await page.get_by_role("button", name="Print").wait_for()  # print.js showed it
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(ARTIFACTS / "print-pairings-screen.png"))  # its tools
    assert await page.get_by_role("heading", name="Round 2 of 3").count() == 1
    assert len(await printed(page, "a4", "pairings-a4")) == 1
    await page.get_by_role("link", name="Letter").click()
    await page.wait_for_url("**paper=letter")
    assert len(await printed(page, "letter", "pairings-letter")) == 1
    await page.get_by_role("link", name="1", exact=True).click()  # round 1, on Letter still
    await page.wait_for_url(re.compile(r"round=1"))
    assert "paper=letter" in page.url and await page.get_by_text("½–½").count() == 1
    await page.get_by_role("link", name="2", exact=True).click()
    await as_printed(page, "letter", "pairings")

    slips = await chromium.new_page()
    await slips.goto(str(world.client.make_url(f"{world.base}tournaments/{tid}")))
    await slips.get_by_role("link", name="result slips").click()
    await slips.wait_for_url("**/print/slips")
    assert await slips.locator("article.slip").count() == 4
    assert len(await printed(slips, "a4", "slips-a4")) == 1
    await as_printed(slips, "a4", "slips")

    standings = await chromium.new_page()
    await standings.goto(str(world.client.make_url(f"{world.base}tournaments/{tid}")))
    await standings.get_by_role("link", name="the standings").click()
    await standings.wait_for_url("**/print/standings")
    await standings.get_by_role("heading", name="Standings after round 1").wait_for()
    assert len(await printed(standings, "a4", "standings-a4")) == 1
    await as_printed(standings, "a4", "standings")
    assert errors == []


async def test_a_session_s_score_sheets_print_one_a_page_on_a4_and_letter(
    world: World, chromium: Any
) -> None:
    sid = await formed_session(world, THREE_BOARDS)
    page = await chromium.new_page()
    await page.goto(str(world.client.make_url(f"{world.base}sessions/{sid}")))
    await page.get_by_role("link", name="score sheets").click()
    await page.wait_for_url(f"**/sessions/{sid}/print/scoresheets")
    sheets = page.locator("article.scoresheet")
    assert await sheets.count() == 3
    # Each sheet after the first starts a page, and each fits on its page: three
    # sheets, three pages, on either paper.
    breaks = await page.evaluate(
        """() => { const before = matchMedia; return [...document.querySelectorAll('article.scoresheet')]
            .map((el) => getComputedStyle(el).breakBefore); }"""
    )
    assert breaks[0] != "page"
    await page.emulate_media(media="print")
    breaks = await page.evaluate(
        """() => [...document.querySelectorAll('article.scoresheet')]
            .map((el) => getComputedStyle(el).breakBefore)"""
    )
    assert breaks == ["auto", "page", "page"]
    await page.emulate_media(media="screen")
    assert len(await printed(page, "a4", "scoresheets-a4")) == 3
    await page.get_by_role("link", name="Letter").click()
    await page.wait_for_url("**paper=letter")
    assert len(await printed(page, "letter", "scoresheets-letter")) == 3
    await page.get_by_role("link", name="A4").click()
    await page.wait_for_url("**paper=a4")
    await as_printed(page, "a4", "scoresheets")
    for number in range(3):  # each sheet as its own page would look
        await sheets.nth(number).screenshot(
            path=str(ARTIFACTS / f"print-scoresheet-{number + 1}.png")
        )
    headers = await page.get_by_role("columnheader").all_inner_texts()
    for column in ("Turn", "Word", "Position", "Score", "Running total"):
        assert column in headers

    # In Filipino the headings are longer: still whole, still a page a sheet.
    await ClubService(world.ctx).setup(GUILD, CLUB_NAME, language="fil")
    await page.emulate_media(media="screen")
    await page.reload()
    assert len(await printed(page, "a4", "scoresheets-fil-a4")) == 3
    await as_printed(page, "a4", "scoresheets-fil")
    await ClubService(world.ctx).setup(GUILD, CLUB_NAME, language="en")

    results = await chromium.new_page()
    await results.goto(str(world.client.make_url(f"{world.base}sessions/{sid}")))
    await results.get_by_role("link", name="the results").click()
    await results.wait_for_url("**/print/results")
    assert len(await printed(results, "a4", "session-results-a4")) == 1
    await as_printed(results, "a4", "session-results")


async def test_a_games_event_s_results_print(world: World, chromium: Any) -> None:
    _service, event_id = await _event(world)
    page = await chromium.new_page()
    await page.goto(str(world.client.make_url(f"{world.base}events/{event_id}")))
    await page.get_by_role("link", name="the results").click()
    await page.wait_for_url(f"**/events/{event_id}/print")
    assert len(await printed(page, "a4", "event-a4")) == 1
    await as_printed(page, "a4", "event")


async def test_a_session_s_results_print_its_ranking_across_the_boards(
    world: World, chromium: Any
) -> None:
    """A session under way: its pairs ranked across the boards, on one page."""
    async with world.ctx.uow() as uow:
        row = ClubSessionRecord(
            guild_id=GUILD,
            channel_id=21,
            moderator_id=5,
            status="started",
            groups=[[[1], [2]], [[1], [2]]],
        )
        uow.session.add(row)
        await uow.session.flush()
        await signups.open_list(
            uow, guild_id=GUILD, owner_kind="session", owner_id=row.id, now=world.ctx.clock()
        )
        for number, game in ((1, world.scrabble_live), (2, world.scrabble_done)):
            uow.session.add(SessionBoardRecord(session_id=row.id, number=number, game_id=game))
        sid = row.id
        await uow.commit()
    page = await chromium.new_page()
    await page.goto(str(world.client.make_url(f"{world.base}sessions/{sid}/print/results")))
    await page.get_by_role("heading", name="Across the boards, as it stands").wait_for()
    assert await page.locator("table.standings tbody tr").count() == 4
    assert len(await printed(page, "a4", "session-ranking-a4")) == 1
    await as_printed(page, "a4", "session-ranking")
