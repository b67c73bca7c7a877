"""Issue #30: finding a game. ``/chess seek`` and ``/scrabble seek`` post an open
challenge any member may accept, through the loopback Discord with the real bot:
the club's role is mentioned (and nobody else), the first to accept gets the game
(two accepts at once make one game), a seek expires by its job, one member has at
most three open, and the seeker may cancel."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.club import Club

WORDS = ["toucan", "canoe", "envoy", "tonic", "cane", "acne", "civet", "covet", "naive"]


@pytest.fixture
def words(tmp_path: Path) -> Path:
    path = tmp_path / "words.txt"
    path.write_text("\n".join(WORDS) + "\n")
    return path


def _seek_id(post: Any, kind: str) -> int:
    accept = next(c for c in post.custom_ids if c.startswith(f"seek:{kind}:accept:"))
    return int(accept.rsplit(":", 1)[1])


def _rows(club: Club, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(club.db_path) as db:
        return list(db.execute(sql, args))


async def _seek(club: Club, user: Any, command: str, **options: Any) -> Any:
    ix = await club.dc.slash(user, club.channel, command, **options)
    post = ix.answer
    assert post is not None and not post.ephemeral, club.dc.describe(ix)
    note = await club.dc.wait_until(
        lambda: next((m for m in ix.followups if m.ephemeral), None), what="the private note"
    )
    assert re.search(r"Your challenge is posted \(\d of 3 open\)", note.content), note.content
    return post


async def test_a_chess_seek_pings_the_club_s_role_and_a_role_member_takes_it_after_a_restart(
    club: Club,
) -> None:
    dc = club.dc
    alice, bob, carol = club.members["alice"], club.members["bob"], club.members["carol"]
    players = dc.add_role(club.guild, "Chess players", mentionable=True)
    dc.add_member(club.guild, bob, roles=[players])
    await club.start()
    ix = await dc.slash(club.moderator, club.channel, "club setup", options={"seek_role": players})
    assert ix.answer.ephemeral and f"<@&{players.id}>" in ix.answer.content

    post = await _seek(club, alice, "chess seek", time="3d", color="white")
    assert post.pings == frozenset({f"role:{players.id}"}), post.pings  # the role, nobody else
    assert "looking for a game" in post.content and "3 days per move" in post.content
    assert "plays White" in post.content
    assert re.search(r"Open until <t:\d+:f> \(<t:\d+:R>\)\.", post.content), post.content
    seek_id = _seek_id(post, "chess")

    ix = await dc.click(alice, post, f"seek:chess:accept:{seek_id}")
    assert ix.answer.ephemeral and "your own challenge" in ix.answer.content

    await club.restart()  # the buttons and the seek live on
    before = {t.id for t in dc.threads_in(club.channel)}
    ix = await dc.click(bob, post, f"seek:chess:accept:{seek_id}")
    thread = await dc.wait_until(
        lambda: next((t for t in dc.threads_in(club.channel) if t.id not in before), None),
        what="the game's thread",
    )
    assert thread.id == post.id  # started from the seek's own post
    opening = await dc.wait_for_message(thread, predicate=lambda m: "Game on" in m.content)
    assert "alice has White, bob has Black" in opening.content
    live = dc.messages[post.id]
    assert "<@" in live.content and "accepted" in live.content and not live.custom_ids
    ((status, taken_by, game_id),) = _rows(
        club, "select status, taken_by, game_id from seeks where id = ?", seek_id
    )
    assert (status, taken_by) == ("taken", bob.id) and game_id

    # A late press on a copy of the buttons is refused privately and changes nothing.
    ix = await dc.slash(carol, club.channel, "chess games")
    assert "Chess #1" not in ix.answer.content
    assert _rows(club, "select count(*) from games") == [(1,)]


async def test_an_admin_clears_the_seek_role_and_seeks_mention_nobody_again(club: Club) -> None:
    dc = club.dc
    alice = club.members["alice"]
    players = dc.add_role(club.guild, "Chess players", mentionable=True)
    await club.start()
    await dc.slash(club.moderator, club.channel, "club setup", options={"seek_role": players})
    # Both at once is refused privately and changes nothing.
    ix = await dc.slash(
        club.moderator,
        club.channel,
        "club setup",
        options={"seek_role": players, "clear": "seek_role"},
    )
    assert ix.answer.ephemeral and "not both" in ix.answer.content, ix.answer.content
    assert (
        "Open challenges mention"
        in (await dc.slash(club.moderator, club.channel, "club setup")).answer.content
    )

    ix = await dc.slash(club.moderator, club.channel, "club setup", options={"clear": "seek_role"})
    assert ix.answer.ephemeral and "Open challenges mention: nobody" in ix.answer.content, (
        ix.answer.content
    )
    post = await _seek(club, alice, "chess seek", time="3d")
    assert not post.pings, post.pings


async def test_two_accepts_at_once_make_one_scrabble_game_and_the_other_is_told(
    club: Club, words: Path
) -> None:
    await club.start(lexicon=str(words))
    dc = club.dc
    alice, bob, carol = club.members["alice"], club.members["bob"], club.members["carol"]
    post = await _seek(club, alice, "scrabble seek", clock="2d", deadline="10d")
    assert "looking for a game" in post.content and not post.pings
    seek_id = _seek_id(post, "scrabble")
    custom_id = f"seek:scrabble:accept:{seek_id}"
    first, second = await asyncio.gather(
        dc.click(bob, post, custom_id), dc.click(carol, post, custom_id)
    )
    await first.wait_done()
    await second.wait_done()
    games = _rows(club, "select id, status from games where kind = 'scrabble'")
    assert len(games) == 1, games
    ((taken_by,),) = _rows(club, "select taken_by from seeks where id = ?", seek_id)
    winner = bob if taken_by == bob.id else carol
    refusals = [
        m
        for m in dc.bot_messages(include_ephemeral=True)
        if m.ephemeral and "Too late" in (m.content or "")
    ]
    assert len(refusals) == 1, refusals
    assert f"Too late: {winner.name} accepted this challenge first." in refusals[0].content
    thread = await dc.wait_until(
        lambda: next(iter(dc.threads_in(club.channel)), None), what="the game's thread"
    )
    first_board = await dc.wait_for_message(
        thread, predicate=lambda m: "move 0" in (m.content or "")
    )
    assert first_board.files
    (seats,) = _rows(club, "select count(*) from game_seats where game_id = ?", games[0][0])
    assert seats == (2,)


async def test_a_seek_nobody_takes_expires_and_its_post_says_so(club: Club) -> None:
    await club.start()
    dc = club.dc
    alice = club.members["alice"]
    post = await _seek(club, alice, "chess seek", time="1d")
    seek_id = _seek_id(post, "chess")
    club.clock.advance(hours=23)
    await club.tick()
    assert _rows(club, "select status from seeks where id = ?", seek_id) == [("open",)]
    club.clock.advance(hours=1, seconds=1)
    await club.tick()
    assert _rows(club, "select status from seeks where id = ?", seek_id) == [("expired",)]
    live = await dc.wait_until(
        lambda: dc.messages[post.id] if "expired" in dc.messages[post.id].content else None,
        what="the post saying it expired",
    )
    assert not live.custom_ids  # no Accept any more


async def test_a_member_has_at_most_three_seeks_open_and_may_cancel_one(
    club: Club, words: Path
) -> None:
    await club.start(lexicon=str(words))
    dc = club.dc
    alice, bob = club.members["alice"], club.members["bob"]
    posts = [
        await _seek(club, alice, "chess seek", time="3d"),
        await _seek(club, alice, "scrabble seek"),
        await _seek(club, alice, "chess seek", time="10+5"),
    ]
    assert any("(3 of 3 open)" in m.content for m in dc.bot_messages(include_ephemeral=True))
    ix = await dc.slash(alice, club.channel, "scrabble seek")
    assert ix.answer.ephemeral and "3 open challenges already" in ix.answer.content
    assert _rows(club, "select count(*) from seeks") == [(3,)]

    chess_id = _seek_id(posts[0], "chess")
    ix = await dc.click(bob, posts[0], f"seek:chess:cancel:{chess_id}")
    assert ix.answer.ephemeral and "Only the member who posted" in ix.answer.content
    ix = await dc.click(alice, posts[0], f"seek:chess:cancel:{chess_id}")
    assert "cancelled" in dc.messages[posts[0].id].content
    assert not dc.messages[posts[0].id].custom_ids

    post = await _seek(club, alice, "scrabble seek")  # a place again
    assert "looking for a game" in post.content
    ix = await dc.slash(bob, club.channel, "chess seek", time="3x")
    assert ix.answer.ephemeral  # a bad option is refused privately, nothing posted
    assert _rows(club, "select count(*) from seeks where user_id = ?", bob.id) == [(0,)]


async def test_a_taken_seek_whose_thread_discord_could_not_make_is_opened_by_its_job(
    club: Club,
) -> None:
    """Discord down as the game opens: the game is made and kept, and its opening job
    makes the thread and posts the first board once Discord is back."""
    await club.start()
    dc = club.dc
    alice, bob = club.members["alice"], club.members["bob"]
    post = await _seek(club, alice, "chess seek", time="3d", color="black")
    seek_id = _seek_id(post, "chess")
    outage = dc.fail_next("POST", r"/channels/\d+/messages/\d+/threads$", 503, count=50)
    ix = await dc.click(bob, post, f"seek:chess:accept:{seek_id}")
    await ix.wait_done()
    assert not dc.threads_in(club.channel)
    assert _rows(club, "select status from games") == [("active",)]
    assert _rows(club, "select status from seeks where id = ?", seek_id) == [("taken",)]

    dc.faults.remove(outage)  # Discord is back
    club.clock.advance(seconds=31)
    await club.tick()
    thread = await dc.wait_until(
        lambda: next(iter(dc.threads_in(club.channel)), None), what="the game's thread"
    )
    opening = await dc.wait_for_message(thread, predicate=lambda m: "Game on" in m.content)
    assert "bob has White, alice has Black" in opening.content
    await club.tick()
    assert len([m for m in dc.messages_in(thread) if "Game on" in m.content]) == 1
