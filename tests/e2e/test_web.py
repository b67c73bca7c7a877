"""The club web page through the loopback Discord: ``/club web`` turns it on, off
and to a new address (moderators only), the real bot serves it beside the gateway,
and ``/healthz`` and ``/metrics`` report on the running bot."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import aiohttp
import pytest

from bot.messages import i18n
from tests.e2e.club import Club
from tests.e2e.languages import PSEUDO, install_pseudo, speak, undecorated_texts
from tests.e2e.test_scrabble import reply_text

PATH = re.compile(r"(?:https?://\S+?)?(/c/[A-Za-z0-9_-]+/)")


async def web(club: Club, user: Any, action: str) -> str:
    ix = await club.dc.slash(user, club.channel, "club web", action=action)
    text = await reply_text(ix)
    assert ix.answer.ephemeral, text
    return text


def page_path(text: str) -> str:
    match = PATH.search(text)
    assert match, text
    return match.group(1)


async def get(club: Club, path: str) -> tuple[int, str]:
    assert club.bot is not None and club.bot.web is not None
    async with aiohttp.ClientSession() as http, http.get(club.bot.web.url + path) as response:
        return response.status, await response.text()


async def test_a_moderator_turns_the_page_on_rotates_it_and_turns_it_off(club: Club) -> None:
    await club.start(web_port=0, web_base_url="https://games.example.org")
    alice = club.members["alice"]
    refused = await web(club, alice, "on")
    assert "moderator" in refused.lower() and "/c/" not in refused

    on = await web(club, club.moderator, "on")
    assert "https://games.example.org/c/" in on
    first = page_path(on)
    status, html = await get(club, first)
    assert status == 200 and "Library Games Club" in html
    assert page_path(await web(club, club.moderator, "on")) == first  # on again: same address

    rotated = await web(club, club.moderator, "rotate")
    second = page_path(rotated)
    assert second != first and "new address" in rotated
    assert (await get(club, first))[0] == 404
    assert (await get(club, second))[0] == 200

    off = await web(club, club.moderator, "off")
    assert "off" in off and "/c/" not in off
    assert (await get(club, second))[0] == 404
    assert "already off" in await web(club, club.moderator, "off")


async def test_healthz_and_metrics_report_on_the_running_bot(club: Club) -> None:
    await club.start(web_port=0)
    await web(club, club.moderator, "on")
    status, body = await get(club, "/healthz")
    assert status == 200 and '"gateway": "connected"' in body and '"database": "ok"' in body
    _, metrics = await get(club, "/metrics")
    assert 'clubbot_commands_total{command="club web",outcome="ok"} 1.0' in metrics
    assert 'clubbot_command_seconds_count{command="club web"} 1.0' in metrics
    assert "clubbot_outbox_backlog 0.0" in metrics
    await club.dc.slash(club.members["alice"], club.channel, "club web", action="on")
    _, metrics = await get(club, "/metrics")
    assert 'clubbot_commands_total{command="club web",outcome="error"} 1.0' in metrics


async def test_without_web_port_no_page_is_served_and_the_command_says_so(club: Club) -> None:
    await club.start()
    assert club.bot is not None and club.bot.web is None
    text = await web(club, club.moderator, "on")
    assert "/c/" in text and "WEB_PORT" in text


async def test_a_club_in_another_language_gets_its_replies_and_its_page_in_it(club: Club) -> None:
    install_pseudo()
    try:
        await club.start(web_port=0)
        await speak(club, PSEUDO)
        alice = club.members["alice"]
        await club.dc.slash(alice, club.channel, "club web", action="on")  # refused
        path = page_path(await web(club, club.moderator, "on"))
        await web(club, club.moderator, "rotate")
        await web(club, club.moderator, "off")
        await web(club, club.moderator, "off")
        # The replies (and the refusal) through the catalogue: only the address is not.
        assert undecorated_texts(club.dc, allowed=["WEB_BASE_URL", "WEB_PORT"]) == []
        path = page_path(await web(club, club.moderator, "on"))
        status, html = await get(club, path)
        assert status == 200 and "⟦Live games⟧" in html and "⟦Skip to the content⟧" in html
        status, html = await get(club, path + "games/12345")
        assert status == 404 and "⟦Not found⟧" in html
    finally:
        i18n.uninstall(PSEUDO)


@pytest.mark.clock(datetime(2026, 12, 6, 11, 5, tzinfo=UTC))
async def test_the_page_shows_its_times_in_the_clubs_time_zone(club: Club) -> None:
    """The club's times are read in its zone (``/club setup timezone:``), named;
    UTC while it has set none."""
    await club.start(web_port=0)
    path = page_path(await web(club, club.moderator, "on"))
    opened = await club.dc.slash(club.moderator, club.channel, "henyo event open")
    assert not opened.answer.ephemeral
    status, html = await get(club, path)
    assert status == 200 and "Times are in UTC." in html
    event = re.search(r'henyo/\d+">.*?</li>', html)
    assert event and "Dec 6, 2026, 11:05\u202fAM UTC" in event.group(0), html

    setup = await club.dc.slash(club.moderator, club.channel, "club setup", timezone="Asia/Manila")
    assert "Asia/Manila" in await reply_text(setup)
    status, html = await get(club, path)
    event = re.search(r'henyo/\d+">.*?</li>', html)
    assert event and "Dec 6, 2026, 7:05\u202fPM GMT+08:00" in event.group(0), html
    assert "Times are in the club&#39;s time zone, Asia/Manila." in html
    assert "UTC" not in html
