"""Word Boggle through the loopback Discord: the issue's "Done when" scenario.

A moderator schedules a weekly round in the club's time zone; it is announced
and opens by itself; three players send lists with a shared word (two by DM,
one whose DMs are closed through the form); the bot restarts mid-round and a
DM sent while it was away is picked up; the round ends, results are posted
and the leaderboard counts the points.

Players' DMs carry chosen Discord timestamps (``at=``) on the test's clock, so
"sent before the end" is exact.
"""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import bot.services.boggle as boggle_service

SEED = 42  # classic16 → I T V A / T E V W / Y O N I / L U C A
LETTERS = "I T V A / T E V W / Y O N I / L U C A"
WORDS = [
    "toucanet",
    "toucan",
    "convey",
    "canoe",
    "civet",
    "covet",
    "envoy",
    "naive",
    "ovine",
    "tonic",
    "acne",
    "cane",
    "cain",
    "coven",
    "covey",
    "zebra",
]
# The weekly schedule is made on a Monday evening (the bot's clock and the loopback's, pinned);
# the next round opens the day after.
pytestmark = pytest.mark.clock(datetime(2026, 11, 30, 18, 0, tzinfo=UTC))
OPENS = datetime(2026, 12, 1, 11, 0, tzinfo=UTC)  # Tuesday 19:00 in Manila
ENDS = OPENS + timedelta(minutes=3)


@pytest.fixture
def boggle_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A small word list (fast to load) and a fixed seed (a known grid), also after a restart."""
    path = tmp_path / "boggle-words.txt"
    path.write_text("\n".join(WORDS) + "\n")
    monkeypatch.setenv("LEXICON", str(path))
    monkeypatch.setattr(boggle_service, "new_seed", lambda: SEED)
    return path


def bot_said(club: Any, where: Any, pattern: str) -> Any:
    """The latest bot message in ``where`` (a channel or a user's DM) matching ``pattern``."""
    found = [
        m
        for m in club.dc.messages_in(where)
        if m.author.id == club.dc.bot_user.id and re.search(pattern, m.content)
    ]
    return found[-1] if found else None


async def wait_said(club: Any, where: Any, pattern: str, timeout: float = 10.0) -> Any:
    return await club.dc.wait_until(
        lambda: bot_said(club, where, pattern), timeout, f"the bot to say {pattern!r}"
    )


async def test_weekly_round_with_dms_the_form_a_restart_results_and_leaderboard(
    club, boggle_words
) -> None:
    dc, clock, channel = club.dc, club.clock, club.channel
    alice, bob, carol = club.members["alice"], club.members["bob"], club.members["carol"]
    await club.start()

    # The club's time zone, then the weekly schedule in it.
    await dc.slash(
        club.moderator,
        channel,
        "club setup",
        options={"moderator_role": club.mod_role, "timezone": "Asia/Manila"},
    )
    ix = await dc.slash(
        club.moderator, channel, "boggle schedule", weekday=1, time="7pm", duration="3m"
    )
    assert ix.answer.ephemeral, ix.answer.content
    assert "Tuesday at 19:00" in ix.answer.content and "Asia/Manila" in ix.answer.content
    assert f"<t:{int(OPENS.timestamp())}:F>" in ix.answer.content

    # An hour before: the announcement. On time: the grid, by itself.
    clock.now = OPENS - timedelta(hours=1)
    await club.tick()
    await wait_said(club, channel, rf"round #1\*\* starts <t:{int(OPENS.timestamp())}:R>")
    clock.now = OPENS
    await club.tick()
    grid_post = await wait_said(club, channel, r"Word Boggle — round #1\*\*")
    assert LETTERS in grid_post.content  # the grid in words, for screen readers
    assert f"<t:{int(ENDS.timestamp())}:R>" in grid_post.content
    assert grid_post.attachments and grid_post.attachments[0].filename.endswith(".png")
    assert LETTERS in grid_post.attachments[0].description  # the image's alt text: its letters
    assert set(grid_post.custom_ids) == {"boggle:submit:1", "boggle:dm:1"}

    # Alice asks for the grid by DM, then sends two messages.
    ix = await dc.click(alice, grid_post, "boggle:dm:1")
    await ix.wait_done()
    dm_grid = await wait_said(club, alice, "Letters, row by row")
    assert LETTERS in dm_grid.content and dm_grid.attachments
    assert LETTERS in dm_grid.attachments[0].description
    await dc.dm(alice, "Toucanet, convey\ncanoe", at=OPENS + timedelta(seconds=20))
    await wait_said(club, alice, r"3 new words — your list for round #1 .* has \*\*3\*\*")
    await dc.dm(alice, "ovin canoe", at=OPENS + timedelta(seconds=40))
    await wait_said(club, alice, r"1 new word — .* has \*\*4\*\*")

    # Bob sends his list by DM.
    await dc.dm(bob, "canoe tonic zebra cat", at=OPENS + timedelta(seconds=30))
    await wait_said(club, bob, r"has \*\*4\*\*")

    # Carol's DMs are closed: she is told privately to use the form, and does.
    dc.close_dms(carol)
    ix = await dc.click(carol, grid_post, "boggle:dm:1")
    await ix.wait_done()
    closed_note = ix.followups[-1]
    assert closed_note.ephemeral and "DMs are closed" in closed_note.content
    assert closed_note.custom_ids == ["boggle:submit:1"]
    clock.now = OPENS + timedelta(seconds=50)
    opened = await dc.click(carol, closed_note, "boggle:submit:1")
    assert opened.modal is not None
    sent = await dc.submit_modal(carol, opened, {"boggle:words": "canoe, envoy"})
    assert sent.answer.ephemeral and "has **2**" in sent.answer.content
    # She can still DM words: they are stored though the bot cannot answer, and nothing hangs.
    carol_dm = dc.dm_channel(carol)

    def refused_posts_to_carol() -> int:
        return sum(
            r.status == 403 and r.path.endswith(f"/channels/{carol_dm.id}/messages")
            for r in dc.requests
        )

    refused_before = refused_posts_to_carol()  # the grid DM she asked for
    await dc.dm(carol, "naive", at=OPENS + timedelta(seconds=55))
    await dc.wait_until(
        lambda: refused_posts_to_carol() > refused_before, what="the answer to Carol to be refused"
    )

    # The bot restarts mid-round; Bob adds a word while it is away.
    await club.stop()
    await dc.dm(bob, "acne", at=OPENS + timedelta(seconds=90))
    clock.now = OPENS + timedelta(seconds=100)
    await club.start()
    await wait_said(club, bob, r"1 new word — .* has \*\*5\*\*")  # read back from the DM channel

    # Just after the end: a DM sent in time still counts, a late one is refused politely.
    clock.now = ENDS + timedelta(seconds=2)
    await dc.dm(alice, "envoy", at=ENDS - timedelta(milliseconds=500))
    await wait_said(club, alice, r"has \*\*5\*\*")
    await dc.dm(bob, "covet", at=ENDS + timedelta(seconds=1))
    await wait_said(club, bob, r"Sorry, round #1 .* ended .*not counted")

    # Lists close; the round is scored; results and the season table are posted.
    clock.now = ENDS + boggle_service.CLOSE_GRACE
    await club.tick()
    await club.tick()
    results = await wait_said(club, channel, r"round #1 results")
    text = results.content
    assert LETTERS in text
    assert "**alice** wins with 14 points" in text  # toucanet 11 + convey 3
    assert (
        "Best words nobody found:" in text
        and "Season 1 (first to 100): 1. alice 14 · 2. bob 3 · 3. carol 2" in text
    )
    fields = {f["name"]: f["value"] for f in results.embeds[0]["fields"]}
    alice_words = fields["1. alice — 14 points"]
    assert "Scored: TOUCANET (11), CONVEY (3)" in alice_words
    assert "Cancelled (on another list too): CANOE, ENVOY" in alice_words
    assert "Not a word: OVIN" in alice_words
    bob_words = fields[
        "2. bob — 3 points"
    ]  # tonic 2 + acne 1 (sent while the bot was away); not the late covet
    assert (
        "Not on the grid: ZEBRA" in bob_words
        and "Too short: CAT" in bob_words
        and "COVET" not in bob_words
    )
    carol_words = fields["3. carol — 2 points"]
    assert (
        "Scored: NAIVE (2)" in carol_words
        and "Cancelled (on another list too): CANOE, ENVOY" in carol_words
    )
    assert {a.filename for a in results.attachments} == {"boggle-round-1.png", "boggle-round-1.txt"}
    assert all(a.description for a in results.attachments)  # every file says what it holds

    # The leaderboard has the points, and /boggle results shows the round again.
    ix = await dc.slash(alice, channel, "leaderboard", game="boggle", period="season")
    assert "1. alice — points 14" in ix.answer.content and "2. bob — points 3" in ix.answer.content
    ix = await dc.slash(carol, channel, "boggle results")
    assert ix.answer.ephemeral and "round #1 results" in ix.answer.content
    sent_files = ix.answer.attachments
    assert sent_files and all(f.description for f in sent_files)

    # DMs after the round get a hint once, not on every message.
    clock.now = ENDS + timedelta(hours=2)
    before = len(dc.dms_to(alice))
    await dc.dm(alice, "hello", at=clock.now)
    await wait_said(club, alice, "no Word Boggle round open")
    await dc.dm(alice, "anyone?", at=clock.now)
    await asyncio.sleep(0.3)  # give the bot time to (not) answer
    assert len(dc.dms_to(alice)) == before + 1
    assert dc.pinging_messages() == []


async def test_start_cancel_and_permissions_through_commands(club, boggle_words) -> None:
    dc, channel = club.dc, club.channel
    alice = club.members["alice"]
    await club.start()

    ix = await dc.slash(alice, channel, "boggle start")
    assert ix.answer.ephemeral and "moderators" in ix.answer.content
    ix = await dc.slash(alice, channel, "boggle submit")
    assert ix.answer.ephemeral and "No Boggle round is open" in ix.answer.content

    ix = await dc.slash(club.moderator, channel, "boggle start", size=5, dice="classic16")
    await ix.wait_done()
    assert "4x4" in (ix.followups[-1].content if ix.followups else ix.answer.content)

    ix = await dc.slash(club.moderator, channel, "boggle start", duration="2m", min_length=3)
    reply = await ix.next_message()
    assert reply.ephemeral and "Round #1 is on" in reply.content
    grid_post = await wait_said(club, channel, r"round #1\*\*")
    assert "words of 3+ letters" in grid_post.content

    # A form opened before a restart is still taken after it.
    ix = await dc.slash(alice, channel, "boggle submit")
    assert ix.modal is not None
    await club.restart()
    sent = await dc.submit_modal(alice, ix, {"boggle:words": "tonic cane"})
    assert sent.answer.ephemeral and "has **2**" in sent.answer.content

    ix = await dc.slash(club.moderator, channel, "boggle season", target=50)
    assert ix.answer.ephemeral and "first to 50 points" in ix.answer.content

    ix = await dc.slash(club.moderator, channel, "boggle cancel")
    assert ix.answer.ephemeral and "Cancelled the **running round #1**" in ix.answer.content
    await wait_said(club, channel, "round #1 was cancelled by a moderator")
    ix = await dc.click(alice, grid_post, "boggle:submit:1")
    assert ix.answer.ephemeral and "cancelled" in ix.answer.content
    ix = await dc.slash(club.moderator, channel, "boggle cancel", what="schedule")
    assert ix.answer.ephemeral and "no weekly Boggle schedule" in ix.answer.content
