"""/club setup's time zone through the loopback Discord: a typo gets the closest
zones privately, and the zones work on a machine with no zone files of its own."""

from __future__ import annotations

import zoneinfo
from collections.abc import Iterator

import pytest

from bot.services.club import reload_timezones


@pytest.fixture
def only_the_tzdata_package() -> Iterator[None]:
    """zoneinfo as on Windows or a slim container: no system zone files, only tzdata."""
    zoneinfo.reset_tzpath([])
    zoneinfo.ZoneInfo.clear_cache()
    reload_timezones()
    try:
        yield
    finally:
        zoneinfo.reset_tzpath()
        zoneinfo.ZoneInfo.clear_cache()
        reload_timezones()


async def test_a_mistyped_zone_gets_the_closest_zones_privately_and_changes_nothing(
    club,
) -> None:
    await club.start()
    ix = await club.dc.slash(club.moderator, club.channel, "club setup", timezone="Asia/Manilla")
    assert ix.answer.ephemeral
    assert "`Asia/Manila`" in ix.answer.content
    settings = await club.bot.get_cog("ClubCog").service.get(club.guild.id)
    assert settings.timezone == "UTC"


async def test_the_city_alone_is_answered_with_its_zone(club) -> None:
    await club.start()
    ix = await club.dc.slash(club.moderator, club.channel, "club setup", timezone="manila")
    assert ix.answer.ephemeral and "`Asia/Manila`" in ix.answer.content
    choices = await club.dc.autocomplete(
        club.moderator, club.channel, "club setup", focused="timezone", timezone="manila"
    )
    assert [c["value"] for c in choices] == ["Asia/Manila"]


async def test_setup_works_with_only_the_tzdata_package(club, only_the_tzdata_package) -> None:
    assert zoneinfo.TZPATH == ()
    await club.start()
    choices = await club.dc.autocomplete(
        club.moderator, club.channel, "club setup", focused="timezone", timezone="asia/man"
    )
    assert "Asia/Manila" in [c["value"] for c in choices]
    ix = await club.dc.slash(club.moderator, club.channel, "club setup", timezone="asia/manila")
    assert ix.answer.ephemeral and "`Asia/Manila`" in ix.answer.content
    settings = await club.bot.get_cog("ClubCog").service.get(club.guild.id)
    assert settings.timezone == "Asia/Manila"
