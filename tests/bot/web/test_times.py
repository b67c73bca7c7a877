"""The club's page shows its times in the club's time zone (``/club setup
timezone:``), naming the zone, and in UTC for a club that has set none; the
zone is each request's own, like its language."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from bot.messages.i18n import use_language
from bot.messages.web import local_time, times_note
from bot.services.club import ClubService
from bot.services.henyo import HenyoService, Member
from bot.services.web import WebService
from tests.bot.services.scrabble_support import GUILD
from tests.bot.web.conftest import CLUB_NAME, World

NOW = datetime(2026, 12, 6, 11, 5, tzinfo=UTC)
pytestmark = pytest.mark.clock(NOW)
MANILA = ZoneInfo("Asia/Manila")
HENYO_CHANNEL = 77


async def _home(world: World, path: str | None = None, status: int = 200) -> str:
    response = await world.get(path or world.base)
    assert response.status == status
    return str(await response.text())


async def _henyo_event(world: World) -> int:
    """A Henyo event opened now (the test's clock): its line on the page carries its time."""
    event = await HenyoService(world.ctx).events.open(
        guild_id=GUILD, guild_name=CLUB_NAME, channel_id=HENYO_CHANNEL, host=Member(9, "host")
    )
    return event.id


def _event_line(html: str, event_id: int) -> str:
    line = re.search(rf'henyo/{event_id}">.*?</li>', html)
    assert line, html
    return line.group(0)


def _times(html: str) -> list[str]:
    """Every time the page shows (each ends in its zone)."""
    return re.findall(
        r"[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\W[AP]M (?:UTC|GMT[+-]\d\d:\d\d)", html
    )


def test_a_time_is_written_in_the_zone_with_its_offset() -> None:
    assert local_time(NOW, MANILA) == "Dec 6, 2026, 7:05\u202fPM GMT+08:00"
    assert local_time(NOW, ZoneInfo("UTC")) == "Dec 6, 2026, 11:05\u202fAM UTC"
    # The offset of that day: New York is 5 hours behind in December, 4 in July.
    assert local_time(NOW, ZoneInfo("America/New_York")).endswith("6:05\u202fAM GMT-05:00")
    july = datetime(2026, 7, 1, 3, 30, tzinfo=UTC)
    assert local_time(july, ZoneInfo("America/New_York")) == "Jun 30, 2026, 11:30\u202fPM GMT-04:00"
    with use_language("fil"):
        assert local_time(NOW, MANILA) == "Dis 6, 2026, 7:05\u202fPM GMT+08:00"
    assert times_note(MANILA) == "Times are in the club's time zone, Asia/Manila."
    assert times_note(ZoneInfo("UTC")) == "Times are in UTC."


async def test_the_page_knows_the_clubs_zone_and_defaults_to_utc(world: World) -> None:
    token = world.base.strip("/").split("/")[-1]
    club = await WebService(world.ctx).club_for(token)
    assert club is not None and club.zone.key == "UTC"
    await ClubService(world.ctx).setup(GUILD, CLUB_NAME, timezone="Asia/Manila")
    club = await WebService(world.ctx).club_for(token)
    # By name: a ZoneInfo is equal only to itself, and a test run earlier in this
    # process may have emptied zoneinfo's cache (the tzdata-only start does).
    assert club is not None and (club.guild_id, club.zone.key) == (GUILD, "Asia/Manila")


async def test_a_club_without_a_zone_reads_its_times_in_utc(world: World) -> None:
    event_id = await _henyo_event(world)
    html = await _home(world)
    assert "Dec 6, 2026, 11:05\u202fAM UTC" in _event_line(html, event_id)
    assert "Times are in UTC." in html
    times = _times(html)
    assert len(times) == 3 and all(t.endswith(" UTC") for t in times), times


async def test_a_club_in_manila_reads_its_times_eight_hours_on_with_the_zone(
    world: World,
) -> None:
    event_id = await _henyo_event(world)
    await ClubService(world.ctx).setup(GUILD, CLUB_NAME, timezone="Asia/Manila")
    html = await _home(world)
    assert "Dec 6, 2026, 7:05\u202fPM GMT+08:00" in _event_line(html, event_id)
    assert "Times are in the club&#39;s time zone, Asia/Manila." in html
    times = _times(html)
    assert len(times) == 3  # the two finished games and the event
    assert all(t.endswith(" GMT+08:00") for t in times), times
    assert "UTC" not in html


async def test_the_zone_is_each_requests_own(world: World) -> None:
    await ClubService(world.ctx).setup(GUILD, CLUB_NAME, timezone="Asia/Manila")
    assert "Asia/Manila" in await _home(world)
    # The same connection, then an address of no club: UTC again.
    nowhere = await _home(world, "/c/" + "x" * 32 + "/", 404)
    assert "Times are in UTC." in nowhere and "Asia/Manila" not in nowhere
