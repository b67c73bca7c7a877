"""Library Henyo as a member meets it (issue #17), through the loopback Discord:
a pair that moves up from the waiting list is told (by DM, or by a mention of
that member only when their DMs are closed), the playing list is numbered
without gaps, closing an event with pairs still to play asks the host first
(and the button still works after a restart), and the word bank takes only
words and short phrases, refusing anything else privately without echoing it.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.test_henyo import embed_text


def list_text(dc: Any, message_id: int) -> str:
    return embed_text(dc.messages[message_id].embeds[0])


def playing_lines(text: str) -> list[str]:
    """The lines of the live list's "Playing" field, numbers and names."""
    field = text.split("Playing (")[1].split("): ", 1)[1].split("Waiting list")[0]
    return [line for line in field.splitlines() if line.strip()]


async def test_a_pair_moving_up_is_told_by_dm_or_a_mention_and_the_list_has_no_gaps(club) -> None:
    await club.start()
    dc = club.dc
    m = club.members
    opened = await dc.slash(club.moderator, club.channel, "henyo event open", pairs=2)
    for guesser, answerer in (("alice", "bob"), ("carol", "dave"), ("erin", "frank")):
        ix = await dc.slash(m[guesser], club.channel, "henyo register", partner=m[answerer])
        assert ix.answer.ephemeral
    assert "on the waiting list (#1)" in ix.answer.content
    assert "you'll both be told" in ix.answer.content
    await dc.wait_until(
        lambda: "Waiting list" in list_text(dc, opened.original.id), what="the waiting list"
    )
    dc.close_dms(m["frank"])
    bots_dms_to_erin = len(dc.dms_to(m["erin"]))

    ix = await dc.slash(m["alice"], club.channel, "henyo withdraw")
    assert ix.answer.ephemeral and "erin & frank move up" in ix.answer.content

    dm = await dc.wait_for_message(channel=m["erin"], predicate=lambda x: "moved up" in x.content)
    assert len(dc.dms_to(m["erin"])) == bots_dms_to_erin + 1
    assert "Your pair **erin & frank** moved up from the waiting list" in dm.content
    assert "you play as pair 2" in dm.content and f"<#{club.channel.id}>" in dm.content
    # Frank's DMs are closed: the channel mentions him, and only him.
    mention = await dc.wait_for_message(
        channel=club.channel, predicate=lambda x: x.content.startswith(f"<@{m['frank'].id}>")
    )
    assert "your pair **erin & frank** moved up" in mention.content
    assert mention.pings == frozenset({f"user:{m['frank'].id}"})
    pings = {p for message in dc.pinging_messages() for p in message.pings}
    assert pings == {f"user:{m['frank'].id}"}

    await dc.wait_until(
        lambda: "Waiting list" not in list_text(dc, opened.original.id), what="the list edit"
    )
    # Numbered 1, 2 in the order pairs play: no gap where alice & bob were.
    assert playing_lines(list_text(dc, opened.original.id)) == [
        "1. carol & dave",
        "2. erin & frank",
    ]
    again = await dc.slash(m["erin"], club.channel, "henyo register", partner=m["alice"])
    assert again.answer.ephemeral and "(pair 2)" in again.answer.content


async def test_closing_with_pairs_to_play_asks_the_host_and_the_button_outlives_a_restart(
    club,
) -> None:
    await club.start()
    dc = club.dc
    m = club.members
    opened = await dc.slash(club.moderator, club.channel, "henyo event open", pairs=3)
    for guesser, answerer in (("alice", "bob"), ("carol", "dave")):
        await dc.slash(m[guesser], club.channel, "henyo register", partner=m[answerer])

    ask = await dc.slash(club.moderator, club.channel, "henyo event close")
    assert ask.answer.ephemeral
    text = ask.answer.content
    assert "is not finished" in text and "2 pairs have not played yet" in text
    assert "1. **alice & bob**" in text and "2. **carol & dave**" in text
    assert "Close it anyway?" in text
    event_id = int(text.split("#")[1].split(" ")[0])
    custom_id = f"henyo:close:{event_id}"
    assert ask.answer.custom_ids == [custom_id]
    # Nothing changed: members still register and the list is still open.
    ix = await dc.slash(m["erin"], club.channel, "henyo register", partner=m["frank"])
    assert "pair 3 — playing" in ix.answer.content
    assert "(registration open)" in list_text(dc, opened.original.id)

    await club.restart()
    # Only the host may press it (a member can't see the host's ephemeral message,
    # but the service checks anyway: see the service tests).
    closed = await dc.click(club.moderator, ask.answer, custom_id)
    # The prompt loses its button and says so; everyone sees the event close.
    await dc.wait_until(lambda: closed.followups, what="the closing post")
    prompt = dc.messages[ask.answer.id]
    assert prompt.custom_ids == [] and f"Event #{event_id} is closed" in prompt.content
    announcement = closed.followups[0]
    assert not announcement.ephemeral
    assert f"Event #{event_id} is over" in announcement.content
    assert "yet to play" in announcement.embeds[0]["description"]
    await dc.wait_until(
        lambda: "(closed)" in list_text(dc, opened.original.id), what="the list to close"
    )
    assert dc.pinging_messages() == []


async def test_an_event_where_every_pair_played_closes_without_asking(club) -> None:
    await club.start()
    dc = club.dc
    await dc.slash(club.moderator, club.channel, "henyo event open")
    closed = await dc.slash(club.moderator, club.channel, "henyo event close")
    assert not closed.answer.ephemeral and "is over" in closed.answer.content


JUNK = [
    "<@&123456789012345678>",
    "@everyone",
    "@here party",
    "abc123",
    "pusa 🐱",
    "https://example.com",
    "kare_kare",
    "a;b",
    "<#123456789012345678>",
    "-'-",
]


async def test_the_word_bank_takes_words_and_short_phrases_and_refuses_the_rest_privately(
    club,
) -> None:
    await club.start()
    dc = club.dc

    async def add(text: str) -> Any:
        return await dc.slash(
            club.moderator,
            club.channel,
            "henyo words add",
            text=text,
            category="Pagkain",
            language="Filipino",
        )

    for text in ("Niño", "Jack 'n' Jill", "ube-keso", "Ñora’s pie", "PANCIT canton"):
        ix = await add(text)
        assert ix.answer.ephemeral and ix.answer.content.startswith("Added **"), text
    for text in JUNK:
        ix = await add(text)
        assert ix.answer.ephemeral, text
        assert "letters only" in ix.answer.content and "Nothing was added" in ix.answer.content
        assert text not in ix.answer.content and "@" not in ix.answer.content
    long = "a" * 61
    ix = await add(long)
    assert ix.answer.ephemeral and "60 characters (that one has 61)" in ix.answer.content
    assert long not in ix.answer.content
    ix = await dc.slash(
        club.moderator, club.channel, "henyo words remove", text="<@&123456789012345678>"
    )
    assert ix.answer.ephemeral and "letters only" in ix.answer.content
    assert "<@&" not in ix.answer.content

    listing = await dc.slash(club.moderator, club.channel, "henyo words list", category="Pagkain")
    club_words = listing.answer.embeds[0]["description"]
    for kept in ("Niño", "Jack 'n' Jill", "ube-keso", "Ñora’s pie", "PANCIT canton"):
        assert kept in club_words
    assert club_words.count("(Pagkain, fil)") == 5
    assert dc.pinging_messages() == []


async def test_names_that_look_like_mentions_stay_text_when_a_pair_moves_up_or_the_host_is_asked(
    club,
) -> None:
    await club.start()
    dc = club.dc
    m = club.members
    role = dc.add_role(club.guild, "Everyone Else", mentionable=True)
    tricky = dc.add_user("tricky")
    dc.add_member(club.guild, tricky, nick=f"<@&{role.id}> @everyone")
    await dc.slash(club.moderator, club.channel, "henyo event open", pairs=1)
    await dc.slash(m["alice"], club.channel, "henyo register", partner=m["bob"])
    await dc.slash(tricky, club.channel, "henyo register", partner=m["carol"])
    dc.close_dms(tricky)
    await dc.slash(m["alice"], club.channel, "henyo withdraw")
    dm = await dc.wait_for_message(channel=m["carol"], predicate=lambda x: "moved up" in x.content)
    mention = await dc.wait_for_message(
        channel=club.channel, predicate=lambda x: x.content.startswith(f"<@{tricky.id}>")
    )
    for text in (dm.content, mention.content):
        assert f"<@&{role.id}>" not in text and "@everyone" not in text
    ask = await dc.slash(club.moderator, club.channel, "henyo event close")
    assert f"<@&{role.id}>" not in ask.answer.content
    assert "@everyone" not in ask.answer.content
    pings = {p for message in dc.pinging_messages() for p in message.pings}
    assert pings == {f"user:{tricky.id}"}
