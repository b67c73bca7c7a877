"""Crash safety of Scrabble: the bot is killed (SIGKILL) at chosen points and restarted.

One game is played through a bot process that dies again and again. Each
restart arms the next kill point (see ``botproc``), so every kill costs one
restart. After each one the database is read directly and the thread is
inspected: every committed move is there once, nothing that was not committed
is, each board is posted exactly once, timers that fell due while the bot was
down fire once, and buttons posted before a crash still work.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from tests.reliability.games import (
    board_posts,
    invite_game_id,
    legal_play,
    reply_text,
    scrabble_moves,
    scrabble_state,
)
from tests.reliability.harness import World, assert_once, crash_point

pytestmark = pytest.mark.slow

DAY = 86400.0
LEASE = 120.0  # bot.scheduler.Scheduler's default lease


async def _version(world: World, game_id: int) -> int:
    return int(await world.db.value("select version from games where id = :id", id=game_id))


async def test_a_scrabble_game_survives_kills_at_every_step(world: World) -> None:
    dc, db = world.dc, world.db
    alice, bob = world["alice"], world["bob"]
    seats = [[alice], [bob]]
    bot = world.bot()

    # -- the acceptance commits, then the bot dies before the deal -------------------------------
    await bot.start(crash=[crash_point("commit", "UPDATE game_seats")])
    ix = await dc.slash(alice, world.channel, "scrabble new", opponent=bob, clock="1d")
    invite = ix.answer
    game_id = invite_game_id(invite)
    await dc.click(bob, invite, f"scrabble:join:{game_id}", wait=False)
    await bot.wait_crashed()
    assert await db.rows(
        "select user_id, accepted from game_seats where game_id = :g order by seat", g=game_id
    ) == [(alice.id, 1), (bob.id, 1)]
    assert await db.value("select status from games where id = :g", g=game_id) == "invited"
    assert dc.threads_in(world.channel) == []

    # -- the same Accept button, after the restart: the deal commits, the bot dies before posting --
    await bot.start(crash=[crash_point("commit", "INSERT outbox")])
    await dc.click(bob, invite, f"scrabble:join:{game_id}", wait=False)
    await bot.wait_crashed()
    assert await db.value("select status from games where id = :g", g=game_id) == "active"
    thread = assert_once(dc.threads_in(world.channel), "game thread")
    assert await db.value("select thread_id from games where id = :g", g=game_id) == thread.id
    # the first board and the first player's "your turn" DM
    assert await db.value("select count(*) from outbox where sent_at is null") == 2
    assert board_posts(world, thread, game_id, 0) == []

    # -- start-up sends the pending board; the bot dies after Discord took it, before marking it --
    #    (the DM goes out beside it, to another target: whether it was marked first is timing)
    await bot.start(crash=[crash_point("outbox_sent", "channel")], wait_ready=False)
    await bot.wait_crashed()
    assert len(board_posts(world, thread, game_id, 0)) == 1
    unsent = "select count(*) from outbox where sent_at is null and target_kind = 'channel'"
    assert await db.value(unsent) == 1

    # -- start-up sends it again with the same nonce: still one board. A play dies before commit ---
    await bot.start(crash=[crash_point("before_commit", "INSERT moves")])
    await world.wait_value("select count(*) from outbox where sent_at is null", 0)
    assert len(board_posts(world, thread, game_id, 0)) == 1
    state = await scrabble_state(db, game_id)
    version = await _version(world, game_id)
    first = seats[state["engine"]["current_seat"]][0]
    word, position = legal_play(state["engine"], seed=1)
    await dc.slash(first, thread, "scrabble play", word=word, position=position, wait=False)
    await bot.wait_crashed()
    assert await scrabble_moves(db, game_id) == []
    assert await _version(world, game_id) == version
    assert await scrabble_state(db, game_id) == state

    # -- the same play again: it commits, the bot dies before answering or posting the board -------
    await bot.start(crash=[crash_point("commit", "INSERT moves")])
    await dc.slash(first, thread, "scrabble play", word=word, position=position, wait=False)
    await bot.wait_crashed()
    moves = await scrabble_moves(db, game_id)
    assert len(moves) == 1 and moves[0][0] == 0
    assert await _version(world, game_id) == version + 1

    # -- a day passes while the bot is down: the reminder and the turn clock are due. The turn
    #    timeout dies before its commit (the reminder, committed before it, stays) ------------------
    world.time_passes(seconds=DAY + 600)
    await bot.start(crash=[crash_point("before_commit", "INSERT moves")], wait_ready=False)
    await bot.wait_crashed()
    assert len(await scrabble_moves(db, game_id)) == 1
    assert (
        await db.value("select status from jobs where key = :k", k=f"scrabble:{game_id}:turn")
        == "claimed"
    )
    assert (
        await db.value("select status from jobs where key = :k", k=f"scrabble:{game_id}:reminder")
        == "done"
    )

    # -- once the dead process's lease runs out the timeout runs again; it commits, the bot dies
    #    before announcing it ------------------------------------------------------------------------
    world.time_passes(seconds=LEASE + 30)
    await bot.start(crash=[crash_point("commit", "INSERT moves")], wait_ready=False)
    await bot.wait_crashed()
    moves = await scrabble_moves(db, game_id)
    assert [ply for ply, _ in moves] == [0, 1]
    state = await scrabble_state(db, game_id)
    assert state["engine"]["moves"][1].get("timed_out") or "time" in moves[1][1].lower(), moves

    # -- a clean start: everything owed is announced exactly once ------------------------------------
    await bot.start()
    await world.wait_post(thread, f"**Scrabble #{game_id}** · move 2\n")
    await world.wait_value("select count(*) from outbox where sent_at is null", 0)
    await world.settle()
    for move in (0, 1, 2):
        assert len(board_posts(world, thread, game_id, move)) == 1, f"board of move {move}"
    # The reminder came due in the same catch-up as the turn clock it warns of: it is
    # skipped, never sent after the turn it is about has already run out.
    second = seats[1 - seats.index([first])][0]
    assert world.bot_posts(second, "Reminder:") == []
    assert await db.value("select count(*) from outbox where sent_at is null") == 0

    # A play repeated after its commit is refused: nothing applies twice.
    again = await dc.slash(first, thread, "scrabble play", word=word, position=position)
    refusal = await reply_text(again)
    assert again.answer.ephemeral and not refusal.startswith("You played"), refusal
    assert [ply for ply, _ in await scrabble_moves(db, game_id)] == [0, 1]

    # Buttons posted before the crashes still work.
    first_board = board_posts(world, thread, game_id, 0)[0]
    rack = await dc.click(first, first_board, f"scrabble:rack:{game_id}")
    assert (await reply_text(rack)).startswith("Your rack")

    # -- kills at random moments of a play (the first with plain `python -m bot`, which takes no
    #    clock offset: the world goes back to the machine's time, and the timers set above stay a
    #    day away) -------------------------------------------------------------------------------
    rng = random.Random(20261130)
    await bot.stop()
    world.back_to_machine_time()
    for round_number in range(3):
        plain = round_number == 0
        state = await scrabble_state(db, game_id)
        before = len(await scrabble_moves(db, game_id))
        player = seats[state["engine"]["current_seat"]][0]
        word, position = legal_play(state["engine"], seed=round_number + 10)
        await bot.start(plain=plain)
        await dc.slash(player, thread, "scrabble play", word=word, position=position, wait=False)
        await asyncio.sleep(rng.uniform(0.0, 0.25))
        await bot.kill(f"random moment of a play ({round_number + 1})")
        after = len(await scrabble_moves(db, game_id))
        assert after in (before, before + 1)
        await bot.start()
        if after == before:  # lost before its commit: the member plays it again, once
            ix = await dc.slash(player, thread, "scrabble play", word=word, position=position)
            assert (await reply_text(ix)).startswith("You played")
        await world.wait_post(thread, f"**Scrabble #{game_id}** · move {before + 1}\n")
        await world.settle(0.3)
        assert len(await scrabble_moves(db, game_id)) == before + 1
        assert len(board_posts(world, thread, game_id, before + 1)) == 1
        await bot.stop()

    plies = [ply for ply, _ in await scrabble_moves(db, game_id)]
    assert plies == list(range(len(plies)))
    for move in range(len(plies) + 1):
        assert len(board_posts(world, thread, game_id, move)) == 1, f"board of move {move}"


async def test_the_computer_s_move_survives_kills_before_and_after_its_commit(world: World) -> None:
    """The computer moves through a durable job: killed before its commit, it moves after the
    restart; killed right after, the move is there once and its board is posted once."""
    dc, db = world.dc, world.db
    alice = world["alice"]
    bot = world.bot()
    await bot.start(crash=[crash_point("before_commit", "INSERT moves")])
    await dc.slash(
        alice, world.channel, "scrabble new", opponent=dc.bot_user, level="strong", clock="1d"
    )
    game_id = int(await db.value("select max(id) from games"))
    await world.wait_value("select status from games where id = :g", "active", g=game_id)
    thread = await dc.wait_until(
        lambda: next(iter(dc.threads_in(world.channel)), None), what="the game's thread"
    )
    state = await scrabble_state(db, game_id)
    if state["engine"]["current_seat"] == 0:
        # The member moves first: that play dies before its commit; the same play again commits,
        # and then the computer's answer dies before its own.
        word, position = legal_play(state["engine"], seed=5)
        await dc.slash(alice, thread, "scrabble play", word=word, position=position, wait=False)
        await bot.wait_crashed()
        assert await scrabble_moves(db, game_id) == []
        await bot.start(crash=[crash_point("before_commit", "INSERT moves", nth=2)])
        again = await dc.slash(alice, thread, "scrabble play", word=word, position=position)
        assert (await reply_text(again)).startswith("You played")
    await bot.wait_crashed()  # the computer's move, before its commit
    committed = len(await scrabble_moves(db, game_id))
    assert await db.value(
        "select status from jobs where key = :k", k=f"scrabble:{game_id}:computer"
    ) in ("due", "claimed")

    # After the restart (once the dead process's lease has run out) the job runs again:
    # the move commits and the bot dies before announcing it.
    world.time_passes(seconds=LEASE + 30)
    await bot.start(crash=[crash_point("commit", "INSERT moves")], wait_ready=False)
    await bot.wait_crashed()
    moves = await scrabble_moves(db, game_id)
    assert len(moves) > committed
    assert [ply for ply, _ in moves] == list(range(len(moves)))
    computer_entries = await db.rows(
        "select user_id from moves where game_id = :g and seat = 1 and ply >= :p",
        g=game_id,
        p=committed,
    )
    assert computer_entries and all(row[0] == dc.bot_user.id for row in computer_entries)

    # A clean start announces what was committed, once; the computer finishes its turn (after a
    # challenge it plays as well) and the game waits for the member.
    await bot.start()
    for _ in range(300):
        if (await scrabble_state(db, game_id))["engine"]["current_seat"] == 0:
            break
        await asyncio.sleep(0.05)
    await world.wait_value("select count(*) from outbox where sent_at is null", 0)
    await world.settle()
    final = await scrabble_state(db, game_id)
    count = len(final["engine"]["moves"])
    assert final["engine"]["current_seat"] == 0 and final["engine"]["status"] == "active"
    for move in range(1, count + 1):
        assert len(board_posts(world, thread, game_id, move)) <= 1, f"board of move {move}"
    assert len(board_posts(world, thread, game_id, count)) == 1

    claimed = await db.rows(
        "select kind, key, due_at, lease_until from jobs where status = 'claimed'"
    )
    assert claimed == [], claimed
