"""A club's language through the loopback Discord: ``/club setup language:`` is
the club's choice (Discord has no Filipino locale), kept across restarts, and
another club's bot answers in English."""

from __future__ import annotations


async def test_a_club_that_chooses_filipino_is_answered_in_filipino_after_a_restart(club) -> None:
    await club.start()
    ix = await club.dc.slash(club.moderator, club.channel, "club setup", language="fil")
    assert ix.answer.ephemeral
    assert "**Settings ng club**" in ix.answer.content
    assert "Wika: Filipino" in ix.answer.content
    settings = await club.bot.get_cog("ClubCog").service.get(club.guild.id)
    assert settings.language == "fil"

    await club.restart()
    ix = await club.dc.slash(club.moderator, club.channel, "club setup", timezone="Asia/Manilla")
    assert ix.answer.content.startswith("Hindi ko kilala ang time zone na `Asia/Manilla`.")

    ix = await club.dc.slash(club.moderator, club.channel, "club setup", language="en")
    assert "Language: English" in ix.answer.content
    ix = await club.dc.slash(club.moderator, club.channel, "club setup", timezone="Asia/Manilla")
    assert ix.answer.content.startswith("I don't know the time zone `Asia/Manilla`.")


async def test_the_language_is_a_choice_of_the_languages_with_a_catalogue(club) -> None:
    await club.start()
    setup = club.dc.find_command("club", club.guild.id)
    options = next(o for o in setup["options"] if o["name"] == "setup")["options"]
    language = next(o for o in options if o["name"] == "language")
    assert [(c["name"], c["value"]) for c in language["choices"]] == [
        ("English", "en"),
        ("Filipino", "fil"),
    ]


async def test_a_timer_speaks_the_language_its_club_has_when_it_fires(club) -> None:
    """A round started in English ends after the club switched to Filipino: the
    time-up post (a job) is in Filipino, as the club now is."""
    from tests.e2e.test_henyo_languages import Event

    await club.start()
    e = Event(club)
    await e.slash(e.host, "henyo event open", pairs=1, time_limit="30s")
    await e.slash(e.m["alice"], "henyo register", partner=e.m["bob"])
    _, announcement, _secret, _ = await e.start_round(e.m["bob"])
    assert "The clock is running — go!" in announcement.content
    ix = await club.dc.slash(club.moderator, club.channel, "club setup", language="fil")
    assert "Wika: Filipino" in ix.answer.content
    club.clock.advance(seconds=40)
    await club.tick()
    ended = await e.post(lambda m: m.id > announcement.id and "⌛" in m.content)
    assert ended.content.startswith("⌛ Ubos na ang oras! Hindi ito nahulaan ng **alice & bob**")
