"""Crash safety of a chess game's opening (issue #22's first window).

Accepting a challenge commits the game; its thread and opening board come
after. A kill in between must not leave a game nobody can find: the
invitation's Accept still works until the game is open in its thread, and the
opening job finishes it after a restart without a click. Either way there is
one thread and one opening board. A game against the computer killed before its
command's reply is announced and opened by the same job. A resignation's result
is posted once after a kill too. (The move's board, the second window, is in ``test_crash_chess_boggle.py``.)
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from tests.reliability import tally
from tests.reliability.games import chess_invite_game_id
from tests.reliability.harness import World, assert_once, crash_point

pytestmark = pytest.mark.slow

OPEN_RETRY_SECONDS = 30  # bot.services.chess.options.OPEN_RETRY


async def _challenge(world: World) -> tuple[Any, int]:
    ix = await world.dc.slash(
        world["alice"], world.channel, "chess new", opponent=world["bob"], time="3d", color="white"
    )
    invite = ix.answer
    assert invite is not None and "Chess #" in invite.content, ix.response
    return invite, chess_invite_game_id(invite)


async def _game(world: World, game_id: int) -> tuple[str, int | None]:
    (row,) = await world.db.rows("select status, thread_id from games where id = :g", g=game_id)
    return str(row[0]), None if row[1] is None else int(row[1])


async def _opened_once(world: World, game_id: int) -> Any:
    """After everything settled: one thread for the game, holding one opening board."""
    dc = world.dc
    thread = await dc.wait_until(
        lambda: next(iter(dc.threads_in(world.channel)), None), 15, "the game's thread"
    )
    await world.wait_post(thread, "Game on", timeout=15)
    await world.wait_value("select count(*) from outbox where sent_at is null", 0)
    await world.settle()
    assert len(dc.threads_in(world.channel)) == 1
    opening = assert_once(world.bot_posts(thread, "Game on"), "opening board")
    assert "`/chess move move:e4`" in opening.content
    assert opening.files and opening.attachments[0].description
    assert await _game(world, game_id) == ("active", thread.id)
    return thread


async def _plays(world: World, thread: Any) -> None:
    """The opened game takes a move, and its board is posted once."""
    ix = await world.dc.slash(world["alice"], thread, "chess move", move="e4")
    assert ix.answer.content.startswith("Done. "), ix.answer.content
    await world.wait_post(thread, "played **e4**")
    await world.settle()
    assert_once(world.bot_posts(thread, "played **e4**"), "board after 1. e4")


async def test_an_acceptance_killed_after_its_commit_is_finished_by_another_click(
    world: World,
) -> None:
    dc = world.dc
    bot = world.bot()
    await bot.start(crash=[crash_point("commit", "UPDATE games")])
    invite, game_id = await _challenge(world)
    await dc.click(world["bob"], invite, f"chess:invite:accept:{game_id}", wait=False)
    await bot.wait_crashed()
    # The game is accepted, but there is no thread and no board yet; the Accept is still there.
    assert await _game(world, game_id) == ("active", None)
    assert dc.threads_in(world.channel) == []
    assert dc.messages[invite.id].components

    await bot.start()
    await dc.click(world["bob"], invite, f"chess:invite:accept:{game_id}")
    thread = await _opened_once(world, game_id)
    await dc.wait_until(lambda: not dc.messages[invite.id].components, 10, "the Accept to go")
    assert "accepted! The game is in the thread below." in dc.messages[invite.id].content
    await _plays(world, thread)
    tally.add("kill points: chess acceptance after its commit (another click opens the game)")


async def test_an_acceptance_killed_before_its_opening_board_is_finished_at_the_restart(
    world: World,
) -> None:
    dc = world.dc
    bot = world.bot()
    # The thread is made; the bot dies before the opening board's outbox row commits.
    await bot.start(crash=[crash_point("before_commit", "INSERT outbox")])
    invite, game_id = await _challenge(world)
    await dc.click(world["bob"], invite, f"chess:invite:accept:{game_id}", wait=False)
    await bot.wait_crashed()
    (made,) = dc.threads_in(world.channel)
    assert world.bot_posts(made, "Game on") == []
    assert await _game(world, game_id) == ("active", None)

    # Nobody clicks: the opening job, due while the bot was down, opens the game in that thread.
    world.time_passes(seconds=OPEN_RETRY_SECONDS + 5)
    await bot.start()
    thread = await _opened_once(world, game_id)
    assert thread.id == made.id
    # The invitation's leftover Accept only takes itself off.
    await dc.click(world["bob"], invite, f"chess:invite:accept:{game_id}")
    await dc.wait_until(lambda: not dc.messages[invite.id].components, 10, "the Accept to go")
    await world.settle()
    assert_once(world.bot_posts(thread, "Game on"), "opening board")
    await _plays(world, thread)
    tally.add("kill points: chess acceptance before its opening board (the job opens the game)")


async def test_an_opening_board_committed_before_a_kill_is_posted_once_at_the_restart(
    world: World,
) -> None:
    dc = world.dc
    bot = world.bot()
    await bot.start(crash=[crash_point("commit", "INSERT outbox")])
    invite, game_id = await _challenge(world)
    await dc.click(world["bob"], invite, f"chess:invite:accept:{game_id}", wait=False)
    await bot.wait_crashed()
    (made,) = dc.threads_in(world.channel)
    assert world.bot_posts(made, "Game on") == []

    await bot.start()
    thread = await _opened_once(world, game_id)
    assert thread.id == made.id
    await _plays(world, thread)
    tally.add("kill points: chess opening board committed, not yet posted")


async def test_a_resignation_committed_before_a_kill_is_posted_once_at_the_restart(
    world: World,
) -> None:
    """A result the member chose (resigning, a draw) is in the outbox too, like a move's board."""
    dc = world.dc
    bot = world.bot()
    await bot.start(crash=[crash_point("commit", "INSERT results")])
    invite, game_id = await _challenge(world)
    await dc.click(world["bob"], invite, f"chess:invite:accept:{game_id}")
    thread = await _opened_once(world, game_id)
    await dc.slash(world["alice"], thread, "chess resign", wait=False)
    await bot.wait_crashed()
    assert await _game(world, game_id) == ("finished", thread.id)
    assert world.bot_posts(thread, "resigned") == []

    await bot.start()
    await world.wait_post(thread, "alice resigned.")
    await world.wait_value("select count(*) from outbox where sent_at is null", 0)
    await world.settle()
    result = assert_once(world.bot_posts(thread, "alice resigned."), "resignation post")
    assert "**0-1**" in result.content and result.attachments[0].description
    tally.add("kill points: a chess resignation after its commit, before its post")


STOCKFISH = "/usr/games/stockfish"


@pytest.mark.skipif(not os.access(STOCKFISH, os.X_OK), reason=f"Stockfish not found at {STOCKFISH}")
async def test_a_computer_game_killed_after_its_commit_is_announced_and_opened_at_the_restart(
    world: World,
) -> None:
    """A game against the computer is half-open like an accepted one: killed before the
    command's reply, its opening job posts the announcement itself, once, and opens the game."""
    dc = world.dc
    bot = world.bot(STOCKFISH_PATH=STOCKFISH)
    await bot.start(crash=[crash_point("commit", "INSERT games")])
    await dc.slash(
        world["alice"],
        world.channel,
        "chess new",
        opponent=dc.bot_user,
        color="white",
        level=1,
        time="3d",
        wait=False,
    )
    await bot.wait_crashed()
    ((game_id,),) = await world.db.rows("select id from games")
    assert await _game(world, int(game_id)) == ("active", None)
    assert dc.threads_in(world.channel) == []
    assert world.bot_posts(world.channel, "vs Stockfish") == []

    # Nobody does anything: the opening job, due while the bot was down, opens the game.
    world.time_passes(seconds=OPEN_RETRY_SECONDS + 5)
    await bot.start()
    thread = await _opened_once(world, int(game_id))
    announcement = assert_once(world.bot_posts(world.channel, "vs Stockfish"), "announcement")
    assert thread.id == announcement.id  # the thread is started from the announcement
    await _plays(world, thread)
    tally.add(
        "kill points: a computer chess game after its commit (the job announces and opens it)"
    )
