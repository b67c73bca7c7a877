"""Races: many members (or one, many times) acting on the same game at the same moment.

Each race fires 20 interactions (or DMs) without waiting between them; the
bot handles them concurrently. Exactly one applies; every other one gets a
clear private answer (none times out, none gets the "something went wrong"
apology); the database and the thread show the change once.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest

from tests.reliability import tally
from tests.reliability.games import (
    chess_invite_game_id,
    club_db,
    eventually,
    legal_play,
    open_scrabble,
    reply_text,
    scrabble_state,
)

pytestmark = pytest.mark.slow

N = 20
APOLOGY = "something went wrong"


async def _answers(interactions: list[Any]) -> list[str]:
    texts = await asyncio.gather(*(reply_text(ix, timeout=20) for ix in interactions))
    assert not any(APOLOGY in t for t in texts), texts
    return list(texts)


async def _seats(db: Any, game_id: int) -> dict[int, list[int]]:
    seats: dict[int, list[int]] = {}
    for seat, user in await db.rows(
        "select seat, user_id from game_seats where game_id = :g order by seat, user_id", g=game_id
    ):
        seats.setdefault(int(seat), []).append(int(user))
    return seats


async def test_twenty_plays_by_both_partners_at_once_apply_once(club) -> None:
    dc = club.dc
    await club.start()
    db = club_db(club)
    alice, bob, carol, dave = (club.members[n] for n in ("alice", "bob", "carol", "dave"))
    game_id, thread, _ = await open_scrabble(
        dc,
        club.channel,
        alice,
        [bob, carol, dave],
        opponent=bob,
        partner=carol,
        opponent_partner=dave,
    )
    state = await scrabble_state(db, game_id)
    users = {u.id: u for u in (alice, bob, carol, dave)}
    on_turn = [users[i] for i in (await _seats(db, game_id))[state["engine"]["current_seat"]]]
    assert len(on_turn) == 2
    word, position = legal_play(state["engine"], seed=3)

    plays = [
        await dc.slash(
            on_turn[i % 2], thread, "scrabble play", word=word, position=position, wait=False
        )
        for i in range(N)
    ]
    texts = await _answers(plays)

    assert sum(t.startswith("You played") for t in texts) == 1, texts
    assert all(ix.answer.ephemeral for ix in plays)
    await dc.wait_until(
        lambda: any("· move 1\n" in (m.content or "") for m in dc.messages_in(thread)), 10
    )
    await asyncio.sleep(0.3)
    assert await db.rows("select ply from moves where game_id = :g", g=game_id) == [(0,)]
    assert sum("· move 1\n" in (m.content or "") for m in dc.messages_in(thread)) == 1
    tally.add("races run (20 at once, applied once)")


async def test_twenty_clicks_on_one_accept_button_start_one_game(club) -> None:
    dc = club.dc
    await club.start()
    db = club_db(club)
    alice, bob = club.members["alice"], club.members["bob"]
    ix = await dc.slash(alice, club.channel, "scrabble new", opponent=bob)
    invite = ix.answer
    game_id = int(next(c for c in invite.custom_ids if c.startswith("scrabble:join")).split(":")[2])

    # A click that finds everyone accepted opens the thread unless the bot already knows it
    # (it has the invitation's id); Discord refuses the later attempts (160004), which is how
    # the cog knows the thread is there already. How many get that far depends on timing.
    dc.allow_violation("invalid_thread")
    clicks = [await dc.click(bob, invite, f"scrabble:join:{game_id}", wait=False) for _ in range(N)]
    await asyncio.gather(*(ix.wait_response(20) for ix in clicks))
    assert not any(APOLOGY in (f.content or "") for ix in clicks for f in ix.followups)

    thread = await dc.wait_until(
        lambda: next(iter(dc.threads_in(club.channel)), None), 10, "the game's thread"
    )
    await dc.wait_until(
        lambda: any("· move 0\n" in (m.content or "") for m in dc.messages_in(thread)), 10
    )
    await asyncio.sleep(0.3)
    assert len(dc.threads_in(club.channel)) == 1
    assert sum("· move 0\n" in (m.content or "") for m in dc.messages_in(thread)) == 1
    assert await db.value("select status from games where id = :g", g=game_id) == "active"
    assert (
        await db.value("select count(*) from jobs where key = :k", k=f"scrabble:{game_id}:turn")
        == 1
    )
    tally.add("races run (20 at once, applied once)")


async def test_two_opponents_challenging_the_same_play_at_once_resolve_it_once(club) -> None:
    dc = club.dc
    await club.start()
    db = club_db(club)
    alice, bob, carol = (club.members[n] for n in ("alice", "bob", "carol"))
    game_id, thread, _ = await open_scrabble(
        dc, club.channel, alice, [bob, carol], opponent=bob, opponent2=carol
    )
    state = await scrabble_state(db, game_id)
    users = {u.id: u for u in (alice, bob, carol)}
    seats = await _seats(db, game_id)
    player = users[seats[state["engine"]["current_seat"]][0]]
    word, position = legal_play(state["engine"], seed=5)
    played = await dc.slash(player, thread, "scrabble play", word=word, position=position)
    assert (await reply_text(played)).startswith("You played")
    challengers = [u for u in (alice, bob, carol) if u is not player]

    both = [await dc.slash(u, thread, "scrabble challenge", wait=False) for u in challengers]
    texts = await _answers(both)

    resolved = [t for t in texts if t.startswith(("Your challenge succeeded", "The play stands"))]
    assert len(resolved) == 1, texts
    engine = (await scrabble_state(db, game_id))["engine"]
    assert sum(1 for m in engine["moves"] if m["type"] == "challenge") == 1, engine["moves"]
    plies = [
        r[0]
        for r in await db.rows("select ply from moves where game_id = :g order by ply", g=game_id)
    ]
    assert plies == list(range(len(engine["moves"])))
    tally.add("races run (20 at once, applied once)")


async def test_twenty_identical_chess_moves_at_once_apply_once(club) -> None:
    dc = club.dc
    await club.start()
    db = club_db(club)
    alice, bob = club.members["alice"], club.members["bob"]
    ix = await dc.slash(alice, club.channel, "chess new", opponent=bob, time="3d", color="white")
    game_id = chess_invite_game_id(ix.answer)
    await dc.click(bob, ix.answer, f"chess:invite:accept:{game_id}")
    thread = await dc.wait_until(
        lambda: next(iter(dc.threads_in(club.channel)), None), 10, "the game's thread"
    )

    moves = [await dc.slash(alice, thread, "chess move", move="e4", wait=False) for _ in range(N)]
    await asyncio.gather(*(m.wait_done(20) for m in moves))

    # The one applied is acknowledged privately (its board goes to the thread through the outbox).
    applied = [m for m in moves if m.answer.content.startswith("Done. ")]
    assert len(applied) == 1, [m.answer.content for m in moves]
    board = await dc.wait_for_message(
        thread, predicate=lambda m: "played **e4**" in m.content, include_ephemeral=False
    )
    assert board.files
    assert not any(APOLOGY in (m.answer.content or "") for m in moves)
    assert await db.rows("select notation from moves where game_id = :g", g=game_id) == [("e4",)]
    tally.add("races run (20 at once, applied once)")


async def test_twenty_dms_at_once_and_one_dm_delivered_twenty_times_count_once(club) -> None:
    dc = club.dc
    await club.start()
    db = club_db(club)
    alice = club.members["alice"]
    started = await dc.slash(club.moderator, club.channel, "boggle start", duration="3m")
    await started.wait_done()
    grid = await dc.wait_until(
        lambda: next(
            (
                m
                for m in dc.messages_in(club.channel)
                if "Word Boggle — round #" in (m.content or "")
            ),
            None,
        ),
        10,
    )
    round_id = int(re.search(r"round #(\d+)", grid.content).group(1))
    club.clock.now = grid.created_at

    words = ["canoe", "tonic", "covet", "civet", "naive"]
    for i in range(N):  # no awaiting in between: the bot gets them back to back
        await dc.dm(alice, f"{words[i % 5]} {words[(i + 1) % 5]}", at=grid.created_at)
    await dc.wait_until(
        lambda: len([m for m in dc.dms_to(alice) if "has **" in (m.content or "")]) >= N,
        20,
        "an answer to every DM",
    )
    entries, listed = (
        await db.rows(
            "select entries, words from boggle_submissions where round_id = :r and player_id = :p",
            r=round_id,
            p=alice.id,
        )
    )[0]
    assert len(json.loads(entries)) == N
    assert sorted(json.loads(listed)) == sorted(words)

    # One message delivered twenty times (a gateway replay): stored once.
    async def entries() -> list[dict[str, Any]]:
        raw = await db.value(
            "select entries from boggle_submissions where round_id = :r and player_id = :p",
            r=round_id,
            p=alice.id,
        )
        return json.loads(raw)

    again = await dc.dm(alice, "acne", at=grid.created_at)

    async def stored() -> bool:
        return any(str(e["id"]) == str(again.id) for e in await entries())

    await eventually(stored, "the DM to be stored")
    for _ in range(N - 1):
        dc.dispatch_message("MESSAGE_CREATE", again)
    await asyncio.sleep(0.5)
    assert sum(1 for e in await entries() if str(e["id"]) == str(again.id)) == 1
    assert len(await entries()) == N + 1
    tally.add("races run (20 at once, applied once)", 2)


async def test_twenty_games_made_at_once_take_one_number_each_per_kind(club) -> None:
    """Ten chess challenges and ten Scrabble invitations at the same moment: each
    kind is numbered 1 to 10, no number twice, and each message names its own."""
    dc = club.dc
    await club.start()
    db = club_db(club)
    alice, bob, carol, dave = (club.members[n] for n in ("alice", "bob", "carol", "dave"))
    made = [
        await dc.slash(alice, club.channel, "chess new", opponent=bob, time="3d", wait=False)
        for _ in range(N // 2)
    ] + [
        await dc.slash(carol, club.channel, "scrabble new", opponent=dave, wait=False)
        for _ in range(N // 2)
    ]
    await asyncio.gather(*(ix.wait_done(20) for ix in made))
    shown: dict[str, list[int]] = {"chess": [], "scrabble": []}
    for ix in made:
        text = ix.answer.content
        kind = "chess" if "Chess #" in text else "scrabble"
        match = re.search(r"Chess #(\d+)" if kind == "chess" else r"\*\*Scrabble #(\d+)\*\*", text)
        assert match, text
        shown[kind].append(int(match.group(1)))
    expected = list(range(1, N // 2 + 1))
    assert sorted(shown["chess"]) == expected and sorted(shown["scrabble"]) == expected, shown
    rows = await db.rows("select kind, number from games order by kind, number")
    assert [(str(k), int(n)) for k, n in rows] == [("chess", n) for n in expected] + [
        ("scrabble", n) for n in expected
    ]
    tally.add("races run (20 at once, applied once)")
