"""The club's page speaks the club's language (``/club setup language:``): its
``<html lang>``, its headings and its error pages, set per request from the club
the address belongs to, and nothing of one club's language left for the next."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from bot.messages import catalogue, i18n
from bot.services.club import ClubService
from tests.bot.services.scrabble_support import GUILD
from tests.bot.web.conftest import CLUB_NAME, World

PSEUDO = catalogue.PSEUDO


@pytest.fixture(scope="module")
def pseudo() -> Iterator[str]:
    i18n.install(PSEUDO, catalogue.compiled(catalogue.pseudo_catalogue(catalogue.extract())))
    try:
        yield PSEUDO
    finally:
        i18n.uninstall(PSEUDO)


async def _speak(world: World, code: str) -> None:
    await ClubService(world.ctx).setup(GUILD, CLUB_NAME, language=code)


async def _html(world: World, path: str, status: int = 200) -> str:
    response = await world.get(path)
    assert response.status == status, path
    return str(await response.text())


def _headings(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<h2[^>]*>(.*?)</h2>", html)]


async def test_a_filipino_club_s_page_is_served_in_filipino(world: World) -> None:
    assert 'lang="en"' in await _html(world, world.base)
    await _speak(world, "fil")
    html = await _html(world, world.base)
    assert '<html lang="fil">' in html
    fil = i18n.translations("fil")
    everything = fil.gettext("All games")
    assert everything != "All games" and everything in html  # the leaderboard's title
    for heading in ("Live games", "Finished games"):
        assert f">{fil.gettext(heading)}</h2>" in html
    game = await _html(world, f"{world.base}games/{world.chess_done}")
    assert '<html lang="fil">' in game


async def test_every_heading_of_the_club_s_pages_goes_through_the_catalogue(
    world: World, pseudo: str
) -> None:
    await _speak(world, pseudo)
    home = await _html(world, world.base)
    headings = _headings(home)
    assert len(headings) >= 4, headings
    for heading in headings:
        assert catalogue.undecorated(heading).strip(" :") == "", heading
    assert "⟦Live games⟧" in home and "⟦Skip to the content⟧" in home
    for path in (f"games/{world.scrabble_done}?step=2", f"games/{world.chess_live}"):
        page = await _html(world, world.base + path)
        for heading in _headings(page):
            assert catalogue.undecorated(heading).strip() == "", (path, heading)
    missing = await _html(world, f"{world.base}games/999999", 404)
    assert "⟦Not found⟧" in missing  # a known club's error page is in its language too


async def test_the_language_is_each_request_s_own(world: World, pseudo: str) -> None:
    await _speak(world, pseudo)
    assert "⟦Live games⟧" in await _html(world, world.base)
    # The same connection, then an address of no club: English again.
    nowhere = await _html(world, "/c/" + "x" * 32 + "/", 404)
    assert "⟦" not in nowhere and "Not found" in nowhere and 'lang="en"' in nowhere
    assert "⟦" not in await _html(world, "/healthz")
