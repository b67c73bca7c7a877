"""Scrabble against the computer through the loopback Discord, to the end.

A member opens a game against the bot itself with hints on, and plays every
turn from `/scrabble hint`'s first suggestion (so the member's plays are as
real as the computer's); the computer answers each move through its durable
job, survives a restart with its move pending, and the game ends with the
finishing play accepted. Then `/scrabble analyse` posts the table, nothing is
rated, and the GCG record passes the checker.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import subprocess
import sys
from typing import Any

from tests.e2e.games import game_id_of
from tests.e2e.test_scrabble import REPO, game_state, reply_text

PLAY_HINT = re.compile(r"`/scrabble play word:(\S+) position:(\S+)`")
EXCHANGE_HINT = re.compile(r"^1\. Exchange ((?:\S+ ?)+), keeping", re.M)


async def _computer_turns(club: Any, game_id: int) -> None:
    """Let the computer's job run (it answers a second after the move before it)."""
    for _ in range(70):
        state = game_state(club.db_path, game_id)
        engine = state["engine"]
        waiting_for_computer = (engine["status"] == "active" and state.get("seat") == 1) or (
            engine["status"] == "ending" and engine["moves"][-1].get("seat") == 0
        )
        if not waiting_for_computer:
            return
        club.clock.advance(seconds=2)
        await club.tick()
    raise AssertionError("the computer never moved")


async def test_a_member_plays_the_computer_to_the_end_with_hints_and_analysis(club, tmp_path):
    dc = club.dc
    await club.start()
    erin = club.members["erin"]

    # A level without the computer is refused privately, and nothing is made.
    wrong = await dc.slash(
        erin, club.channel, "scrabble new", opponent=club.members["frank"], level="strong"
    )
    assert wrong.answer.ephemeral and "level" in wrong.answer.content

    ix = await dc.slash(
        erin,
        club.channel,
        "scrabble new",
        opponent=dc.bot_user,
        level="equity",
        hints=True,
        clock="1d",
        deadline="14d",
    )
    post = ix.answer
    assert post is not None and "against me" in post.content
    assert post.pings == frozenset()  # nobody is invited, nobody is pinged
    thread = await dc.wait_until(
        lambda: next(iter(dc.threads_in(club.channel)), None), what="the game's thread"
    )
    first = await dc.wait_for_message(
        channel=thread, predicate=lambda m: "move 0" in (m.content or ""), timeout=10
    )
    assert "Computer (expert)" in first.content and "hints on (not rated)" in first.content
    number = int(re.search(r"Scrabble #(\d+)", first.content).group(1))
    game_id = game_id_of(club.db_path, club.guild.id, "scrabble", number)
    # The member who opens the game is seat 0, the computer seat 1 (either may draw first).

    turns = 0
    turns_hinted = 0
    restarted = False
    computer_posts = 0
    while game_state(club.db_path, game_id)["engine"]["status"] != "finished":
        turns += 1
        assert turns < 80, "the game should have ended"
        await _computer_turns(club, game_id)
        state = game_state(club.db_path, game_id)
        engine = state["engine"]
        if engine["status"] == "finished":
            break
        if engine["status"] == "ending":  # the computer went out: accept its last play
            board = dc.messages_in(thread)[-1]
            button = next(c for c in board.custom_ids if c.startswith("scrabble:accept"))
            accepted = await dc.click(erin, board, button)
            assert "accepted" in await reply_text(accepted)
            continue
        hint = await dc.slash(erin, thread, "scrabble hint")
        text = await reply_text(hint)
        turns_hinted += 1
        assert hint.answer.ephemeral and text.startswith(f"**Hints for Scrabble #{number}**"), text
        played = PLAY_HINT.search(text)
        exchange = EXCHANGE_HINT.search(text)
        if played and (exchange is None or played.start() < exchange.start()):
            ix = await dc.slash(
                erin, thread, "scrabble play", word=played.group(1), position=played.group(2)
            )
            assert (await reply_text(ix)).startswith("You played"), await reply_text(ix)
        elif exchange:
            tiles = "".join("?" if t == "blank" else t for t in exchange.group(1).split())
            ix = await dc.slash(erin, thread, "scrabble exchange", tiles=tiles)
            assert (await reply_text(ix)).startswith("You exchanged")
        else:
            ix = await dc.slash(erin, thread, "scrabble pass")
            assert await reply_text(ix) == "You passed."
        if not restarted and len(game_state(club.db_path, game_id)["engine"]["moves"]) >= 6:
            # The computer's move is a job in the database: a restart now loses nothing.
            await club.restart()
            restarted = True
        before = len(
            [
                m
                for m in dc.messages_in(thread)
                if "**Computer (expert)** played" in (m.content or "")
            ]
        )
        await _computer_turns(club, game_id)
        after = len(
            [
                m
                for m in dc.messages_in(thread)
                if "**Computer (expert)** played" in (m.content or "")
            ]
        )
        computer_posts += after - before

    assert restarted and computer_posts >= 3
    final = await dc.wait_for_message(
        channel=thread, predicate=lambda m: "Game over" in (m.content or ""), timeout=10
    )
    assert "Not rated (hints were on)" in final.content
    assert re.search(rf"Hints used: erin {turns_hinted}\b", final.content), final.content
    gcg = dict(final.files)[f"scrabble-{number}.gcg"]
    path = tmp_path / "vs-computer.gcg"
    path.write_bytes(gcg)
    checked = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "engines.scrabble.gcg", "check", str(path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0 and "1 passed" in checked.stdout, checked.stdout + checked.stderr
    with sqlite3.connect(club.db_path) as db:
        assert (
            db.execute("select count(*) from results where game_id = ?", (game_id,)).fetchone()[0]
            == 0
        )
        assert (
            db.execute("select count(*) from ratings where game_kind = 'scrabble'").fetchone()[0]
            == 0
        )
        computer_moves = db.execute(
            "select count(*) from moves m join games g on g.id = m.game_id "
            "where g.id = ? and m.seat = 1 and m.user_id is not null",
            (game_id,),
        ).fetchone()[0]
    assert computer_moves >= 3

    # A hint after the end is refused; the analysis is posted for everyone.
    late = await dc.slash(erin, thread, "scrabble hint", game=str(number))
    assert late.answer.ephemeral
    analysis = await dc.slash(
        club.members["frank"], club.channel, "scrabble analyse", game=str(number)
    )
    done = await analysis.wait_done(timeout=30)
    assert done is not None and not analysis.answer.ephemeral
    assert f"Scrabble #{number} — analysis" in done.content
    assert (
        "left on the table" in done.content
        and "erin" in done.content
        and "Computer (expert)" in done.content
    )
    table = (
        done.content
        if "```" in done.content
        else dict(done.files)[f"scrabble-{number}-analysis.txt"].decode()
    )
    assert "best available" in table
    assert dc.pinging_messages() == [] or all(
        "your turn" in m.content for m in dc.pinging_messages()
    )
