"""The club's daily puzzle through the loopback Discord (issue #31), in a club on New
York time: /club setup sets its channel and time; at 18:00 club time the day's puzzle
is posted there (the board image with its alt text and "find the best play", a Solve
button, no answer); after a restart the post is not made again, and its Solve button
opens the puzzle for carol privately (the /puzzle flow: the Answer form, her solve),
with nothing of her answer in the channel; dave's /puzzle offers the day's puzzle first;
the next day's post is the other puzzle, at 18:00 again."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from engines.scrabble.board import typed_notation
from tests.e2e.club import Club
from tests.e2e.test_puzzles import finished_game, puzzles_stored
from tests.e2e.test_scrabble import reply_text

# Friday 12 March 2027, 07:00 in New York (the game's finish moves the clock a day on).
NEW_YORK = ZoneInfo("America/New_York")
pytestmark = pytest.mark.clock(datetime(2027, 3, 12, 12, 0, tzinfo=UTC))


def posts_in(club: Club, channel: Any) -> list[Any]:
    return [m for m in club.dc.messages_in(channel) if m.author.id == club.dc.bot_user.id]


def daily_job_due(club: Club) -> datetime:
    with sqlite3.connect(club.db_path) as db:
        (due,) = db.execute(
            "select due_at from jobs where kind = 'puzzles.daily' and status = 'due'"
        ).fetchone()
    moment = datetime.fromisoformat(due)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


async def test_the_daily_puzzle_is_posted_at_the_clubs_time_and_solved_privately(
    club: Club,
) -> None:
    dc = club.dc
    await club.start()
    await finished_game(club)
    stored = puzzles_stored(club)
    assert len(stored) == 2
    puzzles = dc.add_text_channel(club.guild, "puzzles")
    ix = await dc.slash(
        club.moderator,
        club.channel,
        "club setup",
        options={
            "timezone": "America/New_York",
            "puzzle_channel": puzzles,
            "puzzle_time": "18:00",
        },
    )
    summary = await reply_text(ix)
    assert f"Daily puzzle: <#{puzzles.id}> at 18:00 (club time)" in summary, summary

    # Not before 18:00 in New York; at 18:00, the post.
    due = daily_job_due(club)
    assert due.astimezone(NEW_YORK).strftime("%H:%M") == "18:00"
    club.clock.now = due - timedelta(minutes=1)
    await club.tick()
    assert posts_in(club, puzzles) == []
    club.clock.now = due
    await club.tick()
    await dc.wait_until(lambda: posts_in(club, puzzles), what="the daily puzzle's post")
    [post] = posts_in(club, puzzles)
    [solve] = [c for c in post.custom_ids if c.startswith("puzzle:solve:")]
    puzzle = next(p for p in stored if p["id"] == int(solve.split(":")[2]))
    assert "The daily puzzle" in post.content and "Find the best play!" in post.content
    assert f"Rack: `{' '.join(puzzle['rack'])}`" in post.content
    assert post.attachments and post.attachments[0].description.startswith("Puzzle board")
    for position, _word, spelled, _score in puzzle["top"]:  # no answer in public
        assert position not in post.content and typed_notation(spelled) not in post.content
    assert "Top plays" not in post.content

    # A restart at the same moment: no second post.
    await club.restart()
    await club.tick()
    assert len(posts_in(club, puzzles)) == 1

    # Carol presses Solve (after the restart): the puzzle, privately, and she solves it.
    carol, dave = club.members["carol"], club.members["dave"]
    opened = await dc.click(carol, post, solve)
    await opened.wait_done()
    shown = opened.followups[-1] if opened.followups else opened.answer
    assert shown.ephemeral and "Rack: `" in shown.content
    assert f"**Puzzle {puzzle['id']}**" in shown.content
    assert shown.files and shown.files[0][0] == f"puzzle-{puzzle['id']}.png"
    assert f"puzzle:answer:{puzzle['id']}" in shown.custom_ids
    form = await dc.click(carol, shown, f"puzzle:answer:{puzzle['id']}")
    assert form.modal is not None
    position, _word, spelled, best = puzzle["top"][0]
    sent = await dc.submit_modal(
        carol, form, {"puzzle:word": typed_notation(spelled), "puzzle:position": position}
    )
    text = await reply_text(sent)
    assert sent.answer.ephemeral and text.startswith("✅ Solved!") and f"scores {best}" in text
    # Solve again: her result and the solution, privately; the channel still has one post.
    again = await dc.click(carol, post, solve)
    assert (await reply_text(again)).startswith("You solved this puzzle already.")
    assert len(posts_in(club, puzzles)) == 1

    # Dave's /puzzle: the day's puzzle first.
    ix = await dc.slash(dave, club.channel, "puzzle")
    await ix.wait_done()
    offered = ix.followups[-1] if ix.followups else ix.answer
    assert offered.ephemeral and f"puzzle:answer:{puzzle['id']}" in offered.custom_ids

    # The next day at 18:00 (New York): the other puzzle.
    following = daily_job_due(club)
    assert following.astimezone(NEW_YORK).strftime("%H:%M") == "18:00"
    club.clock.now = following
    await club.tick()
    await dc.wait_until(lambda: len(posts_in(club, puzzles)) == 2, what="the next day's post")
    nxt = posts_in(club, puzzles)[-1]
    assert f"puzzle:solve:{next(p['id'] for p in stored if p['id'] != puzzle['id'])}" in (
        nxt.custom_ids
    )
