"""Club sessions through the loopback Discord, where they end: a board with a member
playing alone is counted as pairs and a player, a swap of two partners is refused,
the moderator's early end says so on every board, a board where nobody placed a
tile is a no-contest everywhere (thread, results, leaderboard), and a large
session's results go out in as many posts as the ranking needs, cut between
entries.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.messages.limits import MESSAGE_CHARS
from bot.render._common import font, text_width
from bot.render.scrabble import MAX_HEADER_LINES, _header_font_px, scrabble_geometry
from tests.clock import FakeClock
from tests.e2e.club import Club, open_club
from tests.e2e.test_scrabble_members import outbox_headers


@pytest.fixture
async def club(loopback: Any, tmp_path: Path, clock: FakeClock) -> AsyncIterator[Club]:
    async for c in open_club(loopback, tmp_path, clock, extra_members=1):
        yield c


def rows(db_path: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as db:
        return db.execute(sql, args).fetchall()


async def reply_text(ix: Any) -> str:
    response = await ix.wait_response()
    if response.deferred:
        await ix.wait_done()
    if ix.followups:
        return ix.followups[-1].content or ""
    return response.content or ""


async def test_an_early_end_with_no_tile_placed_is_a_no_contest_said_the_same_everywhere(
    club: Club,
) -> None:
    await club.start()
    dc = club.dc
    m = club.members
    assert len(m) == 7
    await dc.slash(club.moderator, club.channel, "scrabble session open", odd="alone")
    for member in m.values():
        ix = await dc.slash(member, club.channel, "scrabble session signup")
        assert ix.answer.ephemeral
    formed = await dc.slash(club.moderator, club.channel, "scrabble session start")
    groups = formed.answer.content
    # Three pairs and one member playing alone: not "4 pairs".
    assert "**Board 1** (3 pairs and 1 player)" in groups, groups

    # Two partners swapped change nothing: refused privately, the groups as they were.
    ((stored,),) = rows(club.db_path, "select groups from club_sessions")
    users = {u.id: u for u in m.values()}
    seat = next(s for s in json.loads(stored)[0] if len(s) == 2)
    first, second = users[seat[0]], users[seat[1]]
    swap = await dc.slash(
        club.moderator, club.channel, "scrabble session swap", first=first, second=second
    )
    text = swap.answer.content
    assert swap.answer.ephemeral and "already partners: nothing was changed" in text, text
    assert "Swapped" not in text
    assert rows(club.db_path, "select groups from club_sessions") == [(stored,)]

    await dc.slash(club.moderator, club.channel, "scrabble session start")
    await dc.wait_for_message(
        channel=club.channel,
        predicate=lambda x: "Where everyone plays" in (x.content or ""),
        timeout=15,
    )
    ((thread_id,),) = rows(club.db_path, "select thread_id from games")
    thread = next(t for t in dc.threads_in(club.channel) if t.id == thread_id)
    await dc.wait_for_message(
        channel=thread, predicate=lambda x: "move 0\n" in (x.content or ""), timeout=10
    )

    # Nobody plays; the moderator ends the session well before its deadline.
    club.clock.advance(minutes=1)
    ended = await dc.slash(club.moderator, club.channel, "scrabble session end")
    assert "The session is ended" in await reply_text(ended)
    await club.flush()
    final = await dc.wait_for_message(
        channel=thread, predicate=lambda x: "Game over" in (x.content or ""), timeout=10
    )
    said = final.content
    assert "The moderator ended the session" in said, said
    assert "deadline" not in said, said  # it had not passed
    assert "**No contest**" in said and "no tiles are deducted" in said
    assert "not ranked" in said and "counted" not in said
    results = await dc.wait_for_message(
        channel=club.channel,
        predicate=lambda x: "Club session results" in (x.content or ""),
        timeout=10,
    )
    assert "Board 1: **no contest**" in results.content, results.content
    ranked = [line for line in results.content.splitlines() if line[:2].rstrip(".").isdigit()]
    assert ranked == []  # nobody is ranked on a board nobody played
    assert rows(club.db_path, "select count(*) from results") == [(0,)]
    assert rows(club.db_path, "select count(*) from ratings") == [(0,)]


@pytest.fixture
async def big_club(loopback: Any, tmp_path: Path, clock: FakeClock) -> AsyncIterator[Club]:
    async for c in open_club(loopback, tmp_path, clock):
        yield c


async def test_a_session_of_48_members_with_long_names_posts_every_pair_of_its_results(
    big_club: Club,
) -> None:
    club = big_club
    dc = club.dc
    users = []
    for i in range(48):
        user = dc.add_user(f"member{i:02d}")
        dc.add_member(club.guild, user, nick=f"Maria Clara de los Santos Rey{i:02d}"[:32])
        users.append(user)
    await club.start()
    opened = await dc.slash(club.moderator, club.channel, "scrabble session open")
    card = opened.original
    button = next(c for c in card.custom_ids if c.startswith("session:signup"))
    for user in users:
        await reply_text(await dc.click(user, card, button))
    await dc.slash(club.moderator, club.channel, "scrabble session start")
    await dc.slash(club.moderator, club.channel, "scrabble session start")
    await dc.wait_for_message(
        channel=club.channel,
        predicate=lambda x: "Where everyone plays" in (x.content or ""),
        timeout=30,
    )
    # One play on each board, so every board is played and every pair is ranked.
    for game_id, thread_id in rows(club.db_path, "select id, thread_id from games"):
        thread = next(t for t in dc.threads_in(club.channel) if t.id == thread_id)
        await dc.wait_for_message(
            channel=thread, predicate=lambda x: "move 0\n" in (x.content or ""), timeout=10
        )
        await _play_first_word(club, game_id, thread)
    # Four pairs of 32-character names: every line of every board image's header
    # fits the image at the renderer's font (names cut short, every score shown).
    headers = outbox_headers(club.db_path)
    assert headers and all(len(h) <= MAX_HEADER_LINES for h in headers)
    face, width = font(_header_font_px(900)), 900 - 2 * scrabble_geometry(900).origin
    assert all(text_width(line, face) <= width for h in headers for line in h), headers[-1]
    assert all(sum(line.startswith("Maria") for line in h) == 4 for h in headers), headers[-1]
    ended = await dc.slash(club.moderator, club.channel, "scrabble session end")
    await reply_text(ended)
    await club.flush()
    first = await dc.wait_for_message(
        channel=club.channel,
        predicate=lambda x: "Club session results" in (x.content or ""),
        timeout=15,
    )
    await dc.wait_until(
        lambda: any("leaderboard" in (x.content or "") for x in dc.messages_in(club.channel)[-6:]),
        what="the last results post",
    )
    posts = [x for x in dc.messages_in(club.channel) if x.id >= first.id]
    posts = posts[: next(i for i, x in enumerate(posts) if "leaderboard" in x.content) + 1]
    assert len(posts) >= 2  # too long for one post
    assert all(len(x.content) <= MESSAGE_CHARS for x in posts)
    lines = [line for x in posts for line in x.content.splitlines()]
    ranked = [line for line in lines if line[:3].rstrip(". ").isdigit()]
    assert len(ranked) == 24, ranked  # every pair, none cut off
    assert all(line.count("**") == 2 and "…" not in line for line in ranked)  # no entry split
    assert [int(line.split(".")[0]) for line in ranked] == sorted(
        int(line.split(".")[0]) for line in ranked
    )

    # The moderator's private results: every pair too, each message within the limit.
    seen = await dc.slash(club.moderator, club.channel, "scrabble session results")
    await seen.wait_response()

    def private_lines() -> list[str]:
        texts = [m.content or "" for m in seen.messages]
        assert all(len(t) <= MESSAGE_CHARS for t in texts)
        return [line for t in texts for line in t.splitlines() if line[:3].rstrip(". ").isdigit()]

    await dc.wait_until(lambda: len(private_lines()) >= 24, what="the follow-up messages")
    assert len(seen.messages) >= 2 and all(m.ephemeral for m in seen.messages)
    assert len(private_lines()) == 24


async def _play_first_word(club: Club, game_id: int, thread: Any) -> None:
    """The seat to move plays its best opening word (by the built-in word list)."""
    from tests.e2e.test_scrabble_session import best_play, engine_of, seats_of

    for _turn in range(4):  # a seat whose rack makes no word passes
        game = engine_of(club.db_path, game_id)
        user_id = seats_of(club.db_path, game_id)[game.current_seat][0]
        member = club.dc.users[user_id]
        try:
            word, position = best_play(game)
        except AssertionError:
            ix = await club.dc.slash(member, thread, "scrabble pass")
            assert await reply_text(ix) == "You passed."
            continue
        ix = await club.dc.slash(member, thread, "scrabble play", word=word, position=position)
        assert (await reply_text(ix)).startswith("You played")
        return
    raise AssertionError("no seat could open the board")
