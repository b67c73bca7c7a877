"""Discord failing the bot: closed DMs, rate limits, server errors, a dropped gateway.

Through the loopback stand-in's fault injection. Nothing hangs, nothing is
lost or sent twice, and where it matters the member is told what happened.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.db.repositories import OutboxRepository
from bot.messages.post import Post
from tests.reliability import logscan
from tests.reliability.games import club_db, legal_play, open_scrabble, reply_text, scrabble_state

pytestmark = pytest.mark.slow


def _posts(dc, where, needle: str) -> list:  # type: ignore[no-untyped-def]
    return [
        m
        for m in dc.messages_in(where)
        if m.author.id == dc.bot_user.id and needle in (m.content or "")
    ]


async def _play_one(club, thread, game_id: int, seats: dict[int, object], seed: int) -> int:  # type: ignore[no-untyped-def]
    db = club_db(club)
    state = await scrabble_state(db, game_id)
    player = seats[state["engine"]["current_seat"]]
    word, position = legal_play(state["engine"], seed=seed)
    ix = await club.dc.slash(player, thread, "scrabble play", word=word, position=position)
    assert (await reply_text(ix)).startswith("You played")
    return len(state["engine"]["moves"]) + 1


async def _game(club):  # type: ignore[no-untyped-def]
    alice, bob = club.members["alice"], club.members["bob"]
    game_id, thread, _ = await open_scrabble(
        club.dc, club.channel, alice, [bob], opponent=bob, clock="1d"
    )
    seat_rows = await club_db(club).rows(
        "select seat, user_id from game_seats where game_id = :g", g=game_id
    )
    users = {alice.id: alice, bob.id: bob}
    return game_id, thread, {int(seat): users[int(user)] for seat, user in seat_rows}


async def test_closed_dms_fall_back_to_a_mention_in_the_thread_once(club) -> None:
    dc = club.dc
    await club.start()
    # closed before the game starts, so the first turn notice meets them closed too (the
    # outbox sends the game's first board and that DM side by side)
    for name in ("alice", "bob"):
        dc.close_dms(club.members[name])
    game_id, thread, seats = await _game(club)
    moves = await _play_one(club, thread, game_id, seats, seed=1)
    await club.flush()
    nxt = seats[(await scrabble_state(club_db(club), game_id))["engine"]["current_seat"]]
    mine = f"<@{nxt.id}> It's your turn"  # the first player's, at the start, is the other one
    await dc.wait_until(lambda: _posts(dc, thread, mine), 10, "the turn notice in the thread")
    await club.flush()
    notices = _posts(dc, thread, mine)
    assert len(notices) == 1 and len(_posts(dc, thread, "It's your turn")) == 2
    assert notices[0].pings == frozenset({f"user:{nxt.id}"})  # that member, nobody else
    assert moves == 1

    # The reminder, due 16 h into the day's clock, goes the same way, once.
    club.clock.advance(hours=16, minutes=1)
    await club.tick()
    reminders = _posts(dc, thread, "Reminder:")
    assert len(reminders) == 1 and f"<@{nxt.id}>" in reminders[0].content
    assert await club_db(club).value("select count(*) from outbox where sent_at is null") == 0


async def test_an_answerer_with_closed_dms_means_the_host_is_told_and_no_round_starts(club) -> None:
    dc = club.dc
    await club.start()
    alice, bob = club.members["alice"], club.members["bob"]
    dc.close_dms(bob)
    ix = await dc.slash(club.moderator, club.channel, "henyo start", guesser=alice, answerer=bob)
    reply = await ix.next_message(timeout=10)
    assert reply.ephemeral and "DMs are closed" in reply.content
    assert await club_db(club).rows("select status, cancel_reason from henyo_rounds") == [
        ("cancelled", "dm_closed")
    ]
    assert not any(m.content.startswith("🎯") for m in dc.messages_in(club.channel))


async def test_a_rate_limited_board_post_waits_and_is_posted_once(club) -> None:
    dc = club.dc
    await club.start()
    game_id, thread, seats = await _game(club)
    rule = dc.fail_next("POST", rf"^/channels/{thread.id}/messages$", 429, retry_after=0.3)
    moves = await _play_one(club, thread, game_id, seats, seed=2)
    board = await dc.wait_until(
        lambda: _posts(dc, thread, f"· move {moves}\n"), 10, "the board after the 429"
    )
    await club.flush()
    assert rule.hits == 1 and len(board) == 1
    statuses = [
        r.status
        for r in dc.requests
        if r.method == "POST" and r.path == f"/channels/{thread.id}/messages"
    ]
    assert 429 in statuses and statuses[-1] == 200
    assert await club_db(club).value("select count(*) from outbox where sent_at is null") == 0


async def test_server_errors_keep_the_board_in_the_outbox_until_discord_takes_it(club) -> None:
    dc = club.dc
    db = club_db(club)
    await club.start()
    game_id, thread, seats = await _game(club)

    # A 500 is retried by discord.py itself.
    dc.fail_next("POST", rf"^/channels/{thread.id}/messages$", 500)
    moves = await _play_one(club, thread, game_id, seats, seed=3)
    await dc.wait_until(
        lambda: _posts(dc, thread, f"· move {moves}\n"), 15, "the board after a 500"
    )

    # A 503 outage longer than any quick retry: the outbox keeps the board and sends it after.
    outage = dc.fail_next("POST", rf"^/channels/{thread.id}/messages$", 503, count=8)
    moves = await _play_one(club, thread, game_id, seats, seed=4)
    await dc.wait_until(lambda: outage.hits >= 1, 10, "the outage to be hit")
    for _ in range(20):  # the sender retries on its own schedule; the outage ends after 8 refusals
        if outage.count == 0:
            break
        await club.flush()
    # The board waited without being given up on (and what came after it waited behind it).
    pending = await db.rows(
        "select attempts, last_error from outbox where sent_at is null order by id"
    )
    assert not pending or pending[0] == (0, "503 0: 503: injected failure")
    await club.flush()
    assert len(_posts(dc, thread, f"· move {moves}\n")) == 1
    assert await db.value("select count(*) from outbox where sent_at is null") == 0
    assert [
        r[0]
        for r in await db.rows("select ply from moves where game_id = :g order by ply", g=game_id)
    ] == [0, 1]


async def test_undeliverable_rows_do_not_hold_up_the_rest_of_the_outbox(club) -> None:
    dc = club.dc
    await club.start()
    bot = club.bot
    gone = club.members["frank"]
    dc.close_dms(gone)
    async with bot.session_factory() as session:  # DMs with nowhere to fall back to
        repo = OutboxRepository(session)
        for n in range(25):
            repo.to_user(gone.id, Post(content=f"lost {n}"))
        await session.commit()
    for _ in range(6):
        await club.flush()
    async with bot.session_factory() as session:
        OutboxRepository(session).to_channel(club.channel.id, Post(content="still delivered"))
        await session.commit()
    await club.flush()
    assert len(_posts(dc, club.channel, "still delivered")) == 1
    parked = await club_db(club).value(
        "select count(*) from outbox where sent_at is null and attempts >= 5"
    )
    assert parked == 25


async def test_a_dropped_gateway_resumes_and_a_guess_sent_meanwhile_counts_exactly(club) -> None:
    dc = club.dc
    await club.start()
    alice, bob = club.members["alice"], club.members["bob"]
    logscan.register_secret("Bahay Kubo")
    ix = await dc.slash(
        club.moderator, club.channel, "henyo start", guesser=alice, answerer=bob, word="Bahay Kubo"
    )
    assert "is running" in (await ix.next_message(timeout=10)).content
    announcement = await dc.wait_for_message(
        channel=club.channel, predicate=lambda m: m.content.startswith("🎯")
    )

    await dc.drop_gateway(resume=True)
    await dc.say(bob, club.channel, "Oo", at=announcement.created_at + timedelta(seconds=2))
    await dc.say(
        alice, club.channel, "bahay kubo", at=announcement.created_at + timedelta(seconds=9.5)
    )
    session = await dc.wait_for_session(timeout=20)
    result = await dc.wait_for_message(
        channel=club.channel, predicate=lambda m: "guessed it" in m.content, timeout=15
    )

    assert session.resumes == 1
    assert "final time **9.5 s**" in result.content
    await club.flush()
    await asyncio.sleep(0.3)
    assert len(_posts(dc, club.channel, "guessed it")) == 1

    # The game commands work on the resumed session too.
    standings = await dc.slash(alice, club.channel, "henyo standings")
    assert standings.response is not None
