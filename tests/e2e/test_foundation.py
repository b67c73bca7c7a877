"""The foundation through the loopback Discord: the real bot, its command sync,
/help, /club setup permissions, the central error handler and restarts."""

from __future__ import annotations

import logging

import pytest

from bot.command_limits import validate_commands


async def test_bot_syncs_a_valid_command_tree_to_the_configured_guild(club) -> None:
    await club.start()
    synced = club.dc.synced_commands(club.guild)
    names = {c["name"] for c in synced}
    assert {"help", "club", "leaderboard", "stats"} <= names
    assert validate_commands(synced) == []


async def test_help_answers_privately_with_every_game(club) -> None:
    await club.start()
    ix = await club.dc.slash(club.members["alice"], club.channel, "help")
    response = ix.response
    assert response.ephemeral
    text = " ".join(
        f"{f['name']} {f['value']}" for e in response.embeds for f in e.get("fields", [])
    )
    for game in ("Scrabble", "Chess", "Word Boggle", "Library Henyo", "Leaderboard"):
        assert game in text
    assert "/scrabble new" in text and "/boggle start" in text
    assert "help:play" in ix.answer.custom_ids and "help:club" in ix.answer.custom_ids

    # The other pages, in the same private reply, by their buttons (after a restart too).
    await club.restart()
    turned = await club.dc.click(club.members["alice"], ix.answer, "help:club")
    await turned.wait_done()
    page = club.dc.messages[ix.answer.id]
    titles = [f["name"] for e in page.embeds for f in e.get("fields", [])]
    assert page.ephemeral and "Tournaments" in titles and "Scrabble" not in titles
    assert page.embeds[0]["title"].endswith("Club nights")
    opened = await club.dc.slash(club.members["alice"], club.channel, "help", page="admin")
    titles = [f["name"] for e in opened.answer.embeds for f in e.get("fields", [])]
    assert titles[0] == "For admins and moderators"


async def test_club_setup_saves_settings_for_admins_and_survives_restart(club) -> None:
    await club.start()
    ix = await club.dc.slash(
        club.moderator,
        club.channel,
        "club setup",
        options={
            "moderator_role": club.mod_role,
            "timezone": "asia/manila",
            "channel": club.channel,
        },
    )
    assert ix.answer.ephemeral
    assert "Asia/Manila" in ix.answer.content
    assert f"<@&{club.mod_role.id}>" in ix.answer.content
    await club.restart()
    service_settings = await club.bot.get_cog("ClubCog").service.get(club.guild.id)
    assert service_settings.timezone == "Asia/Manila"
    assert service_settings.moderator_role_id == club.mod_role.id


async def test_bad_timezone_gets_a_private_error_and_changes_nothing(club) -> None:
    await club.start()
    ix = await club.dc.slash(club.moderator, club.channel, "club setup", timezone="Mars/Olympus")
    assert ix.answer.ephemeral
    assert "time zone" in ix.answer.content
    settings = await club.bot.get_cog("ClubCog").service.get(club.guild.id)
    assert settings.timezone == "UTC"


async def test_members_without_manage_server_cannot_change_club_settings(club) -> None:
    await club.start()
    ix = await club.dc.slash(
        club.members["alice"], club.channel, "club setup", timezone="Europe/London"
    )
    assert ix.answer.ephemeral
    assert "Manage Server" in ix.answer.content
    assert (await club.bot.get_cog("ClubCog").service.get(club.guild.id)).timezone == "UTC"


async def test_unexpected_errors_show_an_id_never_the_exception(
    club, caplog: pytest.LogCaptureFixture, monkeypatch
) -> None:
    await club.start()
    cog = club.bot.get_cog("ClubCog")

    async def broken(*args, **kwargs):
        raise RuntimeError("secret internals: password=hunter2")

    monkeypatch.setattr(cog.service, "setup", broken)
    with caplog.at_level(logging.ERROR, logger="clubbot.errors"):
        ix = await club.dc.slash(club.moderator, club.channel, "club setup", timezone="UTC")
    assert ix.answer.ephemeral
    assert "error id" in ix.answer.content
    assert "hunter2" not in ix.answer.content and "RuntimeError" not in ix.answer.content
    error_id = ix.answer.content.split("`")[1]
    assert any(error_id in r.getMessage() for r in caplog.records)


async def test_nothing_the_bot_posts_can_ping_anyone(club) -> None:
    await club.start()
    await club.dc.slash(club.moderator, club.channel, "club setup", timezone="@everyone")
    await club.dc.slash(club.members["alice"], club.channel, "help")
    assert club.dc.bot_messages()
    assert club.dc.pinging_messages() == []
