"""Word Boggle played in the room (issue #29), through the loopback Discord with the
real client and the fake clock: ``/boggle start where: room`` puts the grid on the
screen with its countdown; the players write on paper; when the countdown ends the
channel is told to type the lists, and for ``entry_time`` (2 minutes by default)
lists come by DM, on the board page, or typed by the host for a member with
``/boggle enter``; a list sent after that is refused privately and not counted. A
restart during that time loses nothing, and the results are as usual.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import bot.services.boggle as boggle_service
from bot.errors import NotFoundError
from bot.services.boggle import BoggleService
from bot.web.screen import ScreenBoard
from tests.e2e.club import Club

pytestmark = pytest.mark.clock(datetime(2026, 11, 30, 18, 0, tzinfo=UTC))
SEED = 42  # classic16 → I T V A / T E V W / Y O N I / L U C A
WORDS = ["canoe", "tonic", "acne", "envoy", "convey", "ovine", "naive"]


@pytest.fixture
def boggle_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "boggle-words.txt"
    path.write_text("\n".join(WORDS) + "\n")
    monkeypatch.setenv("LEXICON", str(path))
    monkeypatch.setattr(boggle_service, "new_seed", lambda: SEED)
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


async def screen_panel(club: Any) -> dict[str, Any]:
    assert club.bot is not None
    return await ScreenBoard(club.bot.ctx).shown(club.guild.id)


async def test_a_round_in_the_room_paper_then_typed_lists_host_entries_and_a_late_list(
    club: Club, boggle_words: Path
) -> None:
    dc, clock, channel = club.dc, club.clock, club.channel
    alice, bob, carol = club.members["alice"], club.members["bob"], club.members["carol"]
    await club.start()
    opened = clock.now
    pens_down = opened + timedelta(minutes=3)
    lists_due = pens_down + timedelta(minutes=2)

    # A time to type the lists is for a round in the room only: refused, nothing starts.
    ix = await dc.slash(club.moderator, channel, "boggle start", entry_time="2m")
    assert ix.answer.ephemeral and "add `where: room`" in ix.answer.content
    ix = await dc.slash(club.moderator, channel, "boggle start", where="room", entry_time="forever")
    assert ix.answer.ephemeral and not bot_said(club, channel, "Word Boggle — round")

    # The host starts the round in the room: 3 minutes on paper, then 2 to type (the default).
    ix = await dc.slash(club.moderator, channel, "boggle start", duration="3m", where="room")
    await ix.wait_done()
    assert "Played in the room: pens down" in ix.answer.content
    assert "`/boggle enter`" in ix.answer.content
    grid = await wait_said(club, channel, r"Word Boggle — round #1\*\*")
    assert f"Pens down {stamp(pens_down, 'R')}" in grid.content
    assert "write your words on paper" in grid.content
    assert f"until {stamp(lists_due, 'T')}" in grid.content
    panel = await screen_panel(club)
    assert panel["panel"] == "boggle" and panel["phase"] == "paper"
    assert panel["ends_at"] == pens_down.isoformat()
    assert "on paper" in panel["playing_text"]

    # Only the round's host or a moderator types a member's list; nothing is stored.
    ix = await dc.slash(bob, channel, "boggle enter", member=alice, words="canoe tonic")
    await ix.wait_done()
    assert ix.answer.ephemeral and "Only the round's host or a moderator" in ix.answer.content
    assert not bot_said(club, alice, "typed your paper list")

    # Pens down: the channel is told to type the lists now; the screen says so.
    clock.now = pens_down
    await club.tick()
    await wait_said(club, channel, r"Round #1: pens down!\*\* Type your words now")
    panel = await screen_panel(club)
    assert panel["phase"] == "typing" and panel["ends_at"] == lists_due.isoformat()
    assert panel["playing_text"].startswith("Type your words now")
    assert panel["left_label"] == "Time left to type"

    # Alice types her list by DM during the entry time: accepted.
    await dc.dm(alice, "canoe tonic", at=pens_down + timedelta(seconds=10))
    await wait_said(club, alice, r"2 new words — your list for round #1 .*has \*\*2\*\*")

    # The host types Carol's paper list for her; she is told privately what was entered.
    clock.now = pens_down + timedelta(seconds=20)
    ix = await dc.slash(
        club.moderator, channel, "boggle enter", member=carol, words="Envoy, acne zz1"
    )
    await ix.wait_done()
    assert ix.answer.ephemeral
    assert f"Entered for <@{carol.id}>: 2 new words" in ix.answer.content
    assert "has **2**" in ix.answer.content
    told = await wait_said(club, carol, "typed your paper list for Word Boggle round #1")
    assert "envoy, acne" in told.content and "has 2 words" in told.content
    assert not bot_said(club, channel, "envoy")  # never public before the results
    # Carol adds a word herself: one list, merged as her own messages are.
    await dc.dm(carol, "ovine acne", at=pens_down + timedelta(seconds=30))
    await wait_said(club, carol, r"1 new word — your list for round #1 .*has \*\*3\*\*")

    # A restart during the entry time loses nothing: the lists, the timers.
    await club.restart()
    clock.now = pens_down + timedelta(minutes=1)
    await club.tick()
    await dc.dm(alice, "acne", at=clock.now)
    await wait_said(club, alice, r"1 new word — your list for round #1 .*has \*\*3\*\*")

    # After the entry time: Bob's list is refused privately and not counted; so is a
    # change from a board page.
    await dc.dm(bob, "convey naive", at=lists_due + timedelta(seconds=1))
    refused = await wait_said(club, bob, "so these words were not counted")
    assert "round #1" in refused.content
    clock.now = lists_due + timedelta(seconds=1)
    assert club.bot is not None
    service = BoggleService(club.bot.ctx)  # what the board page's Add calls
    with pytest.raises(NotFoundError):
        await service.submissions.submit_page(round_id=1, user_id=bob.id, add=["naive"])
    ix = await dc.slash(club.moderator, channel, "boggle enter", member=bob, words="naive")
    await ix.wait_done()
    assert ix.answer.ephemeral and "has ended" in ix.answer.content

    # The lists close and are scored as usual.
    clock.now = lists_due + boggle_service.CLOSE_GRACE
    await club.tick()
    await club.tick()
    results = await wait_said(club, channel, "round #1 results")
    text = "\n".join(
        [results.content, repr(results.embeds)]
        + [data.decode() for name, data in results.files if name.endswith(".txt")]
    )
    assert "alice 4 · 1. carol 4" in results.content and "bob" not in text
    assert "Scored: CANOE (2), TONIC (2)" in text  # her DMs, before and after the restart
    assert "Scored: ENVOY (2), OVINE (2)" in text  # the host's entry and her own DM, one list
    assert "Cancelled (on another list too): ACNE" in text
    assert "Best words nobody found: CONVEY (3) · NAIVE (2)" in results.content  # Bob's, late
    panel = await screen_panel(club)
    assert panel["panel"] == "boggle_result"


async def test_a_weekly_round_scheduled_in_the_room_is_played_in_the_room(
    club: Club, boggle_words: Path
) -> None:
    """``/boggle schedule where:room entry_time:90s``: the answer says so, and the weekly
    round opens by itself with its pens down and its time to type, as a round started
    in the room; ``entry_time`` without the room is refused privately."""
    dc, clock, channel = club.dc, club.clock, club.channel
    await club.start()
    refused = await dc.slash(
        club.moderator, channel, "boggle schedule", weekday=1, time="7pm", entry_time="2m"
    )
    assert refused.answer.ephemeral and "room" in refused.answer.content
    ix = await dc.slash(
        club.moderator,
        channel,
        "boggle schedule",
        weekday=1,
        time="7pm",
        duration="3m",
        where="room",
        entry_time="90s",
    )
    assert ix.answer.ephemeral, ix.answer.content
    assert "Played in the room" in ix.answer.content and "1 min 30 s after" in ix.answer.content
    opens = datetime(2026, 12, 1, 19, 0, tzinfo=UTC)  # the club's zone: UTC
    clock.now = opens
    await club.tick()
    await wait_said(club, channel, r"Word Boggle — round #1\*\*")
    panel = await screen_panel(club)
    assert panel["panel"] == "boggle"
    clock.now = opens + timedelta(minutes=3)
    await club.tick()
    await wait_said(club, channel, r"pens down!")
