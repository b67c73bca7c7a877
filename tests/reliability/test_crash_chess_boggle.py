"""Crash safety of chess moves and of a Boggle round (DM'd lists, the round's end).

Chess: a move lost before its commit can simply be sent again; a move committed
just before the kill is there once, cannot be applied again, and its board (an
outbox row of the move's transaction) is posted once after the restart. Boggle: a DM'd
list committed just before a kill is kept once (also when the DM is read again
from the history at start-up), a DM sent while the bot is down is picked up,
and the round's end that fell due during the downtime is scored once.
"""

from __future__ import annotations

import io
import json
import re
from datetime import timedelta

import chess.pgn
import pytest

from tests.reliability import tally
from tests.reliability.games import chess_invite_game_id
from tests.reliability.harness import World, assert_once, crash_point

pytestmark = pytest.mark.slow

CLOSE_GRACE = 5.0  # bot.services.boggle.CLOSE_GRACE


async def _chess_moves(world: World, game_id: int) -> list[str]:
    return [
        r[0]
        for r in await world.db.rows(
            "select notation from moves where game_id = :g order by ply", g=game_id
        )
    ]


async def _pgn_moves(world: World, user: object, thread: object) -> list[str]:
    ix = await world.dc.slash(user, thread, "chess pgn")
    ((_, data),) = ix.answer.files
    game = chess.pgn.read_game(io.StringIO(data.decode("utf-8")))
    assert game is not None
    board = game.board()
    sans = []
    for move in game.mainline_moves():
        sans.append(board.san(move))
        board.push(move)
    return sans


async def test_chess_moves_survive_kills_before_and_after_their_commit(world: World) -> None:
    dc = world.dc
    alice, bob = world["alice"], world["bob"]
    bot = world.bot()

    await bot.start(crash=[crash_point("before_commit", "INSERT moves")])
    ix = await dc.slash(alice, world.channel, "chess new", opponent=bob, time="3d", color="white")
    game_id = chess_invite_game_id(ix.answer)
    await dc.click(bob, ix.answer, f"chess:invite:accept:{game_id}")
    thread = await dc.wait_until(
        lambda: next(iter(dc.threads_in(world.channel)), None), what="the game's thread"
    )
    await world.wait_post(thread, "Game on")

    # -- White's move dies before its commit: it is not there, and can be sent again ------------------
    await dc.slash(alice, thread, "chess move", move="e4", wait=False)
    await bot.wait_crashed()
    assert await _chess_moves(world, game_id) == []

    # -- Black's reply commits, the bot dies before its board is posted -------------------------------
    await bot.start(crash=[crash_point("commit", "INSERT moves", nth=2)])
    again = await dc.slash(alice, thread, "chess move", move="e4")
    assert again.answer.content.startswith("Done. "), again.answer.content
    await world.wait_post(thread, "played **e4**")
    await dc.slash(bob, thread, "chess move", move="e5", wait=False)
    await bot.wait_crashed()
    assert len(await _chess_moves(world, game_id)) == 2
    assert world.bot_posts(thread, "played **e5**") == []

    # -- after the restart the board is posted (it was in the move's outbox), once; the reply cannot --
    # -- be applied twice; the game goes on ----------------------------------------------------------
    await bot.start()
    await world.wait_post(thread, "played **e5**")
    repeat = await dc.slash(bob, thread, "chess move", move="e5")
    assert repeat.answer.ephemeral and not repeat.answer.content.startswith("Done")
    await dc.slash(alice, thread, "chess move", move="Nf3")
    await world.wait_post(thread, "played **Nf3**")
    assert len(await _chess_moves(world, game_id)) == 3
    assert await _pgn_moves(world, alice, thread) == ["e4", "e5", "Nf3"]
    await world.wait_value("select count(*) from outbox where sent_at is null", 0)
    await world.settle()
    for san in ("e4", "e5", "Nf3"):
        board = assert_once(world.bot_posts(thread, f"played **{san}**"), f"board after {san}")
        assert board.files and board.attachments[0].description
    tally.add("kill points: a chess move after its commit, before its board (posted at restart)")


async def _lists(world: World, round_id: int) -> dict[int, int]:
    """Each player's stored messages for the round."""
    rows = await world.db.rows(
        "select player_id, entries from boggle_submissions where round_id = :r", r=round_id
    )
    return {int(player): len(json.loads(entries)) for player, entries in rows}


async def test_a_boggle_round_keeps_every_list_through_kills_and_ends_once(world: World) -> None:
    dc, db = world.dc, world.db
    alice, bob = world["alice"], world["bob"]
    bot = world.bot()

    await bot.start(crash=[crash_point("commit", "INSERT boggle_submissions", nth=2)])
    started = await dc.slash(world.moderator, world.channel, "boggle start", duration="3m")
    await started.wait_done()
    grid = await world.wait_post(world.channel, re.compile(r"Word Boggle — round #\d+"))
    round_id = int(re.search(r"round #(\d+)", grid.content).group(1))
    opened = grid.created_at

    # -- Bob's first list is answered; Alice's commits and the bot dies before it answers her ----------
    await dc.dm(bob, "tonic", at=opened + timedelta(seconds=10))
    await world.wait_post(bob, re.compile(r"has \*\*1\*\*"))
    sent = await dc.dm(alice, "canoe tonic\ncovet", at=opened + timedelta(seconds=20))
    await bot.wait_crashed()
    assert await _lists(world, round_id) == {bob.id: 1, alice.id: 1}

    # -- Bob adds words while the bot is down; the restart reads both DM channels back ----------------
    await dc.dm(bob, "canoe civet", at=opened + timedelta(seconds=40))
    await bot.start()
    await world.wait_post(bob, re.compile(r"has \*\*3\*\*"))
    await world.settle()
    # Alice's DM, stored before the kill and read again from the history, counts once.
    assert await _lists(world, round_id) == {alice.id: 1, bob.id: 2}
    assert (
        await db.value("select entries from boggle_submissions where player_id = :p", p=alice.id)
    ).count(str(sent.id)) == 1

    # -- the round ends while the bot is down: the scoring commits, the bot dies before posting it ---
    await bot.kill("idle, during a Boggle round")
    world.time_passes(seconds=180 + CLOSE_GRACE + 5)
    await bot.start(crash=[crash_point("commit", "INSERT results")], wait_ready=False)
    await bot.wait_crashed()
    assert await db.value("select status from boggle_rounds where id = :r", r=round_id) == "scored"
    assert world.bot_posts(world.channel, f"round #{round_id} results") == []

    # -- a clean start posts the results once -------------------------------------------------------
    await bot.start()
    results = await world.wait_post(world.channel, f"round #{round_id} results", timeout=30)
    await world.wait_value("select count(*) from outbox where sent_at is null", 0)
    await world.settle()
    assert_once(world.bot_posts(world.channel, f"round #{round_id} results"), "results post")
    fields = " ".join(f["name"] + " " + f["value"] for f in results.embeds[0]["fields"])
    assert "alice" in fields and "bob" in fields
    # CANOE and TONIC are on both lists: cancelled on each, each shown once per player.
    assert fields.count("CANOE") == 2 and fields.count("TONIC") == 2
    scored = await db.rows(
        "select player_id from results where round_ref = :r", r=f"boggle:{round_id}"
    )
    assert sorted(scored) == sorted([(alice.id,), (bob.id,)])


async def test_a_first_boggle_list_sent_while_the_bot_is_down_is_picked_up(world: World) -> None:
    dc = world.dc
    bot = world.bot()
    await bot.start()
    started = await dc.slash(world.moderator, world.channel, "boggle start", duration="3m")
    await started.wait_done()
    grid = await world.wait_post(world.channel, re.compile(r"Word Boggle — round #\d+"))
    round_id = int(re.search(r"round #(\d+)", grid.content).group(1))
    await bot.kill("idle, before any list")
    await dc.dm(world["carol"], "canoe", at=grid.created_at + timedelta(seconds=30))
    await bot.start()
    await world.wait_post(world["carol"], re.compile(r"has \*\*1\*\*"), timeout=3)
    assert await _lists(world, round_id) == {world["carol"].id: 1}


async def test_a_boggle_dm_sent_while_the_bot_was_down_is_read_back_though_a_live_one_came_first(
    world: World,
) -> None:
    """Issue #22's third window: a DM while down, then a live DM before the read-back."""
    dc = world.dc
    bob = world["bob"]
    bot = world.bot()
    await bot.start()
    started = await dc.slash(world.moderator, world.channel, "boggle start", duration="3m")
    await started.wait_done()
    grid = await world.wait_post(world.channel, re.compile(r"Word Boggle — round #\d+"))
    round_id = int(re.search(r"round #(\d+)", grid.content).group(1))
    await dc.dm(bob, "canoe", at=grid.created_at + timedelta(seconds=10))
    await world.wait_post(bob, re.compile(r"has \*\*1\*\*"))

    await bot.kill("during a Boggle round, before a DM sent while down")
    missed = await dc.dm(bob, "tonic", at=grid.created_at + timedelta(seconds=20))
    # Hold the read-back at its first call (opening each DM channel; discord.py retries a 502
    # for up to 16 s) until Bob's next DM has arrived live and been stored.
    held = dc.fail_next("POST", r"^/users/@me/channels$", 502, count=1000)
    await bot.start()
    await dc.wait_until(lambda: held.hits >= 1, 15, "the read-back to start")
    live = await dc.dm(bob, "civet", at=grid.created_at + timedelta(seconds=30))
    await world.wait_post(bob, re.compile(r"has \*\*2\*\*"))
    assert world.bot_posts(bob, re.compile(r"has \*\*3\*\*")) == []  # the read-back is still held
    held.count = 0

    await world.wait_post(bob, re.compile(r"has \*\*3\*\*"))
    await world.settle()
    assert await _lists(world, round_id) == {bob.id: 3}
    entries = await world.db.value(
        "select entries from boggle_submissions where round_id = :r and player_id = :p",
        r=round_id,
        p=bob.id,
    )
    for message in (missed, live):
        assert entries.count(str(message.id)) == 1
    tally.add("kill points: a Boggle DM while down, then a live DM before the read-back")
