"""What a member meets in a DM and with the schedule, through the loopback Discord
(issue #17): a slash command typed into a DM is answered with where commands
work (and, during a round, is not taken as words); junk tokens are left out of
a list, the receipt says so, and none of them reaches the public results, whose
best words nobody found are words a member knows; the weekly schedule takes
times as people write them.
"""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import bot.services.boggle as boggle_service

pytestmark = pytest.mark.clock(datetime(2026, 11, 30, 18, 0, tzinfo=UTC))  # a Monday
SEED = 42  # classic16 → I T V A / T E V W / Y O N I / L U C A (16 letters)
WORDS = ["toucanet", "toucan", "convey", "canoe", "envoy", "naive", "ovine", "tonic", "acne"]
LONG_RUN = "a" * 975
COMMANDS_WORK = "Commands work in the server: type / in a channel"


@pytest.fixture
def boggle_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "boggle-words.txt"
    path.write_text("\n".join(WORDS) + "\n")
    monkeypatch.setenv("LEXICON", str(path))
    monkeypatch.setattr(boggle_service, "new_seed", lambda: SEED)
    return path


def bot_dms(club: Any, user: Any) -> list[str]:
    return [m.content for m in club.dc.messages_in(user) if m.author.id == club.dc.bot_user.id]


async def wait_dm(club: Any, user: Any, pattern: str, after: int = 0) -> str:
    """The first bot DM to ``user`` matching ``pattern`` among those after the first ``after``."""

    def found() -> str | None:
        return next((t for t in bot_dms(club, user)[after:] if re.search(pattern, t)), None)

    await club.dc.wait_until(found, 10.0, f"a DM saying {pattern!r}")
    text = found()
    assert text is not None
    return text


async def start_round(club: Any) -> Any:
    ix = await club.dc.slash(club.moderator, club.channel, "boggle start", duration="3m")
    await ix.wait_done()
    return await club.dc.wait_until(
        lambda: next(
            (
                m
                for m in club.dc.messages_in(club.channel)
                if m.author.id == club.dc.bot_user.id and "Word Boggle — round #1**" in m.content
            ),
            None,
        ),
        10.0,
        "the grid",
    )


async def finish_round(club: Any) -> Any:
    club.clock.advance(minutes=3)
    club.clock.now = club.clock.now + boggle_service.CLOSE_GRACE
    await club.tick()
    await club.tick()
    return await club.dc.wait_until(
        lambda: next(
            (
                m
                for m in club.dc.messages_in(club.channel)
                if m.author.id == club.dc.bot_user.id and "round #1 results" in m.content
            ),
            None,
        ),
        10.0,
        "the results",
    )


def public_text(results: Any) -> str:
    """Everything the results post shows: its text, its embed and its text file."""
    files = "\n".join(data.decode("utf-8") for name, data in results.files if name.endswith(".txt"))
    return "\n".join([results.content, repr(results.embeds), files])


async def test_a_command_typed_in_a_dm_is_answered_during_a_round_and_outside_one(
    club, boggle_words
) -> None:
    dc, clock = club.dc, club.clock
    alice, bob = club.members["alice"], club.members["bob"]
    await club.start()

    # Outside a round: where commands work, not the "no round open" hint.
    await dc.dm(alice, "/scrabble play word:QUIZ position:8H", at=clock.now)
    answer = await wait_dm(club, alice, "is a command")
    assert answer.startswith("`/scrabble play` is a command") and COMMANDS_WORK in answer
    assert "Boggle" not in answer
    await dc.dm(alice, "/whatever this is", at=clock.now)
    answer = await wait_dm(club, alice, "looks like a command")
    assert COMMANDS_WORK in answer and "whatever" not in answer  # only the bot's commands quoted
    seen = len(bot_dms(club, alice))
    await dc.dm(alice, "hello", at=clock.now)  # a plain DM still gets the hint
    await wait_dm(club, alice, "no Word Boggle round open", after=seen)

    # During a round: the same answer, and the message is not on the list.
    await start_round(club)
    seen = len(bot_dms(club, alice))
    await dc.dm(alice, "/boggle submit", at=clock.now)
    answer = await wait_dm(club, alice, "is a command", after=seen)
    assert answer.startswith("`/boggle submit` is a command") and COMMANDS_WORK in answer
    assert "not on your Word Boggle list for round #1" in answer
    await dc.dm(alice, "canoe", at=clock.now)
    await wait_dm(club, alice, r"1 new word — your list for round #1 .* has \*\*1\*\*")

    # One typed while the bot was away is read back, not stored, and not answered late.
    await club.stop()
    await dc.dm(alice, "/chess move move:e4", at=clock.now + timedelta(seconds=10))
    await dc.dm(bob, "tonic", at=clock.now + timedelta(seconds=20))
    clock.advance(seconds=30)
    seen = len(bot_dms(club, alice))
    alice_dms = f"/channels/{dc.dm_channel(alice).id}/messages"
    reads_before = sum(r.method == "GET" and r.path.endswith(alice_dms) for r in dc.requests)
    await club.start()
    await wait_dm(club, bob, r"has \*\*1\*\*")  # read back
    await dc.wait_until(
        lambda: (
            sum(r.method == "GET" and r.path.endswith(alice_dms) for r in dc.requests)
            > reads_before
        ),
        what="Alice's DMs to be read back",
    )
    await asyncio.sleep(0.3)  # give the bot time to (not) answer Alice's read-back command
    assert len(bot_dms(club, alice)) == seen

    results = await finish_round(club)
    shown = public_text(results)
    assert "CANOE" in shown and "TONIC" in shown
    for token in ("SUBMIT", "SCRABBLE", "CHESS", "QUIZ", "E4"):
        assert token not in shown.upper()
    fields = {f["name"]: f["value"] for f in results.embeds[0]["fields"]}
    assert fields["1. alice — 2 points"] == "Scored: CANOE (2)"  # nothing of /boggle submit
    assert dc.pinging_messages() == []


async def test_junk_tokens_are_left_out_the_receipt_says_so_and_results_never_show_them(
    club, boggle_words
) -> None:
    dc, clock = club.dc, club.clock
    alice, bob = club.members["alice"], club.members["bob"]
    await club.start()
    grid_post = await start_round(club)

    await dc.dm(alice, f"tonic word:QUIZ 8H {LONG_RUN} naive", at=clock.now)
    receipt = await wait_dm(club, alice, "your list for round #1")
    assert receipt.startswith("✅ 2 new words") and "has **2**" in receipt
    assert "Left out 2 that are not letters only (word:QUIZ, 8H)" in receipt
    assert "Left out 1 longer than this grid can spell (16 letters at most)." in receipt
    assert "aaaaaaaaaaaaaaaaaaaaa" not in receipt

    opened = await dc.click(bob, grid_post, "boggle:submit:1")
    sent = await dc.submit_modal(bob, opened, {"boggle:words": "envoy position:8H\n12:30"})
    assert sent.answer.ephemeral
    assert sent.answer.content.startswith("✅ 1 new word") and "has **1**" in sent.answer.content
    assert "Left out 2 that are not letters only (position:8H, 12:30)" in sent.answer.content

    results = await finish_round(club)
    shown = public_text(results)
    assert "TONIC" in shown and "NAIVE" in shown and "ENVOY" in shown
    for token in ("QUIZ", "8H", "POSITION", "12:30", "AAAAAAAAAA"):
        assert token not in shown.upper()
    # The best words nobody found are those a member knows first: CONVEY and TOUCAN (3
    # points each) lead; OVINE is less known, and TOUCANET (11) is among SCOWL's "strange
    # and unusual" words, so it comes last.
    best = re.search(r"Best words nobody found: (.*)", results.content)
    assert best is not None
    assert best.group(1) == (
        "CONVEY (3) · TOUCAN (3) · CANOE (2) · ACNE (1) · OVINE (2) · TOUCANET (11)"
    )
    assert dc.pinging_messages() == []


@pytest.mark.parametrize(
    ("written", "shown", "hour", "minute"),
    [("15:00", "15:00", 15, 0), ("3pm", "15:00", 15, 0), ("3:30 pm", "15:30", 15, 30)],
)
async def test_the_weekly_schedule_takes_times_as_people_write_them(
    club, boggle_words, written: str, shown: str, hour: int, minute: int
) -> None:
    dc, channel = club.dc, club.channel
    await club.start()
    await dc.slash(
        club.moderator,
        channel,
        "club setup",
        options={"moderator_role": club.mod_role, "timezone": "Europe/London"},
    )
    ix = await dc.slash(club.moderator, channel, "boggle schedule", weekday=1, time=written)
    assert ix.answer.ephemeral, ix.answer.content
    assert f"every **Tuesday at {shown}** (Europe/London)" in ix.answer.content
    opens = datetime(2026, 12, 1, hour, minute, tzinfo=UTC)  # London is on UTC in December
    assert f"<t:{int(opens.timestamp())}:F>" in ix.answer.content


async def test_a_time_the_schedule_cannot_read_says_how_to_write_one(club, boggle_words) -> None:
    dc, channel = club.dc, club.channel
    await club.start()
    ix = await dc.slash(club.moderator, channel, "boggle schedule", weekday=1, time="half 3")
    assert ix.answer.ephemeral
    assert ix.answer.content == (
        "I couldn't read `half 3` as a time: write it like `15:00`, `3pm` or `3:30 pm`."
    )
    ix = await dc.slash(club.moderator, channel, "boggle schedule", weekday=1, time="noon")
    assert "every **Tuesday at 12:00**" in ix.answer.content
