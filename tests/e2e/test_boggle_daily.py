"""The daily Boggle grid (issue #31) through the loopback Discord, with the real client
and the fake clock, in a club on New York time on the day the clocks spring forward
(a 23-hour day): three members play the same grid at their own hours (`/boggle daily`,
privately: the grid's image, their own 3-minute countdown), one opens it twice (the
same countdown), one sends a list after their countdown (refused, not counted); words
come by DM and through the Submit words form; at the club's midnight the results post
in the channel (cancellation across the day, the best words nobody found) with the
achievement of a word of 8 letters, announced once: not again after a restart, when it
is earned again the next day. `/stats` shows the streak and the achievement."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import bot.services.boggle.daily as daily_module
from tests.e2e.club import Club

START = datetime(2026, 3, 8, 6, 30, tzinfo=UTC)  # 01:30 in New York (EST), a Sunday
MIDNIGHT = datetime(2026, 3, 9, 4, 0, tzinfo=UTC)  # its end: 00:00 EDT, 23 hours later
pytestmark = pytest.mark.clock(START)
SEED = 42  # classic16 → I T V A / T E V W / Y O N I / L U C A
LETTERS = "I T V A / T E V W / Y O N I / L U C A"
WORDS = ["toucanet", "canoe", "tonic", "acne", "envoy", "convey", "ovine", "naive"]


@pytest.fixture
def daily_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "boggle-words.txt"
    path.write_text("\n".join(WORDS) + "\n")
    monkeypatch.setenv("LEXICON", str(path))
    # Every day's grid is the test grid (the seed otherwise comes from the club and the day).
    monkeypatch.setattr(daily_module, "daily_seed", lambda guild_id, day: SEED)
    return path


def bot_said(club: Any, where: Any, pattern: str) -> list[Any]:
    return [
        m
        for m in club.dc.messages_in(where)
        if m.author.id == club.dc.bot_user.id and re.search(pattern, m.content)
    ]


async def wait_said(club: Any, where: Any, pattern: str) -> Any:
    await club.dc.wait_until(lambda: bot_said(club, where, pattern), 10.0, repr(pattern))
    return bot_said(club, where, pattern)[-1]


def stamp(moment: datetime, style: str) -> str:
    return f"<t:{int(moment.timestamp())}:{style}>"


async def daily(club: Club, member: Any) -> Any:
    ix = await club.dc.slash(member, club.channel, "boggle daily")
    await ix.wait_done()
    answer = ix.followups[-1] if ix.followups else ix.answer
    assert answer.ephemeral, answer.content
    return answer


async def test_three_members_play_the_days_grid_and_midnight_posts_the_results(
    club: Club, daily_words: Path
) -> None:
    dc, clock, channel = club.dc, club.clock, club.channel
    alice, bob, carol = club.members["alice"], club.members["bob"], club.members["carol"]
    await club.start()
    await dc.slash(
        club.moderator,
        channel,
        "club setup",
        options={"moderator_role": club.mod_role, "timezone": "America/New_York"},
    )

    # 01:30: Alice opens the day's grid, privately: the image, her countdown, the button.
    alice_ends = START + timedelta(minutes=3)
    grid = await daily(club, alice)
    assert "Daily Word Boggle — 2026-03-08" in grid.content
    assert f"Your countdown ends {stamp(alice_ends, 'R')}" in grid.content
    assert LETTERS in grid.content and stamp(MIDNIGHT, "R") in grid.content
    assert grid.attachments and LETTERS in grid.attachments[0].description
    [button] = grid.custom_ids
    assert not bot_said(club, channel, "Daily Word Boggle")  # nothing public
    await dc.dm(alice, "Toucanet, canoe", at=START + timedelta(seconds=40))
    await wait_said(club, alice, r"2 new words — your list for today's grid .*has \*\*2\*\*")
    clock.now = START + timedelta(minutes=1)
    opened = await dc.click(alice, grid, button)
    assert opened.modal is not None
    sent = await dc.submit_modal(alice, opened, {"boggle:words": "tonic acne"})
    assert sent.answer.ephemeral and "has **4**" in sent.answer.content

    # Opening it twice: the same grid and the same countdown, not a new one.
    clock.now = START + timedelta(minutes=2)
    again = await daily(club, alice)
    assert "You opened today's grid already" in again.content
    assert f"Your countdown ends {stamp(alice_ends, 'R')}" in again.content

    # A restart in the day: nothing is lost.
    await club.restart()

    # 12:00 EDT: Bob plays (the clocks sprang forward at 02:00).
    noon = datetime(2026, 3, 8, 16, 0, tzinfo=UTC)
    clock.now = noon
    grid = await daily(club, bob)
    assert f"Your countdown ends {stamp(noon + timedelta(minutes=3), 'R')}" in grid.content
    assert LETTERS in grid.content
    await dc.dm(bob, "canoe convey", at=noon + timedelta(seconds=20))
    await wait_said(club, bob, r"has \*\*2\*\*")

    # 20:00 EDT: Carol plays, then sends a list after her countdown: refused, not counted.
    evening = datetime(2026, 3, 9, 0, 0, tzinfo=UTC)
    clock.now = evening
    await daily(club, carol)
    await dc.dm(carol, "envoy", at=evening + timedelta(minutes=1))
    await wait_said(club, carol, r"has \*\*1\*\*")
    await dc.dm(carol, "ovine naive", at=evening + timedelta(minutes=4))
    refused = await wait_said(club, carol, "so these words were not counted")
    assert stamp(evening + timedelta(minutes=3), "R") in refused.content
    clock.now = evening + timedelta(minutes=5)
    late = await daily(club, carol)
    assert "ended" in late.content and not late.custom_ids  # no form after the countdown

    # Midnight (club time): the results in the channel, then the achievement, once.
    clock.now = MIDNIGHT
    await club.tick()
    results = await wait_said(club, channel, r"Daily Word Boggle — 2026-03-08 results")
    assert "alice 14" in results.content  # toucanet 11, tonic 2, acne 1; canoe crossed off
    assert "bob 3" in results.content and "carol 2" in results.content
    # Carol's late words were not counted: nobody found them.
    assert "Best words nobody found: NAIVE (2) · OVINE (2)" in results.content
    assert results.attachments and LETTERS in results.attachments[0].description
    every_list = results.embeds[0]
    assert every_list["title"] == "Daily grid 2026-03-08 — every list"
    earned = await wait_said(club, channel, "earned an achievement")
    assert f"<@{alice.id}>" in earned.content and "TOUCANET" in earned.content

    # The next day's grid is ready. Alice finds an 8-letter word again after a restart:
    # the achievement is not announced twice.
    await club.restart()
    clock.now = MIDNIGHT + timedelta(hours=10)
    await daily(club, alice)
    await dc.dm(alice, "toucanet", at=clock.now + timedelta(seconds=10))
    await wait_said(club, alice, r"today's grid .*has \*\*1\*\*")
    clock.now = datetime(2026, 3, 10, 4, 0, tzinfo=UTC)
    await club.tick()
    await wait_said(club, channel, r"Daily Word Boggle — 2026-03-09 results")
    await club.flush()
    assert len(bot_said(club, channel, "earned an achievement")) == 1

    # /stats: two days in a row, the achievement with its date.
    ix = await dc.slash(alice, channel, "stats")
    await ix.wait_done()
    answer = ix.followups[-1] if ix.followups else ix.answer
    fields = {f["name"]: f["value"] for f in answer.embeds[0]["fields"]}
    assert "2 days in a row" in fields["Streaks"]
    assert "A Boggle word of 8+ letters" in fields["Achievements"]
    assert stamp(MIDNIGHT, "D") in fields["Achievements"]


async def test_a_dm_sent_while_the_bot_was_away_during_a_countdown_is_read_back(
    club: Club, daily_words: Path
) -> None:
    dc, clock = club.dc, club.clock
    bob = club.members["bob"]
    await club.start()
    await daily(club, bob)
    await dc.dm(bob, "canoe", at=START + timedelta(seconds=10))
    await wait_said(club, bob, r"today's grid .*has \*\*1\*\*")

    # The session is lost (no resume): Bob's next DM never reaches the bot live; it is
    # read back when the bot identifies again, still inside his countdown.
    await dc.drop_gateway(resume=False)
    await dc.dm(bob, "tonic acne", at=START + timedelta(seconds=40))
    await dc.wait_for_session()
    await wait_said(club, bob, r"today's grid .*has \*\*3\*\*")
    clock.now = START + timedelta(minutes=1)
    again = await daily(club, bob)
    assert "You opened today's grid already" in again.content
