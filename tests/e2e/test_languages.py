"""A club's language through the loopback Discord: ``/club setup language:`` is
the club's choice (Discord has no Filipino locale), kept across restarts, and
another club's bot answers in English."""

from __future__ import annotations


async def test_a_club_that_chooses_filipino_is_answered_in_filipino_after_a_restart(club) -> None:
    await club.start()
    ix = await club.dc.slash(club.moderator, club.channel, "club setup", language="fil")
    assert ix.response.ephemeral
    assert "**Settings ng club**" in ix.response.content
    assert "Wika: Filipino" in ix.response.content
    settings = await club.bot.get_cog("ClubCog").service.get(club.guild.id)
    assert settings.language == "fil"

    await club.restart()
    ix = await club.dc.slash(club.moderator, club.channel, "club setup", timezone="Asia/Manilla")
    assert ix.response.content.startswith("Hindi ko kilala ang time zone na `Asia/Manilla`.")

    ix = await club.dc.slash(club.moderator, club.channel, "club setup", language="en")
    assert "Language: English" in ix.response.content
    ix = await club.dc.slash(club.moderator, club.channel, "club setup", timezone="Asia/Manilla")
    assert ix.response.content.startswith("I don't know the time zone `Asia/Manilla`.")


async def test_the_language_is_a_choice_of_the_languages_with_a_catalogue(club) -> None:
    await club.start()
    setup = club.dc.find_command("club", club.guild.id)
    options = next(o for o in setup["options"] if o["name"] == "setup")["options"]
    language = next(o for o in options if o["name"] == "language")
    assert [(c["name"], c["value"]) for c in language["choices"]] == [
        ("English", "en"),
        ("Filipino", "fil"),
    ]
